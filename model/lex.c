// SPDX-License-Identifier: GPL-2.0
/*
 * lex: the C lexical model of seq-output calls (see lex.h).
 *
 * Three steps over one token list: tokens (with their lines, the
 * directive each belongs to, and #if 0 blocks marked dead), the file's
 * own wrappers (added to a copy of the vocabulary until none is new, so
 * that a wrapper of a wrapper is found), then the calls, each with the
 * literals its format can be and the findings of their conversions.
 * The tree-wide table of wrappers is model/wrapper_table.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/format.h"
#include "model/lex.h"
#include "model/tokenize.h"
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

void lex_vocab_free(struct lex_vocab *v)
{
	size_t i;

	for (i = 0; i < v->nfns; i++) {
		free(v->fns[i].name);
		free(v->fns[i].origin);
		free(v->fns[i].path);
	}
	free(v->fns);
	memset(v, 0, sizeof(*v));
}

/* ---------------------------------------------------------------- tokens */

/* The tokens of model/tokenize.c, read as this model reads them. */
#define K_WORD TOK_NAME
#define K_STR TOK_STRING
#define K_CHR TOK_CHAR
#define K_NUM TOK_NUMBER
#define K_PUNCT TOK_PUNCT

struct lexer {
	const char *t;
	size_t n;
	struct token *tk;
	size_t ntk;
	int broken;
};

/*
 * Tokenize @lx->t: a literal the text never closes (an apostrophe in #if
 * 0 prose, GCC's stray token to the end of the line) is no literal here.
 */
static void lex_tokens(struct lexer *lx)
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
static void mark_dead(struct lexer *lx)
{
	struct tokens tk = { .t = lx->t, .n = lx->n, .tk = lx->tk, .ntk = lx->ntk };

	tok_mark_dead(&tk);
}

#define DEAD(k) (((k)->flags & TOKF_DEAD) != 0)
#define GAP(k) (((k)->flags & TOKF_GAP) != 0)

static int is(const struct lexer *lx, size_t i, const char *s)
{
	return i < lx->ntk && tok_is(lx->t, &lx->tk[i], s);
}

static int is_word(const struct lexer *lx, size_t i)
{
	return i < lx->ntk && lx->tk[i].kind == K_WORD;
}

/* The first token of the directive that starts at token @i ("if", "define"...). */
static size_t dir_word(const struct lexer *lx, size_t i)
{
	return i + 1 < lx->ntk && lx->tk[i + 1].dir == lx->tk[i].dir ? i + 1 : lx->ntk;
}

/* The live tokens of the code (not a directive), or of one directive line. */
struct span {
	size_t *ix;
	size_t n;
};

static void span_add(struct span *s, size_t i, size_t *alloc)
{
	if (s->n == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 256;
		s->ix = xrealloc(s->ix, *alloc * sizeof(*s->ix));
	}
	s->ix[s->n++] = i;
}

/* ------------------------------------------------------------- the model */

struct model {
	struct lexer lx;
	struct span code;	/* live tokens outside directives */
	char **func;		/* per code token: enclosing function name (shared strings) */
	struct lex_vocab v;
	int hashed;
	char **funcs;		/* the names, to free */
	size_t nfuncs;
	const char *header;	/* reading a header of the tree table: its name */
	/* vocab.def's PG_SEQ_PUT and PG_BUF_PRINTF functions (fmt: their argument) */
	struct lex_vocab io;
	/* per code token: the depth of braces before it (brace_depths()) */
	unsigned int *depth;
	/* per code token outside functions: the brackets around it (find_scopes()) */
	char *outer;
	/* the tokens of the names declared "__user *NAME" (find_users()) */
	size_t *users, nusers;
	/* the directive lines (model_read()): the file's macros */
	const struct span *dirs;
	size_t ndirs;
	/*
	 * the functions known before the file (the core's, a header's) whose
	 * definition here hands its own format and a va_list on, as a
	 * wrapper's does (seq_printf() in fs/seq_file.c): their callers are
	 * judged, their bodies are no call to judge
	 */
	char **handers;
	size_t nhanders;
};

#define T(m, s, i) (&(m)->lx.tk[(s)->ix[i]])

