// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard scan: find kernel addresses that a running system shows to
 * user space in /proc, /sys, debugfs and tracefs.
 *
 * This file owns the options and the default roots; scan/priv.c drops
 * privileges (for --as-user and the readable-by check), scan/walk.c
 * reads the files, scan/match.c finds the values, addr.c decides what is
 * a kernel address, scan/readable.c who can read it, scan/out.c prints.
 * docs/scan.md.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/parse-options.h"
#include "lib/ptrguard.h"
#include "scan/scan.h"

static const struct cmd_help help = {
	.name = "scan",
	.summary = "find kernel addresses leaked by a running system",
	.args = "[ROOT...]",
	.description =
"    Read every regular file under the roots (default: /proc, /sys and the\n"
"    mounted debugfs and tracefs) and report kernel addresses in them.\n"
"\n"
"    Each finding says what the address is (region, and symbol+offset when\n"
"    kallsyms shows real values) and who can read it: 'readable-by: everyone'\n"
"    (an unprivileged user read it too), 'root' (only with privileges), or\n"
"    'unknown' (no way to switch to an unprivileged user to check).\n"
"    Listed (in every format) and counted for the exit status are the\n"
"    findings others than root can read, and not in the --baseline; those\n"
"    only root reads are one line per file on stderr.  --all lists all.\n"
"    Symlinks below the roots are never followed.  Skipped files are listed\n"
"    on stderr with the reason.\n",
	.trailer =
"EXIT STATUS\n"
"    0 nothing found that others than root can read (with --all: nothing\n"
"    found), or all in the baseline; 1 kernel addresses found,\n"
"    2 error (usage, input, a write error on stdout).\n",
};

/* A number with an optional K/M/G suffix; -1 if malformed. */
static long long parse_size(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || v < 0)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'G': v <<= 10; /* fall through */
	case 'M': v <<= 10; /* fall through */
	case 'K': v <<= 10; end++; break;
	case '\0': break;
	default: return -1;
	}
	return *end ? -1 : v;
}

static int parse_pids(struct scan_opts *o, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int ret = 0;

	if (!copy)
		die("scan: out of memory");
	o->pids = PIDS_LIST;
	o->pid_self = false;
	o->npid = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long pid;

		if (!strcmp(tok, "all")) {
			o->pids = PIDS_ALL;
		} else if (!strcmp(tok, "self")) {
			o->pid_self = true;
		} else if (!strcmp(tok, "none")) {
			;
		} else {
			errno = 0;
			pid = strtol(tok, &end, 10);
			if (errno || *end || end == tok || pid <= 0) {
				ret = -1;
				break;
			}
			o->pid_list = realloc(o->pid_list, (o->npid + 1) * sizeof(long));
			if (!o->pid_list)
				die("scan: out of memory");
			o->pid_list[o->npid++] = pid;
		}
	}
	free(copy);
	return ret;
}

/* uid and primary gid of USER[:GID], USER a uid or an /etc/passwd name. */
static int parse_user(const char *arg, uid_t *uid, gid_t *gid)
{
	char name[256], *colon, *end;
	bool have_gid = false, numeric;
	char *line = NULL;
	size_t cap = 0;
	unsigned long v;
	FILE *f;
	int found = 0;

	snprintf(name, sizeof(name), "%s", arg);
	colon = strchr(name, ':');
	if (colon) {
		*colon++ = '\0';
		errno = 0;
		v = strtoul(colon, &end, 10);
		if (errno || *end || end == colon || v > 0xfffffffeUL)
			return -1;
		*gid = (gid_t)v;
		have_gid = true;
	}
	errno = 0;
	v = strtoul(name, &end, 10);
	numeric = !errno && !*end && end != name && v <= 0xfffffffeUL;
	if (numeric)
		*uid = (uid_t)v;
	f = fopen("/etc/passwd", "re");
	while (f && getline(&line, &cap, f) > 0) {
		char *fld[4], *p = line;
		int i;

		for (i = 0; i < 4; i++)
			fld[i] = strsep(&p, ":");
		if (!fld[3])
			continue;
		if (numeric ? strtoul(fld[2], NULL, 10) == *uid : !strcmp(fld[0], name)) {
			*uid = (uid_t)strtoul(fld[2], NULL, 10);
			if (!have_gid)
				*gid = (gid_t)strtoul(fld[3], NULL, 10);
			found = 1;
			break;
		}
	}
	free(line);
	if (f)
		fclose(f);
	if (!numeric && !found)
		return -1;
	if (!found && !have_gid)
		*gid = (gid_t)*uid;
	return 0;
}

/* --as-user USER[:GID] */
struct as_user {
	const char *arg;
	uid_t uid;
	gid_t gid;
};

