// SPDX-License-Identifier: GPL-2.0
/*
 * lex_formats: the literals a call's format can be, read from the text:
 * literals and macros side by side, either branch of a "?:", the macros
 * the file defines, a variable or an array assigned only literals; and
 * the bytes the kernel sees of each.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "model/format.h"
#include "model/lex_impl.h"
#include "lib/ptrguard.h"

void alts_free(struct alts *x)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		free(x->a[i].strs);
	free(x->a);
	x->a = NULL;
	x->n = 0;
}


/* Append lexer token @tok (a string) to every alternative of @x from @from on. */
static void alts_add_str(struct alts *x, size_t from, size_t tok)
{
	size_t k;

	for (k = from; k < x->n; k++) {
		x->a[k].strs = xrealloc(x->a[k].strs, (x->a[k].n + 1) * sizeof(*x->a[k].strs));
		x->a[k].strs[x->a[k].n++] = tok;
	}
}

/*
 * The definitions of the object-like macro NAME (@len bytes) the file
 * makes, each a directive span whose body (tokens 3 on) is the macro's;
 * how many (at most @max in @defs).
 */
static size_t macro_defs(const struct model *m, const char *name, size_t len,
			 const struct span **defs, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < m->ndirs && n < max; i++) {
		const struct span *d = &m->dirs[i];
		const struct token *k;

		if (d->n < 3 || !s_is(m, d, 1, "define"))
			continue;
		k = T(m, d, 2);
		if (k->len != len || memcmp(m->lx.t + k->off, name, len))
			continue;
		/* "#define NAME(" is function-like: not a literal */
		if (d->n > 3 && s_is(m, d, 3, "(") && !GAP(T(m, d, 3)))
			continue;
		defs[n++] = d;
	}
	return n;
}

static int pieces_alts(const struct model *m, const struct span *s, size_t b, size_t e,
		       struct alts *x, size_t from, int depth, const struct span *own);

/*
 * The word at s[@i] among the pieces of a literal: a macro the file
 * defines as literals (and words such) is read as its body, one
 * alternative per definition (two branches of an #ifdef); another word
 * (KERN_INFO, a macro of a header) is a piece the model cannot read.
 * -1: too many, or a parameter of the macro @own whose body is read (its
 * invocations hold the format).
 */
static int word_alts(const struct model *m, const struct span *s, size_t i, struct alts *x,
		     size_t from, int depth, const struct span *own)
{
	const struct token *k = T(m, s, i);
	const struct span *defs[8];
	struct alts all = { 0 };
	size_t n, d, at, j;

	/* a parameter of the macro whose body is read: its invocations hold the text */
	if (own && macro_param(m, own, m->lx.t + k->off, k->len))
		return -1;
	n = depth < 8 ? macro_defs(m, m->lx.t + k->off, k->len, defs, 8) : 0;
	for (d = 0; d < n; d++)
		if (defs[d]->n < 4)
			n = 0;	/* "#define NAME" alone: not a literal */
	if (!n) {
		for (d = from; d < x->n; d++)
			x->a[d].macro = 1;
		return 0;
	}
	/* each alternative so far, followed by each definition's body */
	for (d = 0; d < n; d++) {
		struct alts part = { 0 };

		for (at = from; at < x->n; at++) {
			struct alt copy = x->a[at];

			copy.strs = xmalloc((copy.n + 1) * sizeof(*copy.strs));
			if (copy.n)
				memcpy(copy.strs, x->a[at].strs, copy.n * sizeof(*copy.strs));
			part.a = xrealloc(part.a, (part.n + 1) * sizeof(*part.a));
			part.a[part.n++] = copy;
		}
		if (all.n + part.n > MAX_ALTS ||
		    pieces_alts(m, defs[d], 3, defs[d]->n, &part, 0, depth + 1, defs[d])) {
			alts_free(&part);
			alts_free(&all);
			return -1;
		}
		all.a = xrealloc(all.a, (all.n + part.n + 1) * sizeof(*all.a));
		if (part.n)
			memcpy(all.a + all.n, part.a, part.n * sizeof(*part.a));
		all.n += part.n;
		free(part.a);
	}
	for (at = from; at < x->n; at++)
		free(x->a[at].strs);
	x->n = from;
	x->a = xrealloc(x->a, (from + all.n + 1) * sizeof(*x->a));
	for (j = 0; j < all.n; j++)
		x->a[x->n++] = all.a[j];
	free(all.a);
	return 0;
}

