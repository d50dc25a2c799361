// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_records: the one record format, tab-separated lines with "\\",
 * tab and newline escaped (docs/design.md).  The rules print their facts,
 * "C" and "M" records ("-D ptrguard", cocci/rules/pg.py); cocci_records_write()
 * writes a judged result, its findings as "F" records plus the records of
 * the calls judged ("K"), what spatch skipped and what was counted ("S",
 * "J", "U", "N", and "E" at the end), for the gate's child processes and
 * the gate's and the judge's caches.  One reader reads both.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cocci/cocci_impl.h"

/* Undo the record escapes (\\, \t, \n) in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*d++ = *s == 't' ? '\t' : *s == 'n' ? '\n' : *s;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

static int split_tabs(char *line, char **field, int max)
{
	int n = 0;

	field[n++] = line;
	for (; *line; line++) {
		if (*line != '\t')
			continue;
		*line = '\0';
		if (n == max)
			return -1;
		field[n++] = line + 1;
	}
	return n;
}

int cocci_parse_uint(const char *s, unsigned int *v)
{
	char *end;
	unsigned long n;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n > UINT_MAX)
		return -1;
	*v = (unsigned int)n;
	return 0;
}

char *cocci_rel_file(const char *root, const char *file)
{
	size_t n = root ? strlen(root) : 0;

	if (!root)
		return xstrdup(file);
	if (!strncmp(file, root, n) && file[n] == '/')
		file += n + 1;
	while (file[0] == '.' && file[1] == '/')
		file += 2;
	return xstrdup(file);
}

static int parse_size(const char *s, size_t *v)
{
	char *end;
	unsigned long long n;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end || n > SIZE_MAX)
		return -1;
	*v = (size_t)n;
	return 0;
}

static void add_finding(struct collect *c, char **f, unsigned int ln, unsigned int col,
			int lexical)
{
	struct cocci_result *res = c->res;
	struct finding *fd;

	GROW(res->findings, res->nfindings, c->falloc);
	fd = &res->findings[res->nfindings++];
	fd->file = xstrdup(f[1]);
	fd->line = ln;
	fd->column = col + 1;
	fd->cls = xstrdup(f[4]);
	fd->conversion = xstrdup(f[5]);
	fd->function = xstrdup(f[6]);
	fd->format = xstrdup(f[7]);
	fd->arg = xstrdup(f[8]);
	fd->message = xstrdup(f[9]);
	fd->lexical = lexical;
	fd->arg_line = fd->arg_column = 0;
}

/*
 * A rule's "C FILE LINE COLUMN FUNCTION" or "M FILE LINE COLUMN ARG MARK
 * WHAT" record (cocci/rules/pg.py); spatch's columns are 0-based.  -1 if
 * malformed.
 */
static int add_fact(struct collect *c, const char *root, const struct rule *r, char **f, int n)
{
	struct cocci_fact x = { 0 };
	unsigned int arg;

	if (cocci_parse_uint(f[2], &x.line) || !x.line || cocci_parse_uint(f[3], &x.column))
		return -1;
	x.column++;
	x.cast_rule = r->kind == PF_RULE_INT_CAST;
	if (!strcmp(f[0], "C") && n == 5) {
		x.mark = 'C';
		x.arg = -1;
		x.what = xstrdup(f[4]);
	} else if (!strcmp(f[0], "M") && n == 7) {
		if (!strcmp(f[4], "call"))
			x.arg = -1;
		else if (!cocci_parse_uint(f[4], &arg) && arg < 256)
			x.arg = (int)arg;
		else
			return -1;
		if (!strcmp(f[5], "gated"))
			x.mark = 'g';
		else if (!strcmp(f[5], "null"))
			x.mark = 'n';
		else if (!strcmp(f[5], "ptr"))
			x.mark = 'p';
		else if (!strcmp(f[5], "held"))
			x.mark = 'h';
		else if (!strcmp(f[5], "field"))
			x.mark = 'f';
		else if (!strcmp(f[5], "buf"))
			x.mark = 'b';
		else if (!strcmp(f[5], "away"))
			x.mark = 'a';
		else if (!strcmp(f[5], "untyped"))
			x.mark = 'u';
		else if (!strcmp(f[5], "err"))
			x.mark = 'e';
		else
			return -1;
		x.what = xstrdup(f[6]);
	} else {
		return -1;
	}
	x.file = cocci_rel_file(root, f[1]);
	GROW(c->facts, c->nfacts, c->xalloc);
	c->facts[c->nfacts++] = x;
	return 0;
}

