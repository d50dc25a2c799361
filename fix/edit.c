// SPDX-License-Identifier: GPL-2.0
/*
 * fix_edit: the byte edits that fix a file, made from the findings alone.
 *
 * Only what must change is touched: the conversion inside the literal
 * (%px to %p, %p to %pK) and, for a pointer cast to an integer, the
 * conversion (to %p) and the cast (removed, with what lies between it
 * and its operand).  Comments, line breaks and every other argument
 * stay byte for byte, whatever the shape of the call; the indentation of
 * the call's continuation lines only where checkpatch --strict asks for
 * it (fix/align.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fix/fix.h"
#include "lib/ptrguard.h"
#include "model/tokenize.h"
#include "model/vocab.h"

/*
 * The text of t[s..e) without blanks and comments outside literals (and
 * without line splices outside literals), token after token.
 */
static char *squeeze(const char *t, size_t s, size_t e)
{
	char *out = xmalloc(e - s + 1);
	size_t o = 0, i;
	struct tok_state st;
	struct token k;

	tok_start_at(&st, t, e, s);
	while (tok_next(&st, &k)) {
		int lit = k.kind == TOK_STRING || k.kind == TOK_CHAR;

		for (i = k.off; i < k.off + k.len; i++) {
			size_t j = lit ? 0 : tok_splice_len(t, e, i);

			if (j)
				i += j - 1;
			else
				out[o++] = t[i];
		}
	}
	out[o] = 0;
	return out;
}

/* The end of the argument that starts at @s: its ',' or ')' at depth 0. */
static size_t arg_end(const char *t, size_t n, size_t s)
{
	struct tok_state st;
	struct token k;
	int depth = 0;

	tok_start_at(&st, t, n, s);
	while (tok_next(&st, &k)) {
		char c = k.kind == TOK_PUNCT && k.len == 1 ? t[k.off] : 0;

		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth-- == 0)
			return k.off;
		else if ((c == ',' || c == ';') && depth == 0)
			return k.off;
	}
	return n;
}

/*
 * The arguments after the one that holds @off (the format), up to the
 * call's closing parenthesis: their spans in @s/@e, at most @max.
 */
static size_t later_args(const char *t, size_t n, size_t off, size_t *s, size_t *e, size_t max)
{
	size_t i = off, k = 0;

	/* @off is inside a literal: start past its closing quote */
	while (i < n && t[i] != '"')
		i += t[i] == '\\' ? 2 : 1;
	/* the rest of the format, then each argument after a comma */
	i = arg_end(t, n, i + 1);
	while (i < n && t[i] == ',' && k < max) {
		s[k] = i + 1;
		i = e[k++] = arg_end(t, n, i + 1);
	}
	return k;
}

size_t fix_operand(const char *t, size_t s, size_t e)
{
	size_t i = tok_skip_blank(t, e, s), words;
	struct tok_state st;
	struct token k;

	/* "(" NAME... ")", then the operand, as often as they come */
	for (;;) {
		tok_start_at(&st, t, e, i);
		if (!tok_next(&st, &k) || !tok_is(t, &k, "("))
			return i;
		for (words = 0; tok_next(&st, &k) && k.kind == TOK_NAME; words++)
			;
		if (!words || k.off + k.len > e || !tok_is(t, &k, ")") ||
		    tok_skip_blank(t, e, k.off + k.len) >= e)
			return i;
		i = tok_skip_blank(t, e, k.off + k.len);
	}
}

