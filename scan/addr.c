// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel address model of `ptrguard scan`.
 *
 * A value is a kernel address when it lies in the kernel half of the
 * address space of the layout in force (x86_64 4- or 5-level, arm64 per
 * VA_BITS: the tables of scan/addr_layout.c), picked by --arch, from the
 * kallsyms file's _text, or from the running system.  Where we can learn
 * more we say more: the kernel image and module ranges from /proc/kallsyms
 * (readable with real values by root, or by anyone at kptr_restrict=0),
 * then the layout's regions.  The first matching range names the region
 * and the reason.  Known non-addresses in the kernel half are ignored with
 * a reason of their own.  docs/scan.md describes the model and its limits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "scan/addr.h"
#include "lib/ptrguard.h"

#define TEXT_MAP	0xffffffff80000000ULL	/* x86_64 __START_KERNEL_map */
/* kallsyms values below the lowest kernel half of any layout are per-cpu offsets. */
#define PARSE_HALF	0xff00000000000000ULL
#define VSYSCALL_LO	0xffffffffff600000ULL
#define VSYSCALL_HI	0xffffffffff601000ULL	/* inclusive, as leaking_addresses.pl */
#define ERR_LO		0xfffffffffffff001ULL	/* -MAX_ERRNO */

static void add(struct addr_model *m, uint64_t lo, uint64_t hi,
		const char *region, const char *reason, unsigned int flags)
{
	if (lo >= hi || m->nr == ADDR_MAX_RANGES)
		return;
	m->range[m->nr++] = (struct addr_range){ lo, hi, region, reason, flags };
}

/* What kallsyms told: the symbols that bound the image's sections. */
struct addr_image {
	uint64_t text, stext, etext, sinit, einit, srodata, erodata;
	uint64_t sdata, edata, sbss, ebss, end;
	uint64_t lo, hi, modlo, modhi;	/* lowest and highest symbols */
	size_t nsym, nzero;
	bool read;			/* the file was read */
	int err;			/* errno of a failed open */
	/* every symbol >= half with a real value, unsorted */
	struct addr_sym *syms;
	size_t nsyms, capsyms;
	char *names;			/* the kallsyms text: the symbols' names */
};

#define MARK(sym, field) { sym, sizeof(sym) - 1, offsetof(struct addr_image, field) }

static const struct {
	const char *name;
	size_t len;
	size_t off;
} marks[] = {
	MARK("_text", text),
	MARK("_stext", stext),
	MARK("_etext", etext),
	MARK("_sinittext", sinit),
	MARK("_einittext", einit),
	MARK("__start_rodata", srodata),
	MARK("__end_rodata", erodata),
	MARK("_sdata", sdata),
	MARK("_edata", edata),
	MARK("__bss_start", sbss),
	MARK("__bss_stop", ebss),
	MARK("_end", end),
};

