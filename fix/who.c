// SPDX-License-Identifier: GPL-2.0
/*
 * fix_who: who can read what a function prints, from how its file is
 * registered in the same source file: the proc, debugfs, tracefs,
 * securityfs or sysfs call (or attribute macro) that names the function,
 * directly or through the structures and functions that refer to it
 * (seq_operations, an open function, file_operations or proc_ops,
 * DEFINE_SHOW_ATTRIBUTE()), and the subsystem helpers that create the
 * file elsewhere (a SCSI host's .show_info, the tracing output code).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/fix.h"
#include "lib/ptrguard.h"
#include "model/tokenize.h"

static int word_char(char c)
{
	return tok_name_byte((unsigned char)c);
}

/* Does @s[0..n) hold @w as a whole word? */
static int has_word(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w), i;

	for (i = 0; i + wl <= n; i++)
		if (!memcmp(s + i, w, wl) && (i == 0 || !word_char(s[i - 1])) &&
		    (i + wl == n || !word_char(s[i + wl])))
			return 1;
	return 0;
}

/* ---- the top-level definitions of a file: name and body ---- */

struct block {
	char *name;
	size_t start, end;		/* the body, braces included */
};

/* Skip a comment or literal at @t[i] (model/tokenize.c reads it); the index after it, or @i. */
static size_t skip_noise(const char *t, size_t n, size_t i)
{
	if (t[i] == '/')
		return tok_skip_blank(t, n, i);
	if (t[i] == '"' || t[i] == '\'')
		return tok_end(t, n, i);
	return i;
}

/* The name a header defines: before '=' (a variable), else before '(' (a function). */
static char *header_name(const char *h, size_t n)
{
	const char *eq = memchr(h, '=', n), *par = memchr(h, '(', n);
	const char *end = eq ? eq : par, *s;

	if (!end)
		return NULL;
	while (end > h && !word_char(end[-1]))
		end--;
	for (s = end; s > h && word_char(s[-1]); s--)
		;
	return s < end ? xstrndup(s, (size_t)(end - s)) : NULL;
}

/* The top-level definitions of @t: what comes between ";", "}" or a directive and a "{". */
static struct block *blocks_of(const char *t, size_t n, size_t *nb)
{
	struct block *b = NULL;
	size_t head = 0, start = 0, cnt = 0;
	int depth = 0;
	struct tok_state s;
	struct token k;

	tok_start(&s, t, n, 0);
	while (tok_next(&s, &k)) {
		char c = k.kind == TOK_PUNCT && k.len == 1 ? t[k.off] : 0;

		if (k.dir) {
			if (!depth)
				head = k.off + k.len;
		} else if (c == '{') {
			if (!depth++)
				start = k.off;
		} else if (c == '}' && depth > 0) {
			if (!--depth) {
				char *name = header_name(t + head, start - head);

				if (name) {
					b = xrealloc(b, (cnt + 1) * sizeof(*b));
					b[cnt].name = name;
					b[cnt].start = start;
					b[cnt++].end = k.off + 1;
				}
				head = k.off + 1;
			}
		} else if (c == ';' && !depth) {
			head = k.off + 1;
		}
	}
	*nb = cnt;
	return b;
}

/* ---- the names that lead to the function ---- */

struct names {
	char **v;
	size_t n;
};

static int in_names(const struct names *r, const char *s)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->v[i], s))
			return 1;
	return 0;
}

static int add_name(struct names *r, char *s)
{
	if (in_names(r, s)) {
		free(s);
		return 0;
	}
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	r->v[r->n++] = s;
	return 1;
}

static int mentions(const char *s, size_t n, const struct names *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (has_word(s, n, r->v[i]))
			return 1;
	return 0;
}

/* The arguments of the call whose '(' is at @t[open]: pointers into a copy. */
static char **call_args(const char *t, size_t n, size_t open, size_t *nargs, size_t *close)
{
	char **a = NULL;
	size_t i = open + 1, s = open + 1, cnt = 0;
	int depth = 1;

	while (i < n && depth) {
		size_t j = skip_noise(t, n, i);

		if (j != i) {
			i = j;
			continue;
		}
		if (t[i] == '(' || t[i] == '{' || t[i] == '[')
			depth++;
		else if (t[i] == ')' || t[i] == '}' || t[i] == ']')
			depth--;
		if ((t[i] == ',' && depth == 1) || !depth) {
			const char *b = t + s, *e = t + i;

			while (b < e && isspace((unsigned char)*b))
				b++;
			while (e > b && isspace((unsigned char)e[-1]))
				e--;
			a = xrealloc(a, (cnt + 1) * sizeof(*a));
			a[cnt++] = xstrndup(b, (size_t)(e - b));
			s = i + 1;
		}
		i++;
	}
	*nargs = cnt;
	*close = i;
	return a;
}

