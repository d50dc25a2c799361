// SPDX-License-Identifier: GPL-2.0
/*
 * mkrule - make a self-contained Coccinelle rule from cocci/<rule>.cocci.in
 *
 *   mkrule cocci/rules/seq_px.cocci.in > build/cocci/seq_px.cocci
 *
 * The rules are built, not written out twice: their shared Python (cocci/rules/pg.py)
 * and SmPL (the .cocci.in files a template includes) are written once, and
 * every name list they need comes from model/vocab.def, the source the C
 * tools compile.  They report facts only (pg.py): the C judge decides.
 *
 * A template is SmPL with these additions:
 *   //+ python            the @initialize:python@ rule: cocci/rules/pg.py
 *   //+ include FILE       FILE (next to the template), expanded in place
 *   //+ each printf|vprintf|any|put|text|buf TEXT
 *                          a disjunction of TEXT for each seq-output function
 *                          without (printf) or with (vprintf) a va_list, or
 *                          of both (any), or for each function of the lists
 *                          PG_SEQ_PUT (put), PG_SEQ_TEXT (text) or
 *                          PG_BUF_PRINTF (buf), NAME
 *                          standing for the function; the directive's
 *                          indentation is kept for each branch
 *   $PRIV_CHECKS$ $PRIV_VARS$ $PRIV_VAR$ $INT_TYPES$ $WIDE_INT_TYPES$
 *   $INT_TYPEDEFS$ $SEQ_PRINTFS$ $ADDR_FNS$ $ADDR_VARS$
 *                          the lists of model/vocab.def, comma-separated
 *                          ($PRIV_VAR$: the variables as one SmPL disjunction)
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "mkrule";

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

struct seq_output {
	const char *name;
	int fmt;
	int va;
};

static const struct seq_output seq_outputs[] = {
#define PG_SEQ_OUTPUT(name, fmt, va) { #name, fmt, va },
#include "model/vocab.def"
};

struct int_cast {
	const char *type;
	int wide;
};

static const struct int_cast int_casts[] = {
#define PG_INT_CAST(type, wide) { #type, wide },
#include "model/vocab.def"
};

/* The lists of functions with no format of their own: //+ each put|text|buf. */
static const char *const seq_puts[] = {
#define PG_SEQ_PUT(name, arg) #name,
#include "model/vocab.def"
};

static const char *const seq_texts[] = {
#define PG_SEQ_TEXT(name, arg) #name,
#include "model/vocab.def"
};

static const char *const buf_printfs[] = {
#define PG_BUF_PRINTF(name, fmt) #name,
#include "model/vocab.def"
};

static const char *const priv_checks[] = {
#define PG_PRIV_CHECK(name) #name,
#include "model/vocab.def"
};

static const char *const priv_vars[] = {
#define PG_PRIV_VAR(name) #name,
#include "model/vocab.def"
};

static const char *const addr_fns[] = {
#define PG_ADDR_FN(name) #name,
#include "model/vocab.def"
};

