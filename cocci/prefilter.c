// SPDX-License-Identifier: GPL-2.0
/*
 * prefilter: keep only the files where a cocci/ rule can report something.
 *
 * spatch's own prefilter (the rule's "Grep query") keeps every file that
 * names a seq printf: about 1,250 files of the 6.12 tree, whose parsing is
 * most of a run.  Yet a rule reports a conversion only from a format
 * literal written in the file it is handling (the rules re-lex the format
 * from the source text; a macro or variable format is not examined):
 *
 *  - seq_px.cocci reports a %px (px, px-gated, px-user), or a plain %p
 *    before v4.15 (p-unhashed);
 *  - seq_int_cast.cocci reports a long-wide integer conversion whose
 *    argument is "(I)P", "(I)(I2)P" or "(I)&E", I one of a fixed list of
 *    integer type names, as an argument of a call named *seq* or *SEQ*
 *    (a seq_put_* writer needs no literal), or of a snprintf() whose
 *    buffer is handed whole to another call (a seq call, int-buf, or
 *    any other, int-away), assigned to something (int-away) or
 *    returned by its function (which a seq call may print); and a name
 *    assigned such a cast
 *    ("NAME = (I)...", a local or a field) printed by such a call as a
 *    whole argument (or the last name of one, X->NAME).
 *
 * So a file none of whose literals holds such a conversion (and, for the
 * cast rule, with no such cast) can be left out without losing a finding.
 * The scan reads the tokens of model/tokenize.c (the one reader of C of
 * every part): string literals joined when adjacent, parentheses, casts,
 * assignments, directives.  Each run of joined literals is decoded
 * (escapes) and walked by model/format.c's decoder, which reads a format
 * as vsnprintf() and the rules do.  What it cannot rule out counts as
 * present: a run ending inside a conversion ("%" before a macro), an
 * escape that is not C; after an apostrophe that starts no character
 * literal (in #if 0 prose, where GCC takes the rest of the line as one
 * stray token) the text is read as tokens still, for its literals.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/format.h"
#include "model/kver.h"
#include "cocci/prefilter.h"
#include "model/tokenize.h"
#include "model/vocab.h"
#include "lib/ptrguard.h"

/* A spliced text (backslash-newlines removed), as both read it. */
struct pf_text {
	const char *t;
	size_t n;
};

/* Is @c a byte of a word (identifier or number)? */
static int pf_word_byte(unsigned char c);
/* The end of the character literal at @i (an apostrophe), or 0 if it starts none. */
static size_t pf_char_literal(const char *t, size_t n, size_t i);
/* Is @w (@len bytes) the word @name? */
static int pf_is_word(const char *w, size_t len, const char *name);
/* Is @w a wrapper the rules were given (prefilter_set_wrappers())? */
static int pf_is_wrapper(const char *w, size_t len);
/* Does @w hold "seq" or "SEQ", or is it such a wrapper? */
static int pf_has_seq(const char *w, size_t len);
/* The length of the line splice at @buf[@i], or 0. */
static size_t pf_splice_len(const char *buf, size_t len, size_t i);
/*
 * @buf without its line splices: a NUL-terminated copy (its length in
 * *@out), or NULL when @nul says @buf ends in a NUL and has none.
 */
static char *pf_splice(const char *buf, size_t len, int nul, size_t *out);
/*
 * prefilter_scan() of @buf; @field_held (if not NULL) set when it assigns
 * a field an integer cast that may hold a pointer.  @formats: only the
 * bits of its literals (PF_RAW, PF_PTR, PF_WIDE_INT), not the calls'.
 */
static unsigned int pf_scan_text(const char *buf, size_t len, int nul, int formats,
				 int *field_held);

