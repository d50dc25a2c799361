// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_rules: the rules - which ones run, their "// Options:" line, and
 * their grep query, asked of spatch (--parse-cocci, which also checks that
 * the rule parses) and evaluated here on each file, as spatch would.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cocci/cocci_impl.h"
#include "model/lex.h"
#include "lib/runner.h"

/* ------------------------------------------------------- grep queries */

/*
 * A file is a candidate when the query (struct query) holds, an
 * identifier being true when it occurs in the file as a whole word.
 * This is spatch's grep over the raw text (comments and literals
 * included), not a reading of C: model/tokenize.c's names are not used
 * here.  Its word bytes are [A-Za-z0-9_] ($ and bytes >= 0x80 end a word),
 * so it finds a word wherever spatch's regular expression does, and
 * keeps a file spatch would keep.
 */
static int word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int has_word(const char *buf, size_t len, const char *w, size_t wlen)
{
	const char *p = buf, *end = buf + len;

	while ((p = mem_find(p, (size_t)(end - p), w, wlen))) {
		if ((p == buf || !word_char(p[-1])) &&
		    (p + wlen == end || !word_char(p[wlen])))
			return 1;
		p++;
	}
	return 0;
}

/*
 * Recursive descent over the query text: or := and ('||' and)*, and :=
 * atom ('&&' atom)*.  Once an operand decides, the rest is parsed but not
 * looked for (@skip).
 */
struct qeval {
	const char *s;
	const char *buf;
	size_t len;
	int bad;
	int skip;
	const struct query_found *qf;
};

static void qskip(struct qeval *q)
{
	while (isspace((unsigned char)*q->s))
		q->s++;
}

static int q_or(struct qeval *q);

static int q_word(struct qeval *q, const char *w, size_t wlen)
{
	const struct query_found *qf = q->qf;
	size_t i;

	if (q->skip)
		return 0;
	if (qf)
		for (i = 0; i < qf->qw->n; i++)
			if (qf->qw->word[i].len == wlen && !memcmp(qf->qw->word[i].w, w, wlen))
				return qf->found[i];
	return has_word(q->buf, q->len, w, wlen);
}

static int q_atom(struct qeval *q)
{
	const char *start;
	int v;

	qskip(q);
	if (*q->s == '(') {
		q->s++;
		v = q_or(q);
		qskip(q);
		if (*q->s != ')')
			q->bad = 1;
		else
			q->s++;
		return v;
	}
	start = q->s;
	while (word_char(*q->s))
		q->s++;
	if (q->s == start) {
		q->bad = 1;
		return 1;
	}
	return q_word(q, start, (size_t)(q->s - start));
}

/* The rest of an operator's operands, skipped when @decided. */
static int q_next(struct qeval *q, int (*operand)(struct qeval *), int decided)
{
	int skip = q->skip, v;

	q->skip = skip || decided;
	v = operand(q);
	q->skip = skip;
	return v;
}

static int q_and(struct qeval *q)
{
	int v = q_atom(q);

	for (;;) {
		qskip(q);
		if (q->s[0] != '&' || q->s[1] != '&')
			return v;
		q->s += 2;
		v = q_next(q, q_atom, !v) && v;
	}
}

static int q_or(struct qeval *q)
{
	int v = q_and(q);

	for (;;) {
		qskip(q);
		if (q->s[0] != '|' || q->s[1] != '|')
			return v;
		q->s += 2;
		v = q_next(q, q_and, v) || v;
	}
}

int query_match(const struct query *qr, const char *buf, size_t len,
		const struct query_found *qf)
{
	struct qeval q = { qr->text, buf, len, 0, 0, qf };
	int v;

	if (!qr->text)
		return 1;	/* opts->no_query */
	v = q_or(&q);

	qskip(&q);
	if (q.bad || *q.s)
		return -1;
	return v;
}


/* word_char() as a table, for the scan's inner loop */
static unsigned char word_table[256];

static void word_table_init(void)
{
	int c;

	if (word_table['_'])
		return;
	for (c = 0; c < 256; c++)
		word_table[c] = (unsigned char)word_char((char)c);
}

static size_t qw_bucket(const struct query_words *qw, const char *w, size_t len)
{
	return (size_t)kc_hash(w, len) & (qw->nslots - 1);
}

/*
 * The letters of C source from rarest to most frequent (as counted over
 * the 6.12 tree, roughly): a word's anchor is the first of them it holds.
 */
static const char rare_bytes[] = "QZJqzjXKVWYHGkUBvxyFMNORDLIAPwCEgbhfmucpdlnaoi_srte";

