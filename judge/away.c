// SPDX-License-Identifier: GPL-2.0
/*
 * away: where a formatted buffer leaves its function.
 *
 * bufout.cocci.in and bufaway.cocci.in give a formatting call (snprintf()
 * into a buffer, in a file with seq output) one "away" fact per way its
 * buffer leaves the function on some path:
 *
 *   pass G LINE        handed whole to the function G
 *   store LINE         stored through a field, an array or a global
 *   return FN LINE     returned by its function FN, whose result no seq
 *                      call of the file prints
 *   call FN G LINE     a call of FN whose result is handed to G ("-":
 *                      used otherwise)
 *
 * A buffer handed to a PG_BUF_SINK (model/vocab.def: printk(), pr_*(),
 * sysfs_emit(), strlen(), kfree()...) goes nowhere the reader of a seq
 * file sees; a returned one goes where its callers take it: nowhere
 * when every caller in the file hands it to a sink, beyond the file
 * when there is no caller.  What is left is the note's reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cocci/cocci_impl.h"
#include "judge/away.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

struct way {
	unsigned int line;
	char *text;
};

struct ways {
	struct way *w;
	size_t n;
};

static void way_add(struct ways *ws, unsigned int line, char *text)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		if (!strcmp(ws->w[i].text, text)) {
			free(text);
			return;
		}
	ws->w = xrealloc(ws->w, (ws->n + 1) * sizeof(*ws->w));
	ws->w[ws->n].line = line;
	ws->w[ws->n++].text = text;
}

static int way_cmp(const void *a, const void *b)
{
	const struct way *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return strcmp(x->text, y->text);
}

static int is_away(const struct cocci_fact *x, unsigned int line, unsigned int column)
{
	return x->line == line && x->column == column && x->mark == 'a' && x->arg == 0;
}

/* The callers of @fn (its "call" facts) that do more than hand its result to a sink. */
static void returned(struct ways *ws, const struct cocci_fact *x, size_t n, unsigned int line,
		     unsigned int column, const char *fn, unsigned int ret)
{
	char kind[16], name[128], to[128];
	unsigned int at;
	size_t i;
	int callers = 0;

	for (i = 0; i < n; i++) {
		if (!is_away(&x[i], line, column) ||
		    sscanf(x[i].what, "%15s %127s %127s %u", kind, name, to, &at) != 4 ||
		    strcmp(kind, "call") || strcmp(name, fn))
			continue;
		callers++;
		if (!strcmp(to, "-"))
			way_add(ws, at, xasprintf("returned by %s() to line %u", fn, at));
		else if (!vocab_buf_sink(to))
			way_add(ws, at, xasprintf("returned by %s() to %s() at line %u", fn, to, at));
	}
	if (!callers)
		way_add(ws, ret, xasprintf("returned by %s() at line %u, not called in the file",
					   fn, ret));
}

char *judge_away(const struct cocci_fact *x, size_t n, unsigned int line, unsigned int column)
{
	struct ways ws = { NULL, 0 };
	char kind[16], name[128];
	unsigned int at;
	char *out = NULL;
	size_t i, len = 0;

	for (i = 0; i < n; i++) {
		if (!is_away(&x[i], line, column))
			continue;
		if (sscanf(x[i].what, "%15s %127s %u", kind, name, &at) == 3) {
			if (!strcmp(kind, "pass") && !vocab_buf_sink(name))
				way_add(&ws, at, xasprintf("passed to %s() at line %u", name, at));
			else if (!strcmp(kind, "return"))
				returned(&ws, x, n, line, column, name, at);
		} else if (sscanf(x[i].what, "%15s %u", kind, &at) == 2 && !strcmp(kind, "store")) {
			way_add(&ws, at, xasprintf("stored at line %u", at));
		}
	}
	if (ws.n)
		qsort(ws.w, ws.n, sizeof(*ws.w), way_cmp);
	for (i = 0; i < ws.n; i++) {
		size_t l = strlen(ws.w[i].text);

		out = xrealloc(out, len + l + 3);
		if (i) {
			memcpy(out + len, ", ", 2);
			len += 2;
		}
		memcpy(out + len, ws.w[i].text, l + 1);
		len += l;
		free(ws.w[i].text);
	}
	free(ws.w);
	return out;
}
