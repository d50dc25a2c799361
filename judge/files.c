// SPDX-License-Identifier: GPL-2.0
/*
 * judge_files: the judge over the files of an audit.  judge_file()
 * (judge.c) judges one file; here each file gets its facts and skipped
 * lines, threads take the files in turn, a file's judgement comes from
 * the judge cache when nothing it read has changed, and the parts are
 * merged in the order of the files.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cocci/cocci_impl.h"
#include "cocci/prefilter.h"
#include "judge/judge_impl.h"
#include "lib/keycache.h"
#include "lib/ptrguard.h"
#include "model/lex.h"

static int unjudged_cmp(const void *pa, const void *pb)
{
	const struct cocci_unjudged *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int fact_cmp(const void *pa, const void *pb)
{
	const struct cocci_fact *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return a->column < b->column ? -1 : a->column > b->column;
}

/*
 * The judge's threads: each takes the next file and judges it into a
 * result of its own (reading the shared one's skipped lines); the parts
 * are merged in the order of the files, so the result does not depend
 * on the threads.
 */
struct judging {
	const char *root;
	char *const *files;
	const int *px_ran, *cast_ran, *old;
	int lexical, casts, verbose;
	const struct collect *c;
	struct cocci_result *part;	/* one a file */
	pthread_mutex_t lock;
	size_t n, next;
	char *cache;		/* the judge cache's directory, or NULL */
	struct kc_key base;	/* what every key of it starts with */
	time_t start;
};

/* The file name at offset @off of element @i of @v (@size bytes each). */
static const char *file_of(const void *v, size_t size, size_t off, size_t i)
{
	return *(char *const *)((const char *)v + i * size + off);
}

/*
 * The run of the @n elements of @v (@size bytes each, sorted by the file
 * name at offset @off of each) that belong to @file: its first index,
 * and its length in *@len.
 */
static size_t file_run(const void *v, size_t n, size_t size, size_t off, const char *file,
		       size_t *len)
{
	size_t lo = 0, hi = n, at;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(file_of(v, size, off, mid), file) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (at = lo; at < n && !strcmp(file_of(v, size, off, at), file); at++)
		;
	*len = at - lo;
	return lo;
}

/* The facts of @file: a run of the sorted c->facts. */
static struct facts facts_of(const struct collect *c, const char *file)
{
	struct facts fs;
	size_t at = file_run(c->facts, c->nfacts, sizeof(*c->facts),
			     offsetof(struct cocci_fact, file), file, &fs.n);

	fs.x = c->facts + at;
	return fs;
}

/*
 * The judge cache ($PTRGUARD_CACHE/judge): what judge_file() found in a
 * file, under a key of everything it read - this program, the wrapper
 * table (lex_vocab_table_id()), the file as git's index knows it (not
 * kept when it changed in the last two seconds), the rules that ran on
 * it, the tree's version, and the rules' facts and skipped lines for it.
 * A re-audit reads 1,500 files' judgements instead of lexing them.
 */
#define JUDGE_MAGIC "ptrguard-judge 1\n"

/*
 * The key of file @i of @j, with facts @fs and skipped lines @skips->skips;
 * 0, or -1 if it is not to be kept.
 */
static int judge_key(const struct judging *j, size_t i, const struct facts *fs,
		     const struct cocci_result *skips, struct kc_key *k)
{
	const char *rel = j->files[i];
	char *abs = xasprintf("%s/%s", j->root, rel), *text = NULL;
	long long id[KC_ID_LEN];
	size_t len = 0, n;
	struct stat st;
	FILE *f = open_memstream(&text, &len);
	int ret = 0;

	if (!f)
		die("out of memory");
	kc_add(k, j->base.buf, j->base.len);
	if (stat(abs, &st) || !S_ISREG(st.st_mode)) {
		ret = -1;
	} else {
		kc_stat_id(&st, id);
		if (kc_racy(id, j->start))
			ret = -1;
	}
	fprintf(f, "%s\n%d %d %d %d %d\n", rel, j->px_ran[i], j->cast_ran[i], j->old[i],
		j->lexical, j->casts);
	if (!ret)
		fprintf(f, "%lld %lld %lld %lld %lld %lld %lld\n", id[0], id[1], id[2], id[3],
			id[4], id[5], id[6]);
	for (n = 0; n < fs->n; n++) {
		const struct cocci_fact *x = &fs->x[n];

		fprintf(f, "%u %u %d %d %c %s\n", x->line, x->column, x->cast_rule, x->arg,
			x->mark, x->what ? x->what : "");
	}
	for (n = 0; n < skips->nskips; n++)
		fprintf(f, "skip %u %u\n", skips->skips[n].first, skips->skips[n].last);
	if (fclose(f))
		die("out of memory");
	kc_field(k, "file", text, len);
	free(text);
	free(abs);
	return ret;
}

/*
 * Point @to at the judgement in @from: its findings, calls, calls not
 * understood and count of calls judged lexically (what the cache keeps;
 * not the skipped lines, which are lent).
 */
static void judgement(struct cocci_result *to, const struct cocci_result *from)
{
	to->findings = from->findings;
	to->nfindings = from->nfindings;
	to->calls = from->calls;
	to->ncalls = from->ncalls;
	to->unjudged = from->unjudged;
	to->nunjudged = from->nunjudged;
	to->nlexical = from->nlexical;
	to->nspatch = from->nspatch;
	to->nquiet = from->nquiet;
}

/* Keep @part, the judgement of a file, under @k (best effort). */
static void judge_keep(const struct judging *j, const struct kc_key *k,
		       const struct cocci_result *part)
{
	struct cocci_result own = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	judgement(&own, part);
	cocci_records_write(f, &own);
	if (!fclose(f))
		kc_put(j->cache, JUDGE_MAGIC, k, text, len);
	free(text);
}