int fix_edit_cmp(const void *a, const void *b)
{
	const struct fix_edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

char *fix_edits_apply(const char *text, size_t len, const struct fix_edit *ed, size_t n,
		      size_t *newlen)
{
	size_t grow = 0, pos = 0, i, *at = xmalloc((n + 1) * sizeof(*at));
	char *edited, *o, *out;

	for (i = 0; i < n; i++)
		grow += strlen(ed[i].text);
	o = edited = xmalloc(len + grow + 1);
	for (i = 0; i < n; i++) {
		memcpy(o, text + pos, ed[i].start - pos);
		o += ed[i].start - pos;
		at[i] = (size_t)(o - edited);
		memcpy(o, ed[i].text, strlen(ed[i].text));
		o += strlen(ed[i].text);
		pos = ed[i].end;
	}
	memcpy(o, text + pos, len - pos);
	o += len - pos;
	*o = 0;
	/* the lines it touched are the patch's: aligned as checkpatch asks */
	out = fix_align(edited, (size_t)(o - edited), at, n, newlen);
	free(edited);
	free(at);
	return out;
}

char *fix_apply(const char *file, const char *text, size_t len,
		const struct finding *const *findings, size_t n, size_t *newlen)
{
	struct fix_edit *ed = xmalloc((2 * n + 1) * sizeof(*ed));
	size_t ned = 0, i, k, *lines, nlines = 1, used_n = 0;
	size_t *used = xmalloc((n + 1) * sizeof(*used));
	char *out = NULL;

	for (i = 0; i < len; i++)
		nlines += text[i] == '\n';
	lines = xmalloc((nlines + 1) * sizeof(*lines));
	lines[0] = 0;
	for (i = 0, k = 1; i < len; i++)
		if (text[i] == '\n')
			lines[k++] = i + 1;

	for (i = 0; i < n; i++) {
		const struct finding *f = findings[i];
		const struct vocab_class *vc = vocab_class(f->cls);
		size_t cl = strlen(f->conversion), off;

		/*
		 * No automatic fix (vocab.def): an address held in an integer
		 * or formatted into a buffer is fixed where it is made, not in
		 * the literal; the finding stays for a human.
		 */
		if (!vc || !vc->fix)
			continue;
		if (f->line < 1 || f->line > nlines || f->column < 1)
			goto lost;
		off = lines[f->line - 1] + f->column - 1;
		if (off + cl > len || memcmp(text + off, f->conversion, cl))
			goto lost;
		if (!strcmp(f->cls, "p-unhashed")) {
			ed[ned++] = (struct fix_edit){ off + cl, off + cl, "K" };
		} else if (!strcmp(f->cls, "int-cast")) {
			size_t as[64], ae[64], na, a;
			char *want = squeeze(f->arg, 0, strlen(f->arg));

			ed[ned++] = (struct fix_edit){ off, off + cl, "%p" };
			na = later_args(text, len, off, as, ae, 64);
			for (a = 0; a < na; a++) {
				char *got = squeeze(text, as[a], ae[a]);
				size_t u, s = tok_skip_blank(text, ae[a], as[a]);
				int taken = 0;

				for (u = 0; u < used_n; u++)
					taken |= used[u] == s;
				if (!taken && !strcmp(got, want) && fix_operand(text, s, ae[a]) > s) {
					free(got);
					break;
				}
				free(got);
			}
			/*
			 * A format kept in a variable: its literal is not in the
			 * call; the argument is where the judge saw it.  The
			 * literals of one ?: share it: the same edit, once.
			 */
			if (a == na && f->arg_line >= 1 && f->arg_line <= nlines && f->arg_column >= 1) {
				size_t s0 = lines[f->arg_line - 1] + f->arg_column - 1;

				if (s0 < len) {
					char *got;

					as[0] = s0;
					ae[0] = arg_end(text, len, s0);
					got = squeeze(text, as[0], ae[0]);
					if (!strcmp(got, want) && fix_operand(text, s0, ae[0]) > s0)
						a = 0, na = 1;
					free(got);
				}
			}
			free(want);
			if (a == na) {
				error("fix: %s:%u: cannot find the cast argument '%s' of %s",
				      file, f->line, f->arg, f->conversion);
				goto out;
			}
			used[used_n] = tok_skip_blank(text, ae[a], as[a]);
			ed[ned++] = (struct fix_edit){ used[used_n], fix_operand(text, used[used_n], ae[a]), "" };
			used_n++;
		} else {
			/* px, and with --all px-gated and px-user: the last 'x' goes */
			const char *x = strrchr(f->conversion, 'x');

			if (!x)
				goto lost;
			off += (size_t)(x - f->conversion);
			ed[ned++] = (struct fix_edit){ off, off + 1, "" };
		}
		continue;
lost:
		error("fix: %s:%u:%u: %s is not there in the file", file, f->line, f->column,
		      f->conversion);
		goto out;
	}
	qsort(ed, ned, sizeof(*ed), fix_edit_cmp);
	for (i = 1, k = 0; i < ned; i++) {
		if (ed[i].start == ed[k].start && ed[i].end == ed[k].end)
			continue;	/* the same edit twice */
		if (ed[k].end > ed[i].start && ed[i].start != ed[k].start) {
			error("fix: %s: overlapping edits at byte %zu", file, ed[k].start);
			goto out;
		}
		ed[++k] = ed[i];
	}
	out = fix_edits_apply(text, len, ed, ned ? k + 1 : 0, newlen);
out:
	free(ed);
	free(used);
	free(lines);
	return out;
}
