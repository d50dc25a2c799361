// SPDX-License-Identifier: GPL-2.0
/*
 * lex_formats: the literals a call's format can be, read from the text:
 * literals and macros side by side, either branch of a "?:", the macros
 * the file defines, a variable or an array assigned only literals, a
 * member of a table of structs the file initializes (read in
 * lex_tables.c), a function-like macro of the file over those; and the
 * bytes the kernel sees of each.
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
size_t callee_of(const struct model *m, const struct span *s, size_t i)
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
const char *named_alts(struct model *m, const struct token *nm, const char *func,
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
