// SPDX-License-Identifier: GPL-2.0
/*
 * fix_held: which findings the series fixes, and the rewrite of an address
 * held in an integer (int-held, int-field, int-buf).
 *
 * fix_apply() (fix/edit.c) rewrites a conversion in a literal: %px, plain
 * %p before v4.15, a cast printed wide.  An address held in an integer is
 * printed from that integer: the local, the field or the value formatted
 * into a buffer is an unsigned long that holds a pointer.  Its rewrite
 * keeps the integer and prints it as the pointer it holds: the conversion
 * becomes %p and the argument is cast back, "(void *)svs_reg_addr", which
 * -Wformat accepts and %p hashes.  Every other use of the integer stays.
 * Where the argument is the cast itself (a buffer's "(ulong)p"), the cast
 * goes, as fix_apply() does for int-cast.
 *
 * Not where that says nothing: a range, "0x%lx-0x%lx", start and end (the
 * end is arithmetic on the integer, no pointer): the hashes of two ends
 * are unrelated values, so %p of each is no fix.  Such a finding, and each
 * one the series does not take, is named with its reason (fix_left_out()):
 * on stderr and in the cover letter, never dropped silently.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/fix.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

static int is_held(const char *cls)
{
	return !strcmp(cls, "int-held") || !strcmp(cls, "int-field") || !strcmp(cls, "int-buf");
}

/*
 * Does the conversion @conv stand at one end of a range in @format
 * ("0x%lx-0x%lx", "%lx - %lx")?  Each place it is in the literal counts.
 */
static int in_range(const char *format, const char *conv)
{
	size_t cl = strlen(conv);
	const char *p;

	for (p = format; (p = strstr(p, conv)); p += cl) {
		const char *a = p + cl, *b = p;

		/* start: "-", "0x" maybe, then another conversion */
		while (*a == ' ')
			a++;
		if (*a == '-') {
			a++;
			while (*a == ' ')
				a++;
			if (!strncmp(a, "0x", 2) || !strncmp(a, "0X", 2))
				a += 2;
			if (*a == '%')
				return 1;
		}
		/* end: a conversion, "-", "0x" maybe, then this one */
		if (b - format >= 2 && (!strncmp(b - 2, "0x", 2) || !strncmp(b - 2, "0X", 2)))
			b -= 2;
		while (b > format && b[-1] == ' ')
			b--;
		if (b > format && b[-1] == '-') {
			b--;
			while (b > format && b[-1] == ' ')
				b--;
			if (b > format && (isalnum((unsigned char)b[-1])))
				while (b > format && b[-1] != '%' && isalnum((unsigned char)b[-1]))
					b--;
			if (b > format && b[-1] == '%')
				return 1;
		}
	}
	return 0;
}

int fix_takes(const struct finding *f, int all, char **why)
{
	const struct vocab_class *vc = vocab_class(f->cls);
	char *w = NULL;
	int take = 0;

	if (!vc) {
		w = xasprintf("a class this ptrguard does not know (%s)", f->cls);
	} else if (is_held(f->cls) && in_range(f->format, f->conversion)) {
		w = xasprintf("it prints an address range, %s: %%p of each end would be two unrelated hashes, and the end is arithmetic on the integer, not a pointer; what to show instead (the size, or nothing) is the driver's choice",
			      f->format);
	} else if ((vc->fix || is_held(f->cls)) && (vc->leak || all)) {
		take = 1;
	} else if (vc->fix || is_held(f->cls)) {
		w = xasprintf("a low-confidence note (%s): %s", f->cls,
			      f->message && *f->message ? f->message : vc->message);
	} else if (!strcmp(f->cls, "put-cast")) {
		w = xstrdup("a seq_put_* writer has no format to rewrite; it needs seq_printf() with %p");
	} else if (!strcmp(f->cls, "int-untyped")) {
		w = xstrdup("spatch could not type the operand: a rewrite would rest on the text's reading of it");
	} else {
		w = xasprintf("no automatic fix for %s: %s", f->cls, vc->message);
	}
	if (why)
		*why = w;
	else
		free(w);
	return take;
}

