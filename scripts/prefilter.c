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
 *    buffer is written to seq output; and a name assigned such a cast
 *    ("NAME = (I)...", a local or a field) printed by such a call as a
 *    whole argument (or the last name of one, X->NAME).
 *
 * So a file none of whose literals holds such a conversion (and, for the
 * cast rule, with no such cast) can be left out without losing a finding.
 * The scan is a small C lexer: line splicing, comments, character
 * literals, string literals joined when adjacent, parentheses.  Each run
 * of joined literals is decoded (escapes) and walked by fmt.c's decoder,
 * which reads a format as vsnprintf() and the rules do.  What it cannot
 * rule out counts as present: a run ending inside a conversion ("%"
 * before a macro), an escape that is not C, an apostrophe that starts no
 * character literal (in #if 0 prose).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fmt.h"
#include "kver.h"
#include "prefilter.h"
#include "vocab.h"
#include "ptrguard.h"

struct scan {
	const char *t;		/* the spliced text */
	size_t n;
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
	 * and names handed to a seq call: a match in one function may be an
	 * int-buf
	 */
	struct name *bufs, *seqargs;
	size_t nbufs, hbufs, nseqargs, hseqargs;
	size_t *first;		/* per open '(': its first argument's first word, + 1 */
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

static int word_byte(unsigned char c);

/* Remember the word at [@o, @o + @l) in @list, with the function it is in. */
#define NAME_ADD(s, list, n, alloc, o, l, fld) do {				\
	if ((s)->n == (s)->alloc) {						\
		(s)->alloc = (s)->alloc ? 2 * (s)->alloc : 16;			\
		(s)->list = xrealloc((s)->list, (s)->alloc * sizeof(*(s)->list));\
	}									\
	(s)->list[(s)->n] = (struct name){ (o), (l), (s)->func, (fld) };	\
	(s)->n++;								\
} while (0)

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

		while (o + l < s->n && word_byte((unsigned char)s->t[o + l]))
			l++;
		NAME_ADD(s, bufs, nbufs, hbufs, o, l, 0);
	} else if ((f & F_SEQ) && !(f & F_BUF) && (f & F_CAST) &&
		 ((f & F_WIDE) || (f & F_PUT) || !(f & F_STR)))
		s->bits |= PF_INT_CAST;
}

