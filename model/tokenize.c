// SPDX-License-Identifier: GPL-2.0
/*
 * tokenize: C text into preprocessing tokens, as GCC reads it (see
 * tokenize.h).  One byte at a time, as sparse's tokenize.c does: every
 * read of the next byte first steps over line splices (sp()), so a splice
 * may sit anywhere, inside a name or between the two bytes of "/" "*".
 */
#include <stdlib.h>
#include <string.h>

#include "model/tokenize.h"
#include "lib/ptrguard.h"

/* Byte classes: a table, as the tokenizer asks for every byte. */
enum { C_NAME = 1, C_DIGIT = 2, C_BLANK = 4, C_PUNCT = 8, C_ALONE = 16 };

static const unsigned char cls[256] = {
	['\0'] = C_BLANK, [' '] = C_BLANK, ['\t'] = C_BLANK, ['\f'] = C_BLANK, ['\v'] = C_BLANK,
	['0' ... '9'] = C_DIGIT, ['a' ... 'z'] = C_NAME, ['A' ... 'Z'] = C_NAME, ['_'] = C_NAME,
	['$'] = C_NAME, [0x80 ... 0xff] = C_NAME,
	/* punctuators: those that start no longer one are C_ALONE */
	['('] = C_PUNCT | C_ALONE, [')'] = C_PUNCT | C_ALONE, ['['] = C_PUNCT | C_ALONE,
	[']'] = C_PUNCT | C_ALONE, ['{'] = C_PUNCT | C_ALONE, ['}'] = C_PUNCT | C_ALONE,
	[','] = C_PUNCT | C_ALONE, [';'] = C_PUNCT | C_ALONE, ['~'] = C_PUNCT | C_ALONE,
	['?'] = C_PUNCT | C_ALONE, ['.'] = C_PUNCT, ['&'] = C_PUNCT, ['*'] = C_PUNCT,
	['+'] = C_PUNCT, ['-'] = C_PUNCT, ['!'] = C_PUNCT, ['/'] = C_PUNCT,
	['%'] = C_PUNCT, ['<'] = C_PUNCT, ['>'] = C_PUNCT, ['^'] = C_PUNCT, ['|'] = C_PUNCT,
	[':'] = C_PUNCT, ['='] = C_PUNCT, ['#'] = C_PUNCT,
};

int tok_name_start(unsigned char c)
{
	return cls[c] & C_NAME;
}

int tok_name_byte(unsigned char c)
{
	return cls[c] & (C_NAME | C_DIGIT);
}

/* GCC's blanks between a backslash and its newline (is_nvspace()). */
static int nvspace(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\0';
}

/* The length of the newline at @t[@i] ("\n", "\r\n", "\r"), or 0. */
static size_t newline_len(const char *t, size_t n, size_t i)
{
	if (t[i] == '\n')
		return 1;
	if (t[i] == '\r')
		return i + 1 < n && t[i + 1] == '\n' ? 2 : 1;
	return 0;
}

size_t tok_splice_len(const char *t, size_t n, size_t i)
{
	size_t k = i + 1;

	if (i >= n || t[i] != '\\')
		return 0;
	while (k < n && nvspace(t[k]))
		k++;
	if (k >= n)	/* GCC ends every file in a newline */
		return k - i;
	return t[k] == '\n' || t[k] == '\r' ? k - i + newline_len(t, n, k) : 0;
}

/* @i, past the line splices there. */
static inline size_t sp(const char *t, size_t n, size_t i)
{
	size_t k;

	while (i < n && t[i] == '\\' && (k = tok_splice_len(t, n, i)))
		i += k;
	return i;
}

/* The logical byte at @i (after splices), or -1 at the end; *@at its offset. */
static inline int peek(const char *t, size_t n, size_t i, size_t *at)
{
	*at = sp(t, n, i);
	return *at < n ? (unsigned char)t[*at] : -1;
}

/* Move to @j, counting the lines ("\n") passed. */
static void advance(struct tok_state *s, size_t j)
{
	const char *t = s->t;
	size_t p;

	for (p = s->i; p < j; p++)
		if (t[p] == '\n') {
			s->line++;
			s->bol = p + 1;
		}
	s->i = j;
}

void tok_start(struct tok_state *s, const char *t, size_t n, int comments)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->n = n;
	s->line = 1;
	s->bol_logical = 1;
	s->comments = comments;
}

void tok_start_at(struct tok_state *s, const char *t, size_t n, size_t i)
{
	tok_start(s, t, n, 0);
	s->i = s->bol = i;
	s->bol_logical = 0;
}

size_t tok_end(const char *t, size_t n, size_t i)
{
	struct tok_state s;
	struct token k;

	tok_start_at(&s, t, n, i);
	return tok_next(&s, &k) ? k.off + k.len : n;
}

