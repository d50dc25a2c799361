// SPDX-License-Identifier: GPL-2.0
/*
 * fix_align: the continuation lines of a call the rewrite changed, aligned
 * as checkpatch --strict asks.
 *
 * A line the rewrite touches is the patch's line, and checkpatch --strict
 * checks it and the line after it: a line that continues a parenthesis
 * opened on a line of the patch must start one column past it
 * ("Alignment should match open parenthesis"), tabs then spaces (its own
 * --fix) or the opening line's tabs then spaces.  The untouched original
 * may not be; the patch must be.  So a continuation line is re-indented,
 * when it is not aligned already, if
 *   - the rewrite touched it,
 *   - the parenthesis it continues is on a line the patch changes, or
 *   - another line continuing the same parenthesis is re-indented (a
 *     call is aligned as a whole, not half of it);
 * every other line stays byte for byte.  A line that would end past 100
 * columns is split after its last comma that fits, unless it is a lone
 * string literal (which checkpatch lets run long); when no comma fits, a
 * line whose alignment checkpatch does not check keeps its indentation.
 * Lines inside a macro body or a comment, directives, lines that open
 * with a closing bracket and the block after a parenthesis that ends its
 * line are never re-indented.
 */
#include <stdlib.h>
#include <string.h>

#include "fix/fix.h"
#include "lib/ptrguard.h"

#define MAX_COLS 100
#define TAB 8
#define NONE ((size_t)-1)

struct aline {
	size_t start, end;	/* [start, end): the line without its newline */
	size_t body;		/* past its indentation */
	size_t paren;		/* the '(' open at its start (innermost bracket), or NONE */
	size_t pline;		/* the line of @paren */
	int skip;		/* not a line to re-indent */
	int touched;		/* an edit is on it */
	int realign;		/* re-indented: @indent, split at @cuts */
	char *indent;
	size_t *cuts;		/* where the rest goes on a line of its own */
	size_t ncuts;
};

struct stack {
	size_t *v;
	size_t n, cap;
};

static void push(struct stack *s, size_t x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->n++] = x;
}

static void copy_stack(struct stack *to, const struct stack *from)
{
	to->n = 0;
	for (size_t i = 0; i < from->n; i++)
		push(to, from->v[i]);
}

/* A preprocessor conditional: the brackets open where it began. */
struct cond {
	struct stack at;
	int other;		/* an #else or #elif was seen */
};

/*
 * The brackets open at the start of each line, from one reading of the
 * text: comments, literals, splices and directives kept apart.  A
 * directive leaves the brackets as they were; each branch of an #if
 * starts from the brackets open at the #if, and after #endif they are the
 * last branch's (or, without #else, as at the #if: a valid file balances
 * the branch it may leave out).
 */
static void read_lines(const char *t, size_t n, struct aline *L, size_t nl)
{
	enum { CODE, BLOCK, LINE, STR, CHR } st = CODE;
	struct stack stk = { 0 }, dir = { 0 };
	struct cond *conds = NULL;
	size_t nconds = 0, i = 0, ln = 0;
	int bol = 1, in_dir = 0;

	while (i < n) {
		if (ln < nl && i == L[ln].start) {
			size_t k = stk.n;

			/* the innermost bracket, when it is a parenthesis */
			L[ln].paren = k && t[stk.v[k - 1]] == '(' ? stk.v[k - 1] : NONE;
			L[ln].skip = st != CODE || in_dir ||
				     (ln && L[ln - 1].end > L[ln - 1].start && t[L[ln - 1].end - 1] == '\\');
			ln++;
			bol = 1;
		}
		switch (st) {
		case BLOCK:
			if (t[i] == '*' && i + 1 < n && t[i + 1] == '/') {
				st = CODE;
				i++;
			}
			i++;
			continue;
		case STR:
		case CHR:
			if (t[i] == '\n') {
				st = CODE;	/* unterminated: the line ends it */
				break;
			}
			if (t[i] == '\\')
				i++;
			else if (t[i] == (st == STR ? '"' : '\''))
				st = CODE;
			i++;
			continue;
		case LINE:
			if (t[i] != '\n') {
				i++;
				continue;
			}
			st = CODE;
			break;
		case CODE:
			break;
		}
		if (t[i] == '\n') {
			if (in_dir && !(i && t[i - 1] == '\\')) {
				copy_stack(&stk, &dir);
				in_dir = 0;
			}
			i++;
			continue;
		}
		if (t[i] == ' ' || t[i] == '\t') {
			i++;
			continue;
		}
		if (bol && t[i] == '#') {
			size_t w = i + 1, e;

			while (w < n && (t[w] == ' ' || t[w] == '\t'))
				w++;
			for (e = w; e < n && t[e] >= 'a' && t[e] <= 'z'; e++)
				;
			if (e - w >= 2 && !strncmp(t + w, "if", 2)) {
				conds = xrealloc(conds, (nconds + 1) * sizeof(*conds));
				conds[nconds] = (struct cond){ { 0 }, 0 };
				copy_stack(&conds[nconds++].at, &stk);
			} else if (nconds && ((e - w == 4 && !strncmp(t + w, "elif", 4)) ||
					      (e - w == 4 && !strncmp(t + w, "else", 4)))) {
				copy_stack(&stk, &conds[nconds - 1].at);
				conds[nconds - 1].other = 1;
			} else if (nconds && e - w == 5 && !strncmp(t + w, "endif", 5)) {
				nconds--;
				if (!conds[nconds].other)
					copy_stack(&stk, &conds[nconds].at);
				free(conds[nconds].at.v);
			}
			copy_stack(&dir, &stk);
			in_dir = 1;
		}
		bol = 0;
		if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
			st = BLOCK;
			i += 2;
			continue;
		}
		if (t[i] == '/' && i + 1 < n && t[i + 1] == '/')
			st = LINE;
		else if (t[i] == '"')
			st = STR;
		else if (t[i] == '\'')
			st = CHR;
		else if (t[i] == '(' || t[i] == '[' || t[i] == '{')
			push(&stk, i);
		else if ((t[i] == ')' || t[i] == ']' || t[i] == '}') && stk.n)
			stk.n--;
		i++;
	}
	while (nconds--)
		free(conds[nconds].at.v);
	free(conds);
	free(stk.v);
	free(dir.v);
}

