// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard fix: a ready-to-send git format-patch series that fixes the
 * leaks an audit finds, each patch proven (fix_check.c).
 *
 * The steps are in files of their own (fix.h); this file owns the
 * options, the choice of findings and units, and the exit status.
 */
#include <errno.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cocci.h"
#include "fix.h"
#include "ptrguard.h"
#include "vocab.h"

static const char help[] =
"NAME\n"
"    ptrguard fix - write a patch series that fixes the leaks an audit finds\n"
"\n"
"SYNOPSIS\n"
"    ptrguard fix [--tree DIR] [--per-dir] [--all] [--check-build BUILD]\n"
"                 [-j N] [--rules DIR] [--timeout SECONDS] -o OUT [PATH...]\n"
"\n"
"DESCRIPTION\n"
"    Audits the PATHs of a kernel tree as ptrguard audit does (both rules),\n"
"    and writes to OUT a git format-patch series that fixes the findings of\n"
"    the leak classes (px, p-unhashed, int-cast): one patch per file, or per\n"
"    directory with --per-dir, and a cover letter, 0000-cover-letter.patch.\n"
"\n"
"    Each rewrite touches only what must change: %px becomes %p, plain %p on\n"
"    a tree older than v4.15 becomes %pK, and a pointer cast to an integer\n"
"    and printed with %lx (any long-wide conversion) is printed with %p, the\n"
"    cast removed.  Comments, line breaks and other arguments stay.\n"
"\n"
"    A patch's subject takes the \"prefix: \" most recent subjects of the file\n"
"    share (git log, when the tree is the top of a git work tree), else one\n"
"    made from the path (\"tracing: \", \"scsi: ips: \").  Its message says what\n"
"    leaks, to whom (the mode of the file when a create call in the source\n"
"    names the show function), and why %p is the fix (printk-formats.rst);\n"
"    Fixes: names the oldest commit that added the line of each conversion\n"
"    (git log -S); To and Cc come from the tree's scripts/get_maintainer.pl;\n"
"    author and Signed-off-by are the user's git identity (git config\n"
"    user.name and user.email), without which nothing is done.\n"
"\n"
"    The patches are made in a scratch git repository: the tree is only\n"
"    read.  Then each is proven, one line per patch and check on stdout:\n"
"      apply       git am on the tree's HEAD files (a git tree), else\n"
"                  git apply --check in the tree;\n"
"      checkpatch  the tree's scripts/checkpatch.pl --strict reports nothing;\n"
"      build       with --check-build: each touched .c file compiles;\n"
"      re-audit    the rules over the patched files find nothing the series\n"
"                  meant to fix, and nothing new.\n"
"\n"
"OPTIONS\n"
"    -o OUT, --output OUT\n"
"        Write the series to OUT (made if missing; it must hold no .patch).\n"
"    --tree DIR\n"
"        The kernel tree root (default: found above the first PATH).\n"
"    --per-dir\n"
"        One patch per directory instead of one per file.\n"
"    --all\n"
"        Also rewrite the low-confidence findings (px-gated, px-user).\n"
"    --check-build BUILD\n"
"        A kbuild output directory configured for the tree, in which the\n"
"        touched objects were built once from the pristine tree, e.g.\n"
"          make -C TREE O=BUILD defconfig && make -C TREE O=BUILD drivers/scsi/ips.o\n"
"        Each touched file is compiled again from the patched copy with the\n"
"        command kbuild saved (BUILD/path/.file.o.cmd), its output in a\n"
"        scratch directory: BUILD is not written.  A file BUILD never built\n"
"        is skipped.  Cost: the configuration and its prepare step once\n"
"        (about a minute on 2 cores for defconfig), then seconds per file.\n"
"    -j N, --rules DIR, --timeout SECONDS\n"
"        As for ptrguard audit.\n"
"    -h, --help\n"
"        Show this help.\n"
"\n"
"EXIT STATUS\n"
"    0  the series was written and every check passed, or there was\n"
"       nothing to fix (nothing is written then);\n"
"    2  usage or tool error, no git identity, or a check failed (its line\n"
"       says which; the series is left in OUT for a look).\n";

