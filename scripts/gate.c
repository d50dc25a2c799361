// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard gate: report the seq_file pointer leaks that patches add.
 *
 * The patches are applied with git apply to shadow copies of the tree
 * (gate_tree.c), the rules run on the files they touch before and after
 * (gate_run.c), and the findings are matched by fingerprint (gate_diff.c).
 * The gate fails closed: anything it cannot check - a patch that does not
 * apply, a corrupt or binary-only patch, a touched file spatch cannot
 * parse, a spatch crash or timeout - is exit status 2 with one line that
 * names the input, never a silent pass.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate.h"
#include "ptrguard.h"

static const char usage[] =
	"usage: ptrguard gate --tree DIR [options] PATCH...\n"
	"       ptrguard gate --tree DIR [options] -            (patches on stdin)\n"
	"       ptrguard gate --tree DIR [options] --range A..B (commits of a git tree)\n"
	"\n"
	"Apply the patches to a scratch copy of DIR (DIR is never written), run the\n"
	"rules on the files they touch before and after, and report the seq_file\n"
	"pointer leaks they add.  PATCH: git format-patch output, an mbox of several\n"
	"patches, or a unified diff with a/ b/ prefixes.\n"
	"\n"
	"options:\n"
	"  --tree DIR         the kernel tree the patches apply to (required)\n"
	"  --range A..B       gate the commits A..B of the git repository DIR\n"
	"  --series           apply the patches one at a time; report each patch\n"
	"  --format=FMT       text (checkpatch-like, default), gcc, json or sarif\n"
	"  --json, --sarif    short for --format=json, --format=sarif\n"
	"  -j N               rule runs at once (default 2)\n"
	"  --timeout SEC      give up on a rule run after SEC seconds (default 600)\n"
	"  --rules DIR        the directory of .cocci rules (default: the installed ones)\n"
	"  -v                 show the spatch command lines\n"
	"\n"
	"Exit status: 0 no new leak (fixed ones are reported), 1 new leaks,\n"
	"2 anything that could not be checked (the message names the input).\n";

struct gate {
	const char *tree_arg;
	char *tree;			/* realpath of the tree */
	const char *range;
	char *base_rev;			/* --range: the base commit */
	int series;
	enum gate_format format;
	struct gate_run_opts run;
	char *rules;
	struct patch_series ps;
	char **touched;			/* every path any patch names, sorted, unique */
	size_t ntouched;
	char *tmp;			/* holds the shadows; removed at exit */
	struct shadow *states;		/* series: n + 1; otherwise 2 */
	size_t nstates;
};

static char *gate_tmp_global;

static void cleanup_tmp(void)
{
	if (gate_tmp_global) {
		gate_rmtree(gate_tmp_global);
		free(gate_tmp_global);
		gate_tmp_global = NULL;
	}
}

static int is_c_source(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h');
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_path(char ***v, size_t *n, const char *path)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], path))
			return;
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v || !((*v)[*n] = strdup(path)))
		die("out of memory");
	(*n)++;
}

