// SPDX-License-Identifier: GPL-2.0
/*
 * fix_msg: what a patch of `ptrguard fix` says: its subject (in the style
 * of the file's history), a message that says what leaks, to whom and why
 * %p is the fix, Fixes: tags from the tree's history, and To/Cc from the
 * tree's get_maintainer.pl.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fix/fix.h"
#include "lib/ptrguard.h"

#define WRAP 72

/* Append @s to the growing string *@buf. */
static void cat(char **buf, const char *s)
{
	size_t a = *buf ? strlen(*buf) : 0, b = strlen(s);

	*buf = xrealloc(*buf, a + b + 1);
	memcpy(*buf + a, s, b + 1);
}

/* Append @text as a paragraph wrapped at WRAP columns, then a blank line. */
static void para(char **buf, const char *text)
{
	const char *p = text;
	size_t col = 0;

	while (*p) {
		const char *w = p;
		size_t n;
		char *word;

		while (*w == ' ')
			w++;
		if (!*w)
			break;
		p = w;
		while (*p && *p != ' ')
			p++;
		n = (size_t)(p - w);
		word = xstrndup(w, n);
		if (col && col + 1 + n > WRAP) {
			cat(buf, "\n");
			col = 0;
		} else if (col) {
			cat(buf, " ");
			col++;
		}
		cat(buf, word);
		col += n;
		free(word);
	}
	cat(buf, "\n\n");
}

/* ---- the subject prefix ---- */

/* Is @s[0..n) a prefix made of "word: " parts ("scsi: ips: ")? */
static int prefix_ok(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == ':' && i + 1 < n && s[i + 1] == ' ') {
			i++;
			continue;
		}
		if (!isalnum((unsigned char)s[i]) && !strchr("_-/.,", s[i]))
			return 0;
	}
	return n > 2;
}

/* The "prefix: " most recent subjects share; NULL if none. */
static char *history_prefix(const char *log)
{
	char **cand = NULL;
	size_t *count = NULL, ncand = 0, nsub = 0, i, best = 0, bestn = 0;
	const char *line = log;
	char *ret = NULL;

	while (*line) {
		const char *nl = strchr(line, '\n'), *p;
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		nsub++;
		for (p = line; (p = strstr(p, ": ")) && p < line + len; p += 2) {
			size_t n = (size_t)(p - line) + 2;

			if (!prefix_ok(line, n))
				break;
			for (i = 0; i < ncand; i++)
				if (strlen(cand[i]) == n && !strncmp(cand[i], line, n))
					break;
			if (i == ncand) {
				cand = xrealloc(cand, (ncand + 1) * sizeof(*cand));
				count = xrealloc(count, (ncand + 1) * sizeof(*count));
				cand[ncand] = xstrndup(line, n);
				count[ncand++] = 0;
			}
			count[i]++;
		}
		line = nl ? nl + 1 : line + len;
	}
	/* the longest prefix at least half the subjects share (and two) */
	for (i = 0; i < ncand; i++)
		if (count[i] >= 2 && 2 * count[i] >= nsub &&
		    (!bestn || strlen(cand[i]) > strlen(cand[best]))) {
			best = i;
			bestn = count[i];
		}
	if (bestn)
		ret = xstrdup(cand[best]);
	for (i = 0; i < ncand; i++)
		free(cand[i]);
	free(cand);
	free(count);
	return ret;
}