/* The line that holds byte @off. */
static size_t line_of(const struct aline *L, size_t nl, size_t off)
{
	size_t lo = 0, hi = nl;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (L[mid].start <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The column after @s[0..n) printed from column @col, tabs every TAB. */
static size_t width(size_t col, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		col = s[i] == '\t' ? (col / TAB + 1) * TAB : col + 1;
	return col;
}

static size_t indent_width(const char *t, const struct aline *l)
{
	return l->realign ? width(0, l->indent, strlen(l->indent))
			  : width(0, t + l->start, l->body - l->start);
}

/* The column (0-based) of the parenthesis line @k continues. */
static size_t paren_col(const char *t, const struct aline *L, size_t k)
{
	const struct aline *p = &L[L[k].pline];

	return width(indent_width(t, p), t + p->body, L[k].paren - p->body);
}

/* An indentation of tabs then spaces to column @col: checkpatch's --fix. */
static char *tab_indent(size_t col)
{
	char *s = xmalloc(col / TAB + col % TAB + 1), *o = s;

	for (size_t i = 0; i < col / TAB; i++)
		*o++ = '\t';
	for (size_t i = 0; i < col % TAB; i++)
		*o++ = ' ';
	*o = 0;
	return s;
}

/*
 * Is line @k aligned with its parenthesis, @col the column past it?
 * checkpatch takes tabs then spaces, or the tabs of the parenthesis's
 * line then spaces.
 */
static int aligned(const char *t, const struct aline *L, size_t k, size_t col)
{
	const struct aline *l = &L[k], *p = &L[l->pline];
	const char *ind = l->realign ? l->indent : t + l->start;
	size_t n = l->realign ? strlen(l->indent) : l->body - l->start, tabs = 0, i;
	const char *pind = p->realign ? p->indent : t + p->start;

	while (pind[tabs] == '\t')
		tabs++;
	if (width(0, ind, n) != col)
		return 0;
	for (i = 0; i < n && ind[i] == '\t'; i++)
		;
	/* tabs then spaces only */
	for (size_t j = i; j < n; j++)
		if (ind[j] != ' ')
			return 0;
	return i == col / TAB || i == tabs;
}

/* The rest of the line is one string literal, then maybe "," or ");". */
static int lone_string(const char *t, size_t s, size_t e)
{
	if (s >= e || t[s] != '"')
		return 0;
	for (s++; s < e && t[s] != '"'; s++)
		if (t[s] == '\\')
			s++;
	if (s >= e)
		return 0;
	for (s++; s < e && (t[s] == ' ' || t[s] == '\t'); s++)
		;
	if (s < e && t[s] == ',')
		s++;
	else if (s < e && t[s] == ')')
		for (s++; s < e && (t[s] == ' ' || t[s] == '\t' || t[s] == ';'); s++)
			;
	for (; s < e && (t[s] == ' ' || t[s] == '\t'); s++)
		;
	return s == e;
}

/*
 * Where to cut the rest of line @l (re-indented to column @col) so that
 * every piece ends by MAX_COLS: after commas between the arguments of
 * its parenthesis, as late as fits.  0 when no cut does it, or when a
 * bracket the line opens stays open past it (the lines after it are
 * aligned with it).
 */
static size_t cut_line(const char *t, struct aline *l, size_t col)
{
	size_t *commas = NULL, nc = 0, i, from = l->body;
	int depth = 0;

	for (i = l->body; i < l->end; i++) {
		char c = t[i];

		if (c == '"' || c == '\'') {
			for (i++; i < l->end && t[i] != c; i++)
				if (t[i] == '\\')
					i++;
		} else if (c == '/' && i + 1 < l->end && t[i + 1] == '*') {
			for (i += 2; i + 1 < l->end && !(t[i] == '*' && t[i + 1] == '/'); i++)
				;
			if (i + 1 >= l->end)
				goto none;	/* the comment goes on past the line */
			i++;
		} else if (c == '/' && i + 1 < l->end && t[i + 1] == '/') {
			break;
		} else if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if (c == ')' || c == ']' || c == '}') {
			if (--depth < 0)
				break;	/* the call's own parenthesis closes */
		} else if (c == ',' && depth == 0) {
			commas = xrealloc(commas, (nc + 1) * sizeof(*commas));
			commas[nc++] = i;
		}
	}
	if (depth > 0)
		goto none;
	while (width(col, t + from, l->end - from) > MAX_COLS) {
		size_t k, best = NONE;

		for (k = 0; k < nc; k++)
			if (commas[k] >= from &&
			    width(col, t + from, commas[k] + 1 - from) <= MAX_COLS)
				best = commas[k];
		if (best == NONE)
			goto none;
		for (from = best + 1; from < l->end && (t[from] == ' ' || t[from] == '\t'); from++)
			;
		if (from == l->end)
			goto none;
		l->cuts = xrealloc(l->cuts, (l->ncuts + 1) * sizeof(*l->cuts));
		l->cuts[l->ncuts++] = best + 1;
	}
	free(commas);
	return l->ncuts;
none:
	free(commas);
	l->ncuts = 0;
	return 0;
}

static int is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static size_t skip_spaces(const char *t, size_t i, size_t e)
{
	while (i < e && (t[i] == ' ' || t[i] == '\t'))
		i++;
	return i;
}

/*
 * Does line @l open a statement the way checkpatch's alignment check
 * wants: "NAME(", "KEYWORD (", "LVALUE = NAME(" at its start, and ending
 * with ',', '&&' or '||'?
 */
static int opens_call(const char *t, const struct aline *l)
{
	size_t i = l->body, e = l->end, w;

	while (e > i && (t[e - 1] == ' ' || t[e - 1] == '\t'))
		e--;
	if (!(e > i && (t[e - 1] == ',' ||
			(e - i >= 2 && (!strncmp(t + e - 2, "&&", 2) || !strncmp(t + e - 2, "||", 2))))))
		return 0;
	while (i < e && (t[i] == '*' || t[i] == ' ' || t[i] == '\t'))
		i++;
	for (w = i; i < e && is_ident(t[i]); i++)
		;
	if (i == w)
		return 0;
	/* an lvalue: ->NAME, .NAME, [...] */
	for (;;) {
		if (i + 1 < e && t[i] == '-' && t[i + 1] == '>')
			i += 2;
		else if (i < e && t[i] == '.')
			i++;
		else if (i < e && t[i] == '[') {
			int depth = 0;

			for (; i < e; i++) {
				depth += t[i] == '[';
				if (t[i] == ']' && --depth == 0)
					break;
			}
			if (i++ >= e)
				return 0;
			continue;
		} else
			break;
		for (w = i = skip_spaces(t, i, e); i < e && is_ident(t[i]); i++)
			;
		if (i == w)
			return 0;
	}
	i = skip_spaces(t, i, e);
	if (i < e && t[i] == '(')
		return 1;
	if (!(i + 1 < e && t[i] == '=' && t[i + 1] != '='))
		return 0;
	for (w = i = skip_spaces(t, i + 1, e); i < e && is_ident(t[i]); i++)
		;
	i = skip_spaces(t, i, e);
	return i > w && i < e && t[i] == '(';
}

/*
 * Does checkpatch check the alignment of line @k: the line before it is a
 * patch line that opens the parenthesis @k continues, as opens_call() says.
 */
static int checked(const char *t, const struct aline *L, size_t k)
{
	return k && L[k].pline == k - 1 && (L[k - 1].touched || L[k - 1].realign) &&
	       opens_call(t, &L[k - 1]);
}

/* Is any line re-indented that continues the parenthesis at @paren? */
static int sibling(const size_t *parens, size_t n, size_t paren)
{
	for (size_t i = 0; i < n; i++)
		if (parens[i] == paren)
			return 1;
	return 0;
}

char *fix_align(const char *t, size_t len, const size_t *at, size_t nat, size_t *newlen)
{
	struct aline *L;
	size_t nl = 1, i, k, *parens = NULL, nparens = 0, pass;
	char *out, *o;
	int again = 1;

	for (i = 0; i < len; i++)
		nl += t[i] == '\n';
	L = xmalloc(nl * sizeof(*L));
	memset(L, 0, nl * sizeof(*L));
	for (i = 0, k = 0; k < nl; k++) {
		L[k].start = i;
		L[k].paren = NONE;
		while (i < len && t[i] != '\n')
			i++;
		L[k].end = i++;
	}
	read_lines(t, len, L, nl);
	for (k = 0; k < nl; k++) {
		struct aline *l = &L[k];

		for (l->body = l->start; l->body < l->end && (t[l->body] == ' ' || t[l->body] == '\t');
		     l->body++)
			;
		if (l->body == l->end || strchr("#)]}", t[l->body]) ||
		    (l->end > l->start && t[l->end - 1] == '\\'))
			l->skip = 1;
		if (l->paren == NONE) {
			l->skip = 1;
			continue;
		}
		l->pline = line_of(L, nl, l->paren);
		/*
		 * A parenthesis that ends its line is followed by an indented
		 * block of arguments, not aligned with it (and checkpatch
		 * checks only after a ',', '&&' or '||').
		 */
		for (i = l->paren + 1; i < L[l->pline].end && (t[i] == ' ' || t[i] == '\t'); i++)
			;
		if (i == L[l->pline].end)
			l->skip = 1;
	}
	for (i = 0; i < nat; i++)
		if (at[i] <= len)
			L[line_of(L, nl, at[i])].touched = 1;

	/*
	 * To a fixed point: a re-indented line moves the parentheses it
	 * opens, and may make its siblings and the lines before it count.
	 */
	for (pass = 0; again && pass < 64; pass++) {
		again = 0;
		for (k = 0; k < nl; k++) {
			struct aline *l = &L[k];
			const struct aline *p;
			size_t col;

			if (l->skip)
				continue;
			p = &L[l->pline];
			if (!l->realign && !l->touched && !p->touched && !p->realign &&
			    !sibling(parens, nparens, l->paren))
				continue;
			col = paren_col(t, L, k) + 1;
			if (aligned(t, L, k, col))
				continue;
			if (l->realign) {
				/* its parenthesis moved since */
				free(l->indent);
				l->indent = tab_indent(col);
				l->ncuts = 0;
				cut_line(t, l, col);
				again = 1;
				continue;
			}
			if (width(col, t + l->body, l->end - l->body) > MAX_COLS &&
			    !lone_string(t, l->body, l->end) && !cut_line(t, l, col) && !checked(t, L, k))
				continue;	/* no cut fits, and checkpatch takes it as it is */
			l->realign = 1;
			l->indent = tab_indent(col);
			parens = xrealloc(parens, (nparens + 1) * sizeof(*parens));
			parens[nparens++] = l->paren;
			again = 1;
		}
	}

	/* the text, the re-indented lines and their cuts replaced */
	{
		size_t cap = len + 1;

		for (k = 0; k < nl; k++)
			if (L[k].realign)
				cap += (strlen(L[k].indent) + 1) * (L[k].ncuts + 1);
		out = xmalloc(cap);
	}
	o = out;
	for (k = 0; k < nl; k++) {
		struct aline *l = &L[k];
		size_t from;

		if (!l->realign) {
			memcpy(o, t + l->start, l->end - l->start);
			o += l->end - l->start;
		} else {
			from = l->body;
			for (i = 0; i <= l->ncuts; i++) {
				size_t to = i < l->ncuts ? l->cuts[i] : l->end, next = to;

				if (i) {
					*o++ = '\n';
					while (from < to && (t[from] == ' ' || t[from] == '\t'))
						from++;
				}
				memcpy(o, l->indent, strlen(l->indent));
				o += strlen(l->indent);
				memcpy(o, t + from, to - from);
				o += to - from;
				from = next;
			}
		}
		if (l->end < len)
			*o++ = '\n';
		free(l->indent);
		free(l->cuts);
	}
	*o = 0;
	*newlen = (size_t)(o - out);
	free(parens);
	free(L);
	return out;
}