/* The end of the comment whose "/" is at @i, its second byte at @j. */
static size_t comment_end(const char *t, size_t n, size_t j, int *open)
{
	size_t k, m;

	*open = 0;
	if (t[j] == '/') {
		for (k = j + 1; k < n;) {
			if ((m = tok_splice_len(t, n, k)))
				k += m;
			else if (t[k] == '\n' || t[k] == '\r')
				return k;
			else
				k++;
		}
		return n;
	}
	for (k = j + 1; k < n; k++) {
		const char *star = memchr(t + k, '*', n - k);

		if (!star)
			break;
		k = (size_t)(star - t);
		if (peek(t, n, k + 1, &m) == '/')
			return m + 1;
	}
	*open = 1;
	return n;
}

/* The end of the literal whose quote @q is at @i; *@open if it never closes on its line. */
static size_t literal_end(const char *t, size_t n, size_t i, char q, int *open)
{
	size_t k = i + 1;
	int c;

	*open = 0;
	for (;;) {
		c = peek(t, n, k, &k);
		if (c < 0 || c == '\n' || c == '\r') {
			*open = 1;
			return k;
		}
		if (c == q)
			return k + 1;
		if (c == '\\' && peek(t, n, k + 1, &k) >= 0 && t[k] != '\n' && t[k] != '\r')
			k++;
		else if (c != '\\')
			k++;
	}
}

/*
 * The end of the raw string whose quote is at @i (R"d(...)d"), or 0 if
 * its delimiter is not one; no splice is removed inside (GCC undoes them).
 */
static size_t raw_end(const char *t, size_t n, size_t i, int *open)
{
	size_t k, d = i + 1;
	const char *p;

	for (k = d; k < n && k - d <= 16; k++) {
		unsigned char c = (unsigned char)t[k];

		if (c == '(')
			break;
		if (c == ' ' || c == ')' || c == '\\' || c < 0x20 || c == 0x7f)
			return 0;
	}
	if (k >= n || t[k] != '(' || k - d > 16)
		return 0;
	*open = 0;
	for (p = t + k + 1; (p = memchr(p, ')', (size_t)(t + n - p))); p++)
		if ((size_t)(t + n - p) > k - d + 1 && !memcmp(p + 1, t + d, k - d) &&
		    p[1 + k - d] == '"')
			return (size_t)(p - t) + k - d + 2;
	*open = 1;
	return n;
}

/*
 * A literal with a prefix at @i (L"", u8"", R"x()x", LR""): its end, its
 * kind in *@kind, or 0 if @i starts none.
 */
static size_t prefixed(const char *t, size_t n, size_t i, unsigned char *kind, int *open)
{
	size_t p1, p2, p3;
	int c = (unsigned char)t[i], c1 = peek(t, n, i + 1, &p1), c2, c3;
	size_t e;

	if ((c == 'L' || c == 'u' || c == 'U') && (c1 == '"' || c1 == '\'')) {
		*kind = c1 == '"' ? TOK_STRING : TOK_CHAR;
		return literal_end(t, n, p1, (char)c1, open);
	}
	if (c1 < 0)
		return 0;
	c2 = peek(t, n, p1 + 1, &p2);
	*kind = TOK_STRING;
	if (c == 'u' && c1 == '8' && c2 == '"')
		return literal_end(t, n, p2, '"', open);
	if (c == 'R' && c1 == '"')
		return raw_end(t, n, p1, open);
	if ((c == 'L' || c == 'u' || c == 'U') && c1 == 'R' && c2 == '"' &&
	    (e = raw_end(t, n, p2, open)))
		return e;
	if (c == 'u' && c1 == '8' && c2 == 'R') {
		c3 = peek(t, n, p2 + 1, &p3);
		if (c3 == '"')
			return raw_end(t, n, p3, open);
	}
	return 0;
}

/*
 * The end of the punctuator at @i, or 0 if @i starts none: the longest
 * one ("<<=", "->", "...", "::", the digraphs "<:" ":>" "<%" "%>" "%:"
 * "%:%:").
 */
