/* SPDX-License-Identifier: GPL-2.0 */
/*
 * output: the one SARIF 2.1.0 writer, for audit and gate (through
 * cocci/output.h, their findings) and scan, and JSON strings.
 */
#ifndef PTRGUARD_OUTPUT_H
#define PTRGUARD_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

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
/* The index of the rule @id in @run's rules, or (size_t)-1. */
size_t sarif_rule_of(const struct sarif_run *run, const char *id);

/* Write @s as a JSON string (with the quotes). */
void output_json_string(FILE *out, const char *s);

#endif