struct scan {
	const char *t;		/* the spliced text */
	size_t n;
	struct token *tk;	/* its tokens (model/tokenize.c), see scan_tokens() */
	size_t ntk, tkalloc;
	unsigned int bits;
	char *run;		/* the joined literals of the current run */
	size_t rlen, ralloc;
	int in_run;
	int run_odd;		/* an escape that is not C: the run is unknown */
	unsigned char *open;	/* per open '(': F_* bits */
	size_t depth, alloc, nseq;
	int prev;		/* the previous token */
	int prev_seq;		/* it is a word containing seq or SEQ */
	int prev_io;		/* it is a PG_SEQ_PUT or PG_BUF_PRINTF function (vocab.h) */
	size_t word, wlen;	/* the last word */
	int wfield;		/* it follows "->" or "." */
	size_t assigned, alen;	/* the word before the last "=" */
	int afield;
	size_t braces;		/* depth of { } */
	unsigned int func;	/* bumped at each top-level "{": a function's body */
	/*
	 * names assigned an integer cast, and names printed by a wide seq
	 * call: a local matches in the same function, a field anywhere
	 */
	struct name { size_t off, len; unsigned int func; int field; } *held, *printed;
	size_t nheld, hheld, nprinted, hprinted;
	/*
	 * buffers a snprintf() formats a cast into with a wide conversion,
	 * and names handed whole to a call that is no formatting call (a
	 * seq call or another) or assigned to something: a match in one
	 * function may be an int-buf (written to seq output) or an int-away
	 * (handed on, stored), which only spatch tells apart
	 */
	struct name *bufs, *handed;
	size_t nbufs, hbufs, nhanded, hhanded;
	/* names a function returns ("return NAME"): a buffer formatted there reaches its caller */
	struct name *rets;
	size_t nrets, hrets;
	/*
	 * the function-like macros the file defines over a seq call (or a
	 * wrapper, or such a macro): calls of them are seq calls here too,
	 * "#define W(m, fmt, ...) seq_printf(m, fmt, ##__VA_ARGS__)"
	 */
	struct name *locals;
	size_t nlocals, hlocals;
	/*
	 * the object-like macros the file defines as literals with a
	 * long-wide conversion ("#define FMT "%lx""): a seq call naming one
	 * among its arguments has that conversion
	 */
	struct name *wides;
	size_t nwides, hwides;
	size_t objdef, objlen;	/* the "#define NAME" of this line, if object-like */
	unsigned int objdir;	/* its directive (struct token's dir) */
	int run_def;		/* the literal run is that macro's body */
	/*
	 * and the variables and arrays assigned such literals up to the next
	 * ";" ("fmt = "%lx"", "fmts[] = { "%d", "%lx" }"): the name assigned
	 */
	size_t brword, brlen;	/* the word before the last "[" */
	size_t initw, initlen;
	int init_on;
	size_t *first;		/* per open '(': its first argument's first word, + 1 */
	/*
	 * copies "NAME = NAME2;", "X->NAME = Y->NAME2;": the name assigned
	 * holds what NAME2 holds (copy_on: the right side has been a name
	 * so far; copy_src: its last word)
	 */
	struct copy { struct name to, from; } *copies;
	size_t ncopies, hcopies;
	int copy_on;
	struct name copy_to, copy_src;
};

enum { T_NONE, T_WORD, T_OPEN, T_COMMA, T_STRING, T_ASSIGN, T_OTHER };

/*
 * An open parenthesis: a call named *seq* (or a snprintf()), whose
 * arguments hold...; F_PUT: a seq_put_* writer (no format, always wide).
 */
enum { F_SEQ = 1, F_WIDE = 2, F_CAST = 4, F_STR = 8, F_PUT = 16, F_BUF = 32 };

/* Mark every open seq call: its arguments hold a wide conversion or a cast. */
static void mark_calls(struct scan *s, unsigned char what)
{
	size_t i;

	for (i = 0; i < s->depth; i++)
		if (s->open[i] & F_SEQ)
			s->open[i] |= what;
}

/* Remember the word at [@o, @o + @l) in @list, with the function it is in. */
#define NAME_ADD(s, list, n, alloc, o, l, fld) do {				\
	if ((s)->n == (s)->alloc) {						\
		(s)->alloc = (s)->alloc ? 2 * (s)->alloc : 16;			\
		(s)->list = xrealloc((s)->list, (s)->alloc * sizeof(*(s)->list));\
	}									\
	(s)->list[(s)->n] = (struct name){ (o), (l), (s)->func, (fld) };	\
	(s)->n++;								\
} while (0)

/* Is the word [@w, @w + @len) of @s->t one of the @n names of @list? */
static int name_in(const struct scan *s, const struct name *list, size_t n,
		   size_t w, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i].len == len && !memcmp(s->t + list[i].off, s->t + w, len))
			return 1;
	return 0;
}

/* Is the word a macro the file defined above with a wide conversion? */
static int wide_macro(const struct scan *s, size_t w, size_t len)
{
	return name_in(s, s->wides, s->nwides, w, len);
}

/* Is the word a macro wrapper the file defined above? */
static int local_wrapper(const struct scan *s, size_t w, size_t len)
{
	return name_in(s, s->locals, s->nlocals, w, len);
}

/* Is token @i the punctuator or name @w? */
static int is(const struct scan *s, size_t i, const char *w)
{
	return i < s->ntk && tok_is(s->t, &s->tk[i], w);
}

