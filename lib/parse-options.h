/* SPDX-License-Identifier: GPL-2.0 */
/*
 * parse-options: one command-line surface for every subcommand, after
 * git's parse-options.  A subcommand describes its options in a table of
 * OPT_*() entries ended by OPT_END(); parse_options() reads argv with it
 * (--opt=value and --opt value, -j2 and -j 2, bundled short flags, --no-X
 * for booleans, "--" ending the options, options and arguments in any
 * order) and --help prints a man-page-like text made from the same table.
 *
 * The options that mean the same thing in several subcommands are the
 * OPT__*() macros below: one spelling, one parser, whatever the command.
 */
#ifndef PTRGUARD_PARSE_OPTIONS_H
#define PTRGUARD_PARSE_OPTIONS_H

#include <stddef.h>

enum parse_opt_type {
	OPTION_END,
	OPTION_GROUP,		/* a heading in --help */
	OPTION_BOOL,		/* int *: 1, or 0 with --no-X */
	OPTION_COUNTUP,		/* int *: +1 each time, 0 with --no-X */
	OPTION_SET_INT,		/* int *: set to defval */
	OPTION_UINT,		/* unsigned int *: a number in [min, max] */
	OPTION_STRING,		/* const char **: the argument */
	OPTION_CALLBACK,	/* callback(opt, arg, unset) */
};

enum {
	PARSE_OPT_NOARG = 1,	/* a callback that takes no argument */
	PARSE_OPT_HIDDEN = 2,	/* not in --help (tests, debugging) */
	PARSE_OPT_NONEG = 4,	/* no --no-X form */
	PARSE_OPT_REQUIRED = 8,	/* must be given: not in [] in the synopsis */
	PARSE_OPT_ARGS = 16,	/* given instead of the arguments (gate --range) */
};

struct option;
/* 0, or -1 after error() ("ptrguard: CMD: ..."). @arg is NULL for NOARG or --no-X. */
typedef int parse_opt_cb(const struct option *opt, const char *arg, int unset);

struct option {
	enum parse_opt_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* the argument's name in --help: "N", "DIR" */
	const char *help;	/* lines separated by '\n' */
	int flags;
	parse_opt_cb *callback;
	long defval;		/* OPTION_SET_INT's value; a callback's own use */
	long min, max;		/* OPTION_UINT's range */
};

#define OPT_END()		{ OPTION_END, 0, NULL, NULL, NULL, NULL, 0, NULL, 0, 0, 0 }
#define OPT_GROUP(h)		{ OPTION_GROUP, 0, NULL, NULL, NULL, (h), 0, NULL, 0, 0, 0 }
#define OPT_BOOL(s, l, v, h)	{ OPTION_BOOL, (s), (l), (v), NULL, (h), 0, NULL, 0, 0, 0 }
#define OPT_COUNTUP(s, l, v, h)	{ OPTION_COUNTUP, (s), (l), (v), NULL, (h), 0, NULL, 0, 0, 0 }
#define OPT_SET_INT(s, l, v, h, i) \
	{ OPTION_SET_INT, (s), (l), (v), NULL, (h), PARSE_OPT_NONEG, NULL, (i), 0, 0 }
#define OPT_UINT(s, l, v, a, h, lo, hi) \
	{ OPTION_UINT, (s), (l), (v), (a), (h), PARSE_OPT_NONEG, NULL, 0, (lo), (hi) }
#define OPT_STRING(s, l, v, a, h)	OPT_STRING_F(s, l, v, a, h, 0)
/* @f: more flags, PARSE_OPT_REQUIRED or PARSE_OPT_ARGS */
#define OPT_STRING_F(s, l, v, a, h, f) \
	{ OPTION_STRING, (s), (l), (v), (a), (h), PARSE_OPT_NONEG | (f), NULL, 0, 0, 0 }
#define OPT_CALLBACK(s, l, v, a, h, cb) \
	{ OPTION_CALLBACK, (s), (l), (v), (a), (h), PARSE_OPT_NONEG, (cb), 0, 0, 0 }
#define OPT_CALLBACK_NOARG(s, l, v, h, cb, d) \
	{ OPTION_CALLBACK, (s), (l), (v), NULL, (h), PARSE_OPT_NOARG | PARSE_OPT_NONEG, (cb), (d), 0, 0 }

/* ---- the shared options: the same spelling in every subcommand ---- */

/*
 * Output formats: --format=FMT, and --json, --sarif for short.  A name
 * means one thing in every command that has it:
 *   text        FILE:LINE:COLUMN: ... lines, as gcc prints ("gcc" is
 *               another name for it);
 *   checkpatch  checkpatch.pl's report: a finding, the line of the patch
 *               input and the line itself (gate);
 *   json        JSON; sarif: SARIF 2.1.0.
 * A command takes the set of them its findings can be written in.
 */
