// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard fix: a ready-to-send git format-patch series that fixes the
 * leaks an audit finds, each patch proven (fix/check.c).
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

#include "cocci/cocci.h"
#include "fix/fix.h"
#include "lib/parse-options.h"
#include "lib/ptrguard.h"

static const struct cmd_help help = {
	.name = "fix",
	.summary = "write a patch series that fixes the leaks an audit finds",
	.args = "[PATH...]",
	.description =
"    Audits the PATHs of a kernel tree as ptrguard audit does (both rules),\n"
"    and writes to OUT a git format-patch series that fixes the findings of\n"
"    the leak classes (px, p-unhashed, int-cast): one patch per file, or per\n"
"    directory with --per-dir, and a cover letter, 0000-cover-letter.patch.\n"
"\n"
"    Each rewrite touches only what must change: %px becomes %p, plain %p on\n"
"    a tree older than v4.15 becomes %pK, and a pointer cast to an integer\n"
"    and printed with %lx (any long-wide conversion) is printed with %p, the\n"
"    cast removed.  Comments, line breaks and other arguments stay; the\n"
"    continuation lines of a changed call are aligned with its open\n"
"    parenthesis where checkpatch --strict would ask for it.\n"
"\n"
"    A patch's subject takes the \"prefix: \" most recent subjects of the file\n"
"    share (git log, when the tree is the top of a git work tree), else one\n"
"    made from the path (\"tracing: \", \"scsi: ips: \").  Its message says what\n"
"    leaks, to whom (the mode of the file when a create call in the source\n"
"    names the show function), and why %p is the fix (printk-formats.rst);\n"
"    Fixes: names the commit that brought in the line of each conversion as\n"
"    it is (git blame -w -M), unless that is a root commit or an import (a\n"
"    commit adding more than 1000 files): the cover letter then says that\n"
"    the history does not show where the line came from.  To and Cc come\n"
"    from the tree's scripts/get_maintainer.pl; author and Signed-off-by are\n"
"    the git identity of the tree's repository (git -C DIR config user.name\n"
"    and user.email), without which nothing is done.\n"
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
"    fix writes files, not a report: --format, --json and --sarif are not\n"
"    its options.\n",
	.trailer =
"EXIT STATUS\n"
"    0  the series was written and every check passed, or there was\n"
"       nothing to fix (nothing is written then);\n"
"    2  usage or tool error, no git identity, or a check failed (its line\n"
"       says which; the series is left in OUT for a look).\n",
};

struct fix_opts {
	const char *tree, *rules, *out, *build;
	int per_dir, all, verbose, quiet;
	unsigned int jobs, timeout;
};

static int fix_parse_options(int argc, char **argv, struct fix_opts *o, int *npaths)
{
	const struct option opts[] = {
		OPT_STRING_F('o', "output", &o->out, "OUT",
			     "Write the series to OUT (made if missing; it must hold no .patch).",
			     PARSE_OPT_REQUIRED),
		OPT__TREE(&o->tree, "The kernel tree root (default: found above the first PATH);\n"
			  "its git repository gives the identity that signs the patches."),
		OPT_BOOL(0, "per-dir", &o->per_dir, "One patch per directory instead of one per file."),
		OPT_BOOL(0, "all", &o->all,
			 "Also rewrite the low-confidence findings (px-gated, px-user)."),
		OPT_STRING(0, "check-build", &o->build, "BUILD",
			   "A kbuild output directory configured for the tree, in which the\n"
			   "touched objects were built once from the pristine tree, e.g.\n"
			   "  make -C TREE O=BUILD defconfig && make -C TREE O=BUILD drivers/scsi/ips.o\n"
			   "Each touched file is compiled again from the patched copy with the\n"
			   "command kbuild saved (BUILD/path/.file.o.cmd), its output in a\n"
			   "scratch directory: BUILD is not written.  A file BUILD never built\n"
			   "is skipped.  Cost: the configuration and its prepare step once\n"
			   "(about a minute on 2 cores for defconfig), then seconds per file."),
		OPT__JOBS(&o->jobs, "Run N spatch processes (default: the number of online CPUs).",
			  1024),
		OPT_STRING(0, "rules", &o->rules, "DIR",
			   "Read the rules from DIR (as for ptrguard audit)."),
		OPT__TIMEOUT(&o->timeout,
			     "Kill a spatch process that runs longer than SECONDS (default 600;\n"
			     "0: no limit).", 1000000),
		OPT__VERBOSE(&o->verbose, "Show the spatch command lines on stderr."),
		OPT__QUIET(&o->quiet, "No progress line and no note when there is nothing to fix."),
		OPT_END(),
	};
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	o->jobs = n > 0 ? (unsigned int)n : 1;
	o->timeout = 600;
	*npaths = parse_options(argc, argv, opts, &help);
	return *npaths < 0 ? -1 : 0;
}

