// SPDX-License-Identifier: GPL-2.0
/*
 * lex_formats: the literals a call's format can be, read from the text:
 * literals and macros side by side, either branch of a "?:", the macros
 * the file defines, a variable or an array assigned only literals, a
 * member of a table of structs the file initializes (the element of a
 * constant index or key, or every element), a function-like macro of the
 * file over those; and the bytes the kernel sees of each.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "model/format.h"
#include "model/lex_impl.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

void alts_free(struct alts *x)
{
	size_t i;

	for (i = 0; i < x->n; i++) {
		free(x->a[i].strs);
		free(x->a[i].cut);
	}
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
/*
 * Strip the parentheses around the whole of s[*b, *e), and find the "?"
 * and ":" of a conditional at its top level (*q, *c; 0 when none, *c 0
 * too when there is no ":").  A nested conditional in the second branch
 * is left to the caller's recursion.
 */
static void split_conditional(const struct model *m, const struct span *s,
			      size_t *b, size_t *e, size_t *q, size_t *c)
{
	size_t i;
	int depth = 0;

	while (*b < *e && s_is(m, s, *b, "(") && s_close(m, s, *b) == *e - 1) {
		(*b)++;
		(*e)--;
	}
	*q = *c = 0;
	for (i = *b; i < *e; i++) {
		if (s_is(m, s, i, "(") || s_is(m, s, i, "[") || s_is(m, s, i, "{"))
			depth++;
		else if (s_is(m, s, i, ")") || s_is(m, s, i, "]") || s_is(m, s, i, "}"))
			depth--;
		else if (!depth && !*q && s_is(m, s, i, "?"))
			*q = i;
		else if (!depth && *q && s_is(m, s, i, ":") && !*c)
			*c = i;
	}
}

int literal_alts(const struct model *m, const struct span *s, size_t b, size_t e,
		 struct alts *out)
{
	size_t q, c, from, k;
	int nstr = 0;

