// SPDX-License-Identifier: GPL-2.0
/*
 * lex: the C lexical model of seq-output calls (see lex.h).
 *
 * Three steps over one token list: tokens (model/tokenize.c's, with the
 * directive each belongs to and #if 0 blocks marked dead: lex_model.c),
 * the file's own wrappers (added to a copy of the vocabulary until none
 * is new, so that a wrapper of a wrapper is found: lex_wrappers.c), then
 * the calls (lex_calls.c), each with the literals its format can be
 * (lex_formats.c) and the findings of their conversions.  The tree-wide
 * table of wrappers is model/wrapper_table.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "model/lex_impl.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

/* ------------------------------------------------------------ vocabulary */

void lex_vocab_add_via(struct lex_vocab *v, const char *name, size_t len, unsigned int fmt, int va,
		       const char *origin, const struct lex_fn *callee)
{
	struct lex_fn *f;
	char *path = NULL;

	if (lex_vocab_find(v, name, len))
		return;
	if (callee)	/* before the array moves */
		path = callee->path ? xasprintf("%s -> %s", callee->name, callee->path)
				    : xstrdup(callee->name);
	if (v->nfns == v->alloc) {
		v->alloc = v->alloc ? 2 * v->alloc : 16;
		v->fns = xrealloc(v->fns, v->alloc * sizeof(*v->fns));
	}
	f = &v->fns[v->nfns++];
	f->name = xstrndup(name, len);
	f->fmt = fmt;
	f->va = va;
	f->origin = xstrdup(origin);
	f->path = path;
}

void lex_vocab_add(struct lex_vocab *v, const char *name, size_t len, unsigned int fmt, int va,
		   const char *origin)
{
	lex_vocab_add_via(v, name, len, fmt, va, origin, NULL);
}

char *lex_fn_path(const struct lex_fn *f)
{
	return f->path ? xasprintf("%s -> %s", f->name, f->path) : xstrdup(f->name);
}

void lex_vocab_core(struct lex_vocab *v)
{
	size_t i;

	for (i = 0; i < vocab_nseq_outputs; i++) {
		const struct vocab_seq_output *o = &vocab_seq_outputs[i];

		lex_vocab_add(v, o->name, strlen(o->name), o->fmt, o->va, "core");
	}
}

const struct lex_fn *lex_vocab_find(const struct lex_vocab *v, const char *name, size_t len)
{
	size_t i;

	/* every call of every file asks: the first byte rules out most names */
	for (i = 0; i < v->nfns; i++)
		if (len && v->fns[i].name[0] == name[0] && strlen(v->fns[i].name) == len &&
		    !memcmp(v->fns[i].name, name, len))
			return &v->fns[i];
	return NULL;
}

void lex_vocab_copy(struct lex_vocab *to, const struct lex_vocab *from)
{
	size_t i;

	for (i = 0; i < from->nfns; i++) {
		const struct lex_fn *f = &from->fns[i];

		if (lex_vocab_find(to, f->name, strlen(f->name)))
			continue;
		lex_vocab_add(to, f->name, strlen(f->name), f->fmt, f->va, f->origin);
		if (f->path)
			to->fns[to->nfns - 1].path = xstrdup(f->path);
	}
}

/* What a lex_fn owns, freed; the struct itself stays the caller's. */
void lex_fn_release(struct lex_fn *f)
{
	free(f->name);
	free(f->origin);
	free(f->path);
}

void lex_vocab_free(struct lex_vocab *v)
{
	size_t i;

	for (i = 0; i < v->nfns; i++)
		lex_fn_release(&v->fns[i]);
	free(v->fns);
	memset(v, 0, sizeof(*v));
}

void lex_scan(const char *buf, size_t len, const struct lex_vocab *v, int hashed,
	      struct lex_file *out)
{
	struct model m = { 0 };
	struct span *dirs = NULL;
	size_t ndirs = 0, i, round, base;
	int more;