/* Is token @i a word: a name or a number (pf_word_byte()'s runs)? */
static int word(const struct scan *s, size_t i)
{
	return i < s->ntk && (s->tk[i].kind == TOK_NAME || s->tk[i].kind == TOK_NUMBER);
}

/* Does the word run [@b, @e) of s->t name a seq call, a wrapper or a local wrapper? */
static int seq_word(const struct scan *s, size_t b, size_t e)
{
	return pf_has_seq(s->t + b, e - b) || local_wrapper(s, b, e - b);
}

/*
 * At the "#" token @i that opens a directive: if it defines a
 * function-like macro whose body names a seq call, a wrapper or a macro
 * wrapper defined above (a word of its tokens, or of its literals),
 * remember its name.  C defines a macro before its uses, so one pass
 * sees them in time.
 */
static void define_wrapper(struct scan *s, size_t i)
{
	const struct token *k = s->tk;
	unsigned int dir = k[i].dir;
	size_t w = i + 2, j, b, e;

	if (!is(s, i + 1, "define") || k[i + 1].dir != dir || !word(s, w) || k[w].dir != dir)
		return;
	if (!is(s, w + 1, "(") || k[w + 1].dir != dir || (k[w + 1].flags & TOKF_GAP)) {
		/* object-like: its literals are read with it (run_flush()) */
		s->objdef = k[w].off;
		s->objlen = k[w].len;
		s->objdir = dir;
		return;
	}
	for (j = w + 1; j < s->ntk && k[j].dir == dir; j++) {
		if (word(s, j) && seq_word(s, k[j].off, k[j].off + k[j].len))
			break;
		if (k[j].kind != TOK_STRING)
			continue;
		for (b = k[j].off; b < k[j].off + k[j].len; b = e + 1) {
			for (e = b; e < k[j].off + k[j].len && pf_word_byte((unsigned char)s->t[e]); e++)
				;
			if (e > b && seq_word(s, b, e))
				break;
		}
		if (b < k[j].off + k[j].len)
			break;
	}
	if (j < s->ntk && k[j].dir == dir)
		NAME_ADD(s, locals, nlocals, hlocals, k[w].off, k[w].len, 0);
}

/* A name of @a that is one of @b: a local in the same function, a field anywhere. */
static int names_meet(const struct scan *s, const struct name *a, size_t na,
		      const struct name *b, size_t nb)
{
	size_t i, k;

	for (i = 0; i < na; i++)
		for (k = 0; k < nb; k++)
			if (a[i].len == b[k].len && a[i].field == b[k].field &&
			    (a[i].field || a[i].func == b[k].func) &&
			    !memcmp(s->t + a[i].off, s->t + b[k].off, a[i].len))
				return 1;
	return 0;
}

/*
 * The names assigned a copy of a held name are held too, to a fixpoint
 * (seq_int_cast.cocci's fieldheld and fieldcopy rules: a field copied
 * from a field, or assigned a local, that holds a pointer cast).
 */
static void held_copies(struct scan *s)
{
	size_t i;
	int more = 1;

	while (more) {
		more = 0;
		for (i = 0; i < s->ncopies; i++) {
			const struct name *to = &s->copies[i].to;

			if (names_meet(s, &s->copies[i].from, 1, s->held, s->nheld) &&
			    !names_meet(s, to, 1, s->held, s->nheld)) {
				NAME_ADD(s, held, nheld, hheld, to->off, to->len, to->field);
				s->held[s->nheld - 1].func = to->func;	/* its own function */
				more = 1;
			}
		}
	}
}

/*
 * A call is complete (or the text ends inside it; @f: its F_* bits,
 * s->depth its place): a seq call with a cast and a long-wide conversion,
 * or a cast and no literal at all (the format is in a variable, which the
 * judge may read), or a seq_put_* writer with a cast; a snprintf() with a
 * cast and a long-wide conversion, whose buffer may reach a seq call.
 */
static void close_call(struct scan *s, unsigned char f)
{
	if ((f & F_BUF) && (f & F_CAST) && (f & F_WIDE) && s->first[s->depth]) {
		size_t o = s->first[s->depth] - 1, l = 0;

		while (o + l < s->n && pf_word_byte((unsigned char)s->t[o + l]))
			l++;
		NAME_ADD(s, bufs, nbufs, hbufs, o, l, 0);
	} else if ((f & F_SEQ) && !(f & F_BUF) && (f & F_CAST) &&
		 ((f & F_WIDE) || (f & F_PUT) || !(f & F_STR)))
		s->bits |= PF_INT_CAST;
}