/* Hex digits: the digit's value plus one; 0 for other bytes. */
static const unsigned char hexv[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

#define ONES	0x0101010101010101ULL

/*
 * 8 hex digits s[0..8), any case, to a 32-bit value in *v; false if one
 * is not a hex digit.  In 8 bytes at once (the first digit in the lowest
 * byte), with no byte's sum carrying into the next: a byte below 0x80
 * plus 0x50 reaches 0x80 when it is at least 0x30, and so on.
 */
static bool hex8(const unsigned char *s, uint64_t *v)
{
	uint64_t x, y, digit, letter, n;

	memcpy(&x, s, 8);
	if (x & 0x80 * ONES)
		return false;
	digit = (x + 0x50 * ONES) & ~(x + 0x46 * ONES);		/* 0x30..0x39 */
	y = x | 0x20 * ONES;					/* A-F as a-f */
	letter = (y + 0x1f * ONES) & ~(y + 0x19 * ONES);	/* 0x61..0x66 */
	if (((digit | letter) & 0x80 * ONES) != 0x80 * ONES)
		return false;
	n = (x & 0x0f * ONES) + ((x >> 6) & ONES) * 9;		/* the digits */
	n = ((n << 4) | (n >> 8)) & 0x00ff00ff00ff00ffULL;	/* pairs */
	n = ((n << 8) | (n >> 16)) & 0x0000ffff0000ffffULL;	/* fours */
	*v = ((n << 16) | (n >> 32)) & 0xffffffffULL;
	return true;
}

bool addr_parse_hex16(const unsigned char *s, uint64_t *v)
{
	uint64_t hi, lo;

	if (!hex8(s, &hi) || !hex8(s + 8, &lo))
		return false;
	*v = hi << 32 | lo;
	return true;
}

/* Word bytes, [0-9A-Za-z_]: the scanner's token characters (scan/match.c). */
static const unsigned char word[256] = {
	['0' ... '9'] = 1, ['A' ... 'Z'] = 1, ['a' ... 'z'] = 1, ['_'] = 1,
};

/* The bytes that end a symbol name: strcspn(name, " \t\n") and the NUL. */
static const unsigned char name_end[256] = {
	['\0'] = 1, [' '] = 1, ['\t'] = 1, ['\n'] = 1,
};

/* A symbol: its name and module (0: none) as offsets in the kallsyms text. */
static void add_sym(struct addr_image *im, uint64_t v, uint32_t name, uint32_t mod)
{
	if (im->nsyms == im->capsyms) {
		im->capsyms = im->capsyms ? 2 * im->capsyms : 4096;
		im->syms = xrealloc(im->syms, im->capsyms * sizeof(*im->syms));
	}
	im->syms[im->nsyms++] = (struct addr_sym){ v, name, mod };
}

/*
 * One line of /proc/kallsyms: "ADDR TYPE NAME[\t[MODULE]]".  Returns where
 * it stopped reading, at or before the line's end.  The text ends at end
 * (a NUL), followed by at least 3 more NUL bytes.
 */
static const char *kallsyms_line(struct addr_image *im, const char *base, const char *s,
				 const char *end, uint64_t half, uint64_t *value, bool *usual)
{
	uint64_t v = 0;
	const char *name, *e;
	size_t i, n = 0;
	unsigned int d;

	*usual = false;
	if (end - s > 16 && s[16] == ' ' && addr_parse_hex16((const unsigned char *)s, &v)) {
		s += 16;	/* the usual 64-bit value */
		*usual = word[(unsigned char)s[1]] && s[2] == ' ';
	} else {
		while ((d = hexv[(unsigned char)*s]) && n++ < 16) {
			v = v << 4 | (d - 1);
			s++;
		}
	}
	*value = v;
	if (*s != ' ' || !s[1] || s[1] == '\n' || s[2] != ' ')
		return s;
	name = s + 3;
	im->nsym++;
	if (!v)
		im->nzero++;
	if (v < half)
		return name;	/* per-cpu offsets and the like */
	for (e = name; !(name_end[(unsigned char)e[0]] | name_end[(unsigned char)e[1]] |
			 name_end[(unsigned char)e[2]] | name_end[(unsigned char)e[3]]); e += 4)
		;
	while (!name_end[(unsigned char)*e])
		e++;
	if ((size_t)(e - base) > UINT32_MAX - 2)
		return e;	/* names are 32-bit offsets: a text past 4 GiB is cut */
	if (*e == '\t' && e[1] == '[') {
		size_t nmod = strcspn(e + 2, "]\n");

		add_sym(im, v, (uint32_t)(name - base), (uint32_t)(e + 2 - base));
		if (!im->modlo || v < im->modlo)
			im->modlo = v;
		if (v > im->modhi)
			im->modhi = v;
		return e + 2 + nmod;
	}
	add_sym(im, v, (uint32_t)(name - base), 0);
	if (!im->lo || v < im->lo)
		im->lo = v;
	if (v > im->hi)
		im->hi = v;
	if (name[0] != '_')
		return e;
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		size_t len = marks[i].len;

		if ((size_t)(e - name) == len && !memcmp(name, marks[i].name, len)) {
			uint64_t *p = (uint64_t *)((char *)im + marks[i].off);

			if (!*p)
				*p = v;
		}
	}
	return e;
}

/* Hex digits, for the scanner's lines: 1 for [0-9A-Fa-f]. */
static const unsigned char hexdig[256] = {
	['0' ... '9'] = 1, ['A' ... 'F'] = 1, ['a' ... 'f'] = 1,
};

