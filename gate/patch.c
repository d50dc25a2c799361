// SPDX-License-Identifier: GPL-2.0
/*
 * patch: split an input into patches and parse their diffs.
 *
 * The parser is strict where git apply is lenient: git apply ignores any
 * text after a hunk's counted lines, so a hunk header that undercounts
 * would silently drop the rest of the hunk.  Here such a line is an error,
 * because the gate must not check less than what gets applied.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/patch.h"
#include "lib/ptrguard.h"

/* A line of the input: [s, s + len) without its newline. */
struct line {
	const char *s;
	size_t len;
	unsigned int no;	/* 1-based */
};

struct reader {
	const char *name;	/* input name for messages */
	struct line *lines;
	size_t nlines;
	size_t pos;
};

/* N bytes, NULs included, and a terminator: a patch line may hold NULs. */
static char *xmemdupz(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static int starts(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !memcmp(l->s, prefix, n);
}

static int is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/*
 * An mbox "From " separator: "From <40 hex> <date>" as git format-patch
 * writes it, or any "From " line carrying a hh:mm:ss time (mail clients).
 * A diff line never starts with "From " (it starts with ' ', '+' or '-').
 */
static int is_from_line(const struct line *l)
{
	size_t i;

	if (!starts(l, "From "))
		return 0;
	if (l->len >= 46 && is_hex(l->s + 5, 40) && l->s[45] == ' ')
		return 1;
	for (i = 5; i + 8 <= l->len; i++)
		if (isdigit((unsigned char)l->s[i]) && isdigit((unsigned char)l->s[i + 1]) &&
		    l->s[i + 2] == ':' && isdigit((unsigned char)l->s[i + 3]) &&
		    isdigit((unsigned char)l->s[i + 4]) && l->s[i + 5] == ':' &&
		    isdigit((unsigned char)l->s[i + 6]) && isdigit((unsigned char)l->s[i + 7]))
			return 1;
	return 0;
}

static void split_lines(struct reader *r, const char *buf, size_t len)
{
	size_t alloc = 0, i = 0;

	while (i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - buf) : len;

		if (r->nlines == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			r->lines = xrealloc(r->lines, alloc * sizeof(*r->lines));
		}
		r->lines[r->nlines].s = buf + i;
		r->lines[r->nlines].len = end - i;
		/* Mail can arrive with CRLF line ends. */
		if (end > i && buf[end - 1] == '\r')
			r->lines[r->nlines].len--;
		r->lines[r->nlines].no = (unsigned int)r->nlines + 1;
		r->nlines++;
		i = end + 1;
	}
}

/* Undo git's C-style quoting of a path ("a/tab\there"). */
static char *unquote(const char *s, size_t n)
{
	char *d = xrealloc(NULL, n + 1), *o = d;
	size_t i;

	if (n < 2 || s[0] != '"' || s[n - 1] != '"') {
		memcpy(d, s, n);
		d[n] = '\0';
		return d;
	}
	for (i = 1; i + 1 < n; i++) {
		char c = s[i];

		if (c == '\\' && i + 2 < n) {
			c = s[++i];
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'r': c = '\r'; break;
			case 'v': c = '\v'; break;
			default:
				/* three octal digits ("\303\251"), else the byte as is */
				if (c >= '0' && c <= '7' && i + 2 < n && s[i + 1] >= '0' &&
				    s[i + 1] <= '7' && s[i + 2] >= '0' && s[i + 2] <= '7') {
					c = (char)(((s[i] - '0') << 6) | ((s[i + 1] - '0') << 3) |
						   (s[i + 2] - '0'));
					i += 2;
				}
			}
		}
		*o++ = c;
	}
	*o = '\0';
	return d;
}

/*
 * The path of a "--- X" / "+++ X" line: NULL for /dev/null, else X without
 * a trailing tab-separated timestamp and without its first component (-p1,
 * git apply's default: "a/kernel/foo.c" is kernel/foo.c).
 */
