// SPDX-License-Identifier: GPL-2.0
/*
 * output: the one SARIF 2.1.0 writer and JSON strings (output.h).
 *
 * Paths relative to the tree root are relative URIs whose uriBaseId
 * SRCROOT is the root's file:/// URI.  The findings of audit and gate
 * are written over it by cocci/output.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/output.h"
#include "lib/ptrguard.h"

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

size_t sarif_rule_of(const struct sarif_run *run, const char *id)
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
		k = sarif_rule_of(run, r->rule);
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
