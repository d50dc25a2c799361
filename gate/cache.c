// SPDX-License-Identifier: GPL-2.0
/*
 * gate_cache: the findings of the rules on a file, kept between gate runs.
 *
 * Every patch to a file is gated against the same base version of it; a
 * patch gated again (a CI rerun, a pre-push after a pre-commit) has the
 * same patched versions too, and a series' next patch starts from the
 * state the last one left.  So the rule run on a version of a file is
 * done once: its findings are kept in $PTRGUARD_GATE_CACHE (default
 * $PTRGUARD_CACHE/gate, that is ~/.cache/ptrguard/gate), one entry per
 * file content, whichever side of a patch it was on.
 *
 * An entry holds the findings of the rules that run on the file, under
 * its whole key (keycache.h).  They follow from the file's text and path,
 * the tree's version (the Makefiles above the file, for plain %p before
 * v4.15), the forced includes, the rules and the tools; and for
 * seq_int_cast.cocci, which reads the headers the file includes (not
 * theirs: --all-includes), from those headers, each by every place
 * spatch could find it (kc_includes(): the tree's include path, or for
 * an out-of-tree module its own directory and the kernel's).  A file with an #include that
 * names no file ("#include MACRO", #include_next) is never kept.  The
 * lexical model's findings (cocci_lexical()) also follow from the
 * wrappers the headers of the tree declare: the key holds that list
 * (lex_vocab_tree()).  Only complete results are stored, with the lines
 * spatch skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gate/gate.h"
#include "lib/keycache.h"
#include "lib/kernel.h"
#include "model/lex.h"
#include "lib/ptrguard.h"

static const char magic[] = "ptrguard-gate-cache 2\n";
static const char needs_magic[] = "ptrguard-gate-needs 1\n";

int gate_cache_init(struct gate_cache *c, const struct gate_run_opts *run)
{
	const char *sp = run->spatch;
	struct kc_key k = { 0 };
	char *path, *spatch;

	memset(c, 0, sizeof(*c));
	c->verbose = run->verbose;
	c->dir = kc_dir("PTRGUARD_GATE_CACHE", "gate");
	if (!c->dir)
		return 0;

	/* The tools: this program (its prefilter, its spatch options), spatch, python. */
	kc_add(&k, magic, strlen(magic));
	if (!sp || !*sp)
		sp = getenv("SPATCH");
	spatch = kc_which(sp && *sp ? sp : "spatch");
	if (kc_self(&k) ||
	    kc_program(&k, "spatch", spatch) ||
	    (run->python && kc_program(&k, "python", run->python))) {
		free(spatch);
		free(k.buf);
		free(c->dir);
		c->dir = NULL;
		return 0;
	}
	free(spatch);
	path = xasprintf("%s/seq_px.cocci", run->rules_dir);
	kc_file(&k, "rule", path, SIZE_MAX);
	free(path);
	path = xasprintf("%s/seq_int_cast.cocci", run->rules_dir);
	kc_file(&k, "cast rule", path, SIZE_MAX);
	free(path);
	path = xasprintf("%s/%s", run->rules_dir, cocci_macro_file);
	kc_file(&k, "macros", path, SIZE_MAX);
	free(path);
	c->ident = k.buf;
	c->nident = k.len;
	return 0;
}

void gate_cache_free(struct gate_cache *c)
{
	if (c->dir)
		kc_prune(c->dir, 256LL << 20);
	free(c->dir);
	free(c->ident);
	memset(c, 0, sizeof(*c));
}

/*
 * The whole key of @rel in the tree @root (a shadow), for the rules of
 * @cast (0: seq_px.cocci; 1: both).  -1 if it cannot be made.
 */
/* The seq-output functions the lexical model knows in @rel: core, headers. */
static void key_vocab(struct kc_key *k, const char *root, const char *rel)
{
	struct lex_vocab v = { 0 };
	size_t i;

	lex_vocab_core(&v);
	lex_vocab_tree(&v, root, rel);
	for (i = 0; i < v.nfns; i++) {
		char *one = xasprintf("%s %u %d", v.fns[i].name, v.fns[i].fmt, v.fns[i].va);

		kc_field(k, "wrapper", one, strlen(one));
		free(one);
	}
	lex_vocab_free(&v);
}