void fix_left_out(struct fix_ctx *c, const struct cocci_result *res, int all, int quiet)
{
	size_t i;

	for (i = 0; i < res->nfindings; i++) {
		const struct finding *f = &res->findings[i];
		char *why = NULL, *line;

		if (fix_takes(f, all, &why))
			continue;
		line = xasprintf("%s:%u:%u: %s %s (%s()): %s", f->file, f->line, f->column,
				 f->cls, f->conversion, f->function, why);
		free(why);
		/* the option is the user's business, not the cover letter's */
		if (!quiet)
			fprintf(stderr, "ptrguard: fix: left out: %s%s\n", line,
				fix_takes(f, 1, NULL) ? "; --all rewrites it" : "");
		c->left = xrealloc(c->left, (c->nleft + 1) * sizeof(*c->left));
		c->left[c->nleft++] = line;
	}
}

/* ---- the rewrite ---- */

/* Past blanks, comments and backslash-newlines from @i. */
static size_t blank(const char *t, size_t i, size_t n)
{
	while (i < n) {
		if (isspace((unsigned char)t[i]))
			i++;
		else if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n')
			i += 2;
		else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*')
			i = strstr(t + i + 2, "*/") ? (size_t)(strstr(t + i + 2, "*/") - t) + 2 : n;
		else if (t[i] == '/' && i + 1 < n && t[i + 1] == '/')
			while (i < n && t[i] != '\n')
				i++;
		else
			break;
	}
	return i;
}

static size_t quoted(const char *t, size_t i, size_t n)
{
	char q = t[i++];

	while (i < n && t[i] != q && t[i] != '\n')
		i += t[i] == '\\' ? 2 : 1;
	return i < n ? i + 1 : n;
}

/* The end of the argument from @s: its ',' or ')' at depth 0. */
static size_t arg_end(const char *t, size_t n, size_t s)
{
	int depth = 0;

	while (s < n) {
		size_t j = blank(t, s, n);

		if (j != s) {
			s = j;
			continue;
		}
		if (t[s] == '"' || t[s] == '\'') {
			s = quoted(t, s, n);
			continue;
		}
		if (strchr("([{", t[s]))
			depth++;
		else if (strchr(")]}", t[s]) && depth-- == 0)
			return s;
		else if ((t[s] == ',' || t[s] == ';') && depth == 0)
			return s;
		s++;
	}
	return n;
}

/* t[s..e) without blanks and comments outside literals, malloc()ed. */
static char *squeeze(const char *t, size_t s, size_t e)
{
	char *out = xmalloc(e - s + 1);
	size_t o = 0, j;

	while (s < e) {
		j = blank(t, s, e);
		if (j != s) {
			s = j;
			continue;
		}
		if (t[s] == '"' || t[s] == '\'') {
			j = quoted(t, s, e);
			memcpy(out + o, t + s, j - s);
			o += j - s;
			s = j;
			continue;
		}
		out[o++] = t[s++];
	}
	out[o] = 0;
	return out;
}

/*
 * Is @a (squeezed) a postfix expression, "x", "p->f", "a[i].b", "f(x)",
 * which a cast binds without parentheses?
 */
static int postfix(const char *a)
{
	int depth = 0;

	if (!isalpha((unsigned char)*a) && *a != '_')
		return 0;
	for (; *a; a++) {
		if (*a == '(' || *a == '[') {
			depth++;
		} else if (*a == ')' || *a == ']') {
			depth--;
		} else if (depth) {
			continue;
		} else if (*a == '-' && a[1] == '>') {
			a++;
		} else if (!isalnum((unsigned char)*a) && *a != '_' && *a != '.') {
			return 0;
		}
	}
	return depth == 0;
}

/* The start of the line of @t (@n bytes) equal to line @no of @orig, nearest @no. */
static int find_line(const char *orig, size_t olen, unsigned int no, const char *t, size_t n,
		     size_t *at)
{
	size_t i, ls = 0, le, line = 1, best = (size_t)-1, bestd = (size_t)-1;

	for (i = 0; i < olen && line < no; i++)
		if (orig[i] == '\n') {
			line++;
			ls = i + 1;
		}
	if (line != no)
		return -1;
	for (le = ls; le < olen && orig[le] != '\n'; le++)
		;
	for (i = 0, line = 1; i < n; line++) {
		size_t e = i;

		while (e < n && t[e] != '\n')
			e++;
		if (e - i == le - ls && !memcmp(t + i, orig + ls, le - ls)) {
			size_t d = line > no ? line - no : no - line;

			if (d < bestd) {
				bestd = d;
				best = i;
			}
		}
		i = e + 1;
	}
	if (best == (size_t)-1)
		return -1;
	*at = best;
	return 0;
}

