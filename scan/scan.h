/* SPDX-License-Identifier: GPL-2.0 */
/* ptrguard scan: the parts of the live-system scanner and what they share. */
#ifndef PTRGUARD_SCAN_H
#define PTRGUARD_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "scan/addr.h"

/* ---- scan/match.c: find candidate values in a byte stream, one pass ---- */

struct scan_hit {
	uint64_t value;
	uint64_t offset;		/* of the first byte of the value */
	unsigned int line, column;	/* 1-based, of the first byte */
	bool binary;			/* an 8-byte little-endian value */
	enum addr_verdict verdict;	/* ADDR_IGNORED or ADDR_KERNEL */
	const char *reason;
	const char *region;		/* ADDR_KERNEL: the region's short name */
	char text[24];			/* as written; hex for binary values */
};

typedef void (*scan_hit_fn)(void *ctx, const struct scan_hit *h);

struct matcher {
	const struct addr_model *model;
	scan_hit_fn hit;
	void *ctx;
	void (*wait)(void *ctx);	/* non-NULL: call before classifying */
	const char *mask_file;		/* non-NULL: the whole file is a bitmap */
	uint64_t off;			/* offset of the next byte */
	uint64_t bol;			/* offset of the first byte of its line */
	unsigned int line;		/* line of the next byte */
	bool dash;			/* the last byte is a '-' after a non-word byte */
	bool intok;
	bool tokneg;
	bool saw_nul;
	unsigned int toklen;
	uint64_t tokoff;
	unsigned int tokline, tokcol;
	const char *label;		/* mask label in force on this line */
	char tok[24];
	unsigned char tail[8];		/* last bytes, for values across reads */
	unsigned int ntail;
};

void matcher_init(struct matcher *mt, const struct addr_model *model,
		  scan_hit_fn hit, void *ctx);
void matcher_feed(struct matcher *mt, const unsigned char *buf, size_t n);
void matcher_end(struct matcher *mt);
/*
 * A text candidate found by someone else (the model's parse of kallsyms:
 * struct addr_kline): h's value, offset, line, column and text set; it is
 * classified and reported as matcher_feed would.
 */
void matcher_hit(struct matcher *mt, struct scan_hit *h);
/* Go on at a line's first byte: offset off, line number line. */
void matcher_seek(struct matcher *mt, uint64_t off, unsigned int line);

/* ---- scan/walk.c (file.c, record.c): walk the roots with -j threads, read every file ---- */

enum scan_format { FMT_TEXT, FMT_JSON, FMT_SARIF };
enum pid_mode { PIDS_LIST, PIDS_ALL };

struct scan_opts {
	const struct addr_model *model;
	enum scan_format format;
	int jobs;
	uint64_t timeout_ms;		/* per file */
	uint64_t max_size;		/* per file */
	size_t read_size;		/* bytes per read(2) */
	enum pid_mode pids;
	bool pid_self;			/* with PIDS_LIST: include /proc/self */
	long *pid_list;
	size_t npid;
	bool ignored;			/* keep ignored candidates too */
	bool progress;			/* progress line on stderr */
	bool block_fifos;		/* debug: read FIFOs, opened blocking */
	bool dmesg;			/* also read the kernel log, /dev/kmsg */
	bool baseline;			/* --baseline given: say what is new */
	bool all;			/* --all: list root-only and baseline findings too */
	bool times;			/* --debug-times: time the phases (stderr) */
	const char *list_files;		/* --debug-list-files: paths read, NUL-separated */
	/*
	 * Non-NULL: the model is not finished yet.  scan_run calls it once
	 * its workers run (they read files meanwhile, and wait for it only
	 * to classify a value); it finishes the model, 0 or -1.
	 */
	int (*load_model)(void *arg);
	void *load_arg;
};

enum {
	REC_BINFILE = 1,		/* file has NUL bytes: report offsets */
	REC_PATH = 2,			/* the value is in the path name */
};

/*
 * Who can read a finding: checked by re-reading as a user (scan/readable.c).
 * READ_ROOT is 0, the value a finding starts with: after the fork of that
 * check the parent writes only the findings that are not root's (a write
 * to each page of the findings, copy-on-write since the fork, would fault
 * them all in again: /proc/kallsyms's 40,000 are root's).
 */
