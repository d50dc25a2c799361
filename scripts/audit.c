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

#include "cocci.h"
#include "output.h"
#include "ptrguard.h"
#include "vocab.h"

static const char help[] =
"NAME\n"
"    ptrguard audit - find seq_file output that prints raw kernel addresses\n"
"\n"
"SYNOPSIS\n"
"    ptrguard audit [-j N] [--tree DIR] [--rules DIR] [--casts | --no-casts]\n"
"                   [--timeout SECONDS] [--no-prefilter]\n"
"                   [--json | --sarif | --patch | --list-formats]\n"
"                   [-v] [PATH...]\n"
"\n"
"DESCRIPTION\n"
"    Runs the Coccinelle rules of ptrguard (seq_px.cocci and, with --casts,\n"
"    seq_int_cast.cocci) over the PATHs, files or directories of one kernel\n"
"    tree (default: the current directory).  Before any parsing, a prefilter\n"
"    keeps only the files that contain the tokens of each rule's grep query\n"
"    (the one spatch prints with --parse-cocci) and, of those, the files\n"
"    where the rule can report something: a format literal with a %px (or\n"
"    a %p, before v4.15), and for the cast rule a long-wide integer\n"
"    conversion and a cast to an integer type in the arguments of a seq\n"
"    call.  Only those are given to spatch, split over N processes.\n"
"\n"
"    The tree root is the first directory above the first PATH that holds\n"
"    Makefile, Kconfig and MAINTAINERS, or --tree DIR.  Findings name files\n"
"    relative to it, sorted and without duplicates, one per line:\n"
"\n"
"        FILE:LINE:COLUMN: CLASS: CONVERSION: MESSAGE\n"
"\n"
"    LINE and COLUMN (1-based) are those of the conversion inside the format\n"
"    literal.  The classes are:\n"
"\n"
"        px          %px of a kernel pointer                       (leak)\n"
"        p-unhashed  plain %p on a tree older than v4.15           (leak)\n"
"        int-cast    a pointer cast to an integer and printed with\n"
"                    a long-wide conversion such as %lx            (leak)\n"
"        px-gated    %px zeroed by a privilege check, or NULL      (low confidence)\n"
"        px-user     %px of a __user pointer                       (low confidence)\n"
"\n"
"    A last line on stderr sums up: files read, files with seq output calls\n"
"    (they satisfy a grep query), files parsed by spatch (the others hold\n"
"    nothing a rule reports), the seq output calls in the parsed files,\n"
"    findings per class, and the parsed files spatch could not parse\n"
"    completely, each of which is also listed (with the number of lines it\n"
"    skipped): a call on such a line is not examined.  A progress line is\n"
"    shown on stderr when it is a terminal.\n"
"\n"
"OPTIONS\n"
"    -j N, --jobs N\n"
"        Run N spatch processes (default: the number of online CPUs).\n"
"    --tree DIR\n"
"        The kernel tree root; PATHs are then relative to the current\n"
"        directory and must lie under DIR.\n"
"    --rules DIR\n"
"        Read the rules from DIR (default: ../cocci next to the program,\n"
"        or ../share/ptrguard/cocci once installed).\n"
"    --casts, --no-casts\n"
"        Also run, or do not run, the pointer-to-integer cast rule.  It\n"
"        reads the headers for types (--all-includes), which makes a run\n"
"        several times slower.  Default: --casts, except with\n"
"        --list-formats (the %px rule already lists every call).\n"
"    --timeout SECONDS\n"
"        Kill a spatch process that runs longer than SECONDS (default 600;\n"
"        0: no limit) and fail with exit status 2, naming its files.\n"
"    --no-prefilter\n"
"        Give spatch every file that satisfies a grep query, including the\n"
"        files whose literals hold no conversion a rule reports.  Same\n"
"        findings, much slower; for checking the prefilter (and implied by\n"
"        --list-formats, which lists the calls of every file).\n"
"    --json\n"
"        Print the findings as a JSON list of objects with the keys file,\n"
"        line, column, class, leak, conversion, function, format, argument\n"
"        and message.\n"
"    --sarif\n"
"        Print the findings as a SARIF 2.1.0 log (leaks at level \"error\",\n"
"        low-confidence classes at level \"note\").\n"
"    --patch\n"
"        Run the rules in patch mode and print the unified diff that fixes\n"
"        what they can (apply with patch -p1 in the tree root).\n"
"    --list-formats\n"
"        Print the format literal of every seq output call examined, one C\n"
"        literal per line, as written in the source (see ptrguard fmt).\n"
"    -v, --verbose\n"
"        Show the spatch command lines and keep their output files.\n"
"    -h, --help\n"
"        Show this help.\n"
"\n"
"ENVIRONMENT\n"
"    SPATCH  the spatch program (default: spatch from PATH).\n"
"\n"
"EXIT STATUS\n"
"    0  no leak found (px-gated and px-user findings alone give 0: they are\n"
"       printed for review, but the value they print is not a raw address\n"
"       readable by everyone);\n"
"    1  at least one px, p-unhashed or int-cast finding (with --patch: the\n"
"       patch is not empty);\n"
"    2  usage error, or a tool error: spatch missing, crashing, timing out\n"
"       or exiting non-zero, a missing tree or rule, an unreadable file.\n"
"       Nothing is printed on stdout then: there is no partial result.\n"
"\n"
"EXAMPLES\n"
"    ptrguard audit ~/linux                  # the whole tree\n"
"    ptrguard audit -j 4 ~/linux/kernel      # a subtree\n"
"    ptrguard audit --sarif ~/linux/fs > fs.sarif\n"
"    ptrguard audit --patch ~/linux/drivers/foo | (cd ~/linux && patch -p1)\n"
"    ptrguard audit --list-formats ~/linux | ptrguard fmt\n";

