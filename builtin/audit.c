// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard audit: run the cocci/ rules over a kernel tree and report the
 * seq_file output that prints raw kernel addresses.
 *
 * The work (prefilter, spatch processes, records) is cocci_run()'s and the
 * writers are in output.c; this file owns the options, the summary and the
 * exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cocci/cocci.h"
#include "fix/fix.h"
#include "lib/kernel.h"
#include "cocci/output.h"
#include "lib/parse-options.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

static const struct cmd_help help = {
	.name = "audit",
	.summary = "find seq_file output that prints raw kernel addresses",
	.args = "[PATH...]",
	.description =
"    Runs the Coccinelle rules of ptrguard (seq_px.cocci and, with --casts,\n"
"    seq_int_cast.cocci) over the PATHs, files or directories of one kernel\n"
"    tree (default: the current directory), or of an out-of-tree module.\n"
"    Before any parsing, a prefilter\n"
"    keeps only the files that contain the tokens of each rule's grep query\n"
"    (the one spatch prints with --parse-cocci) and, of those, the files\n"
"    where the rule can report something: a format literal with a %px (or\n"
"    a %p, before v4.15), and for the cast rule a long-wide integer\n"
"    conversion and a cast to an integer type in the arguments of a seq\n"
"    call.  Only those are given to spatch, split over N processes.\n"
"\n"
"    The tree root is the first directory above the first PATH that holds\n"
"    Makefile, Kconfig and MAINTAINERS, or --tree DIR.  When there is none\n"
"    (or with --kernel), the PATHs are out-of-tree sources: their common\n"
"    directory is the root, and the kernel they are built against gives the\n"
"    include path and the version (--kernel KDIR, else the running kernel's\n"
"    /lib/modules/$(uname -r)/build when present; without one, the newest\n"
"    kernel's semantics, and a line on stderr says so).  Findings name files\n"
"    relative to the root, sorted and without duplicates, one per line:\n"
"\n"
"        FILE:LINE:COLUMN: SEVERITY: CLASS: CONVERSION: MESSAGE\n"
"\n"
"    LINE and COLUMN (1-based) are those of the conversion inside the format\n"
"    literal; SEVERITY is warning for a leak, note for a low-confidence\n"
"    class.  The classes are:\n"
"\n"
"        px          %px of a kernel pointer                       (leak)\n"
"        p-unhashed  plain %p (or a %p extension its vsprintf does\n"
"                    not print) on a tree older than v4.15         (leak)\n"
"        int-cast    a pointer cast to an integer and printed with\n"
"                    a long-wide conversion such as %lx            (leak)\n"
"        px-gated    %px zeroed by a privilege check, or NULL      (low confidence)\n"
"        px-user     %px of a __user pointer                       (low confidence)\n"
"\n"
"    and, for addresses held in integers or buffers (no automatic fix:\n"
"    --patch leaves them and exits 1):\n"
"\n"
"        int-held    an integer local assigned a pointer cast, printed\n"
"                    wide or by a seq_put_* writer                  (leak)\n"
"        int-field   a field the file assigns a pointer cast,\n"
"                    printed wide                                  (low confidence)\n"
"        put-cast    a pointer cast written by seq_put_hex_ll(),\n"
"                    seq_put_decimal_ull()...                       (leak)\n"
"        px-buf      %px into a buffer that seq_puts(), seq_write()\n"
"                    or a seq printf then writes                    (leak)\n"
"        int-buf     a pointer cast printed wide into such a buffer (leak)\n"
"        int-untyped a pointer cast printed wide whose operand spatch\n"
"                    could not type, while the text shows a pointer (leak)\n"
"        px-away     %px into a buffer that is handed to a function\n"
"                    (not printk(), pr_*(), dev_*(), sysfs_emit(),\n"
"                    a string function or kfree()), stored, or\n"
"                    returned to a caller that keeps it, and that\n"
"                    reaches no seq call the rules follow          (low confidence)\n"
"        int-away    a pointer cast printed wide into such a buffer (low confidence)\n"
"\n"
"    The findings come first, on stdout.  On stderr, a last line sums up:\n"
"    files read, files with seq output calls (they satisfy a grep query),\n"
"    files parsed by spatch (the others hold nothing a rule reports), every\n"
"    seq output call read and who judged it (with spatch's facts, by the\n"
"    lexical model alone, read where no rule can report, not understood),\n"
"    findings per class (and how many are lexical), and the files spatch\n"
"    could not parse completely.  The lexical model judges the calls in\n"
"    the lines spatch skipped; one line before the summary counts those\n"
"    files, and one the calls that neither could judge (-v lists both).\n"
"    A progress line is shown on stderr when it is a terminal.\n",
	.trailer =
"ENVIRONMENT\n"
"    SPATCH  the spatch program (default: spatch from PATH).\n"
"\n"
"EXIT STATUS\n"
"    One rule for every mode (the report, --patch, --list-formats):\n"
"    0  no leak found and every seq output call understood (findings of\n"
"       the low-confidence classes alone, px-gated, px-user, int-field,\n"
"       px-away and int-away, give 0: they are printed for review, but\n"
"       are not known to print a raw address readable by everyone);\n"
"    1  at least one finding of a leak class, or a call not understood\n"
"       (its format or path can be read by neither spatch nor the lexical\n"
"       model: it is not known to be clean), whatever the mode prints: a\n"
"       patch (which fixes leaks only) or the formats;\n"
"    2  usage error, or a tool error: spatch missing, crashing, timing out\n"
"       or exiting non-zero, a missing tree or rule, an unreadable file,\n"
"       no C source among the PATHs, a write error on stdout.\n"
"       Nothing is printed on stdout then: there is no partial result.\n"
"\n"
"EXAMPLES\n"
"    ptrguard audit ~/linux                  # the whole tree\n"
"    ptrguard audit -j 4 ~/linux/kernel      # a subtree\n"
"    ptrguard audit --kernel ~/linux ~/src/my-driver   # an out-of-tree module\n"
"    ptrguard audit --sarif ~/linux/fs > fs.sarif\n"
"    ptrguard audit --patch ~/linux/drivers/foo | (cd ~/linux && patch -p1)\n"
"    ptrguard audit --list-formats ~/linux | ptrguard fmt\n",
};

