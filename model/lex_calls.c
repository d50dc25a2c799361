// SPDX-License-Identifier: GPL-2.0
/*
 * lex_calls: the calls of seq output functions and wrappers in a span of
 * the model, each with the literals its format can be and the findings of
 * their conversions, judged by model/format.c.
 */
#include <stdlib.h>
#include <string.h>

#include "model/format.h"
#include "model/lex_impl.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

static void add_finding(struct lex_call *c, const struct joined *j, const struct fmt_conv *cv,
			const char *cls, char *arg, int unknown, int argidx, const struct token *at)
{
	struct lex_finding *f;

	c->findings = xrealloc(c->findings, (c->nfindings + 1) * sizeof(*c->findings));
	f = &c->findings[c->nfindings++];
	f->line = j->line[cv->start + 1];
	f->column = j->col[cv->start + 1] + 1;
	f->cls = cls;
	f->conversion = xstrndup(j->text + 1 + cv->start, cv->len);
	f->arg = arg ? arg : xstrdup("");
	f->format = xstrdup(j->text);
	f->unknown_cast = unknown;
	f->argidx = argidx;
	f->arg_line = at ? at->line : 0;
	f->arg_column = at ? at->col + 1 : 0;
	f->message = NULL;
	f->pointer = NULL;
}

/* Judge the conversions of one literal the call's format can be. */
static void judge(struct model *m, const struct span *s, struct lex_call *c,
		  const struct alt *a, size_t (*args)[2], size_t nargs)
{
	struct joined j;
	struct fmt_iter it = { 0 };
	struct fmt_conv cv;
	size_t ai = c->fn->fmt + 1, nbytes, *raw;
	char *bytes;

	join_alt(m, s, a, &j);
	c->formats = xrealloc(c->formats, (c->nformats + 1) * sizeof(*c->formats));
	c->formats[c->nformats++] = xstrdup(j.text);
	bytes = decode_joined(&j, &nbytes, &raw);
	it.partial = 1;
	while (fmt_next(bytes, nbytes, &it, &cv)) {
		size_t idx = ai++, end = raw[cv.start + cv.len];
		int have = !c->fn->va && idx < nargs;
		char *arg = have ? s_text(m, s, args[idx][0], args[idx][1]) : NULL;
		const struct token *last = have ? T(m, s, args[idx][1] - 1) : NULL;
		const struct token *first = have ? T(m, s, args[idx][0]) : NULL;
		int member = have && (s_is(m, s, args[idx][1] - 2, "->") ||
				      s_is(m, s, args[idx][1] - 2, "."));
		int user = have && last->kind == K_WORD &&
			(args[idx][1] == args[idx][0] + 1 || member) &&
			!macro_param(m, s, m->lx.t + last->off, last->len) &&
			user_name(m, m->lx.t + last->off, last->len,
				  code_index(m, s->ix[args[idx][1] - 1]), member);

		/* before v4.15: plain %p, or an extension pointer() does not print */
		int unhashed = !m->hashed && cv.kind != SEQ_PTR_RAW &&
			fmt_p_raw_unhashed(bytes, &cv);
		size_t pend = cv.start;
		char *ext = NULL;

		while (pend < cv.start + cv.len && bytes[pend] != 'p')
			pend++;
		pend = raw[pend < cv.start + cv.len ? pend + 1 : cv.start + cv.len];
		/* from here on, the conversion as spelled in the source */
		cv.start = raw[cv.start];
		cv.len = end - cv.start;
		/*
		 * An extension that prints raw: the finding is the "%p" before
		 * it, where "K" makes it %pK (vsprintf skips the letters after
		 * the one it reads); the message names the whole conversion.
		 */
		if (unhashed && !user && !fmt_plain_p(&cv)) {
			ext = xasprintf("%.*s: an extension the tree's vsprintf does not print "
					"(v4.14's pointer()): before v4.15 it prints the raw address, "
					"as plain %%p does; use %%pK", (int)cv.len, j.text + 1 + cv.start);
			cv.len = pend - cv.start;
		}
		if (cv.incomplete && a->macro) {
			if (!c->opaque)
				c->opaque = "a conversion completed by a macro";
			free(arg);
		} else if (cv.kind == SEQ_PTR_RAW) {
			add_finding(c, &j, &cv, user ? "px-user" : "px", arg, 0, have ? (int)idx : -1,
				    first);
		} else if (unhashed) {
			add_finding(c, &j, &cv, user ? "px-user" : "p-unhashed", arg, 0,
				    have ? (int)idx : -1, first);
			c->findings[c->nfindings - 1].message = ext;
		} else if (cv.kind == SEQ_PTR_INT && have) {
			const char *why = NULL;
			int r = int_cast(m, s, args[idx][0], args[idx][1], &why);

			/* "int": no pointer in the text; spatch's types may still say one */
			add_finding(c, &j, &cv, r > 0 ? "int-cast" : r < 0 ? NULL : "int", arg, r < 0,
				    (int)idx, first);
			c->findings[c->nfindings - 1].pointer = r > 0 ? why : NULL;
		} else {
			free(arg);
		}
	}
	free(bytes);
	free(raw);
	joined_free(&j);
}

