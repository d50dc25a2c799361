// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel virtual memory layouts `ptrguard scan` knows, as data: one
 * table of regions per architecture and VA size (and, on arm64, page
 * size).  The first region that holds a value names it; a value in the
 * kernel half that no region holds is "canonical kernel half".  The
 * ranges that /proc/kallsyms gives (image sections, modules) come before
 * these (scan/addr.c).
 *
 * x86_64: Documentation/arch/x86/x86_64/mm.rst (Linux 6.12).
 *
 * arm64: the definitions of arch/arm64/include/asm/memory.h and
 * pgtable.h in Linux 6.12 (6.9 moved the fixmap and PCI I/O above the
 * vmemmap; Documentation/arch/arm64/memory.rst still shows them below),
 * with sizeof(struct page) = 64:
 *
 *   PAGE_OFFSET  = -2^VA_BITS                   linear map start
 *   PAGE_END     = -2^(VA_BITS_MIN - 1)         linear map end, modules start
 *   VA_BITS_MIN  = VA_BITS, or for VA_BITS 52: 48 (47 with 16K pages)
 *   MODULES      = [PAGE_END, PAGE_END + 2G);   KIMAGE_VADDR = its end
 *   VMALLOC      = [KIMAGE_VADDR, VMEMMAP_START - 8M)
 *   VMEMMAP      = [-1G - ((PAGE_END - PAGE_OFFSET) / PAGE_SIZE) * 64, -1G)
 *   PCI I/O      = [-1G + 8M, -1G + 24M)
 *   fixmap       = top down from FIXADDR_TOP = -8M (a few MiB); we give it
 *                  all of [PCI I/O end, -8M), where nothing else lives
 *
 * A 52-bit kernel on a CPU without 52-bit VAs (vabits_actual 48, or 47
 * with 16K pages) moves its linear map up to -2^48 and gives the unused
 * part of the vmemmap to vmalloc: its layout is then exactly the 48-bit
 * (47-bit) one of the same page size, which is what the host probe
 * (scan/addr.c) picks.  With KASLR the arm64 regions stay put: the
 * image moves inside vmalloc and modules go within 2G of it (also
 * vmalloc), so KASLR changes no arm64 row.  Under KASAN the top of the
 * linear map range is the KASAN shadow.
 */
#include <stdlib.h>
#include <string.h>

#include "scan/addr.h"

/* ---- x86_64 ---- */

#define X86_TOP								\
	{ 0xffffffff80000000ULL, 0xffffffffff000000ULL,			\
	  "kernel image or module mapping",				\
	  "kernel image or module mapping (x86_64 layout)", ADDR_BIN },	\
	{ 0xffffffffff000000ULL, 0xffffffffff600000ULL, "fixmap",		\
	  "fixmap (x86_64 layout)", ADDR_BIN },				\
	{ 0xffffffef00000000ULL, 0xffffffff00000000ULL, "EFI runtime mapping", \
	  "EFI runtime mapping (x86_64 layout)", 0 },			\
	{ 0xffffff0000000000ULL, 0xffffff8000000000ULL, "espfix stacks",	\
	  "espfix stacks (x86_64 layout)", 0 },				\
	{ 0xfffffe0000000000ULL, 0xfffffe8000000000ULL, "cpu_entry_area",	\
	  "cpu_entry_area (x86_64 layout)", 0 }

/*
 * With KASLR, page_offset_base, vmalloc_base and vmemmap_base are
 * randomized inside [direct map start, 0xfffffc0000000000): one range.
 */
#define X86_KASLR(lo)							\
	{ lo, 0xfffffc0000000000ULL, "direct map, vmalloc or vmemmap",	\
	  "direct map, vmalloc or vmemmap (x86_64 layout, KASLR-randomized bases)", \
	  ADDR_BIN_ALIGNED | ADDR_KASLR }

static const struct addr_range x86_64_4level[] = {
	X86_TOP,
	{ 0xffff888000000000ULL, 0xffffc88000000000ULL, "direct map",
	  "direct map (x86_64 layout, no KASLR)", ADDR_BIN_ALIGNED | ADDR_NOKASLR },
	{ 0xffffc90000000000ULL, 0xffffe90000000000ULL, "vmalloc",
	  "vmalloc/ioremap (x86_64 layout, no KASLR)", ADDR_BIN_ALIGNED | ADDR_NOKASLR },
	{ 0xffffea0000000000ULL, 0xffffeb0000000000ULL, "vmemmap",
	  "vmemmap (x86_64 layout, no KASLR)", ADDR_BIN_ALIGNED | ADDR_NOKASLR },
	X86_KASLR(0xffff888000000000ULL),
};