static void free_args(char **a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(a[i]);
	free(a);
}

/*
 * Each call of @fn in @t: its arguments to @cb, which returns non-zero
 * to stop.  Returns what @cb returned last.
 */
static int each_call(const char *t, size_t n, const char *fn,
		     int (*cb)(void *ctx, char **args, size_t nargs), void *ctx)
{
	size_t fl = strlen(fn), i;

	for (i = 0; i + fl < n; i++) {
		size_t j = skip_noise(t, n, i), k, na, close;
		char **args;
		int rc;

		if (j != i) {
			i = j - 1;
			continue;
		}
		if (memcmp(t + i, fn, fl) || (i && word_char(t[i - 1])) || word_char(t[i + fl]))
			continue;
		for (k = i + fl; k < n && isspace((unsigned char)t[k]); k++)
			;
		if (k >= n || t[k] != '(')
			continue;
		args = call_args(t, n, k, &na, &close);
		rc = cb(ctx, args, na);
		free_args(args, na);
		if (rc)
			return rc;
		i = close - 1;
	}
	return 0;
}

/* DEFINE_SHOW_ATTRIBUTE(x) and its kin define x_fops or x_proc_ops from x_show or x_sops. */
struct macro_ctx {
	struct names *r;
	const char *suffix;
	int added;
};

static int define_attr(void *ctx, char **args, size_t na)
{
	struct macro_ctx *m = ctx;
	char *show, *sops;

	if (na != 1)
		return 0;
	show = xasprintf("%s_show", args[0]);
	sops = xasprintf("%s_sops", args[0]);
	if (in_names(m->r, show) || in_names(m->r, sops))
		m->added |= add_name(m->r, xasprintf("%s%s", args[0], m->suffix));
	free(show);
	free(sops);
	return 0;
}

static void closure(const char *t, size_t n, const char *func, struct names *r)
{
	static const struct { const char *macro, *suffix; } macros[] = {
		{ "DEFINE_SHOW_ATTRIBUTE", "_fops" }, { "DEFINE_SHOW_STORE_ATTRIBUTE", "_fops" },
		{ "DEFINE_SEQ_ATTRIBUTE", "_fops" }, { "DEFINE_PROC_SHOW_ATTRIBUTE", "_proc_ops" },
	};
	size_t nb, i, round;
	struct block *b = blocks_of(t, n, &nb);

	add_name(r, xstrdup(func));
	for (round = 0; round < 6; round++) {
		int added = 0;

		for (i = 0; i < nb; i++)
			if (!in_names(r, b[i].name) && mentions(t + b[i].start, b[i].end - b[i].start, r))
				added |= add_name(r, xstrdup(b[i].name));
		for (i = 0; i < sizeof(macros) / sizeof(macros[0]); i++) {
			struct macro_ctx m = { r, macros[i].suffix, 0 };

			each_call(t, n, macros[i].macro, define_attr, &m);
			added |= m.added;
		}
		if (!added)
			break;
	}
	for (i = 0; i < nb; i++)
		free(b[i].name);
	free(b);
}

/* ---- modes ---- */