static int s_is(const struct model *m, const struct span *s, size_t i, const char *w)
{
	return i < s->n && is(&m->lx, s->ix[i], w);
}

static int s_word(const struct model *m, const struct span *s, size_t i)
{
	return i < s->n && is_word(&m->lx, s->ix[i]);
}

/* The index in @s of the bracket closing the one at @i, or s->n. */
static size_t s_close(const struct model *m, const struct span *s, size_t i)
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
static size_t s_args(const struct model *m, const struct span *s, size_t open, size_t close,
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
static char *s_text(const struct model *m, const struct span *s, size_t b, size_t e)
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
static size_t split_lines(struct model *m, struct span **dirsp)
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
static int macro_wrapper(struct model *m, const struct span *d)
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
static int is_hander(const struct model *m, const char *name)
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
static int function_wrapper(struct model *m, size_t brace)
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

	if (!memmem(buf, len, "__printf", 8))
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

	if (!memmem(buf, len, "define", 6))
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

/* ------------------------------------------------------------- formats */

/*
 * One literal a format can be: its string tokens (lexer tokens, of the
 * call's line or of the body of a macro the file defines).
 */
struct alt {
	size_t *strs;
	size_t n;
	int macro;		/* a word (a macro the model cannot read) among the pieces */
};

struct alts {
	struct alt *a;
	size_t n;
};

static void alts_free(struct alts *x)
{
	size_t i;

	for (i = 0; i < x->n; i++)
		free(x->a[i].strs);
	free(x->a);
	x->a = NULL;
	x->n = 0;
}

/* The most literals one format is read as (each ?: branch, macro definition, array element). */
#define MAX_ALTS 64

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
static int macro_param(const struct model *m, const struct span *s, const char *name, size_t len);

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
static int literal_alts(const struct model *m, const struct span *s, size_t b, size_t e,
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
static const char *variable_alts(struct model *m, size_t at, int indexed, struct alts *out)
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

/* The joined content of an alternative, as written, and where each byte came from. */
struct joined {
	char *text;		/* "\"...\"" */
	size_t len;
	unsigned int *line, *col;	/* per byte of text (after the opening quote) */
};

static void join_alt(const struct model *m, const struct span *s, const struct alt *a,
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

static void joined_free(struct joined *j)
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
static char *decode_joined(const struct joined *j, size_t *n, size_t **raw)
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

/* A word of an integer cast type (model/vocab.def), or a qualifier. */
static int int_word(const struct model *m, const struct span *s, size_t i)
{
	const struct token *k;

	if (!s_word(m, s, i))
		return 0;
	k = T(m, s, i);
	return vocab_int_word(m->lx.t + k->off, k->len) ||
		s_is(m, s, i, "const") || s_is(m, s, i, "volatile");
}

/*
 * How a declaration of a name reads, as the model reads one: NAME then
 * ; , = ) [ or an attribute, after "T *", ", *" or "T (*NAME)(" (a
 * pointer: D_USER when "__user *", and "__user *const") or after "T"
 * (D_PLAIN when T is an integer type of model/vocab.def or a struct,
 * union or enum; D_TYPE for any other word, a typedef that may be a
 * pointer's).  An array ("T NAME[") decays to its address: D_PTR.
 */
enum decl_kind { D_NONE, D_PLAIN, D_PTR, D_USER, D_TYPE };

/* Words before a name that make no declaration of it ("else x = 1;"). */
static int not_a_type(const struct lexer *lx, size_t j)
{
	static const char *const words[] = {
		"return", "case", "else", "do", "goto", "sizeof", "break", "continue",
		"default",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (is(lx, j, words[i]))
			return 1;
	return 0;
}

/* Does token @k end a declarator: ; , = ) [ or an attribute (__free(f), __maybe_unused)? */
static int decl_end(const struct lexer *lx, size_t k)
{
	const struct token *t = k < lx->ntk ? &lx->tk[k] : NULL;

	if (!t)
		return 0;
	if (t->kind == K_WORD)
		return t->len > 2 && lx->t[t->off] == '_' && lx->t[t->off + 1] == '_';
	return is(lx, k, ";") || is(lx, k, ",") || is(lx, k, "=") || is(lx, k, ")") ||
		is(lx, k, "[");
}

static enum decl_kind decl_kind(const struct lexer *lx, size_t i)
{
	const struct token *t;
	size_t j;

	if (!i || !is_word(lx, i) || !decl_end(lx, i + 1))
		return D_NONE;
	j = i - 1;
	while (j > 0 && (is(lx, j, "const") || is(lx, j, "__rcu") || is(lx, j, "__iomem") ||
			 is(lx, j, "__force") || is(lx, j, "__user")))
		j--;
	/*
	 * "T *NAME", "T **NAME", a later declarator ", *NAME" and
	 * "typeof(x) *NAME" (a call's argument ", *p)" is no declaration)
	 */
	if (is(lx, j, "*") && (is_word(lx, j - 1) || is(lx, j - 1, "*") ||
			       ((is(lx, j - 1, ",") || is(lx, j - 1, ")")) && !is(lx, i + 1, ")"))))
		return is(lx, j - 1, "__user") ? D_USER : D_PTR;
	/* a function pointer, "T (*NAME)(" */
	if (is(lx, j, "*") && is(lx, j - 1, "(") && j >= 2 && is_word(lx, j - 2) &&
	    is(lx, i + 1, ")") && is(lx, i + 2, "("))
		return D_PTR;
	if (!is_word(lx, j) || not_a_type(lx, j) ||
	    !(is_word(lx, j - 1) || is(lx, j - 1, ";") || is(lx, j - 1, "{") ||
	      is(lx, j - 1, "(") || is(lx, j - 1, ",")))
		return D_NONE;
	if (is(lx, i + 1, "["))
		return D_PTR;
	t = &lx->tk[j];
	if (vocab_int_type_word(lx->t + t->off, t->len) || is(lx, j - 1, "struct") ||
	    is(lx, j - 1, "union") || is(lx, j - 1, "enum"))
		return D_PLAIN;
	return D_TYPE;
}

/*
 * Where a declaration holds.  C scopes a function's parameters and
 * locals to its body: a write handler's "const char __user *buf" says
 * nothing of a kernel pointer "buf" that another function prints.  Only
 * a file-scope variable is the same name in every function, and a
 * struct member in every "->NAME".
 */
enum decl_scope {
	S_FUNC,		/* a parameter or local of one definition */
	S_GLOBAL,	/* a variable at file scope */
	S_MEMBER,	/* inside braces outside any function: a struct member */
	S_PROTO,	/* a parameter of a prototype: nowhere */
	S_OTHER,	/* in a directive (a macro's body): wherever it expands */
};

/* The index in m->code of lexer token @tok, or m->code.n if it is not code. */
static size_t code_index(const struct model *m, size_t tok)
{
	size_t lo = 0, hi = m->code.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->code.ix[mid] < tok)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->code.n && m->code.ix[lo] == tok ? lo : m->code.n;
}

/*
 * Per code token outside functions, the brackets open at file scope
 * around it: 'p' inside parentheses (a head's or a prototype's
 * parameters, a function pointer member's too), else 'm' inside braces
 * (a struct, an initializer), 'g' neither.
 * After find_functions().
 */
static void find_scopes(struct model *m)
{
	const struct span *s = &m->code;
	size_t i;
	int parens = 0;

	m->outer = xmalloc(s->n + 1);
	for (i = 0; i < s->n; i++) {
		const struct token *k = T(m, s, i);
		char c = k->kind == K_PUNCT && k->len == 1 ? m->lx.t[k->off] : 0;

		m->outer[i] = m->func[i] ? 0 : parens ? 'p' : m->depth[i] ? 'm' : 'g';
		if (m->func[i] || !c)
			continue;
		if (c == '(')
			parens++;
		else if (c == ')')
			parens -= parens > 0;
	}
}

/*
 * The definition whose parameter list holds code token @i (at file
 * scope, inside parentheses), or NULL for a prototype's: past the
 * closing parenthesis and any attribute-like groups, a body's "{".
 */
static const char *head_of(const struct model *m, size_t i)
{
	const struct span *s = &m->code;
	int depth = 0;

	for (; i < s->n; i++) {
		if (s_is(m, s, i, "("))
			depth++;
		else if (s_is(m, s, i, ")") && --depth < 0)
			break;
	}
	for (i++; i < s->n; i++) {
		if (s_is(m, s, i, "{"))
			return m->func[i];
		if (s_is(m, s, i, "("))
			i = s_close(m, s, i);
		else if (!s_word(m, s, i))
			break;
	}
	return NULL;
}

/* The scope of the declaration of lexer token @tok; *@func its definition (S_FUNC). */
static enum decl_scope decl_scope(const struct model *m, size_t tok, const char **func)
{
	size_t at = code_index(m, tok);

	*func = NULL;
	if (at == m->code.n)
		return S_OTHER;
	if (m->func[at]) {
		*func = m->func[at];
		return S_FUNC;
	}
	if (m->outer[at] == 'm')
		return S_MEMBER;
	if (m->outer[at] == 'p') {
		*func = head_of(m, at);
		return *func ? S_FUNC : S_PROTO;
	}
	return S_GLOBAL;
}

/*
 * Note the token of each name declared "__user *NAME" (or "__user *
 * const NAME"): user_name() looks further only for those names, and reads
 * their scope then (read_decls()).
 */
static void find_users(struct model *m)
{
	const struct lexer *lx = &m->lx;
	size_t i, alloc = 0;

	for (i = 0; i + 2 < lx->ntk; i++) {
		size_t j = i + 2;

		if (!is(lx, i, "__user") || !is(lx, i + 1, "*") || DEAD(&lx->tk[i]))
			continue;
		if (is(lx, j, "const"))
			j++;
		if (decl_kind(lx, j) != D_USER)
			continue;
		if (m->nusers == alloc) {
			alloc = alloc ? 2 * alloc : 8;
			m->users = xrealloc(m->users, alloc * sizeof(*m->users));
		}
		m->users[m->nusers++] = j;
	}
}

/*
 * The declarations of NAME, one bit (1 << kind) per enum decl_kind read:
 * in definition @f (its parameters and locals), at file scope, in
 * struct bodies, and anywhere in the file (directives too).
 */
struct decls {
	unsigned int here, global, field, any;
};

static void read_decls(const struct model *m, const char *name, size_t len, const char *f,
		       struct decls *d)
{
	const struct lexer *lx = &m->lx;
	const char *in;
	size_t i;

	memset(d, 0, sizeof(*d));
	for (i = 1; i + 1 < lx->ntk; i++) {
		enum decl_kind k;
		unsigned int bit;

		if (lx->tk[i].len != len || DEAD(&lx->tk[i]) || memcmp(lx->t + lx->tk[i].off, name, len))
			continue;
		k = decl_kind(lx, i);
		if (k == D_NONE)
			continue;
		bit = 1u << k;
		d->any |= bit;
		switch (decl_scope(m, i, &in)) {
		case S_FUNC:
			d->here |= f && in == f ? bit : 0;
			break;
		case S_GLOBAL:
			d->global |= bit;
			break;
		case S_MEMBER:
			d->field |= bit;
			break;
		default:
			break;
		}
	}
}

#define ONLY(kinds, k) ((kinds) == 1u << (k))
#define POINTER(kinds) ((kinds) & (1u << D_PTR | 1u << D_USER))

/*
 * Is @name, used at code token @use (@member: "X->NAME", "X.NAME"; m->code.n:
 * outside a function's code, a macro's body or spatch's fact of a value
 * assigned in any function), a user pointer?  A uapi user pointer field
 * of vocab.def is one.  Else as C scopes the name: by the function's
 * declarations (parameters, locals: all "__user *NAME", or "__user
 * *const NAME"; both ways in two blocks, the model cannot tell which
 * one: no).  What the model cannot place - a file-scope variable the
 * function does not declare, a struct member (matched by name: the
 * model knows no types), a use outside functions - only when every
 * declaration of the name in the file is a user pointer's.
 */
static int user_name(const struct model *m, const char *name, size_t len, size_t use, int member)
{
	const struct lexer *lx = &m->lx;
	const char *f = use < m->code.n ? m->func[use] : NULL;
	struct decls d;
	size_t i;

	if (vocab_user_field(name, len))
		return 1;
	/* most names are not: the file's few user declarations first */
	for (i = 0; i < m->nusers; i++) {
		const struct token *t = &lx->tk[m->users[i]];

		if (t->len == len && !memcmp(lx->t + t->off, name, len))
			break;
	}
	if (i == m->nusers)
		return 0;
	read_decls(m, name, len, f, &d);
	if (member)
		return d.field && ONLY(d.any, D_USER);
	if (f && d.here)
		return ONLY(d.here, D_USER);
	return (!f || d.global) && ONLY(d.any, D_USER);
}

/*
 * How NAME, used at code token @use (@member: user_name()), is declared:
 * 1 only as a pointer ("T *NAME", or an array), 0 only as an integer
 * ("T NAME", decl_kind()), -1 not at all, by a type that may be a
 * pointer's, or both ways (two scopes: the model cannot tell which one).
 * By the function's own declarations, else the file-scope variables'
 * (for a member, the struct members'); an integer read from those the
 * model cannot place (a member, matched by name; a file-scope variable;
 * a use outside functions) only when no declaration of the name in the
 * file says otherwise.
 */
static int pointer_name(const struct model *m, const char *name, size_t len, size_t use,
			int member, const char **why)
{
	const char *f = use < m->code.n ? m->func[use] : NULL;
	struct decls d;
	unsigned int kinds;
	int sure;

	read_decls(m, name, len, f, &d);
	if (member)
		kinds = d.field, sure = 0, *why = "every member of that name the file declares is a pointer";
	else if (f && d.here)
		kinds = d.here, sure = 1, *why = "the function declares it a pointer";
	else if (f)
		kinds = d.global, sure = 0, *why = "a pointer the file declares at file scope";
	else
		kinds = d.any, sure = 0, *why = "every declaration of it in the file is a pointer's";
	if (!kinds || (kinds & 1u << D_TYPE))
		return -1;
	if (POINTER(kinds) && !(kinds & 1u << D_PLAIN))
		return 1;
	if (ONLY(kinds, D_PLAIN) && (sure || ONLY(d.any, D_PLAIN)))
		return 0;
	return -1;
}

/* Is @name a parameter of the function-like macro whose #define line is @s? */
static int macro_param(const struct model *m, const struct span *s, const char *name, size_t len)
{
	size_t i;

	if (s == &m->code || !s_is(m, s, 1, "define") || !s_is(m, s, 3, "(") || GAP(T(m, s, 3)))
		return 0;
	for (i = 4; i < s->n && !s_is(m, s, i, ")"); i++) {
		const struct token *k = T(m, s, i);

		if (k->kind == K_WORD && k->len == len && !memcmp(m->lx.t + k->off, name, len))
			return 1;
	}
	return 0;
}

/*
 * The end of the unary expression that starts at @b (before @e): prefix
 * operators and casts, a primary (a name, a literal, a parenthesized
 * expression, sizeof), then postfix ones (->NAME, .NAME, [...], (...),
 * ++, --).  What follows it, if anything, is a binary operator: the
 * expression is arithmetic on the unary one.
 */
static size_t unary_end(const struct model *m, const struct span *s, size_t b, size_t e)
{
	static const char *const prefix[] = { "&", "*", "-", "+", "!", "~", "++", "--", NULL };
	size_t k;

	for (;;) {
		for (k = 0; prefix[k] && !s_is(m, s, b, prefix[k]); k++)
			;
		if (!prefix[k] && !s_is(m, s, b, "sizeof"))
			break;
		b++;
	}
	if (b >= e)
		return e;
	if (s_is(m, s, b, "(")) {
		size_t c = s_close(m, s, b);

		if (c >= e)
			return e;
		/* "(T *)x": a cast, then the unary expression it applies to */
		if (c + 1 < e && (s_word(m, s, c + 1) || s_is(m, s, c + 1, "(") ||
				  s_is(m, s, c + 1, "&") || s_is(m, s, c + 1, "*")))
			return unary_end(m, s, c + 1, e);
		b = c + 1;
	} else {
		b++;
	}
	while (b < e) {
		if ((s_is(m, s, b, "->") || s_is(m, s, b, ".")) && s_word(m, s, b + 1))
			b += 2;
		else if (s_is(m, s, b, "[") || s_is(m, s, b, "("))
			b = s_close(m, s, b) + 1;
		else if (s_is(m, s, b, "++") || s_is(m, s, b, "--"))
			b++;
		else
			break;
	}
	return b < e ? b : e;
}

/*
 * An argument "(I)P", "(I)(I2)P", "(I)&E": 1 when P is visibly a
 * pointer (*@why says how the text shows it), -1 when it is a cast whose
 * operand may be one, 0 for no cast.
 */
static int int_cast(const struct model *m, const struct span *s, size_t b, size_t e,
		    const char **why)
{
	size_t c, i, casts = 0;
	int wide[3];

	while (b < e && s_is(m, s, b, "(") && casts < 3) {
		char type[128];
		size_t n = 0;

		c = s_close(m, s, b);
		if (c >= e || c == b + 1)
			break;
		for (i = b + 1; i < c && int_word(m, s, i); i++) {
			const struct token *k = T(m, s, i);

			if (s_is(m, s, i, "const") || s_is(m, s, i, "volatile"))
				continue;
			if (n + k->len + 2 > sizeof(type))
				break;
			if (n)
				type[n++] = ' ';
			memcpy(type + n, m->lx.t + k->off, k->len);
			n += k->len;
		}
		if (i != c)
			break;
		type[n] = '\0';
		wide[casts] = vocab_int_cast(type);
		if (wide[casts] < 0)
			break;
		casts++;
		b = c + 1;
	}
	/* the shapes of the cast rule: (I)P, and (I)(I2)P with a wide I2 */
	if (!casts || casts > 2 || (casts == 2 && !wide[1]) || b >= e)
		return 0;
	/* "(I)x << 10", "(I)n / 2": arithmetic on the cast, not the shape */
	if (unary_end(m, s, b, e) < e)
		return 0;
	/* "(I)(x->y)": the operand in parentheses */
	while (b + 2 < e && s_is(m, s, b, "(") && s_close(m, s, b) == e - 1) {
		b++;
		e--;
	}
	*why = "its address is taken (&)";
	if (s_is(m, s, b, "&"))
		return 1;
	/* NAME, X->NAME, X.NAME: as NAME is declared in the file */
	if (s_word(m, s, e - 1) && (b + 1 == e || s_is(m, s, e - 2, "->") || s_is(m, s, e - 2, "."))) {
		const struct token *k = T(m, s, e - 1);

		switch (macro_param(m, s, m->lx.t + k->off, k->len) ? -1 :
			pointer_name(m, m->lx.t + k->off, k->len, code_index(m, s->ix[e - 1]),
				     b + 1 != e, why)) {
		case 1:
			return 1;
		case 0:
			return 0;
		}
	}
	return -1;
}

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

static void call_free(struct lex_call *c);

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

static void find_calls(struct model *m, const struct span *s, const char *where, struct lex_file *out)
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
		} else if (!where && a[fn->fmt][1] == a[fn->fmt][0] + 1 && s_word(m, s, a[fn->fmt][0])) {
			alts_free(&alts);
			c.opaque = variable_alts(m, a[fn->fmt][0], 0, &alts);
		} else if (!where && s_word(m, s, a[fn->fmt][0]) && s_is(m, s, a[fn->fmt][0] + 1, "[") &&
			   s_close(m, s, a[fn->fmt][0] + 1) == a[fn->fmt][1] - 1) {
			/* fmts[i]: an element of an array of formats */
			alts_free(&alts);
			c.opaque = variable_alts(m, a[fn->fmt][0], 1, &alts);
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

/* Read @buf into @m: tokens, code and directive lines (*@dirs), functions, scopes. */
static size_t model_read(struct model *m, const char *buf, size_t len, struct span **dirs)
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
static void model_free(struct model *m, struct span *dirs, size_t ndirs)
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

static void call_free(struct lex_call *c)
{
	size_t k;

	{
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
			free(c->fn->name);
			free(c->fn->origin);
			free(c->fn->path);
			free((struct lex_fn *)c->fn);
		}
	}
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