/* The rarest byte that every word of @qw holds, or -1. */
static int qw_anchor(const struct query_words *qw)
{
	const char *r;
	size_t i;

	for (r = rare_bytes; *r; r++) {
		for (i = 0; i < qw->n && memchr(qw->word[i].w, *r, qw->word[i].len); i++)
			;
		if (i == qw->n)
			return (unsigned char)*r;
	}
	return -1;
}

/* Index word[] anew: the slots, the lengths, the last bytes, the anchor. */
static void qw_index(struct query_words *qw)
{
	size_t i, h;

	word_table_init();	/* here, before the walk's threads read it */
	free(qw->slot);
	for (qw->nslots = 16; qw->nslots < 2 * qw->n; qw->nslots *= 2)
		;
	qw->slot = xmalloc(qw->nslots * sizeof(*qw->slot));
	memset(qw->slot, 0xff, qw->nslots * sizeof(*qw->slot));
	qw->lens = 0;
	memset(qw->last, 0, sizeof(qw->last));
	for (i = 0; i < qw->n; i++) {
		const struct query_word *w = &qw->word[i];
		unsigned char e = (unsigned char)w->w[w->len - 1];

		qw->lens |= 1ull << (w->len < 63 ? w->len : 63);
		qw->last[e >> 3] |= (unsigned char)(1u << (e & 7));
		for (h = qw_bucket(qw, w->w, w->len); qw->slot[h] != (size_t)-1;
		     h = (h + 1) & (qw->nslots - 1))
			;
		qw->slot[h] = i;
	}
	qw->anchor = qw_anchor(qw);
}

/* Mark the word [@start, @end) in @found if it is one of @qw's. */
static void qw_check(const struct query_words *qw, const unsigned char *start,
		     const unsigned char *end, unsigned char *found)
{
	size_t n = (size_t)(end - start), h, i;

	if (!(qw->lens >> (n < 63 ? n : 63) & 1) ||
	    !(qw->last[end[-1] >> 3] & (1u << (end[-1] & 7))))
		return;
	for (h = qw_bucket(qw, (const char *)start, n); (i = qw->slot[h]) != (size_t)-1;
	     h = (h + 1) & (qw->nslots - 1))
		if (qw->word[i].len == n && !memcmp(qw->word[i].w, start, n)) {
			found[i] = 1;
			return;
		}
}

void query_words_add(struct query_words *qw, const struct query *qr)
{
	const char *s = qr->text, *start;
	size_t i, len;

	while (s && *s) {
		if (!word_char(*s)) {
			s++;
			continue;
		}
		for (start = s; word_char(*s); s++)
			;
		len = (size_t)(s - start);
		for (i = 0; i < qw->n; i++)
			if (qw->word[i].len == len && !memcmp(qw->word[i].w, start, len))
				break;
		if (i < qw->n)
			continue;
		GROW(qw->word, qw->n, qw->alloc);
		qw->word[qw->n].w = start;
		qw->word[qw->n++].len = len;
	}
	qw_index(qw);
}

void query_words_scan(const struct query_words *qw, const char *buf, size_t len,
		      unsigned char *found)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + len, *start;

	memset(found, 0, qw->n);
	if (!qw->n)
		return;
	if (qw->anchor >= 0) {
		/*
		 * Every word holds the anchor: only the runs of word bytes
		 * around one can be a word (memchr() is vectorized; the byte
		 * loop below was most of a walk of the tree)
		 */
		while (p < end && (p = memchr(p, qw->anchor, (size_t)(end - p)))) {
			for (start = p; start > (const unsigned char *)buf && word_table[start[-1]];
			     start--)
				;
			for (p++; p < end && word_table[*p]; p++)
				;
			qw_check(qw, start, p, found);
		}
		return;
	}
	while (p < end) {
		if (!word_table[*p]) {
			p++;
			continue;
		}
		for (start = p++; p < end && word_table[*p]; p++)
			;
		qw_check(qw, start, p, found);
	}
}

void query_words_free(struct query_words *qw)
{
	free(qw->word);
	free(qw->slot);
	memset(qw, 0, sizeof(*qw));
}

/* ------------------------------------------------------------- rules */

int rule_reads_headers(const struct rule *r)
{
	size_t i;

	for (i = 0; i < r->options.nr; i++)
		if (!strcmp(r->options.v[i], "--all-includes") ||
		    !strcmp(r->options.v[i], "--recursive-includes"))
			return 1;
	return 0;
}

void rule_free(struct rule *r)
{
	if (r->tmp)
		unlink(r->tmp);
	free(r->tmp);
	free(r->built);
	free(r->path);
	free(r->name);
	strvec_clear(&r->options);
	free(r->query.text);
}

