// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_spatch: run the rules on the candidate files.  Each rule's files
 * are split in groups, and the groups run as the tasks of the runner's
 * pool (runner.h): opts->jobs spatch processes at once, each writing to
 * its own temporary files and killed after opts->timeout seconds.  A
 * group's records are read as soon as it ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cocci/cocci_impl.h"
#include "lib/runner.h"

/* ----------------------------------------------------------- scheduling */

struct group {
	size_t rule;
	struct strvec files;
	size_t size;		/* bytes, for balancing */
	char *list;		/* --file-groups file */
	char *bufcalls;		/* cocci_buf_calls()'s records for the files */
	char *cwd;		/* the rule's mirror of the tree (slices), or NULL */
	struct strvec argv;	/* the spatch command line */
	char *out, *err;	/* spatch's stdout and stderr, while they are kept */
	/* progress: how much of err was read, and the "HANDLING: " lines in it */
	off_t seen;
	size_t handled;
	char last;		/* the last byte read */
	int ready;		/* group_prepare(): 1 done, -1 failed (0: not yet) */
};

static int group_size_cmp(const void *pa, const void *pb)
{
	const struct group *a = pa, *b = pb;

	return a->size < b->size ? 1 : a->size > b->size ? -1 : 0;
}

static int cand_size_cmp(const void *pa, const void *pb)
{
	const struct cand *a = *(const struct cand * const *)pa;
	const struct cand *b = *(const struct cand * const *)pb;

	if (a->size != b->size)
		return a->size < b->size ? 1 : -1;
	return strcmp(a->file, b->file);
}

static int cand_path_cmp(const void *pa, const void *pb)
{
	const struct cand *a = *(const struct cand * const *)pa;
	const struct cand *b = *(const struct cand * const *)pb;

	return strcmp(a->file, b->file);
}

/*
 * Split the @n candidates @sorted of rule @r into groups @g[0..@per) of
 * about equal size.  A rule that reads no header: largest file first into
 * the smallest group.  A rule that reads headers for types: in path
 * order, cut where the sizes add up to each share.  spatch parses each
 * header once per process, and files of one directory include the same
 * ones: on 6.12 the cast rule's six groups made by size parsed 19.8 MB
 * of headers, six made by path 17.1 MB, two 11.9 MB (one, 9.8 MB).
 */
static void fill_groups(const struct rule *r, struct cand **sorted, size_t n,
			struct group *g, size_t per)
{
	size_t i, k, best, total = 0, acc = 0;

	if (!rule_reads_headers(r)) {
		qsort(sorted, n, sizeof(*sorted), cand_size_cmp);
		for (i = 0; i < n; i++) {
			best = 0;
			for (k = 1; k < per; k++)
				if (g[k].size < g[best].size)
					best = k;
			strvec_push(&g[best].files, xstrdup(sorted[i]->file));
			g[best].size += sorted[i]->size + 4096;
		}
		return;
	}
	qsort(sorted, n, sizeof(*sorted), cand_path_cmp);
	for (i = 0; i < n; i++)
		total += sorted[i]->size + 4096;
	for (i = 0; i < n; i++) {
		/* the share the middle of the file falls in */
		sorted[i]->group = (acc + (sorted[i]->size + 4096) / 2) * per / total;
		if (sorted[i]->group >= per)
			sorted[i]->group = per - 1;
		acc += sorted[i]->size + 4096;
	}
	/*
	 * In each group, the largest file first, as for the other rules:
	 * the order changes what spatch parses (a file after one the rule
	 * ran on can lose a typedef of a header both include).
	 */
	qsort(sorted, n, sizeof(*sorted), cand_size_cmp);
	for (i = 0; i < n; i++) {
		k = sorted[i]->group;
		strvec_push(&g[k].files, xstrdup(sorted[i]->file));
		g[k].size += sorted[i]->size + 4096;
	}
}

/*
 * Split each rule's candidates into groups (fill_groups()), a few per job
 * so that a slow group does not leave a job idle for long, but few enough
 * that spatch's start-up (about half a second) stays small; a rule that
 * reads headers, one per job: each process parses the headers again.
 */