struct fix_opts {
	const char *tree, *rules, *out, *build;
	int per_dir, all;
	unsigned int jobs, timeout;
};

static int usage_error(const char *fmt, const char *arg)
{
	fputs("ptrguard: fix: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (see 'ptrguard fix --help')\n", stderr);
	return EXIT_ERROR;
}

static int number(const char *s, long lo, long hi, unsigned int *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < lo || n > hi)
		return -1;
	*v = (unsigned int)n;
	return 0;
}

static int parse_options(int argc, char **argv, struct fix_opts *o, int *first)
{
	int i;
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	o->jobs = n > 0 ? (unsigned int)n : 1;
	o->timeout = 600;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(help, stdout);
			exit(EXIT_CLEAN);
		} else if (!strcmp(a, "--per-dir")) {
			o->per_dir = 1;
		} else if (!strcmp(a, "--all")) {
			o->all = 1;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--tree") ||
			   !strcmp(a, "--rules") || !strcmp(a, "--check-build") ||
			   !strcmp(a, "-j") || !strcmp(a, "--jobs") || !strcmp(a, "--timeout")) {
			const char *v;

			if (i + 1 >= argc)
				return usage_error("%s: needs a value", a);
			v = argv[++i];
			if (!strcmp(a, "-o") || !strcmp(a, "--output"))
				o->out = v;
			else if (!strcmp(a, "--tree"))
				o->tree = v;
			else if (!strcmp(a, "--rules"))
				o->rules = v;
			else if (!strcmp(a, "--check-build"))
				o->build = v;
			else if (!strcmp(a, "--timeout")) {
				if (number(v, 0, 1000000, &o->timeout) < 0)
					return usage_error("--timeout %s: not a number of seconds", v);
			} else if (number(v, 1, 1024, &o->jobs) < 0) {
				return usage_error("-j %s: not a number of jobs (1-1024)", v);
			}
		} else {
			return usage_error("%s: unknown option", a);
		}
	}
	if (!o->out)
		return usage_error("%s", "-o OUT is required");
	*first = i;
	return 0;
}

/* The user's git identity (git config user.name / user.email); -1 if unset. */
static int identity(char **name, char **email)
{
	char *argv_n[] = { "git", "config", "user.name", NULL };
	char *argv_e[] = { "git", "config", "user.email", NULL };
	char *n = NULL, *e = NULL;
	int rn = fix_run(NULL, NULL, &n, NULL, argv_n);
	int re = fix_run(NULL, NULL, &e, NULL, argv_e);

	*name = n ? fix_first_line(n) : NULL;
	*email = e ? fix_first_line(e) : NULL;
	free(n);
	free(e);
	if (rn == 0 && re == 0 && **name && **email)
		return 0;
	return -1;
}

/* Is @root the top of a git work tree? */
static int is_git_top(const char *root)
{
	char *out = NULL, *top, *real = realpath(root, NULL);
	char *argv[] = { "git", "rev-parse", "--show-toplevel", NULL };
	int yes = 0;

	if (fix_run(root, NULL, &out, NULL, argv) == 0 && out) {
		top = fix_first_line(out);
		yes = real && !strcmp(top, real);
		free(top);
	}
	free(out);
	free(real);
	return yes;
}

/* OUT made if missing, and holding no .patch file. */
static int out_dir(const char *out)
{
	DIR *d;
	struct dirent *e;
	int ret = 0;

	if (fix_mkdirs(out) < 0)
		return -1;
	d = opendir(out);
	if (!d) {
		error("fix: -o %s: %s", out, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 6 && !strcmp(e->d_name + n - 6, ".patch")) {
			error("fix: -o %s: holds %s already; give an empty or new directory",
			      out, e->d_name);
			ret = -1;
			break;
		}
	}
	closedir(d);
	return ret;
}

static char *unit_name(const char *file, int per_dir)
{
	const char *slash = strrchr(file, '/');

	if (!per_dir)
		return xstrdup(file);
	return slash ? xstrndup(file, (size_t)(slash - file)) : xstrdup(".");
}

