# isagen -- XML ISA descriptions turned into C.  See README.md.
#
#   make          install missing Debian packages (as root), generate, build
#                 out/lib/libisagen.{a,so}, out/include, out/bin/isa
#   make check    the above, then every test (also under ASan + UBSan)
#   make bench    pack/unpack/decode timings against hand-written baselines
#   make fuzz     libFuzzer targets for every spec (FUZZ_SECONDS each)
#   make docs     the HTML reference of every spec, into out/docs/ (docs/cli.md)
#   make docs-screenshots
#                 a screenshot of every page, into out/docs/shots/ (headless chromium)
#   make spec-review [BASE=REV]
#                 the semantic diff of every spec against BASE (default
#                 origin/main); fails on a breaking change (docs/diff.md)
#   make clean    remove out/

# Every xml/*.xml is built, as of its default version (spec NAME) and of
# each other version it declares (NAME@VERSION): adding a spec is adding the
# file.  $(OUT)/specs.mk lists them (isagen specs), for the rules below.
.DEFAULT_GOAL := all
SPEC_FILES   := $(sort $(wildcard xml/*.xml))
OUT          := out
CC           ?= gcc
ifeq ($(origin CC),default)
CC           := gcc
endif
CLANG        ?= clang
CXX_CHECKERS ?= g++ clang++
FUZZ_SECONDS ?= 20
JOBS         ?= 2

WARN    := -std=c11 -Wall -Wextra -Werror -pedantic
CFLAGS  ?= -O2 -g
ALL_CFLAGS := $(WARN) $(CFLAGS) -fPIC -I runtime/include -I $(OUT)/gen
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

ISAGEN  := gen/isagen
PYTHON  := gen/python

# Debian packages the build and the tests need; `make` installs missing
# ones when run as root and names them otherwise.
DEB_PACKAGES := python3 python3-mako python3-lxml libcriterion-dev pkg-config gcc g++ clang make libclang-rt-14-dev \
                chromium fonts-liberation

GEN_DEPS := $(wildcard gen/isagenlib/*.py gen/isagenlib/*/*.py) $(wildcard gen/templates/*.mako) gen/isagen gen/python \
            xml/isagen.rng runtime/include/isagen/core.h

# SPECS and SPEC_PREFIXES (the specs' C prefixes), remade when a spec file
# or the generator changes; make then restarts with them.
ifeq ($(filter clean deps,$(MAKECMDGOALS)),)
-include $(OUT)/specs.mk
endif
$(OUT)/specs.mk: $(SPEC_FILES) $(GEN_DEPS) | deps
	@mkdir -p $(@D)
	$(ISAGEN) specs --make $(SPEC_FILES) > $@.tmp && mv $@.tmp $@

GEN_C   := $(SPEC_PREFIXES:%=$(OUT)/gen/%.c) $(OUT)/gen/isagen_specs.c
GEN_H   := $(SPEC_PREFIXES:%=$(OUT)/gen/%.h)

RT_SRC  := $(wildcard runtime/src/*.c)
RT_HDR  := $(wildcard runtime/include/isagen/*.h)
CLI_SRC := $(wildcard runtime/cli/*.c)

LIB_OBJ := $(RT_SRC:runtime/src/%.c=$(OUT)/obj/rt/%.o) $(GEN_C:$(OUT)/gen/%.c=$(OUT)/obj/gen/%.o)
CLI_OBJ := $(CLI_SRC:runtime/cli/%.c=$(OUT)/obj/cli/%.o)

.PHONY: all deps lib cli headers docs docs-screenshots spec-review check test-gen test-c test-cli test-new-spec test-asan test-cxx bench fuzz clean
.DELETE_ON_ERROR:

all: deps lib cli headers

# ---- set-up ---------------------------------------------------------------

deps:
	@missing=""; \
	if command -v dpkg-query >/dev/null 2>&1; then \
	  for p in $(DEB_PACKAGES); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	  done; \
	fi; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "isagen: installing Debian packages:$$missing"; \
	    (apt-get install -y --no-install-recommends $$missing >/dev/null 2>&1 || \
	     { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; }) || exit 1; \
	  else \
	    echo "isagen: missing Debian packages:$$missing"; \
	    echo "isagen: install them with:  sudo apt-get install$$missing"; \
	    exit 1; \
	  fi; \
	fi
	@$(PYTHON) --which >/dev/null

# ---- generation -------------------------------------------------------------
# One isagen run writes every spec (and the registry of them): the schema is
# read and the templates compiled once.  It rewrites only the files whose
# text changed, so only those are compiled again.

$(OUT)/gen/.stamp: $(SPEC_FILES) $(GEN_DEPS) $(OUT)/specs.mk | deps
	@mkdir -p $(OUT)/gen
	$(ISAGEN) generate --all-versions $(SPEC_FILES) -o $(OUT)/gen --registry $(OUT)/gen/isagen_specs.c
	@touch $@

$(GEN_C) $(GEN_H): $(OUT)/gen/.stamp ;

# ---- the library and the CLI --------------------------------------------------

$(OUT)/obj/rt/%.o: runtime/src/%.c $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/obj/gen/%.o: $(OUT)/gen/%.c $(GEN_H) $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/obj/cli/%.o: runtime/cli/%.c runtime/cli/cli.h $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/lib/libisagen.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(OUT)/lib/libisagen.so: $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $^ -lm

$(OUT)/bin/isa: $(CLI_OBJ) $(OUT)/lib/libisagen.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(OUT)/lib/libisagen.a -lm

lib: $(OUT)/lib/libisagen.a $(OUT)/lib/libisagen.so
cli: $(OUT)/bin/isa

headers: $(RT_HDR) $(GEN_H)
	@mkdir -p $(OUT)/include/isagen
	@cp runtime/include/isagen/*.h $(OUT)/include/isagen/
	@cp $(GEN_H) $(OUT)/include/

# The reference manual: a page per spec version, and a screenshot of each
# (out of git; for looking at the pages without a browser).
docs: deps
	$(ISAGEN) doc $(SPEC_FILES) -o $(OUT)/docs

docs-screenshots: docs
	@mkdir -p $(OUT)/docs/shots
	@for p in $(OUT)/docs/*.html; do \
	  chromium --headless --no-sandbox --disable-gpu --window-size=1400,2400 \
	    --screenshot=$(OUT)/docs/shots/$$(basename $$p .html).png file://$(abspath .)/$$p 2>/dev/null && \
	  echo $(OUT)/docs/shots/$$(basename $$p .html).png; \
	done

# The CI recipe of docs/diff.md: every spec against BASE, every version,
# failing on a breaking change (a spec new since BASE is skipped).
BASE ?= origin/main
spec-review: deps
	@status=0; for f in $(SPEC_FILES); do \
	  if git cat-file -e "$(BASE):$$f" 2>/dev/null; then \
	    $(ISAGEN) diff --all-versions --fail-on breaking "$$f@$(BASE)" "$$f" || status=1; \
	  else echo "$$f: new since $(BASE)"; fi; \
	done; exit $$status

# ---- tests ------------------------------------------------------------------------

include tests/tests.mk

clean:
	rm -rf $(OUT)