/* Take the judgement of @rel from the cache into @part; 1 if it was there, whole. */
static int judge_cached(const struct judging *j, const char *rel, const struct kc_key *k,
			struct cocci_result *part)
{
	size_t len, i;
	char *buf = kc_get(j->cache, JUDGE_MAGIC, k, &len);
	struct cocci_result got = { 0 };
	int ok = buf && !cocci_records_read(buf, &got) && !got.nskips && !got.nunparsed;

	/* an entry speaks of its own file only */
	for (i = 0; ok && i < got.nfindings; i++)
		ok = !strcmp(got.findings[i].file, rel);
	for (i = 0; ok && i < got.ncalls; i++)
		ok = !strcmp(got.calls[i].file, rel);
	for (i = 0; ok && i < got.nunjudged; i++)
		ok = !strcmp(got.unjudged[i].file, rel);
	free(buf);
	if (!ok) {
		cocci_result_free(&got);
		return 0;
	}
	judgement(part, &got);
	return 1;
}

/*
 * Lend @part the lines spatch skipped in @file: a run of @res->skips,
 * which cocci_finish() sorted by file.  judge_file() reads no other.
 */
static void skips_of(const struct cocci_result *res, const char *file, struct cocci_result *part)
{
	size_t at = file_run(res->skips, res->nskips, sizeof(*res->skips),
			     offsetof(struct cocci_skip, file), file, &part->nskips);

	part->skips = res->skips + at;
}

static void *judge_files(void *arg)
{
	struct judging *j = arg;
	size_t i;

	for (;;) {
		struct cocci_result *part;
		struct kc_key key = { 0 };
		struct facts fs;
		int keep = 0;

		pthread_mutex_lock(&j->lock);
		i = j->next++;
		pthread_mutex_unlock(&j->lock);
		if (i >= j->n)
			return NULL;
		part = &j->part[i];
		fs = facts_of(j->c, j->files[i]);
		skips_of(j->c->res, j->files[i], part);
		if (j->cache) {
			/* a file that may still change is neither taken nor kept */
			keep = !judge_key(j, i, &fs, part, &key);
			if (keep && judge_cached(j, j->files[i], &key, part)) {
				free(key.buf);
				continue;
			}
		}
		judge_file(j->root, j->files[i], j->px_ran[i], j->cast_ran[i], j->old[i],
			   j->lexical, j->casts, j->verbose, &fs, part);
		if (keep)
			judge_keep(j, &key, part);
		free(key.buf);
	}
}

#define APPEND(res, part, arr, n) do {							\
	if ((part)->n) {								\
		(res)->arr = xrealloc((res)->arr, ((res)->n + (part)->n) * sizeof(*(res)->arr)); \
		memcpy((res)->arr + (res)->n, (part)->arr, (part)->n * sizeof(*(res)->arr)); \
		(res)->n += (part)->n;							\
	}										\
	free((part)->arr);								\
} while (0)

void cocci_judge(const char *root, char *const *files, const int *px_ran, const int *cast_ran,
		 size_t nfiles, unsigned int jobs, int lexical, int casts, int verbose, int cache,
		 struct collect *c)
{
	struct judging j = { root, files, px_ran, cast_ran, NULL, lexical, casts, verbose, c, NULL,
			     PTHREAD_MUTEX_INITIALIZER, nfiles, 0, NULL, { 0 }, 0 };
	int *old = xmalloc((nfiles + 1) * sizeof(*old));
	size_t i;

	if (c->nfacts)
		qsort(c->facts, c->nfacts, sizeof(*c->facts), fact_cmp);
	/* the version is looked up through a cache of directories: here, not in the threads */
	for (i = 0; i < nfiles; i++) {
		char *abs = xasprintf("%s/%s", root, files[i]);

		old[i] = prefilter_tree_is_old(abs);
		free(abs);
	}
	/* what a thread needs of the tree's wrappers is built before it starts */
	lex_vocab_table(root);
	/* -vv names what it meets while judging: never from the cache */
	if (cache && !verbose && (j.cache = kc_dir(NULL, "judge"))) {
		const char *id = lex_vocab_table_id(root);

		kc_add(&j.base, JUDGE_MAGIC, strlen(JUDGE_MAGIC));
		if (kc_self(&j.base) < 0)
			kc_field(&j.base, "no program", "", 0);
		kc_field(&j.base, "root", root, strlen(root));
		kc_field(&j.base, "wrappers", id, strlen(id));
		j.start = time(NULL);
	}
	j.old = old;
	j.part = xmalloc((nfiles + 1) * sizeof(*j.part));
	memset(j.part, 0, (nfiles + 1) * sizeof(*j.part));
	/* -vv names disagreements as it meets them: one thread, in order */
	run_threads(verbose ? 1 : jobs, nfiles, judge_files, &j);
	for (i = 0; i < nfiles; i++) {
		struct cocci_result *part = &j.part[i];

		APPEND(c->res, part, findings, nfindings);
		APPEND(c->res, part, calls, ncalls);
		APPEND(c->res, part, unjudged, nunjudged);
		c->res->nlexical += part->nlexical;
		c->res->nspatch += part->nspatch;
		c->res->nquiet += part->nquiet;
	}
	free(j.part);
	free(old);
	if (j.cache) {
		kc_prune(j.cache, 256LL << 20);
		free(j.cache);
		free(j.base.buf);
	}
	if (c->res->nunjudged)
		qsort(c->res->unjudged, c->res->nunjudged, sizeof(*c->res->unjudged), unjudged_cmp);
}