/* A prefix from the path alone, in the kernel's usual spelling. */
static char *path_prefix(const char *name, int is_dir)
{
	static const struct { const char *dir, *prefix; } known[] = {
		{ "kernel/trace/", "tracing" }, { "kernel/bpf/", "bpf" },
		{ "kernel/sched/", "sched" }, { "kernel/module/", "module" },
		{ "fs/proc/", "proc" }, { "mm/", "mm" }, { "net/core/", "net" },
	};
	char *dir = is_dir ? xasprintf("%s/", name) : xstrdup(name), *slash, *base, *ret;
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strncmp(dir, known[i].dir, strlen(known[i].dir))) {
			free(dir);
			return xasprintf("%s: ", known[i].prefix);
		}
	slash = strrchr(dir, '/');
	base = xstrdup(slash ? slash + 1 : dir);
	if (strrchr(base, '.'))
		*strrchr(base, '.') = 0;
	if (slash)
		*slash = 0;
	else
		*dir = 0;
	if (!strncmp(dir, "sound/", 6) || !strcmp(dir, "sound")) {
		/* ALSA names the driver: "ALSA: hdspm: " */
		const char *d = strrchr(dir, '/');

		ret = xasprintf("ALSA: %s: ", is_dir ? (d ? d + 1 : dir) : base);
	} else if (!strncmp(dir, "drivers/soc/", 12) && !strchr(dir + 12, '/') && *base) {
		ret = xasprintf("soc: %s: %s: ", dir + 12, base);	/* "soc: mediatek: mtk-svs: " */
	} else if (!strncmp(dir, "drivers/gpu/drm", 15) && !dir[15] && !strncmp(base, "drm_", 4)) {
		ret = xasprintf("drm/%s: ", base + 4);
	} else if (!strncmp(dir, "drivers/", 8) && !strchr(dir + 8, '/') && *base) {
		ret = xasprintf("%s: %s: ", dir + 8, base);	/* "scsi: ips: " */
	} else if (!strncmp(dir, "kernel", 6) && !dir[6] && *base) {
		ret = xasprintf("%s: ", base);		/* "kprobes: " */
	} else {
		const char *d = !strncmp(dir, "drivers/", 8) ? dir + 8 : dir;
		char *cut = xstrdup(*d ? d : base);
		char *s2 = strchr(cut, '/');

		if (s2 && (s2 = strchr(s2 + 1, '/')))
			*s2 = 0;	/* dir/subdir */
		ret = xasprintf("%s: ", cut);
		free(cut);
	}
	free(base);
	free(dir);
	return ret;
}

static char *subject_prefix(const struct fix_ctx *c, const struct fix_unit *u)
{
	char *log = NULL, *ret = NULL;

	if (c->git) {
		char *argv[] = { "git", "log", "-n", "20", "--no-merges", "--format=%s", "--",
				 u->name, NULL };

		if (fix_run(c->root, NULL, &log, NULL, argv) == 0 && log)
			ret = history_prefix(log);
		free(log);
	}
	return ret ? ret : path_prefix(u->name, u->nfiles > 1 || strcmp(u->name, u->files[0]));
}

/* ---- Fixes: the commit that brought the conversion's line in ---- */

/*
 * A commit that adds more than this many files is an import (a tree
 * brought in as one commit: "Linux 6.19 import", a vendor drop, squashed
 * history), not the change that introduced one of its lines.  A patch
 * that really introduces a leak adds a driver or a few files; even the
 * largest new drivers of Linux add a few hundred files at once.
 */
#define FIX_IMPORT_FILES 1000

/* Count the lines of @s. */
static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * The Fixes: tag of line @no of @file: the commit git blame (-w: blanks
 * aside; -M: lines moved within the file followed) names for the line
 * as it is in the work tree, unless that commit cannot have introduced
 * it: a root commit (or the boundary of a shallow clone: no parent), or
 * an import.  NULL then, with the reason in *@why (malloc()ed).
 */
static char *fixes_tag(const struct fix_ctx *c, const char *file, unsigned int no, char **why)
{
	char *range = xasprintf("%u,%u", no, no);
	char *blame_argv[] = { "git", "blame", "-w", "-M", "--porcelain", "-L", range, "--",
			       (char *)file, NULL };
	char *out = NULL, *sha = NULL, *subject = NULL, *tag = NULL, *p;
	int rc = fix_run(c->root, NULL, &out, NULL, blame_argv);

	*why = NULL;
	free(range);
	if (rc != 0 || !out || strlen(out) < 40) {
		*why = xstrdup("git blame cannot say where it came from");
		goto out;
	}
	sha = xstrndup(out, 40);
	if (strspn(sha, "0") == 40) {
		*why = xstrdup("it is not committed");
		goto out;
	}
	p = strstr(out, "\nsummary ");
	subject = p ? fix_first_line(p + 9) : xstrdup("");
	{
		char *argv[] = { "git", "rev-list", "--parents", "-n", "1", sha, NULL };
		char *parents = NULL, *first;

		rc = fix_run(c->root, NULL, &parents, NULL, argv);
		first = parents ? fix_first_line(parents) : NULL;
		free(parents);
		if (rc != 0 || !first) {
			free(first);
			*why = xasprintf("git rev-list cannot read %.12s", sha);
			goto out;
		}
		if (!strchr(first, ' ')) {
			free(first);
			*why = xasprintf("it comes with the root commit %.12s (\"%s\")", sha, subject);
			goto out;
		}
		free(first);
	}
	{
		char *parent = xasprintf("%s^", sha);
		char *argv[] = { "git", "diff", "--no-renames", "--name-only", "--diff-filter=A",
				 parent, sha, NULL };
		char *added = NULL;
		size_t n;

		rc = fix_run(c->root, NULL, &added, NULL, argv);
		n = count_lines(added);
		free(added);
		free(parent);
		if (rc != 0) {
			*why = xasprintf("git diff cannot read %.12s", sha);
			goto out;
		}
		if (n > FIX_IMPORT_FILES) {
			*why = xasprintf("it comes with %.12s (\"%s\"), an import: a commit adding %zu files",
					 sha, subject, n);
			goto out;
		}
	}
	tag = xasprintf("Fixes: %.12s (\"%s\")", sha, subject);
out:
	free(out);
	free(sha);
	free(subject);
	return tag;
}