/* The length of the line splice (backslash-newline) at @buf[@i], or 0. */
static size_t pf_splice_len(const char *buf, size_t len, size_t i)
{
	if (buf[i] != '\\')
		return 0;
	if (i + 1 < len && buf[i + 1] == '\n')
		return 2;
	if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
		return 3;
	return 0;
}

/*
 * Remove backslash-newline (and backslash-CR-LF), as translation phase 2
 * does: a NUL-terminated copy, or NULL when @nul says @buf ends in a NUL
 * at @len (read_file() leaves one) and it has nothing to remove: most
 * files.  The scan reads the byte after the text.
 */
static char *pf_splice(const char *buf, size_t len, int nul, size_t *out)
{
	char *t;
	size_t i, k, n = 0;

	*out = len;
	if (nul && !mem_find(buf, len, "\\\n", 2) && !mem_find(buf, len, "\\\r\n", 3))
		return NULL;
	t = xmalloc(len + 1);

	for (i = 0; i < len; i++) {
		k = pf_splice_len(buf, len, i);
		if (k) {
			i += k - 1;
			continue;
		}
		t[n++] = buf[i];
	}
	t[n] = '\0';
	*out = n;
	return t;
}

static void run_add(struct scan *s, const char *p, size_t len)
{
	const char *why;
	long got;

	if (s->rlen + len + 1 > s->ralloc) {
		s->ralloc = 2 * (s->rlen + len + 1);
		s->run = xrealloc(s->run, s->ralloc);
	}
	/* the bytes the kernel sees: a NUL ends the walk, as it ends vsnprintf() */
	got = fmt_unescape(p, len, s->run + s->rlen, &why);
	if (got < 0)
		s->run_odd = 1;
	else
		s->rlen += (size_t)got;
	s->in_run = 1;
}

/* The conversions of the run, as the rules read them. */
static void run_flush(struct scan *s)
{
	struct fmt_iter it = { 0 };
	struct fmt_conv c;
	unsigned int bits = 0;

	if (!s->in_run)
		return;
	it.partial = 1;
	if (s->run_odd)
		bits |= PF_RAW | PF_PTR | PF_WIDE_INT;
	while (fmt_next(s->run, s->rlen, &it, &c)) {
		if (c.incomplete)
			bits |= PF_RAW | PF_PTR | PF_WIDE_INT;
		else if (c.type == 'p')
			bits |= c.kind == SEQ_PTR_RAW ? PF_RAW | PF_PTR : PF_PTR;
		else if (c.kind == SEQ_PTR_INT)
			bits |= PF_WIDE_INT;
	}
	mark_calls(s, bits & PF_WIDE_INT ? F_WIDE | F_STR : F_STR);
	if (s->run_def && (bits & PF_WIDE_INT))
		NAME_ADD(s, wides, nwides, hwides, s->objdef, s->objlen, 0);
	if (s->init_on && s->initlen && (bits & PF_WIDE_INT))
		NAME_ADD(s, wides, nwides, hwides, s->initw, s->initlen, 0);
	s->run_def = 0;
	s->bits |= bits;
	s->rlen = 0;
	s->in_run = 0;
	s->run_odd = 0;
}

static int pf_word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

static int pf_is_word(const char *w, size_t len, const char *name)
{
	return strlen(name) == len && !memcmp(w, name, len);
}

/* Is token @i the one-byte punctuator @c? */
static int punct(const struct scan *s, size_t i, char c)
{
	return i < s->ntk && s->tk[i].kind == TOK_PUNCT && s->tk[i].len == 1 && s->t[s->tk[i].off] == c;
}

/*
 * At token @i: a copy "TO = FROM" goes on over words, "->" and "."; it
 * is recorded at the ",", ";" or ")" that ends it, and anything else
 * ends it unrecorded.
 */
static void copy_step(struct scan *s, size_t i)
{
	if (!s->copy_on)
		return;
	if (s->copy_on == 2) {	/* the "=" itself */
		s->copy_on = 1;
		return;
	}
	if (word(s, i) || punct(s, i, '.') || is(s, i, "->"))
		return;
	if ((punct(s, i, ';') || punct(s, i, ',') || punct(s, i, ')')) && s->copy_src.len) {
		if (s->ncopies == s->hcopies) {
			s->hcopies = s->hcopies ? 2 * s->hcopies : 16;
			s->copies = xrealloc(s->copies, s->hcopies * sizeof(*s->copies));
		}
		s->copies[s->ncopies++] = (struct copy){ s->copy_to, s->copy_src };
	}
	s->copy_on = 0;
}

