/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output: the runner's findings (struct finding, cocci.h) as gcc-style
 * lines, JSON or SARIF 2.1.0 (lib/output.h's writer), for `ptrguard
 * audit` and `ptrguard gate`.
 */
#ifndef PTRGUARD_COCCI_OUTPUT_H
#define PTRGUARD_COCCI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "cocci/cocci.h"

enum output_format {
	OUTPUT_GCC,	/* FILE:LINE:COL: SEVERITY: CLASS: CONVERSION: MESSAGE */
	OUTPUT_JSON,	/* a list of objects */
	OUTPUT_SARIF,	/* SARIF 2.1.0, one run */
};

/*
 * output_findings - write @n findings to @out in @format
 * @tool: the tool name for SARIF ("ptrguard")
 * @base: the absolute tree root the findings' files are relative to
 *
 * Returns 0; a write error is found at exit (ptrguard.c).
 */
int output_findings(FILE *out, enum output_format format, const char *tool, const char *base,
		    const struct finding *f, size_t n);

/*
 * Write the members of @f, without the braces: "file", "line", "column",
 * "class", with @leak also "leak" (true for a leak class), "conversion",
 * "function", "format", "argument", "message".  @file, when not NULL,
 * is shown instead of f->file.  Shared by audit's and gate's JSON.
 */
void output_json_finding_fields(FILE *out, const struct finding *f, const char *file, int leak);

#endif