static const char *const addr_vars[] = {
#define PG_ADDR_VAR(name) #name,
#include "model/vocab.def"
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Types spatch knows without a typedef; C keywords are never typedefs. */
static int builtin_type(const char *t)
{
	static const char *const builtin[] = {
		"size_t", "ssize_t", "ptrdiff_t",
	};
	size_t i;

	if (strchr(t, ' '))
		return 1;
	for (i = 0; i < N(builtin); i++)
		if (!strcmp(t, builtin[i]))
			return 1;
	return !strcmp(t, "int") || !strcmp(t, "long") || !strcmp(t, "unsigned") ||
		!strcmp(t, "signed") || !strcmp(t, "short") || !strcmp(t, "char");
}

/*
 * A list written at column @col of the output line: items joined by ", ",
 * wrapped before 80 columns and continued under the first item.
 */
struct list {
	FILE *out;
	size_t col, start, n;
};

static void list_item(struct list *l, const char *item)
{
	size_t len = strlen(item);

	if (l->n && l->col + 2 + len + 2 > 79) {
		fprintf(l->out, ",\n%*s", (int)l->start, "");
		l->col = l->start;
	} else if (l->n) {
		fputs(", ", l->out);
		l->col += 2;
	}
	fputs(item, l->out);
	l->col += len;
	l->n++;
}

static void put_list(FILE *out, const char *name, size_t col)
{
	struct list l = { out, col, col, 0 };
	size_t i;

	if (!strcmp(name, "PRIV_CHECKS")) {
		for (i = 0; i < N(priv_checks); i++)
			list_item(&l, priv_checks[i]);
	} else if (!strcmp(name, "PRIV_VARS")) {
		for (i = 0; i < N(priv_vars); i++)
			list_item(&l, priv_vars[i]);
	} else if (!strcmp(name, "PRIV_VAR")) {
		if (N(priv_vars) == 1) {
			fputs(priv_vars[0], out);
			return;
		}
		fputs("\\(", out);
		for (i = 0; i < N(priv_vars); i++)
			fprintf(out, "%s %s", i ? " \\|" : "", priv_vars[i]);
		fputs(" \\)", out);
	} else if (!strcmp(name, "ADDR_FNS")) {
		for (i = 0; i < N(addr_fns); i++)
			list_item(&l, addr_fns[i]);
	} else if (!strcmp(name, "ADDR_VARS")) {
		for (i = 0; i < N(addr_vars); i++)
			list_item(&l, addr_vars[i]);
	} else if (!strcmp(name, "INT_TYPES") || !strcmp(name, "WIDE_INT_TYPES") ||
		   !strcmp(name, "INT_TYPEDEFS")) {
		for (i = 0; i < N(int_casts); i++) {
			if (name[0] == 'W' && !int_casts[i].wide)
				continue;
			if (!strcmp(name, "INT_TYPEDEFS") && builtin_type(int_casts[i].type))
				continue;
			list_item(&l, int_casts[i].type);
		}
	} else if (!strcmp(name, "SEQ_PRINTFS")) {
		for (i = 0; i < N(seq_outputs); i++)
			if (!seq_outputs[i].va)
				list_item(&l, seq_outputs[i].name);
	} else {
		die("unknown list $%s$", name);
	}
	if (!l.n && strcmp(name, "PRIV_VAR"))
		die("the list $%s$ is empty", name);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		die("%s: %s", path, strerror(errno));
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			buf = realloc(buf, cap + 1);
			if (!buf)
				die("out of memory");
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f))
		die("%s: read error", path);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static char *sibling(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path + 1) : 0;
	char *s = malloc(dlen + strlen(name) + 1);

	if (!s)
		die("out of memory");
	memcpy(s, path, dlen);
	strcpy(s + dlen, name);
	return s;
}

static void expand(FILE *out, const char *path, const char *rule, int depth);
/* TEXT with each NAME replaced by @name. */
static void each_line(FILE *out, const char *indent, size_t ilen, const char *text,
		      const char *name)
{
	const char *p;

	fwrite(indent, 1, ilen, out);
	for (p = text; *p; p++) {
		if (!strncmp(p, "NAME", 4)) {
			fputs(name, out);
			p += 3;
		} else {
			fputc(*p, out);
		}
	}
	fputc('\n', out);
}

/* //+ each put|text|buf TEXT: 1 if @arg names one of those lists */
static int each_io(FILE *out, const char *where, const char *indent, size_t ilen,
		   const char *arg)
{
	static const struct {
		const char *word;
		const char *const *names;
		size_t n;
	} lists[] = {
		{ "put ", seq_puts, N(seq_puts) },
		{ "text ", seq_texts, N(seq_texts) },
		{ "buf ", buf_printfs, N(buf_printfs) },
	};
	size_t l, i;
	const char *text;

	for (l = 0; l < N(lists); l++)
		if (!strncmp(arg, lists[l].word, strlen(lists[l].word)))
			break;
	if (l == N(lists))
		return 0;
	text = arg + strlen(lists[l].word);
	if (!strstr(text, "NAME"))
		die("%s: each: no NAME in the text", where);
	fputs("(\n", out);
	for (i = 0; i < lists[l].n; i++) {
		if (i)
			fputs("|\n", out);
		each_line(out, indent, ilen, text, lists[l].names[i]);
	}
	fputs(")\n", out);
	return 1;
}

