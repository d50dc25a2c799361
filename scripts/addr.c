// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel address model of `ptrguard scan`.
 *
 * A value is a kernel address when it lies in the upper, kernel half of
 * the x86_64 address space.  Where we can learn more we say more: the
 * kernel image and module ranges from /proc/kallsyms (readable with real
 * values by root, or by anyone at kptr_restrict=0), then the fixed regions
 * of Documentation/arch/x86/x86_64/mm.rst.  The first matching range names
 * the reason.  Known non-addresses in the kernel half are ignored with a
 * reason of their own.  docs/scan.md describes the model and its limits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "addr.h"
#include "ptrguard.h"

#define HALF_4LEVEL	0xffff800000000000ULL
#define HALF_5LEVEL	0xff00000000000000ULL
#define TEXT_MAP	0xffffffff80000000ULL	/* __START_KERNEL_map */
#define TEXT_DEFAULT	0xffffffff81000000ULL	/* _text without KASLR */
#define FIXMAP_END	0xffffffffff600000ULL
#define VSYSCALL_LO	0xffffffffff600000ULL
#define VSYSCALL_HI	0xffffffffff601000ULL	/* inclusive, as leaking_addresses.pl */
#define ERR_LO		0xfffffffffffff001ULL	/* -MAX_ERRNO */

static void add(struct addr_model *m, uint64_t lo, uint64_t hi,
		const char *reason, unsigned int flags)
{
	if (lo >= hi || m->nr == ADDR_MAX_RANGES)
		return;
	m->range[m->nr++] = (struct addr_range){ lo, hi, reason, flags };
}

/* Symbols of the kernel image that bound its sections. */
struct image {
	uint64_t text, stext, etext, sinit, einit, srodata, erodata;
	uint64_t sdata, edata, sbss, ebss, end;
	uint64_t lo, hi, modlo, modhi;	/* lowest and highest symbols */
	size_t nsym, nzero;
};

#define MARK(sym, field) { sym, sizeof(sym) - 1, offsetof(struct image, field) }

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

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* One line of /proc/kallsyms: "ADDR TYPE NAME[\t[MODULE]]". */
static void kallsyms_line(struct image *im, const char *s, uint64_t half)
{
	uint64_t v = 0;
	const char *name, *e;
	size_t i, n = 0;
	int d;

	while ((d = hexval((unsigned char)*s)) >= 0 && n++ < 16) {
		v = v << 4 | (uint64_t)d;
		s++;
	}
	if (*s != ' ' || !s[1] || s[1] == '\n' || s[2] != ' ')
		return;
	name = s + 3;
	im->nsym++;
	if (!v)
		im->nzero++;
	if (v < half)
		return;		/* per-cpu offsets and the like */
	e = name + strcspn(name, " \t\n");
	if (*e == '\t' && e[1] == '[') {
		if (!im->modlo || v < im->modlo)
			im->modlo = v;
		if (v > im->modhi)
			im->modhi = v;
		return;
	}
	if (!im->lo || v < im->lo)
		im->lo = v;
	if (v > im->hi)
		im->hi = v;
	if (name[0] != '_')
		return;
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		size_t len = marks[i].len;

		if ((size_t)(e - name) == len && !memcmp(name, marks[i].name, len)) {
			uint64_t *p = (uint64_t *)((char *)im + marks[i].off);

			if (!*p)
				*p = v;
		}
	}
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
static int read_kallsyms(struct addr_model *m, const char *path, struct image *im)
{
	size_t cap = 1 << 20, len = 0;
	uint64_t start = now_ms();
	unsigned char *buf;
	bool whole = false;
	struct stat st;
	char *line, *nl;
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
	buf[len] = '\0';
	if (whole && !fstat(fd, &st)) {
		m->ksyms = buf;
		m->nksyms = len;
		m->ksyms_dev = (uint64_t)st.st_dev;
		m->ksyms_ino = (uint64_t)st.st_ino;
		m->ksyms_ms = now_ms() - start;
	}
	close(fd);
	for (line = (char *)buf; *line; line = nl + 1) {
		kallsyms_line(im, line, m->half);
		nl = memchr(line, '\n', len - (size_t)(line - (char *)buf));
		if (!nl)
			break;
	}
	if (m->ksyms != buf)
		free(buf);
	return 0;
}

