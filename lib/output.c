// SPDX-License-Identifier: GPL-2.0
/*
 * output: findings as gcc-style lines, JSON or SARIF 2.1.0.
 *
 * The gcc form is what editors and CI log parsers read:
 *	FILE:LINE:COL: SEVERITY: CLASS: CONVERSION: MESSAGE
 * JSON is a list of objects with every field of struct finding.  SARIF
 * (sarif_write(), also `ptrguard scan`'s) carries one rule per class, leak
 * classes at level "error" and the low confidence ones (px-gated,
 * px-user) at level "note"; paths relative to the tree root are relative
 * URIs whose uriBaseId SRCROOT is the root's file:/// URI.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/output.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"


/* Length of the valid UTF-8 sequence at @p (whose first byte is >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned int cp;

	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

void output_json_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(out, "\\u%04x", *p);
			} else if (*p < 0x80) {
				fputc(*p, out);
			} else {
				size_t n = utf8_len(p);

				if (n) {
					fwrite(p, 1, n, out);
					p += n - 1;
				} else {
					/* not UTF-8: take the byte as Latin-1 */
					fprintf(out, "\\u%04x", *p);
				}
			}
		}
	}
	fputc('"', out);
}

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

/*
 * A path as a URI: percent-encode all but unreserved characters and '/'.
 * An absolute path becomes a file:/// URI, a relative one a relative
 * reference (to the uriBaseId of its location).
 */
static void uri(FILE *out, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;

	fputs(*p == '/' ? "\"file://" : "\"", out);
	for (; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			fputc(*p, out);
		else
			fprintf(out, "%%%02X", *p);
	}
	fputc('"', out);
}

static void location(FILE *out, const struct sarif_run *run, const struct sarif_result *r)
{
	fputs("{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
	uri(out, r->file);
	if (run->base && r->file[0] != '/')
		fputs(", \"uriBaseId\": \"SRCROOT\"", out);
	fputc('}', out);
	/* code scanning wants a startLine: 1 where there is no line */
	if (r->length)
		fprintf(out, ", \"region\": {\"startLine\": %u, \"byteOffset\": %llu, \"byteLength\": %u}",
			r->line ? r->line : 1, r->offset, r->length);
	else if (!r->no_region)
		fprintf(out, ", \"region\": {\"startLine\": %u, \"startColumn\": %u}",
			r->line ? r->line : 1, r->column ? r->column : 1);
	fputs("}}", out);
}

static size_t rule_of(const struct sarif_run *run, const char *id)
{
	size_t i;

	for (i = 0; i < run->nrules; i++)
		if (!strcmp(run->rules[i].id, id))
			return i;
	return (size_t)-1;
}

void sarif_write(FILE *out, const struct sarif_run *run)
{
	size_t i, k;

	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
	      "    \"tool\": {\"driver\": {\"name\": ", out);
	output_json_string(out, run->tool);
	fputs(", \"informationUri\": \"https://www.kernel.org/doc/html/latest/core-api/printk-formats.html\",\n"
	      "      \"rules\": [", out);
	for (i = 0; i < run->nrules; i++) {
		fputs(i ? ",\n        {\"id\": " : "\n        {\"id\": ", out);
		output_json_string(out, run->rules[i].id);
		fputs(", \"shortDescription\": {\"text\": ", out);
		output_json_string(out, run->rules[i].text);
		fprintf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}}",
			run->rules[i].error ? "error" : "note");
	}
	fputs("]}},\n", out);
	if (run->base) {
		fputs("    \"originalUriBaseIds\": {\"SRCROOT\": {\"uri\": ", out);
		/* a directory: with its trailing slash */
		{
			char *dir = xasprintf("%s%s", run->base,
					      run->base[strlen(run->base) - 1] == '/' ? "" : "/");

			uri(out, dir);
			free(dir);
		}
		fputs(", \"description\": {\"text\": \"the tree root\"}}},\n", out);
	}
	if (run->properties)
		fprintf(out, "    \"properties\": %s,\n", run->properties);
	if (run->nnotes) {
		fputs("    \"invocations\": [{\"executionSuccessful\": true, "
		      "\"toolExecutionNotifications\": [", out);
		for (i = 0; i < run->nnotes; i++) {
			fputs(i ? ",\n      {\"level\": \"note\", \"message\": {\"text\": " :
			      "\n      {\"level\": \"note\", \"message\": {\"text\": ", out);
			output_json_string(out, run->notes[i].message);
			fputs("}, \"locations\": [", out);
			location(out, run, &run->notes[i]);
			fputs("]}", out);
		}
		fputs("]}],\n", out);
	}
	fputs("    \"results\": [", out);
	for (i = 0; i < run->nresults; i++) {
		const struct sarif_result *r = &run->results[i];

		fputs(i ? ",\n      {\"ruleId\": " : "\n      {\"ruleId\": ", out);
		output_json_string(out, r->rule);
		k = rule_of(run, r->rule);
		if (k != (size_t)-1)
			fprintf(out, ", \"ruleIndex\": %zu", k);
		fprintf(out, ", \"level\": \"%s\", ", r->level ? r->level : r->error ? "error" : "note");
		if (r->baseline)
			fprintf(out, "\"baselineState\": \"%s\", ", r->baseline);
		fputs("\"message\": {\"text\": ", out);
		output_json_string(out, r->message);
		fputs("},\n       \"locations\": [", out);
		location(out, run, r);
		fputc(']', out);
		if (r->properties)
			fprintf(out, ",\n       \"properties\": %s", r->properties);
		else if (r->lexical)
			fputs(",\n       \"properties\": {\"lexical\": true}", out);
		fputc('}', out);
	}
	fputs(run->nresults ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n", out);
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
		if (rule_of(&run, f[i].cls) == (size_t)-1) {
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