static const struct addr_range x86_64_5level[] = {
	X86_TOP,
	{ 0xff11000000000000ULL, 0xff91000000000000ULL, "direct map",
	  "direct map (x86_64 5-level layout, no KASLR)", ADDR_BIN_ALIGNED | ADDR_NOKASLR },
	{ 0xffa0000000000000ULL, 0xffd2000000000000ULL, "vmalloc",
	  "vmalloc/ioremap (x86_64 5-level layout, no KASLR)",
	  ADDR_BIN_ALIGNED | ADDR_NOKASLR },
	{ 0xffd4000000000000ULL, 0xffd6000000000000ULL, "vmemmap",
	  "vmemmap (x86_64 5-level layout, no KASLR)", ADDR_BIN_ALIGNED | ADDR_NOKASLR },
	X86_KASLR(0xff11000000000000ULL),
};

/* ---- arm64 ---- */

/* Binary data: only the 2G modules region is narrow enough for any offset. */
#define MODULES(lo, hi) { lo, hi, "modules", "modules (arm64 layout)", ADDR_BIN }
#define VMALLOC(lo, hi)							\
	{ lo, hi, "vmalloc", "vmalloc, kernel image or modules (arm64 layout)", \
	  ADDR_BIN_ALIGNED }
#define LINEAR(lo, hi)							\
	{ lo, hi, "linear map", "linear map (arm64 layout)", ADDR_BIN_ALIGNED }
#define VMEMMAP(lo, hi)							\
	{ lo, hi, "vmemmap", "vmemmap (arm64 layout)", ADDR_BIN_ALIGNED }
/* The same for every VA size: measured down from the top. */
#define ARM64_TOP							\
	{ 0xffffffffc0800000ULL, 0xffffffffc1800000ULL, "PCI I/O",		\
	  "PCI I/O (arm64 layout)", ADDR_BIN_ALIGNED },			\
	{ 0xffffffffc1800000ULL, 0xffffffffff800000ULL, "fixmap",		\
	  "fixmap (arm64 layout)", ADDR_BIN_ALIGNED }

