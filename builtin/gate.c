// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard gate: report the seq_file pointer leaks that patches add.
 *
 * The command: its options, help and exit status.  The steps are in
 * gate/ (gate/gate.h).  The gate fails closed: anything it cannot check -
 * a patch that does not apply, a corrupt or binary-only patch, a touched
 * file spatch cannot parse, a spatch crash or timeout - is exit status 2
 * with one line that names the input, never a silent pass.
 */
#include <stdlib.h>
#include <unistd.h>

#include "gate/gate.h"
#include "lib/parse-options.h"
#include "lib/ptrguard.h"

static const struct cmd_help help = {
	.name = "gate",
	.summary = "report the leaks a patch adds to a kernel tree",
	.args = "PATCH... | -",
	.description =
"    Apply the patches to a scratch copy of DIR (DIR is never written), run\n"
"    the rules on the files they touch before and after, and report the\n"
"    seq_file pointer leaks they add.  PATCH: git format-patch output, an\n"
"    mbox of several patches, or a unified diff with a/ b/ prefixes; - reads\n"
"    them from stdin, and --range A..B takes the commits A..B instead.  A\n"
"    cover letter (no diff, subject [PATCH 0/N]) is skipped (-v says so).\n"
"\n"
"    DIR is a kernel tree, or the repository of an out-of-tree module: then\n"
"    the kernel it is built against gives the include path and the version\n"
"    (--kernel KDIR, else /lib/modules/$(uname -r)/build when present;\n"
"    without one, the newest kernel's semantics, and a line on stderr says\n"
"    so).  A progress line is shown on stderr when it is a terminal.\n",
	.trailer =
"EXIT STATUS\n"
"    0  no new leak (fixed ones are reported);\n"
"    1  new leaks;\n"
"    2  anything that could not be checked (the message names the input),\n"
"       a usage error, or a write error on stdout.\n"
"\n"
"EXAMPLES\n"
"    ptrguard gate --tree ~/linux 0001-foo.patch\n"
"    git format-patch -3 --stdout | ptrguard gate --tree . --base HEAD~3 -\n"
"    ptrguard gate --tree ~/src/my-driver --kernel ~/linux --range origin..HEAD\n",
};

static int parse_args(struct gate *g, int argc, char **argv, char ***inputs, size_t *ninputs)
{
	const char *rules = NULL;
	int n, quiet = 0;
	const struct option opts[] = {
		OPT_STRING_F(0, "tree", &g->tree_arg, "DIR",
			     "The tree the patches apply to: a kernel tree, or the repository\n"
			     "of an out-of-tree module.", PARSE_OPT_REQUIRED),
		OPT__KERNEL(&g->kernel_arg, "DIR is an out-of-tree module built against the kernel source\n"
			    "or build tree KDIR (default, when DIR is not a kernel tree:\n"
			    "/lib/modules/$(uname -r)/build when present)."),
		OPT_STRING_F(0, "range", &g->range, "A..B",
			     "Gate the commits A..B of the git repository DIR (no PATCH).",
			     PARSE_OPT_ARGS),
		OPT_STRING(0, "base", &g->base_arg, "REV",
			   "Take the touched files from commit REV of the git repository\n"
			   "DIR, not from its work tree (pre-commit)."),
		OPT_BOOL(0, "series", &g->series, "Apply the patches one at a time; report each patch."),
		OPT__FORMAT(&g->format, FORMATS_REPORT | FORMATS(FORMAT_CHECKPATCH),
			    "checkpatch (the default): checkpatch.pl's ERROR:/FIXED: lines,\n"
			    "#LINE of the patch input, FILE:LINE, the line itself, and a total;\n"
			    "text: audit's FILE:LINE:COLUMN: SEVERITY: CLASS: CONVERSION: lines,\n"
			    "then \"new leak: MESSAGE\" (error), or \"fixed: MESSAGE\" (note);\n"
			    "json: an object with the findings and the counts; sarif: SARIF\n"
			    "2.1.0, the new leaks."),
		OPT__JOBS(&g->run.jobs, "Rule runs at once (default 2).", 100000),
		OPT__TIMEOUT(&g->run.timeout, "Give up on a rule run after SECONDS (default 600; 0: never).",
			     100000),
		OPT_STRING(0, "rules", &rules, "DIR",
			   "The directory of .cocci rules (default: the installed ones)."),
		OPT_BOOL(0, "no-prefilter", &g->no_prefilter,
			 "Run both rules on every touched file with seq output, before\n"
			 "and after, even where its text proves they can find nothing new.\n"
			 "The same report, slower; for checking the prefilter and that proof."),
		OPT__VERBOSE(&g->run.verbose, "Show the spatch command lines and the cache's decisions."),
		OPT__QUIET(&quiet, "No progress line and no notes on stderr."),
		OPT_END(),
	};

	g->run.jobs = 2;
	g->run.timeout = 600;
	n = parse_options(argc, argv, opts, &help);
	if (n < 0)
		return -1;
	g->no_notes = quiet;
	g->run.progress = !quiet && isatty(2);
	g->rules = rules ? xstrdup(rules) : NULL;
	if (g->format == FORMAT_DEFAULT)
		g->format = FORMAT_CHECKPATCH;
	for (*ninputs = 0; *ninputs < (size_t)n; (*ninputs)++)
		(*inputs)[*ninputs] = argv[*ninputs];
	if (!g->range && !*ninputs) {
		error("gate: no patch given (PATCH..., - for stdin, or --range A..B)");
		return -1;
	}
	if (g->range && *ninputs) {
		error("gate: --range and patch files cannot be mixed");
		return -1;
	}
	if (g->range && g->base_arg) {
		error("gate: --range A..B already names its base: no --base");
		return -1;
	}
	return 0;
}

int cmd_gate(int argc, char **argv)
{
	struct gate g = { 0 };
	char **inputs = calloc((size_t)argc + 1, sizeof(*inputs));
	size_t ninputs = 0;
	int ret;

	if (!inputs)
		die("out of memory");
	if (parse_args(&g, argc, argv, &inputs, &ninputs)) {
		free(inputs);
		free(g.rules);
		return EXIT_ERROR;
	}
	ret = gate_main(&g, inputs, ninputs);
	if (ret < 0)
		ret = EXIT_ERROR;
	gate_free(&g);
	free(inputs);
	return ret;
}
