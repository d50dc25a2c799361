// SPDX-License-Identifier: GPL-2.0
/*
 * lex_tables: formats held in tables the file initializes: an element of
 * an array of formats or a member of a table of structs, picked by a
 * constant index, an enumerator the file's enum gives a value, or a key
 * member; every element for an index the text cannot settle.  Also the
 * function-like macros of the file that expand to such a read.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "model/lex_impl.h"
#include "lib/ptrguard.h"

/* Is s[i] an opening, or a closing, bracket? */
int s_open(const struct model *m, const struct span *s, size_t i)
{
	return s_is(m, s, i, "(") || s_is(m, s, i, "[") || s_is(m, s, i, "{");
}

int s_shut(const struct model *m, const struct span *s, size_t i)
{
	return s_is(m, s, i, ")") || s_is(m, s, i, "]") || s_is(m, s, i, "}");
}

int tok_same(const struct model *m, const struct token *a, const struct token *b)
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
int expand_macro(const struct model *m, const struct span *s, size_t b, size_t e,
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
const char *init_alts(struct model *m, const struct span *s, size_t b, size_t e,
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
const char *table_alts(struct model *m, const struct span *s, size_t b, size_t e,
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
