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
#   make install  [PREFIX=/usr/local] [DESTDIR=] isa, isagen, headers, the
#                 libraries and isagen.pc; make uninstall removes them
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
JOBS         ?= $(shell nproc 2>/dev/null || echo 2)
# `make` alone builds on every core (the two AGX builds take most of it);
# a -j on the command line wins over this.  `make clean all` stays in order.
MAKEFLAGS += -j$(JOBS)
ifneq ($(filter clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif

WARN    := -std=c11 -Wall -Wextra -Werror -pedantic
CFLAGS  ?= -O2 -g
ALL_CFLAGS := $(WARN) $(CFLAGS) -fPIC -ffunction-sections -fdata-sections -I runtime/include -I $(OUT)/gen
# Every function and table of the library in a section of its own (above),
# so that a program linking it drops what it never reaches (--gc-sections),
# and keeps one copy of functions that compiled to the same code
# (--icf=all, gold's: the spec builds of one XML file share many, and no
# code here compares function pointers) where the compiler can use gold.
LINK_SMALL := -Wl,--gc-sections $(shell printf 'int main(void){return 0;}' | \
   $(CC) -fuse-ld=gold -Wl,--icf=all -x c - -o /dev/null 2>/dev/null && echo -fuse-ld=gold -Wl,--icf=all)
# ISA_OUT_CHECK_RUNS: every printer run in a heap block of its exact bound (isagen.h)
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DISA_OUT_CHECK_RUNS

ISAGEN  := gen/isagen
PYTHON  := gen/python

# Debian packages the build and the tests need; `make` installs missing
# ones when run as root and names them otherwise.
DEB_PACKAGES := python3 python3-mako python3-lxml libcriterion-dev pkg-config gcc g++ clang make libclang-rt-14-dev \
                valgrind cmake meson ninja-build chromium fonts-liberation

GEN_DEPS := $(wildcard gen/isagenlib/*.py gen/isagenlib/*/*.py) $(wildcard gen/templates/*.mako) gen/isagen gen/python \
            xml/isagen.rng runtime/include/isagen/core.h

# SPECS and SPEC_PREFIXES (the specs' C prefixes), remade when a spec file
# or the generator changes; make then restarts with them.
# (not for `make clean` or `make deps` alone; `make clean all` needs them)
ifneq ($(if $(MAKECMDGOALS),$(filter-out clean deps,$(MAKECMDGOALS)),all),)
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

.PHONY: all deps lib cli headers install uninstall docs docs-screenshots spec-review check test-gen test-c test-cli test-new-spec test-install test-speclib test-embedding test-valgrind test-asan test-cxx test-spec-fuzz test-io-fuzz check-asm-gaps spec-fuzz bench fuzz clean
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

# Variable tracking (debug info for locals in optimised code) is a third of
# the time gcc spends on the large generated files, and tells little about
# generated code: their debug info keeps lines and types.
GEN_CFLAGS := $(shell $(CC) -fno-var-tracking -Werror -E -x c /dev/null >/dev/null 2>&1 && echo -fno-var-tracking)

$(OUT)/obj/gen/%.o: $(OUT)/gen/%.c $(GEN_H) $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(GEN_CFLAGS) -c $< -o $@

$(OUT)/obj/cli/%.o: runtime/cli/%.c runtime/cli/cli.h $(RT_HDR)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/lib/libisagen.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

# The shared library is libisagen.so.VERSION with the soname
# libisagen.so.MAJOR (VERSION is ISAGEN_VERSION of core.h), and the two
# usual links to it.
VERSION := $(shell sed -n 's/^\#define ISAGEN_VERSION "\(.*\)"$$/\1/p' runtime/include/isagen/core.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME  := libisagen.so.$(SOMAJOR)

$(OUT)/lib/libisagen.so.$(VERSION): $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--gc-sections -o $@ $^ -lm

$(OUT)/lib/libisagen.so: $(OUT)/lib/libisagen.so.$(VERSION)
	ln -sf libisagen.so.$(VERSION) $(OUT)/lib/$(SONAME)
	ln -sf $(SONAME) $@

$(OUT)/bin/isa: $(CLI_OBJ) $(OUT)/lib/libisagen.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LINK_SMALL) -o $@ $(CLI_OBJ) $(OUT)/lib/libisagen.a -lm -ldl

lib: $(OUT)/lib/libisagen.a $(OUT)/lib/libisagen.so
cli: $(OUT)/bin/isa

# out/include is laid out as make install lays out include/: everything in isagen/
headers: $(RT_HDR) $(GEN_H)
	@mkdir -p $(OUT)/include/isagen
	@cp runtime/include/isagen/*.h $(GEN_H) $(OUT)/include/isagen/

# ---- installing -------------------------------------------------------------
# make install [PREFIX=/usr/local] [DESTDIR=]: isa, the headers (the runtime's
# and each spec's, all under include/isagen/), libisagen.a, the shared library
# and isagen.pc.  isagen goes in whole under share/isagen/ -- the generator,
# its templates, the schema and the runtime it embeds and compiles, laid out
# as in this tree -- run by a two-line bin/isagen that finds it from its own
# place, so an installed tree can be moved.  make uninstall (same variables)
# removes what install wrote.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR    ?= $(PREFIX)/share
SHARE_FILES := gen/isagen gen/python $(wildcard gen/isagenlib/*.py gen/isagenlib/*/*.py gen/templates/*.mako) \
               xml/isagen.rng $(RT_HDR) $(RT_SRC) $(CLI_SRC) runtime/cli/cli.h

# isagen.pc names its directories from ${prefix} where they are under it,
# so that pkg-config --define-prefix can relocate it
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/isagen
	install -m 755 $(OUT)/bin/isa $(DESTDIR)$(BINDIR)/isa
	install -m 644 $(RT_HDR) $(GEN_H) $(DESTDIR)$(INCLUDEDIR)/isagen/
	install -m 644 $(OUT)/lib/libisagen.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(OUT)/lib/libisagen.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libisagen.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libisagen.so
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(call pc_dir,$(LIBDIR))' 'includedir=$(call pc_dir,$(INCLUDEDIR))' '' \
	  'Name: isagen' 'Description: GPU instruction sets from XML: pack, unpack, print, validate' \
	  'Version: $(VERSION)' 'Libs: -L$${libdir} -lisagen' 'Libs.private: -lm' 'Cflags: -I$${includedir}' \
	  > $(DESTDIR)$(LIBDIR)/pkgconfig/isagen.pc
	set -e; for f in $(SHARE_FILES); do \
	  install -d $(DESTDIR)$(DATADIR)/isagen/$$(dirname $$f); \
	  install -m $$([ -x $$f ] && echo 755 || echo 644) $$f $(DESTDIR)$(DATADIR)/isagen/$$f; \
	done
	printf '#!/bin/sh\nexec "$$(dirname -- "$$0")/%s/isagen/gen/isagen" "$$@"\n' \
	  "$$(realpath -m --relative-to=$(BINDIR) $(DATADIR))" > $(DESTDIR)$(BINDIR)/isagen
	chmod 755 $(DESTDIR)$(BINDIR)/isagen

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/isa $(DESTDIR)$(BINDIR)/isagen
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/isagen/,$(notdir $(RT_HDR) $(GEN_H)))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/isagen
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,libisagen.a libisagen.so libisagen.so.$(VERSION) $(SONAME))
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/isagen.pc
	rm -rf $(DESTDIR)$(DATADIR)/isagen

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