void addr_model_forget(struct addr_model *m)
{
	free(m->ksyms);
	m->ksyms = NULL;
	m->nksyms = 0;
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

static void image_ranges(struct addr_model *m, const struct image *im)
{
	uint64_t text = im->stext ? im->stext : im->text;

	if (text && im->etext)
		add(m, text, im->etext, "kernel text (from kallsyms)", ADDR_BIN);
	if (im->sinit && im->einit)
		add(m, im->sinit, im->einit, "kernel init text (from kallsyms)", ADDR_BIN);
	if (im->srodata && im->erodata)
		add(m, im->srodata, im->erodata, "kernel rodata (from kallsyms)", ADDR_BIN);
	if (im->sdata && im->edata)
		add(m, im->sdata, im->edata, "kernel data (from kallsyms)", ADDR_BIN);
	if (im->sbss && im->ebss)
		add(m, im->sbss, im->ebss, "kernel bss (from kallsyms)", ADDR_BIN);
	if (im->text && im->end)
		add(m, im->text, im->end, "kernel image (from kallsyms)", ADDR_BIN);
	else if (im->lo)
		add(m, im->lo, im->hi + 1,
		    "kernel image (between the kallsyms symbols)", ADDR_BIN);
	if (im->modlo)
		add(m, im->modlo, im->modhi + 1,
		    "module (between the kallsyms module symbols)", ADDR_BIN);
}

static void layout_ranges(struct addr_model *m, bool la57, bool fixed)
{
	add(m, TEXT_MAP, 0xffffffffff000000ULL,
	    "kernel image or module mapping (x86_64 layout)", ADDR_BIN);
	add(m, 0xffffffffff000000ULL, FIXMAP_END, "fixmap (x86_64 layout)", ADDR_BIN);
	add(m, 0xffffffef00000000ULL, 0xffffffff00000000ULL,
	    "EFI runtime mapping (x86_64 layout)", 0);
	add(m, 0xffffff0000000000ULL, 0xffffff8000000000ULL,
	    "espfix stacks (x86_64 layout)", 0);
	add(m, 0xfffffe0000000000ULL, 0xfffffe8000000000ULL,
	    "cpu_entry_area (x86_64 layout)", 0);
	if (la57) {
		add(m, 0xff11000000000000ULL, 0xfffffc0000000000ULL,
		    "direct map, vmalloc or vmemmap (x86_64 5-level layout)",
		    ADDR_BIN_ALIGNED);
	} else if (fixed) {
		add(m, 0xffff888000000000ULL, 0xffffc88000000000ULL,
		    "direct map (x86_64 layout, no KASLR)", ADDR_BIN_ALIGNED);
		add(m, 0xffffc90000000000ULL, 0xffffe90000000000ULL,
		    "vmalloc/ioremap (x86_64 layout, no KASLR)", ADDR_BIN_ALIGNED);
		add(m, 0xffffea0000000000ULL, 0xffffeb0000000000ULL,
		    "vmemmap (x86_64 layout, no KASLR)", ADDR_BIN_ALIGNED);
	} else {
		add(m, 0xffff888000000000ULL, 0xfffffc0000000000ULL,
		    "direct map, vmalloc or vmemmap (x86_64 layout, KASLR-randomized bases)",
		    ADDR_BIN_ALIGNED);
	}
}

void addr_model_begin(struct addr_model *m, const char *kallsyms)
{
	memset(m, 0, sizeof(*m));
	m->kallsyms = kallsyms;
	m->la57 = !kallsyms && la57_active();
	m->half = m->la57 ? HALF_5LEVEL : HALF_4LEVEL;
}

int addr_model_finish(struct addr_model *m)
{
	struct image im = { 0 };
	const char *kallsyms = m->kallsyms;
	bool probe = !kallsyms;
	bool fixed = false;
	const char *src = kallsyms ? kallsyms : "/proc/kallsyms";
	const char *what;
	int n;

	if (kallsyms && !strcmp(kallsyms, "none")) {
		what = "layout only (--kallsyms none)";
	} else if (read_kallsyms(m, src, &im) < 0) {
		if (!probe) {
			error("scan: %s: %s", src, strerror(errno));
			return -1;
		}
		what = "layout only (/proc/kallsyms not readable)";
	} else if (!im.lo && !im.modlo) {
		what = im.nsym ? "layout only (kallsyms values hidden by kptr_restrict)"
			       : "layout only (kallsyms empty)";
	} else {
		image_ranges(m, &im);
		what = "image and module ranges from kallsyms";
		fixed = im.text == TEXT_DEFAULT;
	}
	if (probe && cmdline_nokaslr())
		fixed = true;
	layout_ranges(m, m->la57, fixed);
	n = snprintf(m->desc, sizeof(m->desc),
		     "x86_64 %s-level paging, kernel half >= 0x%016llx; %s",
		     m->la57 ? "5" : "4", (unsigned long long)m->half, what);
	if (n > 0 && im.text && (size_t)n < sizeof(m->desc))
		snprintf(m->desc + n, sizeof(m->desc) - n,
			 " (%s: _text 0x%016llx, %s)", src,
			 (unsigned long long)im.text,
			 fixed ? "no KASLR: fixed region bases" : "KASLR");
	return 0;
}

int addr_model_init(struct addr_model *m, const char *kallsyms)
{
	addr_model_begin(m, kallsyms);
	return addr_model_finish(m);
}

enum addr_verdict addr_classify(const struct addr_model *m, uint64_t v,
				bool binary, const char **reason)
{
	size_t i;

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
	if (__builtin_popcountll(~v) <= 2) {
		*reason = "all-ones mask with at most 2 bits clear";
		return ADDR_IGNORED;
	}
	if (v >= VSYSCALL_LO && v <= VSYSCALL_HI) {
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
		return ADDR_KERNEL;
	}
	if (binary) {
		*reason = "binary data outside the specific kernel regions";
		return ADDR_IGNORED;
	}
	*reason = "canonical kernel half";
	return ADDR_KERNEL;
}