static void make_groups(struct walk *w, unsigned int jobs, struct group **out,
			size_t *nout)
{
	struct group *g = NULL;
	struct cand **sorted;
	size_t ng = 0, r, i, n, k, per;

	sorted = xrealloc(NULL, (w->ncands + 1) * sizeof(*sorted));
	for (r = 0; r < w->nrules; r++) {
		for (i = 0, n = 0; i < w->ncands; i++)
			if (w->cands[i].rules & ~w->cands[i].cached & (1u << r))
				sorted[n++] = &w->cands[i];
		if (!n)
			continue;
		per = (size_t)jobs * (rule_reads_headers(&w->rules[r]) ? 1 : 3);
		if (per > (n + 19) / 20)
			per = (n + 19) / 20;	/* at least ~20 files a group */
		if (!per)
			per = 1;
		g = xrealloc(g, (ng + per) * sizeof(*g));
		memset(g + ng, 0, per * sizeof(*g));
		for (k = 0; k < per; k++)
			g[ng + k].rule = r;
		fill_groups(&w->rules[r], sorted, n, g + ng, per);
		/* without the groups the cuts left empty */
		for (k = ng, i = ng; k < ng + per; k++)
			if (g[k].files.nr)
				g[i++] = g[k];
		ng = i;
	}
	free(sorted);
	if (ng)
		qsort(g, ng, sizeof(*g), group_size_cmp);
	*out = g;
	*nout = ng;
}

static void progress(const struct cocci_opts *opts, size_t done, size_t total,
		     size_t files_done, size_t files_total)
{
	static size_t last_done = (size_t)-1, last_files = (size_t)-1;

	if (!opts->progress || (done == last_done && files_done == last_files))
		return;
	last_done = done;
	last_files = files_done;
	fprintf(stderr, "\rptrguard: spatch: %zu/%zu files (%zu/%zu groups)%s",
		files_done, files_total, done, total, done == total ? "\n" : "");
	fflush(stderr);
}