	memset(out, 0, sizeof(*out));
	m.hashed = hashed;
	lex_vocab_copy(&m.v, v);
	base = m.v.nfns;
	for (i = 0; i < vocab_nio_fns; i++)
		if (vocab_io_fns[i].kind != VOCAB_IO_TEXT)
			lex_vocab_add(&m.io, vocab_io_fns[i].name, strlen(vocab_io_fns[i].name),
				      vocab_io_fns[i].arg, 0, "io");
	ndirs = model_read(&m, buf, len, &dirs);
	for (round = 0, more = 1; more && round < 8; round++) {
		more = 0;
		for (i = 0; i < ndirs; i++)
			more |= macro_wrapper(&m, &dirs[i]);
		for (i = 0; i < m.code.n; i++)
			if (s_is(&m, &m.code, i, "{") && (!i || !m.func[i - 1]) && m.func[i])
				more |= function_wrapper(&m, i);
	}
	for (i = base; i < m.v.nfns; i++) {
		out->wrappers = xrealloc(out->wrappers, (out->nwrappers + 1) * sizeof(*out->wrappers));
		out->wrappers[out->nwrappers++] = xstrdup(m.v.fns[i].name);
	}
	find_calls(&m, &m.code, NULL, out);
	for (i = 0; i < out->ncalls; i++) {
		const struct lex_fn *w = *out->calls[i].function ?
			lex_vocab_find(&m.v, out->calls[i].function, strlen(out->calls[i].function)) : NULL;

		out->calls[i].body = w && (!strncmp(w->origin, "function:", 9) ||
					   is_hander(&m, w->name));
	}
	for (i = 0; i < ndirs; i++) {
		const struct span *d = &dirs[i];
		char *name;
		size_t before = out->ncalls, k;

		if (d->n < 3 || !s_is(&m, d, 1, "define"))
			continue;
		name = s_text(&m, d, 2, 3);
		find_calls(&m, d, name, out);
		/* a call handing on the macro's own format is the wrapper, not a call */
		for (k = before; k < out->ncalls; k++) {
			struct lex_call *c = &out->calls[k];
			const struct lex_fn *self = lex_vocab_find(&m.v, name, strlen(name));

			if ((c->opaque || c->macro) && self && strncmp(self->origin, "macro:", 6) == 0) {
				c->opaque = NULL;
				c->fn = NULL;
			}
			if (c->opaque && !strcmp(c->opaque, "not a string literal"))
				c->opaque = "a macro parameter";
		}
		free(name);
	}
	/* drop the wrappers' own bodies */
	{
		size_t n = 0;

		for (i = 0; i < out->ncalls; i++) {
			if (out->calls[i].fn) {
				out->calls[n++] = out->calls[i];
			} else {
				out->bodies = xrealloc(out->bodies,
						       (out->nbodies + 1) * sizeof(*out->bodies));
				out->bodies[out->nbodies][0] = out->calls[i].line;
				out->bodies[out->nbodies++][1] = out->calls[i].column;
				call_free(&out->calls[i]);
			}
		}
		out->ncalls = n;
	}
	/* functions of the vocabulary point into m.v: keep them alive with the result */
	for (i = 0; i < out->ncalls; i++) {
		struct lex_fn *copy = xmalloc(sizeof(*copy));

		*copy = *out->calls[i].fn;
		copy->name = xstrdup(copy->name);
		copy->origin = xstrdup(copy->origin);
		copy->path = copy->path ? xstrdup(copy->path) : NULL;
		out->calls[i].fn = copy;
	}
	out->broken = m.lx.broken;
	model_free(&m, dirs, ndirs);
	lex_vocab_free(&m.v);
	lex_vocab_free(&m.io);
}

void lex_file_free(struct lex_file *f)
{
	size_t i;

	for (i = 0; i < f->ncalls; i++)
		call_free(&f->calls[i]);
	free(f->calls);
	for (i = 0; i < f->nwrappers; i++)
		free(f->wrappers[i]);
	free(f->wrappers);
	free(f->bodies);
	memset(f, 0, sizeof(*f));
}

/* The first code token on line @line, or m->code.n. */
static size_t code_at_line(const struct model *m, unsigned int line)
{
	size_t lo = 0, hi = m->code.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (T(m, &m->code, mid)->line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->code.n && T(m, &m->code, lo)->line == line ? lo : m->code.n;
}

int lex_user_expr(const char *buf, size_t len, const char *expr, unsigned int line)
{
	struct model m = { 0 };
	struct span *dirs = NULL;
	size_t e = strlen(expr), b, p, ndirs;
	int ret, member;

	/* a name or a member, "d -> ubuf": not lookup(d->ubuf), not a ?: of one */
	for (p = 0; expr[p]; p++)
		if (!tok_name_byte((unsigned char)expr[p]) && expr[p] != ' ' && expr[p] != '.' &&
		    !(expr[p] == '-' && expr[p + 1] == '>') && !(expr[p] == '>' && p && expr[p - 1] == '-'))
			return 0;
	while (e && !tok_name_byte((unsigned char)expr[e - 1]))
		e--;
	for (b = e; b && tok_name_byte((unsigned char)expr[b - 1]); b--)
		;
	if (b == e || !tok_name_start((unsigned char)expr[b]))
		return 0;
	for (p = b; p && expr[p - 1] == ' '; p--)
		;
	member = (p >= 2 && !memcmp(expr + p - 2, "->", 2)) || (p && expr[p - 1] == '.');
	ndirs = model_read(&m, buf, len, &dirs);
	ret = user_name(&m, expr + b, e - b, line ? code_at_line(&m, line) : m.code.n, member);
	model_free(&m, dirs, ndirs);
	return ret;
}