static char *header_path(const struct line *l, int *ok)
{
	const char *s = l->s + 4;
	size_t n = l->len - 4;
	const char *tab;
	char *path, *slash, *res;

	*ok = 1;
	if (n && s[0] != '"') {
		tab = memchr(s, '\t', n);
		if (tab)
			n = (size_t)(tab - s);
		while (n && s[n - 1] == ' ')
			n--;
	}
	path = unquote(s, n);
	if (!strcmp(path, "/dev/null")) {
		free(path);
		return NULL;
	}
	slash = strchr(path, '/');
	if (!slash || !slash[1]) {
		*ok = 0;
		free(path);
		return NULL;
	}
	res = strdup(slash + 1);
	free(path);
	if (!res)
		die("out of memory");
	return res;
}

/* "diff --git a/X b/X": X, when both halves agree (no rename info yet). */
static char *git_header_path(const struct line *l)
{
	const char *s = l->s + 11;
	size_t n = l->len - 11, half;

	if (n > 0 && s[0] == '"')
		return NULL;	/* quoted: the ---/+++ lines will tell */
	if (n < 7 || (n - 1) % 2)
		return NULL;
	half = (n - 1) / 2;
	if (s[half] != ' ' || memcmp(s, "a/", 2) || memcmp(s + half + 1, "b/", 2) ||
	    memcmp(s + 2, s + half + 3, half - 2))
		return NULL;
	return xmemdupz(s + 2, half - 2);
}

static int parse_range(const char **p, unsigned int *start, unsigned int *count)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return -1;
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno || v > 100000000)
		return -1;
	*start = (unsigned int)v;
	*count = 1;
	*p = end;
	if (**p == ',') {
		(*p)++;
		if (!isdigit((unsigned char)**p))
			return -1;
		v = strtoul(*p, &end, 10);
		if (errno || v > 100000000)
			return -1;
		*count = (unsigned int)v;
		*p = end;
	}
	return 0;
}

/* "@@ -a[,b] +c[,d] @@" */
static int parse_hunk_header(const struct line *l, unsigned int *os, unsigned int *oc,
			     unsigned int *ns, unsigned int *nc)
{
	char *copy = xmemdupz(l->s, l->len);
	const char *p = copy + 3;
	int ret = -1;

	if (*p++ == '-' && !parse_range(&p, os, oc) && *p++ == ' ' && *p++ == '+' &&
	    !parse_range(&p, ns, nc) && !strncmp(p, " @@", 3))
		ret = 0;
	free(copy);
	return ret;
}

static void add_line(struct patch_file *f, char kind, const struct line *l,
		     unsigned int file_line)
{
	f->lines = xrealloc(f->lines, (f->nlines + 1) * sizeof(*f->lines));
	f->lines[f->nlines].kind = kind;
	f->lines[f->nlines].input_line = l->no;
	f->lines[f->nlines].file_line = file_line;
	f->lines[f->nlines].text = xmemdupz(l->s + 1, l->len - 1);
	f->nlines++;
}

static struct patch_file *add_file(struct patch *p)
{
	struct patch_file *f;

	p->files = xrealloc(p->files, (p->nfiles + 1) * sizeof(*p->files));
	f = &p->files[p->nfiles++];
	memset(f, 0, sizeof(*f));
	return f;
}

/* Report a parse error naming the input, the patch and the line. */
static int corrupt(const struct reader *r, const struct patch *p, const struct line *l,
		   const char *why)
{
	char name[512];

	error("gate: %s: corrupt patch at line %u: %s", patch_name(p, name, sizeof(name)),
	      l->no, why);
	(void)r;
	return -1;
}