/* The value of a mode expression (0444, S_IRUGO | S_IWUSR, TRACE_MODE_READ); -1 if unknown. */
static long mode_value(const char *e)
{
	static const struct { const char *name; long v; } names[] = {
		{ "S_IRWXUGO", 0777 }, { "S_IALLUGO", 07777 }, { "S_IRUGO", 0444 },
		{ "S_IWUGO", 0222 }, { "S_IXUGO", 0111 }, { "S_IRWXU", 0700 }, { "S_IRUSR", 0400 },
		{ "S_IWUSR", 0200 }, { "S_IXUSR", 0100 }, { "S_IRWXG", 070 }, { "S_IRGRP", 040 },
		{ "S_IWGRP", 020 }, { "S_IXGRP", 010 }, { "S_IRWXO", 07 }, { "S_IROTH", 04 },
		{ "S_IWOTH", 02 }, { "S_IXOTH", 01 }, { "TRACE_MODE_WRITE", 0640 },
		{ "TRACE_MODE_READ", 0440 },
	};
	long v = 0;
	const char *p = e;

	while (*p) {
		size_t k;

		while (isspace((unsigned char)*p) || *p == '(' || *p == ')')
			p++;
		if (!*p)
			break;
		if (isdigit((unsigned char)*p)) {
			char *end;

			v |= strtol(p, &end, *p == '0' ? 8 : 10);
			p = end;
		} else {
			for (k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
				size_t l = strlen(names[k].name);

				if (!strncmp(p, names[k].name, l) && !word_char(p[l])) {
					v |= names[k].v;
					p += l;
					break;
				}
			}
			if (k == sizeof(names) / sizeof(names[0]))
				return -1;
		}
		while (isspace((unsigned char)*p) || *p == ')')
			p++;
		if (*p == '|')
			p++;
		else if (*p)
			return -1;
	}
	return v;
}

/* ---- paths ---- */

/* A string literal's text, or the expression in <>. */
static char *name_of(const char *arg)
{
	size_t l = strlen(arg);

	if (l >= 2 && arg[0] == '"' && arg[l - 1] == '"' && !memchr(arg + 1, '"', l - 2))
		return xstrndup(arg + 1, l - 2);
	return xasprintf("<%s>", arg);
}

struct dir_ctx {
	const char *var;
	char *name, *parent;
};

/* "VAR = mkdir(NAME, PARENT)" in @t: NAME and PARENT of the call assigned to @var. */
static int find_dir(const char *t, size_t n, const char *mkdir, const char *var,
		    char **name, char **parent)
{
	size_t ml = strlen(mkdir), i;

	for (i = 0; i + ml < n; i++) {
		size_t k, na, close;
		const char *v;
		char **args;

		if (memcmp(t + i, mkdir, ml) || (i && word_char(t[i - 1])) || word_char(t[i + ml]))
			continue;
		/* what comes before: "var =" */
		k = i;
		while (k > 0 && isspace((unsigned char)t[k - 1]))
			k--;
		if (!k || t[k - 1] != '=')
			continue;
		k--;
		while (k > 0 && isspace((unsigned char)t[k - 1]))
			k--;
		for (v = t + k; v > t && word_char(v[-1]); v--)
			;
		if ((size_t)(t + k - v) != strlen(var) || memcmp(v, var, strlen(var)))
			continue;
		for (k = i + ml; k < n && isspace((unsigned char)t[k]); k++)
			;
		if (k >= n || t[k] != '(')
			continue;
		args = call_args(t, n, k, &na, &close);
		if (na >= 2) {
			*name = name_of(args[0]);
			*parent = xstrdup(args[1]);
			free_args(args, na);
			return 1;
		}
		free_args(args, na);
	}
	return 0;
}

/* The path of @name below @parent: "ROOT/dir/name", "ROOT/.../name" when not known. */
static char *path_in(const char *t, size_t n, const char *root, const char *mkdir,
		     const char *parent, const char *name)
{
	char *path = xstrdup(name), *p = xstrdup(parent);
	int depth;

	for (depth = 0; depth < 8; depth++) {
		char *dn, *dp, *s;

		if (!strcmp(p, "NULL") || !strcmp(p, "0")) {
			s = xasprintf("%s/%s", root, path);
			free(path);
			free(p);
			return s;
		}
		if (!find_dir(t, n, mkdir, p, &dn, &dp))
			break;
		s = xasprintf("%s/%s", dn, path);
		free(path);
		free(p);
		free(dn);
		path = s;
		p = dp;
	}
	{
		char *s = xasprintf("%s/.../%s", root, path);

		free(path);
		free(p);
		return s;
	}
}

/* ---- the registrations ---- */

enum fs { FS_PROC, FS_PROC_NET, FS_DEBUGFS, FS_TRACEFS, FS_SECURITYFS };