enum mode { MODE_REPORT, MODE_PATCH, MODE_FORMATS };

struct audit_opts {
	struct cocci_opts cocci;
	enum pg_format format;
	int mode;
	const char *tree;
	const char *kernel;
	const char *rules;
	int no_prefilter;
	int no_cache;
	int verbose;
	int quiet;
};

/* --patch, --list-formats: one mode, and no output format beside it. */
static int set_mode(const struct option *opt, const char *arg, int unset)
{
	int *mode = opt->value;

	(void)arg;
	(void)unset;
	if (*mode != MODE_REPORT && *mode != opt->defval) {
		error("--%s: only one of --patch and --list-formats", opt->long_name);
		return -1;
	}
	*mode = (int)opt->defval;
	return 0;
}

/* Parse the options; the PATHs are left in argv[0..*npaths). */
static int parse_audit_options(int argc, char **argv, struct audit_opts *o, int *npaths)
{
	const struct option opts[] = {
		OPT__JOBS(&o->cocci.jobs, "Run N spatch processes (default: the number of online CPUs).",
			  1024),
		OPT__TREE(&o->tree, "The tree root; PATHs are then relative to the current\n"
			  "directory and must lie under DIR.  A kernel tree, or the\n"
			  "top directory of out-of-tree sources."),
		OPT__KERNEL(&o->kernel, "The PATHs are out-of-tree sources built against the kernel\n"
			    "source or build tree KDIR: its include path and its version\n"
			    "(default: /lib/modules/$(uname -r)/build when there is no\n"
			    "kernel tree above the PATHs)."),
		OPT_STRING(0, "rules", &o->rules, "DIR",
			   "Read the rules from DIR (default: ../cocci next to the program,\n"
			   "or ../share/ptrguard/cocci once installed)."),
		OPT_BOOL(0, "casts", &o->cocci.casts,
			 "Also run (--no-casts: do not run) the pointer-to-integer cast\n"
			 "rule.  It reads the headers for types (--all-includes), which\n"
			 "makes a run several times slower.  Default: --casts."),
		OPT__TIMEOUT(&o->cocci.timeout,
			     "Kill a spatch process that runs longer than SECONDS (default 600;\n"
			     "0: no limit) and fail with exit status 2, naming its files.", 1000000),
		OPT_BOOL(0, "no-prefilter", &o->no_prefilter,
			 "Give spatch every file that satisfies a grep query, including the\n"
			 "files whose literals hold no conversion a rule reports.  Same\n"
			 "findings, much slower; for checking the prefilter.  With\n"
			 "--list-formats, seq_px.cocci parses every such file anyway (it\n"
			 "lists the calls of every file); this adds the cast rule's."),
		OPT_BOOL(0, "no-cache", &o->no_cache,
			 "Neither read nor keep what spatch printed for each file, nor the\n"
			 "walk's index of what each file holds (both in $PTRGUARD_CACHE,\n"
			 "~/.cache/ptrguard by default): parse every candidate again, as\n"
			 "the first audit of a tree does."),
		OPT__FORMAT(&o->format, FORMATS_REPORT,
			    "text (the default; gcc is another name for it):\n"
			    "FILE:LINE:COLUMN: SEVERITY: CLASS: CONVERSION: MESSAGE;\n"
			    "json: a list of objects with the keys file, line, column, class,\n"
			    "leak, conversion, function, format, argument and message; sarif:\n"
			    "a SARIF 2.1.0 log (leaks at level \"error\", low-confidence classes\n"
			    "at level \"note\")."),
		OPT_CALLBACK_NOARG(0, "patch", &o->mode,
				   "Run the rules in patch mode and print the unified diff that fixes\n"
				   "what they can (apply with patch -p1 in the tree root).",
				   set_mode, MODE_PATCH),
		OPT_CALLBACK_NOARG(0, "list-formats", &o->mode,
				   "Print the format literal of every seq output call examined, one C\n"
				   "literal per line, as written in the source (see ptrguard fmt).",
				   set_mode, MODE_FORMATS),
		OPT__VERBOSE(&o->verbose,
			     "List the files spatch could not parse completely (with their\n"
			     "skipped lines) and the calls nobody could judge; -vv also shows\n"
			     "the spatch command lines and keeps their output files."),
		OPT__QUIET(&o->quiet, "Print the findings only: no summary, no progress."),
		OPT_END(),
	};
	long n;

	n = sysconf(_SC_NPROCESSORS_ONLN);
	o->cocci.jobs = n > 0 ? (unsigned int)n : 1;
	o->cocci.casts = -1;	/* decided by the mode below */
	o->cocci.timeout = 600;	/* seconds per spatch process: a hung one is an error */
	*npaths = parse_options(argc, argv, opts, &help);
	if (*npaths < 0)
		return -1;
	if (o->mode != MODE_REPORT && o->format != FORMAT_DEFAULT) {
		error("--%s: only one of --format, --patch and --list-formats",
		      o->mode == MODE_PATCH ? "patch" : "list-formats");
		return -1;
	}
	if (o->cocci.casts < 0)
		o->cocci.casts = 1;
	o->cocci.verbose = o->verbose > 1;
	return 0;
}