/*
 * The pieces s[b, e) of one literal, string literals and words side by
 * side, appended to the alternatives of @x from @from on.  0, or -1 when
 * a piece is anything else.
 */
static int pieces_alts(const struct model *m, const struct span *s, size_t b, size_t e,
		       struct alts *x, size_t from, int depth, const struct span *own)
{
	size_t i;

	if (b >= e)
		return -1;
	for (i = b; i < e; i++) {
		const struct token *k = T(m, s, i);

		if (k->kind == K_STR) {
			alts_add_str(x, from, s->ix[i]);
		} else if ((s_is(m, s, i, "__stringify") && s_is(m, s, i + 1, "(") &&
			    s_close(m, s, i + 1) < e) ||
			   (own && s_is(m, s, i, "#") && s_word(m, s, i + 1) &&
			    macro_param(m, own, m->lx.t + T(m, s, i + 1)->off, T(m, s, i + 1)->len))) {
			/*
			 * "v" __stringify(VER) "\n", #reg " : %x": a name made a
			 * string, a piece the model cannot read, as a macro
			 */
			size_t a;

			i = s_is(m, s, i, "#") ? i + 1 : s_close(m, s, i + 1);
			for (a = from; a < x->n; a++)
				x->a[a].macro = 1;
		} else if (k->kind != K_WORD || word_alts(m, s, i, x, from, depth, own)) {
			return -1;
		}
	}
	return 0;
}

/*
 * The literals the expression s[b, e) can be: string literals and macro
 * words side by side ("a" PFX "b"; a macro the file defines as literals
 * is read), in parentheses, or either branch of a conditional.  0, or -1
 * when it is anything else.
 */
int literal_alts(const struct model *m, const struct span *s, size_t b, size_t e,
		 struct alts *out)
{
	size_t i, q = 0, c = 0, from, k;
	int depth = 0, nstr = 0;

	while (b < e && s_is(m, s, b, "(") && s_close(m, s, b) == e - 1) {
		b++;
		e--;
	}
	if (b >= e)
		return -1;
	for (i = b; i < e; i++) {
		if (s_is(m, s, i, "(") || s_is(m, s, i, "[") || s_is(m, s, i, "{"))
			depth++;
		else if (s_is(m, s, i, ")") || s_is(m, s, i, "]") || s_is(m, s, i, "}"))
			depth--;
		else if (!depth && !q && s_is(m, s, i, "?"))
			q = i;
		else if (!depth && q && s_is(m, s, i, ":") && !c)
			c = i;
	}
	if (q) {
		/* nested conditionals in the second branch are handled by recursion */
		if (!c || literal_alts(m, s, q + 1, c, out) || literal_alts(m, s, c + 1, e, out))
			return -1;
		return 0;
	}
	from = out->n;
	if (from >= MAX_ALTS)
		return -1;
	out->a = xrealloc(out->a, (out->n + 1) * sizeof(*out->a));
	memset(&out->a[out->n++], 0, sizeof(*out->a));
	if (pieces_alts(m, s, b, e, out, from, 0, s == &m->code ? NULL : s)) {
		for (k = from; k < out->n; k++)
			free(out->a[k].strs);
		out->n = from;
		return -1;
	}
	/* a literal at least: a word alone is no literal format */
	for (k = from; k < out->n; k++)
		nstr += out->a[k].n > 0;
	if (nstr != (int)(out->n - from)) {
		for (k = from; k < out->n; k++)
			free(out->a[k].strs);
		out->n = from;
		return -1;
	}
	return 0;
}

/*
 * The callee of the call whose argument list holds code token @i (the
 * word before the innermost "(" open around it), or s->n when @i is in
 * no call (a statement's braces or ";" come first).
 */