static const struct creator {
	const char *fn;
	enum fs fs;
	int name, mode, parent;		/* argument positions; mode -1: 0444 */
} creators[] = {
	{ "proc_create", FS_PROC, 0, 1, 2 },
	{ "proc_create_data", FS_PROC, 0, 1, 2 },
	{ "proc_create_seq", FS_PROC, 0, 1, 2 },
	{ "proc_create_seq_data", FS_PROC, 0, 1, 2 },
	{ "proc_create_seq_private", FS_PROC, 0, 1, 2 },
	{ "proc_create_single", FS_PROC, 0, 1, 2 },
	{ "proc_create_single_data", FS_PROC, 0, 1, 2 },
	{ "proc_create_net", FS_PROC_NET, 0, 1, 2 },
	{ "proc_create_net_data", FS_PROC_NET, 0, 1, 2 },
	{ "proc_create_net_single", FS_PROC_NET, 0, 1, 2 },
	{ "debugfs_create_file", FS_DEBUGFS, 0, 1, 2 },
	{ "debugfs_create_file_unsafe", FS_DEBUGFS, 0, 1, 2 },
	{ "debugfs_create_file_size", FS_DEBUGFS, 0, 1, 2 },
	{ "debugfs_create_devm_seqfile", FS_DEBUGFS, 1, -1, 2 },
	{ "trace_create_file", FS_TRACEFS, 0, 1, 2 },
	{ "tracefs_create_file", FS_TRACEFS, 0, 1, 2 },
	{ "securityfs_create_file", FS_SECURITYFS, 0, 1, 2 },
};

/* The attribute macros of sysfs: the show function is NAME_show. */
static const struct attr_macro {
	const char *macro, *where;
	long mode;			/* -1: the mode is the second argument */
} attr_macros[] = {
	{ "DEVICE_ATTR_RO", "/sys/devices/.../", 0444 },
	{ "DEVICE_ATTR_RW", "/sys/devices/.../", 0644 },
	{ "DEVICE_ATTR_ADMIN_RO", "/sys/devices/.../", 0400 },
	{ "DEVICE_ATTR_ADMIN_RW", "/sys/devices/.../", 0600 },
	{ "DEVICE_ATTR", "/sys/devices/.../", -1 },
	{ "DRIVER_ATTR_RO", "/sys/bus/.../drivers/.../", 0444 },
	{ "DRIVER_ATTR_RW", "/sys/bus/.../drivers/.../", 0644 },
	{ "BUS_ATTR_RO", "/sys/bus/.../", 0444 },
	{ "BUS_ATTR_RW", "/sys/bus/.../", 0644 },
	{ "CLASS_ATTR_RO", "/sys/class/.../", 0444 },
	{ "CLASS_ATTR_RW", "/sys/class/.../", 0644 },
	{ "__ATTR_RO", "/sys/.../", 0444 },
	{ "__ATTR_RW", "/sys/.../", 0644 },
	{ "__ATTR_RO_MODE", "/sys/.../", -1 },
	{ "__ATTR", "/sys/.../", -1 },
};

struct reg_ctx {
	const char *text;
	size_t n;
	const struct names *r;
	const struct creator *cr;
	const struct attr_macro *am;
	const char *func;
	struct fix_who *w;
};

/* "mode 0" or "mode S_IRUSR (0400)": the mode as written, and its value when that differs. */
static char *mode_words(const char *expr, long v)
{
	char oct[16];

	snprintf(oct, sizeof(oct), "%04lo", v);
	if (v < 0 || !strcmp(expr, oct) || (expr[0] == '0' && mode_value(expr) == v &&
					     strspn(expr, "01234567") == strlen(expr)))
		return xasprintf("mode %s", expr);
	return xasprintf("mode %s (%s)", expr, oct);
}

static void set_who(struct fix_who *w, int rank, const char *readers, char *fact)
{
	w->rank = rank;
	w->readers = xstrdup(readers);
	w->fact = fact;
}

