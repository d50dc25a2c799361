/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tokenize: the one reader of C text, for every part that reads C
 * (the lexical model, the prefilter, the fix's edits and its search for
 * who reads a file).
 *
 * It splits text into preprocessing tokens as GCC's preprocessor does in
 * its default (gnu) mode, with no macro expanded and no directive obeyed:
 *  - a line splice (backslash, blanks GCC tolerates, newline) is removed
 *    anywhere, inside a name, a number, a "/" "*" comment opener too (not
 *    inside a raw string literal, as GCC undoes splices there);
 *  - newlines are "\n", "\r\n" and a "\r" alone (a "\r" alone ends a
 *    comment, a directive or a literal as GCC reads it, but lines are
 *    counted by "\n", as spatch, diff and editors count them);
 *  - comments ("/" "*" to "*" "/" and "//" to the end of the logical
 *    line) are blanks; so is a NUL byte outside literals and comments
 *    (GCC ignores it), and a NUL never ends the text;
 *  - names take letters, digits, "_", "$" and every byte >= 0x80;
 *  - numbers are pp-numbers ("0x1p-3", "1.e+5", ".5f", "12abc");
 *  - string and character literals take the prefixes L, u, U (and u8 for
 *    strings) and raw strings (R"x(...)x"); one without its closing quote
 *    runs to the end of the line (TOKF_OPEN); after #include, "<...>" is
 *    a header name;
 *  - punctuators are read longest first ("<<=", "->", "...", "::",
 *    digraphs);
 *  - a directive is a "#" (or "%:") first on a logical line, up to the
 *    end of that line; a "#" anywhere else is a punctuator;
 *  - trigraphs are not replaced (GCC's default): "??/" is "?", "?", "/".
 * Each token has its offset and length in the text (its spelling, line
 * splices included), its 1-based line and 0-based byte column.
 */
#ifndef PTRGUARD_TOKENIZE_H
#define PTRGUARD_TOKENIZE_H

#include <stddef.h>

enum tok_kind {
	TOK_NAME,
	TOK_NUMBER,
	TOK_STRING,	/* "...", L"...", u8"...", R"x(...)x" */
	TOK_CHAR,	/* '...', L'...' */
	TOK_PUNCT,
	TOK_OTHER,	/* a byte that starts no token ("@", "`", "\\" alone) */
	TOK_HEADER,	/* <...> after #include */
	TOK_COMMENT,	/* only from a tok_state started with @comments */
};

enum {
	TOKF_GAP = 1,		/* a blank, comment or splice comes before it */
	TOKF_BOL = 2,		/* the first token of its logical line */
	TOKF_OPEN = 4,		/* a literal or comment the text never closes */
	TOKF_SPLICED = 8,	/* its spelling holds a line splice */
	TOKF_DEAD = 16,		/* inside #if 0 (tok_mark_dead()) */
};

struct token {
	size_t off, len;	/* the spelling in the text */
	unsigned int line;	/* 1-based, of its first byte */
	unsigned int col;	/* 0-based byte column of its first byte */
	unsigned int dir;	/* 0, or the number (1, 2...) of the directive it is in */
	unsigned char kind;	/* enum tok_kind */
	unsigned char flags;	/* TOKF_* */
};

/* Where the reader is: tok_next() takes one token at a time. */
struct tok_state {
	const char *t;
	size_t n;
	size_t i;		/* the next byte */
	unsigned int line;	/* of t[i] */
	size_t bol;		/* where the physical line of t[i] starts */
	unsigned int dir;	/* the directive being read, or 0 */
	unsigned int ndirs;
	int bol_logical;	/* no token yet on this logical line */
	int include;		/* 1 after "#", 2 after "# include": "<" opens a header name */
	int comments;		/* hand comments out as TOK_COMMENT tokens */
};

void tok_start(struct tok_state *s, const char *t, size_t n, int comments);
/*
 * Read from offset @i of @t (not inside a token, not first on its line
 * for directives): for a part of a text, such as a call's arguments.
 * Lines and columns count from @i.
 */
void tok_start_at(struct tok_state *s, const char *t, size_t n, size_t i);
/* The next token into *@k: 1, or 0 at the end of the text. */
int tok_next(struct tok_state *s, struct token *k);

/* Every token of a text. */
struct tokens {
	const char *t;
	size_t n;
	struct token *tk;
	size_t ntk, alloc;
	/*
	 * The text does not read as C: a comment, or a string literal
	 * outside a directive, that never ends.
	 */
	int broken;
};

/* Tokenize @t (@n bytes) into @out (comments left out). */
void tokenize(const char *t, size_t n, struct tokens *out);
void tokens_free(struct tokens *out);
/* Mark the tokens of #if 0 blocks TOKF_DEAD, up to their #else, #elif or #endif. */
void tok_mark_dead(struct tokens *tk);

/* Is token @k the punctuator or name @s? */
int tok_is(const char *t, const struct token *k, const char *s);
/*
 * The offset of the first token at or after @i of @t (@n bytes), past
 * blanks, comments and line splices; @n if none.  @i must not be inside
 * a token.
 */
size_t tok_skip_blank(const char *t, size_t n, size_t i);
/* The end of the token that starts at @t[@i] (as tok_start_at() reads it). */
size_t tok_end(const char *t, size_t n, size_t i);
/* The length of the line splice at @t[@i], or 0. */
size_t tok_splice_len(const char *t, size_t n, size_t i);
/* Can @c be in a name (letters, digits, "_", "$", bytes >= 0x80)? */
int tok_name_byte(unsigned char c);
/* Can @c start a name? */
int tok_name_start(unsigned char c);

#endif