static int file_key(const struct gate_cache *c, const char *root, const char *rel,
		    int cast, struct kc_key *k)
{
	char *path, *dir, *slash;
	size_t i;

	k->len = 0;
	kc_add(k, c->ident, c->nident);
	kc_field(k, "rules", cast ? "both" : "seq_px.cocci", cast ? 4 : 12);
	kc_field(k, "path", rel, strlen(rel));
	for (i = 0; kernel_forced_includes[i]; i++) {
		/* out of tree, the kernel's (cocci/spatch.c) */
		const char *base = kernel_outside() ? kernel_dir() : root;

		if (!base)
			continue;
		path = xasprintf("%s/%s", base, kernel_forced_includes[i]);
		kc_file(k, kernel_forced_includes[i], path, SIZE_MAX);
		/* kconfig.h includes generated/autoconf.h */
		if (cast && !access(path, F_OK) &&
		    kc_includes(k, base, kernel_forced_includes[i], kernel_include_dirs, 0) < 0) {
			free(path);
			return -1;
		}
		free(path);
	}
	/*
	 * The rule reads the version from the first Makefile above the file
	 * that has one; out of tree, the kernel's is the one that counts.
	 */
	if (kernel_outside() && kernel_dir()) {
		path = xasprintf("%s/Makefile", kernel_dir());
		kc_file(k, "kernel", path, 4096);
		free(path);
	}
	dir = xstrdup(rel);
	for (;;) {
		slash = strrchr(dir, '/');
		path = slash ? (*slash = '\0', xasprintf("%s/%s/Makefile", root, dir)) :
		       xasprintf("%s/Makefile", root);
		kc_file(k, slash ? dir : ".", path, 4096);
		free(path);
		if (!slash)
			break;
	}
	free(dir);
	path = xasprintf("%s/%s", root, rel);
	kc_file(k, "file", path, SIZE_MAX);
	free(path);
	key_vocab(k, root, rel);
	return cast ? kc_includes(k, root, rel, kernel_include_dirs, 0) : 0;
}

int gate_cache_get(struct gate_cache *c, const char *root, const char *rel, int cast,
		   const char *side, struct cocci_result *res)
{
	struct kc_key k = { 0 };
	char *buf = NULL;
	size_t len;
	int hit = 0;

	if (!c->dir)
		return 0;
	if (file_key(c, root, rel, cast, &k) == 0)
		buf = kc_get(c->dir, magic, &k, &len);
	if (buf) {
		struct cocci_result r = { 0 };

		if (!cocci_records_read(buf, &r)) {
			*res = r;
			hit = 1;
		} else {
			cocci_result_free(&r);
		}
	}
	free(buf);
	free(k.buf);
	if (hit && c->verbose)
		fprintf(stderr, "ptrguard: gate: %s %s: from the cache\n", rel, side);
	return hit;
}

void gate_cache_put(struct gate_cache *c, const char *root, const char *rel, int cast,
		    const char *side, const struct cocci_result *res)
{
	struct kc_key k = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!c->dir || file_key(c, root, rel, cast, &k) < 0) {
		free(k.buf);
		return;
	}
	f = open_memstream(&text, &len);
	if (f) {
		cocci_records_write(f, res);
		if (!fclose(f) && !kc_put(c->dir, magic, &k, text, len) && c->verbose)
			fprintf(stderr, "ptrguard: gate: %s %s: stored in the cache\n", rel,
				side);
	}
	free(text);
	free(k.buf);
}

/*
 * The key of a file_needs() answer: this program (c->ident, which starts
 * with it), the text and path of the file and what else the answer reads.
 * The rule runs' findings are keyed apart (file_key()): a gate run asks
 * this for every touched file, that only for those a rule runs on.
 */
static void needs_key(const struct gate_cache *c, const char *rel, const char *buf, size_t len,
		      const char *deps, struct kc_key *k)
{
	kc_add(k, c->ident, c->nident);
	kc_field(k, "needs", deps, strlen(deps));
	kc_field(k, "path", rel, strlen(rel));
	kc_field(k, "file", buf, len);
}

int gate_needs_get(struct gate_cache *c, const char *rel, const char *buf, size_t len,
		   const char *deps, unsigned int *need)
{
	struct kc_key k = { 0 };
	char *val, *end;
	size_t n;
	unsigned long v;
	int hit = 0;

	if (!c->dir)
		return 0;
	needs_key(c, rel, buf, len, deps, &k);
	val = kc_get(c->dir, needs_magic, &k, &n);
	if (val) {
		v = strtoul(val, &end, 10);
		if (end != val && *end == '\n' && v <= 3) {
			*need = (unsigned int)v;
			hit = 1;
		}
	}
	free(val);
	free(k.buf);
	return hit;
}

void gate_needs_put(struct gate_cache *c, const char *rel, const char *buf, size_t len,
		    const char *deps, unsigned int need)
{
	struct kc_key k = { 0 };
	char val[16];
	int n = snprintf(val, sizeof(val), "%u\n", need);

	if (!c->dir)
		return;
	needs_key(c, rel, buf, len, deps, &k);
	kc_put(c->dir, needs_magic, &k, val, (size_t)n);
	free(k.buf);
}
