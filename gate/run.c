// SPDX-License-Identifier: GPL-2.0
/*
 * gate_run: run the rules on the touched files of each shadow tree.
 *
 * Each job is a task of the runner's pool (runner.h): a child process, in
 * a process group of its own, that runs cocci_run() and writes the result
 * as records (cocci_records_write()) to its standard output, a temporary
 * file.  The pool runs the "before" and "after" jobs side by side, kills
 * a job (spatch included) that outlives its deadline, and tells a crash
 * from a clean result: a job counts only when its child exits 0 after
 * writing a complete answer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gate/gate.h"
#include "lib/ptrguard.h"
#include "lib/runner.h"

struct gate_pool {
	const struct gate_run_opts *opts;
	struct gate_job *jobs;
	FILE **out, **err;	/* each job's stdout and stderr, while it runs */
	size_t njobs, ndone;	/* for the progress line */
};

struct child_arg {
	const struct gate_run_opts *opts;
	struct gate_job *job;
};

/* The child: the rules on the job's files, the answer on stdout. */
static int child_main(void *data)
{
	const struct child_arg *a = data;
	const struct gate_run_opts *opts = a->opts;
	const struct gate_job *job = a->job;
	struct cocci_opts co = { 0 };
	const char **paths = calloc(job->nfiles + 1, sizeof(*paths));
	char **abs = calloc(job->nfiles + 1, sizeof(*abs));
	struct cocci_result res = { 0 };
	size_t i;
	int rc;

	if (!paths || !abs)
		return EXIT_ERROR;
	for (i = 0; i < job->nfiles; i++) {
		if (asprintf(&abs[i], "%s/%s", job->root, job->files[i]) < 0)
			return EXIT_ERROR;
		paths[i] = abs[i];
	}
	co.root = job->root;
	co.paths = paths;
	co.npaths = job->nfiles;
	co.rules_dir = opts->rules_dir;
	/* one rule per run: see gate_main() */
	co.rules = job->casts ? COCCI_RULE_CAST : COCCI_RULE_PX;
	co.spatch = opts->spatch;
	co.python = opts->python;
	co.no_query = 1;	/* the gate chose the files: see gate.c */
	co.jobs = 1;
	co.timeout = 0;		/* the job's own deadline covers it */
	co.no_lexical = job->casts;	/* the seq_px.cocci run of the file has it */
	co.verbose = opts->verbose;
	rc = cocci_run(&co, &res);
	if (!rc) {
		cocci_records_write(stdout, &res);
		rc = fflush(stdout) || ferror(stdout) ? EXIT_ERROR : 0;
	} else {
		rc = EXIT_ERROR;
	}
	cocci_result_free(&res);
	for (i = 0; i < job->nfiles; i++)
		free(abs[i]);
	free(abs);
	free(paths);
	return rc;
}

static int job_start(void *ctx, size_t i, struct run_cmd *cmd)
{
	struct gate_pool *p = ctx;
	struct child_arg *a = xmalloc(sizeof(*a));

	p->out[i] = tmpfile();
	p->err[i] = tmpfile();
	if (!p->out[i] || !p->err[i]) {
		p->jobs[i].why = xasprintf("ptrguard: gate: temporary file: %s\n", strerror(errno));
		free(a);
		return -1;
	}
	/* freed with the job: the child has its copy */
	a->opts = p->opts;
	a->job = &p->jobs[i];
	p->jobs[i].arg = a;
	cmd->fn = child_main;
	cmd->data = a;
	cmd->fd[0] = -1;
	cmd->fd[1] = fileno(p->out[i]);
	cmd->fd[2] = fileno(p->err[i]);
	cmd->group = 1;
	return 0;
}

/* The whole of a temporary file. */
static char *slurp(FILE *f)
{
	char *s = NULL;
	size_t n = 0, cap = 0;
	int ch;

	rewind(f);
	while ((ch = fgetc(f)) != EOF) {
		if (n + 2 > cap) {
			cap = cap ? 2 * cap : 512;
			s = xrealloc(s, cap);
		}
		s[n++] = (char)ch;
	}
	if (s)
		s[n] = '\0';
	return s;
}

/*
 * A job ended: turn its answer into job->res.  On failure, returns -1
 * and leaves the reason in job->why (reported later, once, for the first
 * job that failed on its own rather than being stopped).
 */
static int job_done(void *ctx, size_t i, int status, int timed_out)
{
	struct gate_pool *p = ctx;
	struct gate_job *job = &p->jobs[i];
	char *said = slurp(p->err[i]), *answer = NULL;
	int ret = -1;

	if (timed_out) {
		job->why = xasprintf("ptrguard: gate: spatch timed out after %u s (%s)\n",
				     p->opts->timeout, job->label);
	} else if (WIFSIGNALED(status)) {
		job->why = xasprintf("ptrguard: gate: the rule run crashed (%s): signal %d\n",
				     job->label, WTERMSIG(status));
	} else if (WEXITSTATUS(status)) {
		/* cocci_run() said why on the child's stderr. */
		job->why = said && *said ? said :
			xasprintf("ptrguard: gate: the rule run failed (%s)\n", job->label);
		if (job->why == said)
			said = NULL;
	} else {
		answer = slurp(p->out[i]);
		if (!answer || cocci_records_read(answer, &job->res))
			job->why = xasprintf("ptrguard: gate: the rule run (%s) gave an incomplete answer\n",
					     job->label);
		else
			ret = 0;
		if (!ret && said && p->opts->verbose)
			fputs(said, stderr);
	}
	free(answer);
	free(said);
	if (p->opts->progress) {
		p->ndone++;
		fprintf(stderr, "\rptrguard: gate: spatch: %zu/%zu rule runs done%s", p->ndone,
			p->njobs, p->ndone == p->njobs ? "\n" : "");
		fflush(stderr);
	}
	return ret;
}

int gate_run_jobs(const struct gate_run_opts *opts, struct gate_job *jobs, size_t njobs)
{
	struct gate_pool p = { opts, jobs, xmalloc((njobs + 1) * sizeof(FILE *)),
			       xmalloc((njobs + 1) * sizeof(FILE *)), njobs, 0 };
	struct run_pool pool = { opts->jobs, opts->timeout, &p, job_start, job_done, NULL };
	size_t i;
	int ret;

	memset(p.out, 0, (njobs + 1) * sizeof(FILE *));
	memset(p.err, 0, (njobs + 1) * sizeof(FILE *));
	if (opts->progress && njobs) {
		fprintf(stderr, "ptrguard: gate: spatch: 0/%zu rule runs done", njobs);
		fflush(stderr);
	}
	ret = run_pool(&pool, njobs);
	if (opts->progress && njobs && p.ndone < njobs)
		fputc('\n', stderr);	/* stopped early: the error on a line of its own */
	if (ret) {
		/* One error, from the first job that failed by itself. */
		for (i = 0; i < njobs; i++)
			if (jobs[i].why) {
				fputs(jobs[i].why, stderr);
				break;
			}
		if (i == njobs)
			error("gate: the rule runs failed");
	}
	for (i = 0; i < njobs; i++) {
		if (p.out[i])
			fclose(p.out[i]);
		if (p.err[i])
			fclose(p.err[i]);
		free(jobs[i].why);
		jobs[i].why = NULL;
		free(jobs[i].arg);
		jobs[i].arg = NULL;
	}
	free(p.out);
	free(p.err);
	return ret;
}
