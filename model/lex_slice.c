// SPDX-License-Identifier: GPL-2.0
/*
 * lex_slice: a C file with the code of the function bodies a rule has
 * nothing to match in left out, for spatch to parse instead of the file.
 *
 * The rules match inside one function (a call, its arguments, the
 * locals that reach it), and across functions only through what a body
 * names: a field assigned a cast, a buffer handed to another function
 * of the file or returned by one.  spatch parses, types and matches
 * every body of a file it is given; in the files the prefilter keeps
 * for seq_px.cocci (a %px in a 5,000-line driver), almost none of it
 * can give a fact.  So the text spatch reads is the file with the code
 * tokens of every other body turned into blanks: the body's braces, the
 * function's head, what lies outside functions, comments, #if 0 blocks
 * and directive lines stay, and so does every line and column, so the
 * facts land where they were.  A body is kept when it holds
 *
 *  - for seq_px.cocci, a call the judge reads the rule's facts for (a
 *    pointer conversion, as lex_scan() finds it with plain %p taken as
 *    unhashed, or a literal with a macro in it), and a name of a seq
 *    output function the judge knows (lex.h's vocabulary, the wrappers)
 *    where the model reads no call: spatch may parse one there, which
 *    the judge lists as not understood; with --list-formats (every call
 *    spatch parses is listed) a word of a seq output function or
 *    wrapper, or any word with "seq" or "SEQ" in it, as the rules'
 *    callee regexes read names;
 *  - for seq_int_cast.cocci, a call the judge reads the rule's facts for
 *    (a long-wide conversion of an integer cast the text cannot type or
 *    shows a pointer, as lex_scan() finds them), or an assignment of a
 *    cast to an integer wide enough for a pointer (a held local, a
 *    field: the rules follow no narrower one); when such a body assigns
 *    a field that cast or a local assigned it, the calls printing a
 *    field wide, and the bodies copying that field to another by name,
 *    and that one, and so on (the rule's fieldcopy);
 *  - for both, one body calling a seq output function (the rules' fact
 *    rules depend on their "seqcall" matching somewhere in the file);
 *  - for both, a privilege check or variable (model/vocab.def): a gate
 *    the rules follow through a field assigned in another body;
 *  - for both, a formatting call into a buffer the rules follow (@lines),
 *    and then every function of the file it names or that names it (a
 *    buffer handed to a function, one returned to the caller: the rules
 *    follow it one call away).
 *
 * A call in a blanked body keeps no fact of the rule; the judge reads it
 * from the text, as it reads the calls of a file the prefilter leaves out
 * (judge/judge.c), and by the above it has nothing a fact would change.
 * What the model cannot read safely stays whole: a file whose text does
 * not lex, a body that holds an #include or a conditional directive that
 * does not open and close inside it, a body whose braces the
 * configurations read differently.
 */
#include <stdlib.h>
#include <string.h>

#include "model/lex_impl.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

/* One function body: code tokens [open, close] of m->code. */
struct body {
	size_t open, close;
	const char *name;
	unsigned int first, last;	/* lines of its braces */
	int keep, seed;
};

/*
 * "(" int-word... ")" at code token @i: a cast to an integer type wide
 * enough for a pointer (vocab.def's PG_INT_CAST "wide" ones: a type
 * with "long" in it, or one word like u64).  The rules follow a pointer
 * cast into a local or a field only through such a cast: a narrower one
 * has cut the address.
 */
static int wide_cast_at(const struct model *m, size_t i, size_t end)
{
	const struct span *s = &m->code;
	const struct token *one = NULL;
	size_t j, words = 0;
	int wide = 0;

	if (!s_is(m, s, i, "("))
		return 0;
	for (j = i + 1; j < end && s_word(m, s, j); j++) {
		const struct token *k = T(m, s, j);

		if (s_is(m, s, j, "const") || s_is(m, s, j, "volatile"))
			continue;
		if (!vocab_int_word(m->lx.t + k->off, k->len))
			return 0;
		wide |= s_is(m, s, j, "long");
		one = k;
		words++;
	}
	if (!words || j >= end || !s_is(m, s, j, ")"))
		return 0;
	if (!wide && words == 1) {
		char *type = xstrndup(m->lx.t + one->off, one->len);

		wide = vocab_int_cast(type) == 1;
		free(type);
	}
	return wide;
}