/*
 * The value a seq_put_* writer prints (argument @idx, tokens [b, e)): it
 * has no format, and prints all 64 bits, so it is judged as a long-wide
 * conversion would be, the conversion named by the function and placed
 * at its name (arg_line and arg_column place the value).
 */
static void put_value(struct model *m, const struct span *s, struct lex_call *c, size_t b,
		      size_t e, unsigned int idx)
{
	const struct token *first = T(m, s, b);
	const char *why = NULL;
	int r = int_cast(m, s, b, e, &why);
	struct lex_finding *f;

	c->findings = xrealloc(c->findings, (c->nfindings + 1) * sizeof(*c->findings));
	f = &c->findings[c->nfindings++];
	/* at the writer's name: it is the conversion */
	f->line = c->line;
	f->column = c->column;
	f->cls = r > 0 ? "int-cast" : r < 0 ? NULL : "int";
	f->conversion = xstrdup(c->fn->name);
	f->arg = s_text(m, s, b, e);
	f->format = xstrdup("");
	f->unknown_cast = r < 0;
	f->argidx = (int)idx;
	f->arg_line = first->line;
	f->arg_column = first->col + 1;
	f->message = NULL;
	f->pointer = r > 0 ? why : NULL;
	c->nvalues = 1;
}

/* Is the word before a "NAME(" one that makes it a declaration, not a call? */
static int declares(const struct model *m, const struct span *s, size_t i)
{
	static const char *const stmt[] = { "return", "else", "do", "case", "sizeof", NULL };
	size_t k;

	if (!i || !s_word(m, s, i - 1))
		return 0;
	for (k = 0; stmt[k]; k++)
		if (s_is(m, s, i - 1, stmt[k]))
			return 0;
	return 1;
}

void find_calls(struct model *m, const struct span *s, const char *where, struct lex_file *out)
{
	size_t i, open, close, na;
	size_t a[64][2];

	for (i = 0; i + 1 < s->n; i++) {
		const struct token *w = T(m, s, i);
		const struct lex_fn *fn;
		struct lex_call c = { 0 };
		struct alts alts = { 0 };
		size_t k;

		if (w->kind != K_WORD || !s_is(m, s, i + 1, "("))
			continue;
		fn = lex_vocab_find(&m->v, m->lx.t + w->off, w->len);
		/* the writers and formatting calls of vocab.def, in code only */
		if (!fn && !where)
			fn = lex_vocab_find(&m->io, m->lx.t + w->off, w->len);
		if (!fn || declares(m, s, i))
			continue;
		open = i + 1;
		close = s_close(m, s, open);
		if (close == s->n)
			continue;
		na = s_args(m, s, open, close, a, 64);
		if (fn >= m->io.fns && fn < m->io.fns + m->io.nfns) {
			const struct vocab_io_fn *io = vocab_io(fn->name, strlen(fn->name));

			c.io = io ? (int)io->kind : VOCAB_IO_NONE;
		}
		if (c.io == VOCAB_IO_PUT) {
			c.line = w->line;
			c.column = w->col + 1;
			c.end_line = T(m, s, close)->line;
			c.fn = fn;
			c.function = xstrdup(m->func[i] ? m->func[i] : "");
			if (na > fn->fmt)
				put_value(m, s, &c, a[fn->fmt][0], a[fn->fmt][1], fn->fmt);
			out->calls = xrealloc(out->calls, (out->ncalls + 1) * sizeof(*out->calls));
			out->calls[out->ncalls++] = c;
			continue;
		}
		c.line = w->line;
		c.column = w->col + 1;
		c.end_line = T(m, s, close)->line;
		c.fn = fn;
		c.nvalues = na > fn->fmt + 1 ? (unsigned int)(na - fn->fmt - 1) : 0;
		c.function = xstrdup(where ? where : m->func[i] ? m->func[i] : "");
		if (na <= fn->fmt) {
			c.opaque = "fewer arguments than the format's place";
		} else if (!literal_alts(m, s, a[fn->fmt][0], a[fn->fmt][1], &alts)) {
			/* literals */
		} else if (!where) {
			/* a variable, fmts[i], tokens[i].pattern, a macro of the file over those */
			alts_free(&alts);
			c.opaque = computed_alts(m, a[fn->fmt][0], a[fn->fmt][1], &alts);
		} else {
			alts_free(&alts);
			c.opaque = "not a string literal";
		}
		if (c.opaque)
			alts_free(&alts);
		for (k = 0; k < alts.n; k++) {
			c.macro |= alts.a[k].macro;
			judge(m, s, &c, &alts.a[k], a, na);
		}
		alts_free(&alts);
		out->calls = xrealloc(out->calls, (out->ncalls + 1) * sizeof(*out->calls));
		out->calls[out->ncalls++] = c;
	}
}

void call_free(struct lex_call *c)
{
	size_t k;

	for (k = 0; k < c->nfindings; k++) {
		free(c->findings[k].conversion);
		free(c->findings[k].arg);
		free(c->findings[k].format);
		free(c->findings[k].message);
	}
	free(c->findings);
	for (k = 0; k < c->nformats; k++)
		free(c->formats[k]);
	free(c->formats);
	free(c->function);
	if (c->fn) {
		lex_fn_release((struct lex_fn *)c->fn);
		free((struct lex_fn *)c->fn);
	}
}
