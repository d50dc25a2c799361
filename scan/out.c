// SPDX-License-Identifier: GPL-2.0
/*
 * Output of `ptrguard scan`: findings on stdout (text, a JSON list, or
 * SARIF 2.1.0 through output.h's sarif_write()), skipped files and the
 * summary on stderr.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/output.h"
#include "lib/ptrguard.h"
#include "scan/scan.h"

/*
 * Findings can be many (all of /proc/kallsyms): text and JSON are
 * formatted into one buffer with no printf and written 64 KiB at a time.
 */
static struct {
	bool on;		/* print_text or print_json: put_* write here */
	size_t n;
	char buf[1 << 16];
} ob;

static void ob_flush(void)
{
	fwrite(ob.buf, 1, ob.n, stdout);
	ob.n = 0;
}

static void put_mem(const char *s, size_t n)
{
	if (ob.n + n > sizeof(ob.buf)) {
		ob_flush();
		if (n > sizeof(ob.buf)) {
			fwrite(s, 1, n, stdout);
			return;
		}
	}
	memcpy(ob.buf + ob.n, s, n);
	ob.n += n;
}

static void put_c(char c)
{
	if (ob.n == sizeof(ob.buf))
		ob_flush();
	ob.buf[ob.n++] = c;
}

static void put_s(const char *s)
{
	put_mem(s, strlen(s));
}

static bool json_plain(const char *s);

/*
 * The file and reason strings repeat from finding to finding (the same
 * pointers): their length and whether JSON must escape them are kept.
 */
static struct rep {
	const char *s;
	size_t len;
	bool plain;
} rep[2];

static struct rep *rep_of(const char *s, int slot)
{
	struct rep *r = &rep[slot];

	if (s != r->s) {
		r->s = s;
		r->len = strlen(s);
		r->plain = json_plain(s);
	}
	return r;
}

static void put_rep(const char *s, int slot)
{
	put_mem(s, rep_of(s, slot)->len);
}

static void json_str(FILE *f, const char *s);

static void json_rep(const char *s, int slot)
{
	struct rep *r = rep_of(s, slot);

	if (!r->plain) {
		json_str(stdout, s);
		return;
	}
	put_c('"');
	put_mem(s, r->len);
	put_c('"');
}

static void put_u(unsigned long long v)
{
	char b[24];
	int i = sizeof(b);

	do
		b[--i] = (char)('0' + v % 10);
	while (v /= 10);
	put_mem(b + i, sizeof(b) - (size_t)i);
}

static void put_hex16(unsigned long long v)
{
	static const char xd[] = "0123456789abcdef";
	char b[16];
	int i;

	for (i = 15; i >= 0; i--, v >>= 4)
		b[i] = xd[v & 15];
	put_mem(b, sizeof(b));
}

/* Does s need escaping in a JSON string? */
static bool json_plain(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
			return false;
	}
	return true;
}