enum mode { MODE_REPORT, MODE_PATCH, MODE_FORMATS };

struct audit_opts {
	struct cocci_opts cocci;
	enum output_format format;
	enum mode mode;
	const char *tree;
	const char *rules;
	int formats_set;
	int no_prefilter;
};

static int usage_error(const char *fmt, const char *arg)
{
	fputs("ptrguard: audit: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(" (see 'ptrguard audit --help')\n", stderr);
	return EXIT_ERROR;
}

static int parse_jobs(const char *s, unsigned int *jobs)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 1 || n > 1024)
		return -1;
	*jobs = (unsigned int)n;
	return 0;
}

static int parse_timeout(const char *s, unsigned int *timeout)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 0 || n > 1000000)
		return -1;
	*timeout = (unsigned int)n;
	return 0;
}

static int set_mode(struct audit_opts *o, enum mode m, enum output_format f,
		    const char *opt)
{
	if (o->formats_set)
		return usage_error("%s: only one of --json, --sarif, --patch and --list-formats",
				   opt);
	o->formats_set = 1;
	o->mode = m;
	o->format = f;
	return 0;
}

/* Parse the options; the PATHs are left in argv[*first..argc). */
static int parse_options(int argc, char **argv, struct audit_opts *o, int *first)
{
	int i;
	long n;

	n = sysconf(_SC_NPROCESSORS_ONLN);
	o->cocci.jobs = n > 0 ? (unsigned int)n : 1;
	o->cocci.casts = -1;	/* decided by the mode below */
	o->cocci.timeout = 600;	/* seconds per spatch process: a hung one is an error */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = NULL;

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1])
			break;
		/* options with a value: "-j N", "-jN", "--jobs N", "--jobs=N" */
		if (!strcmp(a, "-j") || !strcmp(a, "--jobs") || !strcmp(a, "--tree") ||
		    !strcmp(a, "--rules") || !strcmp(a, "--timeout")) {
			if (i + 1 >= argc)
				return usage_error("%s: needs a value", a);
			val = argv[++i];
		} else if (!strncmp(a, "-j", 2) && a[1] == 'j' && a[2] != '-') {
			val = a + 2;
			a = "-j";
		} else if (!strncmp(a, "--jobs=", 7) || !strncmp(a, "--tree=", 7) ||
			   !strncmp(a, "--rules=", 8) || !strncmp(a, "--timeout=", 10)) {
			val = strchr(a, '=') + 1;
		}
		if (val) {
			if (!strncmp(a, "-j", 2) || !strncmp(a, "--jobs", 6)) {
				if (parse_jobs(val, &o->cocci.jobs) < 0)
					return usage_error("-j %s: not a number of jobs (1-1024)", val);
			} else if (!strncmp(a, "--timeout", 9)) {
				if (parse_timeout(val, &o->cocci.timeout) < 0)
					return usage_error("--timeout %s: not a number of seconds", val);
			} else if (!strncmp(a, "--tree", 6)) {
				o->tree = val;
			} else {
				o->rules = val;
			}
		} else if (!strcmp(a, "--casts")) {
			o->cocci.casts = 1;
		} else if (!strcmp(a, "--no-casts")) {
			o->cocci.casts = 0;
		} else if (!strcmp(a, "--no-prefilter")) {
			o->no_prefilter = 1;
		} else if (!strcmp(a, "--json")) {
			if (set_mode(o, MODE_REPORT, OUTPUT_JSON, a))
				return EXIT_ERROR;
		} else if (!strcmp(a, "--sarif")) {
			if (set_mode(o, MODE_REPORT, OUTPUT_SARIF, a))
				return EXIT_ERROR;
		} else if (!strcmp(a, "--patch")) {
			if (set_mode(o, MODE_PATCH, OUTPUT_GCC, a))
				return EXIT_ERROR;
		} else if (!strcmp(a, "--list-formats")) {
			if (set_mode(o, MODE_FORMATS, OUTPUT_GCC, a))
				return EXIT_ERROR;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			o->cocci.verbose = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(help, stdout);
			exit(EXIT_CLEAN);
		} else {
			return usage_error("%s: unknown option", a);
		}
	}
	*first = i;
	/* the cast rule finds no call the %px rule misses: not for formats */
	if (o->cocci.casts < 0)
		o->cocci.casts = o->mode != MODE_FORMATS;
	return 0;
}