/* Read the counted lines of one hunk; r->pos is on the "@@" line. */
static int parse_hunk(struct reader *r, struct patch *p, struct patch_file *f, size_t end)
{
	const struct line *hdr = &r->lines[r->pos];
	unsigned int os, oc, ns, nc, oline, nline;

	if (parse_hunk_header(hdr, &os, &oc, &ns, &nc))
		return corrupt(r, p, hdr, "malformed hunk header");
	f->nhunks++;
	oline = os;
	nline = ns;
	r->pos++;
	while (oc || nc) {
		const struct line *l;

		if (r->pos >= end)
			return corrupt(r, p, hdr, "hunk ends before its line counts do");
		l = &r->lines[r->pos++];
		switch (l->len ? l->s[0] : ' ') {
		case ' ':
			if (!oc || !nc)
				return corrupt(r, p, l, "context line beyond the hunk's counts");
			oc--, nc--;
			oline++, nline++;
			break;
		case '-':
			if (!oc)
				return corrupt(r, p, l, "removed line beyond the hunk's counts");
			add_line(f, '-', l, oline++);
			oc--;
			break;
		case '+':
			if (!nc)
				return corrupt(r, p, l, "added line beyond the hunk's counts");
			add_line(f, '+', l, nline++);
			nc--;
			break;
		case '\\':
			break;	/* "\ No newline at end of file" */
		default:
			return corrupt(r, p, l, "line is not part of a hunk");
		}
	}
	/* A trailing "\ No newline at end of file" belongs to the hunk. */
	if (r->pos < end && starts(&r->lines[r->pos], "\\"))
		r->pos++;
	return 0;
}

static int is_plain_header(const struct reader *r, size_t i, size_t end)
{
	return i + 1 < end && starts(&r->lines[i], "--- ") && starts(&r->lines[i + 1], "+++ ");
}

/* The ---/+++ pair at r->pos: set the paths git did not already set. */
static int parse_minus_plus(struct reader *r, struct patch *p, struct patch_file *f,
			    int from_git)
{
	int ok1, ok2;
	char *old = header_path(&r->lines[r->pos], &ok1);
	char *new = header_path(&r->lines[r->pos + 1], &ok2);

	if (!ok1 || !ok2) {
		free(old);
		free(new);
		return corrupt(r, p, &r->lines[r->pos], "path without a directory prefix (a/, b/)");
	}
	if (!old && !new) {
		return corrupt(r, p, &r->lines[r->pos], "both sides are /dev/null");
	}
	if (!from_git || !f->is_rename) {
		free(f->old_path);
		free(f->new_path);
		f->old_path = old;
		f->new_path = new;
	} else {
		free(old);
		free(new);
	}
	r->pos += 2;
	return 0;
}

/* Hunks after a file header, up to the next file, signature or garbage. */
static int parse_hunks(struct reader *r, struct patch *p, struct patch_file *f, size_t end)
{
	while (r->pos < end) {
		const struct line *l = &r->lines[r->pos];

		if (starts(l, "@@ ")) {
			if (parse_hunk(r, p, f, end))
				return -1;
			continue;
		}
		if (starts(l, "diff ") || is_plain_header(r, r->pos, end))
			return 0;
		if (l->len == 3 && !memcmp(l->s, "-- ", 3))
			return 0;	/* the format-patch signature */
		if (l->len && (l->s[0] == '+' || l->s[0] == '-' || l->s[0] == ' '))
			return corrupt(r, p, l, "diff line outside any hunk (wrong hunk counts?)");
		r->pos++;	/* trailing text, as git apply allows */
	}
	return 0;
}

