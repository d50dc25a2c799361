// SPDX-License-Identifier: GPL-2.0
/*
 * prefilter_same: can a change to a file change what the rules report?
 *
 * The gate (gate.c) runs no rule on a file whose patches provably leave
 * its findings as they are: prefilter_same_findings() compares the text
 * before and after, top-level piece by piece, and asks of every function
 * body that changed that it be quiet (it holds nothing a rule reports)
 * or that the change only adds or removes inert statements.  It reads
 * the text as prefilter.c does (prefilter_impl.h), and asks the lexical
 * model, through struct pf_judge, about the calls it cannot name.
 */
#include <stdlib.h>
#include <string.h>

#include "prefilter.h"
#include "prefilter_impl.h"
#include "vocab.h"
#include "ptrguard.h"

/*
 * A seq-output function of scripts/vocab.def, a writer without a format,
 * or a wrapper the rules were given: named other than in a call (a
 * function pointer, a macro's argument), it may print through a path no
 * call shows.
 */
static int output_name(const char *w, size_t len)
{
	size_t i;

	if (vocab_io(w, len) || pf_is_wrapper(w, len))
		return 1;
	for (i = 0; i < vocab_nseq_outputs; i++)
		if (pf_is_word(w, len, vocab_seq_outputs[i].name))
			return 1;
	return 0;
}

/*
 * Words a rule reads wherever they are in the file, not only in the
 * function of the call it reports: a typedef (spatch parses the rest of
 * the file by it); __user (seq_px.cocci's pg_user_name() looks for a
 * "__user *NAME" declaration anywhere); and the privilege checks of
 * seq_px.cocci's gate rules (scripts/vocab.def's PG_PRIV_CHECK and
 * PG_PRIV_VAR), one of which, gatefield, matches "X->fld = <+... chk(...)
 * ...+>" in any function (kallsyms_open() for s_show()'s %px).
 */
static int global_word(const char *w, size_t len)
{
	return pf_is_word(w, len, "typedef") || pf_is_word(w, len, "__user") ||
		vocab_priv_name(w, len);
}

/*
 * The top-level pieces of a C text, for prefilter_same_findings(): each
 * declaration up to its ';', each function definition up to its closing
 * brace, each preprocessor line at file scope.
 */
struct chunk {
	size_t start, body, end;	/* body: its '{' if a function, else 0 */
	int global;	/* a word a rule reads file-wide (global_word()) */
	int calls;	/* a call of a name with seq/SEQ or of a wrapper */
	/* a seq-output function or wrapper named other than in a call */
	int named;
};

struct chunks {
	struct chunk *v;
	size_t n, alloc;
	int bad;	/* unbalanced: the text is not read as chunks */
};

static void chunk_add(struct chunks *c, const struct chunk *k)
{
	if (c->n == c->alloc) {
		c->alloc = c->alloc ? 2 * c->alloc : 64;
		c->v = xrealloc(c->v, c->alloc * sizeof(*c->v));
	}
	c->v[c->n++] = *k;
}