bool addr_hex_run10(const unsigned char *s, size_t n)
{
	size_t i, lo, hi;

	/*
	 * Such a run holds two bytes 5 apart at offsets that are multiples
	 * of 5: look at those, and measure the run through the first of two
	 * that are both hex digits.
	 */
	for (i = 0; i + 5 < n; i += 5) {
		if (!hexdig[s[i]] || !hexdig[s[i + 5]])
			continue;
		for (lo = i; lo > 0 && hexdig[s[lo - 1]]; lo--)
			;
		for (hi = i + 1; hi < n && hexdig[s[hi]]; hi++)
			;
		if (hi - lo >= 10)
			return true;
	}
	return false;
}

/*
 * Note the line s[0..e) (e: its newline, or the end of the text) for the
 * scanner (struct addr_kline): an "ADDR T " line (usual) with no other
 * hex run that could be a candidate as its value, or left out when that
 * value is below every kernel half; any other line as text to match.
 */
static void kline(struct addr_model *m, size_t *cap, const unsigned char *s,
		  const unsigned char *e, uint32_t off, uint32_t lineno, uint64_t v, bool usual)
{
	if (usual && *e == '\n' && !addr_hex_run10(s + 19, (size_t)(e - s) - 19)) {
		if (v < PARSE_HALF)
			return;
	} else {
		v = 0;
	}
	if (m->nklines == *cap) {
		*cap = *cap ? 2 * *cap : 4096;
		m->klines = xrealloc(m->klines, *cap * sizeof(*m->klines));
	}
	m->klines[m->nklines++] = (struct addr_kline){ v, off, lineno };
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Read the whole file into m->ksyms (NUL-terminated) with 64 KiB reads,
 * and parse it.  Returns 0 when read (values may all be hidden), -1 when
 * not readable (errno set).  A read error ends the file: what was read is
 * parsed, but not kept for the scanner, which then reads the file itself.
 */
static int read_kallsyms(struct addr_model *m, const char *path, struct addr_image *im)
{
	size_t cap = 1 << 20, len = 0;
	uint64_t start = now_ms();
	unsigned char *buf;
	bool whole = false;
	struct stat st;
	char *line, *nl;
	size_t cap_klines = 0;
	uint32_t lineno = 0;
	bool klines;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	buf = xrealloc(NULL, cap);
	for (;;) {
		ssize_t r;

		if (cap - len < 65536 + 1) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + len, 65536);
		if (r > 0) {
			len += (size_t)r;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		whole = r == 0;
		break;
	}
	memset(buf + len, 0, 4);	/* room: a read leaves 64 KiB + 1 */
	if (whole && !fstat(fd, &st)) {
		m->ksyms = buf;
		m->nksyms = len;
		m->ksyms_dev = (uint64_t)st.st_dev;
		m->ksyms_ino = (uint64_t)st.st_ino;
		m->ksyms_ms = now_ms() - start;
	}
	close(fd);
	/* Lines for the scanner: only of a kept text with no NUL or 0xff byte. */
	klines = m->ksyms == buf && len <= UINT32_MAX && !memchr(buf, 0, len) &&
		 !memchr(buf, 0xff, len);
	for (line = (char *)buf; *line; line = nl + 1) {
		uint64_t v;
		bool usual;
		const char *at = kallsyms_line(im, (char *)buf, line, (char *)buf + len, PARSE_HALF,
					       &v, &usual);

		nl = memchr(at, '\n', len - (size_t)(at - (char *)buf));
		if (klines)
			kline(m, &cap_klines, (const unsigned char *)line,
			      nl ? (const unsigned char *)nl : buf + len,
			      (uint32_t)(line - (char *)buf), ++lineno, usual ? v : 0, usual);
		if (!nl)
			break;
	}
	im->names = (char *)buf;	/* kept, read whole or not: the names */
	return 0;
}

void addr_model_forget(struct addr_model *m)
{
	m->ksyms = NULL;	/* the bytes stay: the symbols' names (image->text) */
	m->nksyms = 0;
	free(m->klines);
	m->klines = NULL;
	m->nklines = 0;
}

void addr_model_free(struct addr_model *m)
{
	addr_model_forget(m);
	if (m->image) {
		free(m->image->syms);
		free(m->image->names);
		free(m->image);
		m->image = NULL;
	}
	m->syms = NULL;
	m->symtext = NULL;
	m->nsyms = 0;
}

/*
 * Is 5-level paging on?  Ask the kernel: it places a mapping above the
 * 47-bit boundary only when asked to with a hint there and only when the
 * page tables have five levels.
 */
static bool la57_active(void)
{
	void *hint = (void *)(1ULL << 52);
	void *p = mmap(hint, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool on;

	if (p == MAP_FAILED)
		return false;
	on = (uint64_t)(uintptr_t)p >= (1ULL << 47);
	munmap(p, 4096);
	return on;
}

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

/* Can this process map a page at addr (or is one there already)? */
static bool user_va_has(uint64_t addr)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *want = (void *)(uintptr_t)addr;
	void *p = mmap(want, (size_t)pg, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return errno == EEXIST;
	munmap(p, (size_t)pg);
	return p == want;	/* an old kernel takes the flag for a hint */
}

/*
 * arm64: the VA size in force.  User space gets 2^VA bits (2^52 only by
 * asking above 2^48, which a fixed mapping does), so the largest VA size
 * whose upper half can be mapped is the one the kernel runs with
 * (vabits_actual: 48 or 47 for a 52-bit kernel on a CPU without LVA).
 */
static unsigned int arm64_va_bits(void)
{
	static const unsigned int sizes[] = { 52, 48, 47, 42, 39 };
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (user_va_has(1ULL << (sizes[i] - 1)))
			return sizes[i];
	return 48;
}

static bool cmdline_nokaslr(void)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen("/proc/cmdline", "re");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (char *p = buf; (p = strstr(p, "nokaslr")); p += 7)
		if ((p == buf || p[-1] == ' ') && (p[7] == ' ' || p[7] == '\n' || !p[7]))
			return true;
	return false;
}

static void image_ranges(struct addr_model *m, const struct addr_image *im)
{
	uint64_t text = im->stext ? im->stext : im->text;
	unsigned int f = ADDR_BIN | ADDR_SYMS;

	if (text && im->etext)
		add(m, text, im->etext, "kernel text", "kernel text (from kallsyms)", f);
	if (im->sinit && im->einit)
		add(m, im->sinit, im->einit, "kernel init text",
		    "kernel init text (from kallsyms)", f);
	if (im->srodata && im->erodata)
		add(m, im->srodata, im->erodata, "kernel rodata",
		    "kernel rodata (from kallsyms)", f);
	if (im->sdata && im->edata)
		add(m, im->sdata, im->edata, "kernel data", "kernel data (from kallsyms)", f);
	if (im->sbss && im->ebss)
		add(m, im->sbss, im->ebss, "kernel bss", "kernel bss (from kallsyms)", f);
	if (im->text && im->end)
		add(m, im->text, im->end, "kernel image", "kernel image (from kallsyms)", f);
	else if (im->lo)
		add(m, im->lo, im->hi + 1, "kernel image",
		    "kernel image (between the kallsyms symbols)", f);
	if (im->modlo)
		add(m, im->modlo, im->modhi + 1, "module",
		    "module (between the kallsyms module symbols)", f);
}

/* The layout's regions that hold with (or without) KASLR. */
static void layout_ranges(struct addr_model *m, bool fixed)
{
	const struct addr_layout *l = m->layout;
	size_t i;

	for (i = 0; i < l->nregions; i++) {
		const struct addr_range *r = &l->regions[i];

		if ((r->flags & ADDR_NOKASLR) && !fixed)
			continue;
		if ((r->flags & ADDR_KASLR) && fixed)
			continue;
		add(m, r->lo, r->hi, r->region, r->reason, r->flags);
	}
}

static int cmp_sym(const void *a, const void *b)
{
	const struct addr_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;	/* file order */
}

/*
 * Sort the symbols as cmp_sym says.  /proc/kallsyms lists the core
 * kernel's symbols in address order, then each module's in the module's
 * own order: only what follows the sorted prefix is sorted (a copy of
 * it), then merged in from the end, so that the prefix moves only where
 * a later symbol sorts before some of it (on x86_64 the modules lie above
 * the image: nothing moves).
 */
static void sort_syms(struct addr_sym *s, size_t n)
{
	size_t k = 1, i, j, o;
	struct addr_sym *t;

	while (k < n && cmp_sym(&s[k - 1], &s[k]) <= 0)
		k++;
	if (k >= n)
		return;
	t = xrealloc(NULL, (n - k) * sizeof(*s));
	memcpy(t, s + k, (n - k) * sizeof(*s));
	qsort(t, n - k, sizeof(*s), cmp_sym);
	for (i = k, j = n - k, o = n; j; )	/* o > i: s[o - 1] is free */
		s[--o] = i && cmp_sym(&s[i - 1], &t[j - 1]) > 0 ? s[--i] : t[--j];
	free(t);
}

/*
 * The layout from a kallsyms file's _text, when --arch does not say:
 * x86_64 links the image at >= 0xffffffff80000000, arm64 below, at
 * KIMAGE_VADDR (+ the KASLR offset) right above its modules region,
 * whose base tells VA_BITS_MIN: 39 and 42 apart, 48 otherwise (47 and
 * 52 need --arch).
 */
static const struct addr_layout *layout_from_text(uint64_t text)
{
	if (!text || text >= TEXT_MAP)
		return addr_layout_find("x86_64", 48, 0);
	if (text >= 0xffffffc000000000ULL)
		return addr_layout_find("arm64", 39, 0);
	if (text >= 0xfffffe0000000000ULL)
		return addr_layout_find("arm64", 42, 0);
	return addr_layout_find("arm64", 48, 0);
}

/* The layout of the running system. */
static const struct addr_layout *layout_of_host(const char **why)
{
	struct utsname u;
	const struct addr_layout *l = NULL;

	if (uname(&u) == 0 && (!strcmp(u.machine, "aarch64") || !strcmp(u.machine, "arm64"))) {
		long pg = sysconf(_SC_PAGESIZE);
		unsigned int va = arm64_va_bits();

		l = addr_layout_find("arm64", va, pg > 0 ? (unsigned int)(pg >> 10) : 0);
		if (!l)
			l = addr_layout_find("arm64", va, 0);
		*why = "uname, mmap probe of the VA size, page size";
	} else if (uname(&u) == 0 && !strcmp(u.machine, "x86_64")) {
		l = addr_layout_find("x86_64", la57_active() ? 57 : 48, 0);
		*why = "uname, mmap probe of 5-level paging";
	}
	return l;
}

int addr_model_begin(struct addr_model *m, const char *kallsyms, const char *arch,
		     unsigned int va_bits, unsigned int page_kb)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	m->kallsyms = kallsyms;
	m->arch = arch;
	m->va_bits = va_bits;
	m->page_kb = page_kb;
	m->probe = !kallsyms && !arch;
	m->image = calloc(1, sizeof(*m->image));
	if (!m->image)
		die("scan: out of memory");
	/* A named kallsyms file is read now: its _text may pick the layout. */
	if (kallsyms && strcmp(kallsyms, "none")) {
		if (read_kallsyms(m, kallsyms, m->image) < 0) {
			error("scan: %s: %s", kallsyms, strerror(errno));
			return -1;
		}
		m->image->read = true;
	}
	if (arch)
		m->layout = addr_layout_find(arch, va_bits, page_kb);
	else if (!m->probe)
		m->layout = layout_from_text(m->image->text);
	else
		m->layout = layout_of_host(&m->how);
	if (!m->layout) {
		error("scan: no address model for this machine (%s): give --arch x86_64 or arm64",
		      uname(&u) == 0 ? u.machine : "uname failed");
		return -1;
	}
	m->half = m->layout->half;
	return 0;
}