/* A "diff --git" section: extended headers, then ---/+++ and hunks or binary data. */
static int parse_git_file(struct reader *r, struct patch *p, size_t end)
{
	struct patch_file *f = add_file(p);
	char *path = git_header_path(&r->lines[r->pos]);
	int is_new = 0, is_del = 0;

	r->pos++;
	while (r->pos < end) {
		const struct line *l = &r->lines[r->pos];

		if (starts(l, "rename from ") || starts(l, "copy from ")) {
			size_t off = starts(l, "copy") ? 10 : 12;

			free(f->old_path);
			f->old_path = unquote(l->s + off, l->len - off);
			if (off == 10)
				f->is_copy = 1;
			else
				f->is_rename = 1;
		} else if (starts(l, "rename to ") || starts(l, "copy to ")) {
			size_t off = starts(l, "copy") ? 8 : 10;

			free(f->new_path);
			f->new_path = unquote(l->s + off, l->len - off);
			/* a "to" without its "from" is a rename without both names */
			if (off == 8)
				f->is_copy = 1;
			else
				f->is_rename = 1;
		} else if (starts(l, "new file mode ")) {
			is_new = 1;
		} else if (starts(l, "deleted file mode ")) {
			is_del = 1;
		} else if (starts(l, "Binary files ") || starts(l, "GIT binary patch")) {
			f->is_binary = 1;
			r->pos++;
			/* Skip the base85 data up to the next file or the signature. */
			while (r->pos < end && !starts(&r->lines[r->pos], "diff --git ") &&
			       !(r->lines[r->pos].len == 3 && !memcmp(r->lines[r->pos].s, "-- ", 3)))
				r->pos++;
			break;
		} else if (is_plain_header(r, r->pos, end)) {
			if (parse_minus_plus(r, p, f, 1))
				goto fail;
			if (parse_hunks(r, p, f, end))
				goto fail;
			break;
		} else if (starts(l, "old mode ") || starts(l, "new mode ") ||
			   starts(l, "similarity index ") || starts(l, "dissimilarity index ") ||
			   starts(l, "index ")) {
			/* nothing the gate needs */
		} else {
			break;	/* mode-only change, pure rename, or the next file */
		}
		r->pos++;
	}
	/* No ---/+++ (pure rename, mode change, empty new file): use the headers. */
	if (!f->old_path && !f->new_path) {
		if (!path) {
			free(path);
			return corrupt(r, p, &r->lines[r->pos ? r->pos - 1 : 0],
				       "cannot tell the file's name from \"diff --git\"");
		}
		if (!is_new)
			f->old_path = strdup(path);
		if (!is_del)
			f->new_path = strdup(path);
	} else if (f->is_rename || f->is_copy) {
		if (!f->old_path || !f->new_path) {
			free(path);
			return corrupt(r, p, &r->lines[r->pos - 1], "rename without both names");
		}
	}
	if (is_new && f->old_path && !f->is_copy && !f->is_rename) {
		free(f->old_path);
		f->old_path = NULL;
	}
	if (is_del && f->new_path) {
		free(f->new_path);
		f->new_path = NULL;
	}
	free(path);
	/* "new file mode" and "deleted file mode" together: no side has the file */
	if (!f->old_path && !f->new_path)
		return corrupt(r, p, &r->lines[r->pos ? r->pos - 1 : 0],
			       "a file that is neither on the old side nor on the new one");
	return 0;
fail:
	free(path);
	return -1;
}

/* "Subject: [PATCH v2 2/3] foo: bar" -> "foo: bar" (folded lines joined). */
static char *parse_subject(const struct reader *r, size_t start, size_t end)
{
	size_t i, n;
	char *s = NULL, *t;

	for (i = start; i < end && r->lines[i].len; i++) {
		if (!starts(&r->lines[i], "Subject: "))
			continue;
		s = xmemdupz(r->lines[i].s + 9, r->lines[i].len - 9);
		while (i + 1 < end && r->lines[i + 1].len &&
		       (r->lines[i + 1].s[0] == ' ' || r->lines[i + 1].s[0] == '\t')) {
			i++;
			n = strlen(s);
			s = xrealloc(s, n + r->lines[i].len + 1);
			memcpy(s + n, r->lines[i].s, r->lines[i].len);
			s[n + r->lines[i].len] = '\0';
		}
		break;
	}
	if (!s)
		return NULL;
	t = s;
	if (*t == '[') {
		char *close = strchr(t, ']');

		if (close)
			t = close + 1;
	}
	while (*t == ' ' || *t == '\t')
		t++;
	t = strdup(t);
	free(s);
	if (!t)
		die("out of memory");
	return t;
}

