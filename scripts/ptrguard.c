// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard - find kernel addresses that leak through seq_file output.
 *
 * A tiny dispatcher: each subcommand owns its options and its output.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptrguard.h"

static const char usage[] =
	"usage: ptrguard <command> [options] [args]\n"
	"\n"
	"commands:\n"
	"  audit   find seq_file output that prints raw kernel addresses (source)\n"
	"  calls   list the seq output calls of C files as the lexical model reads them\n"
	"  fix     write a patch series that fixes the leaks an audit finds\n"
	"  fmt     print the address kinds of kernel printf format literals\n"
	"  gate    report the leaks a patch adds to a kernel tree\n"
	"  scan    find kernel addresses leaked by a running system\n"
	"\n"
	"'ptrguard <command> --help' describes each command.\n"
	"Exit status: 0 clean, 1 findings, 2 usage or tool error.\n";

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
};

static void vreport(const char *fmt, va_list ap)
{
	fputs("ptrguard: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(fmt, ap);
	va_end(ap);
	exit(EXIT_ERROR);
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
		return EXIT_CLEAN;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	error("%s: unknown command (see 'ptrguard --help')", argv[1]);
	return EXIT_ERROR;
}