/* How many files the group's spatch has started, from the new part of its stderr. */
static size_t count_handled(struct group *p)
{
	char buf[65536], *q;
	ssize_t n;
	int fd = open(p->err, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return p->handled;
	while ((n = pread(fd, buf, sizeof(buf) - 1, p->seen)) > 0) {
		buf[n] = '\0';
		/* a line start: after a newline, here or at the end of the last read */
		for (q = buf; (q = memmem(q, (size_t)(buf + n - q), "HANDLING: ", 10)); q++)
			if (q == buf ? (p->seen == 0 || p->last == '\n') : q[-1] == '\n')
				p->handled++;
		p->last = buf[n - 1];
		p->seen += n;
	}
	close(fd);
	return p->handled;
}

static int write_group_list(struct group *g, const char *tmpdir, size_t idx)
{
	FILE *f;
	size_t i;

	g->list = xasprintf("%s/group%zu.list", tmpdir, idx);
	f = fopen(g->list, "w");
	if (!f) {
		error("%s: %s", g->list, strerror(errno));
		return -1;
	}
	/* one file per group: the rules look at one file at a time */
	for (i = 0; i < g->files.nr; i++)
		fprintf(f, "%s\n\n", g->files.v[i]);
	if (fclose(f)) {
		error("%s: %s", g->list, strerror(errno));
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ the run */

struct spatch_run {
	const struct cocci_opts *opts;
	struct walk *w;
	const char *tmpdir;
	struct collect *c;
	struct cocci_cache cache;
	struct group *groups;
	size_t ngroups, done, fdone, ftotal;
	/* the groups are prepared by a thread of their own (prepare_all()) */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int stop;
};

/*
 * What group @i's spatch needs: its list, the lines of its buffer calls,
 * its mirror of the tree with the slices.  In prepare_all()'s thread:
 * nothing here touches what the pool's callbacks change.
 */
static int group_prepare(struct spatch_run *s, size_t i)
{
	struct group *g = &s->groups[i];
	const struct rule *r = &s->w->rules[g->rule];
	char *mirror;
	size_t nsliced;

	if (write_group_list(g, s->tmpdir, i) < 0)
		return -1;
	spatch_argv(s->opts, s->w->root, r, g->list, &g->argv);
	/*
	 * Neither is in the cache's key (spatch_argv() is): the calls and
	 * the slices are made from the files' text, the wrappers (in the
	 * rule's text) and this program.  Each group has a mirror of the
	 * tree of its own, made before its spatch starts and not changed
	 * while it runs (another group's slices would turn a link it reads
	 * through into a directory); spatch runs there when there is one.
	 */
	g->bufcalls = xasprintf("%s/group%zu.bufcalls", s->tmpdir, i);
	mirror = xasprintf("%s/tree%zu", s->tmpdir, i);
	if (cocci_buf_calls(s->w, r, &g->files, g->bufcalls, mirror, &nsliced) < 0) {
		cocci_mirror_remove(mirror);
		free(mirror);
		return -1;
	}
	if (nsliced)
		g->cwd = mirror;
	else
		free(mirror);
	strvec_push(&g->argv, xstrdup("-D"));
	strvec_push(&g->argv, xasprintf("pg_bufcalls=%s", g->bufcalls));
	return 0;
}

/*
 * Prepare the groups in the order the pool starts them, while the first
 * ones run: making the slices and mirror of a group costs about a
 * second of a 6.12 audit, which the pool used to wait for before each
 * group it started (tests/audit: same findings).  After a failure, the
 * groups left are marked failed too (the pool stops at the first).
 */
static void *prepare_all(void *arg)
{
	struct spatch_run *s = arg;
	size_t i;
	int ret = 0;

	for (i = 0; i < s->ngroups; i++) {
		pthread_mutex_lock(&s->lock);
		if (s->stop)
			ret = -1;
		pthread_mutex_unlock(&s->lock);
		if (!ret)
			ret = group_prepare(s, i);
		pthread_mutex_lock(&s->lock);
		s->groups[i].ready = ret < 0 ? -1 : 1;
		pthread_cond_broadcast(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
	return NULL;
}

static int group_start(void *ctx, size_t i, struct run_cmd *cmd)
{
	struct spatch_run *s = ctx;
	struct group *g = &s->groups[i];
	size_t k;
	int ready;

	pthread_mutex_lock(&s->lock);
	while (!(ready = g->ready))
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	if (ready < 0)
		return -1;
	if (s->opts->verbose) {
		fputs("ptrguard: (cd", stderr);
		fprintf(stderr, " %s &&", g->cwd ? g->cwd : s->w->root);
		for (k = 0; k < g->argv.nr; k++)
			fprintf(stderr, " %s", g->argv.v[k]);
		fputs(")\n", stderr);
	}
	g->out = xasprintf("%s/group%zu.out", s->tmpdir, i);
	g->err = xasprintf("%s/group%zu.err", s->tmpdir, i);
	cmd->argv = g->argv.v;
	cmd->env = spatch_env();
	cmd->cwd = g->cwd ? g->cwd : s->w->root;
	cmd->fd[0] = -1;
	cmd->path[1] = g->out;
	cmd->path[2] = g->err;
	cmd->group = 1;
	return 0;
}

/* A group's spatch failed: say so once, naming the group. */
static void group_error(const struct spatch_run *s, const struct group *g, int status,
			int timed_out)
{
	const struct rule *r = &s->w->rules[g->rule];
	char *why = timed_out ? xasprintf("timed out after %u s", s->opts->timeout) :
		run_status_text(status);
	char *line = spatch_last_line(g->err), *at = spatch_last_handled(g->err);

	if (timed_out)
		error("spatch %s with %s (%zu files from %s%s)%s%s; see --timeout",
		      why, r->name, g->files.nr, g->files.v[0],
		      g->files.nr > 1 ? ", ..." : "", at ? ", while handling " : "",
		      at ? at : "");
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		error("%s: cannot run spatch", spatch_prog(s->opts));
	else if (at && !strncmp(line, "HANDLING: ", 10))
		error("spatch %s while handling %s with %s", why, at, r->name);
	else if (at)
		error("spatch %s while handling %s with %s: %s", why, at, r->name, line);
	else
		error("spatch %s with %s (%zu files from %s%s): %s",
		      why, r->name, g->files.nr, g->files.v[0],
		      g->files.nr > 1 ? ", ..." : "", line);
	free(at);
	free(line);
	free(why);
}

/* Remove a group's files (its output too, unless @keep). */
static void group_cleanup(struct group *g, int keep)
{
	if (g->out && !keep) {
		unlink(g->out);
		unlink(g->err);
	}
	free(g->out);
	free(g->err);
	g->out = g->err = NULL;
	if (g->list)
		unlink(g->list);
	if (g->bufcalls)
		unlink(g->bufcalls);
}

static int group_done(void *ctx, size_t i, int status, int timed_out)
{
	struct spatch_run *s = ctx;
	struct group *g = &s->groups[i];
	const struct rule *r = &s->w->rules[g->rule];
	int ret = 0;

	if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status)) {
		group_error(s, g, status, timed_out);
		ret = -1;
	} else {
		ret = cocci_parse_records(s->c, s->w->root, g->out, r);
		cocci_parse_badcounts(s->c, s->w->root, g->err, rule_reads_headers(r));
		if (!ret)
			cocci_cache_store(&s->cache, s->w, g->rule, &g->files, g->out, g->err);
	}
	s->done++;
	s->fdone += g->files.nr;
	progress(s->opts, s->done, s->ngroups, s->fdone, s->ftotal);
	group_cleanup(g, s->opts->verbose);
	return ret;
}

static void group_tick(void *ctx, const size_t *running, size_t n)
{
	struct spatch_run *s = ctx;
	size_t now = s->fdone, k;

	if (!s->opts->progress)
		return;
	for (k = 0; k < n; k++)
		now += count_handled(&s->groups[running[k]]);
	progress(s->opts, s->done, s->ngroups, now, s->ftotal);
}

/* The rules' output for the candidates that the cache kept; -1 after error(). */
static int replay(struct spatch_run *s)
{
	struct walk *w = s->w;
	size_t i, r, n = 0;
	int hit;

	cocci_cache_init(&s->cache, s->opts, w);
	if (!s->cache.dir)
		return 0;
	for (i = 0; i < w->ncands; i++)
		for (r = 0; r < w->nrules; r++) {
			if (!(w->cands[i].rules & (1u << r)))
				continue;
			n++;
			hit = cocci_cache_replay(&s->cache, s->c, w, r, w->cands[i].file, s->tmpdir);
			if (hit < 0)
				return -1;
			if (hit)
				w->cands[i].cached |= 1u << r;
		}
	if (s->opts->verbose)
		fprintf(stderr, "ptrguard: cache: %zu of %zu spatch results from %s\n",
			s->cache.hits, n, s->cache.dir);
	return 0;
}

int cocci_spatch_run(const struct cocci_opts *opts, struct walk *w, const char *tmpdir,
		     struct collect *c)
{
	unsigned int jobs = opts->jobs ? opts->jobs : 1;
	struct spatch_run s = { opts, w, tmpdir, c, { 0 }, NULL, 0, 0, 0, 0,
				PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	struct run_pool pool = { jobs, opts->timeout, &s, group_start, group_done, group_tick };
	pthread_t prep;
	size_t i;
	int ret, err;

	if (replay(&s) < 0) {
		cocci_cache_free(&s.cache);
		return -1;
	}
	make_groups(w, jobs, &s.groups, &s.ngroups);
	for (i = 0; i < s.ngroups; i++)
		s.ftotal += s.groups[i].files.nr;
	if (s.ngroups)
		progress(opts, 0, s.ngroups, 0, s.ftotal);
	err = s.ngroups ? pthread_create(&prep, NULL, prepare_all, &s) : 0;
	if (err) {
		error("pthread_create: %s", strerror(err));
		ret = -1;
	} else {
		ret = run_pool(&pool, s.ngroups);
		pthread_mutex_lock(&s.lock);
		s.stop = 1;
		pthread_mutex_unlock(&s.lock);
		if (s.ngroups)
			pthread_join(prep, NULL);
	}
	if (ret && opts->progress && s.done < s.ngroups)
		fputc('\n', stderr);
	for (i = 0; i < s.ngroups; i++) {
		/* a group stopped by another's failure: its files go */
		group_cleanup(&s.groups[i], 0);
		if (s.groups[i].cwd && cocci_mirror_remove(s.groups[i].cwd) < 0)
			ret = -1;
		strvec_clear(&s.groups[i].files);
		strvec_clear(&s.groups[i].argv);
		free(s.groups[i].list);
		free(s.groups[i].bufcalls);
		free(s.groups[i].cwd);
	}
	free(s.groups);
	cocci_cache_free(&s.cache);
	return ret;
}
