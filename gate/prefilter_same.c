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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cocci/prefilter.h"
#include "cocci/prefilter_impl.h"
#include "model/vocab.h"
#include "lib/ptrguard.h"

/*
 * A seq-output function of model/vocab.def, a writer without a format,
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
 * the file by it); __user (lex.c reads a "__user *NAME" declaration of
 * a file-scope variable or a struct member in every function, and of
 * any name in a fact of spatch's whose function it does not know); and
 * the privilege checks of seq_px.cocci's gate rules (model/vocab.def's PG_PRIV_CHECK and
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

/* Punctuators of more than one byte, longest first; digraphs too. */
static const char *const puncts[] = {
	">>=", "<<=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
	"&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##",
	"<%", "%>", "<:", ":>", "%:",
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
		/* most punctuators are one byte: the first byte sorts them out */
		for (k = 0; k < sizeof(puncts) / sizeof(puncts[0]) && i + 1 < end; k++) {
			if (puncts[k][0] != t[i] || puncts[k][1] != t[i + 1])
				continue;
			l = puncts[k][2] ? 3 : 2;
			if (l == 2 || (i + 2 < end && puncts[k][2] == t[i + 2])) {
				j = i + l;
				break;
			}
		}
		tk->kind = TK_PUNCT;
	}
	tk->len = j - i;
	return j;
}

/*
 * The punctuator @tk as one byte ('{' for "<%" too: a digraph is the
 * same token to C), or 0 if it is none of one byte.
 */
static int punct_char(const struct pf_text *s, const struct tok *tk)
{
	static const char digraphs[][3] = { "<%{", "%>}", "<:[", ":>]", "%:#" };
	const char *w = s->t + tk->start;
	size_t i;

	if (tk->kind != TK_PUNCT)
		return 0;
	if (tk->len == 1)
		return (unsigned char)*w;
	for (i = 0; tk->len == 2 && i < sizeof(digraphs) / sizeof(digraphs[0]); i++)
		if (!memcmp(w, digraphs[i], 2))
			return digraphs[i][2];
	return 0;
}