static int opt_as_user(const struct option *opt, const char *arg, int unset)
{
	struct as_user *u = opt->value;

	(void)unset;
	if (parse_user(arg, &u->uid, &u->gid) < 0) {
		error("--as-user %s: not a uid, uid:gid or user name", arg);
		return -1;
	}
	u->arg = arg;
	return 0;
}

/* --check-as USER[:GID]: anyone but root */
static int opt_check_as(const struct option *opt, const char *arg, int unset)
{
	struct as_user *u = opt->value;

	(void)unset;
	if (parse_user(arg, &u->uid, &u->gid) < 0 || !u->uid) {
		error("--check-as %s: not a uid, uid:gid or user name other than root", arg);
		return -1;
	}
	u->arg = arg;
	return 0;
}

/* --arch ARCH */
struct arch {
	const char *name;
	unsigned int va_bits, page_kb;
};

static int opt_arch(const struct option *opt, const char *arg, int unset)
{
	struct arch *a = opt->value;

	(void)unset;
	if (addr_parse_arch(arg, &a->name, &a->va_bits, &a->page_kb) < 0) {
		error("--arch %s: want x86_64[:48|57] or arm64[:39|42|47|48|52[:4k|16k|64k]] (a layout we know)",
		      arg);
		return -1;
	}
	return 0;
}

static int opt_pids(const struct option *opt, const char *arg, int unset)
{
	(void)unset;
	if (parse_pids(opt->value, arg) < 0) {
		error("--pids %s: want self, all, none or pids, comma-separated", arg);
		return -1;
	}
	return 0;
}

/* --timeout SECONDS (a fraction too), per file */
static int opt_timeout(const struct option *opt, const char *arg, int unset)
{
	uint64_t *ms = opt->value;
	double secs;
	char *end;

	(void)unset;
	errno = 0;
	secs = strtod(arg, &end);
	if (errno || *end || end == arg || !(secs > 0) || secs > 86400) {
		error("--timeout %s: want seconds, more than 0", arg);
		return -1;
	}
	*ms = (uint64_t)(secs * 1000.0);
	if (!*ms)
		*ms = 1;
	return 0;
}

/* --max-size BYTES (defval 0), --read-size BYTES (defval: its limit) */
static int opt_size(const struct option *opt, const char *arg, int unset)
{
	long long v = parse_size(arg);

	(void)unset;
	if (v < 1 || (opt->defval && v > opt->defval)) {
		if (opt->defval)
			error("--%s %s: want 1 to 16M", opt->long_name, arg);
		else
			error("--%s %s: want a size such as 4096, 64K, 8M", opt->long_name, arg);
		return -1;
	}
	if (opt->defval)
		*(size_t *)opt->value = (size_t)v;
	else
		*(uint64_t *)opt->value = (uint64_t)v;
	return 0;
}

static void free_roots(char **roots, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(roots[i]);
	free(roots);
}