static void free_paths(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int parse_args(struct gate *g, int argc, char **argv, char ***inputs, size_t *ninputs)
{
	int i;

	g->run.jobs = 2;
	g->run.timeout = 600;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			exit(EXIT_CLEAN);
		} else if (!strcmp(a, "--tree") && i + 1 < argc) {
			g->tree_arg = argv[++i];
		} else if (!strncmp(a, "--tree=", 7)) {
			g->tree_arg = a + 7;
		} else if (!strcmp(a, "--range") && i + 1 < argc) {
			g->range = argv[++i];
		} else if (!strncmp(a, "--range=", 8)) {
			g->range = a + 8;
		} else if (!strcmp(a, "--series")) {
			g->series = 1;
		} else if (!strcmp(a, "--json") || !strcmp(a, "--format=json")) {
			g->format = GATE_JSON;
		} else if (!strcmp(a, "--sarif") || !strcmp(a, "--format=sarif")) {
			g->format = GATE_SARIF;
		} else if (!strcmp(a, "--format=gcc")) {
			g->format = GATE_GCC;
		} else if (!strcmp(a, "--format=text")) {
			g->format = GATE_TEXT;
		} else if ((!strcmp(a, "-j") || !strcmp(a, "--timeout")) && i + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[i + 1], &end, 10);

			if (*end || !*argv[i + 1] || v > 100000 || (a[1] == 'j' && !v)) {
				error("gate: %s %s: not a valid number", a, argv[i + 1]);
				return -1;
			}
			if (a[1] == 'j')
				g->run.jobs = (unsigned int)v;
			else
				g->run.timeout = (unsigned int)v;
			i++;
		} else if (!strcmp(a, "--rules") && i + 1 < argc) {
			free(g->rules);
			g->rules = strdup(argv[++i]);
		} else if (!strcmp(a, "-v")) {
			g->run.verbose = 1;
		} else if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				(*inputs)[(*ninputs)++] = argv[i];
		} else if (a[0] == '-' && a[1]) {
			error("gate: %s: unknown option (see 'ptrguard gate --help')", a);
			return -1;
		} else {
			(*inputs)[(*ninputs)++] = argv[i];
		}
	}
	if (!g->tree_arg) {
		error("gate: --tree DIR is required (see 'ptrguard gate --help')");
		return -1;
	}
	if (!g->range && !*ninputs) {
		error("gate: no patch given (PATCH..., - for stdin, or --range A..B)");
		return -1;
	}
	if (g->range && *ninputs) {
		error("gate: --range and patch files cannot be mixed");
		return -1;
	}
	return 0;
}