int addr_model_finish(struct addr_model *m)
{
	struct addr_image *im = m->image;
	const struct addr_layout *l = m->layout;
	const char *src = m->kallsyms ? m->kallsyms : "/proc/kallsyms";
	const char *what;
	bool fixed = false;
	int n;

	if (!m->kallsyms) {
		if (read_kallsyms(m, src, im) < 0)
			im->err = errno ? errno : EIO;
		else
			im->read = true;
	}
	if (m->kallsyms && !strcmp(m->kallsyms, "none")) {
		what = "layout only (--kallsyms none)";
	} else if (!im->read) {
		what = "layout only (/proc/kallsyms not readable)";
	} else if (!im->lo && !im->modlo) {
		what = im->nsym ? "layout only (kallsyms values hidden by kptr_restrict)"
				: "layout only (kallsyms empty)";
	} else {
		image_ranges(m, im);
		what = "image and module ranges from kallsyms";
		fixed = im->text == l->text;
		sort_syms(im->syms, im->nsyms);
		m->syms = im->syms;
		m->nsyms = im->nsyms;
		m->symtext = im->names;
	}
	if (m->probe && cmdline_nokaslr())
		fixed = true;
	layout_ranges(m, fixed);
	n = snprintf(m->desc, sizeof(m->desc), "%s %s, kernel half >= 0x%016llx%s%s%s; %s",
		     l->arch, l->desc, (unsigned long long)m->half,
		     m->arch ? " (--arch)" : m->how ? " (" : "",
		     !m->arch && m->how ? m->how : "", !m->arch && m->how ? ")" : "", what);
	if (n > 0 && im->text && (size_t)n < sizeof(m->desc))
		snprintf(m->desc + n, sizeof(m->desc) - n,
			 " (%s: _text 0x%016llx, %s)", src,
			 (unsigned long long)im->text,
			 fixed ? "no KASLR: fixed region bases" : "KASLR");
	return 0;
}