void cocci_facts_free(struct collect *c)
{
	size_t i;

	for (i = 0; i < c->nfacts; i++) {
		free(c->facts[i].file);
		free(c->facts[i].what);
	}
	free(c->facts);
	c->facts = NULL;
	c->nfacts = c->xalloc = 0;
}

/* The records only cocci_records_write() writes; 0, 1 for "E", -1 if malformed. */
static int parse_ours(struct collect *c, char **f, int n)
{
	struct cocci_result *res = c->res;
	unsigned int a, b;
	size_t x, y, z, s, q;

	if (!strcmp(f[0], "E") && n == 1)
		return 1;
	if (!strcmp(f[0], "S") && n == 4 && !cocci_parse_uint(f[1], &a) &&
	    !cocci_parse_uint(f[2], &b)) {
		GROW(res->skips, res->nskips, c->salloc);
		res->skips[res->nskips].file = xstrdup(f[3]);
		res->skips[res->nskips].first = a;
		res->skips[res->nskips++].last = b;
	} else if (!strcmp(f[0], "J") && n == 6 && !cocci_parse_uint(f[1], &a) &&
		   !cocci_parse_uint(f[2], &b)) {
		struct cocci_unjudged *u;

		GROW(res->unjudged, res->nunjudged, c->jalloc);
		u = &res->unjudged[res->nunjudged++];
		u->line = a;
		u->end_line = b;
		u->file = xstrdup(f[3]);
		u->callee = xstrdup(f[4]);
		u->why = xstrdup(f[5]);
	} else if (!strcmp(f[0], "K") && n == 5 && !cocci_parse_uint(f[2], &a)) {
		struct cocci_call *k;

		GROW(res->calls, res->ncalls, c->calloc);
		k = &res->calls[res->ncalls++];
		k->file = xstrdup(f[1]);
		k->line = a;
		k->function = xstrdup(f[3]);
		k->format = xstrdup(f[4]);
	} else if (!strcmp(f[0], "U") && n == 4 && !cocci_parse_uint(f[1], &a)) {
		GROW(res->unparsed, res->nunparsed, c->ualloc);
		res->unparsed_lines = xrealloc(res->unparsed_lines,
					       c->ualloc * sizeof(*res->unparsed_lines));
		res->unparsed_lines[res->nunparsed] = a;
		res->unparsed[res->nunparsed++] = xstrdup(f[3]);
	} else if (!strcmp(f[0], "N") && n == 6 && !parse_size(f[1], &x) &&
		   !parse_size(f[2], &y) && !parse_size(f[3], &z) &&
		   !parse_size(f[4], &s) && !parse_size(f[5], &q)) {
		res->nfiles = x;
		res->nscanned = y;
		res->nlexical = z;
		res->nspatch = s;
		res->nquiet = q;
	} else {
		return -1;
	}
	return 0;
}

/*
 * One record, split and unescaped in place: a rule's (@r) facts, or with
 * no @r our own records (cocci_records_write()).  0, 1 for the end
 * record, -1 if malformed.
 */