/* Findings per class, in the order of the classes table of --help. */
static void summary(const struct cocci_result *res, enum mode mode)
{
	size_t *counts = xmalloc(vocab_nclasses * sizeof(*counts));
	size_t other = 0, i, k;

	memset(counts, 0, vocab_nclasses * sizeof(*counts));

	for (i = 0; i < res->nunparsed; i++) {
		unsigned int n;
		char *where = cocci_skip_text(res, res->unparsed[i], &n);

		fprintf(stderr, "ptrguard: audit: %s: spatch could not parse %u line%s%s%s%s\n",
			res->unparsed[i], res->unparsed_lines[i],
			res->unparsed_lines[i] == 1 ? "" : "s", where ? " (" : "",
			where ? where : "", where ? ")" : "");
		free(where);
	}
	for (i = 0; i < res->nunjudged; i++)
		fprintf(stderr, "ptrguard: audit: %s:%u: %s(): not judged (spatch skipped these lines; lexically: %s)\n",
			res->unjudged[i].file, res->unjudged[i].line, res->unjudged[i].callee,
			res->unjudged[i].why);
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
	fprintf(stderr, ", %zu calls, %zu findings (", res->ncalls, res->nfindings);
	for (k = 0; k < vocab_nclasses; k++)
		fprintf(stderr, "%s%s %zu", k ? ", " : "", vocab_classes[k].id, counts[k]);
	free(counts);
	if (other)
		fprintf(stderr, ", other %zu", other);
	for (i = 0, k = 0; i < res->nfindings; i++)
		k += res->findings[i].lexical != 0;
	fprintf(stderr, "), %zu files not fully parsed, %zu calls judged lexically (%zu findings), %zu not judged\n",
		res->nunparsed, res->nlexical, k, res->nunjudged);
}

int cmd_audit(int argc, char **argv)
{
	struct audit_opts o = { 0 };
	struct cocci_result res = { 0 };
	char *root = NULL, *rules = NULL, *patch = NULL;
	const char *dot = ".";
	size_t patch_len = 0, i;
	FILE *patch_out = NULL;
	int first, ret = EXIT_ERROR;

	if (parse_options(argc, argv, &o, &first))
		return EXIT_ERROR;

	if (o.tree) {
		if (access(o.tree, F_OK) < 0) {
			error("audit: --tree %s: %s", o.tree, strerror(errno));
			return EXIT_ERROR;
		}
		root = strdup(o.tree);
	} else {
		root = cocci_find_root(first < argc ? argv[first] : dot);
	}
	if (!root)
		return EXIT_ERROR;
	rules = o.rules ? strdup(o.rules) : cocci_rules_dir();
	if (!rules)
		goto out;

	o.cocci.root = root;
	o.cocci.rules_dir = rules;
	o.cocci.paths = (const char * const *)(argv + first);
	o.cocci.npaths = (size_t)(argc - first);
	o.cocci.progress = isatty(2);
	/* --list-formats lists every call: each file with one must be parsed */
	o.cocci.prefilter = o.mode != MODE_FORMATS && !o.no_prefilter;
	if (o.mode == MODE_PATCH) {
		patch_out = open_memstream(&patch, &patch_len);
		if (!patch_out)
			die("out of memory");
		o.cocci.patch_out = patch_out;
	}
	if (cocci_run(&o.cocci, &res) < 0)
		goto out;

	switch (o.mode) {
	case MODE_PATCH:
		fclose(patch_out);
		patch_out = NULL;
		if (fwrite(patch, 1, patch_len, stdout) != patch_len || fflush(stdout)) {
			error("audit: writing the patch: %s", strerror(errno));
			goto out;
		}
		summary(&res, o.mode);
		ret = patch_len ? EXIT_FINDINGS : EXIT_CLEAN;
		goto out;
	case MODE_FORMATS:
		for (i = 0; i < res.ncalls; i++) {
			/* one literal per line: a newline can only be between pieces */
			char *nl, *f = res.calls[i].format;

			while ((nl = strchr(f, '\n')))
				*nl = ' ';
			printf("%s\n", f);
		}
		if (fflush(stdout) || ferror(stdout)) {
			error("audit: writing the formats: %s", strerror(errno));
			goto out;
		}
		summary(&res, o.mode);
		ret = EXIT_CLEAN;
		goto out;
	case MODE_REPORT:
		break;
	}
	if (output_findings(stdout, o.format, "ptrguard", res.findings, res.nfindings) < 0)
		goto out;
	summary(&res, o.mode);
	ret = EXIT_CLEAN;
	for (i = 0; i < res.nfindings; i++)
		if (finding_is_leak(&res.findings[i]))
			ret = EXIT_FINDINGS;
out:
	if (patch_out)
		fclose(patch_out);
	free(patch);
	cocci_result_free(&res);
	free(root);
	free(rules);
	return ret;
}