/*
 * The "[PATCH 0/N]" of a cover letter's subject (N > 0; "[PATCH v2 0/3]",
 * "[RFC PATCH 00/12]" too), malloc()ed, or NULL: another subject.
 */
static char *cover_tag(const struct reader *r, size_t start, size_t end)
{
	size_t i;

	for (i = start; i < end && r->lines[i].len; i++) {
		const char *s = r->lines[i].s + 9, *close, *w, *p;

		if (!starts(&r->lines[i], "Subject: "))
			continue;
		if (r->lines[i].len < 10 || *s != '[')
			return NULL;
		close = memchr(s, ']', r->lines[i].len - 9);
		if (!close)
			return NULL;
		/* the last word inside the brackets: 0/N, 00/NN */
		for (w = close; w > s + 1 && w[-1] != ' '; w--)
			;
		for (p = w; p < close && *p == '0'; p++)
			;
		if (p == w || p == close || *p++ != '/' || p == close)
			return NULL;
		w = p;
		for (; p < close && *p >= '0' && *p <= '9'; p++)
			;
		if (p != close || strspn(w, "0") == (size_t)(close - w))
			return NULL;
		return xmemdupz(s, (size_t)(close + 1 - s));
	}
	return NULL;
}

/* Parse lines [start, end) as one patch. */
static int parse_patch(struct reader *r, struct patch *p, size_t start, size_t end)
{
	size_t i, nbinary = 0;

	p->subject = parse_subject(r, start, end);
	r->pos = start;
	while (r->pos < end) {
		const struct line *l = &r->lines[r->pos];

		if (starts(l, "diff --git ")) {
			if (parse_git_file(r, p, end))
				return -1;
		} else if (is_plain_header(r, r->pos, end)) {
			struct patch_file *f = add_file(p);

			if (parse_minus_plus(r, p, f, 0) || parse_hunks(r, p, f, end))
				return -1;
			if (!f->nhunks)
				return corrupt(r, p, l, "file header without hunks");
		} else {
			r->pos++;
		}
	}
	if (!p->nfiles) {
		char name[512];

		p->cover = cover_tag(r, start, end);
		if (p->cover)
			return 0;
		error("gate: %s: no diff in the patch (empty patch?)",
		      patch_name(p, name, sizeof(name)));
		return -1;
	}
	for (i = 0; i < p->nfiles; i++)
		nbinary += p->files[i].is_binary;
	if (nbinary == p->nfiles) {
		char name[512];

		error("gate: %s: binary-only patch (%s): nothing the rules can check",
		      patch_name(p, name, sizeof(name)),
		      p->files[0].new_path ? p->files[0].new_path : p->files[0].old_path);
		return -1;
	}
	return 0;
}

/* Only blanks and line ends?  (@buf is not NUL-terminated: no strspn().) */
static int all_blank(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r' && buf[i] != '\n')
			return 0;
	return 1;
}

static void patch_free(struct patch *p);

/*
 * Leave the cover letters among patches [first, npatches) out of @series
 * (they are no patch to apply), said on stderr with -v, and number the
 * rest again: in the series, and within their input.
 */
static void drop_covers(struct patch_series *series, size_t first)
{
	size_t i, n = first;
	unsigned int nth = 0, count = 0;

	for (i = first; i < series->npatches; i++)
		count += !series->patches[i].cover;
	for (i = first; i < series->npatches; i++) {
		struct patch *p = &series->patches[i];

		if (p->cover) {
			if (series->verbose) {
				char name[512];

				error("gate: %s: a cover letter (%s, no diff): skipped",
				      patch_name(p, name, sizeof(name)), p->cover);
			}
			patch_free(p);
			continue;
		}
		p->nth = ++nth;
		p->count = count;
		p->index = (unsigned int)(n + 1);
		series->patches[n++] = *p;
	}
	series->npatches = n;
}

