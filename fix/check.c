// SPDX-License-Identifier: GPL-2.0
/*
 * fix_check: prove each patch of a `ptrguard fix` series, and say so one
 * line per patch and check:
 *   apply       git am on the tree's HEAD files (a git tree; in a scratch
 *               repository), else git apply --check in the tree
 *   checkpatch  scripts/checkpatch.pl --strict of the tree, when it has one
 *   build       with --check-build DIR: each touched .c file compiled as
 *               DIR's kbuild compiled it (DIR/path/.file.o.cmd), from the
 *               patched copy; skipped for a file DIR's config does not build
 *   re-audit    the rules again over the patched copies (in a shadow of the
 *               tree): the fixed findings are gone and nothing is new
 * The user's tree and DIR are only read.
 */
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix/fix.h"
#include "lib/ptrguard.h"

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void report(const struct fix_unit *u, const char *check, int ok, const char *what)
{
	printf("%s: %s: %s%s%s\n", base(u->patch), check, ok ? "ok" : "FAILED", what ? ": " : "",
	       what ? what : "");
}

/* The first line of @s that starts with one of checkpatch's levels. */
static char *checkpatch_first(const char *s)
{
	const char *p = s;

	while (p && *p) {
		if (!strncmp(p, "ERROR:", 6) || !strncmp(p, "WARNING:", 8) || !strncmp(p, "CHECK:", 6))
			return fix_first_line(p);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return xstrdup("no summary line");
}

static int git_env_run(const struct fix_ctx *c, const char *cwd, char **err, const char *a1,
		       const char *a2, const char *a3)
{
	char *name = xasprintf("user.name=%s", c->name);
	char *email = xasprintf("user.email=%s", c->email);
	char *argv[] = { "env", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "git",
			 "-c", name, "-c", email, "-c", "core.hooksPath=/dev/null",
			 "-c", "commit.gpgSign=false", (char *)a1, (char *)a2, (char *)a3, NULL };
	int rc = fix_run(cwd, NULL, NULL, err, argv);

	free(name);
	free(email);
	return rc;
}

/* The am repository: the tree's HEAD version of every touched file. */
static int am_repo(const struct fix_ctx *c, char **dir)
{
	size_t i, k;

	*dir = xasprintf("%s/am", c->tmp);
	if (fix_mkdirs(*dir) < 0 || git_env_run(c, *dir, NULL, "init", "-q", NULL) != 0)
		return -1;
	for (i = 0; i < c->nunits; i++)
		for (k = 0; k < c->units[i].nfiles; k++) {
			const char *rel = c->units[i].files[k];
			char *spec = xasprintf("HEAD:./%s", rel), *out = NULL;
			char *argv[] = { "git", "show", spec, NULL };
			char *dst = xasprintf("%s/%s", *dir, rel);
			int rc = fix_run(c->root, NULL, &out, NULL, argv);

			if (rc != 0 || fix_write(dst, out, strlen(out)) < 0) {
				if (rc != -1)
					error("fix: %s: not in the tree's HEAD", rel);
				free(spec);
				free(out);
				free(dst);
				return -1;
			}
			free(spec);
			free(out);
			free(dst);
		}
	if (git_env_run(c, *dir, NULL, "add", "-A", NULL) != 0 ||
	    git_env_run(c, *dir, NULL, "commit", "-q", "-mHEAD") != 0) {
		error("fix: cannot make the scratch repository for git am");
		return -1;
	}
	return 0;
}

static int check_apply(const struct fix_ctx *c, const struct fix_unit *u, const char *am)
{
	char *err = NULL;
	int rc;

	if (am) {
		rc = git_env_run(c, am, &err, "am", "-q", u->patch);
		if (rc != 0) {
			char *first = fix_first_line(err ? err : "");

			report(u, "apply", 0, first);
			free(first);
			git_env_run(c, am, NULL, "am", "--abort", NULL);
		} else {
			report(u, "apply", 1, "git am on the tree's HEAD");
		}
	} else {
		char *top = xstrdup(c->root);
		char *ceiling = xasprintf("GIT_CEILING_DIRECTORIES=%s", dirname(top));
		char *argv[] = { "env", ceiling, "git", "apply", "--check", u->patch, NULL };

		rc = fix_run(c->root, NULL, NULL, &err, argv);
		if (rc != 0) {
			char *first = fix_first_line(err ? err : "");

			report(u, "apply", 0, first);
			free(first);
		} else {
			report(u, "apply", 1, "git apply --check in the tree");
		}
		free(ceiling);
		free(top);
	}
	free(err);
	return rc == 0 ? 0 : -1;
}

static int check_checkpatch(const struct fix_ctx *c, const struct fix_unit *u)
{
	char *cp = xasprintf("%s/scripts/checkpatch.pl", c->root), *out = NULL;
	char *argv[] = { "perl", cp, "--strict", "--no-color", u->patch, NULL };
	int rc, ok;

	if (access(cp, F_OK) < 0) {
		printf("%s: checkpatch: skipped: the tree has no scripts/checkpatch.pl\n",
		       base(u->patch));
		free(cp);
		return 0;
	}
	rc = fix_run(c->root, NULL, &out, NULL, argv);
	ok = rc == 0 && out && strstr(out, "total: 0 errors, 0 warnings, 0 checks");
	if (ok) {
		report(u, "checkpatch", 1, "--strict: 0 errors, 0 warnings, 0 checks");
	} else if (rc != -1) {
		char *first = checkpatch_first(out ? out : "");

		report(u, "checkpatch", 0, first);
		free(first);
	}
	free(out);
	free(cp);
	return ok ? 0 : -1;
}

/* Replace the first @from in *@s by @to. */
static int subst(char **s, const char *from, const char *to)
{
	char *p = strstr(*s, from), *n;

	if (!p)
		return -1;
	n = xasprintf("%.*s%s%s", (int)(p - *s), *s, to, p + strlen(from));
	free(*s);
	*s = n;
	return 0;
}

/*
 * Every later word of *@s that is @obj (kbuild's steps after the compile:
 * objtool, recordmcount) becomes @to, so that they work on the scratch
 * object: BUILD's own object is never rewritten.
 */
static void subst_words(char **s, const char *obj, const char *to)
{
	size_t n = strlen(obj);
	char *p = *s;

	while ((p = strstr(p, obj))) {
		char *t;
		size_t at = (size_t)(p - *s);

		if ((p == *s || p[-1] == ' ') && (!p[n] || p[n] == ' ' || p[n] == ';')) {
			t = xasprintf("%.*s%s%s", (int)at, *s, to, p + n);
			free(*s);
			*s = t;
			p = *s + at + strlen(to);
		} else {
			p += n;
		}
	}
}

static int check_build(const struct fix_ctx *c, const struct fix_unit *u)
{
	size_t k;
	int ret = 0;

	for (k = 0; k < u->nfiles; k++) {
		const char *rel = u->files[k];
		size_t n = strlen(rel), tlen;
		char *dir = xstrdup(rel), *slash = strrchr(dir, '/'), *cmdfile, *text, *cmd;
		char *obj, *src, *dep, *out, *patched, *tmpobj, *tmpdep, *incl, *err = NULL;
		const char *eq;

		if (n < 3 || strcmp(rel + n - 2, ".c")) {
			free(dir);
			continue;
		}
		if (slash)
			*slash = 0;
		cmdfile = xasprintf("%s/%s/.%.*s.o.cmd", c->build, slash ? dir : ".",
				    (int)(strlen(base(rel)) - 2), base(rel));
		text = read_file(cmdfile, SIZE_MAX, &tlen);
		if (!text) {
			printf("%s: build: skipped: %s: no %s (not in the configuration, or never built)\n",
			       base(u->patch), rel, cmdfile);
			free(cmdfile);
			free(dir);
			continue;
		}
		eq = strstr(text, " := ");
		cmd = fix_first_line(eq ? eq + 4 : "");
		obj = xasprintf(" -c -o %.*s.o ", (int)(n - 2), rel);
		src = xasprintf(" %s/%s", c->root, rel);
		dep = xasprintf("-Wp,-MMD,%s/.%.*s.o.d", slash ? dir : ".",
				(int)(strlen(base(rel)) - 2), base(rel));
		if (!slash)
			subst(&dep, "./", "");
		tmpobj = xasprintf(" -c -o %s/build.o ", c->tmp);
		tmpdep = xasprintf("-Wp,-MMD,%s/build.d", c->tmp);
		patched = xasprintf(" %s/repo/%s -iquote %s/%s", c->tmp, rel, c->root,
				    slash ? dir : ".");
		if (subst(&cmd, obj, tmpobj) < 0 || subst(&cmd, src, patched) < 0) {
			printf("%s: build: FAILED: %s: cannot read the compile command in %s\n",
			       base(u->patch), rel, cmdfile);
			ret = -1;
		} else {
			char *argv[] = { "sh", "-c", cmd, NULL };
			int rc;

			char *relobj = xasprintf("%.*s.o", (int)(n - 2), rel);
			char *scratch = xasprintf("%s/build.o", c->tmp);

			subst(&cmd, dep, tmpdep);
			subst_words(&cmd, relobj, scratch);
			free(relobj);
			free(scratch);
			argv[2] = cmd;
			out = NULL;
			rc = fix_run(c->build, NULL, &out, &err, argv);
			if (rc == 0) {
				incl = xasprintf("%s compiles with %s's configuration", rel, c->build);
				report(u, "build", 1, incl);
				free(incl);
			} else {
				char *e = err ? err : xstrdup("");
				char *line = strstr(e, "error:");
				char *first = fix_first_line(line ? line : e);

				incl = xasprintf("%s: %s", rel, first);
				report(u, "build", 0, incl);
				free(incl);
				free(first);
				ret = -1;
				if (!err)
					free(e);
			}
			free(out);
		}
		free(err);
		free(cmd);
		free(obj);
		free(src);
		free(dep);
		free(tmpobj);
		free(tmpdep);
		free(patched);
		free(text);
		free(cmdfile);
		free(dir);
	}
	return ret;
}

/* Make @rel of the shadow a real directory whose entries link to the tree. */
static int shadow_dir(const struct fix_ctx *c, const char *shadow, const char *rel)
{
	char *sd = *rel ? xasprintf("%s/%s", shadow, rel) : xstrdup(shadow);
	char *td = *rel ? xasprintf("%s/%s", c->root, rel) : xstrdup(c->root);
	struct stat st;
	DIR *d;
	struct dirent *e;
	int ret = -1;

	if (lstat(sd, &st) == 0 && S_ISDIR(st.st_mode)) {
		ret = 0;
		goto out;
	}
	if (lstat(sd, &st) == 0)
		unlink(sd);
	if (mkdir(sd, 0777) < 0 || !(d = opendir(td))) {
		error("fix: shadow %s: %s", sd, strerror(errno));
		goto out;
	}
	while ((e = readdir(d))) {
		char *from, *to;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		from = xasprintf("%s/%s", td, e->d_name);
		to = xasprintf("%s/%s", sd, e->d_name);
		if (symlink(from, to) < 0 && errno != EEXIST) {
			error("fix: shadow %s: %s", to, strerror(errno));
			free(from);
			free(to);
			closedir(d);
			goto out;
		}
		free(from);
		free(to);
	}
	closedir(d);
	ret = 0;
out:
	free(sd);
	free(td);
	return ret;
}

static int shadow_file(const struct fix_ctx *c, const char *shadow, const char *rel)
{
	char *part = xstrdup(rel), *s, *src, *dst, *text;
	size_t len;
	int ret = -1;

	if (shadow_dir(c, shadow, "") < 0)
		goto out;
	for (s = strchr(part, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		if (shadow_dir(c, shadow, part) < 0)
			goto out;
		*s = '/';
	}
	src = xasprintf("%s/repo/%s", c->tmp, rel);
	dst = xasprintf("%s/%s", shadow, rel);
	text = read_file(src, SIZE_MAX, &len);
	unlink(dst);
	ret = text ? fix_write(dst, text, len) : -1;
	if (!text)
		error("fix: %s: cannot read it", src);
	free(text);
	free(src);
	free(dst);
out:
	free(part);
	return ret;
}

static int same(const struct finding *a, const struct finding *b)
{
	return !strcmp(a->cls, b->cls) && !strcmp(a->conversion, b->conversion) &&
	       !strcmp(a->function, b->function) && !strcmp(a->arg, b->arg);
}

/* The findings left in the patched copies must be ones the series kept. */
static int check_reaudit(const struct fix_ctx *c, const struct cocci_result *before,
			 const struct cocci_result *after, const struct fix_unit *u)
{
	size_t i, k, gone = 0, left = 0;
	int ok = 1;
	char *why = NULL;

	for (i = 0; i < after->nfindings; i++) {
		const struct finding *f = &after->findings[i];
		int mine = 0, kept = 0;

		for (k = 0; k < u->nfiles; k++)
			mine |= !strcmp(f->file, u->files[k]);
		if (!mine)
			continue;
		for (k = 0; k < before->nfindings && !kept; k++) {
			const struct finding *b = &before->findings[k];
			size_t j;
			int fixed = 0;

			if (strcmp(b->file, f->file) || !same(b, f))
				continue;
			for (j = 0; j < u->nfindings; j++)
				fixed |= u->findings[j] == b;
			kept = !fixed;
		}
		if (kept) {
			left++;
			continue;
		}
		if (ok)
			why = xasprintf("%s:%u:%u: %s %s remains or is new", f->file, f->line,
					f->column, f->cls, f->conversion);
		ok = 0;
	}
	gone = u->nfindings;
	if (ok) {
		char *s = xasprintf("%zu finding%s gone, none new%s", gone, gone == 1 ? "" : "s",
				    left ? " (the low-confidence ones stay)" : "");

		report(u, "re-audit", 1, s);
		free(s);
	} else {
		report(u, "re-audit", 0, why);
	}
	free(why);
	(void)c;
	return ok ? 0 : -1;
}

int fix_check(struct fix_ctx *c, const struct cocci_result *before)
{
	char *am = NULL, *shadow = xasprintf("%s/shadow", c->tmp);
	char **paths = NULL;
	size_t npaths = 0, i, k;
	struct cocci_opts o = *c->cocci;
	struct cocci_result after = { 0 };
	int failed = 0, audited;

	if (c->git && am_repo(c, &am) < 0) {
		free(am);
		am = NULL;
		failed = 1;
	}
	for (i = 0; i < c->nunits; i++)
		for (k = 0; k < c->units[i].nfiles; k++) {
			paths = xrealloc(paths, (npaths + 1) * sizeof(*paths));
			paths[npaths] = xasprintf("%s/%s", shadow, c->units[i].files[k]);
			if (shadow_file(c, shadow, c->units[i].files[k]) < 0)
				failed = 1;
			npaths++;
		}
	o.root = shadow;
	o.paths = (const char *const *)paths;
	o.npaths = npaths;
	o.progress = 0;
	audited = !failed && cocci_run(&o, &after) == 0;
	/* a re-audit that read fewer files than it was given proves nothing */
	if (audited && after.nscanned < npaths) {
		error("fix: re-audit: %zu of the %zu patched files were read", after.nscanned, npaths);
		audited = 0;
	}
	for (i = 0; i < c->nunits; i++) {
		struct fix_unit *u = &c->units[i];

		if (c->git && !am)
			failed = 1;
		else if (check_apply(c, u, am) < 0)
			failed = 1;
		if (check_checkpatch(c, u) < 0)
			failed = 1;
		if (c->build) {
			if (check_build(c, u) < 0)
				failed = 1;
		} else {
			printf("%s: build: skipped: no --check-build DIR\n", base(u->patch));
		}
		if (!audited)
			report(u, "re-audit", 0, "the rules did not run on the patched copies");
		else if (check_reaudit(c, before, &after, u) < 0)
			failed = 1;
		failed |= !audited;
	}
	cocci_result_free(&after);
	for (i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	free(am);
	free(shadow);
	return failed ? -1 : 0;
}
