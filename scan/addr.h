/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel address model of `ptrguard scan`: is a 64-bit value a kernel
 * virtual address, which region is it in, and why do we think so.  The
 * layouts (x86_64 4- and 5-level, arm64 per VA_BITS and page size) are
 * data: scan/addr_layout.c.  See docs/scan.md.
 */
#ifndef PTRGUARD_ADDR_H
#define PTRGUARD_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Range flags: how much a hit in the range is trusted in binary data. */
enum {
	ADDR_BIN = 1,		/* a specific region: trusted anywhere */
	ADDR_BIN_ALIGNED = 2,	/* a wide region: trusted in binary data only 8-aligned */
	ADDR_SYMS = 16,		/* from kallsyms: symbol+offset can name a value */
};

/* Region flags for the layout tables: which rows hold with(out) KASLR. */
enum {
	ADDR_NOKASLR = 4,	/* only when the image is at its link address */
	ADDR_KASLR = 8,		/* only when it is not */
};

struct addr_range {
	uint64_t lo, hi;	/* [lo, hi) */
	const char *region;	/* short name: "vmalloc", "kernel text" */
	const char *reason;	/* the region and where we know it from */
	unsigned int flags;
};

/* One kernel virtual memory layout: an architecture at one VA size. */
struct addr_layout {
	const char *arch;	/* "x86_64", "arm64" */
	unsigned int va_bits;	/* x86_64: 48 (4-level) or 57; arm64: VA_BITS */
	unsigned int page_kb;	/* arm64: 4, 16, 64; x86_64: 4 */
	const char *desc;	/* "4-level paging", "VA_BITS 48, 4K pages" */
	uint64_t half;		/* lowest kernel address (PAGE_OFFSET) */
	uint64_t text;		/* _text without KASLR */
	bool vsyscall;		/* x86_64's fixed vsyscall page */
	const struct addr_range *regions;	/* first match wins */
	size_t nregions;
};

/* The layout of arch ("x86_64", "arm64"), va_bits, page_kb; NULL if none. */
const struct addr_layout *addr_layout_find(const char *arch, unsigned int va_bits,
					   unsigned int page_kb);

/*
 * Parse --arch: x86_64[:48|57] or arm64[:VA_BITS[:4k|16k|64k]].  Fills
 * arch (static string), va_bits and page_kb (0 when not given).  0, or -1
 * when malformed or not a known layout.
 */
int addr_parse_arch(const char *s, const char **arch, unsigned int *va_bits,
		    unsigned int *page_kb);

/* A kallsyms symbol with a real value. */
struct addr_sym {
	uint64_t addr;
	/*
	 * Where the name and the module's name (0: none) start in
	 * addr_model.symtext, the kallsyms text as read: a name ends at a
	 * space, tab, newline or NUL, a module's at ']' or a newline.
	 */
	uint32_t name, module;
};

struct addr_image;

#define ADDR_MAX_RANGES 24

struct addr_model {
	uint64_t half;		/* lowest kernel-half address */
	const struct addr_layout *layout;
	struct addr_range range[ADDR_MAX_RANGES];	/* first match wins */
	size_t nr;
	char desc[512];		/* one line: which model, from what */
	/* Set by addr_model_begin, used by addr_model_finish. */
	const char *kallsyms;	/* the --kallsyms argument, or NULL */
	const char *arch;	/* --arch, or NULL: from kallsyms or the host */
	unsigned int va_bits, page_kb;	/* --arch's, 0 when not given */
	bool probe;		/* ask the running kernel (no --kallsyms/--arch) */
	const char *how;	/* how the host's layout was found */
	struct addr_image *image;	/* what kallsyms told (addr.c) */
	/* Symbols with real values, sorted by address (for symbol+offset). */
	struct addr_sym *syms;
	size_t nsyms;
	char *symtext;		/* their names: the kallsyms text */
	/*
	 * The bytes of the kallsyms file as read for the model, so that the
	 * scanner does not read it a second time: the file's device and
	 * inode, and how long the read took.  NULL when not read whole, or
	 * forgotten (the bytes stay in memory as symtext, the names).
	 */
	unsigned char *ksyms;
	size_t nksyms;
	uint64_t ksyms_dev, ksyms_ino, ksyms_ms;
	/*
	 * What the parse of those bytes found for the scanner, so that it
	 * need not match the text again (NULL when not kept, or when the
	 * text holds a NUL or 0xff byte): see struct addr_kline.
	 */
	struct addr_kline *klines;
	size_t nklines;
};

/*
 * One line of the kept kallsyms text that may hold a candidate, in file
 * order.  value != 0: the line is "ADDR T NAME..." with ADDR 16 hex
 * digits (value, at or above the lowest kernel half of any layout) and
 * no run of 10 or more hex digits after "ADDR T ": ADDR, at column 1, is
 * the line's only candidate (every candidate the matcher takes is 10 to
 * 20 digits, all hex digits but a 0x).  value == 0: match the line as
 * text.  Lines left out hold no candidate: such a line with a value
 * below that half.
 */
struct addr_kline {
	uint64_t value;
	uint32_t off;		/* of the line's first byte */
	uint32_t line;		/* 1-based */
};

enum addr_verdict {
	ADDR_NOT,		/* below the kernel half: not an address */
	ADDR_IGNORED,		/* in the kernel half but a known non-address */
	ADDR_KERNEL,		/* a kernel address */
};

/*
 * Build the model in two steps.  begin picks the layout and so the kernel
 * half (enough to tell candidates); finish reads kallsyms and sets the
 * ranges, the symbols and desc.  addr_classify needs both.
 *
 * kallsyms: a file in /proc/kallsyms format, NULL for /proc/kallsyms, or
 * "none" for the layout alone.  arch: --arch (addr_parse_arch), or NULL
 * to take it from the kallsyms file's _text or, without --kallsyms, from
 * the running system (uname, an mmap probe of the VA size, page size,
 * /proc/cmdline).  begin returns 0, or -1 after reporting a --kallsyms
 * file it cannot read; finish returns 0, or -1 after reporting one.
 */
int addr_model_begin(struct addr_model *m, const char *kallsyms, const char *arch,
		     unsigned int va_bits, unsigned int page_kb);
int addr_model_finish(struct addr_model *m);

/*
 * Does s[0..n) hold a run of 10 or more hex digits?  Every candidate
 * value of the scanner's text matcher does (10 to 20 digits, all hex
 * digits but for a 0x): text without one holds none.
 */
bool addr_hex_run10(const unsigned char *s, size_t n);

/* s[0..16): 16 hex digits?  Their value in *v (the scanner's matcher too). */
bool addr_parse_hex16(const unsigned char *s, uint64_t *v);

/*
 * The kept kallsyms bytes are not to be scanned any more (after a
 * privilege drop: not ours to show; or once scanned); symtext still
 * names the symbols.
 */
void addr_model_forget(struct addr_model *m);
/* Free everything the model holds. */
void addr_model_free(struct addr_model *m);

/*
 * Classify v; *reason says why (for ADDR_IGNORED and ADDR_KERNEL) and
 * *region names the region (ADDR_KERNEL only, else NULL).
 */
enum addr_verdict addr_classify(const struct addr_model *m, uint64_t v,
				bool binary, const char **reason, const char **region);

/*
 * "name+0xoff" or "name+0xoff [module]" for v from the kallsyms symbols,
 * when v lies in a range read from kallsyms; NULL otherwise.  buf: n bytes.
 */
const char *addr_symbol(const struct addr_model *m, uint64_t v, char *buf, size_t n);

#endif