/* Past the bracketed group that opens at token @i ("(", "[" or "{"); s->ntk if it never ends. */
static size_t skip_group(const struct scan *s, size_t i)
{
	size_t depth = 0;

	for (; i < s->ntk; i++) {
		if (punct(s, i, '(') || punct(s, i, '[') || punct(s, i, '{'))
			depth++;
		else if ((punct(s, i, ')') || punct(s, i, ']') || punct(s, i, '}')) && !--depth)
			return i + 1;
	}
	return s->ntk;
}

/*
 * Is the cast whose ')' is token @i the whole argument?  The rule matches
 * "(I)P" as an argument of its own, or in parentheses (the paren
 * isomorphism), never as the operand of a binary or ternary operator:
 * "(unsigned long)atomic_read(&x) << 10" is a shift.  After the ')' comes
 * the operand, a unary expression (prefix operators, further casts, a
 * primary, postfix [] () . -> ++ --); only a binary operator after it
 * proves the cast is not the whole argument.  Anything unexpected keeps
 * the file.
 */
static int cast_is_argument(const struct scan *s, size_t i)
{
	int group = 0;
	char c;

	for (i++; i < s->ntk;) {
		if (is(s, i, "++") || is(s, i, "--") || punct(s, i, '&') || punct(s, i, '*') ||
		    punct(s, i, '+') || punct(s, i, '-') || punct(s, i, '!') || punct(s, i, '~')) {
			i++;
			group = 0;
		} else if (punct(s, i, '(')) {
			/*
			 * (I)(I2)P, and any parenthesized operand: a group
			 * here is skipped whatever it holds.
			 */
			i = skip_group(s, i);
			group = 1;
		} else {
			break;
		}
	}
	if (i >= s->ntk)
		return 1;
	/* (the loop above took every "(": a primary here is a word) */
	if (word(s, i))
		i++;
	else if (!group)
		return 1;
	/*
	 * else the group was the operand, "(long)(a - b) / HZ": what follows
	 * it is read as after any operand (a "-", "+", "*" or "&" was read
	 * above as a prefix operator of a further operand: the file is kept)
	 */
	while (i < s->ntk) {
		if (punct(s, i, '(') || punct(s, i, '['))
			i = skip_group(s, i);
		else if (punct(s, i, '.') || is(s, i, "->"))
			i += word(s, i + 1) ? 2 : 1;
		else if (is(s, i, "++") || is(s, i, "--"))
			i++;
		else
			break;
	}
	if (i >= s->ntk || punct(s, i, ',') || punct(s, i, ')'))
		return 1;
	c = s->t[s->tk[i].off];
	return !strchr("+-*/%<>=!&|^?", c);
}

/* Does "(" token @i open a cast to an integer type (whatever follows it)?  @end: its ')'. */
static int int_cast_type(const struct scan *s, size_t i, size_t *end, int *wide)
{
	const char *w;
	size_t len, n = 0;
	int type = 0;
	char name[64];

	for (i++; i < s->ntk; i++) {
		if (punct(s, i, ')')) {
			*end = i;
			name[n] = '\0';
			*wide = type && vocab_int_cast(name) == 1;
			return type;
		}
		if (!word(s, i))
			return 0;
		w = s->t + s->tk[i].off;
		len = s->tk[i].len;
		if (vocab_int_word(w, len)) {
			type = 1;
			if (n + len + 2 < sizeof(name)) {
				if (n)
					name[n++] = ' ';
				memcpy(name + n, w, len);
				n += len;
			}
		} else if (!pf_is_word(w, len, "const") && !pf_is_word(w, len, "volatile") &&
			   !(len > 2 && w[0] == '_' && w[1] == '_')) {
			return 0;
		}
	}
	return 0;
}

/*
 * Does "(" token @i open a cast to an integer type: words only, at least
 * one of them an integer type, the others const, volatile or __attributes,
 * and is it the whole argument?
 */
static int int_cast_at(const struct scan *s, size_t i)
{
	size_t end;
	int wide;

	return int_cast_type(s, i, &end, &wide) && cast_is_argument(s, end);
}

/* The wrappers of the tree's headers (prefilter_set_wrappers()), sorted. */
static char **wrappers;
static size_t nwrappers;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void prefilter_set_wrappers(const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < nwrappers; i++)
		free(wrappers[i]);
	free(wrappers);
	wrappers = n ? xmalloc(n * sizeof(*wrappers)) : NULL;
	for (i = 0; i < n; i++)
		wrappers[i] = xstrdup(names[i]);
	nwrappers = n;
	if (n)
		qsort(wrappers, n, sizeof(*wrappers), name_cmp);
}

/* Is @w (@len bytes) one of the wrappers the rules were given by name? */
static int pf_is_wrapper(const char *w, size_t len)
{
	return names_has(wrappers, nwrappers, w, len);
}