static void json_str(FILE *f, const char *s)
{
	if (f == stdout && ob.on) {
		if (json_plain(s)) {
			put_c('"');
			put_s(s);
			put_c('"');
			return;
		}
		ob_flush();
	}
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *value_text(const struct scan_hit *h, char *buf, size_t n)
{
	if (h->binary)
		snprintf(buf, n, "%s (8 bytes, little-endian)", h->text);
	else
		snprintf(buf, n, "%s", h->text);
	return buf;
}

static const char *const readable_name[] = {
	[READ_UNKNOWN] = "unknown", [READ_EVERYONE] = "everyone", [READ_ROOT] = "root",
};

bool scan_listed(const struct scan_opts *o, const struct finding_rec *f)
{
	if (o->all || f->hit.verdict != ADDR_KERNEL)
		return true;	/* --ignored values are listed when asked for */
	return !f->baseline && f->readable != READ_ROOT;
}

int scan_status(const struct scan_opts *o, const struct scan_result *r)
{
	size_t i;

	if (o->all)
		return r->nkernel > r->nbaseline ? EXIT_FINDINGS : EXIT_CLEAN;
	for (i = 0; i < r->nfound; i++)
		if (r->found[i].hit.verdict == ADDR_KERNEL && scan_listed(o, &r->found[i]))
			return EXIT_FINDINGS;
	return EXIT_CLEAN;
}

static void print_text(const struct scan_opts *o, const struct scan_result *r)
{
	char sym[256];
	size_t i;

	for (i = 0; i < r->nfound; i++) {
		const struct finding_rec *f = &r->found[i];
		const struct scan_hit *h = &f->hit;
		const char *ign = h->verdict == ADDR_IGNORED ? "ignored " : "";

		if (!scan_listed(o, f))
			continue;

		put_rep(f->file, 0);
		if (f->flags & REC_PATH) {
			put_s(": path name: ");
		} else if (h->binary || (f->flags & REC_BINFILE)) {
			put_s(":@");
			put_u(h->offset);
			put_s(": ");
		} else {
			put_c(':');
			put_u(h->line);
			put_c(':');
			put_u(h->column);
			put_s(": ");
		}
		put_s(ign);
		put_s(h->text);
		if (h->binary)
			put_s(" (8 bytes, little-endian)");
		put_s(": ");
		put_rep(h->reason, 1);
		if (h->verdict == ADDR_KERNEL) {
			if (addr_symbol(o->model, h->value, sym, sizeof(sym))) {
				put_s(": ");
				put_s(sym);
			}
			put_s("; readable-by: ");
			put_s(readable_name[f->readable]);
			if (f->baseline)
				put_s(" (baseline)");
		}
		put_c('\n');
	}
}

static void print_json(const struct scan_opts *o, const struct scan_result *r)
{
	char sym[256];
	size_t i, n = 0;

	put_s("[");
	for (i = 0; i < r->nfound; i++) {
		const struct finding_rec *f = &r->found[i];
		const struct scan_hit *h = &f->hit;

		if (!scan_listed(o, f))
			continue;
		put_s(n++ ? ",\n {" : "\n {");
		put_s("\"file\": ");
		json_rep(f->file, 0);
		if (f->flags & REC_PATH) {
			put_s(", \"path_name\": true");
		} else if (h->binary || (f->flags & REC_BINFILE)) {
			put_s(", \"offset\": ");
			put_u(h->offset);
		} else {
			put_s(", \"line\": ");
			put_u(h->line);
			put_s(", \"column\": ");
			put_u(h->column);
		}
		put_s(", \"value\": ");
		json_str(stdout, h->text);
		put_s(", \"address\": \"0x");
		put_hex16(h->value);
		put_s(h->binary ? "\", \"encoding\": \"le64\"" : "\", \"encoding\": \"text\"");
		if (h->verdict == ADDR_IGNORED)
			put_s(", \"ignored\": true");
		put_s(", \"reason\": ");
		json_rep(h->reason, 1);
		if (h->verdict == ADDR_KERNEL) {
			put_s(", \"region\": ");
			json_str(stdout, h->region);
			if (addr_symbol(o->model, h->value, sym, sizeof(sym))) {
				put_s(", \"symbol\": ");
				json_str(stdout, sym);
			}
			put_s(", \"readable_by\": \"");
			put_s(readable_name[f->readable]);
			put_s(f->baseline ? "\", \"baseline\": true" : "\", \"baseline\": false");
		}
		put_s("}");
	}
	put_s(n ? "\n]\n" : "]\n");
}

/* An absolute path for a URI: relative roots are the current directory's. */
static char *absolute(const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path[0] == '.' && path[1] == '/' ? path + 2 : path);
}

/* A JSON object of @props (name, value) pairs, for SARIF properties; malloc()ed. */
static char *json_object(const char *const *props, size_t n)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		die("out of memory");
	fputc('{', m);
	for (i = 0; i + 1 < n; i += 2) {
		if (!props[i + 1])
			continue;
		fputs(i ? ", " : "", m);
		output_json_string(m, props[i]);
		fputs(": ", m);
		output_json_string(m, props[i + 1]);
	}
	fputc('}', m);
	fclose(m);
	return buf;
}

/* SARIF 2.1.0 through the one writer of output.h, file:/// URIs. */
static void print_sarif(const struct scan_opts *o, const struct scan_result *r, int verbosity)
{
	static const struct sarif_rule rules[] = {
		{ "kernel-address", "A kernel address readable from user space", 1 },
		{ "ignored-candidate", "A kernel-half value known not to be an address", 0 },
	};
	struct sarif_result *res = calloc(r->nfound + 1, sizeof(*res));
	struct sarif_result *notes = calloc(r->nskip + 1, sizeof(*notes));
	struct sarif_run run = { "ptrguard scan", NULL, rules, 2, res, 0, notes, r->nskip,
				 NULL };
	const char *model[2] = { "addressModel", o->model->desc };
	char *props, v[64], sym[256];
	size_t i, n = 0, nn = 0;

	if (!res || !notes)
		die("out of memory");
	props = json_object(model, 2);
	run.properties = props;
	/* Without --all, files that failed to open or read only with -v, as in text. */
	for (i = 0; i < r->nskip; i++) {
		if (!o->all && r->skip[i].error && verbosity < 1)
			continue;
		notes[nn].message = r->skip[i].reason;
		notes[nn].file = absolute(r->skip[i].file);
		notes[nn++].no_region = 1;
	}
	run.nnotes = nn;
	for (i = 0; i < r->nfound; i++) {
		const struct finding_rec *f = &r->found[i];
		const struct scan_hit *h = &f->hit;
		bool ign = h->verdict == ADDR_IGNORED;
		const char *s;

		if (!scan_listed(o, f))
			continue;
		s = ign ? NULL : addr_symbol(o->model, h->value, sym, sizeof(sym));

		res[n].rule = ign ? "ignored-candidate" : "kernel-address";
		/* error: anyone can read it (or we could not tell); warning: root only */
		res[n].level = ign ? "note" : f->readable == READ_ROOT ? "warning" : "error";
		if (ign) {
			res[n].message = xasprintf("ignored %s: %s", value_text(h, v, sizeof(v)),
						   h->reason);
		} else {
			const char *p[6] = { "region", h->region, "symbol", s,
					     "readableBy", readable_name[f->readable] };

			res[n].message = xasprintf("%s: %s%s%s; readable-by: %s",
						   value_text(h, v, sizeof(v)), h->reason,
						   s ? ": " : "", s ? s : "",
						   readable_name[f->readable]);
			res[n].properties = json_object(p, 6);
			if (o->baseline)
				res[n].baseline = f->baseline ? "unchanged" : "new";
		}
		res[n].file = absolute(f->file);
		if (f->flags & REC_PATH) {
			;	/* the path name itself: line 1 */
		} else if (h->binary || (f->flags & REC_BINFILE)) {
			res[n].offset = h->offset;
			res[n].length = h->binary ? 8u : (unsigned int)strlen(h->text);
		} else {
			res[n].line = h->line;
			res[n].column = h->column;
		}
		n++;
	}
	run.nresults = n;
	sarif_write(stdout, &run);
	for (i = 0; i < n; i++) {
		free((char *)res[i].message);
		free((char *)res[i].file);
		free((char *)res[i].properties);
	}
	for (i = 0; i < nn; i++)
		free((char *)notes[i].file);
	free(res);
	free(notes);
	free(props);
}