static size_t punct_end(const char *t, size_t n, size_t i)
{
	size_t p1, p2, p3;
	int c0 = (unsigned char)t[i], c1, c2;

	if (!(cls[c0] & C_PUNCT))
		return 0;
	if (cls[c0] & C_ALONE)
		return i + 1;
	c1 = peek(t, n, i + 1, &p1);
	switch (c0) {
	case '-':
		if (c1 == '>' || c1 == '-' || c1 == '=')
			return p1 + 1;
		break;
	case '+':
	case '&':
	case '|':
		if (c1 == c0 || c1 == '=')
			return p1 + 1;
		break;
	case '*':
	case '/':
	case '^':
	case '!':
	case '=':
		if (c1 == '=')
			return p1 + 1;
		break;
	case '#':
		if (c1 == '#')
			return p1 + 1;
		break;
	case ':':
		/* "::": GCC reads it as one in gnu modes (C23's scope token) */
		if (c1 == '>' || c1 == ':')
			return p1 + 1;
		break;
	case '.':
		if (c1 == '.' && peek(t, n, p1 + 1, &p2) == '.')
			return p2 + 1;
		break;
	case '<':
	case '>':
		if (c1 == c0)
			return peek(t, n, p1 + 1, &p2) == '=' ? p2 + 1 : p1 + 1;
		if (c1 == '=' || (c0 == '<' && (c1 == ':' || c1 == '%')))
			return p1 + 1;
		break;
	case '%':
		if (c1 == '=' || c1 == '>')
			return p1 + 1;
		if (c1 == ':') {
			c2 = peek(t, n, p1 + 1, &p2);
			if (c2 == '%' && peek(t, n, p2 + 1, &p3) == ':')
				return p3 + 1;
			return p1 + 1;
		}
		break;
	}
	return i + 1;
}

/* The end of the name or pp-number at @i. */
static size_t word_end(const char *t, size_t n, size_t i, int number)
{
	size_t end = i + 1, m;
	int prev = (unsigned char)t[i], c;

	for (;;) {
		while (end < n && (cls[(unsigned char)t[end]] & (C_NAME | C_DIGIT)))
			prev = (unsigned char)t[end++];
		c = peek(t, n, end, &m);
		if (c < 0)
			break;
		if (tok_name_byte((unsigned char)c) ||
		    (number && (c == '.' || ((c == '+' || c == '-') &&
					     (prev == 'e' || prev == 'E' || prev == 'p' ||
					      prev == 'P'))))) {
			end = m + 1;
			prev = c;
			continue;
		}
		break;
	}
	return end;
}

int tok_next(struct tok_state *s, struct token *k)
{
	const char *t = s->t;
	size_t n = s->n, i, j, end;
	int gap = 0, open = 0, c;

	for (;;) {
		i = s->i;
		if (i >= n)
			return 0;
		c = (unsigned char)t[i];
		if (c == '\\' && (j = tok_splice_len(t, n, i))) {
			advance(s, i + j);
			gap = 1;
			continue;
		}
		if (c == '\n' || c == '\r') {
			s->i = i + newline_len(t, n, i);
			if (t[s->i - 1] == '\n') {
				s->line++;
				s->bol = s->i;
			}
			s->dir = 0;
			s->include = 0;
			s->bol_logical = 1;
			gap = 1;
			continue;
		}
		if (cls[c] & C_BLANK) {
			while (++i < n && (cls[(unsigned char)t[i]] & C_BLANK))
				;
			s->i = i;
			gap = 1;
			continue;
		}
		if (c == '/') {
			int c1 = peek(t, n, i + 1, &j);

			if (c1 == '*' || c1 == '/') {
				end = comment_end(t, n, j, &open);
				if (s->comments) {
					k->kind = TOK_COMMENT;
					break;
				}
				advance(s, end);
				gap = 1;
				continue;
			}
		}
		k->kind = TOK_PUNCT;
		if (s->include == 2 && c == '<') {
			for (end = i + 1; (c = peek(t, n, end, &end)) >= 0 && c != '>' && c != '\n' &&
			     c != '\r';)
				end++;
			if (c == '>') {
				k->kind = TOK_HEADER;
				end++;
				break;
			}
			c = '<';
		}
		if ((c == 'L' || c == 'u' || c == 'U' || c == 'R') &&
		    (end = prefixed(t, n, i, &k->kind, &open))) {
			break;
		} else if (c == '"' || c == '\'') {
			k->kind = c == '"' ? TOK_STRING : TOK_CHAR;
			end = literal_end(t, n, i, (char)c, &open);
		} else if (tok_name_start((unsigned char)c)) {
			k->kind = TOK_NAME;
			end = word_end(t, n, i, 0);
		} else if ((c >= '0' && c <= '9') ||
			   (c == '.' && (c = peek(t, n, i + 1, &j)) >= '0' && c <= '9')) {
			k->kind = TOK_NUMBER;
			end = word_end(t, n, i, 1);
		} else if (!(end = punct_end(t, n, i))) {
			k->kind = TOK_OTHER;
			end = i + 1;
		}
		break;
	}
	k->off = i;
	k->len = end - i;
	k->line = s->line;
	k->col = (unsigned int)(i - s->bol);
	k->flags = (gap ? TOKF_GAP : 0) | (open ? TOKF_OPEN : 0);
	if (k->kind == TOK_COMMENT) {
		k->dir = s->dir;
		advance(s, end);
		return 1;
	}
	if (s->bol_logical) {
		k->flags |= TOKF_BOL;
		if (k->kind == TOK_PUNCT && (tok_is(t, k, "#") || tok_is(t, k, "%:"))) {
			s->dir = ++s->ndirs;
			s->include = 1;
		}
	} else if (s->include == 1) {
		s->include = k->kind == TOK_NAME && (tok_is(t, k, "include") ||
						     tok_is(t, k, "include_next") ||
						     tok_is(t, k, "import")) ? 2 : 0;
	} else {
		s->include = 0;
	}
	s->bol_logical = 0;
	k->dir = s->dir;
	if (k->len > 1 && memchr(t + i, '\\', k->len)) {
		for (j = i; j < end; j++)
			if (tok_splice_len(t, n, j))
				k->flags |= TOKF_SPLICED;
	}
	/* only a literal or a splice can hold a newline */
	if (k->kind == TOK_NAME || k->kind == TOK_NUMBER || k->kind == TOK_PUNCT)
		if (!(k->flags & TOKF_SPLICED)) {
			s->i = end;
			return 1;
		}
	advance(s, end);
	return 1;
}