static int parse_record(struct collect *c, const char *root, const struct rule *r, char *line)
{
	char *f[14];
	unsigned int ln, col, al, ac;
	int n = split_tabs(line, f, 14), i;

	if (n < 0)
		return -1;
	for (i = 1; i < n; i++)
		unescape(f[i]);
	if (r)
		return add_fact(c, root, r, f, n);
	/* an F record without the argument's place: written by an older ptrguard */
	if (!strcmp(f[0], "F") && (n == 11 || n == 13) && !cocci_parse_uint(f[2], &ln) &&
	    !cocci_parse_uint(f[3], &col) && ln) {
		if (n == 13 && (cocci_parse_uint(f[11], &al) || cocci_parse_uint(f[12], &ac)))
			return -1;
		add_finding(c, f, ln, col, !strcmp(f[10], "1"));
		if (n == 13) {
			c->res->findings[c->res->nfindings - 1].arg_line = al;
			c->res->findings[c->res->nfindings - 1].arg_column = ac;
		}
		return 0;
	}
	return parse_ours(c, f, n);
}

int cocci_parse_records(struct collect *c, const char *root, const char *out,
			const struct rule *r)
{
	size_t len;
	char *buf = read_file(out, SIZE_MAX, &len), *line, *nl, *copy;
	int ret = 0;

	if (!buf) {
		error("%s: %s", out, strerror(errno));
		return -1;
	}
	for (line = buf; *line && !ret; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		if (!*line)
			continue;
		copy = xstrdup(line);
		if (parse_record(c, root, r, line)) {
			error("%s: malformed record from spatch: '%s'", r->name, copy);
			ret = -1;
		}
		free(copy);
	}
	free(buf);
	return ret;
}

int cocci_records_read(char *buf, struct cocci_result *res)
{
	struct collect c = { res, res->nfindings, res->ncalls, res->nunparsed, res->nskips,
			     res->nunjudged, NULL, 0, 0 };
	char *line, *save = NULL;
	int done = 0, rc;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		rc = parse_record(&c, NULL, NULL, line);
		if (rc < 0 || done)
			return -1;
		done = rc;
	}
	return done ? 0 : -1;
}

static void put_field(FILE *f, const char *s)
{
	fputc('\t', f);
	for (; s && *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

void cocci_records_write(FILE *f, const struct cocci_result *res)
{
	size_t i;

	for (i = 0; i < res->nfindings; i++) {
		const struct finding *x = &res->findings[i];

		fputc('F', f);
		put_field(f, x->file);
		fprintf(f, "\t%u\t%u", x->line, x->column ? x->column - 1 : 0);
		put_field(f, x->cls);
		put_field(f, x->conversion);
		put_field(f, x->function);
		put_field(f, x->format);
		put_field(f, x->arg);
		put_field(f, x->message);
		put_field(f, x->lexical ? "1" : "0");
		fprintf(f, "\t%u\t%u\n", x->arg_line, x->arg_column);
	}
	for (i = 0; i < res->ncalls; i++) {
		const struct cocci_call *k = &res->calls[i];

		fputc('K', f);
		put_field(f, k->file);
		fprintf(f, "\t%u", k->line);
		put_field(f, k->function);
		put_field(f, k->format);
		fputc('\n', f);
	}
	for (i = 0; i < res->nskips; i++) {
		fprintf(f, "S\t%u\t%u", res->skips[i].first, res->skips[i].last);
		put_field(f, res->skips[i].file);
		fputc('\n', f);
	}
	for (i = 0; i < res->nunjudged; i++) {
		const struct cocci_unjudged *u = &res->unjudged[i];

		fprintf(f, "J\t%u\t%u", u->line, u->end_line);
		put_field(f, u->file);
		put_field(f, u->callee);
		put_field(f, u->why);
		fputc('\n', f);
	}
	for (i = 0; i < res->nunparsed; i++) {
		fprintf(f, "U\t%u\t0", res->unparsed_lines ? res->unparsed_lines[i] : 1);
		put_field(f, res->unparsed[i]);
		fputc('\n', f);
	}
	fprintf(f, "N\t%zu\t%zu\t%zu\t%zu\t%zu\nE\n", res->nfiles, res->nscanned, res->nlexical,
		res->nspatch, res->nquiet);
}