static int pf_has_seq(const char *w, size_t len)
{
	return vocab_seq_word(w, len) || pf_is_wrapper(w, len);
}

/*
 * The end of the character literal at @i ("'"), or 0 if this apostrophe
 * starts none: no closing quote on the line within a few bytes, or a
 * double quote inside (prose like don't "%px" in an #if 0 block).
 */
static size_t pf_char_literal(const char *t, size_t n, size_t i)
{
	size_t k = i + 1;

	while (k < n && t[k] != '\'' && t[k] != '\n' && k - i <= 10)
		k += t[k] == '\\' ? 2 : 1;
	if (k >= n || t[k] != '\'')
		return 0;
	if (memchr(t + i + 1, '"', k - i - 1) && k - i - 1 > 2)
		return 0;
	return k + 1;
}

unsigned int prefilter_scan(const char *buf, size_t len)
{
	return pf_scan_text(buf, len, 0, 0, NULL);
}

unsigned int prefilter_scan_read(const char *buf, size_t len)
{
	return pf_scan_text(buf, len, 1, 0, NULL);
}

unsigned int prefilter_scan_formats(const char *buf, size_t len)
{
	return pf_scan_text(buf, len, 1, 1, NULL);
}

/* Append the tokens of s->t[@b, @e) to s->tk, read as the scan reads them. */
static void scan_tokens(struct scan *s, size_t b, size_t e)
{
	struct tok_state st;
	struct token k;
	size_t end;

	if (b)
		tok_start_at(&st, s->t, e, b);
	else
		tok_start(&st, s->t, e, 0);
	while (tok_next(&st, &k)) {
		/*
		 * An apostrophe that opens no character literal as
		 * pf_char_literal() reads one (prose in #if 0: GCC takes the
		 * rest of the line as one stray token): a byte of its own, and
		 * the text after it read as tokens, for the literals there.
		 */
		if (k.kind == TOK_CHAR && s->t[k.off] == '\'' &&
		    pf_char_literal(s->t, s->n, k.off) != k.off + k.len) {
			k.kind = TOK_OTHER;
			end = k.off + k.len;
			k.len = 1;
		} else {
			end = 0;
		}
		if (s->ntk == s->tkalloc) {
			s->tkalloc = s->tkalloc ? 2 * s->tkalloc : 1024;
			s->tk = xrealloc(s->tk, s->tkalloc * sizeof(*s->tk));
		}
		s->tk[s->ntk++] = k;
		if (end) {
			scan_tokens(s, k.off + 1, end);
			/* those were read from the middle of a line: same directive */
			for (b = s->ntk; b > 0 && s->tk[b - 1].off > k.off; b--)
				s->tk[b - 1].dir = k.dir;
			tok_start_at(&st, s->t, e, end);
			st.dir = k.dir;
		}
	}
}

/*
 * @field_held (if not NULL): set if the text assigns a field an integer
 * cast that may hold a pointer ("X->NAME = (unsigned long)..."), which
 * seq_int_cast.cocci reports wherever the file prints that field.
 */
