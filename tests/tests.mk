# Tests, benchmarks and fuzzers; included by the top-level Makefile.
#
#   make check   test-gen    generator unit tests and must-fail XML files (unittest)
#                test-c      Criterion tests: runtime, SPH corpus, toy specs, properties
#                test-cli    the isa command against the corpora (unittest)
#                test-cxx    generated headers as C++ (g++, clang++); all C with clang
#                test-asan   test-c and test-cli again, built with ASan + UBSan

# Toy specs exercise the XML features no shipped spec uses yet
# (presence-masked bit-packed bundles, variable-length opcode-matched
# instructions with operand rules, token streams with follow-up tokens).
TOYS        := toy-bundle toy-varlen toy-tokens toy-listing toy-tagged
TOY_PREFIX  := $(foreach t,$(TOYS),$(call prefix_of,$(t)))
TOY_GEN_C   := $(TOY_PREFIX:%=$(OUT)/tests/gen/%.c)
TOY_GEN_H   := $(TOY_PREFIX:%=$(OUT)/tests/gen/%.h)
CORPORA     := nv-sph lima-pp lima-gp lima-pp-excluded tgsi agx agx-2021 midgard midgard-excluded
CORPUS_C    := $(foreach c,$(CORPORA),$(OUT)/tests/gen/corpus_$(call prefix_of,$(c)).c)

UNIT_SRC    := $(wildcard tests/unit/*.c)
CRITERION   := $(shell pkg-config --cflags --libs criterion 2>/dev/null || echo -lcriterion)
# Corpus texts become C string literals longer than the 4095 characters C99
# promises; gcc and clang take them, so only the test build allows them.
TEST_CFLAGS := $(WARN) -O1 -g -I runtime/include -I $(OUT)/gen -I $(OUT)/tests/gen -I tests/unit -Wno-overlength-strings

define toy_rules
$(OUT)/tests/gen/$(call prefix_of,$(1)).c $(OUT)/tests/gen/$(call prefix_of,$(1)).h &: tests/specs/$(1).xml $(GEN_DEPS) | deps
	@mkdir -p $(OUT)/tests/gen
	$(ISAGEN) generate tests/specs/$(1).xml -o $(OUT)/tests/gen
endef
$(foreach t,$(TOYS),$(eval $(call toy_rules,$(t))))

$(OUT)/tests/gen/corpus_%.c: tests/corpus2c.py $(wildcard tests/corpus/*.jsonl tests/corpus/*.quirks.json) | deps
	@mkdir -p $(@D)
	$(PYTHON) tests/corpus2c.py $(subst _,-,$*) tests/corpus/$(subst _,-,$*).jsonl -o $@

TEST_SOURCES = $(UNIT_SRC) $(TOY_GEN_C) $(CORPUS_C)

# ---- the Criterion binary, plain and sanitized ----

$(OUT)/tests/unit-tests: $(TEST_SOURCES) $(TOY_GEN_H) $(OUT)/lib/libisagen.a tests/unit/*.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ $(TEST_SOURCES) $(OUT)/lib/libisagen.a $(CRITERION) -lm

ASAN_OBJ_SRC := $(RT_SRC) $(GEN_C)
$(OUT)/asan/lib/libisagen.a: $(ASAN_OBJ_SRC) $(GEN_H) $(RT_HDR)
	@mkdir -p $(OUT)/asan/obj $(@D)
	rm -f $@
	set -e; for f in $(ASAN_OBJ_SRC); do \
	  $(CC) $(WARN) -O1 -g $(SANITIZE) -I runtime/include -I $(OUT)/gen -c $$f -o $(OUT)/asan/obj/$$(basename $$f .c).o; \
	done; ar rcs $@ $(OUT)/asan/obj/*.o

$(OUT)/asan/bin/isa: $(CLI_SRC) runtime/cli/cli.h $(OUT)/asan/lib/libisagen.a
	@mkdir -p $(@D)
	$(CC) $(WARN) -O1 -g $(SANITIZE) -I runtime/include -o $@ $(CLI_SRC) $(OUT)/asan/lib/libisagen.a -lm

$(OUT)/asan/unit-tests: $(TEST_SOURCES) $(TOY_GEN_H) $(OUT)/asan/lib/libisagen.a tests/unit/*.h
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

test-asan: $(OUT)/asan/unit-tests $(OUT)/asan/bin/isa
	ASAN_OPTIONS=detect_leaks=1 ISAGEN_CORPUS_DIR=tests/corpus $(OUT)/asan/unit-tests --jobs $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 ISA=$(OUT)/asan/bin/isa $(PYTHON) -m unittest discover -s tests/cli -t .

check: all test-gen test-cxx test-c test-cli test-asan
	@echo "make check: all tests passed"

# ---- benchmarks ----

$(OUT)/bench/bench: tests/bench/*.c tests/bench/*.h $(OUT)/lib/libisagen.a $(GEN_H)
	@mkdir -p $(@D)
	$(CC) $(WARN) -O2 -g -I runtime/include -I $(OUT)/gen -I tests/bench -o $@ tests/bench/*.c $(OUT)/lib/libisagen.a -lm

bench: $(OUT)/bench/bench
	$(OUT)/bench/bench $(BENCH_ARGS)

# ---- fuzzing: one libFuzzer target per spec, from one harness ----

FUZZ_FLAGS := -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I runtime/include -I $(OUT)/gen

$(OUT)/fuzz/fuzz-%: tests/fuzz/fuzz_spec.c $(RT_SRC) $(GEN_C) $(GEN_H) $(RT_HDR)
	@mkdir -p $(@D)
	$(CLANG) $(FUZZ_FLAGS) -DFUZZ_SPEC='"$*"' -o $@ tests/fuzz/fuzz_spec.c $(RT_SRC) $(GEN_C) -lm

$(OUT)/fuzz/seeds-%/.done: tests/fuzz/seeds.py $(wildcard tests/corpus/*.jsonl) | deps
	@mkdir -p $(@D)
	$(PYTHON) tests/fuzz/seeds.py $* tests/corpus $(@D)
	@touch $@

fuzz: $(SPECS:%=$(OUT)/fuzz/fuzz-%) $(SPECS:%=$(OUT)/fuzz/seeds-%/.done)
	@set -e; for s in $(SPECS); do \
	  mkdir -p $(OUT)/fuzz/corpus-$$s; \
	  echo "fuzz: $$s for $(FUZZ_SECONDS) s"; \
	  $(OUT)/fuzz/fuzz-$$s -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    $(OUT)/fuzz/corpus-$$s $(OUT)/fuzz/seeds-$$s 2>&1 | tail -n 12; \
	done