/* Read the "// Options:" line of a rule, as scripts/coccicheck does. */
static int rule_read_options(struct rule *r)
{
	size_t len, i;
	char *buf = read_file(r->path, SIZE_MAX, &len), *line, *opt, *save = NULL, *nl;

	if (!buf) {
		error("%s: %s", r->path, strerror(errno));
		return -1;
	}
	for (line = buf; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strncmp(line, "// Options:", 11))
			continue;
		for (opt = strtok_r(line + 11, " \t", &save); opt;
		     opt = strtok_r(NULL, " \t", &save))
			strvec_push(&r->options, xstrdup(opt));
	}
	free(buf);
	for (i = 0; i < r->options.nr; i++)
		if (!strcmp(r->options.v[i], "--include-headers"))
			r->headers = 1;
	return 0;
}

/*
 * The grep query spatch gave for this rule's text before, kept (with
 * opts->cache) in $PTRGUARD_CACHE/queries under the rule's text and
 * spatch's identity (keycache.h): asking spatch takes a few tenths of a
 * second a rule, a re-audit little more.
 */
static const char query_magic[] = "ptrguard-grep-query 1\n";

/* A query being asked of spatch (rule_query_start(), rule_query_end()). */
struct query_ask {
	struct kc_key key;
	char *dir;		/* the cache's, or NULL */
	char *out, *err;	/* spatch --parse-cocci's output */
	pid_t pid;		/* > 0: spatch runs */
};

static char *query_cache(const struct cocci_opts *opts, const struct rule *r,
			 struct kc_key *k)
{
	char *prog, *dir;
	int bad;

	if (!opts->cache || !(dir = kc_dir(NULL, "queries")))
		return NULL;
	prog = kc_which(spatch_prog(opts));
	kc_add(k, query_magic, strlen(query_magic));
	bad = kc_program(k, "spatch", prog);
	free(prog);
	kc_file(k, "rule", r->path, SIZE_MAX);
	if (bad) {
		free(dir);
		return NULL;
	}
	return dir;
}

/*
 * The rule's grep query from the cache, or spatch started to give it
 * (this parses the rule, so a broken rule is reported here, before any
 * file is read): the rules' spatch processes run at once.  -1 after
 * error().
 */
static int rule_query_start(const struct cocci_opts *opts, struct rule *r, const char *tmpdir,
			    size_t i, struct query_ask *q)
{
	/*
	 * The query of the records mode, in patch mode too: patch mode only
	 * rewrites calls that the records mode reports, and its own query
	 * can be weaker (rules matching any call, filtered in Python).
	 */
	char *argv[] = { (char *)spatch_prog(opts), "-D", "ptrguard",
			 "--parse-cocci", r->path, NULL };
	struct run_cmd cmd = { .argv = argv, .env = spatch_env(), .fd = { -1 } };
	size_t klen;
	char *kept;

	memset(q, 0, sizeof(*q));
	q->dir = query_cache(opts, r, &q->key);
	kept = q->dir ? kc_get(q->dir, query_magic, &q->key, &klen) : NULL;
	if (kept && !strchr(kept, '\n')) {
		r->query.text = kept;
		if (query_match(&r->query, "", 0, NULL) == 0)
			return 0;
		r->query.text = NULL;
	}
	free(kept);
	q->out = xasprintf("%s/query%zu.out", tmpdir, i);
	q->err = xasprintf("%s/query%zu.err", tmpdir, i);
	cmd.path[1] = q->out;
	cmd.path[2] = q->err;
	q->pid = run_start(&cmd);
	return q->pid < 0 ? -1 : 0;
}

/* Wait for the spatch rule_query_start() started, if any, and read its query. */
static int rule_query_end(struct rule *r, struct query_ask *q)
{
	char *buf = NULL, *p, *why, *line;
	size_t len;
	int status, ret = -1;

	if (!q->pid) {
		ret = 0;
		goto out;
	}
	if (q->pid < 0 || run_wait(q->pid, &status) < 0)
		goto out;
	why = run_status_text(status);
	if (why) {
		line = spatch_last_line(q->err);
		error("%s: spatch cannot parse the rule (%s): %s", r->path, why, line);
		free(line);
		free(why);
		goto out;
	}
	buf = read_file(q->out, SIZE_MAX, &len);
	if (!buf) {
		error("%s: %s", q->out, strerror(errno));
		goto out;
	}
	p = strstr(buf, "\nGrep query\n");
	if (!p) {
		error("%s: spatch found no grep query in the rule: it would parse every file (%s)",
		      r->path, strstr(buf, "No grep query") ? "No grep query" :
		      "no \"Grep query\" line in spatch --parse-cocci");
		goto out;
	}
	p += strlen("\nGrep query\n");
	r->query.text = xstrndup(p, strcspn(p, "\n"));
	if (query_match(&r->query, "", 0, NULL) < 0) {
		error("%s: cannot read spatch's grep query '%s'", r->path, r->query.text);
		goto out;
	}
	if (q->dir)
		kc_put(q->dir, query_magic, &q->key, r->query.text, strlen(r->query.text));
	ret = 0;
out:
	free(buf);
	if (q->out)
		unlink(q->out);
	if (q->err)
		unlink(q->err);
	free(q->out);
	free(q->err);
	free(q->key.buf);
	free(q->dir);
	memset(q, 0, sizeof(*q));
	return ret;
}