/* Group the chosen findings (sorted by file) into units. */
static void make_units(struct fix_ctx *c, const struct cocci_result *res, int per_dir, int all)
{
	size_t i, k;

	for (i = 0; i < res->nfindings; i++) {
		const struct finding *f = &res->findings[i];
		const struct vocab_class *cl = vocab_class(f->cls);
		char *name;
		struct fix_unit *u = NULL;

		if (!cl || (!cl->leak && !all))
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

static void free_units(struct fix_ctx *c)
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
	}
	free(c->units);
}

static void remove_tree(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };

	fix_run(NULL, NULL, NULL, NULL, argv);
}

int cmd_fix(int argc, char **argv)
{
	struct fix_opts o = { 0 };
	struct fix_ctx c = { 0 };
	struct cocci_opts co = { 0 };
	struct cocci_result res = { 0 };
	char *root = NULL, *rules = NULL;
	char tmpl[] = "/tmp/ptrguard-fix.XXXXXX";
	const char *tmpdir = getenv("TMPDIR");
	int first = 0, ret = EXIT_ERROR;
	size_t i;

	if (parse_options(argc, argv, &o, &first))
		return EXIT_ERROR;
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("GIT_PREFIX");
	if (identity(&c.name, &c.email) < 0) {
		error("fix: no git identity: set git config user.name and user.email (they sign the patches)");
		goto out;
	}
	if (o.tree) {
		if (access(o.tree, F_OK) < 0) {
			error("fix: --tree %s: %s", o.tree, strerror(errno));
			goto out;
		}
		root = realpath(o.tree, NULL);
	} else {
		root = cocci_find_root(first < argc ? argv[first] : ".");
	}
	if (!root)
		goto out;
	if (o.build && access(o.build, F_OK) < 0) {
		error("fix: --check-build %s: %s", o.build, strerror(errno));
		goto out;
	}
	rules = o.rules ? xstrdup(o.rules) : cocci_rules_dir();
	if (!rules || out_dir(o.out) < 0)
		goto out;

	co.root = root;
	co.rules_dir = rules;
	co.paths = (const char *const *)(argv + first);
	co.npaths = (size_t)(argc - first);
	co.jobs = o.jobs;
	co.timeout = o.timeout;
	co.casts = 1;
	co.prefilter = 1;
	co.progress = isatty(2);
	if (cocci_run(&co, &res) < 0)
		goto out;

	c.root = root;
	c.git = is_git_top(root);
	c.out = o.out;
	c.build = o.build;
	c.cocci = &co;
	make_units(&c, &res, o.per_dir, o.all);
	if (!c.nunits) {
		fprintf(stderr, "ptrguard: fix: nothing to fix (%zu findings, none of a leak class%s)\n",
			res.nfindings, o.all ? "" : "; --all takes the low-confidence ones too");
		ret = EXIT_CLEAN;
		goto out;
	}
	if (tmpdir && *tmpdir && strlen(tmpdir) < 200)
		c.tmp = xasprintf("%s/ptrguard-fix.XXXXXX", tmpdir);
	else
		c.tmp = xstrdup(tmpl);
	if (!mkdtemp(c.tmp)) {
		error("fix: %s: %s", c.tmp, strerror(errno));
		goto out;
	}
	for (i = 0; i < c.nunits; i++)
		if (fix_message(&c, &c.units[i]) < 0)
			goto out;
	if (fix_series(&c) < 0)
		goto out;
	printf("%s/0000-cover-letter.patch\n", o.out);
	for (i = 0; i < c.nunits; i++)
		printf("%s: %s (%zu finding%s)\n", c.units[i].patch, c.units[i].subject,
		       c.units[i].nfindings, c.units[i].nfindings == 1 ? "" : "s");
	fflush(stdout);
	if (fix_check(&c, &res) < 0) {
		error("fix: a check failed (see the FAILED line above); the series is in %s", o.out);
		goto out;
	}
	if (fix_cover_checked(&c) < 0)
		goto out;
	ret = EXIT_CLEAN;
out:
	if (c.tmp && !getenv("PTRGUARD_KEEP_TMP"))
		remove_tree(c.tmp);
	free(c.tmp);
	free_units(&c);
	cocci_result_free(&res);
	free(c.name);
	free(c.email);
	free(root);
	free(rules);
	return ret;
}