static int creator_call(void *ctx, char **args, size_t na)
{
	struct reg_ctx *c = ctx;
	const struct creator *cr = c->cr;
	char *name, *path, *mode, *fact;
	const char *mexpr;
	size_t i;
	long v;
	int mine = 0;

	for (i = 0; i < na; i++)
		if (mentions(args[i], strlen(args[i]), c->r))
			mine = 1;
	if (!mine || (size_t)cr->name >= na || (size_t)cr->parent >= na ||
	    (cr->mode >= 0 && (size_t)cr->mode >= na))
		return 0;
	name = name_of(args[cr->name]);
	mexpr = cr->mode >= 0 ? args[cr->mode] : "0444";
	v = mode_value(mexpr);
	switch (cr->fs) {
	case FS_PROC:
		path = path_in(c->text, c->n, "/proc", "proc_mkdir", args[cr->parent], name);
		break;
	case FS_PROC_NET:
		path = xasprintf("/proc/net/%s", name);
		break;
	case FS_DEBUGFS:
		path = path_in(c->text, c->n, "/sys/kernel/debug", "debugfs_create_dir",
			       args[cr->parent], name);
		break;
	case FS_TRACEFS:
		path = path_in(c->text, c->n, "/sys/kernel/tracing", "tracefs_create_dir",
			       args[cr->parent], name);
		break;
	default:
		path = path_in(c->text, c->n, "/sys/kernel/security", "securityfs_create_dir",
			       args[cr->parent], name);
		break;
	}
	mode = cr->mode >= 0 ? mode_words(mexpr, v) : xstrdup("mode 0444 (its own)");
	if (v < 0) {
		fact = xasprintf("%s() prints into %s, created by %s() with %s.", c->func, path,
				 cr->fn, mode);
		set_who(c->w, FIX_WHO_UNKNOWN, "every reader of the file", fact);
	} else if (cr->fs == FS_DEBUGFS) {
		fact = xasprintf("%s() prints into %s, created by %s() with %s. debugfs is mounted with its root directory 0700 unless a mode= mount option opens it, so only root can read it.",
				 c->func, path, cr->fn, mode);
		set_who(c->w, FIX_WHO_ROOT, "root", fact);
	} else if (cr->fs == FS_TRACEFS) {
		fact = xasprintf("%s() prints into %s, created by %s() with %s. tracefs is mounted with its root directory 0700 unless mode= or gid= mount options open it, so only root can read it.",
				 c->func, path, cr->fn, mode);
		set_who(c->w, FIX_WHO_ROOT, "root", fact);
	} else {
		const char *made = "";

		if ((cr->fs == FS_PROC || cr->fs == FS_PROC_NET) && !(v & 07777)) {
			made = ", which proc turns into 0444";
			v = 0444;
		}
		if (v & 04) {
			fact = xasprintf("%s() prints into %s, created by %s() with %s%s: every user can read it.",
					 c->func, path, cr->fn, mode, made);
			set_who(c->w, FIX_WHO_EVERYONE, "every user", fact);
		} else {
			fact = xasprintf("%s() prints into %s, created by %s() with %s%s: only root, its owner and group, can read it.",
					 c->func, path, cr->fn, mode, made);
			set_who(c->w, FIX_WHO_ROOT, "root", fact);
		}
	}
	free(name);
	free(path);
	free(mode);
	return 1;
}

static int attr_call(void *ctx, char **args, size_t na)
{
	struct reg_ctx *c = ctx;
	const struct attr_macro *am = c->am;
	const char *mexpr = NULL;
	char *show, *mode, *fact;
	long v = am->mode;
	int mine;

	if (!na)
		return 0;
	show = xasprintf("%s_show", args[0]);
	mine = in_names(c->r, show);
	free(show);
	if (am->mode < 0) {
		if (na < 2)
			return 0;
		mexpr = args[1];
		v = mode_value(mexpr);
		if (na >= 3 && mentions(args[2], strlen(args[2]), c->r))
			mine = 1;
	}
	if (!mine)
		return 0;
	if (mexpr) {
		mode = mode_words(mexpr, v);
	} else {
		char oct[16];

		snprintf(oct, sizeof(oct), "%04lo", v);
		mode = xasprintf("mode %s", oct);
	}
	if (v < 0) {
		fact = xasprintf("%s() is the show function of the sysfs attribute %s%s (%s(), %s).",
				 c->func, am->where, args[0], am->macro, mode);
		set_who(c->w, FIX_WHO_UNKNOWN, "every reader of the file", fact);
	} else if (v & 04) {
		fact = xasprintf("%s() is the show function of the sysfs attribute %s%s (%s(), %s): every user can read it.",
				 c->func, am->where, args[0], am->macro, mode);
		set_who(c->w, FIX_WHO_EVERYONE, "every user", fact);
	} else {
		fact = xasprintf("%s() is the show function of the sysfs attribute %s%s (%s(), %s): only root can read it.",
				 c->func, am->where, args[0], am->macro, mode);
		set_who(c->w, FIX_WHO_ROOT, "root", fact);
	}
	free(mode);
	return 1;
}