enum addr_verdict addr_classify(const struct addr_model *m, uint64_t v,
				bool binary, const char **reason, const char **region)
{
	uint64_t x;
	size_t i;

	*region = NULL;
	if (v < m->half)
		return ADDR_NOT;
	if (v >= ERR_LO) {
		*reason = "error pointer or all-ones (-4095..-1)";
		return ADDR_IGNORED;
	}
	if (!(~v & (~v + 1))) {
		*reason = "contiguous high bit mask";
		return ADDR_IGNORED;
	}
	x = ~v & (~v - 1);	/* ~v without its lowest set bit */
	if (!(x & (x - 1))) {	/* popcount(~v) <= 2, without a libgcc call */
		*reason = "all-ones mask with at most 2 bits clear";
		return ADDR_IGNORED;
	}
	if (m->layout->vsyscall && v >= VSYSCALL_LO && v <= VSYSCALL_HI) {
		*reason = "vsyscall page (fixed ABI address)";
		return ADDR_IGNORED;
	}
	for (i = 0; i < m->nr; i++) {
		const struct addr_range *r = &m->range[i];

		if (v < r->lo || v >= r->hi)
			continue;
		if (binary && !(r->flags & ADDR_BIN) &&
		    !((r->flags & ADDR_BIN_ALIGNED) && !(v & 7)))
			break;
		*reason = r->reason;
		*region = r->region;
		return ADDR_KERNEL;
	}
	if (binary) {
		*reason = "binary data outside the specific kernel regions";
		return ADDR_IGNORED;
	}
	*reason = "canonical kernel half";
	*region = "kernel half";
	return ADDR_KERNEL;
}