/*
 * The expression of a finding's message, "(it holds X)" or "(written at
 * line N)", after @key; spatch prints it without blanks: "a+b" becomes
 * "a + b" again, one pair of outer parentheses dropped.  NULL if none.
 */
static char *from_message(const struct finding *f, const char *key)
{
	const char *p = f->message ? strstr(f->message, key) : NULL, *e;
	char *out, *o;
	size_t n;

	if (!p)
		return NULL;
	p += strlen(key);
	e = strrchr(p, ')');
	if (!e)
		return NULL;
	n = (size_t)(e - p);
	if (n > 2 && p[0] == '(' && p[n - 1] == ')') {
		p++;
		n -= 2;
	}
	out = o = xmalloc(3 * n + 1);
	for (e = p; e < p + n; e++) {
		if ((*e == '+' || (*e == '-' && e[1] != '>' && e[1] != '-' && e > p &&
				   e[-1] != '-' && (isalnum((unsigned char)e[-1]) ||
						    e[-1] == ')' || e[-1] == ']'))) &&
		    e > p && e[-1] != '+' && e[1] != '+') {
			*o++ = ' ';
			*o++ = *e;
			*o++ = ' ';
		} else {
			*o++ = *e;
		}
	}
	*o = 0;
	return out;
}

static char *what_leaks(const struct finding *f)
{
	const char *arg = f->arg && *f->arg ? f->arg : "a pointer";

	if (!strcmp(f->cls, "int-held") || !strcmp(f->cls, "int-field")) {
		char *holds = from_message(f, "(it holds "), *s;

		s = xasprintf("%s() prints %s%s, %s the pointer %s, with %s.", f->function,
			      strcmp(f->cls, "int-field") ? "" : "the field ", arg,
			      strcmp(f->cls, "int-field") ? "an integer that holds" :
							    "which this file sets to",
			      holds ? holds : "it was cast from", f->conversion);
		free(holds);
		return s;
	}
	if (!strcmp(f->cls, "int-buf")) {
		const char *op = arg + fix_operand(arg, 0, strlen(arg));
		char *line = from_message(f, "(written at line "), *s;

		s = xasprintf("%s() formats the pointer %s as an integer, %s, with %s into the text it returns, which seq_file output prints%s%s%s.",
			      f->function, op, arg, f->conversion, line ? " (line " : "",
			      line ? line : "", line ? ")" : "");
		free(line);
		return s;
	}

	if (!strcmp(f->cls, "int-cast")) {
		const char *op = arg + fix_operand(arg, 0, strlen(arg));

		return xasprintf("%s() prints the pointer %s as an integer, %s, with %s.",
				 f->function, op, arg, f->conversion);
	}
	if (!strcmp(f->cls, "p-unhashed"))
		return xasprintf("%s() prints %s with plain %s, which this kernel (older than v4.15) does not hash.",
				 f->function, arg, f->conversion);
	return xasprintf("%s() prints %s with %s.", f->function, arg, f->conversion);
}

