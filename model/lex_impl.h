/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lex_impl.h: what the files of the lexical model share (lex.h is the
 * interface): its view of the tokens of model/tokenize.c, the spans of
 * code and directive lines, the model of one file, and the steps the
 * files lend each other.
 *
 *   model/lex.c           the vocabulary, lex_scan(), lex_user_expr()
 *   model/lex_model.c     a file read into the model: tokens, spans,
 *                         enclosing functions
 *   model/lex_wrappers.c  the wrappers a file or a header defines
 *   model/lex_formats.c   the literals a call's format can be
 *   model/lex_decls.c     declarations: scopes, __user and pointer names,
 *                         integer casts
 *   model/lex_calls.c     the calls and the findings of their conversions
 */
#ifndef PTRGUARD_LEX_IMPL_H
#define PTRGUARD_LEX_IMPL_H

#include <stddef.h>

#include "model/lex.h"
#include "model/tokenize.h"

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

#define DEAD(k) (((k)->flags & TOKF_DEAD) != 0)
#define GAP(k) (((k)->flags & TOKF_GAP) != 0)

static inline int is(const struct lexer *lx, size_t i, const char *s)
{
	return i < lx->ntk && tok_is(lx->t, &lx->tk[i], s);
}

static inline int is_word(const struct lexer *lx, size_t i)
{
	return i < lx->ntk && lx->tk[i].kind == K_WORD;
}

/* The first token of the directive that starts at token @i ("if", "define"...). */
static inline size_t dir_word(const struct lexer *lx, size_t i)
{
	return i + 1 < lx->ntk && lx->tk[i + 1].dir == lx->tk[i].dir ? i + 1 : lx->ntk;
}

/* The live tokens of the code (not a directive), or of one directive line. */
struct span {
	size_t *ix;
	size_t n;
};

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

static inline int s_is(const struct model *m, const struct span *s, size_t i, const char *w)
{
	return i < s->n && is(&m->lx, s->ix[i], w);
}

static inline int s_word(const struct model *m, const struct span *s, size_t i)
{
	return i < s->n && is_word(&m->lx, s->ix[i]);
}

/*
 * One literal a format can be: its string tokens (lexer tokens, of the
 * call's line or of the body of a macro the file defines).
 */
struct alt {
	size_t *strs;
	size_t n;
	int macro;		/* a word (a macro the model cannot read) among the pieces */
	/*
	 * NULL: each string token whole; else the bytes of each taken, as
	 * offsets [from, to) into its text between the quotes (a format a
	 * sprintf() built from a literal template and literal %s values)
	 */
	size_t (*cut)[2];
};

struct alts {
	struct alt *a;
	size_t n;
};

/*
 * The most literals one format is read as (each ?: branch, macro
 * definition, array element, member of a table of structs).
 */
#define MAX_ALTS 256

/* The joined content of an alternative, as written, and where each byte came from. */
struct joined {
	char *text;		/* "\"...\"" */
	size_t len;
	unsigned int *line, *col;	/* per byte of text (after the opening quote) */
};

/* lex_model.c */
void lex_tokens(struct lexer *lx);
void mark_dead(struct lexer *lx);
void span_add(struct span *s, size_t i, size_t *alloc);
size_t s_close(const struct model *m, const struct span *s, size_t i);
size_t s_args(const struct model *m, const struct span *s, size_t open, size_t close,
	      size_t (*a)[2], size_t max);
char *s_text(const struct model *m, const struct span *s, size_t b, size_t e);
size_t split_lines(struct model *m, struct span **dirsp);
size_t model_read(struct model *m, const char *buf, size_t len, struct span **dirs);
void model_free(struct model *m, struct span *dirs, size_t ndirs);

/* lex_wrappers.c */
int macro_wrapper(struct model *m, const struct span *d);
int function_wrapper(struct model *m, size_t brace);
int is_hander(const struct model *m, const char *name);

/* lex_formats.c */
void alts_free(struct alts *x);
int literal_alts(const struct model *m, const struct span *s, size_t b, size_t e,
		 struct alts *out);
const char *variable_alts(struct model *m, size_t at, int indexed, struct alts *out);
const char *computed_alts(struct model *m, size_t b, size_t e, struct alts *out);
void join_alt(const struct model *m, const struct span *s, const struct alt *a,
	      struct joined *j);
void joined_free(struct joined *j);
char *decode_joined(const struct joined *j, size_t *n, size_t **raw);

/* lex_decls.c */
int macro_param(const struct model *m, const struct span *s, const char *name, size_t len);
int user_name(const struct model *m, const char *name, size_t len, size_t use, int member);
int int_cast(const struct model *m, const struct span *s, size_t b, size_t e,
	     const char **why);
size_t code_index(const struct model *m, size_t tok);
void find_scopes(struct model *m);
void find_users(struct model *m);

/* lex_calls.c */
void find_calls(struct model *m, const struct span *s, const char *where, struct lex_file *out);
void call_free(struct lex_call *c);

/* lex_tables.c and lex_formats.c: reading formats held in tables */
/*
 * What a table's element is read as: every element, or the one of a
 * constant index; for a table of structs, member @member.
 */
struct pick {
	const struct span *s;	/* the index, s[b, e) */
	size_t b, e;
	const struct token *member;	/* TABLE[I].MEMBER; NULL: TABLE[I] */
};

/* The members of a struct, in order, as the file declares them. */
struct layout {
	const struct token *names[64];
	size_t n;
	int known;
};

int s_open(const struct model *m, const struct span *s, size_t i);
int s_shut(const struct model *m, const struct span *s, size_t i);
int tok_same(const struct model *m, const struct token *a, const struct token *b);
int expand_macro(const struct model *m, const struct span *s, size_t b, size_t e,
		 struct span *out);
const char *init_alts(struct model *m, const struct span *s, size_t b, size_t e,
		      const struct pick *p, const struct layout *l, struct alts *out);
const char *table_alts(struct model *m, const struct span *s, size_t b, size_t e,
		       const char *func, size_t skip, struct alts *out, int *shape);
size_t callee_of(const struct model *m, const struct span *s, size_t i);
const char *named_alts(struct model *m, const struct token *nm, const char *func,
		       size_t skip, const struct pick *p, struct alts *out);

#endif
