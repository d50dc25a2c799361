// SPDX-License-Identifier: GPL-2.0
/*
 * lex_model: a C file read into the lexical model (lex_impl.h): its tokens
 * (model/tokenize.c), the code and each directive line as spans of them,
 * and the function each code token is in.
 */
#include <stdlib.h>
#include <string.h>

#include "model/lex_impl.h"
#include "lib/ptrguard.h"

/*
 * Tokenize @lx->t: a literal the text never closes (an apostrophe in #if
 * 0 prose, GCC's stray token to the end of the line) is no literal here.
 */
void lex_tokens(struct lexer *lx)
{
	struct tokens tk;
	size_t i;

	tokenize(lx->t, lx->n, &tk);
	for (i = 0; i < tk.ntk; i++)
		if (tk.tk[i].flags & TOKF_OPEN)
			tk.tk[i].kind = TOK_OTHER;
	lx->tk = tk.tk;
	lx->ntk = tk.ntk;
	lx->broken = tk.broken;
}

/* Mark the tokens of #if 0 blocks dead. */
void mark_dead(struct lexer *lx)
{
	struct tokens tk = { .t = lx->t, .n = lx->n, .tk = lx->tk, .ntk = lx->ntk };

	tok_mark_dead(&tk);
}

void span_add(struct span *s, size_t i, size_t *alloc)
{
	if (s->n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 256;
		s->ix = xrealloc(s->ix, *alloc * sizeof(*s->ix));
	}
	s->ix[s->n++] = i;
}

/* The index in @s of the bracket closing the one at @i, or s->n. */
size_t s_close(const struct model *m, const struct span *s, size_t i)
{
	int depth = 0;

	for (; i < s->n; i++) {
		const struct token *k = T(m, s, i);
		char c = k->kind == K_PUNCT && k->len == 1 ? m->lx.t[k->off] : 0;

		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
			return i;
	}
	return s->n;
}

/* Split the arguments of the call whose "(" is at @open: starts and ends of each. */
size_t s_args(const struct model *m, const struct span *s, size_t open, size_t close,
	      size_t (*a)[2], size_t max)
{
	size_t i, n = 0, start = open + 1;
	int depth = 0;

	/* no arguments, or a call the text never closes (s_close() gave s->n) */
	if (close == open + 1 || close >= s->n)
		return 0;
	for (i = open + 1; i <= close; i++) {
		const struct token *k = T(m, s, i);
		char c = k->kind == K_PUNCT && k->len == 1 ? m->lx.t[k->off] : 0;

		if (c == '(' || c == '[' || c == '{') {
			depth++;
		} else if ((c == ')' || c == ']' || c == '}') && depth) {
			depth--;
		} else if ((c == ',' && !depth) || i == close) {
			if (n < max) {
				a[n][0] = start;
				a[n][1] = i;
			}
			n++;
			start = i + 1;
		}
	}
	return n < max ? n : max;
}

/* Token text, blanks squeezed to one space where the source had any. */
char *s_text(const struct model *m, const struct span *s, size_t b, size_t e)
{
	size_t i, len = 0, n = 0;
	char *out;

	for (i = b; i < e; i++)
		len += T(m, s, i)->len + 1;
	out = xmalloc(len + 1);
	for (i = b; i < e; i++) {
		const struct token *k = T(m, s, i);

		if (i > b && GAP(k))
			out[n++] = ' ';
		memcpy(out + n, m->lx.t + k->off, k->len);
		n += k->len;
	}
	out[n] = '\0';
	return out;
}

/* ------------------------------------------------------ enclosing functions */

/*
 * A "{" at file scope opens a function body when a ")" comes before it:
 * the function is the word before the matching "(", going back over
 * attribute-like groups (__releases(x), __acquires(x), __attribute__).
 */
static const char *func_name(struct model *m, size_t brace)
{
	const struct span *s = &m->code;
	size_t i = brace, j;
	int depth;

	while (i > 0 && s_is(m, s, i - 1, ")")) {
		depth = 0;
		for (j = i - 1; j < s->n; j--) {
			if (s_is(m, s, j, ")"))
				depth++;
			else if (s_is(m, s, j, "(") && --depth == 0)
				break;
			if (j == 0)
				return NULL;
		}
		if (j == 0 || j >= s->n)
			return NULL;
		/* a name made by a macro: NAME(symbol)(params) */
		if (s_is(m, s, j - 1, ")")) {
			i = j;
			continue;
		}
		if (!s_word(m, s, j - 1))
			return NULL;
		{
			const struct token *k = T(m, s, j - 1);
			const char *w = m->lx.t + k->off;

			if (k->len >= 2 && w[0] == '_' && w[1] == '_' && j >= 2 && s_is(m, s, j - 2, ")")) {
				i = j - 1;
				continue;
			}
			m->funcs = xrealloc(m->funcs, (m->nfuncs + 1) * sizeof(*m->funcs));
			m->funcs[m->nfuncs] = xstrndup(w, k->len);
			return m->funcs[m->nfuncs++];
		}
	}
	return NULL;
}

/*
 * The depth of braces before each code token, read as the compiler reads
 * one configuration: each branch of an #if, #ifdef or #ifndef starts at
 * the depth of the #if, and after the #endif the depth is the first live
 * branch's (after an "#if 0", the next one's).  Two branches that each open a brace ("if (x) {" under
 * #ifdef, "if (y) {" under #else) would otherwise leave the rest of the
 * file inside one function; two whole definitions still read as two.
 */
