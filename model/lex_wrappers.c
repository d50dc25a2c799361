// SPDX-License-Identifier: GPL-2.0
/*
 * lex_wrappers: the wrappers of seq output a file or a header defines:
 * macros that hand their format to a seq function, variadic functions
 * that hand it to a va_list variant, and the __printf() functions a
 * header declares with a seq_file, seq_buf or trace_seq parameter.
 */
#include <stdlib.h>
#include <string.h>

#include "model/lex_impl.h"
#include "lib/ptrguard.h"

/* ------------------------------------------------------------- wrappers */

/* The parameter of a macro that the word s[x] names, or np: see macro_wrapper(). */
static size_t param_of(const struct model *m, const struct span *d, size_t x,
		       const size_t *pname, size_t np)
{
	const struct token *w = T(m, d, x);
	size_t pi;

	for (pi = 0; pi < np; pi++) {
		const struct token *t = pname[pi] == (size_t)-1 ? NULL : T(m, d, pname[pi]);

		if (t ? t->len == w->len && !memcmp(m->lx.t + t->off, m->lx.t + w->off, w->len)
		      : is(&m->lx, d->ix[x], "__VA_ARGS__"))
			return pi;
	}
	return np;
}

/*
 * A function-like macro whose body calls a seq-output function with one
 * of its parameters as the format (literals and macros around it allowed:
 * PFX fmt), or with its variadic pack where the format is ("fmt, ...",
 * "x...", "...", with or without "##"), in whatever statement around it
 * (do { } while (0), a ternary with printk).
 */
int macro_wrapper(struct model *m, const struct span *d)
{
	size_t close, i, p, np = 0, a[16][2], na, k, x;
	size_t pname[16], ppack = (size_t)-1;
	const struct lex_fn *fn;
	const struct token *nm;

	/* an object-like alias: "# define NAME WORD", WORD a known function */
	if (d->n == 4 && s_is(m, d, 1, "define") && s_word(m, d, 2) && s_word(m, d, 3)) {
		const struct token *w = T(m, d, 3);
		char *origin;

		nm = T(m, d, 2);
		fn = lex_vocab_find(&m->v, m->lx.t + w->off, w->len);
		if (!fn || lex_vocab_find(&m->v, m->lx.t + nm->off, nm->len))
			return 0;
		origin = m->header ? xasprintf("macro:%s:%u", m->header, nm->line)
				   : xasprintf("macro:%u", nm->line);
		lex_vocab_add_via(&m->v, m->lx.t + nm->off, nm->len, fn->fmt, fn->va, origin, fn);
		free(origin);
		return 1;
	}
	/* "# define NAME(" with no blank before the "(" */
	if (d->n < 5 || !s_is(m, d, 1, "define") || !s_word(m, d, 2) || !s_is(m, d, 3, "(") ||
	    GAP(T(m, d, 3)))
		return 0;
	nm = T(m, d, 2);
	if (lex_vocab_find(&m->v, m->lx.t + nm->off, nm->len))
		return 0;
	close = s_close(m, d, 3);
	if (close == d->n)
		return 0;
	for (i = 4; i < close && np < 16; i++) {
		if (s_word(m, d, i)) {
			if (s_is(m, d, i + 1, "..."))
				ppack = np;
			pname[np++] = i;
		} else if (s_is(m, d, i, "...") && !s_word(m, d, i - 1)) {
			ppack = np;
			pname[np++] = (size_t)-1;	/* __VA_ARGS__ */
		}
	}
	for (i = close + 1; i + 1 < d->n; i++) {
		const struct token *w = T(m, d, i);

		if (!s_word(m, d, i) || !s_is(m, d, i + 1, "("))
			continue;
		fn = lex_vocab_find(&m->v, m->lx.t + w->off, w->len);
		if (!fn)
			continue;
		na = s_args(m, d, i + 1, s_close(m, d, i + 1), a, 16);
		for (k = 0, p = (size_t)-1; k < na && k <= fn->fmt && p == (size_t)-1; k++) {
			size_t b = a[k][0], e = a[k][1], pi = np, found = 0;

			for (x = b; x < e; x++) {
				size_t q;

				if (s_is(m, d, x, "##") || T(m, d, x)->kind == K_STR)
					continue;
				if (!s_word(m, d, x))
					break;
				q = param_of(m, d, x, pname, np);
				if (q < np) {
					pi = q;
					found++;
				}
			}
			if (x != e || found != 1)
				continue;
			if (pi == ppack)
				p = pi + (fn->fmt - k);
			else if (k == fn->fmt)
				p = pi;
		}
		if (p != (size_t)-1) {
			char *origin = m->header ? xasprintf("macro:%s:%u", m->header, nm->line)
						 : xasprintf("macro:%u", nm->line);

			lex_vocab_add_via(&m->v, m->lx.t + nm->off, nm->len, (unsigned int)p, fn->va,
					  origin, fn);
			free(origin);
			return 1;
		}
	}
	return 0;
}