struct model_load {
	struct addr_model *m;
	bool quiet;
	uint64_t ns;		/* --debug-times: how long the finish took */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* Finish the model and say which one it is. */
static int load_model(void *arg)
{
	struct model_load *l = arg;
	uint64_t t = now_ns();
	int rc = addr_model_finish(l->m);

	l->ns = now_ns() - t;
	if (rc < 0)
		return -1;
	if (!l->quiet)
		fprintf(stderr, "scan: model: %s\n", l->m->desc);
	return 0;
}

/*
 * --debug-times: where the time went, in seconds, one line on stderr:
 * total; setup (options to the walk, layout probe included); probe (uname,
 * mmap probe); model (reading and parsing /proc/kallsyms, by the main
 * thread while the workers walk, unless --as-user or --kallsyms), of which
 * kread (its read, ms resolution); walk (its wall time); then summed over
 * the workers: dirs (open, fstat and getdents64 of directories), open (open
 * and close of files), read (in read(2)), match (matching, path names
 * included), wait (for the model), other (the rest of their time: the
 * queue, waiting for work, recording findings); readable (the readable-by check, its fork and the re-read as
 * the --check-as user), rfiles (the files it re-read); output.
 */
static void print_times(const struct scan_result *r, uint64_t total, uint64_t setup,
			uint64_t probe, uint64_t model, uint64_t kread, uint64_t readable,
			uint64_t print)
{
	uint64_t busy = r->ns_dirs + r->ns_open + r->ns_read + r->ns_match + r->ns_wait;
	double s = 1e-9;

	fprintf(stderr, "scan: times (s): total=%.3f setup=%.3f probe=%.3f model=%.3f kread=%.3f "
		"walk=%.3f dirs=%.3f open=%.3f read=%.3f match=%.3f wait=%.3f other=%.3f "
		"readable=%.3f rfiles=%zu output=%.3f\n",
		total * s, setup * s, probe * s, model * s, kread * 1e-3, r->ns_wall * s,
		r->ns_dirs * s, r->ns_open * s, r->ns_read * s, r->ns_match * s, r->ns_wait * s,
		(r->ns_workers > busy ? r->ns_workers - busy : 0) * s, readable * s,
		r->nreadable, print * s);
}

int cmd_scan(int argc, char **argv)
{
	struct scan_opts o = {
		.format = FMT_TEXT,
		.timeout_ms = 10000,
		.max_size = 64 << 20,
		.read_size = 65536,
		.pids = PIDS_LIST,
		.pid_self = true,
	};
	struct addr_model model = { 0 };
	struct model_load load;
	struct scan_result res;
	const char *kallsyms = NULL;
	const char *baseline_file = NULL, *write_baseline = NULL;
	struct as_user user = { NULL, 0, 0 }, check = { NULL, 65534, 65534 };
	struct arch arch = { NULL, 0, 0 };
	struct baseline baseline = { 0 };
	bool unpriv, can_switch;
	int quiet = 0, no_progress = 0, verbose = 0, block_fifos = 0, dmesg = 0, ignored = 0;
	int all = 0, times = 0;
	uint64_t t0 = now_ns(), t_probe, t_scan, t_readable, t_print, t_end;
	unsigned int jobs;
	enum pg_format format = FORMAT_DEFAULT;
	char **roots;
	size_t nroots, i;
	long nproc = sysconf(_SC_NPROCESSORS_ONLN);
	int rc, n;
	const struct option opts[] = {
		OPT__FORMAT(&format, FORMATS_REPORT,
			    "text (the default; gcc is another name for it):\n"
			    "FILE:LINE:COLUMN: VALUE: REASON;\n"
			    "json: a list of objects; sarif: SARIF 2.1.0."),
		OPT_CALLBACK(0, "as-user", &user, "USER[:GID]",
			     "Scan as this user (uid or name), with no supplementary groups\n"
			     "and no capabilities.", opt_as_user),
		OPT__JOBS(&jobs, "Worker threads (default: online CPUs, at most 16).", 256),
		OPT_CALLBACK(0, "pids", &o, "LIST",
			     "/proc/PID directories to scan: 'self' (default), 'all', 'none',\n"
			     "or a comma list of pids and 'self'.", opt_pids),
		OPT_CALLBACK(0, "timeout", &o.timeout_ms, "SECONDS",
			     "Time limit per file (default 10).", opt_timeout),
		OPT_CALLBACK(0, "max-size", &o.max_size, "BYTES",
			     "Size limit per file, K/M/G suffixes (default 64M).", opt_size),
		OPT_STRING(0, "kallsyms", &kallsyms, "FILE",
			   "Take the image and module ranges and the symbols from FILE\n"
			   "instead of /proc/kallsyms; 'none': layout only."),
		OPT_CALLBACK(0, "arch", &arch, "ARCH",
			     "The address layout: x86_64[:48|57] or\n"
			     "arm64[:VA_BITS[:4k|16k|64k]], VA_BITS 39, 42, 47, 48 or 52\n"
			     "(default: the running system's, or from the --kallsyms file's\n"
			     "_text).", opt_arch),
		OPT_CALLBACK(0, "check-as", &check, "USER[:GID]",
			     "Re-read the files with findings as this user to tell\n"
			     "readable-by everyone from root (default 65534).", opt_check_as),
		OPT_STRING(0, "baseline", &baseline_file, "FILE",
			   "Findings FILE lists (by file, region and kind) are marked\n"
			   "(baseline) and do not count for the exit status."),
		OPT_STRING(0, "write-baseline", &write_baseline, "FILE",
			   "Write the findings of this scan as a baseline."),
		OPT_BOOL(0, "all", &all,
			 "List every finding: those only root can read and those the\n"
			 "--baseline holds too, each counting for the exit status as\n"
			 "--baseline says."),
		OPT_BOOL(0, "dmesg", &dmesg, "Also read the kernel log (/dev/kmsg, non-blocking)."),
		OPT_BOOL(0, "ignored", &ignored,
			 "Also report the kernel-half values the model ignores (error\n"
			 "pointers, masks, bitmaps), marked."),
		OPT__QUIET(&quiet, "Print findings only (no model, skips, summary)."),
		OPT__VERBOSE(&verbose, "Also list the files that failed to open or read."),
		OPT_BOOL(0, "no-progress", &no_progress, "No progress line on a terminal."),
		/* Debugging and tests: read at most N bytes per read(2). */
		{ OPTION_CALLBACK, 0, "read-size", &o.read_size, "BYTES", "",
		  PARSE_OPT_HIDDEN | PARSE_OPT_NONEG, opt_size, 1 << 24, 0, 0 },
		/* Benchmarks: the time of each phase on stderr (bench/scan*.sh). */
		{ OPTION_BOOL, 0, "debug-times", &times, NULL, "", PARSE_OPT_HIDDEN,
		  NULL, 0, 0, 0 },
		/* Benchmarks: the files read, NUL-separated (bench/scan-floor.c). */
		{ OPTION_STRING, 0, "debug-list-files", &o.list_files, "FILE", "",
		  PARSE_OPT_HIDDEN, NULL, 0, 0, 0 },
		/* Tests: read FIFOs, opened so that read(2) blocks (the watchdog). */
		{ OPTION_BOOL, 0, "debug-block-fifos", &block_fifos, NULL, "", PARSE_OPT_HIDDEN,
		  NULL, 0, 0, 0 },
		OPT_END(),
	};

	jobs = nproc < 1 ? 1 : nproc > 16 ? 16 : (unsigned int)nproc;
	n = parse_options(argc, argv, opts, &help);
	if (n < 0)
		return EXIT_ERROR;
	o.jobs = (int)jobs;
	o.format = format == FORMAT_JSON ? FMT_JSON : format == FORMAT_SARIF ? FMT_SARIF : FMT_TEXT;
	o.block_fifos = block_fifos;
	o.dmesg = dmesg;
	o.ignored = ignored;
	o.all = all;
	o.times = times;

	/* roots: our own copies, with room for /dev/kmsg. */
	if (n > 0) {
		struct stat st;

		nroots = (size_t)n;
		roots = calloc(nroots + 1, sizeof(*roots));
		if (!roots)
			die("scan: out of memory");
		for (i = 0; i < nroots; i++) {
			const char *r = argv[i];

			if (stat(r, &st) < 0) {
				error("scan: %s: %s", r, strerror(errno));
				free_roots(roots, i);
				return EXIT_ERROR;
			}
			roots[i] = xstrdup(r);
		}
	} else {
		nroots = scan_default_roots(&roots);
		if (!nroots) {
			error("scan: neither /proc nor /sys exists: name the roots");
			free(roots);
			return EXIT_ERROR;
		}
	}
	if (o.dmesg)
		roots[nroots++] = xstrdup(KMSG_PATH);

	if (baseline_file && baseline_load(&baseline, baseline_file) < 0) {
		free_roots(roots, nroots);
		return EXIT_ERROR;
	}
	o.baseline = baseline_file != NULL;

	/*
	 * The model is read with our full privileges, before the drop.  With
	 * no drop and no --kallsyms file (which may fail: exit 2 before the
	 * scan), it is read while the workers start reading files.
	 */
	o.model = &model;
	load.m = &model;
	load.quiet = quiet;
	load.ns = 0;
	t_probe = now_ns();
	if (addr_model_begin(&model, kallsyms, arch.name, arch.va_bits, arch.page_kb) < 0) {
		rc = EXIT_ERROR;
		goto out;
	}
	t_probe = now_ns() - t_probe;
	if (!user.arg && !kallsyms) {
		o.load_model = load_model;
		o.load_arg = &load;
	} else if (load_model(&load) < 0 || (user.arg && scan_drop_privileges(user.uid, user.gid) < 0)) {
		rc = EXIT_ERROR;
		goto out;
	}
	if (user.arg) {
		/* What the model read as root is not for the user to scan. */
		addr_model_forget(&model);
		if (!quiet)
			fprintf(stderr, "scan: as uid %u gid %u, no capabilities\n",
				(unsigned int)user.uid, (unsigned int)user.gid);
	}
	o.progress = !quiet && !no_progress && isatty(2);
	/* Checked after the drop: --as-user 0 is root without capabilities. */
	unpriv = scan_unprivileged(&can_switch);

	t_scan = now_ns();
	rc = scan_run(&o, roots, nroots, &res);
	if (rc) {
		rc = EXIT_ERROR;
		goto out;
	}
	t_readable = now_ns();
	scan_readable(&o, &res, unpriv, can_switch, check.uid, check.gid);
	t_readable = now_ns() - t_readable;
	baseline_mark(&baseline, &res);
	if (write_baseline && baseline_write(&res, write_baseline) < 0) {
		rc = EXIT_ERROR;
		scan_result_free(&res);
		goto out;
	}
	t_print = now_ns();
	scan_print(&o, &res, quiet ? -1 : verbose);
	fflush(stdout);
	t_end = now_ns();
	t_print = t_end - t_print;
	if (o.times)
		print_times(&res, t_end - t0, t_scan - t0, t_probe, load.ns,
			    model.ksyms_ms, t_readable, t_print);
	rc = scan_status(&o, &res);
	scan_result_free(&res);
out:
	baseline_free(&baseline);
	addr_model_free(&model);
	free_roots(roots, nroots);
	free(o.pid_list);
	return rc;
}
