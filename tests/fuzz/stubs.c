// SPDX-License-Identifier: GPL-2.0
/*
 * What the fuzz targets link instead of lib/usage.c: error() and
 * die().  error() formats its message (so a bad format argument still
 * shows under the sanitizers) and drops it; FUZZ_VERBOSE=1 prints it.
 * die() exits the CLI, which a library function must never do on bad
 * input: here it aborts, so libFuzzer reports it as a crash.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/ptrguard.h"

static int verbose = -1;

static void report(const char *what, const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (verbose < 0)
		verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (verbose || *what == 'd')
		fprintf(stderr, "ptrguard: %s%s\n", *what == 'd' ? "die(): " : "", buf);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("die", fmt, ap);
	va_end(ap);
	abort();
}
