// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard - find kernel addresses that leak through seq_file output.
 *
 * A tiny dispatcher: each subcommand owns its options (parse-options.h)
 * and its output; stdout is flushed and checked once, here, at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse-options.h"
#include "lib/ptrguard.h"

#define PTRGUARD_VERSION "0.2.0"

static const char usage[] =
	"usage: ptrguard <command> [options] [args]\n"
	"       ptrguard --version\n"
	"\n"
	"commands:\n"
	"  audit   find seq_file output that prints raw kernel addresses (source)\n"
	"  calls   list the seq output calls of C files as the lexical model reads them\n"
	"  fix     write a patch series that fixes the leaks an audit finds\n"
	"  fmt     print the address kinds of kernel printf format literals\n"
	"  gate    report the leaks a patch adds to a kernel tree\n"
	"  scan    find kernel addresses leaked by a running system\n"
	"  version print the version of ptrguard\n"
	"\n"
	"'ptrguard <command> --help' describes each command.\n"
	"Exit status: 0 clean, 1 findings, 2 usage or tool error.\n";

static int cmd_version(int argc, char **argv);

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "audit", cmd_audit },
	{ "calls", cmd_calls },
	{ "fix", cmd_fix },
	{ "fmt", cmd_fmt },
	{ "gate", cmd_gate },
	{ "scan", cmd_scan },
	{ "version", cmd_version },
};

static int cmd_version(int argc, char **argv)
{
	static const struct cmd_help help = {
		.name = "version",
		.summary = "print the version of ptrguard",
		.description = "    Prints \"ptrguard version N\"; the same as ptrguard --version.\n",
	};
	const struct option opts[] = { OPT_END() };
	int n = parse_options(argc, argv, opts, &help);

	if (n < 0)
		return EXIT_ERROR;
	if (n > 0) {
		error("%s: unexpected argument (takes none)", argv[0]);
		return EXIT_ERROR;
	}
	printf("ptrguard version %s\n", PTRGUARD_VERSION);
	return EXIT_CLEAN;
}

/*
 * Everything the command wrote to stdout reaches it, or the run is an
 * error (a full disk, a closed pipe): checked once, for every command.
 */
static int finish(int ret)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		error("writing to stdout: %s", strerror(errno ? errno : EIO));
		return EXIT_ERROR;
	}
	return ret;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return finish(EXIT_CLEAN);
	}
	if (!strcmp(argv[1], "--version"))
		return finish(cmd_version(argc - 1, argv + 1));
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			usage_set_command(commands[i].name);
			return finish(commands[i].fn(argc - 1, argv + 1));
		}
	error("%s: unknown command (see 'ptrguard --help')", argv[1]);
	return EXIT_ERROR;
}