enum pg_format {
	FORMAT_DEFAULT = 0,	/* not given: the command's own default */
	FORMAT_TEXT,
	FORMAT_CHECKPATCH,
	FORMAT_JSON,
	FORMAT_SARIF,
};
#define FORMATS(f)		(1L << (f))
#define FORMATS_REPORT		(FORMATS(FORMAT_TEXT) | FORMATS(FORMAT_JSON) | FORMATS(FORMAT_SARIF))
int parse_opt_format(const struct option *opt, const char *arg, int unset);
const char *format_name(enum pg_format f);

/* -j N, --jobs=N: how many processes or threads work at once. */
#define OPT__JOBS(v, h, hi)	OPT_UINT('j', "jobs", (v), "N", (h), 1, (hi))
/*
 * --format=FMT, --json, --sarif (an enum pg_format *): @formats, the
 * FORMATS() the command writes, is the defval of --format.
 */
#define OPT__FORMAT(v, formats, h) \
	{ OPTION_CALLBACK, 0, "format", (v), "FMT", (h), PARSE_OPT_NONEG, parse_opt_format, \
	  (formats), 0, 0 }, \
	OPT_CALLBACK_NOARG(0, "json", (v), "Short for --format=json.", parse_opt_format, FORMAT_JSON), \
	OPT_CALLBACK_NOARG(0, "sarif", (v), "Short for --format=sarif.", parse_opt_format, FORMAT_SARIF)
/* -v, --verbose (a count: -vv says more). */
#define OPT__VERBOSE(v, h)	OPT_COUNTUP('v', "verbose", (v), (h))
/* -q, --quiet. */
#define OPT__QUIET(v, h)	OPT_BOOL('q', "quiet", (v), (h))
/* --tree DIR: the tree the sources or patches belong to. */
#define OPT__TREE(v, h)		OPT_STRING(0, "tree", (v), "DIR", (h))
/* --kernel KDIR: the kernel an out-of-tree module is built against. */
#define OPT__KERNEL(v, h)	OPT_STRING(0, "kernel", (v), "KDIR", (h))
/* --timeout SECONDS. */
#define OPT__TIMEOUT(v, h, hi)	OPT_UINT(0, "timeout", (v), "SECONDS", (h), 0, (hi))

/*
 * The man-page-like --help of a subcommand.  SYNOPSIS and OPTIONS come
 * from the table: the synopsis names every option that is not hidden,
 * as git's usage lines do - "[-j N]", "[--tree=DIR]", "[--[no-]casts]";
 * adjacent options that set the same variable are one choice, "[--format=FMT
 * | --json | --sarif]"; a PARSE_OPT_REQUIRED one has no brackets - then
 * @args, the arguments, with the PARSE_OPT_ARGS options as alternatives.
 */
struct cmd_help {
	const char *name;	/* "audit" */
	const char *summary;	/* one line, for NAME and `ptrguard --help` */
	const char *args;	/* the arguments: "[PATH...]", "< LITERALS" */
	const char *description; /* DESCRIPTION, already indented */
	const char *trailer;	/* the sections after OPTIONS, with their headings */
};

/*
 * parse_options - read the options of argv[1..argc) with @opts
 *
 * Leaves the arguments that are not options, in order, in argv[0..n)
 * and returns n; -1 after one error line ("ptrguard: CMD: --bogus:
 * unknown option (see 'ptrguard CMD --help')"), or one naming a
 * PARSE_OPT_REQUIRED option not given.  --help (-h) prints the
 * help to stdout and exits 0 (2 when stdout cannot take it).
 */
int parse_options(int argc, char **argv, const struct option *opts,
		  const struct cmd_help *help);

/* Print the help of a command to stdout. */
void print_cmd_help(const struct option *opts, const struct cmd_help *help);

/*
 * The man page, ptrguard(1), is made from the same tables: `ptrguard help
 * --man` runs each command's --help with help_as_man() set, and that
 * --help prints one part of the page in roff instead of the text.
 */
enum man_part {
	MAN_NONE,		/* the text of --help */
	MAN_SYNOPSIS,		/* the command's entry of SYNOPSIS */
	MAN_DESCRIPTION,	/* its subsection of DESCRIPTION */
	MAN_OPTIONS,		/* its subsection of OPTIONS */
	MAN_SECTION,		/* its subsection of the section @heading,
				 * from its trailer's ("EXIT STATUS") */
};
void help_as_man(enum man_part part, const char *heading);

#endif