/* Findings per class, in the order of the classes table of --help. */
static void summary(const struct cocci_result *res, enum mode mode, int verbose)
{
	size_t *counts = xmalloc(vocab_nclasses * sizeof(*counts));
	size_t other = 0, i, k, lines = 0;

	memset(counts, 0, vocab_nclasses * sizeof(*counts));

	/* by default one line each: the details bury the findings */
	for (i = 0; i < res->nunparsed; i++)
		lines += res->unparsed_lines[i];
	if (!verbose && res->nunparsed)
		fprintf(stderr, "ptrguard: audit: spatch could not parse %zu lines in %zu files; the lexical model judged the calls there (-v lists them)\n",
			lines, res->nunparsed);
	if (!verbose && res->nunjudged)
		fprintf(stderr, "ptrguard: audit: %zu seq output calls not understood: a format or a path neither spatch nor the lexical model can read (-v lists them)\n",
			res->nunjudged);
	for (i = 0; verbose && i < res->nunparsed; i++) {
		unsigned int n;
		char *where = cocci_skip_text(res, res->unparsed[i], &n);

		fprintf(stderr, "ptrguard: audit: %s: spatch could not parse %u line%s%s%s%s\n",
			res->unparsed[i], res->unparsed_lines[i],
			res->unparsed_lines[i] == 1 ? "" : "s", where ? " (" : "",
			where ? where : "", where ? ")" : "");
		free(where);
	}
	for (i = 0; verbose && i < res->nunjudged; i++) {
		const struct cocci_unjudged *u = &res->unjudged[i];

		if (cocci_skipped(res, u->file, u->line, u->end_line))
			fprintf(stderr, "ptrguard: audit: %s:%u: %s(): not understood (spatch skipped these lines; lexically: %s)\n",
				u->file, u->line, u->callee, u->why);
		else
			fprintf(stderr, "ptrguard: audit: %s:%u: %s(): not understood (format: %s)\n",
				u->file, u->line, u->callee, u->why);
	}
	for (i = 0; i < res->nfindings; i++) {
		for (k = 0; k < vocab_nclasses; k++)
			if (!strcmp(res->findings[i].cls, vocab_classes[k].id))
				break;
		if (k < vocab_nclasses)
			counts[k]++;
		else
			other++;
	}
	fprintf(stderr, "ptrguard: audit: %zu files read, %zu with seq output calls, %zu parsed",
		res->nscanned, res->nquery, res->nfiles);
	if (mode == MODE_PATCH) {
		fputs(" (patch mode)\n", stderr);
		free(counts);
		return;
	}
	/* every call read, by who judged it */
	fprintf(stderr, ", %zu calls (%zu with spatch's facts, %zu by the lexical model alone, %zu with nothing a rule can report, %zu not understood), %zu findings (",
		res->nspatch + res->nlexical + res->nquiet + res->nunjudged, res->nspatch,
		res->nlexical, res->nquiet, res->nunjudged, res->nfindings);
	for (k = 0; k < vocab_nclasses; k++)
		fprintf(stderr, "%s%s %zu", k ? ", " : "", vocab_classes[k].id, counts[k]);
	free(counts);
	if (other)
		fprintf(stderr, ", other %zu", other);
	for (i = 0, k = 0; i < res->nfindings; i++)
		k += res->findings[i].lexical != 0;
	fprintf(stderr, "; %zu lexical), %zu files not fully parsed\n", k, res->nunparsed);
}