/* Does a line range of @r (@n of them) meet the body's lines? */
static int meets(const unsigned int (*r)[2], size_t n, const struct body *b)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (r[k][0] <= b->last && r[k][1] >= b->first)
			return 1;
	return 0;
}

/* Does the body assign a wide integer cast ("= (I)...": a held local, a field)? */
static int assigns_cast(const struct model *m, const struct body *b)
{
	size_t i;

	for (i = b->open + 1; i < b->close; i++)
		if (s_is(m, &m->code, i, "=") && wide_cast_at(m, i + 1, b->close))
			return 1;
	return 0;
}

/* Names of fields, pointing into the model's text. */
struct fields {
	const struct token **k;
	size_t n;
};

static int fields_has(const struct model *m, const struct fields *f, const struct token *t)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->k[i]->len == t->len && !memcmp(m->lx.t + f->k[i]->off, m->lx.t + t->off, t->len))
			return 1;
	return 0;
}

static void fields_add(const struct model *m, struct fields *f, const struct token *t)
{
	if (fields_has(m, f, t))
		return;
	f->k = xrealloc(f->k, (f->n + 1) * sizeof(*f->k));
	f->k[f->n++] = t;
}

/* Is code token @i a field assigned, "->" or "." NAME "=" ?  Its name, or NULL. */
static const struct token *field_assigned(const struct model *m, size_t i)
{
	const struct span *s = &m->code;

	if ((s_is(m, s, i, "->") || s_is(m, s, i, ".")) && s_word(m, s, i + 1) &&
	    s_is(m, s, i + 2, "="))
		return T(m, s, i + 1);
	return NULL;
}

/*
 * Add to @f the fields the body assigns a wide integer cast, or a name
 * it assigns one (the rule's fieldcast, fieldheld: X->fld = (I)p;
 * v = (I)p; ... X->fld = v).
 */
static void fields_assigned(const struct model *m, const struct body *b, struct fields *f)
{
	const struct span *s = &m->code;
	struct fields held = { NULL, 0 };
	size_t i;

	for (i = b->open + 1; i + 1 < b->close; i++)
		if (s_word(m, s, i) && s_is(m, s, i + 1, "=") && wide_cast_at(m, i + 2, b->close) &&
		    !s_is(m, s, i - 1, "->") && !s_is(m, s, i - 1, "."))
			fields_add(m, &held, T(m, s, i));
	for (i = b->open + 1; i < b->close; i++) {
		const struct token *t = field_assigned(m, i);

		if (t && (wide_cast_at(m, i + 3, b->close) ||
			  (s_word(m, s, i + 3) && s_is(m, s, i + 4, ";") &&
			   fields_has(m, &held, T(m, s, i + 3)))))
			fields_add(m, f, t);
	}
	free(held.k);
}

/*
 * Does the body copy a field of @f to a field (X->fld = Y->src, the
 * rule's fieldcopy: fields go by name)?  Add the fields it copies to.
 */
static int copies_field(const struct model *m, const struct body *b, struct fields *f)
{
	const struct span *s = &m->code;
	size_t i, j;
	int copies = 0;

	for (i = b->open + 1; i < b->close; i++) {
		const struct token *t = field_assigned(m, i);

		if (!t)
			continue;
		for (j = i + 3; j < b->close && !s_is(m, s, j, ";"); j++)
			if ((s_is(m, s, j, "->") || s_is(m, s, j, ".")) && s_word(m, s, j + 1) &&
			    fields_has(m, f, T(m, s, j + 1))) {
				copies = 1;
				fields_add(m, f, t);
				break;
			}
	}
	return copies;
}

/* Does the body name a privilege check or variable (a gate, assigned to a field too)? */
static int names_priv(const struct model *m, const struct body *b)
{
	size_t i;

	for (i = b->open + 1; i < b->close; i++) {
		const struct token *k = T(m, &m->code, i);

		if (k->kind == K_WORD && vocab_priv_name(m->lx.t + k->off, k->len))
			return 1;
	}
	return 0;
}

/* Does the body name a seq output function or wrapper (seq_px.cocci's calls)? */
static int names_output(const struct model *m, const struct body *b,
			const struct lex_slice_need *need)
{
	const struct span *s = &m->code;
	size_t i;

	for (i = b->open + 1; i < b->close; i++) {
		const struct token *k = T(m, s, i);
		const char *w = m->lx.t + k->off;

		if (k->kind == K_WORD && (vocab_seq_word(w, k->len) || lex_vocab_find(need->v, w, k->len) ||
					  names_has(need->names, need->nnames, w, k->len)))
			return 1;
	}
	return 0;
}