/* //+ each printf|vprintf|any|put|text|buf TEXT */
static void each(FILE *out, const char *where, const char *indent, size_t ilen,
		 const char *arg)
{
	int va;
	const char *text, *p;
	size_t i, n = 0;

	if (each_io(out, where, indent, ilen, arg))
		return;
	if (!strncmp(arg, "printf ", 7))
		va = 0;
	else if (!strncmp(arg, "vprintf ", 8))
		va = 1;
	else if (!strncmp(arg, "any ", 4))
		va = -1;
	else
		die("%s: each: printf, vprintf, any, put, text or buf expected", where);
	text = strchr(arg, ' ') + 1;
	if (!strstr(text, "NAME"))
		die("%s: each: no NAME in the text", where);
	fputs("(\n", out);
	for (i = 0; i < N(seq_outputs); i++) {
		if (va >= 0 && seq_outputs[i].va != va)
			continue;
		if (seq_outputs[i].fmt != 1)
			die("vocab.def: %s: the rules take the format as argument 1",
			    seq_outputs[i].name);
		if (n++)
			fputs("|\n", out);
		fwrite(indent, 1, ilen, out);
		for (p = text; *p; p++) {
			if (!strncmp(p, "NAME", 4)) {
				fputs(seq_outputs[i].name, out);
				p += 3;
			} else {
				fputc(*p, out);
			}
		}
		fputc('\n', out);
	}
	fputs(")\n", out);
}

static void line_out(FILE *out, const char *where, const char *s, size_t len)
{
	size_t col = 0, i = 0;

	while (i < len) {
		const char *d = memchr(s + i, '$', len - i);
		const char *e;
		char name[32];

		if (!d) {
			fwrite(s + i, 1, len - i, out);
			break;
		}
		e = memchr(d + 1, '$', len - (size_t)(d + 1 - s));
		if (!e || (size_t)(e - d - 1) >= sizeof(name))
			die("%s: unterminated $NAME$", where);
		fwrite(s + i, 1, (size_t)(d - (s + i)), out);
		col += (size_t)(d - (s + i));
		memcpy(name, d + 1, (size_t)(e - d - 1));
		name[e - d - 1] = '\0';
		put_list(out, name, col);
		i = (size_t)(e + 1 - s);
	}
	fputc('\n', out);
}

static void expand(FILE *out, const char *path, const char *rule, int depth)
{
	char *text = read_file(path), *line, *end, *next;
	unsigned int lineno = 0;
	char where[4096];

	if (depth > 4)
		die("%s: includes nested too deep", path);
	for (line = text; *line; line = next) {
		const char *p = line, *d;

		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		next = *end ? end + 1 : end;
		lineno++;
		snprintf(where, sizeof(where), "%s:%u", path, lineno);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p < 4 || strncmp(p, "//+ ", 4)) {
			line_out(out, where, line, (size_t)(end - line));
			continue;
		}
		d = p + 4;
		*end = '\0';
		if (!strcmp(d, "python")) {
			char *lib = sibling(path, "pg.py");
			char *py = read_file(lib);

			fputs("@initialize:python@\n@@\n", out);
			fputs(py, out);
			free(py);
			free(lib);
		} else if (!strncmp(d, "include ", 8)) {
			char *inc = sibling(path, d + 8);

			expand(out, inc, rule, depth + 1);
			free(inc);
		} else if (!strncmp(d, "each ", 5)) {
			each(out, where, line, (size_t)(p - line), d + 5);
		} else {
			die("%s: unknown directive '%s'", where, d);
		}
	}
	free(text);
}

int main(int argc, char **argv)
{
	const char *path, *base, *dot;
	char rule[256];

	if (argc != 2) {
		fprintf(stderr, "usage: mkrule TEMPLATE.cocci.in > RULE.cocci\n");
		return 2;
	}
	path = argv[1];
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	dot = strstr(base, ".cocci.in");
	if (!dot || dot[9] || (size_t)(dot - base) >= sizeof(rule))
		die("%s: not a NAME.cocci.in template", path);
	memcpy(rule, base, (size_t)(dot - base));
	rule[dot - base] = '\0';
	expand(stdout, path, rule, 0);
	if (fflush(stdout) || ferror(stdout))
		die("write error: %s", strerror(errno));
	return 0;
}
