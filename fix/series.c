// SPDX-License-Identifier: GPL-2.0
/*
 * fix_series: the series of `ptrguard fix`, made in a scratch git
 * repository (never in the user's tree): a base commit with the original
 * files, one commit per unit with the rewritten files, then git
 * format-patch with a cover letter into -o DIR, and To/Cc per patch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/fix.h"
#include "lib/ptrguard.h"

#define FIX_COVER_FOUND_LEAD "Found and written with ptrguard fix"
#define FIX_COVER_FOUND FIX_COVER_FOUND_LEAD "."

/* git in the scratch repository, with no user or system configuration. */
static int scratch_git(const struct fix_ctx *c, char **out, const char *a1, const char *a2,
		       const char *a3, const char *a4, const char *a5, const char *a6)
{
	char *repo = xasprintf("%s/repo", c->tmp);
	char *name = xasprintf("user.name=%s", c->name);
	char *email = xasprintf("user.email=%s", c->email);
	char *argv[] = { "env", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			 "git", "-c", name, "-c", email, "-c", "core.hooksPath=/dev/null",
			 "-c", "init.defaultBranch=master", "-c", "commit.gpgSign=false",
			 (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, (char *)a6,
			 NULL };
	char *err = NULL;
	int rc = fix_run(repo, NULL, out, &err, argv);

	if (rc != 0 && rc != -1) {
		char *first = fix_first_line(err ? err : "");

		error("fix: git %s in the scratch repository: %s", a1, first);
		free(first);
	}
	free(err);
	free(repo);
	free(name);
	free(email);
	return rc == 0 ? 0 : -1;
}

/* Copy @rel from the tree into the scratch repository, edited or not. */
static int put_file(const struct fix_ctx *c, const struct fix_unit *u, const char *rel, int edit)
{
	char *src = xasprintf("%s/%s", c->root, rel), *dst = xasprintf("%s/repo/%s", c->tmp, rel);
	size_t len, newlen;
	char *text = read_file(src, SIZE_MAX, &len), *fixed = NULL;
	int ret = -1;

	if (!text) {
		error("fix: %s: cannot read it", src);
		goto out;
	}
	if (edit) {
		const struct finding **mine = xmalloc((u->nfindings + 1) * sizeof(*mine));
		size_t n = 0, i;

		for (i = 0; i < u->nfindings; i++)
			if (!strcmp(u->findings[i]->file, rel))
				mine[n++] = u->findings[i];
		fixed = fix_file(rel, text, len, (const struct finding *const *)mine, n, &newlen);
		free(mine);
		if (!fixed)
			goto out;
		ret = fix_write(dst, fixed, newlen);
	} else {
		ret = fix_write(dst, text, len);
	}
out:
	free(fixed);
	free(text);
	free(src);
	free(dst);
	return ret;
}

/* Insert To:/Cc: header lines after the Date: line of the patch at @path. */
static int add_headers(const char *path, char **to, size_t nto, char **cc, size_t ncc)
{
	size_t len, i;
	char *text = read_file(path, SIZE_MAX, &len), *date, *eol, *hdr = NULL, *all;
	int ret;

	if (!text) {
		error("fix: %s: cannot read it", path);
		return -1;
	}
	date = strstr(text, "\nDate: ");
	eol = date ? strchr(date + 1, '\n') : NULL;
	if (!eol) {
		free(text);
		error("fix: %s: no Date: header", path);
		return -1;
	}
	for (i = 0; i < nto; i++) {
		char *s = xasprintf("%s%s%s", hdr ? hdr : "", i ? ",\n    " : "To: ", to[i]);

		free(hdr);
		hdr = s;
	}
	if (nto) {
		char *s = xasprintf("%s\n", hdr);

		free(hdr);
		hdr = s;
	}
	for (i = 0; i < ncc; i++) {
		char *s = xasprintf("%s%s%s%s", hdr ? hdr : "", i ? ",\n    " : "Cc: ", cc[i],
				    i + 1 == ncc ? "\n" : "");

		free(hdr);
		hdr = s;
	}
	if (!hdr) {
		free(text);
		return 0;
	}
	all = xasprintf("%.*s%s%s", (int)(eol + 1 - text), text, hdr, eol + 1);
	ret = fix_write(path, all, strlen(all));
	free(all);
	free(hdr);
	free(text);
	return ret;
}

static void add_unique(char ***list, size_t *n, char *const *add, size_t nadd)
{
	size_t i, k;

	for (i = 0; i < nadd; i++) {
		for (k = 0; k < *n && strcmp((*list)[k], add[i]); k++)
			;
		if (k == *n) {
			*list = xrealloc(*list, (*n + 1) * sizeof(**list));
			(*list)[(*n)++] = add[i];
		}
	}
}

/* @s wrapped at 72 columns, the first line after @lead, the rest after @indent. */
static char *wrapped(const char *lead, const char *indent, const char *s)
{
	char *out = xstrdup(lead), *t;
	size_t col = strlen(lead), start = col;

	while (*s) {
		const char *w = s;
		size_t n;

		while (*w == ' ')
			w++;
		if (!*w)
			break;
		for (n = 0; w[n] && w[n] != ' '; n++)
			;
		if (col > start && col + 1 + n > 72) {
			t = xasprintf("%s\n%s%.*s", out, indent, (int)n, w);
			col = strlen(indent) + n;
			start = strlen(indent);
		} else {
			t = xasprintf("%s%s%.*s", out, col > start ? " " : "", (int)n, w);
			col += (col > start) + n;
		}
		free(out);
		out = t;
		s = w + n;
	}
	t = xasprintf("%s\n", out);
	free(out);
	return t;
}

/* Fill in the cover letter's subject and blurb. */
static int cover(const struct fix_ctx *c, const char *path)
{
	size_t len, i, k, leaks = 0, files = 0;
	int held = 0;
	char *text = read_file(path, SIZE_MAX, &len), *blurb = NULL, *s, *out;
	char *subj, *b;
	char **to = NULL, **cc = NULL;
	size_t nto = 0, ncc = 0;

	if (!text) {
		error("fix: %s: cannot read it", path);
		return -1;
	}
	for (i = 0; i < c->nunits; i++) {
		leaks += c->units[i].nfindings;
		files += c->units[i].nfiles;
		for (k = 0; k < c->units[i].nfindings; k++)
			held |= !strncmp(c->units[i].findings[k]->cls, "int-", 4) &&
				strcmp(c->units[i].findings[k]->cls, "int-cast");
	}
	s = xasprintf("These patches stop %zu kernel address%s from reaching user space through seq_file output (/proc, debugfs, tracefs) in %zu file%s: a pointer printed with %%px, or cast to an integer and printed with %%lx%s, is shown raw to whoever can read the file, with neither hashing nor kptr_restrict.  Each patch prints the pointer with %%p, which is hashed (Documentation/core-api/printk-formats.rst), and changes nothing else.",
		      leaks, leaks == 1 ? "" : "es", files, files == 1 ? "" : "s",
		      held ? " (directly, or kept in an integer first)" : "");
	b = wrapped("", "", s);
	free(s);
	blurb = xasprintf("%s\n", b);
	free(b);
	for (i = 0; i < c->nunits; i++) {
		const struct fix_unit *u = &c->units[i];

		s = xasprintf("%s%zu. %s\n", blurb, i + 1, u->subject);
		free(blurb);
		blurb = s;
		for (k = 0; k < u->nfindings; k++) {
			const struct finding *f = u->findings[k];

			s = xasprintf("%s   %s:%u: %s %s (%s)\n", blurb, f->file, f->line, f->cls,
				      f->conversion, f->function);
			free(blurb);
			blurb = s;
		}
		add_unique(&to, &nto, u->to, u->nto);
		add_unique(&cc, &ncc, u->cc, u->ncc);
	}
	/* what the audit found and the series leaves: each one named, with why */
	if (c->nleft) {
		s = xasprintf("%s\nNot in this series: %zu finding%s of the audit, and why:\n", blurb,
			      c->nleft, c->nleft == 1 ? "" : "s");
		free(blurb);
		blurb = s;
		for (i = 0; i < c->nleft; i++) {
			char *w = wrapped("   ", "     ", c->left[i]);

			s = xasprintf("%s%s", blurb, w);
			free(blurb);
			free(w);
			blurb = s;
		}
	}
	/* where no Fixes: tag could be given, the cover letter says why */
	for (i = 0, k = 0; i < c->nunits; i++)
		k += c->units[i].nnofixes;
	if (!c->git) {
		s = xasprintf("%s\nNo Fixes: tags: the tree is not the top of a git work tree, so no\n"
			      "history shows where the lines came from.\n", blurb);
		free(blurb);
		blurb = s;
	} else if (k) {
		s = xasprintf("%s\nNo Fixes: tag: the history does not show where these lines came from:\n",
			      blurb);
		free(blurb);
		blurb = s;
		for (i = 0; i < c->nunits; i++)
			for (k = 0; k < c->units[i].nnofixes; k++) {
				s = xasprintf("%s   %s\n", blurb, c->units[i].nofixes[k]);
				free(blurb);
				blurb = s;
			}
	}
	/* what the checks proved is said only once they have passed (fix_cover_checked()) */
	s = xasprintf("%s\n%s", blurb, FIX_COVER_FOUND);
	free(blurb);
	blurb = s;
	subj = strstr(text, "*** SUBJECT HERE ***");
	b = strstr(text, "*** BLURB HERE ***");
	if (!subj || !b || b < subj) {
		error("fix: %s: not a git format-patch cover letter", path);
		free(text);
		free(blurb);
		free(to);
		free(cc);
		return -1;
	}
	out = xasprintf("%.*sDo not leak kernel addresses through seq_file output%.*s%s%s",
			(int)(subj - text), text, (int)(b - subj - 20), subj + 20, blurb,
			b + 18);
	if (fix_write(path, out, strlen(out)) < 0 || add_headers(path, to, nto, cc, ncc) < 0) {
		free(out);
		free(text);
		free(blurb);
		free(to);
		free(cc);
		return -1;
	}
	free(out);
	free(text);
	free(blurb);
	free(to);
	free(cc);
	return 0;
}

int fix_cover_checked(const struct fix_ctx *c)
{
	char *path = xasprintf("%s/0000-cover-letter.patch", c->out), *text, *at, *out;
	size_t len;
	int ret = -1;

	text = read_file(path, SIZE_MAX, &len);
	at = text ? strstr(text, FIX_COVER_FOUND) : NULL;
	if (!at) {
		error("fix: %s: not the cover letter written", path);
		goto out;
	}
	out = xasprintf("%.*s%s; each patch applies on its own,\n"
			"is checkpatch --strict clean and leaves a re-audit of the file clean.%s",
			(int)(at - text), text, FIX_COVER_FOUND_LEAD,
			at + strlen(FIX_COVER_FOUND));
	ret = fix_write(path, out, strlen(out));
	free(out);
out:
	free(text);
	free(path);
	return ret;
}

int fix_series(struct fix_ctx *c)
{
	char *repo = xasprintf("%s/repo", c->tmp), *out = NULL, *line, *next;
	char *outdir = NULL;
	size_t i, k, n;
	int ret = -1;

	if (fix_mkdirs(repo) < 0 || scratch_git(c, NULL, "init", "-q", NULL, NULL, NULL, NULL) < 0)
		goto out;
	for (i = 0; i < c->nunits; i++)
		for (k = 0; k < c->units[i].nfiles; k++)
			if (put_file(c, &c->units[i], c->units[i].files[k], 0) < 0)
				goto out;
	if (scratch_git(c, NULL, "add", "-A", NULL, NULL, NULL, NULL) < 0 ||
	    scratch_git(c, NULL, "commit", "-q", "-m", "base: the files as they were", NULL,
			NULL) < 0 ||
	    scratch_git(c, NULL, "tag", "ptrguard-base", NULL, NULL, NULL, NULL) < 0)
		goto out;
	for (i = 0; i < c->nunits; i++) {
		struct fix_unit *u = &c->units[i];
		char *msg = xasprintf("%s\n\n%s", u->subject, u->message);
		char *msgfile = xasprintf("%s/msg", c->tmp);

		for (k = 0; k < u->nfiles; k++)
			if (put_file(c, u, u->files[k], 1) < 0)
				break;
		if (k < u->nfiles || fix_write(msgfile, msg, strlen(msg)) < 0 ||
		    scratch_git(c, NULL, "add", "-A", NULL, NULL, NULL, NULL) < 0 ||
		    scratch_git(c, NULL, "commit", "-q", "--cleanup=verbatim", "-F", msgfile,
				NULL) < 0) {
			free(msg);
			free(msgfile);
			goto out;
		}
		free(msg);
		free(msgfile);
	}
	outdir = realpath(c->out, NULL);
	if (!outdir) {
		error("fix: -o %s: cannot resolve it", c->out);
		goto out;
	}
	if (scratch_git(c, &out, "format-patch", "--cover-letter", "-o", outdir,
			"ptrguard-base..HEAD", NULL) < 0)
		goto out;
	/* one file name a line: the cover letter, then the patches in order */
	for (line = out, n = 0; line && *line; line = next, n++) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (n == 0)
			continue;
		if (n > c->nunits) {
			error("fix: git format-patch wrote more patches than asked");
			goto out;
		}
		c->units[n - 1].patch = xstrdup(line);
	}
	if (n != c->nunits + 1) {
		error("fix: git format-patch wrote %zu files for %zu patches", n, c->nunits);
		goto out;
	}
	for (i = 0; i < c->nunits; i++) {
		struct fix_unit *u = &c->units[i];

		if (fix_maintainers(c, u) < 0 ||
		    add_headers(u->patch, u->to, u->nto, u->cc, u->ncc) < 0)
			goto out;
	}
	{
		char *cl = xasprintf("%s/0000-cover-letter.patch", outdir);

		ret = cover(c, cl);
		free(cl);
	}
out:
	free(outdir);
	free(out);
	free(repo);
	return ret;
}