/*
 * Does the body call a seq output function?  One the model reads there
 * (@need->seq), or without those, one it names.
 */
static int calls_output(const struct model *m, const struct body *b,
			const struct lex_slice_need *need)
{
	size_t i;

	if (!need->seq)
		return names_output(m, b, need);
	for (i = 0; i < need->nseq; i++)
		if (need->seq[i] >= b->first && need->seq[i] <= b->last)
			return 1;
	return 0;
}

/* Is @line, @col (1-based) the callee of a call the model reads (@need->read)? */
static int read_at(const struct lex_slice_need *need, unsigned int line, unsigned int col)
{
	size_t lo = 0, hi = need->nread;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const unsigned int *r = need->read[mid];

		if (r[0] == line && r[1] == col)
			return 1;
		if (r[0] < line || (r[0] == line && r[1] < col))
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * Does the body name a seq output function where the model reads no call
 * (a macro that builds the call, say)?  spatch may parse a call there,
 * which the judge lists as not understood: its fact must stay.
 */
static int names_unread(const struct model *m, const struct body *b,
			const struct lex_slice_need *need)
{
	const struct span *s = &m->code;
	size_t i, k;

	for (i = b->open + 1; i < b->close; i++) {
		const struct token *t = T(m, s, i);
		const char *w = m->lx.t + t->off;
		int output;

		if (t->kind != K_WORD)
			continue;
		/* a name the rule's seqcall matches, that the judge knows */
		output = names_has(need->names, need->nnames, w, t->len);
		if (!output && !vocab_seq_word(w, t->len))
			continue;
		output = output || lex_vocab_find(need->v, w, t->len);
		for (k = 0; k < need->nfile_wrappers && !output; k++)
			output = strlen(need->file_wrappers[k]) == t->len &&
				 !memcmp(need->file_wrappers[k], w, t->len);
		if (output && !read_at(need, t->line, t->col + 1))
			return 1;
	}
	return 0;
}

/*
 * Can the body's code be blanked without changing how the rest reads?
 * Its braces pair at the top (brace_depths()), and every conditional
 * directive in it opens and closes inside it; no #include in it.
 */
static int body_safe(const struct model *m, const struct body *b)
{
	const struct lexer *lx = &m->lx;
	size_t from = T(m, &m->code, b->open)->off, to = T(m, &m->code, b->close)->off;
	size_t i, d;
	int level = 0;

	if (!s_is(m, &m->code, b->close, "}") || m->depth[b->close] != 1)
		return 0;
	for (i = b->open + 1; i < b->close; i++)
		if (!m->depth[i])
			return 0;
	for (d = 0; d < m->ndirs; d++) {
		const struct span *ds = &m->dirs[d];
		size_t w;

		if (!ds->n)
			continue;
		i = ds->ix[0];
		if (lx->tk[i].off < from)
			continue;
		if (lx->tk[i].off > to)
			break;
		w = dir_word(lx, i);
		if (is(lx, w, "if") || is(lx, w, "ifdef") || is(lx, w, "ifndef"))
			level++;
		else if (is(lx, w, "endif"))
			level--;
		else if ((is(lx, w, "else") || is(lx, w, "elif")) && !level)
			return 0;
		else if (is(lx, w, "include") || is(lx, w, "include_next"))
			return 0;
		if (level < 0)
			return 0;
	}
	return level == 0;
}

/* The bodies of @m, in order. */
static struct body *find_bodies(const struct model *m, size_t *n)
{
	const struct span *s = &m->code;
	struct body *b = NULL;
	size_t i, nb = 0;

	for (i = 0; i < s->n; i++) {
		size_t e;

		if (!m->func[i] || !s_is(m, s, i, "{") || m->depth[i])
			continue;
		for (e = i; e + 1 < s->n && m->func[e + 1] == m->func[i]; e++)
			;
		b = xrealloc(b, (nb + 1) * sizeof(*b));
		b[nb] = (struct body){ i, e, m->func[i], T(m, s, i)->line, T(m, s, e)->line,
				       0, 0 };
		nb++;
		i = e;
	}
	*n = nb;
	return b;
}

/* Does body @a name function @name (a word of its code)? */
static int body_names(const struct model *m, const struct body *a, const char *name)
{
	size_t i, len = strlen(name);

	for (i = a->open + 1; i < a->close; i++) {
		const struct token *k = T(m, &m->code, i);

		if (k->kind == K_WORD && k->len == len && !memcmp(m->lx.t + k->off, name, len))
			return 1;
	}
	return 0;
}

/*
 * Keep what the seeds name, and what names them: the rules follow a
 * buffer one call away (bufout.cocci.in's bufparamdecl: the function it
 * is handed to; bufaway.cocci.in's bufuse and bufprint: the callers of a
 * function that returns it), never two.
 */
static void follow_seeds(const struct model *m, struct body *b, size_t nb)
{
	size_t i, j;

	for (i = 0; i < nb; i++) {
		if (!b[i].seed)
			continue;
		for (j = 0; j < nb; j++)
			if (!b[j].keep && b[j].name &&
			    (body_names(m, &b[i], b[j].name) ||
			     (b[i].name && body_names(m, &b[j], b[i].name))))
				b[j].keep = 1;
	}
}

char *lex_slice(const char *buf, size_t len, const struct lex_slice_need *need,
		size_t *blanked)
{
	struct model m;
	struct span *dirs;
	struct body *b;
	size_t ndirs, nb, i, k, n = 0;
	struct fields fields = { NULL, 0 };
	char *out = NULL;

	*blanked = 0;
	memset(&m, 0, sizeof(m));
	ndirs = model_read(&m, buf, len, &dirs);
	if (m.lx.broken) {
		model_free(&m, dirs, ndirs);
		return NULL;
	}
	b = find_bodies(&m, &nb);
	for (i = 0; i < nb; i++) {
		if (need->cast_rule) {
			b[i].keep = meets(need->calls, need->ncalls, &b[i]);
			if (assigns_cast(&m, &b[i])) {
				b[i].keep = 1;
				fields_assigned(&m, &b[i], &fields);
			}
		} else if (need->every_call) {
			b[i].keep = names_output(&m, &b[i], need);
		} else {
			b[i].keep = meets(need->calls, need->ncalls, &b[i]) ||
				    names_unread(&m, &b[i], need);
		}
		b[i].keep |= names_priv(&m, &b[i]);
		for (k = 0; k < need->nlines && !b[i].seed; k++)
			b[i].seed = need->lines[k] >= b[i].first && need->lines[k] <= b[i].last;
		b[i].keep |= b[i].seed;
	}
	/*
	 * The fields a body assigns a wide cast (or a local holding one), the
	 * fields copied from those, and theirs: the bodies that copy one, and
	 * those printing a field.
	 */
	if (fields.n) {
		size_t known = 0;

		/* until no field is added: a body may copy one found after it */
		while (known != fields.n)
			for (known = fields.n, i = 0; i < nb; i++)
				b[i].keep |= copies_field(&m, &b[i], &fields);
		for (i = 0; i < nb; i++)
			b[i].keep |= meets(need->fields, need->nfields, &b[i]);
	}
	free(fields.k);
	follow_seeds(&m, b, nb);
	/*
	 * The rules' fact rules depend on their "seqcall" having matched
	 * somewhere in the file (SmPL's "depends on" is per file): keep the
	 * first body that calls a seq output function unless one is kept.
	 */
	if (!need->every_call) {
		for (i = 0; i < nb && !(b[i].keep && calls_output(&m, &b[i], need)); i++)
			;
		for (k = 0; i == nb && k < nb; k++)
			if (calls_output(&m, &b[k], need)) {
				b[k].keep = 1;
				break;
			}
	}
	for (i = 0; i < nb; i++) {
		if (b[i].keep || !body_safe(&m, &b[i]))
			continue;
		if (!out) {
			out = xmalloc(len + 1);
			memcpy(out, buf, len);
			out[len] = '\0';
		}
		for (k = b[i].open + 1; k < b[i].close; k++) {
			const struct token *t = T(&m, &m.code, k);
			size_t j;

			for (j = t->off; j < t->off + t->len; j++)
				if (out[j] != '\n')
					out[j] = ' ';
		}
		n++;
	}
	*blanked = n;
	free(b);
	model_free(&m, dirs, ndirs);
	return out;
}