const char *addr_symbol(const struct addr_model *m, uint64_t v, char *buf, size_t n)
{
	const struct addr_sym *y;
	const char *name;
	size_t lo = 0, hi = m->nsyms, i;

	for (i = 0; i < m->nr; i++)
		if ((m->range[i].flags & ADDR_SYMS) && v >= m->range[i].lo && v < m->range[i].hi)
			break;
	if (i == m->nr || !m->nsyms || v < m->syms[0].addr)
		return NULL;
	while (hi - lo > 1) {		/* the last symbol <= v */
		size_t mid = lo + (hi - lo) / 2;

		if (m->syms[mid].addr <= v)
			lo = mid;
		else
			hi = mid;
	}
	y = &m->syms[lo];
	/* The names end where the kallsyms line has them end. */
	name = m->symtext + y->name;
	if (y->module)
		snprintf(buf, n, "%.*s+0x%llx [%.*s]", (int)strcspn(name, " \t\n"), name,
			 (unsigned long long)(v - y->addr),
			 (int)strcspn(m->symtext + y->module, "]\n"), m->symtext + y->module);
	else
		snprintf(buf, n, "%.*s+0x%llx", (int)strcspn(name, " \t\n"), name,
			 (unsigned long long)(v - y->addr));
	return buf;
}