int rule_add_wrappers(struct rule *r, char *const *names, size_t n, const char *tmpdir)
{
	static const char seqcall[] = "\n@seqcall@\nposition pc;\n@@\n(\n";
	/* the regex goes on ("seq|SEQ|^s(c?n)?printf"): the names go at its end */
	static const char fseq[] = "identifier f =~ \"seq|SEQ";
	size_t len, i;
	char *buf, *at, *p, *q, *text = NULL;
	size_t tlen = 0;
	FILE *m;
	int ret = -1;

	if (!n)
		return 0;
	if (!r->built)
		r->built = xstrdup(r->path);
	buf = read_file(r->built, SIZE_MAX, &len);
	if (!buf) {
		error("%s: %s", r->built, strerror(errno));
		return -1;
	}
	at = strstr(buf, seqcall);
	if (!at) {
		free(buf);
		return 0;
	}
	m = open_memstream(&text, &tlen);
	if (!m)
		die("out of memory");
	/* seqcall: every wrapper too, so that the rules depending on it run */
	p = at + strlen(seqcall);
	fwrite(buf, 1, (size_t)(p - buf), m);
	for (i = 0; i < n; i++)
		fprintf(m, "%s@pc(...)\n|\n", names[i]);
	/* the fact rules' callee names */
	for (at = p; (p = strstr(at, fseq)) && (q = strstr(p, "\";")); at = q + 2) {
		fwrite(at, 1, (size_t)(q - at), m);
		fputs("|^(", m);
		for (i = 0; i < n; i++)
			fprintf(m, "%s%s", i ? "|" : "", names[i]);
		fputs(")$\";", m);
	}
	fputs(at, m);
	if (fclose(m))
		die("out of memory");
	free(r->tmp);
	r->tmp = xasprintf("%s/%s", tmpdir, r->name);
	{
		FILE *f = fopen(r->tmp, "w");

		if (!f || fwrite(text, 1, tlen, f) != tlen || fclose(f)) {
			error("%s: %s", r->tmp, strerror(errno));
			goto out;
		}
	}
	free(r->path);
	r->path = xstrdup(r->tmp);
	ret = 0;
out:
	free(text);
	free(buf);
	return ret;
}

int rules_load(const struct cocci_opts *opts, const char *tmpdir,
	       const struct strvec *wrappers, struct rule *rules, size_t *nrules)
{
	static const char * const names[COCCI_NRULES] = { "seq_px.cocci", "seq_int_cast.cocci" };
	unsigned int mask = opts->rules ? opts->rules :
		COCCI_RULE_PX | (opts->casts ? COCCI_RULE_CAST : 0);
	size_t i;
	char *path;

	struct query_ask q[COCCI_NRULES];
	int ret = 0;

	memset(q, 0, sizeof(q));
	*nrules = 0;
	for (i = 0; i < COCCI_NRULES && !ret; i++) {
		struct rule *r = &rules[*nrules];

		if (!(mask & (1u << i)))
			continue;
		memset(r, 0, sizeof(*r));
		path = xasprintf("%s/%s", opts->rules_dir, names[i]);
		if (access(path, R_OK) < 0 || !(r->path = realpath(path, NULL))) {
			error("%s: %s", path, strerror(errno));
			free(path);
			ret = -1;
			break;
		}
		free(path);
		r->name = xstrdup(names[i]);
		r->kind = prefilter_rule(names[i]);
		(*nrules)++;
		if (rule_read_options(r) < 0 ||
		    rule_add_wrappers(r, wrappers->v, wrappers->nr, tmpdir) < 0 ||
		    (!opts->no_query && rule_query_start(opts, r, tmpdir, i, &q[*nrules - 1]) < 0))
			ret = -1;
	}
	/* every spatch started is waited for, the first error reported */
	for (i = 0; i < *nrules; i++)
		if (rule_query_end(&rules[i], &q[i]) < 0 && !ret)
			ret = -1;
	return ret;
}