/*
 * --patch: the unified diff that fixes each file's leak findings, made by
 * fix's rewriter (fix/edit.c), "diff -u -p a/FILE b/FILE" per file.  0,
 * 1 when the diff is not empty, -1 after error().
 */
static int write_patch(const char *root, const struct cocci_result *res)
{
	const struct finding **mine = xmalloc((res->nfindings + 1) * sizeof(*mine));
	size_t i = 0, n, len, newlen;
	int ret = 0;

	while (i < res->nfindings && ret >= 0) {
		const char *file = res->findings[i].file;
		char *abs = xasprintf("%s/%s", root, file), *text, *fixed = NULL, *out = NULL;
		char tmpl[] = "/tmp/ptrguard-patch.XXXXXX", *la = NULL, *lb = NULL;
		int fd = -1, rc;

		for (n = 0; i < res->nfindings && !strcmp(res->findings[i].file, file); i++)
			if (finding_is_leak(&res->findings[i]))
				mine[n++] = &res->findings[i];
		text = n ? read_file(abs, SIZE_MAX, &len) : NULL;
		if (n && !text) {
			error("%s: %s", abs, strerror(errno));
			ret = -1;
		} else if (n) {
			fixed = fix_apply(file, text, len, mine, n, &newlen);
			fd = fixed ? mkstemp(tmpl) : -1;
			if (!fixed || fd < 0 || fix_write(tmpl, fixed, newlen) < 0) {
				if (fixed && fd < 0)
					error("mkstemp: %s", strerror(errno));
				ret = -1;
			} else {
				char *argv[] = { (char *)"diff", (char *)"-u", (char *)"-p",
						 (char *)"--label", NULL, (char *)"--label", NULL,
						 abs, tmpl, NULL };

				la = xasprintf("a/%s", file);
				lb = xasprintf("b/%s", file);
				argv[4] = la;
				argv[6] = lb;
				rc = fix_run(root, NULL, &out, NULL, argv);
				if (rc == 1) {
					printf("diff -u -p %s %s\n%s", la, lb, out);
					ret = 1;
				} else if (rc != 0) {
					error("diff of %s: failed", file);
					ret = -1;
				}
			}
		}
		if (fd >= 0) {
			close(fd);
			unlink(tmpl);
		}
		free(la);
		free(lb);
		free(out);
		free(fixed);
		free(text);
		free(abs);
	}
	free(mine);
	return ret;
}

