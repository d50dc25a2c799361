// SPDX-License-Identifier: GPL-2.0
/*
 * keycache: results kept between runs, each under its whole key
 * (keycache.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/kernel.h"
#include "lib/keycache.h"
#include "lib/ptrguard.h"

void kc_add(struct kc_key *k, const void *p, size_t n)
{
	if (k->len + n + 1 > k->alloc) {
		k->alloc = 2 * (k->len + n + 1);
		k->buf = xrealloc(k->buf, k->alloc);
	}
	memcpy(k->buf + k->len, p, n);
	k->len += n;
}

void kc_field(struct kc_key *k, const char *name, const void *p, size_t n)
{
	char head[256];
	int h = snprintf(head, sizeof(head), "%s %zu\n", name, n);

	kc_add(k, head, (size_t)h);
	kc_add(k, p, n);
}

void kc_file(struct kc_key *k, const char *name, const char *path, size_t max)
{
	size_t n;
	char *buf = read_file(path, max, &n);

	if (buf)
		kc_field(k, name, buf, n);
	else
		kc_field(k, "absent", name, strlen(name));
	free(buf);
}

void kc_stat_id(const struct stat *st, long long *id)
{
	id[0] = (long long)st->st_dev;
	id[1] = (long long)st->st_ino;
	id[2] = (long long)st->st_size;
	id[KC_ID_MTIME] = (long long)st->st_mtim.tv_sec;
	id[4] = (long long)st->st_mtim.tv_nsec;
	id[KC_ID_CTIME] = (long long)st->st_ctim.tv_sec;
	id[6] = (long long)st->st_ctim.tv_nsec;
}

int kc_racy(const long long *id, long long start)
{
	return id[KC_ID_MTIME] >= start - 2 || id[KC_ID_CTIME] >= start - 2;
}

void kc_stat(struct kc_key *k, const char *name, const char *path)
{
	long long v[KC_ID_LEN];
	struct stat st;
	char *id;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		kc_field(k, "absent", name, strlen(name));
		return;
	}
	kc_stat_id(&st, v);
	id = xasprintf("%llu %llu %lld %lld.%09lld %lld.%09lld", (unsigned long long)v[0],
		       (unsigned long long)v[1], v[2], v[3], v[4], v[5], v[6]);
	kc_field(k, name, id, strlen(id));
	free(id);
}

int kc_program(struct kc_key *k, const char *name, const char *path)
{
	struct stat st;
	char *id;

	if (!path || stat(path, &st) < 0)
		return -1;
	id = xasprintf("%s %lld %lld.%09ld %llu", path, (long long)st.st_size,
		       (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		       (unsigned long long)st.st_ino);
	kc_field(k, name, id, strlen(id));
	free(id);
	return 0;
}

int kc_self(struct kc_key *k)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	return kc_program(k, "ptrguard", exe);
}

char *kc_which(const char *prog)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *cand = NULL;

	if (strchr(prog, '/'))
		return access(prog, X_OK) ? NULL : xstrdup(prog);
	if (!path)
		return NULL;
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;

		cand = xasprintf("%s/%s", *dir ? dir : ".", prog);
		if (!stat(cand, &st) && S_ISREG(st.st_mode) && !access(cand, X_OK))
			break;
		free(cand);
		cand = NULL;
	}
	free(copy);
	return cand;
}

/* kc_file() of a whole file, in kc_header()'s shape */
static void kc_text(struct kc_key *k, const char *name, const char *path)
{
	kc_file(k, name, path, SIZE_MAX);
}

/* Every place of the header @name that @from (relative to @root) includes. */
static void kc_header(struct kc_key *k, const char *root, const char *from, const char *name,
		      const char *const *dirs, int by_stat)
{
	void (*add)(struct kc_key *, const char *, const char *) = by_stat ? kc_stat : kc_text;
	const char *slash = strrchr(from, '/');
	char *path;
	size_t i;

	kc_field(k, "include", name, strlen(name));
	path = slash ? xasprintf("%s/%.*s/%s", root, (int)(slash - from), from, name) :
	       xasprintf("%s/%s", root, name);
	add(k, "here", path);
	free(path);
	path = xasprintf("%s/%s", root, name);
	add(k, "top", path);
	free(path);
	/* the include path spatch is given (@dirs): out of tree, the kernel's */
	for (i = 0; dirs[i]; i++) {
		const char *base = kernel_outside() ? kernel_dir() : root;

		if (!base)
			break;
		path = xasprintf("%s/%s/%s", base, dirs[i], name);
		add(k, dirs[i], path);
		free(path);
	}
}