static unsigned int pf_scan_text(const char *buf, size_t len, int nul, int formats,
				 int *field_held)
{
	struct scan s = { 0 };
	char *spliced;
	const char *t;
	size_t i;
	int tok;

	spliced = pf_splice(buf, len, nul, &s.n);
	s.t = t = spliced ? spliced : buf;
	scan_tokens(&s, 0, s.n);
	for (i = 0; i < s.ntk; i++) {
		const struct token *k = &s.tk[i];
		size_t w = k->off, wl = k->len;

		if (!formats)
			copy_step(&s, i);
		if (k->kind == TOK_STRING) {
			/* the text between the quotes, as written (after a prefix) */
			const char *q = memchr(t + w, '"', wl);
			size_t b = q ? (size_t)(q - t) + 1 : w + wl;
			size_t e = k->flags & TOKF_OPEN ? w + wl : w + wl - 1;

			s.run_def = s.objlen && k->dir && k->dir == s.objdir;
			run_add(&s, t + b, e > b ? e - b : 0);
			s.prev = T_STRING;
			continue;
		}
		run_flush(&s);
		if (formats)
			continue;
		tok = T_OTHER;
		if (word(&s, i)) {
			int returned = s.prev == T_WORD && pf_is_word(t + s.word, s.wlen, "return");

			if (returned)
				NAME_ADD(&s, rets, nrets, hrets, w, wl, 0);
			else if (s.prev == T_ASSIGN)
				NAME_ADD(&s, handed, nhanded, hhanded, w, wl, 0);
			if (s.prev == T_OPEN && s.depth && !s.first[s.depth - 1])
				s.first[s.depth - 1] = w + 1;
			s.prev = T_WORD;
			s.prev_seq = pf_has_seq(t + w, wl) || local_wrapper(&s, w, wl);
			/* a macro of the file holding a wide conversion, as a seq call's argument */
			if (s.nseq && wide_macro(&s, w, wl))
				mark_calls(&s, F_WIDE | F_STR);
			{
				const struct vocab_io_fn *io = vocab_io(t + w, wl);

				s.prev_io = io && io->kind != VOCAB_IO_TEXT ? (int)io->kind : 0;
			}
			s.word = w;
			s.wlen = wl;
			s.wfield = i && (punct(&s, i - 1, '.') || is(&s, i - 1, "->"));
			if (s.copy_on)
				s.copy_src = (struct name){ w, wl, s.func, s.wfield };
			continue;
		} else if (k->dir && (k->flags & TOKF_BOL)) {
			define_wrapper(&s, i);
		} else if (punct(&s, i, '(')) {
			size_t end;
			int wide;

			if ((s.prev == T_OPEN || s.prev == T_COMMA) && s.nseq &&
			    int_cast_at(&s, i))
				mark_calls(&s, F_CAST);
			/*
			 * "NAME = (I)...": a local or field that may hold a
			 * pointer (a type that holds one, the whole value)
			 */
			if (s.prev == T_ASSIGN && s.alen && int_cast_type(&s, i, &end, &wide) &&
			    wide && cast_is_argument(&s, end))
				NAME_ADD(&s, held, nheld, hheld, s.assigned, s.alen, s.afield);
			if (s.depth >= s.alloc) {
				s.alloc = s.alloc ? 2 * s.alloc : 64;
				s.open = xrealloc(s.open, s.alloc);
				s.first = xrealloc(s.first, s.alloc * sizeof(*s.first));
			}
			s.open[s.depth] = s.prev == T_WORD && (s.prev_seq || s.prev_io) ? F_SEQ : 0;
			if (s.prev == T_WORD && s.prev_io == VOCAB_IO_PUT)
				s.open[s.depth] |= F_PUT;
			if (s.prev == T_WORD && s.prev_io == VOCAB_IO_BUF)
				s.open[s.depth] |= F_BUF;
			s.first[s.depth] = 0;
			s.nseq += s.open[s.depth++] & F_SEQ;
			tok = T_OPEN;
		} else if (punct(&s, i, ')') || punct(&s, i, ',')) {
			/* a wide seq call's argument that ends in a name: x, X->x */
			if (s.prev == T_WORD && s.depth && (s.open[s.depth - 1] & F_SEQ) &&
			    !(s.open[s.depth - 1] & F_BUF)) {
				if (s.open[s.depth - 1] & (F_WIDE | F_PUT))
					NAME_ADD(&s, printed, nprinted, hprinted, s.word, s.wlen,
						 s.wfield);
			}
			/* a name handed to any other call (or in parentheses: more, never fewer) */
			if (s.prev == T_WORD && s.depth && !(s.open[s.depth - 1] & F_BUF))
				NAME_ADD(&s, handed, nhanded, hhanded, s.word, s.wlen, s.wfield);
			if (punct(&s, i, ',')) {
				s.prev = T_COMMA;
				continue;
			}
			if (s.depth) {
				s.depth--;
				s.nseq -= s.open[s.depth] & F_SEQ;
				close_call(&s, s.open[s.depth]);
			}
		} else if (k->kind == TOK_PUNCT && t[w + wl - 1] == '=' && strchr("=+-|&^*/%", t[w]) &&
			   !is(&s, i, "==")) {
			/* the name assigned: "NAME =", "X->NAME =", "NAME +=" */
			int compound = wl > 1;

			s.alen = (!compound && s.prev == T_WORD) || (compound && strchr("+-|&^", t[w])) ?
				s.wlen : 0;
			s.assigned = s.word;
			s.afield = s.wfield;
			/* a format may be assigned: "NAME =", "NAME[...] =" */
			s.init_on = 1;
			if (!compound && s.prev == T_WORD) {
				s.initw = s.word;
				s.initlen = s.wlen;
			} else {
				s.initw = s.brword;
				s.initlen = !compound && i && punct(&s, i - 1, ']') ? s.brlen : 0;
			}
			tok = T_ASSIGN;
			if (!compound && s.prev == T_WORD) {
				s.copy_on = 2;	/* copy_step() will not end it at this "=" */
				s.copy_to = (struct name){ s.word, s.wlen, s.func, s.wfield };
				s.copy_src.len = 0;
			}
		} else {
			if (punct(&s, i, '[') && s.prev == T_WORD) {
				s.brword = s.word;
				s.brlen = s.wlen;
			} else if (punct(&s, i, ';')) {
				s.init_on = 0;
			}
			if (punct(&s, i, '{') && !s.braces++)
				s.func++;
			else if (punct(&s, i, '}') && s.braces)
				s.braces--;
		}
		s.prev = tok;
	}
	run_flush(&s);
	while (s.depth)
		close_call(&s, s.open[--s.depth]);
	held_copies(&s);
	if (names_meet(&s, s.held, s.nheld, s.printed, s.nprinted) ||
	    names_meet(&s, s.bufs, s.nbufs, s.handed, s.nhanded) ||
	    names_meet(&s, s.bufs, s.nbufs, s.rets, s.nrets))
		s.bits |= PF_INT_CAST;
	/* a field assigned a copy may hold what its source holds */
	if (field_held) {
		for (i = 0, *field_held = 0; i < s.nheld; i++)
			*field_held |= s.held[i].field;
		for (i = 0; i < s.ncopies; i++)
			*field_held |= s.copies[i].to.field;
	}
	free(s.copies);
	free(s.held);
	free(s.printed);
	free(s.bufs);
	free(s.handed);
	free(s.rets);
	free(s.locals);
	free(s.wides);
	free(s.first);
	free(s.run);
	free(s.open);
	free(s.tk);
	free(spliced);
	return s.bits;
}