/* Is @name one of m->handers? */
int is_hander(const struct model *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nhanders; i++)
		if (!strcmp(m->handers[i], name))
			return 1;
	return 0;
}

/*
 * A variadic function that hands its own format to a va_list variant
 * (SEQ_printf() in kernel/time/timer_list.c).
 */
int function_wrapper(struct model *m, size_t brace)
{
	const struct span *s = &m->code;
	size_t open, close = brace - 1, i, a[16][2], na, np, k, end = s_close(m, s, brace);
	size_t p[16][2];
	int depth = 0, added = 0;
	const struct lex_fn *self;

	if (!brace || !s_is(m, s, close, ")"))
		return 0;
	for (open = close; open < s->n; open--) {
		if (s_is(m, s, open, ")"))
			depth++;
		else if (s_is(m, s, open, "(") && --depth == 0)
			break;
		if (!open)
			return 0;
	}
	if (!open || !s_word(m, s, open - 1))
		return 0;
	np = s_args(m, s, open, close, p, 16);
	self = lex_vocab_find(&m->v, m->lx.t + T(m, s, open - 1)->off, T(m, s, open - 1)->len);
	/* variadic, or a known va_list variant (trace_seq_vprintf() in kernel/trace/) */
	if (!np || ((!s_is(m, s, p[np - 1][0], "...") || p[np - 1][1] != p[np - 1][0] + 1) &&
		    !(self && self->va)))
		return 0;
	for (i = brace + 1; i + 1 < end; i++) {
		const struct token *w = T(m, s, i);
		const struct lex_fn *fn;

		if (!s_word(m, s, i) || !s_is(m, s, i + 1, "("))
			continue;
		fn = lex_vocab_find(&m->v, m->lx.t + w->off, w->len);
		if (!fn || !fn->va)
			continue;
		na = s_args(m, s, i + 1, s_close(m, s, i + 1), a, 16);
		if (na <= fn->fmt || a[fn->fmt][1] != a[fn->fmt][0] + 1)
			continue;
		for (k = 0; k + 1 < np; k++) {
			const struct token *last = T(m, s, p[k][1] - 1), *x = T(m, s, a[fn->fmt][0]);

			if (last->kind == K_WORD && last->len == x->len &&
			    !memcmp(m->lx.t + last->off, m->lx.t + x->off, x->len)) {
				const struct token *nm = T(m, s, open - 1);
				char *origin = xasprintf("function:%u", nm->line);

				const struct lex_fn *known = lex_vocab_find(&m->v, m->lx.t + nm->off,
									    nm->len);

				if (!known) {
					lex_vocab_add_via(&m->v, m->lx.t + nm->off, nm->len,
							  (unsigned int)k, 0, origin, fn);
					added = 1;
				} else if (known->fmt == k && strncmp(known->origin, "macro:", 6) &&
					   !is_hander(m, known->name)) {
					m->handers = xrealloc(m->handers,
							      (m->nhanders + 1) * sizeof(*m->handers));
					m->handers[m->nhanders++] = xstrdup(known->name);
				}
				free(origin);
				break;
			}
		}
	}
	return added;
}

