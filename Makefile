# SPDX-License-Identifier: GPL-2.0
# ptrguard: find and block kernel addresses leaking through seq_file output.
#
#   make            build build/ptrguard
#   make audit      audit the default Linux 6.12 tree (or KSRC=DIR)
#   make test       run every test suite (tests/*/run)
#   make bench      full-tree scans and benchmarks (bench/*.sh)
#   make fuzz       the libFuzzer targets of tests/fuzz in build/fuzz/ (clang)
#   make kernel-series   the runtime guard as git format-patch series (7.1,
#                   6.19, 6.12, 6.1; KVER=V for one)
#   make e2e        boot the guarded kernel under qemu and check /proc
#   make e2e-full   the same, plus the pristine kernel, a lockdep + KASAN
#                   kernel (slow builds), all of it on
#                   6.1 too, then the 6.12 suite again on an arm64 guest;
#                   and 6.1's KUnit run under UML
#   make gate PATCH=FILE  gate a patch against KSRC
#   make man        the man page, build/ptrguard.1
#   make install PREFIX=DIR   the program, its rules and its man page
#   make check-layers   no part includes a header of a part above it
#
# Variables: KSRC=DIR (kernel tree), J=N (jobs), V=1 (verbose),
# PTRGUARD_CACHE=DIR (kernel trees and builds; default ~/.cache/ptrguard),
# KVER=7.1|6.19|6.12|6.1 (the kernel for kernel-tree, kernel-series, e2e,
# e2e-full and the kunit suite; kernel-tree defaults to 6.12, kernel-series
# and the suites to every version they cover).

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror
SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDLIBS  := -lpthread
PREFIX  ?= /usr/local
J       ?= $(shell nproc 2>/dev/null || echo 2)
V       ?= 0
export PTRGUARD_CACHE ?= $(HOME)/.cache/ptrguard
export J V
ifdef KVER
export KVER
endif