enum readable_by { READ_ROOT, READ_EVERYONE, READ_UNKNOWN };

struct finding_rec {
	const char *file;		/* owned by scan_result.names */
	struct scan_hit hit;
	unsigned int flags;
	unsigned char readable;		/* enum readable_by */
	bool baseline;			/* accepted by --baseline */
};

struct skip_rec {
	char *file;
	char *reason;
	bool error;		/* an open/read error: listed with -v only */
};

struct scan_result {
	struct finding_rec *found;
	size_t nfound, capfound;
	char **names;			/* the file names findings point to */
	size_t nnames, capnames;
	struct skip_rec *skip;
	size_t nskip, capskip;
	uint64_t files, dirs, bytes, symlinks, pids_skipped, dup_dirs;
	uint64_t nkernel, nignored;
	uint64_t nbaseline;		/* kernel addresses --baseline accepts */
	const char *readable_how;	/* how readable-by was found, for the summary */
	double seconds;
	/*
	 * --debug-times: nanoseconds the workers spent, summed over them:
	 * listing directories (open, fstat, getdents64), opening and closing
	 * files, in read(2), matching; and the walk's wall time.
	 */
	uint64_t ns_dirs, ns_open, ns_read, ns_match, ns_workers, ns_wall;
	uint64_t ns_wait;		/* workers waiting for the model */
	size_t nreadable;		/* files the readable-by check re-read */
};

#define KMSG_PATH "/dev/kmsg"
#define KMSG_BUF 65536			/* a read takes one whole record */

/* Walk the roots; 0, or -1 on a fatal error (already reported). */
int scan_run(const struct scan_opts *o, char **roots, size_t nroots,
	     struct scan_result *res);
void scan_result_free(struct scan_result *res);

/* ---- scan/roots.c: what scan reads when given no ROOT ---- */

/*
 * /proc, /sys, and the debugfs and tracefs mounts outside them, in
 * *@roots (malloc()ed, room for one more root, each path malloc()ed);
 * how many.
 */
size_t scan_default_roots(char ***roots);

/* ---- scan/priv.c: privileges, for --as-user (scan.c) and scan/readable.c ---- */

/* Become uid:gid for good, no groups, no capabilities; 0 or -1 (reported). */
int scan_drop_privileges(uid_t uid, gid_t gid);
/*
 * Not root and no effective capabilities: what we read, anyone can.
 * *can_switch: we could become another user (CAP_SETUID and CAP_SETGID).
 */
bool scan_unprivileged(bool *can_switch);

/* ---- scan/readable.c: who can read each finding ---- */

/*
 * Set readable on every kernel-address finding: READ_EVERYONE when the
 * scan itself ran unprivileged (unprivileged true), else by re-reading
 * each file that holds one as uid:gid in a child process (can_switch),
 * else READ_UNKNOWN.  Sets res->readable_how.
 */
void scan_readable(const struct scan_opts *o, struct scan_result *res,
		   bool unprivileged, bool can_switch, uid_t uid, gid_t gid);

/* ---- scan/baseline.c: accepted findings, keyed by file, region, kind ---- */

struct baseline {
	char **keys;			/* sorted */
	size_t n, cap;
};

/* Load FILE; 0, or -1 after a one-line error naming it. */
int baseline_load(struct baseline *b, const char *path);
/* Mark res's findings that b holds; count them in res->nbaseline. */
void baseline_mark(const struct baseline *b, struct scan_result *res);
/* Write the keys of res's kernel-address findings to FILE; 0 or -1 (reported). */
int baseline_write(const struct scan_result *res, const char *path);
void baseline_free(struct baseline *b);

/* ---- scan/out.c: text, JSON and SARIF output ---- */

/*
 * Is finding f listed?  With --all, every one.  Else not those only root
 * reads (summed up per file on stderr) nor those --baseline holds.
 */
bool scan_listed(const struct scan_opts *o, const struct finding_rec *f);
/* The exit status of a scan: 1 when a finding counts, else 0. */
int scan_status(const struct scan_opts *o, const struct scan_result *res);

/* verbosity: -1 quiet, 0 list skips other than plain errors, 1 all */
void scan_print(const struct scan_opts *o, const struct scan_result *res,
		int verbosity);

#endif