int fix_message(const struct fix_ctx *c, struct fix_unit *u)
{
	char *prefix = subject_prefix(c, u), *body = NULL, *what = NULL, *facts = NULL;
	char **tags = NULL, **funcs = NULL;
	const char *who = NULL, **whofn = NULL;
	struct fix_who *whos = NULL;
	size_t ntags = 0, nfuncs = 0, nwhos = 0, i, k;
	int unhashed = 0, cast = 0, held = 0, tracing = 0;

	for (i = 0; i < u->nfindings; i++) {
		const struct finding *f = u->findings[i];
		char *s = what_leaks(f);

		unhashed |= !strcmp(f->cls, "p-unhashed");
		cast |= !strcmp(f->cls, "int-cast") || !strcmp(f->cls, "int-buf");
		held |= !strcmp(f->cls, "int-held") || !strcmp(f->cls, "int-field");
		if (!what || !strstr(what, s)) {
			if (what)
				cat(&what, " ");
			cat(&what, s);
		}
		free(s);
		for (k = 0; k < nfuncs && strcmp(funcs[k], f->function); k++)
			;
		if (k == nfuncs) {
			funcs = xrealloc(funcs, (nfuncs + 1) * sizeof(*funcs));
			funcs[nfuncs++] = f->function;
		}
	}
	/* to whom, and the Fixes: tags, from each file's text and history */
	for (i = 0; i < u->nfiles; i++) {
		char *path = xasprintf("%s/%s", c->root, u->files[i]);
		size_t tlen;
		char *text = read_file(path, SIZE_MAX, &tlen);

		free(path);
		if (!text) {
			error("fix: %s: cannot read it", u->files[i]);
			continue;
		}
		for (k = 0; k < u->nfindings; k++) {
			const struct finding *f = u->findings[k];
			char *tag, *why;
			size_t t;

			if (strcmp(f->file, u->files[i]))
				continue;
			/* who reads each function's output: once per function */
			for (t = 0; t < nwhos && strcmp(whofn[t], f->function); t++)
				;
			if (t == nwhos) {
				whos = xrealloc(whos, (nwhos + 1) * sizeof(*whos));
				whofn = xrealloc(whofn, (nwhos + 1) * sizeof(*whofn));
				whofn[nwhos] = f->function;
				fix_who(f->file, text, tlen, f->function, &whos[nwhos++]);
			}
			tracing |= !strncmp(f->file, "kernel/trace/", 13);
			if (!c->git)
				continue;
			tag = fixes_tag(c, f->file, f->line, &why);
			if (!tag) {
				char *note = xasprintf("%s:%u: %s", f->file, f->line, why);

				free(why);
				for (t = 0; t < u->nnofixes && strcmp(u->nofixes[t], note); t++)
					;
				if (t < u->nnofixes) {
					free(note);
					continue;
				}
				u->nofixes = xrealloc(u->nofixes,
						      (u->nnofixes + 1) * sizeof(*u->nofixes));
				u->nofixes[u->nnofixes++] = note;
				continue;
			}
			for (t = 0; t < ntags; t++)
				if (!strcmp(tags[t], tag))
					break;
			if (t == ntags) {
				tags = xrealloc(tags, (ntags + 1) * sizeof(*tags));
				tags[ntags++] = tag;
			} else {
				free(tag);
			}
		}
		free(text);
	}
	/* the most exposed readers; every fact, once */
	u->who = FIX_WHO_ROOT;
	for (i = 0; i < nwhos; i++) {
		if (!who || whos[i].rank < u->who) {
			u->who = whos[i].rank;
			who = whos[i].readers;
		}
		if (whos[i].fact && (!facts || !strstr(facts, whos[i].fact))) {
			if (facts)
				cat(&facts, " ");
			cat(&facts, whos[i].fact);
		}
	}
	if (!who) {
		u->who = FIX_WHO_UNKNOWN;
		who = "every reader of this seq_file";
	}

	if (u->who == FIX_WHO_EVERYONE) {
		/* what makes a maintainer act goes first: the subject says it */
		const char *const forms[] = { "to all users in %s()", "to all users in %s() and %s()",
					      "to all users in seq_file output" };

		if (nfuncs <= 2) {
			char *f = xasprintf(forms[nfuncs - 1], funcs[0], nfuncs > 1 ? funcs[1] : "");

			u->subject = xasprintf("%sDo not leak kernel addresses %s", prefix, f);
			free(f);
		}
		if (!u->subject || strlen(u->subject) > 75) {
			free(u->subject);
			u->subject = xasprintf("%sDo not leak kernel addresses %s", prefix, forms[2]);
		}
		if (strlen(u->subject) <= 75)
			goto subject_done;
		free(u->subject);
	}
	if (nfuncs == 1)
		u->subject = xasprintf("%sDo not leak kernel addresses in %s()", prefix, funcs[0]);
	else if (nfuncs == 2)
		u->subject = xasprintf("%sDo not leak kernel addresses in %s() and %s()", prefix,
				       funcs[0], funcs[1]);
	else
		u->subject = xasprintf("%sDo not leak kernel addresses in seq_file output", prefix);
	/* a subject over 75 characters: name no function */
	if (strlen(u->subject) > 75) {
		free(u->subject);
		u->subject = xasprintf("%sDo not leak kernel addresses in seq_file output", prefix);
	}
subject_done:
	if (facts && u->who == FIX_WHO_EVERYONE)
		para(&body, facts);
	para(&body, what);
	if (facts && u->who != FIX_WHO_EVERYONE)
		para(&body, facts);
	{
		char *s = xasprintf("This goes into seq_file output as is: no pointer hashing, no kptr_restrict. So %s sees a raw kernel address, which gives away the layout of kernel memory that KASLR hides.",
				    who);

		para(&body, s);
		free(s);
	}
	if (unhashed)
		para(&body, "This kernel predates the hashing of plain %p (v4.15), so print it with %pK, which honours kptr_restrict (Documentation/core-api/printk-formats.rst, \"Kernel Pointers\").");
	if (!unhashed || u->nfindings > 1) {
		para(&body, "Print the pointer with plain %p. Documentation/core-api/printk-formats.rst: \"Pointers printed without a specifier extension (i.e unadorned %p) are hashed to prevent leaking information about the kernel memory layout. This has the added benefit of providing a unique identifier.\" The output still tells objects apart, and booting with no_hash_pointers shows the raw values when debugging needs them.");
		if (cast)
			para(&body, "A pointer cast to an integer and printed with %lx is what the same document says of %px: \"%px is functionally equivalent to %lx (or %lu)\". The cast goes too, so that the compiler checks the conversion against a pointer.");
		if (held)
			para(&body, "The integer holds the pointer's value, so print it as the pointer it holds: %p of the integer cast back to void * (%p of the integer itself would not pass -Wformat). The integer and its other uses stay as they are.");
		if (tracing)
			para(&body, "Tracing has an option of its own for pointers, hash-ptr (on by default): with it off, the %p of event print formats is shown as %px. It applies only to the event formats that trace_event_printf() expands, not to a format passed to trace_seq_printf() as this one is: after this change these pointers are hashed whatever hash-ptr says, and no_hash_pointers still shows them raw.");
	}
	para(&body, "Found with ptrguard (ptrguard fix).");
	for (i = 0; i < ntags; i++) {
		cat(&body, tags[i]);
		cat(&body, "\n");
		free(tags[i]);
	}
	{
		char *sob = xasprintf("Signed-off-by: %s <%s>\n", c->name, c->email);

		cat(&body, sob);
		free(sob);
	}
	u->message = body;
	free(tags);
	free(funcs);
	free(what);
	free(facts);
	for (i = 0; i < nwhos; i++)
		fix_who_free(&whos[i]);
	free(whos);
	free(whofn);
	free(prefix);
	return 0;
}

/* ---- To and Cc ---- */

int fix_maintainers(const struct fix_ctx *c, struct fix_unit *u)
{
	char *gm = xasprintf("%s/scripts/get_maintainer.pl", c->root), *out = NULL;
	char *argv[] = { "perl", gm, "--no-rolestats", "--nogit", "--nogit-fallback", u->patch, NULL };
	char *line, *next;
	int rc;

	if (access(gm, F_OK) < 0) {
		free(gm);
		return 0;
	}
	rc = fix_run(c->root, NULL, &out, NULL, argv);
	free(gm);
	if (rc != 0) {
		free(out);
		error("fix: %s: scripts/get_maintainer.pl failed", u->patch);
		return -1;
	}
	for (line = out; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (!*line)
			continue;
		/* a person has a name; a bare address is a list */
		if (strchr(line, '<')) {
			u->to = xrealloc(u->to, (u->nto + 1) * sizeof(*u->to));
			u->to[u->nto++] = xstrdup(line);
		} else {
			u->cc = xrealloc(u->cc, (u->ncc + 1) * sizeof(*u->cc));
			u->cc[u->ncc++] = xstrdup(line);
		}
	}
	free(out);
	return 0;
}
