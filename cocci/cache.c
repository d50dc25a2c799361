// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_cache: what spatch printed for one file under one rule, kept
 * between audits (opts->cache), so that an audit after a change runs
 * spatch only on the files the change touches.
 *
 * An entry holds the rule's records for the file (its "C" and "M" lines
 * of stdout) and the file's part of stderr (from its "HANDLING:" line to
 * the next: the lines spatch could not parse), and is read back through
 * the parsers of a spatch run (cocci/records.c, cocci/skip.c), so a
 * result from the cache is judged exactly as a fresh one.  Its whole key
 * (keycache.h) is the tools (this program, spatch, python), the spatch
 * command line with the rule's and the macro file's text in place of
 * their names (the rule holds the wrappers of the run), how the files
 * are sliced (struct walk's @slice), the forced
 * includes, the file's path and text, and for a rule that reads headers
 * (--all-includes) every place of every header the file and the forced
 * includes name, each by which file is there (device, inode, size and
 * times, as git's index: a header's text would make an entry of 6.12's
 * cast rule 1.4 MB).  The entries are kept to 512 MB, the least
 * recently used going first.  Not kept: a file with an #include that names no file,
 * a group with a record for a file it was not given, and out-of-tree
 * sources (the key does not hold the kernel's headers).
 *
 * spatch parses a header once per process: a header's unparsed lines are
 * in the part of the first file of a group that included it, so an
 * audit that runs that file again in a different group may count one
 * header fewer among the files not fully parsed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cocci/cocci_impl.h"
#include "lib/kernel.h"
#include "lib/keycache.h"

static const char magic[] = "ptrguard-spatch-cache 1\n";

/* The part of the key common to every file of rule @r, sliced as @slice says. */
static int rule_ident(const struct cocci_opts *opts, const char *root, const struct rule *r,
		      int slice, struct kc_key *k)
{
	struct strvec av = { 0 };
	char *prog, *py, mode[16];
	size_t i;
	int ret = -1;

	kc_add(k, magic, strlen(magic));
	snprintf(mode, sizeof(mode), "%d", slice);
	kc_field(k, "slice", mode, strlen(mode));
	if (kc_self(k) < 0)
		return -1;
	prog = kc_which(spatch_prog(opts));
	py = kc_which(opts->python ? opts->python : "python3");
	if (kc_program(k, "spatch", prog))
		goto out;
	if (py)
		kc_program(k, "python", py);
	spatch_argv(opts, root, r, "-", &av);
	for (i = 1; i < av.nr; i++) {
		kc_field(k, "arg", av.v[i], strlen(av.v[i]));
		if (i + 1 < av.nr && (!strcmp(av.v[i], "--cocci-file") ||
				      !strcmp(av.v[i], "--macro-file")))
			kc_file(k, "text", av.v[++i], SIZE_MAX);
	}
	ret = 0;
out:
	strvec_clear(&av);
	free(prog);
	free(py);
	return ret;
}

void cocci_cache_init(struct cocci_cache *cc, const struct cocci_opts *opts,
		      const struct walk *w)
{
	size_t i;

	memset(cc, 0, sizeof(*cc));
	if (!opts->cache || kernel_outside())
		return;
	cc->dir = kc_dir(NULL, "spatch");
	if (!cc->dir)
		return;
	for (i = 0; i < w->nrules && i < COCCI_NRULES; i++) {
		struct kc_key *k = &cc->ident[i];

		if (rule_ident(opts, w->root, &w->rules[i], w->slice, k) < 0) {
			free(cc->dir);
			cc->dir = NULL;
			return;
		}
	}
}

void cocci_cache_free(struct cocci_cache *cc)
{
	size_t i;

	if (cc->dir && cc->stored)
		kc_prune(cc->dir, 512LL << 20);
	for (i = 0; i < COCCI_NRULES; i++)
		free(cc->ident[i].buf);
	free(cc->dir);
	memset(cc, 0, sizeof(*cc));
}

/* The whole key of @rel under rule @ri; -1 if the file is not kept. */
static int file_key(const struct cocci_cache *cc, const struct walk *w, size_t ri,
		    const char *rel, struct kc_key *k)
{
	int headers = rule_reads_headers(&w->rules[ri]);
	char *path;
	size_t i;

	k->len = 0;
	kc_add(k, cc->ident[ri].buf, cc->ident[ri].len);
	kc_field(k, "path", rel, strlen(rel));
	for (i = 0; kernel_forced_includes[i]; i++) {
		path = xasprintf("%s/%s", w->root, kernel_forced_includes[i]);
		kc_file(k, kernel_forced_includes[i], path, SIZE_MAX);
		/* kconfig.h includes generated/autoconf.h */
		if (headers && !access(path, F_OK) &&
		    kc_includes(k, w->root, kernel_forced_includes[i], kernel_include_dirs, 1) < 0) {
			free(path);
			return -1;
		}
		free(path);
	}
	path = xasprintf("%s/%s", w->root, rel);
	kc_file(k, "file", path, SIZE_MAX);
	free(path);
	return headers ? kc_includes(k, w->root, rel, kernel_include_dirs, 1) : 0;
}

/* Write @n bytes to the new file @path; 0, or -1 after error(). */
static int write_text(const char *path, const char *p, size_t n)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f) {
		error("%s: %s", path, strerror(errno));
		return -1;
	}
	ok = fwrite(p, 1, n, f) == n;
	ok = !fclose(f) && ok;
	if (!ok)
		error("%s: %s", path, strerror(errno));
	return ok ? 0 : -1;
}

