// SPDX-License-Identifier: GPL-2.0
/*
 * usage: error() and die(), the one way a command reports what failed
 * ("ptrguard: CMD: what: why"), as git's usage.c.  The dispatcher names
 * the running command; the fuzz targets link tests/fuzz/stubs.c instead.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ptrguard.h"

/* The running subcommand, for "ptrguard: CMD: ..." messages. */
static const char *current_cmd;

void usage_set_command(const char *name)
{
	current_cmd = name;
}

static void vreport(const char *fmt, va_list ap)
{
	char *msg = NULL;
	size_t n = current_cmd ? strlen(current_cmd) : 0;

	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	fputs("ptrguard: ", stderr);
	/* messages that name their command already keep one prefix */
	if (current_cmd && !(msg && !strncmp(msg, current_cmd, n) && msg[n] == ':'))
		fprintf(stderr, "%s: ", current_cmd);
	fputs(msg ? msg : fmt, stderr);
	fputc('\n', stderr);
	free(msg);
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