/* At most this many files are named in the root-only summary. */
#define ROOT_ONLY_FILES 10

/*
 * Without --all: one line per file for the findings only root reads,
 * "N addresses in FILE, readable by root only: expected" (the kernel
 * shows them to root by design), then one line for the files past
 * ROOT_ONLY_FILES.  Findings are sorted by file: a file's are adjacent.
 */
static void print_root_only(const struct scan_opts *o, const struct scan_result *r)
{
	unsigned long long more = 0;
	size_t i, j, files = 0, morefiles = 0;

	for (i = 0; i < r->nfound; i = j) {
		unsigned long long n = 0;

		for (j = i; j < r->nfound && (r->found[j].file == r->found[i].file ||
					      !strcmp(r->found[j].file, r->found[i].file)); j++)
			n += r->found[j].hit.verdict == ADDR_KERNEL && !r->found[j].baseline &&
			     !scan_listed(o, &r->found[j]);
		if (!n)
			continue;
		if (files++ < ROOT_ONLY_FILES) {
			fprintf(stderr, "scan: %llu address%s in %s, readable by root only: "
				"expected (--all lists %s)\n", n, n == 1 ? "" : "es",
				r->found[i].file, n == 1 ? "it" : "them");
		} else {
			more += n;
			morefiles++;
		}
	}
	if (morefiles)
		fprintf(stderr, "scan: %llu more address%s in %zu more file%s readable by root "
			"only (--all lists them)\n", more, more == 1 ? "" : "es", morefiles,
			morefiles == 1 ? "" : "s");
}

void scan_print(const struct scan_opts *o, const struct scan_result *r,
		int verbosity)
{
	size_t i, nerr = 0;

	/* Nothing is on stdout yet: one write per 64 KiB, not per 4 KiB. */
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	ob.on = o->format != FMT_SARIF;
	memset(rep, 0, sizeof(rep));
	if (o->format == FMT_JSON)
		print_json(o, r);
	else if (o->format == FMT_SARIF)
		print_sarif(o, r, verbosity);
	else
		print_text(o, r);
	ob_flush();
	ob.on = false;
	fflush(stdout);
	if (verbosity < 0)
		return;
	for (i = 0; i < r->nskip; i++) {
		if (r->skip[i].error && verbosity < 1) {
			nerr++;
			continue;
		}
		fprintf(stderr, "scan: skipped %s: %s\n", r->skip[i].file,
			r->skip[i].reason);
	}
	if (nerr)
		fprintf(stderr, "scan: skipped %zu files that could not be opened or "
			"read (-v lists them)\n", nerr);
	if (r->readable_how && r->nkernel)
		fprintf(stderr, "scan: %s\n", r->readable_how);
	if (!o->all)
		print_root_only(o, r);
	if (o->baseline)
		fprintf(stderr, "scan: %llu of %llu kernel addresses in the baseline%s\n",
			(unsigned long long)r->nbaseline, (unsigned long long)r->nkernel,
			o->all || !r->nbaseline ? "" : ", not listed (--all lists them)");
	fprintf(stderr, "scan: %llu dirs, %llu files, %.1f MiB in %.2f s; "
		"%llu kernel addresses, %llu ignored; %zu skipped; "
		"%llu symlinks not followed; %llu pid dirs not scanned%s\n",
		(unsigned long long)r->dirs, (unsigned long long)r->files,
		(double)r->bytes / (1024.0 * 1024.0), r->seconds,
		(unsigned long long)r->nkernel, (unsigned long long)r->nignored,
		r->nskip, (unsigned long long)r->symlinks,
		(unsigned long long)r->pids_skipped,
		r->pids_skipped ? " (--pids=all scans them)" : "");
}