static void brace_depths(struct model *m)
{
	const struct lexer *lx = &m->lx;
	struct cond { unsigned int saved, first; int branched, dead; } *st = NULL;
	size_t i, c = 0, n = 0, alloc = 0;
	unsigned int depth = 0;

	m->depth = xmalloc((m->code.n + 1) * sizeof(*m->depth));
	for (i = 0; i < lx->ntk; i++) {
		const struct token *k = &lx->tk[i];

		if (k->dir) {
			size_t w;

			if (!(k->flags & TOKF_BOL))
				continue;
			w = dir_word(lx, i);
			if (is(lx, w, "if") || is(lx, w, "ifdef") || is(lx, w, "ifndef")) {
				if (n == alloc) {
					alloc = alloc ? 2 * alloc : 16;
					st = xrealloc(st, alloc * sizeof(*st));
				}
				/* "#if 0": the first live branch is the next one */
				st[n++] = (struct cond){ depth, 0, 0,
					is(lx, w, "if") && is(lx, w + 1, "0") &&
					lx->tk[w + 1].dir == k->dir &&
					(w + 2 >= lx->ntk || lx->tk[w + 2].dir != k->dir) };
			} else if (n && (is(lx, w, "elif") || is(lx, w, "else"))) {
				if (st[n - 1].dead) {
					st[n - 1].dead = 0;
				} else if (!st[n - 1].branched) {
					st[n - 1].first = depth;
					st[n - 1].branched = 1;
				}
				depth = st[n - 1].saved;
			} else if (n && is(lx, w, "endif")) {
				n--;
				if (st[n].branched)
					depth = st[n].first;
			}
			continue;
		}
		if (DEAD(k) || c >= m->code.n || m->code.ix[c] != i)
			continue;
		m->depth[c++] = depth;
		if (k->kind == K_PUNCT && k->len == 1 && lx->t[k->off] == '{')
			depth++;
		else if (k->kind == K_PUNCT && k->len == 1 && lx->t[k->off] == '}' && depth)
			depth--;
	}
	free(st);
}

static void find_functions(struct model *m)
{
	const struct span *s = &m->code;
	size_t i, end;
	const char *f;

	brace_depths(m);
	m->func = xmalloc((s->n + 1) * sizeof(*m->func));
	for (i = 0; i < s->n; i++)
		m->func[i] = NULL;
	for (i = 0; i < s->n; i++) {
		if (!s_is(m, s, i, "{") || m->depth[i])
			continue;
		/* its "}": back to depth 0 (brace_depths()); or the end of the file */
		for (end = i + 1; end < s->n && !(m->depth[end] == 1 && s_is(m, s, end, "}")); end++)
			;
		f = func_name(m, i);
		if (f) {
			size_t j;

			for (j = i; j < s->n && j <= end; j++)
				m->func[j] = (char *)f;
		}
		i = end;
	}
}

/* Split the live tokens: code into m->code, each directive line into a span of @dirs. */
size_t split_lines(struct model *m, struct span **dirsp)
{
	struct span *dirs = NULL;
	size_t ndirs = 0, alloc = 0, i;

	for (i = 0; i < m->lx.ntk; i++) {
		const struct token *k = &m->lx.tk[i];

		if (DEAD(k))
			continue;
		if (!k->dir) {
			span_add(&m->code, i, &alloc);
			continue;
		}
		if (!ndirs || dirs[ndirs - 1].n == 0 ||
		    m->lx.tk[dirs[ndirs - 1].ix[0]].dir != k->dir) {
			dirs = xrealloc(dirs, (ndirs + 1) * sizeof(*dirs));
			memset(&dirs[ndirs++], 0, sizeof(*dirs));
		}
		{
			size_t a2 = dirs[ndirs - 1].n;	/* grow by one: directives are short */

			dirs[ndirs - 1].ix = xrealloc(dirs[ndirs - 1].ix, (a2 + 1) * sizeof(size_t));
			dirs[ndirs - 1].ix[dirs[ndirs - 1].n++] = i;
		}
	}
	*dirsp = dirs;
	return ndirs;
}

/* Read @buf into @m: tokens, code and directive lines (*@dirs), functions, scopes. */
size_t model_read(struct model *m, const char *buf, size_t len, struct span **dirs)
{
	size_t ndirs;

	m->lx.t = buf;
	m->lx.n = len;
	lex_tokens(&m->lx);
	mark_dead(&m->lx);
	ndirs = split_lines(m, dirs);
	m->dirs = *dirs;
	m->ndirs = ndirs;
	find_functions(m);
	find_scopes(m);
	find_users(m);
	return ndirs;
}

/* Free what model_read() made (and the names func_name() kept). */
void model_free(struct model *m, struct span *dirs, size_t ndirs)
{
	size_t i;

	for (i = 0; i < ndirs; i++)
		free(dirs[i].ix);
	free(dirs);
	free(m->code.ix);
	free(m->func);
	for (i = 0; i < m->nfuncs; i++)
		free(m->funcs[i]);
	free(m->funcs);
	free(m->depth);
	free(m->outer);
	free(m->users);
	for (i = 0; i < m->nhanders; i++)
		free(m->handers[i]);
	free(m->handers);
	free(m->lx.tk);
}