enum pf_rule prefilter_rule(const char *name)
{
	if (!strcmp(name, "seq_px.cocci"))
		return PF_RULE_PX;
	if (!strcmp(name, "seq_int_cast.cocci"))
		return PF_RULE_INT_CAST;
	return PF_RULE_OTHER;
}

/* ------------------------------------------------ the tree's version */

/* Per directory: 1 the tree is older than v4.15, 0 not (or no version found). */
struct dir_version {
	char *dir;
	int old;
};

static struct dir_version *versions;
static size_t nversions, versions_alloc;

static int cached_version(const char *dir)
{
	size_t i;

	for (i = 0; i < nversions; i++)
		if (!strcmp(versions[i].dir, dir))
			return versions[i].old;
	return -1;
}

/* 1 or 0 if @dir/Makefile gives VERSION and PATCHLEVEL, else -1. */
static int makefile_version(const char *dir)
{
	char *path = xasprintf("%s/Makefile", dir), head[4097];
	struct stat st;
	long v, p;
	size_t n;
	FILE *f;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(f = fopen(path, "r"))) {
		free(path);
		return -1;
	}
	free(path);
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	v = kver_makefile_var(head, "VERSION");
	p = kver_makefile_var(head, "PATCHLEVEL");
	if (v < 0 || p < 0)
		return -1;
	return kver_p_unhashed(v, p);
}

/*
 * Is the tree holding the file @path older than v4.15?  The first
 * directory above the file whose Makefile has VERSION and PATCHLEVEL
 * lines decides; none found means current.
 */
static int forced_old = -1;

void prefilter_set_old(int old)
{
	forced_old = old;
}

static int tree_is_old(const char *path)
{
	char *dir, *slash;
	char **seen = NULL;
	size_t nseen = 0, i;
	int old = 0, r;

	if (forced_old >= 0)
		return forced_old;
	dir = xstrdup(path);

	for (;;) {
		slash = strrchr(dir, '/');
		if (!slash)
			break;
		slash[slash == dir ? 1 : 0] = '\0';
		if ((r = cached_version(dir)) >= 0) {
			old = r;
			break;
		}
		seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
		seen[nseen++] = xstrdup(dir);
		if ((r = makefile_version(dir)) >= 0) {
			old = r;
			break;
		}
		if (!strcmp(dir, "/"))
			break;
	}
	for (i = 0; i < nseen; i++) {
		if (nversions >= versions_alloc) {
			versions_alloc = versions_alloc ? 2 * versions_alloc : 64;
			versions = xrealloc(versions, versions_alloc * sizeof(*versions));
		}
		versions[nversions].dir = seen[i];
		versions[nversions++].old = old;
	}
	free(seen);
	free(dir);
	return old;
}

int prefilter_tree_is_old(const char *path)
{
	return tree_is_old(path);
}

int prefilter_keep(enum pf_rule r, unsigned int bits, const char *path)
{
	switch (r) {
	case PF_RULE_PX:
		return (bits & PF_RAW) || ((bits & PF_PTR) && tree_is_old(path));
	case PF_RULE_INT_CAST:
		return (bits & PF_INT_CAST) != 0;
	default:
		return 1;
	}
}