int tok_is(const char *t, const struct token *k, const char *s)
{
	/* the first byte first: most tokens are not the one asked for */
	return t[k->off] == s[0] && k->len == strlen(s) && !memcmp(t + k->off, s, k->len);
}

void tokenize(const char *t, size_t n, struct tokens *out)
{
	struct tok_state s;
	struct token k;

	memset(out, 0, sizeof(*out));
	out->t = t;
	out->n = n;
	tok_start(&s, t, n, 1);
	while (tok_next(&s, &k)) {
		if (k.kind == TOK_COMMENT) {
			out->broken |= (k.flags & TOKF_OPEN) != 0;
			continue;
		}
		if (k.kind == TOK_STRING && (k.flags & TOKF_OPEN) && !k.dir)
			out->broken = 1;
		if (out->ntk == out->alloc) {
			out->alloc = out->alloc ? 2 * out->alloc : 1024;
			out->tk = xrealloc(out->tk, out->alloc * sizeof(*out->tk));
		}
		out->tk[out->ntk++] = k;
	}
}

void tokens_free(struct tokens *out)
{
	free(out->tk);
	memset(out, 0, sizeof(*out));
}

size_t tok_skip_blank(const char *t, size_t n, size_t i)
{
	size_t j;
	int open;

	while (i < n) {
		unsigned char c = (unsigned char)t[i];

		if (c == '\\' && (j = tok_splice_len(t, n, i))) {
			i += j;
		} else if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\0' ||
			   c == '\n' || c == '\r') {
			i++;
		} else if (c == '/') {
			int c1 = peek(t, n, i + 1, &j);

			if (c1 != '*' && c1 != '/')
				break;
			i = comment_end(t, n, j, &open);
		} else {
			break;
		}
	}
	return i;
}

/* The directive word of the "#" token @i ("if", "define"...): its index, or tk->ntk. */
static size_t dir_word(const struct tokens *tk, size_t i)
{
	return i + 1 < tk->ntk && tk->tk[i + 1].dir == tk->tk[i].dir ? i + 1 : tk->ntk;
}

/* Is token @i the "#" that opens a directive? */
static int dir_start(const struct tokens *tk, size_t i)
{
	return tk->tk[i].dir && (tk->tk[i].flags & TOKF_BOL);
}

static int is_at(const struct tokens *tk, size_t i, const char *s)
{
	return i < tk->ntk && tok_is(tk->t, &tk->tk[i], s);
}

void tok_mark_dead(struct tokens *tk)
{
	size_t i, j, w;
	int depth;

	for (i = 0; i < tk->ntk; i++) {
		if (!dir_start(tk, i))
			continue;
		w = dir_word(tk, i);
		if (!is_at(tk, w, "if") || !is_at(tk, w + 1, "0") || tk->tk[w + 1].dir != tk->tk[i].dir ||
		    (w + 2 < tk->ntk && tk->tk[w + 2].dir == tk->tk[i].dir))
			continue;
		depth = 0;
		for (j = w + 2; j < tk->ntk; j++) {
			if (dir_start(tk, j)) {
				size_t x = dir_word(tk, j);

				if (is_at(tk, x, "if") || is_at(tk, x, "ifdef") || is_at(tk, x, "ifndef"))
					depth++;
				else if (is_at(tk, x, "endif") && depth)
					depth--;
				else if (!depth && (is_at(tk, x, "endif") || is_at(tk, x, "else") ||
						    is_at(tk, x, "elif")))
					break;
			}
			tk->tk[j].flags |= TOKF_DEAD;
		}
		i = j;
	}
}