int patch_read_buf(const char *name, const char *buf, size_t len,
		   struct patch_series *series)
{
	struct reader r = { .name = name };
	size_t *starts_at = NULL, nstarts = 0, i, first;
	int ret = 0;

	if (!len || !memchr(buf, '\n', len) || all_blank(buf, len)) {
		error("gate: %s: empty input", name);
		return -1;
	}
	if (memchr(buf, '\0', len)) {
		error("gate: %s: not a text patch (NUL byte at offset %zu)", name,
		      (size_t)((const char *)memchr(buf, '\0', len) - buf));
		return -1;
	}
	split_lines(&r, buf, len);
	/* Patch boundaries: mbox "From " lines; the text before the first one is its. */
	starts_at = xrealloc(NULL, (r.nlines + 1) * sizeof(*starts_at));
	starts_at[nstarts++] = 0;
	for (i = 1; i < r.nlines; i++)
		if (is_from_line(&r.lines[i]))
			starts_at[nstarts++] = i;
	starts_at[nstarts] = r.nlines;
	first = series->npatches;
	for (i = 0; i < nstarts; i++) {
		struct patch *p;
		size_t s = starts_at[i], e = starts_at[i + 1];
		const char *tb = r.lines[s].s;
		const char *te = e < r.nlines ? r.lines[e].s : buf + len;

		series->patches = xrealloc(series->patches,
					   (series->npatches + 1) * sizeof(*series->patches));
		p = &series->patches[series->npatches++];
		memset(p, 0, sizeof(*p));
		p->input = strdup(name);
		if (!p->input)
			die("out of memory");
		p->index = (unsigned int)series->npatches;
		p->nth = (unsigned int)(i + 1);
		p->count = (unsigned int)nstarts;
		p->first_line = r.lines[s].no;
		p->len = (size_t)(te - tb);
		p->text = xmemdupz(tb, p->len);
	}
	for (i = 0; i < nstarts && !ret; i++)
		ret = parse_patch(&r, &series->patches[first + i], starts_at[i], starts_at[i + 1]);
	if (!ret)
		drop_covers(series, first);
	free(starts_at);
	free(r.lines);
	return ret;
}

int patch_read_file(const char *path, struct patch_series *series)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	FILE *fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf = NULL;
	size_t len = 0, alloc = 0, n;
	int ret;

	if (!fp) {
		error("gate: %s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (alloc - len < 65536) {
			alloc = alloc ? 2 * alloc : 65536;
			buf = xrealloc(buf, alloc);
		}
		n = fread(buf + len, 1, alloc - len, fp);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(fp)) {
		error("gate: %s: read error: %s", name, strerror(errno));
		if (fp != stdin)
			fclose(fp);
		free(buf);
		return -1;
	}
	if (fp != stdin)
		fclose(fp);
	ret = patch_read_buf(name, buf, len, series);
	free(buf);
	return ret;
}

static void patch_free(struct patch *p)
{
	size_t i, j;

	for (i = 0; i < p->nfiles; i++) {
		for (j = 0; j < p->files[i].nlines; j++)
			free(p->files[i].lines[j].text);
		free(p->files[i].lines);
		free(p->files[i].old_path);
		free(p->files[i].new_path);
	}
	free(p->files);
	free(p->input);
	free(p->subject);
	free(p->text);
	free(p->cover);
}

void patch_series_free(struct patch_series *series)
{
	size_t i;

	for (i = 0; i < series->npatches; i++)
		patch_free(&series->patches[i]);
	free(series->patches);
	series->patches = NULL;
	series->npatches = 0;
}

const char *patch_name(const struct patch *p, char *buf, size_t size)
{
	if (p->count > 1)
		snprintf(buf, size, "%s (patch %u/%u)", p->input, p->nth, p->count);
	else
		snprintf(buf, size, "%s", p->input);
	return buf;
}