/* Is @i the first non-blank byte of its line? */
static int line_start(const char *t, size_t i)
{
	while (i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
		i--;
	return i == 0 || t[i - 1] == '\n';
}

/*
 * The tokens of the proof's reading: words, literals, punctuators, and a
 * directive line as one token (comments and blanks skipped).
 */
enum { TK_END, TK_WORD, TK_STRING, TK_CHAR, TK_PUNCT, TK_DIRECTIVE };

struct tok {
	int kind;
	size_t start, len;
};

/* Punctuators of more than one byte, longest first. */
static const char *const puncts[] = {
	">>=", "<<=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
	"&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
};

/* The token of @s at or after @i, before @end, in @tk; the place after it. */
static size_t next_token(const struct pf_text *s, size_t i, size_t end, struct tok *tk)
{
	const char *t = s->t;
	size_t j, k, l;

	i = pf_skip_blank(s->t, s->n, i);
	tk->start = i;
	tk->len = 0;
	tk->kind = TK_END;
	if (i >= end)
		return end;
	if (t[i] == '#' && line_start(t, i)) {
		for (j = i; j < end && t[j] != '\n'; j++)
			;
		tk->kind = TK_DIRECTIVE;
	} else if (t[i] == '"') {
		for (j = i + 1; j < end && t[j] != '"' && t[j] != '\n'; j++)
			if (t[j] == '\\' && j + 1 < end && t[j + 1] != '\n')
				j++;
		j = j < end && t[j] == '"' ? j + 1 : j;
		tk->kind = TK_STRING;
	} else if (t[i] == '\'' && (j = pf_char_literal(s->t, s->n, i)) && j <= end) {
		tk->kind = TK_CHAR;
	} else if (pf_word_byte((unsigned char)t[i])) {
		for (j = i; j < end && pf_word_byte((unsigned char)t[j]); j++)
			;
		tk->kind = TK_WORD;
	} else {
		j = i + 1;
		for (k = 0; k < sizeof(puncts) / sizeof(puncts[0]); k++) {
			l = strlen(puncts[k]);
			if (i + l <= end && !memcmp(t + i, puncts[k], l)) {
				j = i + l;
				break;
			}
		}
		tk->kind = TK_PUNCT;
	}
	tk->len = j - i;
	return j;
}

static int is_punct(const struct pf_text *s, const struct tok *tk, const char *p)
{
	return tk->kind == TK_PUNCT && pf_is_word(s->t + tk->start, tk->len, p);
}

static void split_chunks(const struct pf_text *s, struct chunks *c)
{
	struct chunk k = { 0 };
	struct tok tk;
	size_t i = 0, braces = 0, parens = 0;
	int prev = 0, func = 0, open = 0;	/* prev: the last byte read */
	int tag = 0;	/* the last word was struct, union or enum */
	const char *w;

	for (;;) {
		i = next_token(s, i, s->n, &tk);
		if (tk.kind == TK_END)
			break;
		if (!open) {
			memset(&k, 0, sizeof(k));
			k.start = tk.start;
			open = 1;
		}
		w = s->t + tk.start;
		switch (tk.kind) {
		case TK_DIRECTIVE:
			/* at file scope, a chunk of its own */
			if (!braces && !parens && k.start == tk.start) {
				k.end = i;
				chunk_add(c, &k);
				open = 0;
			}
			continue;
		case TK_WORD:
			/* a seq call (a type like struct seq_file is no call) */
			if (global_word(w, tk.len))
				k.global = 1;
			else if (s->t[pf_skip_blank(s->t, s->n, i)] == '(')
				k.calls |= pf_has_seq(w, tk.len);
			else if (!tag && output_name(w, tk.len))
				k.named = 1;
			tag = pf_is_word(w, tk.len, "struct") || pf_is_word(w, tk.len, "union") ||
			      pf_is_word(w, tk.len, "enum");
			prev = 'a';
			continue;
		case TK_STRING:
		case TK_CHAR:
			prev = *w;
			continue;
		}
		switch (tk.len == 1 ? *w : 0) {
		case '(':
			parens++;
			break;
		case ')':
			if (!parens)
				c->bad = 1;
			else
				parens--;
			break;
		case '{':
			if (!braces && !parens) {
				func = prev == ')';
				if (func)
					k.body = tk.start;
			}
			braces++;
			break;
		case '}':
			if (!braces) {
				c->bad = 1;
				break;
			}
			if (!--braces && !parens && func) {
				k.end = i;
				chunk_add(c, &k);
				open = 0;
				prev = 0;
				func = 0;
				continue;
			}
			break;
		case ';':
			if (!braces && !parens) {
				k.end = i;
				chunk_add(c, &k);
				open = 0;
				prev = 0;
				continue;
			}
			break;
		}
		prev = (unsigned char)w[tk.len - 1];
	}
	if (open) {
		k.end = s->n;
		chunk_add(c, &k);
	}
	if (braces || parens)
		c->bad = 1;
}

static int same_text(const struct pf_text *a, const struct chunk *x,
		     const struct pf_text *b, const struct chunk *y)
{
	return x->end - x->start == y->end - y->start &&
	       !memcmp(a->t + x->start, b->t + y->start, x->end - x->start);
}

/* The next directive line of t[*i..n), or 0 when there is none left. */
static size_t next_directive(const char *t, size_t n, size_t *i, const char **line)
{
	size_t j;

	while (*i < n) {
		for (j = *i; j < n && (t[j] == ' ' || t[j] == '\t'); j++)
			;
		*line = t + j;
		while (j < n && t[j] != '\n')
			j++;
		if (*line < t + j && **line == '#') {
			size_t len = t + j - *line;

			*i = j;
			return len;
		}
		*i = j + 1;
	}
	return 0;
}

/* Do two texts hold the same preprocessor lines, in the same order? */
static int same_directives(const char *x, size_t xn, const char *y, size_t yn)
{
	size_t i = 0, j = 0, a, b;
	const char *p, *q;

	do {
		a = next_directive(x, xn, &i, &p);
		b = next_directive(y, yn, &j, &q);
		if (a != b || memcmp(p, q, a))
			return 0;
	} while (a);
	return 1;
}

/*
 * The 1-based line of @t (@n bytes as written) that holds byte @at of its
 * spliced text (pf_splice(): backslash-newlines removed, which the lines
 * the lexical model counts keep).
 */
static unsigned int written_line(const char *t, size_t n, size_t at)
{
	size_t i = 0, seen = 0, k;
	unsigned int line = 1;

	while (i < n && seen < at) {
		k = pf_splice_len(t, n, i);
		if (k) {
			i += k;
			line++;
		} else {
			line += t[i++] == '\n';
			seen++;
		}
	}
	return line;
}

/*
 * A function in whose text no rule can report or start anything: no word
 * a rule reads file-wide, no seq-output function or wrapper named other
 * than in a call, nothing prefilter_scan() reports, no field assigned an
 * integer cast (the cast rule's field facts reach every function that
 * prints the field), and its calls - of seq functions, and of the
 * wrappers the file defines, which only the lexical model knows - print
 * nothing a rule reports, as @j says of them (its reading of text @which,
 * @t of @n bytes as written, lines @first..@last).  Without @j, any call
 * of a name holding seq is reason enough to let the rules run.
 */
static int quiet_function(const struct pf_text *s, const struct chunk *k, const char *t, size_t n,
			  const struct pf_judge *j, int which)
{
	int field = 0;

	if (!k->body || k->global || k->named ||
	    pf_scan_text(s->t + k->start, k->end - k->start, 0, &field) || field)
		return 0;
	if (!j)
		return !k->calls;
	return j->quiet_calls(j->ctx, which, written_line(t, n, k->start),
			      written_line(t, n, k->end - 1), 0);
}

/*
 * An edit of a function that prints: inert_edit().
 *
 * quiet_function() gives up on a function whose own calls hold something
 * a rule reports (m_show()'s %px): the rules must run on it, before and
 * after.  Yet a rule reports such a call by its format, its arguments and
 * what the function says of them - a pointer cast assigned to a local, a
 * privilege check in a condition or in a variable, a declaration's type.
 * A statement that declares only names the rest of the function never
 * uses, or that only reads, and calls nothing that prints, changes none
 * of that.  So the bodies are cut into statements (units), the common
 * head and tail of the two lists are put aside, and every statement in
 * between, before and after, must be such a statement.
 */
/* A statement of a function body, known by its tokens (blanks and comments aside). */
struct unit {
	size_t start, end;	/* its text in the spliced text */
	size_t key, klen;	/* its tokens joined by blanks, in units.keys */
};

struct units {
	struct unit *v;
	size_t n, alloc;
	char *keys;
	size_t klen, kalloc;
};

static void key_add(struct units *u, const char *p, size_t len)
{
	if (u->klen + len > u->kalloc) {
		u->kalloc = 2 * (u->klen + len);
		u->keys = xrealloc(u->keys, u->kalloc);
	}
	memcpy(u->keys + u->klen, p, len);
	u->klen += len;
}

/*
 * Cut s->t[@from, @to), a function's body inside its braces, into units:
 * each statement or declaration up to its ';', and each '{' or '}' with
 * what comes before it ("if (x) {"), outside parentheses and brackets;
 * each directive line alone.
 */
static void split_units(const struct pf_text *s, size_t from, size_t to, struct units *u)
{
	struct tok tk;
	struct unit *cur = NULL;
	size_t i = from, depth = 0;
	char c;

	for (;;) {
		i = next_token(s, i, to, &tk);
		if (tk.kind == TK_END)
			break;
		if (cur && tk.kind == TK_DIRECTIVE) {
			cur->klen = u->klen - cur->key;
			cur = NULL;
		}
		if (!cur) {
			if (u->n == u->alloc) {
				u->alloc = u->alloc ? 2 * u->alloc : 32;
				u->v = xrealloc(u->v, u->alloc * sizeof(*u->v));
			}
			cur = &u->v[u->n++];
			cur->start = tk.start;
			cur->key = u->klen;
		} else {
			key_add(u, " ", 1);
		}
		key_add(u, s->t + tk.start, tk.len);
		cur->end = i;
		c = tk.kind == TK_PUNCT && tk.len == 1 ? s->t[tk.start] : 0;
		if (c == '(' || c == '[')
			depth++;
		else if ((c == ')' || c == ']') && depth)
			depth--;
		if (tk.kind == TK_DIRECTIVE || (!depth && (c == ';' || c == '{' || c == '}'))) {
			cur->klen = u->klen - cur->key;
			cur = NULL;
		}
	}
	if (cur)
		cur->klen = u->klen - cur->key;
}

static int same_unit(const struct units *a, size_t i, const struct units *b, size_t j)
{
	const struct unit *x = &a->v[i], *y = &b->v[j];

	return x->klen == y->klen && !memcmp(a->keys + x->key, b->keys + y->key, x->klen);
}

/* The words of a text, sorted, to ask whether a name is used there. */
struct words {
	struct word { const char *w; size_t len; } *v;
	size_t n, alloc;
};

static int word_cmp(const void *a, const void *b)
{
	const struct word *x = a, *y = b;
	int c = memcmp(x->w, y->w, x->len < y->len ? x->len : y->len);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Add the words of s->t[@from, @to), those of directive lines too. */
static void words_add(const struct pf_text *s, size_t from, size_t to, struct words *ws)
{
	struct tok tk;
	size_t i = from, k, w;

	for (;;) {
		i = next_token(s, i, to, &tk);
		if (tk.kind == TK_END)
			break;
		if (tk.kind != TK_WORD && tk.kind != TK_DIRECTIVE)
			continue;
		for (k = tk.start; k < tk.start + tk.len;) {
			if (!pf_word_byte((unsigned char)s->t[k])) {
				k++;
				continue;
			}
			for (w = k; k < tk.start + tk.len && pf_word_byte((unsigned char)s->t[k]); k++)
				;
			if (ws->n == ws->alloc) {
				ws->alloc = ws->alloc ? 2 * ws->alloc : 64;
				ws->v = xrealloc(ws->v, ws->alloc * sizeof(*ws->v));
			}
			ws->v[ws->n++] = (struct word){ s->t + w, k - w };
		}
	}
}

static int used(const struct words *ws, const char *w, size_t len)
{
	struct word key = { w, len };

	return bsearch(&key, ws->v, ws->n, sizeof(*ws->v), word_cmp) != NULL;
}

static int is_one_of(const char *w, size_t len, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pf_is_word(w, len, list[i]))
			return 1;
	return 0;
}

/* Words that steer control: a statement holding one is never inert. */
static const char *const flow_words[] = {
	"if", "else", "for", "while", "do", "switch", "case", "default", "return",
	"goto", "break", "continue", "asm", "__asm", "__asm__",
};

/* Words of a declaration's type that name no type (a name may follow). */
static const char *const qualifiers[] = {
	"const", "volatile", "static", "extern", "register", "auto", "restrict",
	"__restrict", "__iomem", "__rcu", "__percpu", "__maybe_unused", "__always_unused",
};

/* Words of a declaration's type that name one (a name follows). */
static const char *const type_words[] = {
	"void", "char", "short", "int", "long", "float", "double", "signed",
	"unsigned", "_Bool",
};

#define UNIT_TOKENS 256
#define N(list) (sizeof(list) / sizeof((list)[0]))

/*
 * Does the declaration tk[0..@n) (its ';' not counted) declare only
 * names @common does not hold, each with a plain declarator ("*p", "a[N]",
 * "(*fn)(...)") and an initializer that assigns nothing?  The first
 * declarator's type may end in one name that is not a C word: a typedef's.
 */
static int fresh_declaration(const struct pf_text *s, const struct tok *tk, size_t n,
			     const struct words *common)
{
	size_t i, parens = 0, brackets = 0;
	int first = 1, typed = 0, tag = 0, init = 0, named = 0;

	for (i = 0; i < n; i++) {
		const char *w = s->t + tk[i].start;
		size_t len = tk[i].len;

		if (tk[i].kind == TK_PUNCT && len == 1) {
			switch (*w) {
			case '(':
				/* a declarator's parentheses hold a "*": (*fn) */
				if (!init && !brackets && !parens &&
				    (i + 1 == n || !is_punct(s, &tk[i + 1], "*")))
					return 0;
				parens++;
				continue;
			case '[':
				brackets++;
				continue;
			case ')':
				parens -= !!parens;
				continue;
			case ']':
				brackets -= !!brackets;
				continue;
			case ',':
				if (parens || brackets)
					continue;
				if (!named)
					return 0;
				first = init = named = 0;
				continue;
			case '=':
				if (parens || brackets || init)
					return 0;
				init = 1;
				continue;
			}
		}
		if (tk[i].kind != TK_WORD || init || brackets)
			continue;	/* the initializer and array sizes are read */
		if (first && !parens && is_one_of(w, len, qualifiers, N(qualifiers)))
			continue;
		if (first && !parens && is_one_of(w, len, type_words, N(type_words))) {
			typed = 1;
			continue;
		}
		if (first && !parens && (pf_is_word(w, len, "struct") || pf_is_word(w, len, "union") ||
					 pf_is_word(w, len, "enum"))) {
			tag = 1;
			continue;
		}
		if (tag || (first && !typed && !parens)) {
			tag = 0;
			typed = 1;	/* a tag, or a typedef's name */
			continue;
		}
		if (used(common, w, len))
			return 0;
		named = 1;
	}
	return named;
}

/*
 * Is the statement s->t[@from, @to) inert: a declaration of names
 * @common does not hold, or an expression that assigns nothing and
 * takes the address of no name of @common, neither steering control (no
 * if, return, goto, label, "?:", braces) nor naming what the rules read
 * (a seq-output function or wrapper, a writer, a privilege check,
 * __user, typedef), with no literal a rule reports and no field
 * assigned a cast?
 */
static int inert_unit(const struct pf_text *s, size_t from, size_t to, const struct words *common)
{
	struct tok tk[UNIT_TOKENS];
	size_t n, i = from, assigns = 0;
	int field = 0;

	for (n = 0; n < UNIT_TOKENS; n++) {
		i = next_token(s, i, to, &tk[n]);
		if (tk[n].kind == TK_END)
			break;
	}
	if (n == UNIT_TOKENS || !n || !is_punct(s, &tk[n - 1], ";"))
		return 0;
	for (i = 0; i < n; i++) {
		const char *w = s->t + tk[i].start;
		size_t len = tk[i].len;

		if (tk[i].kind == TK_DIRECTIVE)
			return 0;
		if (tk[i].kind == TK_WORD &&
		    (is_one_of(w, len, flow_words, N(flow_words)) || global_word(w, len) ||
		     pf_has_seq(w, len) || output_name(w, len)))
			return 0;
		if (tk[i].kind != TK_PUNCT)
			continue;
		if (len == 1 && strchr("{}?:#", *w))
			return 0;
		/*
		 * &v of a name the function uses: the held rules' paths end
		 * at it ("when != &v"), a callee may write through it
		 */
		if (len == 1 && *w == '&' && i + 1 < n &&
		    (is_punct(s, &tk[i + 1], "(") ||
		     (tk[i + 1].kind == TK_WORD &&
		      used(common, s->t + tk[i + 1].start, tk[i + 1].len))))
			return 0;
		/* ++, --, ##, and every assignment but a plain "=" */
		if ((len == 2 && (w[0] == w[1]) && strchr("+-#", *w)) ||
		    (len > 1 && w[len - 1] == '=' && !(len == 2 && strchr("=!<>", *w))))
			return 0;
		assigns += len == 1 && *w == '=';
	}
	if (pf_scan_text(s->t + from, to - from, 0, &field) || field)
		return 0;
	/* "T x", "T *x", "const T x": a declaration, whatever T is */
	if (tk[0].kind == TK_WORD && n > 2 &&
	    (tk[1].kind == TK_WORD || is_punct(s, &tk[1], "*") ||
	     is_one_of(s->t + tk[0].start, tk[0].len, type_words, N(type_words))))
		return fresh_declaration(s, tk, n - 1, common);
	if (assigns)
		return 0;
	/* "f(x);" may declare x when f is a type: only a fresh x then */
	if (tk[0].kind == TK_WORD && n > 2 && is_punct(s, &tk[1], "(") &&
	    (is_punct(s, &tk[2], "*") ||
	     (n == 5 && tk[2].kind == TK_WORD && used(common, s->t + tk[2].start, tk[2].len))))
		return 0;
	return 1;
}

/*
 * Can no rule tell the bodies of function chunks @x (of @b, written as
 * @bt, @bn bytes) and @y (of @a, @at, @an) apart?  True if every
 * statement between their common first and last statements is inert
 * (inert_unit()) against the words of those and of the head, and the
 * lexical model (@j) finds no call in its lines: a wrapper the file
 * defines is a call of it.
 */
static int inert_edit(const struct pf_text *b, const struct chunk *x, const char *bt, size_t bn,
		      const struct pf_text *a, const struct chunk *y, const char *at, size_t an,
		      const struct pf_judge *j)
{
	struct units ub = { 0 }, ua = { 0 };
	struct words common = { 0 };
	size_t p = 0, q = 0, i, k;
	int ret = 0;

	if (!j || !x->body || !y->body)
		return 0;
	split_units(b, x->body + 1, x->end - 1, &ub);
	split_units(a, y->body + 1, y->end - 1, &ua);
	while (p < ub.n && p < ua.n && same_unit(&ub, p, &ua, p))
		p++;
	while (q < ub.n - p && q < ua.n - p && same_unit(&ub, ub.n - 1 - q, &ua, ua.n - 1 - q))
		q++;
	words_add(b, x->start, x->body, &common);
	for (i = 0; i < p; i++)
		words_add(b, ub.v[i].start, ub.v[i].end, &common);
	for (i = ub.n - q; i < ub.n; i++)
		words_add(b, ub.v[i].start, ub.v[i].end, &common);
	if (common.n)
		qsort(common.v, common.n, sizeof(*common.v), word_cmp);
	for (k = 0; k < 2; k++) {
		const struct pf_text *s = k ? a : b;
		const struct units *u = k ? &ua : &ub;
		const char *t = k ? at : bt;
		size_t n = k ? an : bn;

		for (i = p; i < u->n - q; i++)
			if (!inert_unit(s, u->v[i].start, u->v[i].end, &common) ||
			    !j->quiet_calls(j->ctx, (int)k, written_line(t, n, u->v[i].start),
					    written_line(t, n, u->v[i].end - 1), 1))
				goto out;
	}
	ret = 1;
out:
	free(ub.v);
	free(ub.keys);
	free(ua.v);
	free(ua.keys);
	free(common.v);
	return ret;
}

int prefilter_same_findings(const char *before, size_t blen,
			    const char *after, size_t alen, const struct pf_judge *j)
{
	struct pf_text b = { 0 }, a = { 0 };
	struct chunks cb = { 0 }, ca = { 0 };
	char *spliced_b, *spliced_a;
	size_t i;
	int ret = 0;

	spliced_b = pf_splice(before, blen, 0, &b.n);
	spliced_a = pf_splice(after, alen, 0, &a.n);
	b.t = spliced_b ? spliced_b : before;
	a.t = spliced_a ? spliced_a : after;
	split_chunks(&b, &cb);
	split_chunks(&a, &ca);
	if (cb.bad || ca.bad || cb.n != ca.n)
		goto out;
	for (i = 0; i < cb.n; i++) {
		const struct chunk *x = &cb.v[i], *y = &ca.v[i];

		if (same_text(&b, x, &a, y))
			continue;
		if ((!quiet_function(&b, x, before, blen, j, 0) ||
		     !quiet_function(&a, y, after, alen, j, 1)) &&
		    !inert_edit(&b, x, before, blen, &a, y, after, alen, j))
			goto out;
		if (x->body - x->start != y->body - y->start ||
		    memcmp(b.t + x->start, a.t + y->start, x->body - x->start))
			goto out;
		if (!same_directives(b.t + x->start, x->end - x->start,
				     a.t + y->start, y->end - y->start))
			goto out;
	}
	ret = 1;
out:
	free(cb.v);
	free(ca.v);
	free(spliced_b);
	free(spliced_a);
	return ret;
}