/* Does the word @w name a tag: struct, union or enum? */
static int is_tag_word(const char *w, size_t len)
{
	return pf_is_word(w, len, "struct") || pf_is_word(w, len, "union") ||
	       pf_is_word(w, len, "enum");
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
			tag = is_tag_word(w, tk.len);
			prev = 'a';
			continue;
		case TK_STRING:
		case TK_CHAR:
			/* a string left open: spatch and GCC read on */
			if (tk.kind == TK_STRING && (tk.len < 2 || w[tk.len - 1] != '"'))
				c->bad = 1;
			prev = *w;
			continue;
		}
		/*
		 * An apostrophe that opens no character literal as
		 * pf_char_literal() reads one ('a"b', or longer than it
		 * looks): lex.c, spatch and GCC read one there, and the
		 * text after it differs between them and this reading
		 */
		if (punct_char(s, &tk) == '\'')
			c->bad = 1;
		switch (punct_char(s, &tk)) {
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
 * Where a reading of @t (@n bytes as written) has got to: byte @i of it,
 * byte @seen of its spliced text (splice(): backslash-newlines removed,
 * which the lines the lexical model counts keep), line @line.
 */
struct line_cursor {
	const char *t;
	size_t n, i, seen;
	unsigned int line;
};

static void line_cursor_init(struct line_cursor *c, const char *t, size_t n)
{
	*c = (struct line_cursor){ t, n, 0, 0, 1 };
}

/*
 * The 1-based written line that holds byte @at of the spliced text; @at
 * never goes back, so each text is read once however many lines are asked.
 */
static unsigned int written_line(struct line_cursor *c, size_t at)
{
	size_t k;

	while (c->i < c->n && c->seen < at) {
		k = pf_splice_len(c->t, c->n, c->i);
		if (k) {
			c->i += k;
			c->line++;
		} else {
			c->line += c->t[c->i++] == '\n';
			c->seen++;
		}
	}
	return c->line;
}

/* The written lines of chunk @k of @t (@n bytes as written): *@first..the result. */
static unsigned int chunk_lines(const char *t, size_t n, const struct chunk *k,
				unsigned int *first)
{
	struct line_cursor c;

	line_cursor_init(&c, t, n);
	*first = written_line(&c, k->start);
	return written_line(&c, k->end - 1);
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
	unsigned int first, last;
	int field = 0;

	if (!k->body || k->global || k->named ||
	    pf_scan_text(s->t + k->start, k->end - k->start, 0, &field) || field)
		return 0;
	if (!j)
		return !k->calls;
	last = chunk_lines(t, n, k, &first);
	return j->quiet_calls(j->ctx, which, first, last, 0);
}

/*
 * An edit of a function that prints: inert_edit().
 *
 * quiet_function() gives up on a function whose own calls hold something
 * a rule reports (m_show()'s %px): the rules must run on it, before and
 * after.  Yet a rule reports such a call by its format, its arguments and
 * what the text says of them - a declaration's type, a cast assigned to
 * a local or a field, a privilege check in a condition or a variable -
 * and the lexical model, for lines spatch cannot parse, reads the
 * declarations of the whole file.  A simple statement whose every name
 * is new to the file (but the functions it calls and the members it
 * reads), that assigns nothing but a declaration's initializer and is
 * plain C that spatch parses, changes none of that.  So the bodies are
 * cut into statements (units), the statements the two share at their
 * start and end are put aside, and every statement in between, before
 * and after, must be such a statement.
 */

/* A statement of a function body, known by its tokens (blanks and comments aside). */
struct unit {
	size_t start, end;	/* its text in the spliced text */
	size_t key, klen;	/* its tokens, each ended by a newline, in units.keys */
	int whole;		/* ended by ';', '{' or '}', not cut by a directive */
	int directive;
};

struct units {
	struct unit *v;
	size_t n, alloc;
	char *keys;
	size_t klen, kalloc;
};

static void key_add(struct units *u, const char *p, size_t len)
{
	if (u->klen + len + 1 > u->kalloc) {
		u->kalloc = 2 * (u->klen + len + 1);
		u->keys = xrealloc(u->keys, u->kalloc);
	}
	memcpy(u->keys + u->klen, p, len);
	u->klen += len;
	/* no token holds a newline: "a b" and "a" "b" are two keys */
	u->keys[u->klen++] = '\n';
}

/*
 * Cut s->t[@from, @to), a function's body inside its braces, into units:
 * each statement or declaration up to its ';', and each '{' or '}' with
 * what comes before it ("if (x) {"), outside parentheses and brackets;
 * each directive line alone, which also ends the unit it cuts.
 */
static void split_units(const struct pf_text *s, size_t from, size_t to, struct units *u)
{
	struct tok tk;
	struct unit *cur = NULL;
	size_t i = from, depth = 0;
	int c;

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
			memset(cur, 0, sizeof(*cur));
			cur->start = tk.start;
			cur->key = u->klen;
			cur->directive = tk.kind == TK_DIRECTIVE;
		}
		key_add(u, s->t + tk.start, tk.len);
		cur->end = i;
		c = punct_char(s, &tk);
		if (c == '(' || c == '[')
			depth++;
		else if ((c == ')' || c == ']') && depth)
			depth--;
		if (tk.kind == TK_DIRECTIVE || (!depth && (c == ';' || c == '{' || c == '}'))) {
			cur->whole = tk.kind != TK_DIRECTIVE;
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

	return ws->n && bsearch(&key, ws->v, ws->n, sizeof(*ws->v), word_cmp);
}

static int is_one_of(const char *w, size_t len, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (pf_is_word(w, len, list[i]))
			return 1;
	return 0;
}

/* Words of a type, and operators, that name nothing of the file. */
static const char *const c_words[] = {
	"void", "char", "short", "int", "long", "float", "double", "signed",
	"unsigned", "_Bool", "const", "volatile", "static", "register",
	"restrict", "__restrict", "struct", "union", "enum", "sizeof",
};

/* Punctuators a simple statement may hold: no "{}?:#", no ++, no op=. */
static const char *const plain_puncts[] = {
	"(", ")", "[", "]", ",", ";", "*", "&", "+", "-", "/", "%", "<", ">",
	"<=", ">=", "==", "!=", "&&", "||", "!", "~", "^", "|", ".", "->",
	"<<", ">>", "=",
};

/*
 * Is the token a word, number or literal spatch reads (not "0x1p3",
 * "1'000", "$x", "__attribute__", a string left open)?
 */
static int plain_token(const struct pf_text *s, const struct tok *tk)
{
	const char *w = s->t + tk->start;
	size_t i = 0;

	switch (tk->kind) {
	case TK_STRING:
		return tk->len >= 2 && w[tk->len - 1] == '"';
	case TK_CHAR:
		return 1;
	case TK_PUNCT:
		return is_one_of(w, tk->len, plain_puncts,
				 sizeof(plain_puncts) / sizeof(plain_puncts[0]));
	case TK_WORD:
		if (*w >= '0' && *w <= '9') {
			/* a decimal, octal or hexadecimal integer, U and L suffixes */
			if (tk->len > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'))
				for (i = 2; i < tk->len && strchr("0123456789abcdefABCDEF", w[i]); i++)
					;
			else
				while (i < tk->len && w[i] >= '0' && w[i] <= '9')
					i++;
			while (i < tk->len && strchr("uUlL", w[i]))
				i++;
			return i == tk->len;
		}
		for (i = 0; i < tk->len; i++)
			if (!((w[i] >= 'a' && w[i] <= 'z') || (w[i] >= 'A' && w[i] <= 'Z') ||
			      (w[i] >= '0' && w[i] <= '9') || w[i] == '_'))
				return 0;
		/*
		 * no reserved name but C's own: __attribute__, __int128 and
		 * _Alignas are C that spatch 1.1.1 does not parse
		 */
		return !(w[0] == '_' && tk->len > 1 && (w[1] == '_' || (w[1] >= 'A' && w[1] <= 'Z'))) ||
		       is_one_of(w, tk->len, c_words, sizeof(c_words) / sizeof(c_words[0]));
	default:
		return 0;
	}
}

/* Words that steer control: a statement holding one is never inert. */
static const char *const flow_words[] = {
	"if", "else", "for", "while", "do", "switch", "case", "default", "return",
	"goto", "break", "continue", "asm", "__asm", "__asm__",
};

#define UNIT_TOKENS 256
#define N(list) (sizeof(list) / sizeof((list)[0]))

/* A word, number or literal: what an operand is made of. */
static int operand_token(const struct tok *tk)
{
	return tk->kind == TK_WORD || tk->kind == TK_STRING || tk->kind == TK_CHAR;
}

static int is_number(const struct pf_text *s, const struct tok *tk)
{
	return tk->kind == TK_WORD && s->t[tk->start] >= '0' && s->t[tk->start] <= '9';
}

/*
 * Do tokens tk[@b, @e) make an expression the proof can read: names new
 * to the file (not in @common) but members after "->" or "." and
 * functions called; C type words only in a cast "(unsigned long)" or
 * after sizeof; no two operands side by side but after a cast and
 * adjacent string literals; no assignment?
 */
static int plain_expression(const struct pf_text *s, const struct tok *tk, size_t b, size_t e,
			    const struct words *common)
{
	size_t open[16], depth = 0, i, k;
	int type_group[16];

	for (i = b; i < e; i++) {
		const char *w = s->t + tk[i].start;
		size_t len = tk[i].len;
		int c = punct_char(s, &tk[i]), prev_word = i > b && tk[i - 1].kind == TK_WORD;

		if (c == '=')
			return 0;
		if (c == '(' || c == '[') {
			if (depth == sizeof(open) / sizeof(open[0]))
				return 0;
			/* "(type)" or "sizeof(type)": not a call's arguments */
			type_group[depth] = c == '(' &&
				(!prev_word || pf_is_word(s->t + tk[i - 1].start, tk[i - 1].len, "sizeof"));
			open[depth++] = i;
			continue;
		}
		if (c == ')' || c == ']') {
			if (!depth)
				return 0;
			depth--;
			/* an operand right after ")": only after a cast of C types */
			if (i + 1 < e && operand_token(&tk[i + 1])) {
				if (c != ')' || !type_group[depth] || i == open[depth] + 1)
					return 0;
				for (k = open[depth] + 1; k < i; k++)
					if (!(tk[k].kind == TK_WORD && is_one_of(s->t + tk[k].start, tk[k].len,
								       c_words, N(c_words))) &&
					    punct_char(s, &tk[k]) != '*')
						return 0;
			}
			continue;
		}
		if (!operand_token(&tk[i]))
			continue;
		/*
		 * two operands side by side: "a b", "x "s"" (adjacent literals
		 * and the words of a cast's type aside)
		 */
		if (i + 1 < e && operand_token(&tk[i + 1]) &&
		    !(tk[i].kind == TK_STRING && tk[i + 1].kind == TK_STRING) &&
		    !(depth && type_group[depth - 1] && tk[i + 1].kind == TK_WORD &&
		      is_one_of(w, len, c_words, N(c_words)) &&
		      is_one_of(s->t + tk[i + 1].start, tk[i + 1].len, c_words, N(c_words))))
			return 0;
		if (tk[i].kind != TK_WORD || is_number(s, &tk[i]))
			continue;
		if (is_one_of(w, len, c_words, N(c_words))) {
			/* a type word outside a cast: a declaration in disguise */
			if (!pf_is_word(w, len, "sizeof") && (!depth || !type_group[depth - 1]))
				return 0;
			continue;
		}
		if (i > b && (punct_char(s, &tk[i - 1]) == '.' ||
			      (tk[i - 1].kind == TK_PUNCT && tk[i - 1].len == 2 &&
			       !memcmp(s->t + tk[i - 1].start, "->", 2))))
			continue;	/* a member */
		if (i + 1 < e && punct_char(s, &tk[i + 1]) == '(')
			continue;	/* a function called */
		if (used(common, w, len))
			return 0;
	}
	return !depth;
}

/*
 * Is tk[0, @n) (its ';' not counted) a declaration the proof can read:
 * C type words, or a tag, or one typedef name, then declarators "*x",
 * "x[N]", each with an optional initializer (plain_expression()); every
 * name it declares or uses new to the file (not in @common)?
 */
static int plain_declaration(const struct pf_text *s, const struct tok *tk, size_t n,
			     const struct words *common)
{
	size_t i = 0, k, depth;
	int typed = 0;

	/* the type */
	for (; i < n && tk[i].kind == TK_WORD && !is_number(s, &tk[i]); i++) {
		const char *w = s->t + tk[i].start;

		if (is_tag_word(w, tk[i].len)) {
			if (typed || ++i >= n || tk[i].kind != TK_WORD || is_number(s, &tk[i]) ||
			    used(common, s->t + tk[i].start, tk[i].len))
				return 0;
			typed = 1;
		} else if (is_one_of(w, tk[i].len, c_words, N(c_words))) {
			if (pf_is_word(w, tk[i].len, "sizeof"))
				return 0;
			typed |= !pf_is_word(w, tk[i].len, "const") &&
				 !pf_is_word(w, tk[i].len, "volatile") &&
				 !pf_is_word(w, tk[i].len, "static") &&
				 !pf_is_word(w, tk[i].len, "register");
		} else if (!typed && i + 1 < n &&
			   (tk[i + 1].kind == TK_WORD || punct_char(s, &tk[i + 1]) == '*')) {
			if (used(common, w, tk[i].len))
				return 0;
			typed = 1;	/* a typedef's name */
		} else {
			break;
		}
	}
	if (!typed)
		return 0;
	/* the declarators */
	for (;;) {
		while (i < n && punct_char(s, &tk[i]) == '*')
			i++;
		if (i >= n || tk[i].kind != TK_WORD || is_number(s, &tk[i]) ||
		    is_one_of(s->t + tk[i].start, tk[i].len, c_words, N(c_words)) ||
		    used(common, s->t + tk[i].start, tk[i].len))
			return 0;
		i++;
		if (i < n && punct_char(s, &tk[i]) == '[') {
			for (k = i + 1; k < n && punct_char(s, &tk[k]) != ']'; k++)
				;
			if (k >= n || !plain_expression(s, tk, i + 1, k, common))
				return 0;
			i = k + 1;
		}
		if (i < n && punct_char(s, &tk[i]) == '=') {
			for (k = ++i, depth = 0; k < n; k++) {
				int c = punct_char(s, &tk[k]);

				if (c == '(' || c == '[')
					depth++;
				else if ((c == ')' || c == ']') && depth)
					depth--;
				else if (c == ',' && !depth)
					break;
			}
			if (k == i || !plain_expression(s, tk, i, k, common))
				return 0;
			i = k;
		}
		if (i == n)
			return 1;
		if (punct_char(s, &tk[i]) != ',')
			return 0;
		i++;
	}
}

/*
 * Is the statement s->t[@from, @to) inert?  Plain tokens only
 * (plain_token()), ending in ';'; no word that steers control or that a
 * rule reads (a seq function or wrapper, a writer, a buffer printf, a
 * privilege check, __user, typedef); no literal the prefilter reports;
 * and a declaration (plain_declaration()) or an expression that assigns
 * nothing (plain_expression()) whose names are all new to the file but
 * the members it reads and the functions it calls: so nothing it
 * declares or reads is anything the rules or the lexical model see
 * elsewhere, and spatch parses it.
 */
static int inert_unit(const struct pf_text *s, size_t from, size_t to, const struct words *common)
{
	struct tok tk[UNIT_TOKENS];
	size_t n, i = from;
	int field = 0;

	for (n = 0; n < UNIT_TOKENS; n++) {
		i = next_token(s, i, to, &tk[n]);
		if (tk[n].kind == TK_END)
			break;
		if (!plain_token(s, &tk[n]))
			return 0;
		if (tk[n].kind == TK_WORD &&
		    (is_one_of(s->t + tk[n].start, tk[n].len, flow_words, N(flow_words)) ||
		     global_word(s->t + tk[n].start, tk[n].len) ||
		     pf_has_seq(s->t + tk[n].start, tk[n].len) ||
		     output_name(s->t + tk[n].start, tk[n].len)))
			return 0;
	}
	if (n == UNIT_TOKENS || n < 2 || punct_char(s, &tk[n - 1]) != ';')
		return 0;
	if (pf_scan_text(s->t + from, to - from, 0, &field) || field)
		return 0;
	/* "T x", "T *x", "int x": a declaration, whatever T is */
	if (tk[0].kind == TK_WORD && n > 2 &&
	    (tk[1].kind == TK_WORD || punct_char(s, &tk[1]) == '*' ||
	     is_one_of(s->t + tk[0].start, tk[0].len, c_words, N(c_words))))
		return plain_declaration(s, tk, n - 1, common);
	return plain_expression(s, tk, 0, n - 1, common);
}

/* Does unit @x start with the word @w? */
static int unit_starts(const struct pf_text *s, const struct unit *x, const char *w)
{
	struct tok tk;

	next_token(s, x->start, x->end, &tk);
	return tk.kind == TK_WORD && pf_is_word(s->t + tk.start, tk.len, w);
}

/*
 * Can no rule tell the bodies of function chunks @x (of @b, written as
 * @bt, @bn bytes) and @y (of @a, @at, @an) apart?  True if every
 * statement between their common first and last statements is inert
 * (inert_unit()) against the words of the rest of both texts; the
 * statement before them is whole (not "if (x)" cut by a directive, whose
 * body an added statement would become) and the one after them starts
 * no "else" or "while" (an added statement would end the if or the do);
 * the lexical model (@j) finds no call in the lines of those statements
 * (a wrapper the file defines is a call of it), and the same calls, in
 * the same order, in the whole function before and after.
 */
static int inert_edit(const struct pf_text *b, const struct chunk *x, const char *bt, size_t bn,
		      const struct pf_text *a, const struct chunk *y, const char *at, size_t an,
		      const struct pf_judge *j)
{
	struct units ub = { 0 }, ua = { 0 };
	struct words common = { 0 };
	struct line_cursor c;
	size_t p = 0, q = 0, i, k;
	unsigned int first, last;
	uint64_t h;
	int ret = 0;

	if (!j || !x->body || !y->body)
		return 0;
	split_units(b, x->body + 1, x->end - 1, &ub);
	split_units(a, y->body + 1, y->end - 1, &ua);
	while (p < ub.n && p < ua.n && same_unit(&ub, p, &ua, p))
		p++;
	while (q < ub.n - p && q < ua.n - p && same_unit(&ub, ub.n - 1 - q, &ua, ua.n - 1 - q))
		q++;
	/* the statement before: whole, past directives */
	for (i = p; i > 0 && ub.v[i - 1].directive; i--)
		;
	if (i > 0 && !ub.v[i - 1].whole)
		goto out;
	for (i = ub.n - q; i < ub.n && ub.v[i].directive; i++)
		;
	if (i < ub.n && (unit_starts(b, &ub.v[i], "else") || unit_starts(b, &ub.v[i], "while")))
		goto out;
	for (k = 0; k < 2; k++) {
		const struct pf_text *s = k ? a : b;
		const struct units *u = k ? &ua : &ub;
		size_t from = p < u->n - q ? u->v[p].start : 0, to = from;

		if (p < u->n - q)
			to = u->v[u->n - q - 1].end;
		words_add(s, 0, from, &common);
		words_add(s, to, s->n, &common);
	}
	if (common.n)
		qsort(common.v, common.n, sizeof(*common.v), word_cmp);
	for (k = 0; k < 2; k++) {
		const struct pf_text *s = k ? a : b;
		const struct units *u = k ? &ua : &ub;

		line_cursor_init(&c, k ? at : bt, k ? an : bn);
		for (i = p; i < u->n - q; i++) {
			if (!inert_unit(s, u->v[i].start, u->v[i].end, &common))
				goto out;
			first = written_line(&c, u->v[i].start);
			if (!j->quiet_calls(j->ctx, (int)k, first,
					    written_line(&c, u->v[i].end - 1), 1))
				goto out;
		}
	}
	/*
	 * and the calls the lexical model reads in the function are the
	 * same, in order: what the proof reads as a comment may be a call to
	 * spatch and to the model ("// ... \" and a line after it)
	 */
	last = chunk_lines(bt, bn, x, &first);
	h = j->calls_print(j->ctx, 0, first, last);
	last = chunk_lines(at, an, y, &first);
	if (!h || h != j->calls_print(j->ctx, 1, first, last))
		goto out;
	ret = 1;
out:
	free(ub.v);
	free(ub.keys);
	free(ua.v);
	free(ua.keys);
	free(common.v);
	return ret;
}

/*
 * Text that spatch, the lexical model and the proof may read apart: a
 * carriage return alone, a vertical tab or a form feed (which end a "//"
 * comment for spatch, or a line for GCC), a line splice in code outside
 * a directive, in a "//" comment or in a literal (lex.c splices between
 * tokens only: "x\<newline>base" is one word to C and to the proof, two
 * to it; a spliced "//" comment goes on for C and the proof, not for
 * spatch), and spatch's own {{coccinelle:skip_start}}.  A splice in a
 * block comment (ASCII art) is comment to all of them.
 */
static int odd_text(const char *t, size_t n)
{
	enum { CODE, BLOCK, LINE, STRING, CHAR } st = CODE;
	size_t i, line = 0, k;
	int directive = 0;

	if (memmem(t, n, "coccinelle:", 11))
		return 1;
	for (i = 0; i < n; i++) {
		if (t[i] == '\v' || t[i] == '\f' ||
		    (t[i] == '\r' && !(i + 1 < n && t[i + 1] == '\n')))
			return 1;
		if (t[i] == '\\' && i + 1 < n &&
		    (t[i + 1] == '\n' || (t[i + 1] == '\r' && i + 2 < n && t[i + 2] == '\n'))) {
			if (st != BLOCK && !(st == CODE && directive))
				return 1;
			i += t[i + 1] == '\r' ? 2 : 1;
			continue;	/* the line goes on */
		}
		if (t[i] == '\n') {
			if (st != BLOCK)
				st = CODE;
			line = i + 1;
			/* a directive starts with '#' and goes on over its splices */
			for (k = line; k < n && (t[k] == ' ' || t[k] == '\t'); k++)
				;
			directive = k < n && t[k] == '#';
			continue;
		}
		switch (st) {
		case CODE:
			if (t[i] == '/' && i + 1 < n && t[i + 1] == '/')
				st = LINE;
			else if (t[i] == '/' && i + 1 < n && t[i + 1] == '*')
				st = BLOCK, i++;
			else if (t[i] == '"')
				st = STRING;
			else if (t[i] == '\'')
				st = CHAR;
			break;
		case BLOCK:
			if (t[i] == '*' && i + 1 < n && t[i + 1] == '/')
				st = CODE, i++;
			break;
		case STRING:
		case CHAR:
			if (t[i] == '\\')
				i++;
			else if (t[i] == (st == STRING ? '"' : '\''))
				st = CODE;
			break;
		case LINE:
			break;
		}
	}
	return 0;
}


/* The words lex.c's decl_kind() reads past before a declared name. */
static const char *const qualifiers[] = { "const", "__rcu", "__iomem", "__force", "__user" };

/*
 * A name as lex.c's decl_kind() reads its declarations, over the whole
 * file: coarser than the model, which reads those of a use's scope
 * (read_decls()), so that a change to any of them is seen.
 */
struct decl {
	struct word name;
	int ptr, plain;
};

static int decl_cmp(const void *a, const void *b)
{
	return word_cmp(&((const struct decl *)a)->name, &((const struct decl *)b)->name);
}

/* Add the tokens of s->t[@from, @to), those inside directive lines too. */
static void all_tokens(const struct pf_text *s, size_t from, size_t to, struct tok **tk,
		       size_t *n, size_t *alloc)
{
	struct tok t;
	size_t i = from;

	for (;;) {
		i = next_token(s, i, to, &t);
		if (t.kind == TK_END)
			return;
		if (t.kind == TK_DIRECTIVE) {
			all_tokens(s, t.start + 1, t.start + t.len, tk, n, alloc);
			continue;
		}
		if (*n == *alloc) {
			*alloc = *alloc ? 2 * *alloc : 1024;
			*tk = xrealloc(*tk, *alloc * sizeof(**tk));
		}
		(*tk)[(*n)++] = t;
	}
}

/*
 * Every name the text declares as lex.c's decl_kind() reads a
 * declaration (a name after "*" or a word, before ";", ",", "=", ")" or
 * "[", qualifiers skipped), with whether it read a pointer, a plain
 * value or both, sorted by name; *@n of them.
 */
static struct decl *decl_reading(const struct pf_text *s, size_t *n)
{
	struct tok *tk = NULL;
	struct decl *d = NULL;
	size_t ntk = 0, alloc = 0, i, j, nd = 0, k;

	all_tokens(s, 0, s->n, &tk, &ntk, &alloc);
	d = xmalloc((ntk + 1) * sizeof(*d));
	for (i = 1; i + 1 < ntk; i++) {
		int c = punct_char(s, &tk[i + 1]), ptr = 0, plain = 0;

		if (tk[i].kind != TK_WORD ||
		    !(c == ';' || c == ',' || c == '=' || c == ')' || c == '['))
			continue;
		for (j = i - 1; j > 0 && tk[j].kind == TK_WORD &&
		     is_one_of(s->t + tk[j].start, tk[j].len, qualifiers, N(qualifiers)); j--)
			;
		if (punct_char(s, &tk[j]) == '*' && j > 0 &&
		    (tk[j - 1].kind == TK_WORD || punct_char(s, &tk[j - 1]) == '*'))
			ptr = 1;
		else if (tk[j].kind == TK_WORD && j > 0 &&
			 !pf_is_word(s->t + tk[j].start, tk[j].len, "return") &&
			 !pf_is_word(s->t + tk[j].start, tk[j].len, "case") &&
			 (tk[j - 1].kind == TK_WORD || punct_char(s, &tk[j - 1]) == ';' ||
			  punct_char(s, &tk[j - 1]) == '{' || punct_char(s, &tk[j - 1]) == '(' ||
			  punct_char(s, &tk[j - 1]) == ','))
			plain = 1;
		if (ptr || plain)
			d[nd++] = (struct decl){ { s->t + tk[i].start, tk[i].len }, ptr, plain };
	}
	free(tk);
	if (nd)
		qsort(d, nd, sizeof(*d), decl_cmp);
	/* one entry a name */
	for (i = 0, k = 0; i < nd; i++) {
		if (k && !word_cmp(&d[k - 1].name, &d[i].name)) {
			d[k - 1].ptr |= d[i].ptr;
			d[k - 1].plain |= d[i].plain;
		} else {
			d[k++] = d[i];
		}
	}
	*n = k;
	return d;
}

/*
 * Does the lexical model read the declarations of a name both texts
 * hold differently before and after?  It reads them in the whole file
 * to judge a cast in lines spatch cannot parse: removing "long base =
 * 0;" from a function that prints nothing changes its reading of
 * "(unsigned long)w->base" in another.  A name only one text holds is
 * used nowhere in the other, so its reading changes nothing there.
 */
/* Does the text hold the word @w anywhere (a directive's too)? */
static int holds_word(const struct pf_text *s, const struct word *w)
{
	const char *p = s->t, *end = s->t + s->n;

	while ((p = memmem(p, end - p, w->w, w->len))) {
		if ((p == s->t || !pf_word_byte((unsigned char)p[-1])) &&
		    (p + w->len == end || !pf_word_byte((unsigned char)p[w->len])))
			return 1;	/* in a comment or a literal too: no matter */
		p++;
	}
	return 0;
}

static int declarations_differ(const struct pf_text *b, const struct pf_text *a)
{
	struct decl *db, *da;
	size_t nb, na, i = 0, k = 0;
	int ret = 0;

	db = decl_reading(b, &nb);
	da = decl_reading(a, &na);
	/* both sorted: walk them side by side */
	while (!ret && (i < nb || k < na)) {
		int c = i == nb ? 1 : k == na ? -1 : word_cmp(&db[i].name, &da[k].name);

		if (!c) {
			ret = db[i].ptr != da[k].ptr || db[i].plain != da[k].plain;
			i++;
			k++;
		} else if (c < 0) {
			/* read as declared before only: a name the text after holds? */
			ret = holds_word(a, &db[i++].name);
		} else {
			ret = holds_word(b, &da[k++].name);
		}
	}
	free(db);
	free(da);
	return ret;
}

/*
 * Does function chunk @k keep a parse error of spatch's inside it?  spatch
 * skips what it cannot parse up to a "}" in column 0 or a word such as
 * "static" there: the function must end in a "}" in column 0, and no
 * line of its body may start in column 0 but a directive, a label or a
 * blank (a "}" there ends the skip early, and the real end then runs it
 * on into the next function).
 */
static int keeps_parse_errors(const struct pf_text *s, const struct chunk *k)
{
	size_t i, w;

	if (!k->body || k->end <= k->start || s->t[k->end - 1] != '}' ||
	    (k->end - 1 > 0 && s->t[k->end - 2] != '\n'))
		return 0;
	for (i = k->body; i + 1 < k->end - 1; i++) {
		if (s->t[i] != '\n')
			continue;
		switch (s->t[i + 1]) {
		case ' ': case '\t': case '\n': case '#':
			continue;
		}
		for (w = i + 1; w < k->end && pf_word_byte((unsigned char)s->t[w]); w++)
			;
		if (w == i + 1 || w + 1 >= k->end || s->t[w] != ':' || s->t[w + 1] == ':')
			return 0;	/* not "label:" */
	}
	return 1;
}

int prefilter_same_findings(const char *before, size_t blen,
			    const char *after, size_t alen, const struct pf_judge *j)
{
	struct pf_text b = { 0 }, a = { 0 };
	struct chunks cb = { 0 }, ca = { 0 };
	char *spliced_b, *spliced_a;
	size_t i;
	int ret = 0;

	if (odd_text(before, blen) || odd_text(after, alen))
		return 0;
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
		/* a parse error in it must not run into the next function */
		if (!keeps_parse_errors(&b, x) || !keeps_parse_errors(&a, y))
			goto out;
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
	ret = !declarations_differ(&b, &a);
out:
	free(cb.v);
	free(ca.v);
	free(spliced_b);
	free(spliced_a);
	return ret;
}