char *fix_file(const char *file, const char *text, size_t len,
	       const struct finding *const *findings, size_t n, size_t *newlen)
{
	const struct finding **lit = xmalloc((n + 1) * sizeof(*lit));
	struct fix_edit *ed = xmalloc((2 * n + 1) * sizeof(*ed));
	size_t nlit = 0, ned = 0, i, k, tlen, *used, nused = 0;
	char *t, *out = NULL;

	for (i = 0; i < n; i++)
		if (!is_held(findings[i]->cls))
			lit[nlit++] = findings[i];
	/* the conversions in literals first, by fix_apply() (aligned there) */
	if (nlit) {
		t = fix_apply(file, text, len, (const struct finding *const *)lit, nlit, &tlen);
	} else {
		t = xmalloc(len + 1);
		memcpy(t, text, len);
		t[len] = 0;
		tlen = len;
	}
	free(lit);
	if (!t || nlit == n) {
		if (t)
			*newlen = tlen;
		free(ed);
		return t;
	}
	used = xmalloc((n + 1) * sizeof(*used));
	/* then each held one, found by its line's text (the lines above may have moved) */
	for (i = 0; i < n; i++) {
		const struct finding *f = findings[i];
		size_t ls, off, cl = strlen(f->conversion), p, s, e;
		char *want, *got;
		int found = 0;

		if (!is_held(f->cls))
			continue;
		if (find_line(text, len, f->line, t, tlen, &ls) < 0) {
			error("fix: %s:%u: the line of %s changed before its own rewrite", file,
			      f->line, f->conversion);
			goto out;
		}
		off = ls + f->column - 1;
		if (f->column < 1 || off + cl > tlen || memcmp(t + off, f->conversion, cl)) {
			error("fix: %s:%u:%u: %s is not there in the file", file, f->line, f->column,
			      f->conversion);
			goto out;
		}
		ed[ned++] = (struct fix_edit){ off, off + cl, "%p" };
		/* the argument: past the literal, each one after a comma */
		for (p = off; p < tlen && t[p] != '"'; p += t[p] == '\\' ? 2 : 1)
			;
		want = squeeze(f->arg, 0, strlen(f->arg));
		for (p = arg_end(t, tlen, p + 1); p < tlen && t[p] == ','; p = e) {
			int taken = 0;

			s = blank(t, p + 1, tlen);
			e = arg_end(t, tlen, p + 1);
			got = squeeze(t, s, e);
			for (k = 0; k < nused; k++)
				taken |= used[k] == s;
			if (!taken && !strcmp(got, want)) {
				free(got);
				found = 1;
				break;
			}
			free(got);
		}
		if (!found) {
			error("fix: %s:%u: cannot find the argument '%s' of %s", file, f->line,
			      f->arg, f->conversion);
			free(want);
			goto out;
		}
		used[nused++] = s;
		if (fix_operand(t, s, e) > s) {
			/* the cast itself is printed (int-buf): it goes, as for int-cast */
			ed[ned++] = (struct fix_edit){ s, fix_operand(t, s, e), "" };
		} else if (postfix(want)) {
			ed[ned++] = (struct fix_edit){ s, s, "(void *)" };
		} else {
			size_t last = e;

			while (last > s && isspace((unsigned char)t[last - 1]))
				last--;
			ed[ned++] = (struct fix_edit){ s, s, "(void *)(" };
			ed[ned++] = (struct fix_edit){ last, last, ")" };
		}
		free(want);
	}
	qsort(ed, ned, sizeof(*ed), fix_edit_cmp);
	for (i = 1; i < ned; i++)
		if (ed[i].start < ed[i - 1].end) {
			error("fix: %s: overlapping edits at byte %zu", file, ed[i].start);
			goto out;
		}
	out = fix_edits_apply(t, tlen, ed, ned, newlen);
out:
	free(ed);
	free(used);
	free(t);
	return out;
}
