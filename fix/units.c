// SPDX-License-Identifier: GPL-2.0
/*
 * The units of a fix series: the findings an automatic fix applies to,
 * grouped into one patch per file (or per directory with --per-dir), and
 * the order the series gives them.
 */
#include <stdlib.h>
#include <string.h>

#include "cocci/cocci.h"
#include "fix/fix.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

static char *unit_name(const char *file, int per_dir)
{
	const char *slash = strrchr(file, '/');

	if (!per_dir)
		return xstrdup(file);
	return slash ? xstrndup(file, (size_t)(slash - file)) : xstrdup(".");
}

/* Group the chosen findings (sorted by file) into units. */
void fix_make_units(struct fix_ctx *c, const struct cocci_result *res, int per_dir, int all)
{
	size_t i, k;

	for (i = 0; i < res->nfindings; i++) {
		const struct finding *f = &res->findings[i];
		char *name;
		struct fix_unit *u = NULL;

		/* one the series does not take is named by fix_left_out() */
		if (!fix_takes(f, all, NULL))
			continue;
		name = unit_name(f->file, per_dir);
		for (k = 0; k < c->nunits; k++)
			if (!strcmp(c->units[k].name, name))
				u = &c->units[k];
		if (!u) {
			c->units = xrealloc(c->units, (c->nunits + 1) * sizeof(*c->units));
			u = &c->units[c->nunits++];
			memset(u, 0, sizeof(*u));
			u->name = name;
		} else {
			free(name);
		}
		for (k = 0; k < u->nfiles && strcmp(u->files[k], f->file); k++)
			;
		if (k == u->nfiles) {
			u->files = xrealloc(u->files, (u->nfiles + 1) * sizeof(*u->files));
			u->files[u->nfiles++] = f->file;
		}
		u->findings = xrealloc(u->findings, (u->nfindings + 1) * sizeof(*u->findings));
		u->findings[u->nfindings++] = f;
	}
}

/*
 * The series opens with the files every user can read (what makes a
 * maintainer act), then those nobody could say, then root's; the order of
 * the files within each group is kept (an insertion sort: stable).
 */
void fix_order_units(struct fix_ctx *c)
{
	size_t i, j;

	for (i = 1; i < c->nunits; i++) {
		struct fix_unit u = c->units[i];

		for (j = i; j > 0 && c->units[j - 1].who > u.who; j--)
			c->units[j] = c->units[j - 1];
		c->units[j] = u;
	}
}

void fix_free_units(struct fix_ctx *c)
{
	size_t i, k;

	for (i = 0; i < c->nunits; i++) {
		struct fix_unit *u = &c->units[i];

		free(u->name);
		free(u->files);
		free(u->findings);
		free(u->subject);
		free(u->message);
		free(u->patch);
		for (k = 0; k < u->nto; k++)
			free(u->to[k]);
		for (k = 0; k < u->ncc; k++)
			free(u->cc[k]);
		free(u->to);
		free(u->cc);
		for (k = 0; k < u->nnofixes; k++)
			free(u->nofixes[k]);
		free(u->nofixes);
	}
	free(c->units);
	for (i = 0; i < c->nleft; i++)
		free(c->left[i]);
	free(c->left);
}