/* ------------------------------------------------------------- headers */

static const char *const seq_types[] = { "seq_file", "seq_buf", "trace_seq" };

void lex_vocab_scan_header(struct lex_vocab *v, const char *buf, size_t len, const char *name)
{
	struct model m = { 0 };
	struct span *s = &m.code;
	size_t alloc = 0, i, j, stmt = 0;

	if (!mem_find(buf, len, "__printf", 8))
		return;
	m.lx.t = buf;
	m.lx.n = len;
	lex_tokens(&m.lx);
	for (i = 0; i < m.lx.ntk; i++)
		if (!m.lx.tk[i].dir)
			span_add(s, i, &alloc);
	for (i = 0; i < s->n; i++) {
		size_t a[2][2], p[16][2], np, close, k, t;
		unsigned long fmt, first;
		const char *fname = NULL;
		size_t flen = 0;
		int seq = 0;

		if (s_is(&m, s, i, ";") || s_is(&m, s, i, "}") || s_is(&m, s, i, "{")) {
			stmt = i + 1;
			continue;
		}
		if (!s_is(&m, s, i, "__printf") || !s_is(&m, s, i + 1, "("))
			continue;
		close = s_close(&m, s, i + 1);
		if (s_args(&m, s, i + 1, close, a, 2) != 2 || a[0][1] != a[0][0] + 1 ||
		    a[1][1] != a[1][0] + 1)
			continue;
		fmt = strtoul(buf + T(&m, s, a[0][0])->off, NULL, 10);
		first = strtoul(buf + T(&m, s, a[1][0])->off, NULL, 10);
		if (!fmt)
			continue;
		/* the declaration around it: the first "NAME(" that is no attribute */
		for (j = stmt; j < s->n && !s_is(&m, s, j, ";") && !s_is(&m, s, j, "{"); j++) {
			const struct token *w = T(&m, s, j);

			if (s_word(&m, s, j) && s_is(&m, s, j + 1, "(")) {
				if (!(w->len >= 2 && buf[w->off] == '_' && buf[w->off + 1] == '_')) {
					fname = buf + w->off;
					flen = w->len;
					break;
				}
				j = s_close(&m, s, j + 1);
			}
		}
		if (!fname)
			continue;
		np = s_args(&m, s, j + 1, s_close(&m, s, j + 1), p, 16);
		for (k = 0; k < np && k + 1 < fmt; k++)
			for (t = p[k][0]; t < p[k][1]; t++) {
				size_t q;

				for (q = 0; q < 3; q++)
					if (is(&m.lx, s->ix[t], seq_types[q]))
						seq = 1;
			}
		if (seq && np >= fmt) {
			char *origin = xasprintf("%s:%u", name, T(&m, s, j)->line);

			lex_vocab_add(v, fname, flen, (unsigned int)(fmt - 1), first == 0, origin);
			free(origin);
		}
	}
	free(s->ix);
	free(m.lx.tk);
}

int lex_vocab_scan_macros(struct lex_vocab *v, const char *buf, size_t len, const char *name)
{
	struct model m = { 0 };
	struct span *dirs = NULL;
	size_t ndirs, i, round;
	int more, added = 0;

	if (!mem_find(buf, len, "define", 6))
		return 0;
	m.lx.t = buf;
	m.lx.n = len;
	m.header = name;
	m.v = *v;	/* moved in and out: what macro_wrapper() adds goes to @v */
	lex_tokens(&m.lx);
	mark_dead(&m.lx);
	ndirs = split_lines(&m, &dirs);
	for (round = 0, more = 1; more && round < 8; round++) {
		more = 0;
		for (i = 0; i < ndirs; i++)
			more |= macro_wrapper(&m, &dirs[i]);
		added |= more;
	}
	*v = m.v;
	for (i = 0; i < ndirs; i++)
		free(dirs[i].ix);
	free(dirs);
	free(m.code.ix);
	free(m.lx.tk);
	return added;
}