/* The length of the line splice (backslash-newline) at @buf[@i], or 0. */
static size_t splice_len(const char *buf, size_t len, size_t i)
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
static char *splice(const char *buf, size_t len, int nul, size_t *out)
{
	char *t;
	size_t i, k, n = 0;

	*out = len;
	if (nul && !memmem(buf, len, "\\\n", 2) && !memmem(buf, len, "\\\r\n", 3))
		return NULL;
	t = xmalloc(len + 1);

	for (i = 0; i < len; i++) {
		k = splice_len(buf, len, i);
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
	s->bits |= bits;
	s->rlen = 0;
	s->in_run = 0;
	s->run_odd = 0;
}

static int word_byte(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}

/* Skip blanks and comments from @i. */
static size_t skip_blank(const struct scan *s, size_t i)
{
	const char *t = s->t, *e;

	while (i < s->n) {
		if (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r' ||
		    t[i] == '\f' || t[i] == '\v') {
			i++;
		} else if (t[i] == '/' && t[i + 1] == '*') {
			/* memmem, not strstr: a NUL byte must not end the search */
			e = memmem(t + i + 2, s->n - i - 2, "*/", 2);
			i = e ? (size_t)(e - t) + 2 : s->n;
		} else if (t[i] == '/' && t[i + 1] == '/') {
			e = memchr(t + i + 2, '\n', s->n - i - 2);
			i = e ? (size_t)(e - t) + 1 : s->n;
		} else {
			break;
		}
	}
	return i;
}

static int is_word(const char *w, size_t len, const char *name)
{
	return strlen(name) == len && !memcmp(w, name, len);
}

/*
 * Does "(" at @i open a cast to an integer type: words only, at least one
 * of them an integer type, the others const, volatile or __attributes?
 */
static int int_cast_at(const struct scan *s, size_t i);

/*
 * Past the bracketed group that opens at @i ("(", "[" or "{"), strings,
 * character literals and comments inside skipped; s->n if it never ends.
 */
static size_t skip_group(const struct scan *s, size_t i)
{
	const char *t = s->t;
	size_t depth = 0, j;

	while (i < s->n) {
		j = skip_blank(s, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (t[i] == '"' || t[i] == '\'') {
			char q = t[i];

			for (i++; i < s->n && t[i] != q && t[i] != '\n'; i++)
				if (t[i] == '\\')
					i++;
			i++;
			continue;
		}
		if (t[i] == '(' || t[i] == '[' || t[i] == '{')
			depth++;
		else if ((t[i] == ')' || t[i] == ']' || t[i] == '}') && !--depth)
			return i + 1;
		i++;
	}
	return s->n;
}

/*
 * Is the cast whose ')' is at @i the whole argument?  The rule matches
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
	const char *t = s->t;
	int group = 0;

	for (i = skip_blank(s, i + 1); i < s->n; i = skip_blank(s, i)) {
		if ((t[i] == '+' || t[i] == '-') && t[i + 1] == t[i]) {
			i += 2;
			group = 0;
		} else if (strchr("&*+-!~", t[i])) {
			i++;
			group = 0;
		} else if (t[i] == '(') {
			/*
			 * (I)(I2)P, and any parenthesized operand: a group
			 * here is skipped whatever it holds.  (This asked
			 * int_cast_at(s, i) >= 0, always true, at a cost
			 * exponential in the number of groups in a row.)
			 */
			i = skip_group(s, i);
			group = 1;
		} else {
			break;
		}
	}
	if (i >= s->n)
		return 1;
	/* (the loop above took every "(": a primary here is a word) */
	if (word_byte((unsigned char)t[i])) {
		while (i < s->n && word_byte((unsigned char)t[i]))
			i++;
	} else if (!group) {
		return 1;
	}
	/*
	 * else the group was the operand, "(long)(a - b) / HZ": what follows
	 * it is read as after any operand (a "-", "+", "*" or "&" was read
	 * above as a prefix operator of a further operand: the file is kept)
	 */
	for (i = skip_blank(s, i); i < s->n; i = skip_blank(s, i)) {
		if (t[i] == '(' || t[i] == '[') {
			i = skip_group(s, i);
		} else if (t[i] == '.' || (t[i] == '-' && t[i + 1] == '>')) {
			i = skip_blank(s, i + (t[i] == '.' ? 1 : 2));
			while (i < s->n && word_byte((unsigned char)t[i]))
				i++;
		} else if ((t[i] == '+' || t[i] == '-') && t[i + 1] == t[i]) {
			i += 2;
		} else {
			break;
		}
	}
	if (i >= s->n || t[i] == ',' || t[i] == ')')
		return 1;
	return !strchr("+-*/%<>=!&|^?", t[i]);
}

/* Does "(" at @i open a cast to an integer type (whatever follows it)?  @end: its ')'. */
static int int_cast_type(const struct scan *s, size_t i, size_t *end, int *wide)
{
	const char *t = s->t, *w;
	size_t len, n = 0;
	int type = 0;
	char name[64];

	for (i = skip_blank(s, i + 1); i < s->n; i = skip_blank(s, i)) {
		if (t[i] == ')') {
			*end = i;
			name[n] = '\0';
			*wide = type && vocab_int_cast(name) == 1;
			return type;
		}
		if (!word_byte((unsigned char)t[i]))
			return 0;
		for (w = t + i, len = 0; i < s->n && word_byte((unsigned char)t[i]); i++)
			len++;
		if (vocab_int_word(w, len)) {
			type = 1;
			if (n + len + 2 < sizeof(name)) {
				if (n)
					name[n++] = ' ';
				memcpy(name + n, w, len);
				n += len;
			}
		} else if (!is_word(w, len, "const") && !is_word(w, len, "volatile") &&
			   !(len > 2 && w[0] == '_' && w[1] == '_')) {
			return 0;
		}
	}
	return 0;
}

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
static int is_wrapper(const char *w, size_t len)
{
	size_t lo = 0, hi = nwrappers;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(wrappers[mid], w, len);

		if (!c)	/* equal over @len: a longer name sorts after */
			c = wrappers[mid][len] ? 1 : 0;
		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int has_seq(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i + 3 <= len; i++)
		if (!memcmp(w + i, "seq", 3) || !memcmp(w + i, "SEQ", 3))
			return 1;
	return is_wrapper(w, len);
}

/*
 * The end of the character literal at @i ("'"), or 0 if this apostrophe
 * starts none: no closing quote on the line within a few bytes, or a
 * double quote inside (prose like don't "%px" in an #if 0 block).
 */