int kc_includes(struct kc_key *k, const char *root, const char *rel, const char *const *dirs,
		int by_stat)
{
	char *path = xasprintf("%s/%s", root, rel), *buf, *p, *e, *name;
	size_t len;
	int ret = 0;

	buf = read_file(path, SIZE_MAX, &len);
	free(path);
	if (!buf)
		return -1;
	for (p = buf; p && ret == 0; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#')
			continue;
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		if (strncmp(p, "include", 7))
			continue;
		p += 7;
		if (!strncmp(p, "_next", 5)) {
			ret = -1;
			break;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '<' && *p != '"') {
			ret = -1;
			break;
		}
		e = strchr(p + 1, *p == '<' ? '>' : '"');
		if (!e || memchr(p, '\n', (size_t)(e - p))) {
			ret = -1;
			break;
		}
		name = xstrndup(p + 1, (size_t)(e - p - 1));
		kc_header(k, root, rel, name, dirs, by_stat);
		free(name);
	}
	free(buf);
	return ret;
}

char *kc_dir(const char *env, const char *sub)
{
	const char *own = env ? getenv(env) : NULL, *top = getenv("PTRGUARD_CACHE");
	const char *home = getenv("HOME");

	if (own)
		return *own && strcmp(own, "off") ? xstrdup(own) : NULL;
	if (top && !strcmp(top, "off"))
		return NULL;
	if (top && *top)
		return xasprintf("%s/%s", top, sub);
	if (home && *home)
		return xasprintf("%s/.cache/ptrguard/%s", home, sub);
	return NULL;
}

uint64_t kc_hash(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--) {
		h ^= (unsigned char)*p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static char *entry_path(const char *dir, const struct kc_key *k)
{
	return xasprintf("%s/%016llx", dir, (unsigned long long)kc_hash(k->buf, k->len));
}

char *kc_get(const char *dir, const char *magic, const struct kc_key *key, size_t *len)
{
	char *path = entry_path(dir, key), *buf, *p, *end, *out = NULL;
	size_t n, keylen, mlen = strlen(magic);

	buf = read_file(path, SIZE_MAX, &n);
	if (!buf || n <= mlen || memcmp(buf, magic, mlen))
		goto out;
	p = buf + mlen;
	keylen = strtoul(p, &end, 10);
	if (end == p || *end != '\n' || keylen != key->len ||
	    (size_t)(buf + n - (end + 1)) < keylen || memcmp(end + 1, key->buf, keylen))
		goto out;
	p = end + 1 + keylen;
	/* used: the last to go when kc_prune() makes room */
	utimensat(AT_FDCWD, path, NULL, 0);
	*len = (size_t)(buf + n - p);
	memmove(buf, p, *len + 1);
	out = buf;
	buf = NULL;
out:
	free(path);
	free(buf);
	return out;
}

int kc_put(const char *dir, const char *magic, const struct kc_key *key,
	   const void *payload, size_t n)
{
	char *path, *text = NULL;
	size_t len = 0;
	FILE *f;
	int ret = -1;

	if (mkdir_p(dir) < 0)
		return -1;
	f = open_memstream(&text, &len);
	if (!f)
		return -1;
	fputs(magic, f);
	fprintf(f, "%zu\n", key->len);
	fwrite(key->buf, 1, key->len, f);
	fwrite(payload, 1, n, f);
	if (!fclose(f)) {
		path = entry_path(dir, key);
		ret = write_file_atomic(path, text, len);
		free(path);
	}
	free(text);
	return ret;
}

struct kc_entry {
	char *path;
	long long when;
	long long size;
};

static int entry_cmp(const void *pa, const void *pb)
{
	const struct kc_entry *a = pa, *b = pb;

	return a->when < b->when ? -1 : a->when > b->when;
}

void kc_prune(const char *dir, long long max)
{
	struct kc_entry *v = NULL;
	size_t n = 0, alloc = 0, i;
	long long total = 0;
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *path;

		if (e->d_name[0] == '.' && strncmp(e->d_name, ".tmp.", 5))
			continue;
		path = xasprintf("%s/%s", dir, e->d_name);
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (n == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[n].path = path;
		v[n].when = (long long)st.st_mtim.tv_sec;
		v[n++].size = (long long)st.st_size;
		total += (long long)st.st_size;
	}
	closedir(d);
	if (total > max) {
		qsort(v, n, sizeof(*v), entry_cmp);
		/* the least recently used first, down to three quarters */
		for (i = 0; i < n && total > max / 4 * 3; i++)
			if (!unlink(v[i].path))
				total -= v[i].size;
	}
	for (i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}