static size_t callee_of(const struct model *m, const struct span *s, size_t i)
{
	int depth = 0;

	while (i-- > 0) {
		if (s_is(m, s, i, ")") || s_is(m, s, i, "]")) {
			depth++;
		} else if (s_is(m, s, i, "[")) {
			if (!depth--)
				return s->n;
		} else if (s_is(m, s, i, "(")) {
			if (!depth--)
				return i && s_word(m, s, i - 1) ? i - 1 : s->n;
		} else if (!depth && (s_is(m, s, i, ";") || s_is(m, s, i, "{") ||
				      s_is(m, s, i, "}"))) {
			return s->n;
		}
	}
	return s->n;
}

/*
 * The elements of an array's initializer "{ ... }" at s[b, e) (the
 * braces included), each literals (after a designator "[X] =" if any),
 * as alternatives of @out.  0, or -1 if one is anything else.
 */
static int array_alts(const struct model *m, const struct span *s, size_t b, size_t e,
		      struct alts *out)
{
	size_t i, start;
	int depth = 0;

	if (!s_is(m, s, b, "{") || s_close(m, s, b) != e - 1)
		return -1;
	for (i = start = b + 1; i < e; i++) {
		if (s_is(m, s, i, "(") || s_is(m, s, i, "[") || s_is(m, s, i, "{")) {
			depth++;
		} else if (i < e - 1 && (s_is(m, s, i, ")") || s_is(m, s, i, "]") ||
					 s_is(m, s, i, "}"))) {
			depth--;
		} else if (!depth && (s_is(m, s, i, ",") || i == e - 1)) {
			size_t a = start;

			/* "[X] = ...", "[X ... Y] = ..." */
			if (s_is(m, s, a, "[") && s_close(m, s, a) + 1 < i &&
			    s_is(m, s, s_close(m, s, a) + 1, "="))
				a = s_close(m, s, a) + 2;
			/* a trailing comma ends no element */
			if (a < i && literal_alts(m, s, a, i, out))
				return -1;
			start = i + 1;
		}
	}
	return 0;
}

/*
 * A format held in a variable: every assignment to @name in the function
 * (or, if none there, at file scope) must be literals.  Any other use as
 * an argument, or a modification, makes it unreadable.  @indexed: the
 * format is NAME[i], an element of an array whose initializer (and any
 * element assigned) must be literals: each is an alternative
 * (static const char *const fmts[] = { "...", "..." }).
 */
const char *variable_alts(struct model *m, size_t at, int indexed, struct alts *out)
{
	const struct span *s = &m->code;
	const struct token *nm = T(m, s, at);
	const char *func = m->func[at];
	size_t i, e, pass, found = 0;

	for (pass = 0; pass < 2 && !found; pass++) {
		for (i = 0; i < s->n; i++) {
			const struct token *k = T(m, s, i);

			if (pass ? m->func[i] != NULL : (!func || m->func[i] != func))
				continue;
			if (k->kind != K_WORD || k->len != nm->len ||
			    memcmp(m->lx.t + k->off, m->lx.t + nm->off, nm->len))
				continue;
			if (i == at)
				continue;
			e = i + 1;
			while (s_is(m, s, e, "["))	/* NAME[], NAME[][16], NAME[i] */
				e = s_close(m, s, e) + 1;
			if (s_is(m, s, e, "=")) {
				size_t j;
				int depth = 0;

				for (j = e + 1; j < s->n; j++) {
					if (s_is(m, s, j, "(") || s_is(m, s, j, "[") || s_is(m, s, j, "{"))
						depth++;
					else if (s_is(m, s, j, ")") || s_is(m, s, j, "]") ||
						 s_is(m, s, j, "}"))
						depth--;
					if (depth < 0 || (!depth && (s_is(m, s, j, ";") || s_is(m, s, j, ","))))
						break;
				}
				/* an array's initializer, or an element: NAME[i] = "..." */
				if (indexed && s_is(m, s, e + 1, "{") ? array_alts(m, s, e + 1, j, out) :
				    s_is(m, s, e + 1, "{") || literal_alts(m, s, e + 1, j, out))
					return indexed ? "an array holding something other than literals" :
						"a variable assigned something other than literals";
				found++;
				continue;
			}
			/* "x++", "x += ...", "&x", or x handed to another call (@e may be s->n) */
			if (s_is(m, s, e, "++") || s_is(m, s, e, "--") || s_is(m, s, i - 1, "&") ||
			    s_is(m, s, i - 1, "++") || s_is(m, s, i - 1, "--") ||
			    (e < s->n && T(m, s, e)->kind == K_PUNCT && T(m, s, e)->len >= 2 &&
			     m->lx.t[T(m, s, e)->off + T(m, s, e)->len - 1] == '=' &&
			     !s_is(m, s, e, "==") && !s_is(m, s, e, "!=")))
				return "a variable the function modifies";
			/* a whole argument of a call that is no seq output call (sprintf(fmt, ...)) */
			if ((s_is(m, s, i - 1, "(") || s_is(m, s, i - 1, ",")) &&
			    (s_is(m, s, e, ",") || s_is(m, s, e, ")"))) {
				size_t c = callee_of(m, s, i);

				/* ARRAY_SIZE() and sizeof read no element */
				if (c == s->n || (!lex_vocab_find(&m->v, m->lx.t + T(m, s, c)->off,
								  T(m, s, c)->len) &&
						  !s_is(m, s, c, "ARRAY_SIZE") && !s_is(m, s, c, "sizeof")))
					return "a variable handed to another function";
			}
		}
		if (!pass && !func)
			break;
	}
	return found ? NULL : "a parameter or a variable with no literal assigned";
}


