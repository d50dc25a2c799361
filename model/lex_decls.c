// SPDX-License-Identifier: GPL-2.0
/*
 * lex_decls: what the text declares of a name, as C scopes it: a
 * "__user *" pointer, a pointer, an integer; and the integer casts of an
 * argument whose operand is visibly a pointer.
 */
#include <stdlib.h>
#include <string.h>

#include "model/lex_impl.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

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
size_t code_index(const struct model *m, size_t tok)
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
void find_scopes(struct model *m)
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
void find_users(struct model *m)
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
int user_name(const struct model *m, const char *name, size_t len, size_t use, int member)
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
int macro_param(const struct model *m, const struct span *s, const char *name, size_t len)
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
int int_cast(const struct model *m, const struct span *s, size_t b, size_t e,
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