	split_conditional(m, s, &b, &e, &q, &c);
	if (b >= e)
		return -1;
	if (q) {
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

/* Is s[i] an opening, or a closing, bracket? */
static int s_open(const struct model *m, const struct span *s, size_t i)
{
	return s_is(m, s, i, "(") || s_is(m, s, i, "[") || s_is(m, s, i, "{");
}

static int s_shut(const struct model *m, const struct span *s, size_t i)
{
	return s_is(m, s, i, ")") || s_is(m, s, i, "]") || s_is(m, s, i, "}");
}

static int tok_same(const struct model *m, const struct token *a, const struct token *b)
{
	return a->len == b->len && !memcmp(m->lx.t + a->off, m->lx.t + b->off, a->len);
}

/* The value of an integer literal token (42, 0x2a, 7U), or -1. */
static long number_value(const struct model *m, const struct token *k)
{
	char buf[32], *end;
	size_t n = k->len;
	unsigned long v;

	if (k->kind != K_NUM || n >= sizeof(buf))
		return -1;
	memcpy(buf, m->lx.t + k->off, n);
	while (n && strchr("uUlL", buf[n - 1]))
		n--;
	buf[n] = '\0';
	v = strtoul(buf, &end, 0);
	return *end || v > 0x7fffffffUL ? -1 : (long)v;
}

/*
 * Is the word @k an enumerator of an enum the file defines?  1, with its
 * value in @v (-1 when the text does not give it: "= A | B", or after
 * such); 0 if it is none.
 */
static int enum_value(const struct model *m, const struct token *k, long *v)
{
	const struct span *s = &m->code;
	size_t i, j, close;

	for (i = 0; i + 1 < s->n; i++) {
		const struct token *seen[256];
		long vals[256], next = 0;
		size_t nseen = 0, x;

		if (!s_is(m, s, i, "enum"))
			continue;
		j = i + 1 + (size_t)s_word(m, s, i + 1);
		if (!s_is(m, s, j, "{"))
			continue;
		close = s_close(m, s, j);
		for (j++; j < close; j++) {
			size_t at = j, end;
			long val = next;

			for (end = j; end < close && !s_is(m, s, end, ","); end++)
				if (s_open(m, s, end))
					end = s_close(m, s, end);
			if (!s_word(m, s, at))
				break;	/* not an enumerator list the model reads */
			if (s_is(m, s, at + 1, "=")) {
				/* "= 3", "= EARLIER" (an enumerator before it), else unknown */
				val = -1;
				if (end == at + 3 && T(m, s, at + 2)->kind == K_NUM)
					val = number_value(m, T(m, s, at + 2));
				for (x = 0; end == at + 3 && x < nseen; x++)
					if (tok_same(m, seen[x], T(m, s, at + 2)))
						val = vals[x];
			}
			if (tok_same(m, T(m, s, at), k)) {
				*v = val;
				return 1;
			}
			if (nseen < 256) {
				seen[nseen] = T(m, s, at);
				vals[nseen++] = val;
			}
			next = val >= 0 ? val + 1 : -1;
			j = end;
		}
	}
	return 0;
}

/* The value of the index s[b, e) when it is a constant: an integer literal, or an enumerator of the file; else -1. */
static long const_index(const struct model *m, const struct span *s, size_t b, size_t e)
{
	long v;

	while (b + 2 < e && s_is(m, s, b, "(") && s_close(m, s, b) == e - 1) {
		b++;
		e--;
	}
	if (e != b + 1)
		return -1;
	if (T(m, s, b)->kind == K_NUM)
		return number_value(m, T(m, s, b));
	return s_word(m, s, b) && enum_value(m, T(m, s, b), &v) ? v : -1;
}

/* One element of a braced initializer. */
struct elem {
	size_t b, e;		/* its value, s[b, e) */
	size_t member;		/* ".NAME =": the index of NAME in s, else s->n */
	long pos;		/* its place, as C counts (a designator "[X] =" sets it), -1 unknown */
};

/*
 * The elements of the initializer "{ ... }" at s[b, e) (the braces
 * included); how many (in *@out, to free).
 */
static size_t init_elems(const struct model *m, const struct span *s, size_t b, size_t e,
			 struct elem **out)
{
	size_t i, start, n = 0;
	long next = 0;
	int depth = 0;

	*out = NULL;
	for (i = start = b + 1; i < e; i++) {
		if (s_open(m, s, i)) {
			depth++;
		} else if (i < e - 1 && s_shut(m, s, i)) {
			depth--;
		} else if (!depth && (s_is(m, s, i, ",") || i == e - 1)) {
			struct elem el = { start, i, s->n, next };

			/* "[X] = ...", "[X ... Y] = ..." */
			if (s_is(m, s, start, "[") && s_close(m, s, start) + 1 < i &&
			    s_is(m, s, s_close(m, s, start) + 1, "=")) {
				el.pos = const_index(m, s, start + 1, s_close(m, s, start));
				el.b = s_close(m, s, start) + 2;
			} else if (s_is(m, s, start, ".") && s_word(m, s, start + 1) &&
				   s_is(m, s, start + 2, "=")) {
				el.member = start + 1;
				el.b = start + 3;
			}
			/* a trailing comma ends no element */
			if (el.b < el.e) {
				*out = xrealloc(*out, (n + 1) * sizeof(**out));
				(*out)[n++] = el;
				next = el.pos >= 0 ? el.pos + 1 : -1;
			}
			start = i + 1;
		}
	}
	return n;
}

/* The most tokens a macro expansion may have. */
#define MAX_EXPANSION 4096

/*
 * s[b, e) is NAME(ARGS), NAME a function-like macro the file defines
 * once: its body with each parameter replaced by its argument's tokens
 * (a span of its own, to free), or -1.
 */
static int expand_macro(const struct model *m, const struct span *s, size_t b, size_t e,
			struct span *out)
{
	const struct span *d = NULL;
	const struct token *nm;
	size_t i, j, k, np = 0, na, pclose, alloc = 0;
	size_t params[16], a[16][2];

	memset(out, 0, sizeof(*out));
	if (!s_word(m, s, b) || !s_is(m, s, b + 1, "(") || s_close(m, s, b + 1) != e - 1)
		return -1;
	nm = T(m, s, b);
	for (i = 0; i < m->ndirs; i++) {
		const struct span *x = &m->dirs[i];

		if (x->n < 5 || !s_is(m, x, 1, "define") || !tok_same(m, T(m, x, 2), nm) ||
		    !s_is(m, x, 3, "(") || GAP(T(m, x, 3)))
			continue;
		if (d)
			return -1;	/* two definitions: which one is not read */
		d = x;
	}
	if (!d)
		return -1;
	pclose = s_close(m, d, 3);
	if (pclose >= d->n)
		return -1;
	for (i = 4; i < pclose; i++) {
		if (s_is(m, d, i, ","))
			continue;
		if (!s_word(m, d, i) || np == 16)
			return -1;	/* "...", or too many */
		params[np++] = i;
	}
	na = s_args(m, s, b + 1, e - 1, a, 16);
	if (na != np)
		return -1;
	for (i = pclose + 1; i < d->n; i++) {
		for (k = 0; k < np; k++)
			if (s_word(m, d, i) && tok_same(m, T(m, d, i), T(m, d, params[k])) &&
			    !s_is(m, d, i - 1, "#") && !s_is(m, d, i - 1, "##") &&
			    !s_is(m, d, i + 1, "##"))
				break;
		if (k == np) {
			span_add(out, d->ix[i], &alloc);
		} else {
			for (j = a[k][0]; j < a[k][1]; j++)
				span_add(out, s->ix[j], &alloc);
		}
		if (out->n > MAX_EXPANSION) {
			free(out->ix);
			memset(out, 0, sizeof(*out));
			return -1;
		}
	}
	return out->n ? 0 : -1;
}

/*
 * What a table's element is read as: every element, or the one of a
 * constant index; for a table of structs, member @member.
 */
struct pick {
	const struct span *s;	/* the index, s[b, e) */
	size_t b, e;
	const struct token *member;	/* TABLE[I].MEMBER; NULL: TABLE[I] */
};

/* The members of a struct, in order, as the file declares them. */
struct layout {
	const struct token *names[64];
	size_t n;
	int known;
};

/*
 * The members declared in s[b, e) (between a struct's braces), into
 * @l; l->known stays 0 for a member the model does not read (a nested
 * struct or union).
 */
static void read_layout(const struct model *m, const struct span *s, size_t b, size_t e,
			struct layout *l)
{
	size_t i, start = b;

	l->n = 0;
	for (i = b; i < e; i++) {
		if (s_is(m, s, i, "{"))
			return;	/* a nested struct or union: not read */
		if (s_open(m, s, i)) {
			/* "(*NAME)(" declares NAME */
			if (s_is(m, s, i, "(") && s_is(m, s, i + 1, "*") && s_word(m, s, i + 2) &&
			    s_is(m, s, i + 3, ")")) {
				if (l->n == 64)
					return;
				l->names[l->n++] = T(m, s, i + 2);
				start = s->n;	/* named */
			}
			i = s_close(m, s, i);
			continue;
		}
		if (s_is(m, s, i, ";") || s_is(m, s, i, ",") || s_is(m, s, i, ":")) {
			size_t j, last = s->n;

			for (j = start; j < i && start != s->n; j++) {
				if (s_is(m, s, j, "[") || s_is(m, s, j, ":"))
					break;
				if (s_open(m, s, j))
					j = s_close(m, s, j);	/* an attribute's arguments */
				else if (s_word(m, s, j) && !s_is(m, s, j + 1, "("))
					last = j;
			}
			if (start != s->n) {
				if (last == s->n || l->n == 64)
					return;
				l->names[l->n++] = T(m, s, last);
			}
			/* a bit-field's width, to the end of the declarator */
			if (s_is(m, s, i, ":")) {
				while (i + 1 < e && !s_is(m, s, i + 1, ";") && !s_is(m, s, i + 1, ","))
					i++;
				i++;
			}
			/* after "int a, b": the next declarator is "b" */
			start = i + 1;
		}
	}
	l->known = 1;
}

/*
 * The layout of the structs of the table whose name is code token @at
 * ("static const struct S { ... } NAME[]", "struct S NAME[]" with S
 * defined in the file); l->known 0 when the file does not say
 * (match_table_t, a typedef of a header).
 */
static void table_layout(const struct model *m, size_t at, struct layout *l)
{
	const struct span *s = &m->code;
	size_t i, j;

	memset(l, 0, sizeof(*l));
	if (!at)
		return;
	j = at - 1;
	while (j && (s_is(m, s, j, "const") || s_is(m, s, j, "__maybe_unused")))
		j--;
	if (s_is(m, s, j, "}")) {
		int depth = 0;

		for (i = j + 1; i-- > 0;) {
			if (s_is(m, s, i, "}"))
				depth++;
			else if (s_is(m, s, i, "{") && !--depth)
				break;
		}
		if (i < j && i > 0)
			read_layout(m, s, i + 1, j, l);
		return;
	}
	if (!s_word(m, s, j) || !j || !s_is(m, s, j - 1, "struct"))
		return;
	for (i = 0; i + 2 < s->n; i++)
		if (s_is(m, s, i, "struct") && tok_same(m, T(m, s, i + 1), T(m, s, j)) &&
		    s_is(m, s, i + 2, "{")) {
			read_layout(m, s, i + 3, s_close(m, s, i + 2), l);
			return;
		}
}

/* A positional value the model may skip in a struct whose layout it does not know. */
static int key_like(const struct model *m, const struct span *s, size_t b, size_t e)
{
	const struct token *k = T(m, s, b);
	long v;
	size_t i;

	if (e != b + 1)
		return 0;
	if (k->kind == K_NUM || k->kind == K_CHR || s_is(m, s, b, "NULL"))
		return 1;
	if (k->kind != K_WORD)
		return 0;
	if (enum_value(m, k, &v))
		return 1;
	/* a constant's name: no lower-case letter */
	for (i = 0; i < k->len; i++)
		if (m->lx.t[k->off + i] >= 'a' && m->lx.t[k->off + i] <= 'z')
			return 0;
	return 1;
}

/* A value that prints nothing a format could: NULL, 0, absent. */
static int null_value(const struct model *m, const struct span *s, size_t b, size_t e)
{
	return e == b + 1 && (s_is(m, s, b, "NULL") || s_is(m, s, b, "0"));
}

/* Is one member of the initializer "{ ... }" at s[b, e) the word @w alone (a key)? */
static int has_key(const struct model *m, const struct span *s, size_t b, size_t e,
		   const struct span *ws, size_t w)
{
	struct elem *el;
	size_t n = init_elems(m, s, b, e, &el), i;
	int yes = 0;

	for (i = 0; i < n && !yes; i++)
		yes = el[i].e == el[i].b + 1 && s_word(m, s, el[i].b) &&
			tok_same(m, T(m, s, el[i].b), T(m, ws, w));
	free(el);
	return yes;
}

/*
 * Member @member of the struct initializer "{ ... }" at s[b, e) (an
 * element of a table of structs): its literals appended to @out.  0 (also
 * when the member is not set, or NULL), or -1: it holds something else,
 * or the model cannot tell which value is the member (a struct the file
 * does not define: every positional value that is literals is taken, one
 * that is not must look like a key, a number or a constant's name).
 */
static int member_alts(const struct model *m, const struct span *s, size_t b, size_t e,
		       const struct token *member, const struct layout *l, struct alts *out)
{
	struct elem *el;
	size_t n = init_elems(m, s, b, e, &el), i, k;
	long cur = 0;
	int bad = 0;

	for (i = 0; i < n && !bad; i++) {
		const struct token *name = NULL;

		if (el[i].member != s->n) {
			name = T(m, s, el[i].member);
			for (k = 0, cur = -1; l->known && k < l->n; k++)
				if (tok_same(m, l->names[k], name))
					cur = (long)k;
		} else if (l->known) {
			name = cur >= 0 && (size_t)cur < l->n ? l->names[cur] : NULL;
			if (!name)
				bad = 1;	/* more values than members: not the struct read */
		}
		if (bad)
			break;
		if (name) {
			if (tok_same(m, name, member) && !null_value(m, s, el[i].b, el[i].e))
				bad = literal_alts(m, s, el[i].b, el[i].e, out) != 0;
		} else if (!key_like(m, s, el[i].b, el[i].e)) {
			/* which member this is the file does not say: literals are taken */
			bad = literal_alts(m, s, el[i].b, el[i].e, out) != 0;
		}
		cur = cur >= 0 ? cur + 1 : -1;
	}
	free(el);
	return bad ? -1 : 0;
}

/* Is the table declared at code token @at const ("static const struct s NAME[]")? */
static int table_const(const struct model *m, size_t at)
{
	const struct span *s = &m->code;
	size_t j = at;
	int depth = 0;

	while (j-- > 0) {
		if (s_is(m, s, j, "}")) {
			depth++;
		} else if (s_is(m, s, j, "{")) {
			if (!depth--)
				return 0;
		} else if (!depth && (s_is(m, s, j, ";") || s_is(m, s, j, "}"))) {
			return 0;
		} else if (!depth && s_is(m, s, j, "const")) {
			return 1;
		}
	}
	return 0;
}

/*
 * Does the element @x of a table's initializer (in @s) belong to what
 * @p picks?  Its key (a member that is the index's word), or its place
 * (the index's constant value).
 */
static int picked(const struct model *m, const struct span *s, const struct elem *x,
		  const struct pick *p, int by_key, long v)
{
	if (by_key) {
		struct span ex;
		int yes = 0;

		if (s_is(m, s, x->b, "{") && s_close(m, s, x->b) == x->e - 1)
			yes = has_key(m, s, x->b, x->e, p->s, p->b);
		else if (!expand_macro(m, s, x->b, x->e, &ex)) {
			yes = s_is(m, &ex, 0, "{") && s_close(m, &ex, 0) == ex.n - 1 &&
				has_key(m, &ex, 0, ex.n, p->s, p->b);
			free(ex.ix);
		}
		if (yes)
			return 1;
	}
	return v >= 0 && (x->pos == v || x->pos < 0);
}

/*
 * The literals a table's initializer "{ ... }" at s[b, e) gives for @p
 * (in @out): the elements of a constant index (a key of a table keyed by
 * an enumerator, as match_table_t is; else the place), or every element;
 * each literals (an array of formats), or a struct whose member
 * p->member is (@l: the struct's members).  NULL, or why not.
 */
static const char *init_alts(struct model *m, const struct span *s, size_t b, size_t e,
			     const struct pick *p, const struct layout *l, struct alts *out)
{
	struct elem *el;
	size_t n, i, chosen = 0;
	long v = p->b < p->e ? const_index(m, p->s, p->b, p->e) : -1;
	int by_key = 0, pass;
	const char *why = NULL;

	if (!s_is(m, s, b, "{") || s_close(m, s, b) != e - 1)
		return "an array holding something other than literals";
	n = init_elems(m, s, b, e, &el);
	/* keyed: some element holds the index's word as a member */
	if (p->member && p->e == p->b + 1 && s_word(m, p->s, p->b))
		for (i = 0; i < n && !by_key; i++)
			by_key = picked(m, s, &el[i], p, 1, -1);
	for (pass = 0; pass < 2 && !chosen && !why; pass++) {
		for (i = 0; i < n && !why; i++) {
			struct span ex = { 0 };
			const struct span *xs = s;
			size_t xb = el[i].b, xe = el[i].e;

			/* pass 0: the index's elements; pass 1 (none was): every one */
			if (!pass && !picked(m, s, &el[i], p, by_key, v))
				continue;
			chosen++;
			if (!p->member) {
				if (literal_alts(m, s, xb, xe, out))
					why = "an array holding something other than literals";
				continue;
			}
			if (!(s_is(m, s, xb, "{") && s_close(m, s, xb) == xe - 1)) {
				/* an element made by a macro of the file: FIELD(name, "%d") */
				if (expand_macro(m, s, xb, xe, &ex) || !s_is(m, &ex, 0, "{") ||
				    s_close(m, &ex, 0) != ex.n - 1) {
					free(ex.ix);
					why = "a table element the model cannot read";
					continue;
				}
				xs = &ex;
				xb = 0;
				xe = ex.n;
			}
			if (member_alts(m, xs, xb, xe, p->member, l, out))
				why = "a table member holding something other than literals";
			free(ex.ix);
		}
	}
	free(el);
	return why;
}

/* Append the bytes [@lo, @hi) of string token @tok (offsets between its quotes) to @x. */
static void alt_push(struct alt *x, size_t tok, size_t lo, size_t hi)
{
	x->strs = xrealloc(x->strs, (x->n + 1) * sizeof(*x->strs));
	x->cut = xrealloc(x->cut, (x->n + 1) * sizeof(*x->cut));
	x->strs[x->n] = tok;
	x->cut[x->n][0] = lo;
	x->cut[x->n][1] = hi;
	x->n++;
}

/*
 * The content bytes of the literal @t (no cuts), as join_alt() joins
 * them (a backslash-newline skipped): for each, its piece and its offset
 * in that token's text between the quotes.  How many.
 */
static size_t alt_bytes(const struct model *m, const struct alt *t, size_t **piece, size_t **off)
{
	size_t i, n = 0, total = 0;

	for (i = 0; i < t->n; i++)
		total += m->lx.tk[t->strs[i]].len;
	*piece = xmalloc((total + 1) * sizeof(**piece));
	*off = xmalloc((total + 1) * sizeof(**off));
	for (i = 0; i < t->n; i++) {
		const struct token *k = &m->lx.tk[t->strs[i]];
		const char *b = m->lx.t + k->off + 1, *p = b, *end = m->lx.t + k->off + k->len - 1;

		while (p < end) {
			if (p[0] == '\\' && p + 1 < end && p[1] == '\n') {
				p += 2;
				continue;
			}
			(*piece)[n] = i;
			(*off)[n++] = (size_t)(p++ - b);
		}
	}
	return n;
}

/* Append the joined bytes [@from, @to) of the literal @t to every alternative of @x. */
static void alts_take(struct alts *x, const struct alt *t, const size_t *piece, const size_t *off,
		      size_t from, size_t to)
{
	size_t a, k;

	for (a = 0; a < x->n; a++)
		for (k = from; k < to;) {
			size_t at = piece[k], lo = off[k];

			while (k < to && piece[k] == at)
				k++;
			alt_push(&x->a[a], t->strs[at], lo, off[k - 1] + 1);
		}
}

/*
 * The formats a buffer holds after the formatting call whose callee is
 * s[@c] (sprintf(buf, TEMPLATE, ...): its format is argument @fmt): a
 * literal template whose only conversions are "%%" (a '%') and "%s" of
 * literals (arch/mips/kernel/proc.c: sprintf(fmt, "... %%s V%%d.%%d%s\n",
 * fpu ? "  FPU V%d.%d" : "")), each way it can be, into @out.  NULL, or
 * why not.
 */
static const char *built_alts(const struct model *m, const struct span *s, size_t c,
			      unsigned int fmt, struct alts *out)
{
	static const char *const no = "a buffer sprintf()ed from something other than literals";
	size_t a[64][2], na, ti;
	struct alts t = { 0 };
	const char *why = NULL;

	if (!s_is(m, s, c + 1, "("))
		return no;
	na = s_args(m, s, c + 1, s_close(m, s, c + 1), a, 64);
	if (na <= fmt || literal_alts(m, s, a[fmt][0], a[fmt][1], &t)) {
		alts_free(&t);
		return no;
	}
	for (ti = 0; ti < t.n && !why; ti++) {
		struct joined j;
		struct alts cur = { 0 };
		size_t *piece, *off, n, k, last = 0, val = fmt + 1;
		const char *text;

		if (t.a[ti].macro) {
			why = no;
			break;
		}
		join_alt(m, s, &t.a[ti], &j);
		text = j.text + 1;
		n = alt_bytes(m, &t.a[ti], &piece, &off);
		cur.a = xmalloc(sizeof(*cur.a));
		memset(cur.a, 0, sizeof(*cur.a));
		cur.n = 1;
		for (k = 0; k < n && !why; k++) {
			struct alts v = { 0 };
			struct alts next = { 0 };
			size_t x, y, z;

			if (text[k] == '\\') {
				/* an octal or hex escape could spell a '%': not read */
				if (k + 1 < n && (text[k + 1] == 'x' || (text[k + 1] >= '0' && text[k + 1] <= '7')))
					why = no;
				k++;
				continue;
			}
			if (text[k] != '%')
				continue;
			if (k + 1 < n && text[k + 1] == '%') {
				/* "%%" prints one '%' */
				alts_take(&cur, &t.a[ti], piece, off, last, k + 1);
				last = k + 2;
				k++;
				continue;
			}
			if (k + 1 >= n || text[k + 1] != 's' || val >= na ||
			    literal_alts(m, s, a[val][0], a[val][1], &v)) {
				alts_free(&v);
				why = no;
				break;
			}
			alts_take(&cur, &t.a[ti], piece, off, last, k);
			/* every way so far, followed by every way the value can be */
			for (x = 0; x < cur.n && !why; x++)
				for (y = 0; y < v.n && !why; y++) {
					struct alt w = { 0 };

					if (v.a[y].macro || next.n + 1 > MAX_ALTS) {
						why = no;
						break;
					}
					for (z = 0; z < cur.a[x].n; z++)
						alt_push(&w, cur.a[x].strs[z], cur.a[x].cut[z][0],
							 cur.a[x].cut[z][1]);
					for (z = 0; z < v.a[y].n; z++)
						alt_push(&w, v.a[y].strs[z], 0, (size_t)-1);
					next.a = xrealloc(next.a, (next.n + 1) * sizeof(*next.a));
					next.a[next.n++] = w;
				}
			alts_free(&v);
			alts_free(&cur);
			cur = next;
			val++;
			last = k + 2;
			k++;
		}
		if (!why) {
			alts_take(&cur, &t.a[ti], piece, off, last, n);
			if (out->n + cur.n > MAX_ALTS)
				why = no;
		}
		if (!why) {
			out->a = xrealloc(out->a, (out->n + cur.n + 1) * sizeof(*out->a));
			memcpy(out->a + out->n, cur.a, cur.n * sizeof(*cur.a));
			out->n += cur.n;
			free(cur.a);
		} else {
			alts_free(&cur);
		}
		free(piece);
		free(off);
		joined_free(&j);
	}
	alts_free(&t);
	return why;
}

/*
 * A format held in a variable: every assignment to @name in the function
 * (or, if none there, at file scope) must be literals.  Any other use as
 * an argument, or a modification, makes it unreadable.  @p: the format is
 * NAME[i], an element of an array whose initializer (and any element
 * assigned) must be literals: the element of a constant index, or each
 * (static const char *const fmts[] = { "...", "..." }).  @skip: the code
 * token of the use itself.
 */
static const char *named_alts(struct model *m, const struct token *nm, const char *func,
			      size_t skip, const struct pick *p, struct alts *out)
{
	const struct span *s = &m->code;
	size_t i, e, pass, found = 0;
	const struct layout none = { { 0 }, 0, 0 };

	for (pass = 0; pass < 2 && !found; pass++) {
		for (i = 0; i < s->n; i++) {
			const struct token *k = T(m, s, i);

			if (pass ? m->func[i] != NULL : (!func || m->func[i] != func))
				continue;
			if (k->kind != K_WORD || !tok_same(m, k, nm))
				continue;
			if (i == skip)
				continue;
			e = i + 1;
			while (s_is(m, s, e, "["))	/* NAME[], NAME[][16], NAME[i] */
				e = s_close(m, s, e) + 1;
			if (s_is(m, s, e, "=")) {
				size_t j;
				int depth = 0;
				const char *why;

				for (j = e + 1; j < s->n; j++) {
					if (s_open(m, s, j))
						depth++;
					else if (s_shut(m, s, j))
						depth--;
					if (depth < 0 || (!depth && (s_is(m, s, j, ";") || s_is(m, s, j, ","))))
						break;
				}
				/* an array's initializer, or an element: NAME[i] = "..." */
				if (p && s_is(m, s, e + 1, "{")) {
					why = init_alts(m, s, e + 1, j, p, &none, out);
					if (why)
						return why;
				} else if (s_is(m, s, e + 1, "{") || literal_alts(m, s, e + 1, j, out)) {
					return p ? "an array holding something other than literals" :
						"a variable assigned something other than literals";
				}
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
				const struct vocab_io_fn *io = c != s->n && c + 2 == i ?
					vocab_io(m->lx.t + T(m, s, c)->off, T(m, s, c)->len) : NULL;

				/* the buffer a sprintf() fills: what its template and values make */
				if (!p && io && io->kind == VOCAB_IO_BUF) {
					const char *why = built_alts(m, s, c, io->arg, out);

					if (why)
						return why;
					found++;
					continue;
				}

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

const char *variable_alts(struct model *m, size_t at, int indexed, struct alts *out)
{
	const struct pick all = { &m->code, 0, 0, NULL };

	return named_alts(m, T(m, &m->code, at), m->func[at], at, indexed ? &all : NULL, out);
}

/*
 * A format that is a member of a struct of a table the file defines:
 * NAME[I].MEMBER (@p).  The table must be initialized once, and neither
 * its member assigned nor (unless it is const) the table handed to
 * another function.
 */
static const char *struct_table_alts(struct model *m, const struct token *nm, const char *func,
				     size_t skip, const struct pick *p, struct alts *out)
{
	const struct span *s = &m->code;
	size_t i, e, def_func = s->n, def_file = s->n, def;
	int handed = 0;

	/* every use in the file: a function may change a table of file scope */
	for (i = 0; i < s->n; i++) {
		const struct token *k = T(m, s, i);

		if (k->kind != K_WORD || !tok_same(m, k, nm) || i == skip)
			continue;
		if (i && (s_is(m, s, i - 1, ".") || s_is(m, s, i - 1, "->")))
			continue;	/* a member of that name: not the table */
		e = i + 1;
		while (s_is(m, s, e, "["))
			e = s_close(m, s, e) + 1;
		if (s_is(m, s, e, "=") && s_is(m, s, e + 1, "{")) {
			if (func && m->func[i] == func && def_func == s->n)
				def_func = i;
			else if (!m->func[i] && def_file == s->n)
				def_file = i;
			else
				return "a table the file modifies";
			continue;
		}
		/* NAME[i].MEMBER = ..., NAME = ..., NAME[i].MEMBER++ */
		if (s_is(m, s, e, ".") && s_word(m, s, e + 1))
			e += 2;
		if (s_is(m, s, e, "++") || s_is(m, s, e, "--") ||
		    (i && (s_is(m, s, i - 1, "++") || s_is(m, s, i - 1, "--"))) ||
		    (e < s->n && T(m, s, e)->kind == K_PUNCT &&
		     m->lx.t[T(m, s, e)->off + T(m, s, e)->len - 1] == '=' &&
		     !s_is(m, s, e, "==") && !s_is(m, s, e, "!=") && !s_is(m, s, e, "<=") &&
		     !s_is(m, s, e, ">=")))
			return "a table the file modifies";
		if (i && s_is(m, s, i - 1, "&")) {
			handed = 1;
		} else if (i && (s_is(m, s, i - 1, "(") || s_is(m, s, i - 1, ",")) &&
			   (s_is(m, s, e, ",") || s_is(m, s, e, ")"))) {
			size_t c = callee_of(m, s, i);

			/* ARRAY_SIZE() and sizeof read no element */
			if (c == s->n || (!s_is(m, s, c, "ARRAY_SIZE") && !s_is(m, s, c, "sizeof")))
				handed = 1;
		}
	}
	def = def_func != s->n ? def_func : def_file;
	if (def == s->n)
		return "a table the file does not define";
	if (handed && !table_const(m, def))
		return "a table handed to another function";
	{
		struct layout l;
		size_t before = out->n, init = def + 1;
		const char *why;

		while (s_is(m, s, init, "["))
			init = s_close(m, s, init) + 1;
		init++;	/* past "=" */
		if (s_close(m, s, init) >= s->n)
			return "a table the file does not define";	/* never closed */
		table_layout(m, def, &l);
		why = init_alts(m, s, init, s_close(m, s, init) + 1, p, &l, out);
		if (!why && out->n == before)
			why = "a table member with no literal";
		return why;
	}
}

/*
 * A format that is an element of a table the file defines, s[b, e):
 * NAME[I] (an array of literals) or NAME[I].MEMBER (a member of a table
 * of structs, positional or designated), read by named_alts() and
 * struct_table_alts(); @func: the function of the call; @skip: the code
 * token of NAME when s is the code.  *@shape is 0 when s[b, e) is no
 * such shape (and nothing is read).
 */
static const char *table_alts(struct model *m, const struct span *s, size_t b, size_t e,
			      const char *func, size_t skip, struct alts *out, int *shape)
{
	struct pick p = { s, b + 2, 0, NULL };
	size_t c;

	*shape = 0;
	if (!s_word(m, s, b) || !s_is(m, s, b + 1, "["))
		return NULL;
	c = s_close(m, s, b + 1);
	p.e = c;
	if (c + 1 == e) {
		*shape = 1;
		return named_alts(m, T(m, s, b), func, skip, &p, out);
	}
	if (c + 3 == e && s_is(m, s, c + 1, ".") && s_word(m, s, c + 2)) {
		*shape = 1;
		p.member = T(m, s, c + 2);
		return struct_table_alts(m, T(m, s, b), func, skip, &p, out);
	}
	return NULL;
}

/*
 * A format that is parameter code token @at of a static function of the
 * file, which every use calls with literals in that place (the helper
 * tegra20_mc_printf_percents(s, "%s", ...) of drivers/memory/tegra/
 * tegra20.c): each caller's literals, judged with the helper's own
 * arguments.  NULL, or why not; *@param is 0 when @at names no
 * parameter of its function (nothing is read).
 */
static const char *param_alts(struct model *m, size_t at, struct alts *out, int *param)
{
	const struct span *s = &m->code;
	const char *func = m->func[at];
	const struct token *fn = NULL;
	size_t i, k, c = s->n, np, p, def = s->n, calls = 0;
	size_t a[32][2];
	int depth = 0, is_static = 0;

	*param = 0;
	if (!func)
		return NULL;
	/* the definition: NAME ( ... ) { at file scope, its body func's */
	for (i = 0; i + 1 < s->n && def == s->n; i++) {
		const struct token *k0 = T(m, s, i);

		if (m->func[i] || k0->kind != K_WORD || strlen(func) != k0->len ||
		    memcmp(m->lx.t + k0->off, func, k0->len) || !s_is(m, s, i + 1, "("))
			continue;
		c = s_close(m, s, i + 1);
		if (s_is(m, s, c + 1, "{") && m->func[c + 1] && !strcmp(m->func[c + 1], func))
			def = i;
	}
	if (def == s->n)
		return NULL;
	fn = T(m, s, def);
	np = s_args(m, s, def + 1, c, a, 32);
	for (p = 0; p < np; p++) {
		size_t last = s->n;

		for (k = a[p][0]; k < a[p][1]; k++) {
			if (s_open(m, s, k))
				k = s_close(m, s, k);
			else if (s_word(m, s, k))
				last = k;
		}
		if (last != s->n && tok_same(m, T(m, s, last), T(m, s, at)))
			break;
	}
	if (p == np)
		return NULL;
	*param = 1;
	/*
	 * The values printed beside it must be the helper's own or pointers:
	 * an integer parameter comes from the callers, whose expressions (a
	 * pointer cast to unsigned long) no fact of this call shows.  Such a
	 * format is left what it was, a parameter.
	 */
	{
		size_t cal = callee_of(m, s, at), v[32][2], nv, x, y, q;

		if (cal == s->n)
			return "a parameter or a variable with no literal assigned";
		nv = s_args(m, s, cal + 1, s_close(m, s, cal + 1), v, 32);
		for (x = 0; x < nv && v[x][0] != at; x++)
			;
		for (x++; x < nv; x++)
			for (y = v[x][0]; y < v[x][1]; y++) {
				if (!s_word(m, s, y) || (y && (s_is(m, s, y - 1, ".") ||
							       s_is(m, s, y - 1, "->"))))
					continue;
				for (q = 0; q < np; q++) {
					size_t last = s->n;
					int ptr = 0;

					for (k = a[q][0]; k < a[q][1]; k++) {
						ptr |= s_is(m, s, k, "*") || s_is(m, s, k, "[");
						if (s_open(m, s, k))
							k = s_close(m, s, k);
						else if (s_word(m, s, k))
							last = k;
					}
					if (!ptr && last != s->n && tok_same(m, T(m, s, last), T(m, s, y)))
						return "a parameter or a variable with no literal assigned";
				}
			}
	}
	/* "static" among the words before the name, back to the last ; or } */
	for (k = def; k-- > 0;) {
		if (s_is(m, s, k, ")") || s_is(m, s, k, "]"))
			depth++;
		else if (s_is(m, s, k, "(") || s_is(m, s, k, "["))
			depth--;
		else if (!depth && (s_is(m, s, k, ";") || s_is(m, s, k, "}") || s_is(m, s, k, "{")))
			break;
		else if (!depth && s_is(m, s, k, "static"))
			is_static = 1;
	}
	if (!is_static)
		return "a parameter of a function other files can call";
	for (i = 0; i < s->n; i++) {
		size_t na, cc;

		if (i == def || !s_word(m, s, i) || !tok_same(m, T(m, s, i), fn))
			continue;
		if (i && (s_is(m, s, i - 1, ".") || s_is(m, s, i - 1, "->")))
			continue;	/* a member of that name */
		if (!s_is(m, s, i + 1, "("))
			return "a parameter of a function whose address the file takes";
		if (!m->func[i])
			continue;	/* a declaration: no call at file scope */
		cc = s_close(m, s, i + 1);
		na = s_args(m, s, i + 1, cc, a, 32);
		if (na != np || literal_alts(m, s, a[p][0], a[p][1], out))
			return "a parameter its callers give something other than literals";
		calls++;
	}
	return calls ? NULL : "a parameter of a function the file never calls";
}

/*
 * The format s[b, e) of a call in the code when it is not literals: a
 * variable (variable_alts()), a parameter of a static function of the
 * file (param_alts()), an element of a table, or a function-like
 * macro of the file whose body is one of those or literals
 * (pt(Opt_mask), "#define pt(t) policy_tokens[t].pattern").  NULL, or
 * why not.
 */
static const char *computed_alts1(struct model *m, size_t b, size_t e, struct alts *out);

const char *computed_alts(struct model *m, size_t b, size_t e, struct alts *out)
{
	size_t before = out->n;
	const char *why = computed_alts1(m, b, e, out);

	/* read, yet no literal (an empty table): nothing to judge */
	return !why && out->n == before ? "no literal the format can be" : why;
}

static const char *computed_alts1(struct model *m, size_t b, size_t e, struct alts *out)
{
	const struct span *s = &m->code;
	struct span ex;
	const char *why;
	size_t q, c;
	int shape;

	/* either branch of a conditional, each read as a format of its own */
	split_conditional(m, s, &b, &e, &q, &c);
	if (q && c) {
		why = computed_alts1(m, q + 1, c, out);
		return why ? why : computed_alts1(m, c + 1, e, out);
	}
	if (e == b + 1 && s_word(m, s, b)) {
		why = variable_alts(m, b, 0, out);
		if (why && !strcmp(why, "a parameter or a variable with no literal assigned")) {
			const char *as_param = param_alts(m, b, out, &shape);

			if (shape)
				why = as_param;
		}
		return why;
	}
	why = table_alts(m, s, b, e, m->func[b], b, out, &shape);
	if (shape)
		return why;
	if (expand_macro(m, s, b, e, &ex))
		return "not a string literal";
	if (!literal_alts(m, &ex, 0, ex.n, out)) {
		why = NULL;
	} else {
		why = table_alts(m, &ex, 0, ex.n, m->func[b], s->n, out, &shape);
		if (!shape)
			why = "not a string literal";
	}
	free(ex.ix);
	return why;
}


void join_alt(const struct model *m, const struct span *s, const struct alt *a,
	      struct joined *j)
{
	size_t i, total = 3, n = 0;

	(void)s;
	for (i = 0; i < a->n; i++)
		total += m->lx.tk[a->strs[i]].len;	/* a cut is no longer */
	j->text = xmalloc(total);
	j->line = xmalloc(total * sizeof(*j->line));
	j->col = xmalloc(total * sizeof(*j->col));
	j->text[n++] = '"';
	for (i = 0; i < a->n; i++) {
		const struct token *k = &m->lx.tk[a->strs[i]];
		const char *p = m->lx.t + k->off + 1, *end = m->lx.t + k->off + k->len - 1;
		unsigned int line = k->line, col = k->col + 1;

		if (a->cut) {
			const char *from = p + a->cut[i][0];

			/* the line and column of the cut's first byte */
			for (; p < from && p < end; p++) {
				if (p[0] == '\\' && p + 1 < end && p[1] == '\n') {
					p++;
					line++;
					col = 0;
				} else {
					col++;
				}
			}
			if ((size_t)(end - (m->lx.t + k->off + 1)) > a->cut[i][1])
				end = m->lx.t + k->off + 1 + a->cut[i][1];
		}

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