static int check_tree(struct gate *g)
{
	struct stat st;

	if (stat(g->tree_arg, &st)) {
		error("gate: --tree %s: %s", g->tree_arg, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		error("gate: --tree %s: not a directory", g->tree_arg);
		return -1;
	}
	g->tree = realpath(g->tree_arg, NULL);
	if (!g->tree) {
		error("gate: --tree %s: %s", g->tree_arg, strerror(errno));
		return -1;
	}
	return 0;
}

static int read_patches(struct gate *g, char **inputs, size_t ninputs)
{
	size_t i, j;

	if (g->range) {
		char *buf;
		size_t len;
		int rc;

		if (gate_range_mbox(g->tree, g->tree_arg, g->range, &buf, &len, &g->base_rev))
			return -1;
		if (!len) {
			error("gate: --range %s: no commits in the range", g->range);
			free(buf);
			return -1;
		}
		rc = patch_read_buf(g->range, buf, len, &g->ps);
		free(buf);
		if (rc)
			return -1;
	} else {
		for (i = 0; i < ninputs; i++) {
			if (!strcmp(inputs[i], "-"))
				for (j = 0; j < i; j++)
					if (!strcmp(inputs[j], "-")) {
						error("gate: - (stdin) given twice");
						return -1;
					}
			if (patch_read_file(inputs[i], &g->ps))
				return -1;
		}
	}
	/* Every path, and no binary change to a source file. */
	for (i = 0; i < g->ps.npatches; i++) {
		const struct patch *p = &g->ps.patches[i];

		for (j = 0; j < p->nfiles; j++) {
			const struct patch_file *f = &p->files[j];
			const char *path = f->new_path ? f->new_path : f->old_path;
			char name[512];

			if (f->is_binary && is_c_source(path)) {
				error("gate: %s: binary change to %s: the rules cannot check it",
				      patch_name(p, name, sizeof(name)), path);
				return -1;
			}
			if (f->old_path)
				add_path(&g->touched, &g->ntouched, f->old_path);
			if (f->new_path)
				add_path(&g->touched, &g->ntouched, f->new_path);
		}
	}
	qsort(g->touched, g->ntouched, sizeof(*g->touched), cmp_strp);
	return 0;
}

/* State k: the base with the first @applied patches applied. */
static int make_state(struct gate *g, size_t k, size_t from, size_t applied)
{
	struct shadow *s = &g->states[k];
	char *dir;
	size_t i;
	int ret = 0;

	if (asprintf(&dir, "%s/s%zu", g->tmp, k) < 0)
		die("out of memory");
	ret = shadow_init(s, g->tree, dir);
	free(dir);
	for (i = 0; i < g->ntouched && !ret; i++) {
		if (k == 0)
			ret = shadow_own(s, g->touched[i], g->tree, g->base_rev);
		else
			ret = shadow_own(s, g->touched[i], g->states[from].dir, NULL);
	}
	for (i = k == 0 ? 0 : from == k - 1 && g->series ? applied - 1 : 0;
	     i < applied && !ret; i++)
		ret = shadow_apply(s, &g->ps.patches[i], g->tmp);
	return ret;
}

/* The C files of @p (old or new side) that exist in @s. */
static void patch_sources(const struct patch *p, const struct shadow *s, int new_side,
			  char ***v, size_t *n)
{
	size_t j;

	for (j = 0; j < p->nfiles; j++) {
		const char *path = new_side ? p->files[j].new_path : p->files[j].old_path;

		if (path && is_c_source(path) && shadow_has_file(s, path))
			add_path(v, n, path);
	}
}

static int check_unparsed(const struct gate_job *job)
{
	if (!job->res.nunparsed)
		return 0;
	error("gate: %s: spatch cannot parse %u line%s of it (%s): the gate cannot check it",
	      job->res.unparsed[0], job->res.unparsed_lines[0],
	      job->res.unparsed_lines[0] == 1 ? "" : "s", job->label);
	return -1;
}

/* The findings of @res in the files @paths: a shallow copy. */
static struct cocci_result *filter(const struct cocci_result *res, char **paths, size_t n)
{
	struct cocci_result *r = calloc(1, sizeof(*r));
	size_t i, j;

	if (!r || !(r->findings = calloc(res->nfindings + 1, sizeof(*r->findings))))
		die("out of memory");
	for (i = 0; i < res->nfindings; i++)
		for (j = 0; j < n; j++)
			if (!strcmp(res->findings[i].file, paths[j])) {
				r->findings[r->nfindings++] = res->findings[i];
				break;
			}
	return r;
}

static void renames_of(const struct patch *p, char ***v, size_t *n)
{
	size_t j;

	for (j = 0; j < p->nfiles; j++) {
		const struct patch_file *f = &p->files[j];

		if (!f->is_rename)
			continue;
		*v = realloc(*v, (*n + 1) * 2 * sizeof(**v));
		if (!*v)
			die("out of memory");
		(*v)[2 * *n] = f->old_path;
		(*v)[2 * *n + 1] = f->new_path;
		(*n)++;
	}
}

static int gate_main(struct gate *g, char **inputs, size_t ninputs)
{
	struct gate_job *jobs;
	struct gate_section *secs;
	struct cocci_result **filtered;
	const struct patch **pp;
	size_t n, i, k, nsecs, njobs, nchecked = 0, nnew = 0;
	char **checked = NULL, **renames = NULL;
	size_t nrenames = 0;
	int ret = -1;

	if (check_tree(g) || read_patches(g, inputs, ninputs))
		return -1;
	if (!g->rules && !(g->rules = cocci_rules_dir()))
		return -1;
	g->run.rules_dir = g->rules;
	n = g->ps.npatches;

	g->tmp = gate_tmpdir();
	if (!g->tmp)
		return -1;
	gate_tmp_global = strdup(g->tmp);
	atexit(cleanup_tmp);

	/* The states: the base, then after each patch (--series) or after all. */
	g->nstates = g->series ? n + 1 : 2;
	g->states = calloc(g->nstates, sizeof(*g->states));
	if (!g->states)
		die("out of memory");
	for (k = 0; k < g->nstates; k++) {
		size_t applied = g->series ? k : (k ? n : 0);

		if (make_state(g, k, k ? k - 1 : 0, applied))
			goto out;
	}

	/* One rule run per state, on the sources touched next to it. */
	jobs = calloc(g->nstates, sizeof(*jobs));
	if (!jobs)
		die("out of memory");
	for (k = 0; k < g->nstates; k++) {
		struct gate_job *j = &jobs[k];
		char *label;

		j->root = g->states[k].dir;
		for (i = 0; i < n; i++) {
			/* before patch i+1 is state i; after it, state i+1 */
			if (!g->series || i + 1 == k)
				patch_sources(&g->ps.patches[i], &g->states[k], 1, &j->files,
					      &j->nfiles);
			if (!g->series || i == k)
				patch_sources(&g->ps.patches[i], &g->states[k], 0, &j->files,
					      &j->nfiles);
		}
		if (k == 0)
			label = strdup("before the patches");
		else if (!g->series)
			label = strdup(n > 1 ? "after the patches" : "after the patch");
		else if (asprintf(&label, "after patch %zu", k) < 0)
			label = NULL;
		if (!label)
			die("out of memory");
		j->label = label;
		for (i = 0; i < j->nfiles; i++)
			add_path(&checked, &nchecked, j->files[i]);
	}
	/* Skip the empty jobs: no file means the whole tree to cocci_run(). */
	{
		struct gate_job **run = calloc(g->nstates, sizeof(*run));
		struct gate_job *packed = calloc(g->nstates, sizeof(*packed));
		size_t m = 0;

		if (!run || !packed)
			die("out of memory");
		for (k = 0; k < g->nstates; k++)
			if (jobs[k].nfiles)
				packed[m] = jobs[k], run[m++] = &jobs[k];
		njobs = m;
		ret = gate_run_jobs(&g->run, packed, m);
		for (k = 0; k < m; k++)
			*run[k] = packed[k];
		free(run);
		free(packed);
		if (ret)
			goto free_jobs;
		ret = -1;
		for (k = 0; k < g->nstates; k++)
			if (check_unparsed(&jobs[k]))
				goto free_jobs;
	}
	(void)njobs;

	/* Compare. */
	nsecs = g->series ? n : 1;
	secs = calloc(nsecs, sizeof(*secs));
	filtered = calloc(2 * nsecs, sizeof(*filtered));
	pp = calloc(n, sizeof(*pp));
	if (!secs || !filtered || !pp)
		die("out of memory");
	for (i = 0; i < n; i++)
		pp[i] = &g->ps.patches[i];
	for (k = 0; k < nsecs; k++) {
		size_t b = g->series ? k : 0, a = g->series ? k + 1 : 1, first = g->series ? k : 0;
		size_t count = g->series ? 1 : n;
		char **bf = NULL, **af = NULL;
		size_t nbf = 0, naf = 0;

		for (i = first; i < first + count; i++) {
			patch_sources(pp[i], &g->states[b], 0, &bf, &nbf);
			patch_sources(pp[i], &g->states[a], 1, &af, &naf);
			renames_of(pp[i], &renames, &nrenames);
		}
		filtered[2 * k] = filter(&jobs[b].res, bf, nbf);
		filtered[2 * k + 1] = filter(&jobs[a].res, af, naf);
		secs[k].patch = g->series ? pp[k] : NULL;
		for (i = 0; i < naf; i++)
			add_path(&bf, &nbf, af[i]);
		secs[k].nchecked = nbf;
		gate_diff(filtered[2 * k], filtered[2 * k + 1], renames, nrenames, pp + first,
			  count, g->states[b].dir, g->states[a].dir, &secs[k].diff);
		nnew += secs[k].diff.nnew;
		free(renames);
		renames = NULL;
		nrenames = 0;
		free_paths(bf, nbf);
		free_paths(af, naf);
	}
	gate_output(g->format, secs, nsecs, g->series, n, nchecked);
	ret = nnew ? EXIT_FINDINGS : EXIT_CLEAN;

	for (k = 0; k < nsecs; k++) {
		gate_diff_free(&secs[k].diff);
		free(filtered[2 * k]->findings);
		free(filtered[2 * k]);
		free(filtered[2 * k + 1]->findings);
		free(filtered[2 * k + 1]);
	}
	free(secs);
	free(filtered);
	free(pp);
free_jobs:
	for (k = 0; k < g->nstates; k++) {
		cocci_result_free(&jobs[k].res);
		free_paths(jobs[k].files, jobs[k].nfiles);
		free((char *)jobs[k].label);
	}
	free(jobs);
	free_paths(checked, nchecked);
out:
	return ret;
}

int cmd_gate(int argc, char **argv)
{
	struct gate g = { 0 };
	char **inputs = calloc((size_t)argc + 1, sizeof(*inputs));
	size_t ninputs = 0, k;
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
	for (k = 0; k < g.nstates; k++)
		free(g.states[k].dir);
	free(g.states);
	patch_series_free(&g.ps);
	free_paths(g.touched, g.ntouched);
	free(g.tree);
	free(g.base_rev);
	free(g.rules);
	free(g.tmp);
	free(inputs);
	cleanup_tmp();
	return ret;
}