/* VA_BITS 39, 4K pages: PAGE_OFFSET -2^39, PAGE_END -2^38 */
static const struct addr_range arm64_39_4k[] = {
	MODULES(0xffffffc000000000ULL, 0xffffffc080000000ULL),
	VMALLOC(0xffffffc080000000ULL, 0xfffffffebf800000ULL),
	LINEAR(0xffffff8000000000ULL, 0xffffffc000000000ULL),
	VMEMMAP(0xfffffffec0000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};
/* VA_BITS 42, 64K pages: PAGE_OFFSET -2^42, PAGE_END -2^41 */
static const struct addr_range arm64_42_64k[] = {
	MODULES(0xfffffe0000000000ULL, 0xfffffe0080000000ULL),
	VMALLOC(0xfffffe0080000000ULL, 0xffffffff3f800000ULL),
	LINEAR(0xfffffc0000000000ULL, 0xfffffe0000000000ULL),
	VMEMMAP(0xffffffff40000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};
/* VA_BITS 47, 16K pages: PAGE_OFFSET -2^47, PAGE_END -2^46 */
static const struct addr_range arm64_47_16k[] = {
	MODULES(0xffffc00000000000ULL, 0xffffc00080000000ULL),
	VMALLOC(0xffffc00080000000ULL, 0xffffffbfbf800000ULL),
	LINEAR(0xffff800000000000ULL, 0xffffc00000000000ULL),
	VMEMMAP(0xffffffbfc0000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};
/* VA_BITS 48, 4K pages: PAGE_OFFSET -2^48, PAGE_END -2^47 */
static const struct addr_range arm64_48_4k[] = {
	MODULES(0xffff800000000000ULL, 0xffff800080000000ULL),
	VMALLOC(0xffff800080000000ULL, 0xfffffdffbf800000ULL),
	LINEAR(0xffff000000000000ULL, 0xffff800000000000ULL),
	VMEMMAP(0xfffffdffc0000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};
/* VA_BITS 48, 16K pages: PAGE_OFFSET -2^48, PAGE_END -2^47 */
static const struct addr_range arm64_48_16k[] = {
	MODULES(0xffff800000000000ULL, 0xffff800080000000ULL),
	VMALLOC(0xffff800080000000ULL, 0xffffff7fbf800000ULL),
	LINEAR(0xffff000000000000ULL, 0xffff800000000000ULL),
	VMEMMAP(0xffffff7fc0000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};
/* VA_BITS 48, 64K pages: PAGE_OFFSET -2^48, PAGE_END -2^47 */
static const struct addr_range arm64_48_64k[] = {
	MODULES(0xffff800000000000ULL, 0xffff800080000000ULL),
	VMALLOC(0xffff800080000000ULL, 0xffffffdfbf800000ULL),
	LINEAR(0xffff000000000000ULL, 0xffff800000000000ULL),
	VMEMMAP(0xffffffdfc0000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};
/* VA_BITS 52, 4K pages: PAGE_OFFSET -2^52, PAGE_END -2^47 */
static const struct addr_range arm64_52_4k[] = {
	MODULES(0xffff800000000000ULL, 0xffff800080000000ULL),
	VMALLOC(0xffff800080000000ULL, 0xffffc1ffbf800000ULL),
	LINEAR(0xfff0000000000000ULL, 0xffff800000000000ULL),
	VMEMMAP(0xffffc1ffc0000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};
/* VA_BITS 52, 16K pages: PAGE_OFFSET -2^52, PAGE_END -2^46 */
static const struct addr_range arm64_52_16k[] = {
	MODULES(0xffffc00000000000ULL, 0xffffc00080000000ULL),
	VMALLOC(0xffffc00080000000ULL, 0xfffff03fbf800000ULL),
	LINEAR(0xfff0000000000000ULL, 0xffffc00000000000ULL),
	VMEMMAP(0xfffff03fc0000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};
/* VA_BITS 52, 64K pages: PAGE_OFFSET -2^52, PAGE_END -2^47 */
static const struct addr_range arm64_52_64k[] = {
	MODULES(0xffff800000000000ULL, 0xffff800080000000ULL),
	VMALLOC(0xffff800080000000ULL, 0xfffffc1fbf800000ULL),
	LINEAR(0xfff0000000000000ULL, 0xffff800000000000ULL),
	VMEMMAP(0xfffffc1fc0000000ULL, 0xffffffffc0000000ULL),
	ARM64_TOP,
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define X86(va, desc, half, rows) \
	{ "x86_64", va, 4, desc, half, 0xffffffff81000000ULL, true, rows, N(rows) }
/* _text without KASLR is KIMAGE_VADDR, the end of the modules region. */
#define ARM64(va, vamin, kb, rows)					\
	{ "arm64", va, kb, "VA_BITS " #va ", " #kb "K pages",		\
	  -(1ULL << (va)), -(1ULL << ((vamin) - 1)) + 0x80000000ULL, false,	\
	  rows, N(rows) }

/* The first layout of an architecture and VA size is its default page size. */
static const struct addr_layout layouts[] = {
	X86(48, "4-level paging", 0xffff800000000000ULL, x86_64_4level),
	X86(57, "5-level paging", 0xff00000000000000ULL, x86_64_5level),
	ARM64(48, 48, 4, arm64_48_4k),
	ARM64(48, 48, 16, arm64_48_16k),
	ARM64(48, 48, 64, arm64_48_64k),
	ARM64(39, 39, 4, arm64_39_4k),
	ARM64(42, 42, 64, arm64_42_64k),
	ARM64(47, 47, 16, arm64_47_16k),
	ARM64(52, 48, 64, arm64_52_64k),
	ARM64(52, 48, 4, arm64_52_4k),
	ARM64(52, 47, 16, arm64_52_16k),
};

const struct addr_layout *addr_layout_find(const char *arch, unsigned int va_bits,
					   unsigned int page_kb)
{
	size_t i;

	for (i = 0; i < N(layouts); i++) {
		const struct addr_layout *l = &layouts[i];

		if (!strcmp(l->arch, arch) && (!va_bits || l->va_bits == va_bits) &&
		    (!page_kb || l->page_kb == page_kb))
			return l;
	}
	return NULL;
}

int addr_parse_arch(const char *s, const char **arch, unsigned int *va_bits,
		    unsigned int *page_kb)
{
	size_t n = strcspn(s, ":");
	const char *p = s + n;
	char *end;
	unsigned long v;

	*va_bits = *page_kb = 0;
	if (n == 6 && !memcmp(s, "x86_64", 6))
		*arch = "x86_64";
	else if ((n == 5 && !memcmp(s, "arm64", 5)) || (n == 7 && !memcmp(s, "aarch64", 7)))
		*arch = "arm64";
	else
		return -1;
	if (*p == ':') {
		v = strtoul(p + 1, &end, 10);
		if (end == p + 1 || v > 64)
			return -1;
		*va_bits = (unsigned int)v;
		p = end;
	}
	if (*p == ':' && !strcmp(*arch, "arm64")) {
		v = strtoul(p + 1, &end, 10);
		if (end == p + 1 || (*end != 'k' && *end != 'K') || end[1])
			return -1;
		*page_kb = (unsigned int)v;
		p = end + 1;
	}
	if (*p)
		return -1;
	return addr_layout_find(*arch, *va_bits, *page_kb) ? 0 : -1;
}