/* "OUT LEN\n" BYTES "ERR LEN\n" BYTES: the two parts of an entry. */
static int split_entry(char *buf, size_t len, char **out, size_t *nout, char **err,
		       size_t *nerr)
{
	char *p = buf, *end = buf + len, *e;

	if (len < 4 || memcmp(p, "OUT ", 4))
		return -1;
	*nout = strtoul(p + 4, &e, 10);
	if (e == p + 4 || *e != '\n' || (size_t)(end - e - 1) < *nout)
		return -1;
	*out = e + 1;
	p = *out + *nout;
	if (end - p < 4 || memcmp(p, "ERR ", 4))
		return -1;
	*nerr = strtoul(p + 4, &e, 10);
	if (e == p + 4 || *e != '\n' || (size_t)(end - e - 1) != *nerr)
		return -1;
	*err = e + 1;
	return 0;
}

int cocci_cache_replay(struct cocci_cache *cc, struct collect *c, const struct walk *w,
		       size_t ri, const char *rel, const char *tmpdir)
{
	struct kc_key k = { 0 };
	char *buf = NULL, *out, *err, *opath = NULL, *epath = NULL;
	size_t len, nout, nerr;
	int hit = 0;

	if (!cc->dir || file_key(cc, w, ri, rel, &k) < 0)
		goto out;
	buf = kc_get(cc->dir, magic, &k, &len);
	if (!buf || split_entry(buf, len, &out, &nout, &err, &nerr) < 0)
		goto out;
	opath = xasprintf("%s/cached.out", tmpdir);
	epath = xasprintf("%s/cached.err", tmpdir);
	if (write_text(opath, out, nout) < 0 || write_text(epath, err, nerr) < 0) {
		hit = -1;
		goto out;
	}
	hit = cocci_parse_records(c, w->root, opath, &w->rules[ri]) < 0 ? -1 : 1;
	if (hit > 0)
		cocci_parse_badcounts(c, w->root, epath, rule_reads_headers(&w->rules[ri]));
	cc->hits += hit > 0;
out:
	if (opath)
		unlink(opath);
	if (epath)
		unlink(epath);
	free(opath);
	free(epath);
	free(buf);
	free(k.buf);
	return hit;
}

/* Does the record @line (a "C" or "M" line) name @file? */
static int record_of(const char *line, size_t n, const char *file)
{
	size_t fl = strlen(file);

	return n > 2 + fl && line[1] == '\t' && !memcmp(line + 2, file, fl) &&
		line[2 + fl] == '\t';
}

/* The lines of @text naming @file, appended to @f. */
static void records_of(FILE *f, const char *text, size_t n, const char *file)
{
	const char *p = text, *end = text + n, *nl;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (record_of(p, (size_t)(nl - p), file))
			fwrite(p, 1, (size_t)(nl - p) + (nl < end), f);
		if (nl == end)
			break;
	}
}

/* Is every record of @text one of @files'? */
static int records_known(const char *text, size_t n, const struct strvec *files)
{
	const char *p = text, *end = text + n, *nl;
	size_t i;

	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl > p) {
			for (i = 0; i < files->nr; i++)
				if (record_of(p, (size_t)(nl - p), files->v[i]))
					break;
			if (i == files->nr)
				return 0;
		}
		if (nl == end)
			break;
	}
	return 1;
}

/* @file's part of spatch's stderr: from its "HANDLING: " line to the next. */
static void stderr_of(const char *text, size_t n, const char *file, const char **at,
		      size_t *len)
{
	const char *p = text, *end = text + n, *nl, *start = NULL;
	size_t fl = strlen(file);

	*at = NULL;
	*len = 0;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (!strncmp(p, "HANDLING: ", 10) && nl - p >= 10) {
			if (start)
				break;
			if ((size_t)(nl - p) == 10 + fl && !memcmp(p + 10, file, fl))
				start = p;
		}
		if (nl == end) {
			p = end;
			break;
		}
	}
	if (start) {
		*at = start;
		*len = (size_t)((p < end ? p : end) - start);
	}
}

void cocci_cache_store(struct cocci_cache *cc, const struct walk *w, size_t ri,
		       const struct strvec *files, const char *out_path, const char *err_path)
{
	size_t nout, nerr, i, elen;
	char *out = NULL, *err = NULL;
	struct kc_key k = { 0 };
	const char *at;

	if (!cc->dir)
		return;
	out = read_file(out_path, SIZE_MAX, &nout);
	err = read_file(err_path, SIZE_MAX, &nerr);
	if (!out || !err || !records_known(out, nout, files))
		goto out;
	for (i = 0; i < files->nr; i++) {
		char *recs = NULL, *part = NULL;
		size_t rlen = 0, plen = 0;
		FILE *r, *f;

		stderr_of(err, nerr, files->v[i], &at, &elen);
		if (!at || file_key(cc, w, ri, files->v[i], &k) < 0)
			continue;
		r = open_memstream(&recs, &rlen);
		if (!r)
			continue;
		records_of(r, out, nout, files->v[i]);
		f = fclose(r) ? NULL : open_memstream(&part, &plen);
		if (f) {
			fprintf(f, "OUT %zu\n", rlen);
			fwrite(recs, 1, rlen, f);
			fprintf(f, "ERR %zu\n", elen);
			fwrite(at, 1, elen, f);
			if (!fclose(f) && !kc_put(cc->dir, magic, &k, part, plen))
				cc->stored++;
		}
		free(part);
		free(recs);
	}
out:
	free(k.buf);
	free(out);
	free(err);
}
