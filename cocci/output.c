// SPDX-License-Identifier: GPL-2.0
/*
 * output: the runner's findings as gcc-style lines, JSON or SARIF 2.1.0.
 *
 * The gcc form is what editors and CI log parsers read:
 *	FILE:LINE:COL: SEVERITY: CLASS: CONVERSION: MESSAGE
 * JSON is a list of objects with every field of struct finding.  SARIF
 * (lib/output.c's sarif_write(), also `ptrguard scan`'s) carries one rule
 * per class of model/vocab.def, leak classes at level "error" and the low
 * confidence ones (px-gated, px-user) at level "note".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cocci/output.h"
#include "lib/output.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

/* gcc's severity words: a leak is a warning, a low-confidence class a note. */
static void gcc_line(FILE *out, const struct finding *f)
{
	fprintf(out, "%s:%u:%u: %s: %s: %s: %s%s\n", f->file, f->line, f->column,
		finding_is_leak(f) ? "warning" : "note", f->cls, f->conversion, f->message,
		f->lexical ? " [lexical]" : "");
}

void output_json_finding_fields(FILE *out, const struct finding *f, const char *file, int leak)
{
	fputs("\"file\": ", out);
	output_json_string(out, file ? file : f->file);
	fprintf(out, ", \"line\": %u, \"column\": %u, \"class\": ", f->line, f->column);
	output_json_string(out, f->cls);
	if (leak) {
		fputs(", \"leak\": ", out);
		fputs(finding_is_leak(f) ? "true" : "false", out);
	}
	fputs(", \"conversion\": ", out);
	output_json_string(out, f->conversion);
	fputs(", \"function\": ", out);
	output_json_string(out, f->function);
	fputs(", \"format\": ", out);
	output_json_string(out, f->format);
	fputs(", \"argument\": ", out);
	output_json_string(out, f->arg);
	fputs(", \"message\": ", out);
	output_json_string(out, f->message);
	/* only when set: judged from the text, no privilege check looked for */
	if (f->lexical)
		fputs(", \"lexical\": true", out);
}

static void json_finding(FILE *out, const struct finding *f)
{
	fputc('{', out);
	output_json_finding_fields(out, f, NULL, 1);
	fputc('}', out);
}

static void json(FILE *out, const struct finding *f, size_t n)
{
	size_t i;

	fputs("[", out);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n " : "\n ", out);
		json_finding(out, &f[i]);
	}
	fputs(n ? "\n]\n" : "]\n", out);
}

/* Findings of audit and gate as SARIF: one rule per class, relative to @base. */
static void sarif(FILE *out, const char *tool, const char *base, const struct finding *f,
		  size_t n)
{
	struct sarif_rule *rules = xmalloc((vocab_nclasses + n + 1) * sizeof(*rules));
	struct sarif_result *res = xmalloc((n + 1) * sizeof(*res));
	struct sarif_run run = { tool, base, rules, 0, res, n, NULL, 0, NULL };
	size_t i;

	for (i = 0; i < vocab_nclasses; i++) {
		rules[i].id = vocab_classes[i].id;
		rules[i].text = vocab_classes[i].summary;
		rules[i].error = vocab_classes[i].leak;
	}
	run.nrules = vocab_nclasses;
	for (i = 0; i < n; i++) {
		if (sarif_rule_of(&run, f[i].cls) == (size_t)-1) {
			/* a class the vocabulary does not know: its own rule */
			rules[run.nrules].id = f[i].cls;
			rules[run.nrules].text = f[i].cls;
			rules[run.nrules++].error = finding_is_leak(&f[i]);
		}
		memset(&res[i], 0, sizeof(res[i]));
		res[i].rule = f[i].cls;
		res[i].error = finding_is_leak(&f[i]);
		/* "CONVERSION in FUNCTION(): MESSAGE" */
		res[i].message = xasprintf("%s in %s(): %s", f[i].conversion, f[i].function,
					   f[i].message);
		res[i].file = f[i].file;
		res[i].line = f[i].line;
		res[i].column = f[i].column;
		res[i].lexical = f[i].lexical;
	}
	sarif_write(out, &run);
	for (i = 0; i < n; i++)
		free((char *)res[i].message);
	free(res);
	free(rules);
}

int output_findings(FILE *out, enum output_format format, const char *tool, const char *base,
		    const struct finding *f, size_t n)
{
	size_t i;

	switch (format) {
	case OUTPUT_GCC:
		for (i = 0; i < n; i++)
			gcc_line(out, &f[i]);
		break;
	case OUTPUT_JSON:
		json(out, f, n);
		break;
	case OUTPUT_SARIF:
		sarif(out, tool, base, f, n);
		break;
	}
	/* a write error is found once, at exit (ptrguard.c) */
	return 0;
}