# The program's C, a folder per part (docs/design.md "Layout"):
#   builtin/  one file per command: its options, help and glue
#   model/    the format decoder, the tokenizer and lexical model, vocab.def
#   judge/    the one judge: what a call prints, from spatch's and the
#             lexical model's facts
#   cocci/    the Coccinelle runner; its rules in cocci/rules/
#   gate/     patches, shadow trees and what a patch adds
#   fix/      the fix series
#   scan/     the live scanner and its address model
#   lib/      allocation, files, threads, caches, options, output, processes
# Every file includes by its path from the top ("lib/ptrguard.h").
PARTS   := builtin model judge cocci gate fix scan lib
SRCS    := $(filter-out cocci/mkrule.c,$(sort $(foreach d,$(PARTS),$(wildcard $(d)/*.c))))
# One object per source, with its header dependencies (-MMD -MP): touching
# include/linux/seq_ptr_kind.h or model/vocab.def rebuilds what uses it.
OBJS    := $(patsubst %.c,build/obj/%.o,$(SRCS))
SANOBJS := $(patsubst %.c,build/obj-san/%.o,$(SRCS))
DEPFLAGS = -MMD -MP
WARN    += -I.

# The Coccinelle rules are made from cocci/rules/*.cocci.in, cocci/rules/pg.py,
# model/vocab.def and include/linux/seq_ptr_kind.h by cocci/mkrule.c;
# ptrguard finds them in build/cocci, next to itself.
RULES   := $(patsubst cocci/rules/%.cocci.in,build/cocci/%.cocci,$(wildcard cocci/rules/seq_*.cocci.in))
RULE_SRCS := $(wildcard cocci/rules/*.cocci.in) cocci/rules/pg.py

all: build/ptrguard rules

rules: $(RULES) build/cocci/ptrguard-macros.h

build/mkrule: cocci/mkrule.c model/vocab.def include/linux/seq_ptr_kind.h
	@mkdir -p build
	$(CC) $(WARN) $(CFLAGS) -o $@ cocci/mkrule.c

build/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

build/obj-san/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(SANFLAGS) $(DEPFLAGS) -c -o $@ $<

build/cocci/%.cocci: cocci/rules/%.cocci.in $(RULE_SRCS) build/mkrule
	@mkdir -p build/cocci
	build/mkrule $< > $@.tmp && mv $@.tmp $@

build/cocci/ptrguard-macros.h: cocci/rules/ptrguard-macros.h
	@mkdir -p build/cocci
	cp $< $@

build/ptrguard: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS) $(LDLIBS)

# The floor under `ptrguard scan` (bench/scan.sh): its files read once.
build/scan-floor: bench/scan-floor.c
	@mkdir -p build
	$(CC) $(WARN) $(CFLAGS) -o $@ $< $(LDLIBS)

# The same program under AddressSanitizer and UBSan: the test suites use it.
build/ptrguard-san: $(SANOBJS)
	$(CC) $(SANFLAGS) -o $@ $(SANOBJS) $(LDLIBS)

# The CLI linked statically: tests/e2e copies it into the guest's
# initramfs as /bin/ptrguard (the live scanner hook) when it exists.
build/ptrguard-static: $(OBJS)
	$(CC) $(CFLAGS) -static -o $@ $(OBJS) $(LDLIBS)

# The same for the arm64 e2e guest (E2E_ARCH=arm64 tests/e2e/run), built
# with Debian's cross compiler (package gcc-aarch64-linux-gnu).
CROSS_ARM64 ?= aarch64-linux-gnu-
ARM64OBJS := $(patsubst %.c,build/obj-arm64/%.o,$(SRCS))

build/obj-arm64/%.o: %.c
	@mkdir -p $(dir $@)
	$(CROSS_ARM64)gcc $(WARN) $(CFLAGS) $(DEPFLAGS) -c -o $@ $<

build/ptrguard-static-arm64: $(ARM64OBJS)
	$(CROSS_ARM64)gcc $(CFLAGS) -static -o $@ $(ARM64OBJS) $(LDLIBS)

-include $(OBJS:.o=.d) $(SANOBJS:.o=.d) $(ARM64OBJS:.o=.d)

# libFuzzer targets (tests/fuzz/NAME.c, docs/testing.md "Fuzzing"): each is
# linked with the program's .c files it needs (FUZZ_LIBS_NAME) and tests/fuzz/stubs.c
# in place of usage.c, whose die() exits; clang only.
FUZZ_CC    ?= clang
FUZZFLAGS  := -O1 -g -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_TARGETS := patch fmt prefilter lex scan
FUZZ_LIBS_patch     := gate/patch lib/xalloc
FUZZ_LIBS_fmt       := model/format lib/xalloc
FUZZ_LIBS_prefilter := cocci/prefilter model/tokenize model/kver model/format lib/parse-options model/vocab lib/readfile lib/memfind lib/names lib/xalloc
FUZZ_LIBS_lex       := model/lex model/lex_model model/lex_wrappers model/lex_formats model/lex_tables model/lex_decls model/lex_calls model/tokenize model/wrapper_table lib/keycache lib/threads lib/kernel model/format lib/parse-options model/vocab lib/readfile lib/memfind lib/xalloc
FUZZ_LIBS_scan      := scan/match scan/addr scan/addr_layout lib/xalloc
FUZZ_BINS := $(addprefix build/fuzz/,$(FUZZ_TARGETS))

fuzz: $(FUZZ_BINS)

build/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(WARN) $(FUZZFLAGS) -fsanitize=fuzzer-no-link,address,undefined -MMD -MP -c -o $@ $<

.SECONDEXPANSION:
$(FUZZ_BINS): build/fuzz/%: build/fuzz/obj/tests/fuzz/%.o build/fuzz/obj/tests/fuzz/stubs.o \
		$$(addsuffix .o,$$(addprefix build/fuzz/obj/,$$(FUZZ_LIBS_$$*)))
	$(FUZZ_CC) $(FUZZFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $^

-include $(wildcard $(foreach d,$(PARTS) tests/fuzz,build/fuzz/obj/$(d)/*.d))

setup:
	@scripts/setup.sh

kernel-tree: setup
	@scripts/kernel-tree.sh >/dev/null

audit: setup build/ptrguard rules
	@ksrc="$(KSRC)"; [ -n "$$ksrc" ] || ksrc=$$(scripts/kernel-tree.sh) || exit 2; \
	build/ptrguard audit -j $(J) $(AUDITFLAGS) "$$ksrc"

test: setup build/ptrguard build/ptrguard-san rules
	@scripts/run-tests.sh $(TESTS)

bench: setup build/ptrguard build/scan-floor rules
	@scripts/run-bench.sh $(BENCH)

# Every target the series has (kernel-series/*/series), or KVER's; a
# mainline tree that is not on this machine is skipped with one line.
kernel-series: setup
	@for v in $${KVER:-7.1 6.19 6.12 6.1}; do \
		KVER=$$v scripts/kernel-series.sh; rc=$$?; \
		[ $$rc -eq 0 ] || [ $$rc -eq 3 ] || exit 2; \
	done

e2e: setup build/ptrguard
	@tests/e2e/run

# 6.1's KUnit run under UML, then the boots.  make test covers 6.12's KUnit.
e2e-full: setup build/ptrguard build/ptrguard-san rules
	@KUNIT_KVERS=6.1 KUNIT_UML_KVERS=6.1 E2E_FULL=1 E2E_PLAIN=1 E2E_KVERS="6.12 6.1" \
		scripts/run-tests.sh kunit e2e

gate: setup build/ptrguard rules
	@[ -n "$(PATCH)" ] || { echo "make gate: PATCH=FILE is required" >&2; exit 2; }
	@ksrc="$(KSRC)"; [ -n "$$ksrc" ] || ksrc=$$(scripts/kernel-tree.sh) || exit 2; \
	build/ptrguard gate --tree "$$ksrc" $(PATCH)

# The man page, ptrguard(1), printed by the program itself from the option
# tables its --help reads: it cannot say other than the program does.
build/ptrguard.1: build/ptrguard
	build/ptrguard help --man > $@.tmp && mv $@.tmp $@

man: build/ptrguard.1

install: build/ptrguard rules build/ptrguard.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ptrguard/cocci \
		$(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 build/ptrguard $(DESTDIR)$(PREFIX)/bin/ptrguard
	install -m 644 $(RULES) cocci/rules/ptrguard-macros.h $(DESTDIR)$(PREFIX)/share/ptrguard/cocci/
	install -m 644 build/ptrguard.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptrguard.1

# The layers (docs/design.md "Layers"): what the lower parts' sources may
# include, checked on the preprocessor's own dependency lists (-MM, the
# headers a source really reads), not on the text.  lib/ is the bottom
# and includes only itself; the model reads lib/ and include/ but not the
# runner, the judge or the commands above it.  A violation (or a source
# the preprocessor cannot read) is a line and exit 2; tests/cli runs it.
LAYER_lib   := lib/*
LAYER_model := model/*|lib/*|include/*
check-layers:
	@st=0; \
	$(foreach p,lib model,for f in $(wildcard $(p)/*.c); do \
		deps=$$($(CC) $(WARN) -MM "$$f") || { st=2; continue; }; \
		for d in $$(printf '%s\n' "$$deps" | sed 's/^[^:]*://; s/\\$$//'); do \
			case $$d in (*..*) ;; ($(LAYER_$(p))) continue ;; esac; \
			echo "$$f: reads $$d, above $(p)/ (docs/design.md, \"Layers\")" >&2; st=2; \
		done; \
	done;) \
	exit $$st

clean:
	rm -rf build

.PHONY: all rules fuzz setup kernel-tree audit test bench kernel-series e2e e2e-full gate man install check-layers clean
