/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output: write findings as gcc-style lines, JSON or SARIF 2.1.0.
 * Used by `ptrguard audit` and `ptrguard gate`; sarif_write() by scan too.
 */
#ifndef PTRGUARD_OUTPUT_H
#define PTRGUARD_OUTPUT_H

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
 * SARIF 2.1.0, one writer for audit, gate and scan: the parts GitHub code
 * scanning reads (version, $schema, runs[].tool.driver.name and rules[].id,
 * results[].ruleId, level, message.text, and a physicalLocation with an
 * artifactLocation.uri and a region).
 */
struct sarif_rule {
	const char *id;
	const char *text;	/* shortDescription */
	int error;		/* default level: "error", else "note" */
};

struct sarif_result {
	const char *rule;	/* a rule id */
	int error;		/* level "error", else "note" */
	const char *level;	/* the level, if not NULL: "error", "warning", "note" */
	const char *baseline;	/* baselineState, or NULL */
	const char *properties;	/* a JSON object for properties, or NULL */
	const char *message;
	/*
	 * Absolute: a file:/// URI; relative: to sarif_run.base (uriBaseId
	 * SRCROOT).
	 */
	const char *file;
	unsigned int line, column;	/* region; line 0: none */
	unsigned long long offset;	/* a byte region instead, when length */
	unsigned int length;
	int no_region;		/* a whole file (a notification): no region */
	int lexical;		/* properties.lexical */
};

struct sarif_run {
	const char *tool;	/* runs[0].tool.driver.name */
	const char *base;	/* absolute directory of relative files, or NULL */
	const struct sarif_rule *rules;
	size_t nrules;
	const struct sarif_result *results;
	size_t nresults;
	/* toolExecutionNotifications (level "note"): rule unused */
	const struct sarif_result *notes;
	size_t nnotes;
	const char *properties;	/* a JSON object for runs[0].properties, or NULL */
};

void sarif_write(FILE *out, const struct sarif_run *run);

/* Write @s as a JSON string (with the quotes). */
void output_json_string(FILE *out, const char *s);

/*
 * Write the members of @f, without the braces: "file", "line", "column",
 * "class", with @leak also "leak" (true for a leak class), "conversion",
 * "function", "format", "argument", "message".  @file, when not NULL,
 * is shown instead of f->file.  Shared by audit's and gate's JSON.
 */
void output_json_finding_fields(FILE *out, const struct finding *f, const char *file, int leak);

#endif
