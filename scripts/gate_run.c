// SPDX-License-Identifier: GPL-2.0
/*
 * gate_run: run the rules on the touched files of each shadow tree.
 *
 * Each job runs cocci_run() in a child process of its own process group,
 * which sends the records back through a pipe.  The parent can so run the
 * "before" and "after" jobs side by side, kill a job (spatch included)
 * that outlives its deadline, and tell a crash from a clean result: a job
 * counts only when its child exits 0 after writing a complete answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gate.h"
#include "ptrguard.h"

/* ---- the wire format: one record per line, fields escaped as in the rules ---- */

static void put_field(FILE *f, const char *s)
{
	fputc('\t', f);
	for (; s && *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\t')
			fputs("\\t", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

void gate_result_write(FILE *f, const struct cocci_result *res)
{
	size_t i;

	for (i = 0; i < res->nfindings; i++) {
		const struct finding *x = &res->findings[i];

		fprintf(f, "F\t%u\t%u", x->line, x->column);
		put_field(f, x->file);
		put_field(f, x->cls);
		put_field(f, x->conversion);
		put_field(f, x->function);
		put_field(f, x->format);
		put_field(f, x->arg);
		put_field(f, x->message);
		put_field(f, x->lexical ? "1" : "0");
		fputc('\n', f);
	}
	for (i = 0; i < res->nskips; i++) {
		fprintf(f, "S\t%u\t%u", res->skips[i].first, res->skips[i].last);
		put_field(f, res->skips[i].file);
		fputc('\n', f);
	}
	for (i = 0; i < res->nunjudged; i++) {
		const struct cocci_unjudged *u = &res->unjudged[i];

		fprintf(f, "J\t%u\t%u", u->line, u->end_line);
		put_field(f, u->file);
		put_field(f, u->callee);
		put_field(f, u->why);
		fputc('\n', f);
	}
	for (i = 0; i < res->nunparsed; i++) {
		fprintf(f, "U\t%u\t0", res->unparsed_lines ? res->unparsed_lines[i] : 1);
		put_field(f, res->unparsed[i]);
		fputc('\n', f);
	}
	fprintf(f, "N\t%zu\t%zu\t%zu\nE\n", res->nfiles, res->nscanned, res->nlexical);
}

/* Split @line in place at tabs, unescaping; returns the number of fields. */
static size_t split_fields(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *r = line, *w = line;

	fields[n++] = w;
	for (; *r; r++) {
		if (*r == '\t') {
			*w++ = '\0';
			if (n == max)
				return n + 1;
			fields[n++] = w;
		} else if (*r == '\\' && r[1]) {
			r++;
			*w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	return n;
}

int gate_result_read(char *buf, struct cocci_result *res)
{
	char *line, *save = NULL, *fields[12];
	int done = 0;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = split_fields(line, fields, 12);

		if (!strcmp(fields[0], "E") && n == 1) {
			done = 1;
		} else if (!strcmp(fields[0], "F") && n == 11) {
			struct finding *f;

			res->findings = realloc(res->findings,
						(res->nfindings + 1) * sizeof(*res->findings));
			if (!res->findings)
				die("out of memory");
			f = &res->findings[res->nfindings++];
			f->line = (unsigned int)strtoul(fields[1], NULL, 10);
			f->column = (unsigned int)strtoul(fields[2], NULL, 10);
			f->file = xstrdup(fields[3]);
			f->cls = xstrdup(fields[4]);
			f->conversion = xstrdup(fields[5]);
			f->function = xstrdup(fields[6]);
			f->format = xstrdup(fields[7]);
			f->arg = xstrdup(fields[8]);
			f->message = xstrdup(fields[9]);
			f->lexical = !strcmp(fields[10], "1");
		} else if (!strcmp(fields[0], "U") && n == 4) {
			res->unparsed = realloc(res->unparsed,
						(res->nunparsed + 1) * sizeof(*res->unparsed));
			if (!res->unparsed)
				die("out of memory");
			res->unparsed_lines = realloc(res->unparsed_lines,
						      (res->nunparsed + 1) *
						      sizeof(*res->unparsed_lines));
			if (!res->unparsed_lines)
				die("out of memory");
			res->unparsed_lines[res->nunparsed] =
				(unsigned int)strtoul(fields[1], NULL, 10);
			res->unparsed[res->nunparsed++] = xstrdup(fields[3]);
		} else if (!strcmp(fields[0], "S") && n == 4) {
			struct cocci_skip *k;

			res->skips = xrealloc(res->skips, (res->nskips + 1) * sizeof(*res->skips));
			k = &res->skips[res->nskips++];
			k->first = (unsigned int)strtoul(fields[1], NULL, 10);
			k->last = (unsigned int)strtoul(fields[2], NULL, 10);
			k->file = xstrdup(fields[3]);
		} else if (!strcmp(fields[0], "J") && n == 6) {
			struct cocci_unjudged *u;

			res->unjudged = xrealloc(res->unjudged,
						 (res->nunjudged + 1) * sizeof(*res->unjudged));
			u = &res->unjudged[res->nunjudged++];
			u->line = (unsigned int)strtoul(fields[1], NULL, 10);
			u->end_line = (unsigned int)strtoul(fields[2], NULL, 10);
			u->file = xstrdup(fields[3]);
			u->callee = xstrdup(fields[4]);
			u->why = xstrdup(fields[5]);
		} else if (!strcmp(fields[0], "N") && n == 4) {
			res->nfiles = strtoul(fields[1], NULL, 10);
			res->nscanned = strtoul(fields[2], NULL, 10);
			res->nlexical = strtoul(fields[3], NULL, 10);
		} else {
			return -1;
		}
	}
	return done ? 0 : -1;
}

/* ---- the children ---- */

struct child {
	struct gate_job *job;
	pid_t pid;
	int fd;
	char *buf;
	size_t len, alloc;
	time_t deadline;
	int timed_out;
	int killed;	/* stopped because another job failed */
	FILE *err;	/* the child's stderr, passed on unless another job failed */
};

static void child_main(const struct gate_run_opts *opts, struct gate_job *job, int fd)
{
	struct cocci_opts co = { 0 };
	const char **paths = calloc(job->nfiles + 1, sizeof(*paths));
	char **abs = calloc(job->nfiles + 1, sizeof(*abs));
	struct cocci_result res = { 0 };
	FILE *out;
	size_t i;
	int rc;

	setpgid(0, 0);
	if (!paths || !abs)
		_exit(EXIT_ERROR);
	for (i = 0; i < job->nfiles; i++) {
		if (asprintf(&abs[i], "%s/%s", job->root, job->files[i]) < 0)
			_exit(EXIT_ERROR);
		paths[i] = abs[i];
	}
	co.root = job->root;
	co.paths = paths;
	co.npaths = job->nfiles;
	co.rules_dir = job->casts ? opts->cast_rules_dir : opts->rules_dir;
	co.spatch = opts->spatch;
	co.python = opts->python;
	co.no_query = 1;	/* the gate chose the files: see gate.c */
	co.jobs = 1;
	co.casts = 0;	/* one rule per run: see make_cast_rules() in gate.c */
	co.no_lexical = job->casts;	/* the seq_px.cocci run of the file has it */
	co.verbose = opts->verbose;
	rc = cocci_run(&co, &res);
	if (rc) {
		cocci_result_free(&res);
		_exit(EXIT_ERROR);
	}
	out = fdopen(fd, "w");
	if (!out)
		_exit(EXIT_ERROR);
	gate_result_write(out, &res);
	rc = fclose(out) ? EXIT_ERROR : 0;
	cocci_result_free(&res);
	for (i = 0; i < job->nfiles; i++)
		free(abs[i]);
	free(abs);
	free(paths);
	_exit(rc);
}

static int start_child(const struct gate_run_opts *opts, struct child *c)
{
	int p[2];

	if (pipe(p)) {
		c->job->why = xasprintf("ptrguard: gate: pipe: %s\n", strerror(errno));
		return -1;
	}
	c->err = tmpfile();
	if (!c->err) {
		c->job->why = xasprintf("ptrguard: gate: temporary file: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		c->job->why = xasprintf("ptrguard: gate: fork: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!c->pid) {
		close(p[0]);
		dup2(fileno(c->err), 2);
		child_main(opts, c->job, p[1]);
	}
	/* Also here, so the kill below cannot race the child's own setpgid(). */
	setpgid(c->pid, c->pid);
	close(p[1]);
	c->fd = p[0];
	fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
	c->deadline = opts->timeout ? time(NULL) + opts->timeout : 0;
	return 0;
}

/* The whole of a child's stderr. */
static char *read_err(FILE *f)
{
	char *s = NULL;
	size_t n = 0, cap = 0;
	int ch;

	rewind(f);
	while ((ch = fgetc(f)) != EOF) {
		if (n + 2 > cap) {
			cap = cap ? 2 * cap : 512;
			s = realloc(s, cap);
			if (!s)
				die("out of memory");
		}
		s[n++] = (char)ch;
	}
	if (s)
		s[n] = '\0';
	return s;
}

/*
 * Reap @c and turn its answer into c->job->res.  On failure, returns -1
 * and leaves the reason in c->job->why (reported later, once, for the
 * first job that failed on its own rather than being stopped).
 */
static int finish_child(const struct gate_run_opts *opts, struct child *c)
{
	int status, ret = 0;
	char *said = NULL;

	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	while (waitpid(c->pid, &status, 0) < 0)
		if (errno != EINTR) {
			c->job->why = xasprintf("ptrguard: gate: waitpid: %s\n", strerror(errno));
			return -1;
		}
	/* Whatever spatch processes are left in the group go too. */
	kill(-c->pid, SIGKILL);
	if (c->err) {
		said = read_err(c->err);
		fclose(c->err);
		c->err = NULL;
	}
	if (c->killed) {
		ret = -1;
	} else if (c->timed_out) {
		c->job->why = xasprintf("ptrguard: gate: spatch timed out after %u s (%s)\n",
					opts->timeout, c->job->label);
		ret = -1;
	} else if (WIFSIGNALED(status)) {
		c->job->why = xasprintf("ptrguard: gate: the rule run crashed (%s): signal %d\n",
					c->job->label, WTERMSIG(status));
		ret = -1;
	} else if (WEXITSTATUS(status)) {
		/* cocci_run() said why on the child's stderr. */
		c->job->why = said && *said ? said :
			xasprintf("ptrguard: gate: the rule run failed (%s)\n", c->job->label);
		if (c->job->why == said)
			said = NULL;
		ret = -1;
	} else {
		c->buf = realloc(c->buf, c->len + 1);
		if (!c->buf)
			die("out of memory");
		c->buf[c->len] = '\0';
		if (gate_result_read(c->buf, &c->job->res)) {
			c->job->why = xasprintf("ptrguard: gate: the rule run (%s) gave an incomplete answer\n",
						c->job->label);
			ret = -1;
		} else if (said && opts->verbose) {
			fputs(said, stderr);
		}
	}
	free(said);
	free(c->buf);
	c->buf = NULL;
	return ret;
}

int gate_run_jobs(const struct gate_run_opts *opts, struct gate_job *jobs, size_t njobs)
{
	unsigned int max = opts->jobs ? opts->jobs : 1;
	struct child *kids = calloc(max, sizeof(*kids));
	size_t next = 0, running = 0, i;
	int ret = 0;

	if (!kids)
		die("out of memory");
	for (;;) {
		struct pollfd pfd[64];
		int n = 0, timeout = -1;
		time_t now;

		/* Start what we can. */
		while (!ret && next < njobs && running < max) {
			for (i = 0; i < max && kids[i].job; i++)
				;
			kids[i].job = &jobs[next++];
			if (start_child(opts, &kids[i])) {
				kids[i].job = NULL;
				ret = -1;
				break;
			}
			running++;
		}
		if (!running)
			break;
		now = time(NULL);
		for (i = 0; i < max && n < 64; i++) {
			if (!kids[i].job)
				continue;
			pfd[n].fd = kids[i].fd;
			pfd[n].events = POLLIN;
			n++;
			if (kids[i].deadline) {
				int left = kids[i].deadline > now ?
					   (int)(kids[i].deadline - now) * 1000 : 0;

				if (timeout < 0 || left < timeout)
					timeout = left;
			}
		}
		if (poll(pfd, (nfds_t)n, timeout) < 0 && errno != EINTR) {
			error("gate: poll: %s", strerror(errno));
			ret = -1;
		}
		now = time(NULL);
		for (i = 0; i < max; i++) {
			struct child *c = &kids[i];
			ssize_t got;

			if (!c->job)
				continue;
			if (c->alloc - c->len < 4096) {
				c->alloc = c->alloc ? 2 * c->alloc : 65536;
				c->buf = realloc(c->buf, c->alloc);
				if (!c->buf)
					die("out of memory");
			}
			got = read(c->fd, c->buf + c->len, c->alloc - c->len);
			if (got > 0) {
				c->len += (size_t)got;
				continue;
			}
			if (got < 0 && errno == EAGAIN)
				continue;
			if (got < 0 && errno == EINTR)
				continue;
			if (got == 0 || got < 0) {
				if (finish_child(opts, c))
					ret = -1;
				c->job = NULL;
				c->len = c->alloc = 0;
				running--;
			}
		}
		for (i = 0; i < max; i++) {
			struct child *c = &kids[i];

			if (!c->job)
				continue;
			if (c->deadline && now >= c->deadline && !c->timed_out) {
				c->timed_out = 1;
				kill(-c->pid, SIGKILL);
			} else if (ret && !c->timed_out && !c->killed) {
				/* One job failed: the answer is an error anyway. */
				c->killed = 1;
				kill(-c->pid, SIGKILL);
			}
		}
	}
	free(kids);
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
		free(jobs[i].why);
		jobs[i].why = NULL;
	}
	return ret;
}
