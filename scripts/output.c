// SPDX-License-Identifier: GPL-2.0
/*
 * output: findings as gcc-style lines, JSON or SARIF 2.1.0.
 *
 * The gcc form is what editors and CI log parsers read:
 *	FILE:LINE:COL: SEVERITY: CLASS: CONVERSION: MESSAGE
 * JSON is a list of objects with every field of struct finding.  SARIF
 * carries one rule per class, leak classes at level "error" and the low
 * confidence ones (px-gated, px-user) at level "note".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "ptrguard.h"
#include "vocab.h"

#define NCLASSES vocab_nclasses

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

/* A relative path as a URI reference: percent-encode all but unreserved and '/'. */
static void uri(FILE *out, const char *path)
{
	const unsigned char *p = (const unsigned char *)path;

	fputc('"', out);
	for (; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			fputc(*p, out);
		else
			fprintf(out, "%%%02X", *p);
	}
	fputc('"', out);
}

/* Index of a class in the SARIF rules array; unknown classes follow the known ones. */
static size_t rule_index(const char *cls, const char **extra, size_t nextra)
{
	size_t i;

	for (i = 0; i < NCLASSES; i++)
		if (!strcmp(cls, vocab_classes[i].id))
			return i;
	for (i = 0; i < nextra; i++)
		if (!strcmp(cls, extra[i]))
			return NCLASSES + i;
	return (size_t)-1;
}

static const char *level(const struct finding *f)
{
	return finding_is_leak(f) ? "error" : "note";
}

static int sarif(FILE *out, const char *tool, const struct finding *f, size_t n)
{
	const char **extra;
	size_t nextra = 0, i;

	extra = calloc(n + 1, sizeof(*extra));
	if (!extra) {
		error("out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (rule_index(f[i].cls, extra, nextra) == (size_t)-1)
			extra[nextra++] = f[i].cls;

	fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
	      "    \"tool\": {\"driver\": {\"name\": ", out);
	output_json_string(out, tool);
	fputs(", \"informationUri\": \"https://www.kernel.org/doc/html/latest/core-api/printk-formats.html\",\n"
	      "      \"rules\": [", out);
	for (i = 0; i < NCLASSES + nextra; i++) {
		const char *id = i < NCLASSES ? vocab_classes[i].id : extra[i - NCLASSES];
		const char *text = i < NCLASSES ? vocab_classes[i].summary : extra[i - NCLASSES];
		struct finding probe = { .cls = (char *)id };

		fputs(i ? ",\n        {\"id\": " : "\n        {\"id\": ", out);
		output_json_string(out, id);
		fputs(", \"shortDescription\": {\"text\": ", out);
		output_json_string(out, text);
		fprintf(out, "}, \"defaultConfiguration\": {\"level\": \"%s\"}}",
			level(&probe));
	}
	fputs("]}},\n    \"originalUriBaseIds\": {\"SRCROOT\": {\"description\": "
	      "{\"text\": \"the kernel tree root\"}}},\n    \"results\": [", out);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n      {\"ruleId\": " : "\n      {\"ruleId\": ", out);
		output_json_string(out, f[i].cls);
		fprintf(out, ", \"ruleIndex\": %zu, \"level\": \"%s\", \"message\": {\"text\": ",
			rule_index(f[i].cls, extra, nextra), level(&f[i]));
		{
			/* "CONVERSION in FUNCTION(): MESSAGE" */
			char *text = NULL;
			size_t len = 0;
			FILE *m = open_memstream(&text, &len);

			if (!m) {
				free(extra);
				error("out of memory");
				return -1;
			}
			fprintf(m, "%s in %s(): %s", f[i].conversion, f[i].function,
				f[i].message);
			fclose(m);
			output_json_string(out, text);
			free(text);
		}
		fputs("},\n       \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
		uri(out, f[i].file);
		fprintf(out, ", \"uriBaseId\": \"SRCROOT\"}, \"region\": {\"startLine\": %u, \"startColumn\": %u}}}]%s}",
			f[i].line, f[i].column,
			f[i].lexical ? ",\n       \"properties\": {\"lexical\": true}" : "");
	}
	fputs(n ? "\n    ]\n  }]\n}\n" : "]\n  }]\n}\n", out);
	free(extra);
	return 0;
}

int output_findings(FILE *out, enum output_format format, const char *tool,
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
		if (sarif(out, tool, f, n) < 0)
			return -1;
		break;
	}
	/* a write error is found once, at exit (ptrguard.c) */
	return 0;
}