void join_alt(const struct model *m, const struct span *s, const struct alt *a,
	      struct joined *j)
{
	size_t i, total = 3, n = 0;

	(void)s;
	for (i = 0; i < a->n; i++)
		total += m->lx.tk[a->strs[i]].len;
	j->text = xmalloc(total);
	j->line = xmalloc(total * sizeof(*j->line));
	j->col = xmalloc(total * sizeof(*j->col));
	j->text[n++] = '"';
	for (i = 0; i < a->n; i++) {
		const struct token *k = &m->lx.tk[a->strs[i]];
		const char *p = m->lx.t + k->off + 1, *end = m->lx.t + k->off + k->len - 1;
		unsigned int line = k->line, col = k->col + 1;

		while (p < end) {
			if (p[0] == '\\' && p + 1 < end && p[1] == '\n') {
				p += 2;
				line++;
				col = 0;
				continue;
			}
			j->line[n] = line;
			j->col[n] = col++;
			j->text[n++] = *p++;
		}
	}
	j->text[n++] = '"';
	j->text[n] = '\0';
	j->len = n;
}

void joined_free(struct joined *j)
{
	free(j->text);
	free(j->line);
	free(j->col);
}

/* Length of the escape sequence or character at @p, as C reads it. */
static size_t unit_len(const char *p, const char *end)
{
	const char *q = p + 2;

	if (p[0] != '\\' || p + 1 >= end)
		return 1;
	if (p[1] == 'x') {
		while (q < end && isxdigit((unsigned char)*q))
			q++;
	} else if (p[1] >= '0' && p[1] <= '7') {
		while (q < end && q < p + 4 && *q >= '0' && *q <= '7')
			q++;
	}
	return (size_t)(q - p);
}

/*
 * The bytes the kernel sees for a joined format (escapes decoded), with
 * the offset in j->text (after its quote) where each byte's spelling
 * starts; @raw has one more entry, the end.  An escape that is not C is
 * kept as written.
 */
char *decode_joined(const struct joined *j, size_t *n, size_t **raw)
{
	const char *body = j->text + 1, *end = j->text + j->len - 1, *p;
	char *out = xmalloc(j->len + 1);
	size_t o = 0;

	*raw = xmalloc((j->len + 1) * sizeof(**raw));
	for (p = body; p < end;) {
		size_t u = unit_len(p, end);
		const char *why;
		long got = u > 1 ? fmt_unescape(p, u, out + o, &why) : -1;

		if (got == 1) {
			(*raw)[o++] = (size_t)(p - body);
		} else {
			for (size_t k = 0; k < u; k++) {
				(*raw)[o] = (size_t)(p - body) + k;
				out[o++] = p[k];
			}
		}
		p += u;
	}
	(*raw)[o] = (size_t)(end - body);
	*n = o;
	return out;
}