/*
 * The git identity that signs the patches: user.name and user.email as
 * git resolves them in @dir (git -C DIR config: the repository's own
 * configuration first, then the global and system ones), not in the
 * current directory.  -1 if either is unset.
 */
static int identity(const char *dir, char **name, char **email)
{
	char *argv_n[] = { "git", "config", "user.name", NULL };
	char *argv_e[] = { "git", "config", "user.email", NULL };
	char *n = NULL, *e = NULL;
	int rn = fix_run(dir, NULL, &n, NULL, argv_n);
	int re = fix_run(dir, NULL, &e, NULL, argv_e);

	*name = n ? fix_first_line(n) : NULL;
	*email = e ? fix_first_line(e) : NULL;
	free(n);
	free(e);
	if (rn == 0 && re == 0 && *name && *email && **name && **email)
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

/*
 * Flush stdout, the lines said so far; a write error is reported here,
 * with its own errno (later calls would change it), and only once.
 */
static int flush_out(void)
{
	if (fflush(stdout) != EOF && !ferror(stdout))
		return 0;
	error("writing to stdout: %s", strerror(errno ? errno : EIO));
	clearerr(stdout);
	return -1;
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
	int npaths = 0, ret = EXIT_ERROR;
	size_t i;

	if (fix_parse_options(argc, argv, &o, &npaths))
		return EXIT_ERROR;
	unsetenv("GIT_DIR");
	unsetenv("GIT_WORK_TREE");
	unsetenv("GIT_INDEX_FILE");
	unsetenv("GIT_PREFIX");
	if (o.tree) {
		if (access(o.tree, F_OK) < 0) {
			error("fix: --tree %s: %s", o.tree, strerror(errno));
			goto out;
		}
		root = realpath(o.tree, NULL);
	} else {
		root = cocci_find_root(npaths ? argv[0] : ".");
	}
	if (!root)
		goto out;
	if (identity(root, &c.name, &c.email) < 0) {
		error("fix: no git identity in %s: set git config user.name and user.email there (they sign the patches)",
		      o.tree ? o.tree : root);
		goto out;
	}
	if (o.build && access(o.build, F_OK) < 0) {
		error("fix: --check-build %s: %s", o.build, strerror(errno));
		goto out;
	}
	rules = o.rules ? xstrdup(o.rules) : cocci_rules_dir();
	if (!rules || out_dir(o.out) < 0)
		goto out;

	co.root = root;
	co.rules_dir = rules;
	co.paths = (const char *const *)argv;
	co.npaths = (size_t)npaths;
	co.jobs = o.jobs;
	co.timeout = o.timeout;
	co.casts = 1;
	co.prefilter = 1;
	co.progress = isatty(2) && !o.quiet;
	co.verbose = o.verbose > 0;
	if (cocci_run(&co, &res) < 0)
		goto out;

	c.root = root;
	c.git = is_git_top(root);
	c.out = o.out;
	c.build = o.build;
	c.cocci = &co;
	fix_make_units(&c, &res, o.per_dir, o.all);
	fix_left_out(&c, &res, o.all, o.quiet);
	if (!c.nunits) {
		if (!o.quiet)
			fprintf(stderr,
				"ptrguard: fix: nothing to fix (%zu findings, none of a leak class with an automatic fix%s)\n",
				res.nfindings,
				o.all ? "" : "; --all takes the low-confidence ones too");
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
	fix_order_units(&c);
	if (fix_series(&c) < 0)
		goto out;
	printf("%s/0000-cover-letter.patch\n", o.out);
	for (i = 0; i < c.nunits; i++)
		printf("%s: %s (%zu finding%s)\n", c.units[i].patch, c.units[i].subject,
		       c.units[i].nfindings, c.units[i].nfindings == 1 ? "" : "s");
	if (flush_out() < 0)
		goto out;
	if (fix_check(&c, &res) < 0) {
		if (flush_out() < 0)
			goto out;
		error("fix: a check failed (see the FAILED line above); the series is in %s", o.out);
		goto out;
	}
	if (flush_out() < 0 || fix_cover_checked(&c) < 0)
		goto out;
	ret = EXIT_CLEAN;
out:
	if (c.tmp && !getenv("PTRGUARD_KEEP_TMP"))
		remove_tree(c.tmp);
	free(c.tmp);
	fix_free_units(&c);
	cocci_result_free(&res);
	free(c.name);
	free(c.email);
	free(root);
	free(rules);
	return ret;
}