/*
 * The exit status of every mode, one rule: EXIT_FINDINGS when a leak was
 * found or a call is not understood (nobody can say it is clean), else
 * EXIT_CLEAN.  --patch and --list-formats judge what the report judges.
 */
static int audit_status(const struct cocci_result *res)
{
	size_t i;

	if (res->nunjudged)
		return EXIT_FINDINGS;
	for (i = 0; i < res->nfindings; i++)
		if (finding_is_leak(&res->findings[i]))
			return EXIT_FINDINGS;
	return EXIT_CLEAN;
}

int cmd_audit(int argc, char **argv)
{
	struct audit_opts o = { 0 };
	struct cocci_result res = { 0 };
	char *root = NULL, *rules = NULL;
	size_t i, n;
	int npaths, ret = EXIT_ERROR, rc;

	if (parse_audit_options(argc, argv, &o, &npaths))
		return EXIT_ERROR;
	root = cocci_paths_root(o.tree, o.kernel, argv, npaths);
	if (!root)
		return EXIT_ERROR;
	rules = o.rules ? strdup(o.rules) : cocci_rules_dir();
	if (!rules)
		goto out;

	o.cocci.root = root;
	o.cocci.rules_dir = rules;
	o.cocci.paths = (const char * const *)argv;
	o.cocci.npaths = (size_t)npaths;
	o.cocci.progress = !o.quiet && isatty(2);
	o.cocci.cache = !o.no_cache;
	/*
	 * --list-formats lists every call seq_px.cocci parses: each file
	 * with one must be parsed by it; the cast rule keeps its prefilter
	 */
	o.cocci.prefilter = o.no_prefilter ? 0 : o.mode == MODE_FORMATS ? COCCI_PREFILTER_CAST : 1;
	if (cocci_run(&o.cocci, &res) < 0)
		goto out;

	switch (o.mode) {
	case MODE_PATCH:
		rc = write_patch(root, &res);
		if (rc < 0)
			goto out;
		fflush(stdout);
		/* leaks the rewriter leaves (vocab.def: no automatic fix) are not clean */
		for (i = 0, n = 0; i < res.nfindings; i++)
			if (finding_is_leak(&res.findings[i]) && !vocab_class(res.findings[i].cls)->fix)
				n++;
		if (n && !o.quiet)
			fprintf(stderr, "ptrguard: audit: %zu leak finding%s with no automatic fix left out of the patch\n",
				n, n == 1 ? "" : "s");
		if (!o.quiet)
			summary(&res, o.mode, o.verbose);
		/* a patch is made only of leak findings: then the status is 1 already */
		ret = audit_status(&res);
		goto out;
	case MODE_FORMATS:
		for (i = 0; i < res.ncalls; i++) {
			/* one literal per line: a newline can only be between pieces */
			char *nl, *f = res.calls[i].format;

			while ((nl = strchr(f, '\n')))
				*nl = ' ';
			printf("%s\n", f);
		}
		if (!o.quiet)
			summary(&res, o.mode, o.verbose);
		ret = audit_status(&res);
		goto out;
	case MODE_REPORT:
		break;
	}
	if (output_findings(stdout, o.format == FORMAT_JSON ? OUTPUT_JSON :
			    o.format == FORMAT_SARIF ? OUTPUT_SARIF : OUTPUT_GCC,
			    "ptrguard", root, res.findings, res.nfindings) < 0)
		goto out;
	/* the findings first: on a terminal, before the summary */
	fflush(stdout);
	if (!o.quiet)
		summary(&res, o.mode, o.verbose);
	/* a call nobody can read is not clean */
	ret = audit_status(&res);
out:
	cocci_result_free(&res);
	free(root);
	free(rules);
	return ret;
}