static size_t char_literal(const struct scan *s, size_t i)
{
	const char *t = s->t;
	size_t k = i + 1;

	while (k < s->n && t[k] != '\'' && t[k] != '\n' && k - i <= 10)
		k += t[k] == '\\' ? 2 : 1;
	if (k >= s->n || t[k] != '\'')
		return 0;
	if (memchr(t + i + 1, '"', k - i - 1) && k - i - 1 > 2)
		return 0;
	return k + 1;
}

static unsigned int scan_text(const char *buf, size_t len, int nul, int *field_held);

unsigned int prefilter_scan(const char *buf, size_t len)
{
	return scan_text(buf, len, 0, NULL);
}

unsigned int prefilter_scan_read(const char *buf, size_t len)
{
	return scan_text(buf, len, 1, NULL);
}

/*
 * @field_held (if not NULL): set if the text assigns a field an integer
 * cast that may hold a pointer ("X->NAME = (unsigned long)..."), which
 * seq_int_cast.cocci reports wherever the file prints that field.
 */
static unsigned int scan_text(const char *buf, size_t len, int nul, int *field_held)
{
	struct scan s = { 0 };
	char *spliced;
	const char *t;
	size_t i, j, w;
	int tok;

	spliced = splice(buf, len, nul, &s.n);
	s.t = t = spliced ? spliced : buf;
	for (i = 0; i < s.n;) {
		j = skip_blank(&s, i);
		if (j != i) {
			i = j;
			continue;
		}
		if (t[i] == '"') {
			for (j = i + 1; j < s.n && t[j] != '"' && t[j] != '\n'; j++)
				if (t[j] == '\\' && j + 1 < s.n && t[j + 1] != '\n')
					j++;
			run_add(&s, t + i + 1, j - i - 1);
			i = j < s.n && t[j] == '"' ? j + 1 : j;
			s.prev = T_STRING;
			continue;
		}
		run_flush(&s);
		tok = T_OTHER;
		if (word_byte((unsigned char)t[i])) {
			for (w = i; i < s.n && word_byte((unsigned char)t[i]); i++)
				;
			if (s.prev == T_OPEN && s.depth && !s.first[s.depth - 1])
				s.first[s.depth - 1] = w + 1;
			s.prev = T_WORD;
			s.prev_seq = has_seq(t + w, i - w);
			{
				const struct vocab_io_fn *io = vocab_io(t + w, i - w);

				s.prev_io = io && io->kind != VOCAB_IO_TEXT ? (int)io->kind : 0;
			}
			s.word = w;
			s.wlen = i - w;
			{
				size_t b = w;

				while (b && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\n'))
					b--;
				s.wfield = b && (t[b - 1] == '.' || (t[b - 1] == '>' && b > 1 &&
								     t[b - 2] == '-'));
			}
			continue;
		} else if (t[i] == '\'') {
			j = char_literal(&s, i);
			i = j ? j : i + 1;
		} else if (t[i] == '(') {
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
			i++;
		} else if (t[i] == ')' || t[i] == ',') {
			/* a wide seq call's argument that ends in a name: x, X->x */
			if (s.prev == T_WORD && s.depth && (s.open[s.depth - 1] & F_SEQ) &&
			    !(s.open[s.depth - 1] & F_BUF)) {
				if (s.open[s.depth - 1] & (F_WIDE | F_PUT))
					NAME_ADD(&s, printed, nprinted, hprinted, s.word, s.wlen,
						 s.wfield);
				NAME_ADD(&s, seqargs, nseqargs, hseqargs, s.word, s.wlen, s.wfield);
			}
			if (t[i] == ',') {
				s.prev = T_COMMA;
				i++;
				continue;
			}
			if (s.depth) {
				s.depth--;
				s.nseq -= s.open[s.depth] & F_SEQ;
				close_call(&s, s.open[s.depth]);
			}
			i++;
		} else if (t[i] == '=' && t[i + 1] != '=' &&
			   (!i || !t[i - 1] || !strchr("=!<>", t[i - 1]))) {
			/* the name assigned: "NAME =", "X->NAME =", "NAME +=" */
			s.alen = s.prev == T_WORD || (i && t[i - 1] && strchr("+-|&^", t[i - 1])) ?
				s.wlen : 0;
			s.assigned = s.word;
			s.afield = s.wfield;
			tok = T_ASSIGN;
			i++;
		} else {
			if (t[i] == '{' && !s.braces++)
				s.func++;
			else if (t[i] == '}' && s.braces)
				s.braces--;
			tok = T_OTHER;
			i++;
		}
		s.prev = tok;
	}
	run_flush(&s);
	while (s.depth)
		close_call(&s, s.open[--s.depth]);
	if (names_meet(&s, s.held, s.nheld, s.printed, s.nprinted) ||
	    names_meet(&s, s.bufs, s.nbufs, s.seqargs, s.nseqargs))
		s.bits |= PF_INT_CAST;
	if (field_held)
		for (i = 0, *field_held = 0; i < s.nheld; i++)
			*field_held |= s.held[i].field;
	free(s.held);
	free(s.printed);
	free(s.bufs);
	free(s.seqargs);
	free(s.first);
	free(s.run);
	free(s.open);
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

/*
 * A seq-output function of scripts/vocab.def, a writer without a format,
 * or a wrapper the rules were given: named other than in a call (a
 * function pointer, a macro's argument), it may print through a path no
 * call shows.
 */
static int output_name(const char *w, size_t len)
{
	size_t i;

	if (vocab_io(w, len) || is_wrapper(w, len))
		return 1;
	for (i = 0; i < vocab_nseq_outputs; i++)
		if (is_word(w, len, vocab_seq_outputs[i].name))
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
	return is_word(w, len, "typedef") || is_word(w, len, "__user") ||
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
static size_t next_token(const struct scan *s, size_t i, size_t end, struct tok *tk)
{
	const char *t = s->t;
	size_t j, k, l;

	i = skip_blank(s, i);
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
	} else if (t[i] == '\'' && (j = char_literal(s, i)) && j <= end) {
		tk->kind = TK_CHAR;
	} else if (word_byte((unsigned char)t[i])) {
		for (j = i; j < end && word_byte((unsigned char)t[j]); j++)
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

static int is_punct(const struct scan *s, const struct tok *tk, const char *p)
{
	return tk->kind == TK_PUNCT && is_word(s->t + tk->start, tk->len, p);
}

static void split_chunks(const struct scan *s, struct chunks *c)
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
			else if (s->t[skip_blank(s, i)] == '(')
				k.calls |= has_seq(w, tk.len);
			else if (!tag && output_name(w, tk.len))
				k.named = 1;
			tag = is_word(w, tk.len, "struct") || is_word(w, tk.len, "union") ||
			      is_word(w, tk.len, "enum");
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

static int same_text(const struct scan *a, const struct chunk *x,
		     const struct scan *b, const struct chunk *y)
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
 * spliced text (splice(): backslash-newlines removed, which the lines
 * the lexical model counts keep).
 */
static unsigned int written_line(const char *t, size_t n, size_t at)
{
	size_t i = 0, seen = 0, k;
	unsigned int line = 1;

	while (i < n && seen < at) {
		k = splice_len(t, n, i);
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
static int quiet_function(const struct scan *s, const struct chunk *k, const char *t, size_t n,
			  const struct pf_judge *j, int which)
{
	int field = 0;

	if (!k->body || k->global || k->named ||
	    scan_text(s->t + k->start, k->end - k->start, 0, &field) || field)
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
static void split_units(const struct scan *s, size_t from, size_t to, struct units *u)
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
static void words_add(const struct scan *s, size_t from, size_t to, struct words *ws)
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
			if (!word_byte((unsigned char)s->t[k])) {
				k++;
				continue;
			}
			for (w = k; k < tk.start + tk.len && word_byte((unsigned char)s->t[k]); k++)
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
		if (is_word(w, len, list[i]))
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
static int fresh_declaration(const struct scan *s, const struct tok *tk, size_t n,
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
		if (first && !parens && (is_word(w, len, "struct") || is_word(w, len, "union") ||
					 is_word(w, len, "enum"))) {
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
static int inert_unit(const struct scan *s, size_t from, size_t to, const struct words *common)
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
		     has_seq(w, len) || output_name(w, len)))
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
	if (scan_text(s->t + from, to - from, 0, &field) || field)
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
static int inert_edit(const struct scan *b, const struct chunk *x, const char *bt, size_t bn,
		      const struct scan *a, const struct chunk *y, const char *at, size_t an,
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
		const struct scan *s = k ? a : b;
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
	struct scan b = { 0 }, a = { 0 };
	struct chunks cb = { 0 }, ca = { 0 };
	char *spliced_b, *spliced_a;
	size_t i;
	int ret = 0;

	spliced_b = splice(before, blen, 0, &b.n);
	spliced_a = splice(after, alen, 0, &a.n);
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