/*
 * The value of the first initializer ".@field = VALUE" in @t whose VALUE
 * is one token of kind @kind; its token in *@v.  0 if none.
 */
static int designated(const char *t, size_t n, const char *field, int kind, struct token *v,
		      const struct names *r)
{
	struct tok_state s;
	struct token k[4];
	size_t i;

	tok_start(&s, t, n, 0);
	memset(k, 0, sizeof(k));
	for (i = 0; tok_next(&s, &k[i % 4]); i++) {
		const struct token *dot = &k[(i + 1) % 4], *name = &k[(i + 2) % 4];
		const struct token *eq = &k[(i + 3) % 4], *val = &k[i % 4];
		char *id;
		int mine;

		if (i < 3 || !tok_is(t, dot, ".") || name->kind != TOK_NAME || !tok_is(t, name, field) ||
		    !tok_is(t, eq, "=") || val->kind != kind)
			continue;
		if (!r) {
			*v = *val;
			return 1;
		}
		id = xstrndup(t + val->off, val->len);
		mine = in_names(r, id);
		free(id);
		if (mine)
			return 1;
	}
	return 0;
}

/* A SCSI host template's .show_info: /proc/scsi/DRIVER/HOST, made by scsi_proc.c. */
static int scsi_show_info(const char *t, size_t n, const struct names *r)
{
	return designated(t, n, "show_info", TOK_NAME, NULL, r);
}

void fix_who(const char *file, const char *text, size_t len, const char *func, struct fix_who *w)
{
	struct names r = { NULL, 0 };
	struct reg_ctx c = { text, len, &r, NULL, NULL, func, w };
	size_t i;

	memset(w, 0, sizeof(*w));
	closure(text, c.n, func, &r);
	for (i = 0; i < sizeof(creators) / sizeof(creators[0]) && !w->fact; i++) {
		c.cr = &creators[i];
		each_call(text, c.n, creators[i].fn, creator_call, &c);
	}
	for (i = 0; i < sizeof(attr_macros) / sizeof(attr_macros[0]) && !w->fact; i++) {
		c.am = &attr_macros[i];
		each_call(text, c.n, attr_macros[i].macro, attr_call, &c);
	}
	if (!w->fact && scsi_show_info(text, len, &r)) {
		char *drv = NULL;
		struct token p;

		/* the directory is the template's proc_name, when it is a literal */
		if (designated(text, len, "proc_name", TOK_STRING, &p, NULL) && text[p.off] == '"')
			drv = xstrndup(text + p.off + 1, p.len - 2);
		set_who(w, FIX_WHO_EVERYONE, "every user",
			xasprintf("%s() is the .show_info of a SCSI host template: it prints into /proc/scsi/%s/HOST_NUMBER, which scsi_proc_host_add() (drivers/scsi/scsi_proc.c) creates with mode S_IRUGO | S_IWUSR (0644): every user can read it.",
				  func, drv ? drv : "PROC_NAME"));
		free(drv);
	}
	if (!w->fact && !strcmp(file, "kernel/trace/trace_output.c"))
		set_who(w, FIX_WHO_ROOT, "root",
			xasprintf("%s() prints trace events into the tracefs files trace (TRACE_MODE_WRITE, 0640) and trace_pipe (TRACE_MODE_READ, 0440), which kernel/trace/trace.c creates under /sys/kernel/tracing. tracefs is mounted with its root directory 0700 unless mode= or gid= mount options open it, so only root can read them.",
				  func));
	if (!w->fact)
		set_who(w, FIX_WHO_UNKNOWN, "every reader of this seq_file", NULL);
	for (i = 0; i < r.n; i++)
		free(r.v[i]);
	free(r.v);
}

void fix_who_free(struct fix_who *w)
{
	free(w->fact);
	free(w->readers);
	memset(w, 0, sizeof(*w));
}
