# Tests, benchmarks and fuzzers; included by the top-level Makefile.
#
#   make check   test-gen    generator unit tests and must-fail XML files (unittest)
#                test-c      Criterion tests: runtime, SPH corpus, toy specs, properties
#                test-cli    the isa command against the corpora (unittest)
#                test-cxx    generated headers as C++ (g++, clang++); all C with clang
#                test-new-spec  a spec file and a corpus copied in are all a new spec takes
#                test-install  make install into a scratch DESTDIR, used from outside
#                test-speclib  isagen build of a toy spec, loaded by isa --load
#                test-embedding  docs/embedding.md's Make, CMake and Meson recipes, built and run
#                test-valgrind  programs that must read nothing uninitialised (valgrind)
#                test-asan   test-c and test-cli again, built with ASan + UBSan (the assembler
#                            reads every 8th corpus record there, and the CLI tests every
#                            8th TGSI source: ISAGEN_ASM_EVERY)
#                test-spec-fuzz  a short, fixed run of the spec fuzzer (tests/fuzz/spec_fuzz.py)
#                test-io-fuzz  the CLI's output, hex/--batch, ELF and assembler fuzz targets on fixed random inputs
#   make check-asm-gaps  (not in check, slow) the records listed as not assembled yet still are not

# Toy specs exercise the XML features no shipped spec uses yet
# (presence-masked bit-packed bundles, variable-length opcode-matched
# instructions with operand rules, token streams with follow-up tokens).
# Each tests/specs/NAME.xml is spec NAME (C prefix NAME with - as _).
TOY_FILES   := $(sort $(wildcard tests/specs/*.xml))
TOY_PREFIX  := $(subst -,_,$(basename $(notdir $(TOY_FILES))))
TOY_GEN_C   := $(TOY_PREFIX:%=$(OUT)/tests/gen/%.c)
TOY_GEN_H   := $(TOY_PREFIX:%=$(OUT)/tests/gen/%.h)
# Every tests/corpus/*.jsonl, for the spec its records' "isa" names
# (tests/corpora.py), in one C file.
CORPUS_FILES := $(sort $(wildcard tests/corpus/*.jsonl))
CORPUS_C    := $(OUT)/tests/gen/corpora.c

UNIT_SRC    := $(wildcard tests/unit/*.c)
# the isa command's sources but its main(), for the output fuzz target
CLI_PARTS   := $(filter-out runtime/cli/main.c,$(CLI_SRC))
CRITERION   := $(shell pkg-config --cflags --libs criterion 2>/dev/null || echo -lcriterion)
# Corpus texts become C string literals longer than the 4095 characters C99
# promises; gcc and clang take them, so only the test build allows them.
TEST_CFLAGS := $(WARN) -O1 -g -I runtime/include -I $(OUT)/gen -I $(OUT)/tests/gen -I tests/unit -Wno-overlength-strings

$(OUT)/tests/gen/.stamp: $(TOY_FILES) $(GEN_DEPS) | deps
	@mkdir -p $(OUT)/tests/gen
	$(ISAGEN) generate $(TOY_FILES) -o $(OUT)/tests/gen
	@touch $@

$(TOY_GEN_C) $(TOY_GEN_H): $(OUT)/tests/gen/.stamp ;

$(CORPUS_C) $(CORPUS_C:.c=.h) &: tests/corpus2c.py tests/corpora.py $(CORPUS_FILES) $(wildcard tests/corpus/*.quirks.json tests/corpus/*.asm-gaps.json) \
                              $(OUT)/specs.mk | deps
	@mkdir -p $(@D)
	$(PYTHON) tests/corpus2c.py --specs "$(SPECS)" -o $(CORPUS_C) $(CORPUS_FILES)

TEST_SOURCES = $(UNIT_SRC) $(TOY_GEN_C) $(CORPUS_C)

# ---- the Criterion binary, plain and sanitized ----

$(OUT)/tests/unit-tests: $(TEST_SOURCES) $(TOY_GEN_H) $(CORPUS_C:.c=.h) $(OUT)/lib/libisagen.a tests/unit/*.h tests/plain_json.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $(TEST_SOURCES) $(OUT)/lib/libisagen.a $(CRITERION) -lm

# one object per source, so that make -j compiles them side by side
ASAN_OBJ := $(RT_SRC:runtime/src/%.c=$(OUT)/asan/obj/rt/%.o) $(GEN_C:$(OUT)/gen/%.c=$(OUT)/asan/obj/gen/%.o)
$(OUT)/asan/obj/rt/%.o: runtime/src/%.c $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SANITIZE) -I runtime/include -I $(OUT)/gen -c $< -o $@
$(OUT)/asan/obj/gen/%.o: $(OUT)/gen/%.c $(GEN_H) $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(GEN_CFLAGS) $(SANITIZE) -I runtime/include -I $(OUT)/gen -c $< -o $@
$(OUT)/asan/lib/libisagen.a: $(ASAN_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(OUT)/asan/bin/isa: $(CLI_SRC) runtime/cli/cli.h $(OUT)/asan/lib/libisagen.a
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SANITIZE) -I runtime/include -o $@ $(CLI_SRC) $(OUT)/asan/lib/libisagen.a -lm -ldl

# the CLI's fuzz targets without libFuzzer (tests/fuzz/run_inputs.c): its
# output, its hex and --batch input, its ELF reader, on fixed random inputs
# under ASan + UBSan
$(OUT)/asan/fuzz-output: tests/fuzz/fuzz_out.c tests/plain_json.h tests/fuzz/run_inputs.c $(CLI_PARTS) runtime/cli/cli.h \
                         $(OUT)/asan/lib/libisagen.a
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SANITIZE) -I runtime/include -o $@ tests/fuzz/fuzz_out.c tests/fuzz/run_inputs.c \
	  $(CLI_PARTS) $(OUT)/asan/lib/libisagen.a -lm -ldl
$(OUT)/asan/fuzz-hex-input: tests/fuzz/fuzz_hex.c tests/fuzz/run_inputs.c runtime/cli/input.c runtime/cli/cli.h $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SANITIZE) -I runtime/include -o $@ tests/fuzz/fuzz_hex.c tests/fuzz/run_inputs.c \
	  runtime/cli/input.c
$(OUT)/asan/fuzz-elf-input: tests/fuzz/fuzz_elf.c tests/fuzz/run_inputs.c runtime/cli/elf.c runtime/cli/cli.h $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SANITIZE) -I runtime/include -o $@ tests/fuzz/fuzz_elf.c tests/fuzz/run_inputs.c \
	  runtime/cli/elf.c

$(OUT)/asan/fuzz-asm: tests/fuzz/fuzz_asm.c tests/fuzz/run_inputs.c $(OUT)/asan/lib/libisagen.a
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SANITIZE) -I runtime/include -I $(OUT)/gen -o $@ tests/fuzz/fuzz_asm.c tests/fuzz/run_inputs.c \
	  $(OUT)/asan/lib/libisagen.a -lm

test-io-fuzz: $(OUT)/asan/fuzz-output $(OUT)/asan/fuzz-hex-input $(OUT)/asan/fuzz-elf-input $(OUT)/asan/fuzz-asm
	set -e; for t in $^; do echo "$$t:"; $$t 100000 1; done

$(OUT)/asan/unit-tests: $(TEST_SOURCES) $(TOY_GEN_H) $(CORPUS_C:.c=.h) $(OUT)/asan/lib/libisagen.a tests/unit/*.h tests/plain_json.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) $(SANITIZE) -o $@ $(TEST_SOURCES) $(OUT)/asan/lib/libisagen.a $(CRITERION) -lm

# ---- running them ----

test-gen: deps
	$(PYTHON) -m unittest discover -s tests/gen -t . $(if $(VERBOSE),-v,)

test-c: $(OUT)/tests/unit-tests
	ISAGEN_CORPUS_DIR=tests/corpus $(OUT)/tests/unit-tests --jobs $(JOBS)

test-cli: $(OUT)/bin/isa
	ISA=$(OUT)/bin/isa $(PYTHON) -m unittest discover -s tests/cli -t . $(if $(VERBOSE),-v,)

test-cxx: $(GEN_H) $(TOY_GEN_H) $(GEN_C) $(TOY_GEN_C)
	@set -e; for h in $(GEN_H) $(TOY_GEN_H); do \
	  for cxx in $(CXX_CHECKERS); do \
	    printf '#include "%s"\nint main() { return 0; }\n' $$(basename $$h) | \
	      $$cxx -std=c++11 -Wall -Wextra -Werror -pedantic -I $$(dirname $$h) -x c++ -fsyntax-only - ; \
	  done; \
	done; echo "test-cxx: generated headers compile as C++ with $(CXX_CHECKERS)"
	@set -e; for f in $(RT_SRC) $(CLI_SRC) $(GEN_C) $(TOY_GEN_C); do \
	  $(CLANG) $(WARN) -I runtime/include -I $(OUT)/gen -I $(OUT)/tests/gen -fsyntax-only $$f; \
	done; echo "test-cxx: runtime and generated C compile with $(CLANG)"

# the records the assembler lists as not read back yet (tests/corpus/*.asm-gaps.json):
# each must still not be, so a gap closed is a gap taken off the list (slow: not in check)
check-asm-gaps: $(OUT)/tests/unit-tests
	ISAGEN_CORPUS_DIR=tests/corpus ISAGEN_ASM_GAPS=1 $(OUT)/tests/unit-tests --filter 'asm/every*'

test-asan: $(OUT)/asan/unit-tests $(OUT)/asan/bin/isa
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp) ISAGEN_CORPUS_DIR=tests/corpus \
	  ISAGEN_ASM_EVERY=8 $(OUT)/asan/unit-tests --jobs $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ISA=$(OUT)/asan/bin/isa ISAGEN_ASM_EVERY=8 $(PYTHON) -m unittest discover -s tests/cli -t .

# make install into a scratch DESTDIR; a program outside the tree built with
# pkg-config; the installed isagen generating a toy spec; make uninstall
test-install: all
	$(PYTHON) -m unittest tests.build.test_install $(if $(VERBOSE),-v,)

# a spec that is not in xml/, built by isagen build and loaded by isa --load
test-speclib: $(OUT)/bin/isa
	ISAGEN_OUT=$(abspath $(OUT)) $(PYTHON) -m unittest tests.build.test_speclib $(if $(VERBOSE),-v,)

# docs/embedding.md's recipes against an install under a scratch prefix
test-embedding: all
	$(PYTHON) -m unittest tests.build.test_embedding $(if $(VERBOSE),-v,)

# tests/valgrind/*.c: programs over the generated headers that valgrind must
# find reading nothing uninitialised (switching a struct's variant)
VALGRIND_TESTS := $(patsubst tests/valgrind/%.c,$(OUT)/tests/valgrind/%,$(wildcard tests/valgrind/*.c))
$(OUT)/tests/valgrind/%: tests/valgrind/%.c $(GEN_H)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -I $(OUT)/gen -o $@ $<
test-valgrind: $(VALGRIND_TESTS)
	set -e; for t in $(VALGRIND_TESTS); do valgrind --error-exitcode=1 --quiet $$t; done

# adding xml/NAME.xml (and tests/corpus/NAME.jsonl) is all it takes: proven
# on a scratch copy of the checkout with a toy spec copied in
test-new-spec: $(OUT)/bin/isa $(OUT)/tests/unit-tests
	ISAGEN_OUT=$(abspath $(OUT)) $(PYTHON) -m unittest tests.build.test_new_spec

check: all test-gen test-cxx test-c test-cli test-new-spec test-install test-speclib test-embedding test-valgrind \
       test-asan test-spec-fuzz test-io-fuzz
	@echo "make check: all tests passed"

# ---- benchmarks ----

# (with the CLI but its main: the "batch, in process" cases call its batch_answer)
$(OUT)/bench/bench: tests/bench/*.c tests/bench/*.h $(CLI_PARTS) runtime/cli/cli.h $(OUT)/lib/libisagen.a $(GEN_H)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -I runtime/include -I runtime/cli -I $(OUT)/gen -I tests/bench -o $@ tests/bench/*.c \
	  $(CLI_PARTS) $(OUT)/lib/libisagen.a -lm -ldl

# make bench BASELINE=REV: the same benchmark built from revision REV (in
# $(OUT)/baseline, from git archive), both run alternately, as ratios.
ifeq ($(BASELINE),)
bench: $(OUT)/bench/bench $(OUT)/bin/isa
	$(OUT)/bench/bench $(BENCH_ARGS)
	$(PYTHON) tests/bench/batch.py $(OUT)/bin/isa tests/corpus $(OUT)/bench/bench
	$(PYTHON) tests/bench/lint_scale.py $(ISAGEN)
else
bench: $(OUT)/bench/bench
	rm -rf $(OUT)/baseline && mkdir -p $(OUT)/baseline
	git archive --format=tar $(BASELINE) | tar -x -C $(OUT)/baseline
	$(MAKE) -C $(OUT)/baseline -s out/bench/bench >/dev/null
	$(PYTHON) tests/bench/compare.py $(OUT)/baseline/out/bench/bench $(OUT)/bench/bench $(BENCH_ROUNDS) -- $(BENCH_ARGS)
endif
BENCH_ROUNDS ?= 3

# ---- fuzzing: one libFuzzer target per spec, from one harness ----

FUZZ_FLAGS := -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DISA_OUT_CHECK_RUNS -I runtime/include -I $(OUT)/gen

$(OUT)/fuzz/fuzz-%: tests/fuzz/fuzz_spec.c $(RT_SRC) $(GEN_C) $(GEN_H) $(RT_HDR)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -DFUZZ_SPEC='"$*"' -o $@ tests/fuzz/fuzz_spec.c $(RT_SRC) $(GEN_C) -lm

# the CLI's hex input, against a plain reading of it
$(OUT)/fuzz/fuzz-hex-input: tests/fuzz/fuzz_hex.c runtime/cli/input.c runtime/cli/cli.h $(RT_HDR)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_hex.c runtime/cli/input.c

# the output layer: sinks and formatters against plain references, and
# programs printed as isa dis prints them (the CLI but its main)
$(OUT)/fuzz/fuzz-output: tests/fuzz/fuzz_out.c tests/plain_json.h $(CLI_PARTS) runtime/cli/cli.h $(RT_SRC) $(GEN_C) $(GEN_H) $(RT_HDR)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_out.c $(CLI_PARTS) $(RT_SRC) $(GEN_C) -lm -ldl

$(OUT)/fuzz/seeds-output/.done:
	@mkdir -p $(@D)
	printf '\000\000\004\000\003\007\010\002\001\050\001\000hello "json" \303\251 \377 end' > $(@D)/script
	printf '\001\000\001\142\002\075\023\052\005\304\061' > $(@D)/dis
	@touch $@

$(OUT)/fuzz/fuzz-elf-input: tests/fuzz/fuzz_elf.c runtime/cli/elf.c runtime/cli/cli.h $(RT_HDR)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_elf.c runtime/cli/elf.c

# seeds: the same eight bytes of AGX code as ELF files of each class and byte order
$(OUT)/fuzz/seeds-elf-input/.done:
	@mkdir -p $(@D)
	printf '\142\002\075\023\052\005\304\061' > $(@D)/code.bin
	objcopy -I binary -O elf64-x86-64 --rename-section .data=.text $(@D)/code.bin $(@D)/le64
	objcopy -I binary -O elf32-big --rename-section .data=.text $(@D)/code.bin $(@D)/be32
	rm $(@D)/code.bin
	@touch $@

# the text assembler (isagen/asm.h), for every spec that has one: any text
# gives a status, diagnostics that point into it and a size within the
# buffer, and a text it accepts gives bytes that print as that text
$(OUT)/fuzz/fuzz-asm: tests/fuzz/fuzz_asm.c $(RT_SRC) $(GEN_C) $(GEN_H) $(RT_HDR)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_asm.c $(RT_SRC) $(GEN_C) -lm

# seeds: corpus texts, programs and listings as isa dis prints them, and
# each with a random edit (tests/fuzz/asm_seeds.py)
$(OUT)/fuzz/seeds-asm/.done: tests/fuzz/asm_seeds.py tests/corpora.py $(CORPUS_FILES) $(OUT)/bin/isa | deps
	@mkdir -p $(@D)
	$(PYTHON) tests/fuzz/asm_seeds.py $(OUT)/bin/isa tests/corpus $(@D) "$(SPECS)"
	@touch $@

$(OUT)/fuzz/seeds-hex-input/.done:
	@mkdir -p $(@D)
	printf '6104020000' > $(@D)/plain
	printf '61 04\t02\r\n0A0b' > $(@D)/spaced
	printf '6104x0' > $(@D)/bad
	@touch $@

$(OUT)/fuzz/seeds-%/.done: tests/fuzz/seeds.py tests/corpora.py $(CORPUS_FILES) | deps
	@mkdir -p $(@D)
	$(PYTHON) tests/fuzz/seeds.py $* tests/corpus $(@D) "$(SPECS)"
	@touch $@

# The generator's contract (docs/design.md, "What lint guarantees"): mutated
# specs either lint with file:line:col errors or generate C that compiles
# with -Werror and survives random input under ASan and UBSan.  A fixed
# seed, so make check sees the same mutants every time; make fuzz runs more,
# from SPEC_FUZZ_SEED, and lints mutants of the shipped specs too.
test-spec-fuzz: | deps
	$(PYTHON) tests/fuzz/spec_fuzz.py --out $(OUT)/spec-fuzz --seed 1 --mutants 60 --builds 6 --inputs 1000 \
	  $(TOY_FILES)

SPEC_FUZZ_SEED ?= $(shell date +%s)
spec-fuzz: | deps
	$(PYTHON) tests/fuzz/spec_fuzz.py --out $(OUT)/spec-fuzz --seed $(SPEC_FUZZ_SEED) --mutants 1000 --builds 60 \
	  --inputs 5000 $(TOY_FILES)
	$(PYTHON) tests/fuzz/spec_fuzz.py --out $(OUT)/spec-fuzz-shipped --seed $(SPEC_FUZZ_SEED) --mutants 300 \
	  --builds 0 $(SPEC_FILES)

fuzz: spec-fuzz $(SPECS:%=$(OUT)/fuzz/fuzz-%) $(SPECS:%=$(OUT)/fuzz/seeds-%/.done) $(OUT)/fuzz/fuzz-hex-input \
      $(OUT)/fuzz/seeds-hex-input/.done $(OUT)/fuzz/fuzz-elf-input $(OUT)/fuzz/seeds-elf-input/.done \
      $(OUT)/fuzz/fuzz-output $(OUT)/fuzz/seeds-output/.done $(OUT)/fuzz/fuzz-asm $(OUT)/fuzz/seeds-asm/.done
	@set -e; for s in $(SPECS) hex-input elf-input output asm; do \
	  mkdir -p $(OUT)/fuzz/corpus-$$s; \
	  echo "fuzz: $$s for $(FUZZ_SECONDS) s"; \
	  $(OUT)/fuzz/fuzz-$$s -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    $(OUT)/fuzz/corpus-$$s $(OUT)/fuzz/seeds-$$s 2>&1 | tail -n 12; \
	done
