// SPDX-License-Identifier: GPL-2.0
/*
 * Output of `ptrguard scan`: findings on stdout (text, a JSON list, or
 * SARIF 2.1.0), skipped files and the summary on stderr.
 */
#include <stdio.h>
#include <string.h>

#include "scan.h"

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static const char *value_text(const struct scan_hit *h, char *buf, size_t n)
{
	if (h->binary)
		snprintf(buf, n, "%s (8 bytes, little-endian)", h->text);
	else
		snprintf(buf, n, "%s", h->text);
	return buf;
}

static void print_text(const struct scan_result *r)
{
	size_t i;
	char v[64];

	for (i = 0; i < r->nfound; i++) {
		const struct finding_rec *f = &r->found[i];
		const struct scan_hit *h = &f->hit;
		const char *ign = h->verdict == ADDR_IGNORED ? "ignored " : "";

		value_text(h, v, sizeof(v));
		if (f->flags & REC_PATH)
			printf("%s: path name: %s%s: %s\n", f->file, ign, v, h->reason);
		else if (h->binary || (f->flags & REC_BINFILE))
			printf("%s:@%llu: %s%s: %s\n", f->file,
			       (unsigned long long)h->offset, ign, v, h->reason);
		else
			printf("%s:%u:%u: %s%s: %s\n", f->file, h->line, h->column,
			       ign, v, h->reason);
	}
}

static void print_json(const struct scan_result *r)
{
	size_t i;

	fputs("[", stdout);
	for (i = 0; i < r->nfound; i++) {
		const struct finding_rec *f = &r->found[i];
		const struct scan_hit *h = &f->hit;

		fputs(i ? ",\n {" : "\n {", stdout);
		fputs("\"file\": ", stdout);
		json_str(stdout, f->file);
		if (f->flags & REC_PATH)
			fputs(", \"path_name\": true", stdout);
		else if (h->binary || (f->flags & REC_BINFILE))
			printf(", \"offset\": %llu", (unsigned long long)h->offset);
		else
			printf(", \"line\": %u, \"column\": %u", h->line, h->column);
		fputs(", \"value\": ", stdout);
		json_str(stdout, h->text);
		printf(", \"address\": \"0x%016llx\", \"encoding\": \"%s\"",
		       (unsigned long long)h->value, h->binary ? "le64" : "text");
		if (h->verdict == ADDR_IGNORED)
			fputs(", \"ignored\": true", stdout);
		fputs(", \"reason\": ", stdout);
		json_str(stdout, h->reason);
		fputs("}", stdout);
	}
	fputs(r->nfound ? "\n]\n" : "]\n", stdout);
}

static void sarif_uri(const char *path)
{
	/* file:// URI: percent-encode what a URI cannot hold. */
	fputs("\"file://", stdout);
	for (; *path; path++) {
		unsigned char c = (unsigned char)*path;

		if (c <= 0x20 || c >= 0x7f || c == '%' || c == '"' || c == '\\' ||
		    c == '#' || c == '?')
			printf("%%%02X", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_sarif(const struct scan_opts *o, const struct scan_result *r)
{
	size_t i, n = 0;

	fputs("{\n \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
	      " \"version\": \"2.1.0\",\n \"runs\": [{\n"
	      "  \"tool\": {\"driver\": {\"name\": \"ptrguard scan\", \"rules\": [\n"
	      "   {\"id\": \"kernel-address\", \"shortDescription\": {\"text\": "
	      "\"A kernel address readable from user space\"}},\n"
	      "   {\"id\": \"ignored-candidate\", \"shortDescription\": {\"text\": "
	      "\"A kernel-half value known not to be an address\"}}]}},\n"
	      "  \"properties\": {\"addressModel\": ", stdout);
	json_str(stdout, o->model->desc);
	fputs("},\n  \"invocations\": [{\"executionSuccessful\": true, "
	      "\"toolExecutionNotifications\": [", stdout);
	for (i = 0; i < r->nskip; i++) {
		fputs(i ? ",\n   " : "\n   ", stdout);
		fputs("{\"level\": \"note\", \"message\": {\"text\": ", stdout);
		json_str(stdout, r->skip[i].reason);
		fputs("}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": "
		      "{\"uri\": ", stdout);
		sarif_uri(r->skip[i].file);
		fputs("}}}]}", stdout);
	}
	fputs("]}],\n  \"results\": [", stdout);
	for (i = 0; i < r->nfound; i++) {
		const struct finding_rec *f = &r->found[i];
		const struct scan_hit *h = &f->hit;
		char msg[256];
		char v[64];
		bool ign = h->verdict == ADDR_IGNORED;

		snprintf(msg, sizeof(msg), "%s%s: %s", ign ? "ignored " : "",
			 value_text(h, v, sizeof(v)), h->reason);
		fputs(n++ ? ",\n   " : "\n   ", stdout);
		printf("{\"ruleId\": \"%s\", \"level\": \"%s\", \"message\": {\"text\": ",
		       ign ? "ignored-candidate" : "kernel-address", ign ? "note" : "error");
		json_str(stdout, msg);
		fputs("}, \"locations\": [{\"physicalLocation\": {\"artifactLocation\": "
		      "{\"uri\": ", stdout);
		sarif_uri(f->file);
		fputs("}", stdout);
		if (f->flags & REC_PATH)
			;
		else if (h->binary || (f->flags & REC_BINFILE))
			printf(", \"region\": {\"byteOffset\": %llu, \"byteLength\": %u}",
			       (unsigned long long)h->offset,
			       h->binary ? 8u : (unsigned int)strlen(h->text));
		else
			printf(", \"region\": {\"startLine\": %u, \"startColumn\": %u}",
			       h->line, h->column);
		fputs("}}]}", stdout);
	}
	fputs(n ? "\n  ]\n }]\n}\n" : "]\n }]\n}\n", stdout);
}

void scan_print(const struct scan_opts *o, const struct scan_result *r,
		int verbosity)
{
	size_t i, nerr = 0;

	if (o->format == FMT_JSON)
		print_json(r);
	else if (o->format == FMT_SARIF)
		print_sarif(o, r);
	else
		print_text(r);
	fflush(stdout);
	if (verbosity < 0)
		return;
	for (i = 0; i < r->nskip; i++) {
		if (r->skip[i].error && verbosity < 1) {
			nerr++;
			continue;
		}
		fprintf(stderr, "scan: skipped %s: %s\n", r->skip[i].file,
			r->skip[i].reason);
	}
	if (nerr)
		fprintf(stderr, "scan: skipped %zu files that could not be opened or "
			"read (-v lists them)\n", nerr);
	fprintf(stderr, "scan: %llu dirs, %llu files, %.1f MiB in %.2f s; "
		"%llu kernel addresses, %llu ignored; %zu skipped; "
		"%llu symlinks not followed; %llu pid dirs not scanned%s\n",
		(unsigned long long)r->dirs, (unsigned long long)r->files,
		(double)r->bytes / (1024.0 * 1024.0), r->seconds,
		(unsigned long long)r->nkernel, (unsigned long long)r->nignored,
		r->nskip, (unsigned long long)r->symlinks,
		(unsigned long long)r->pids_skipped,
		r->pids_skipped ? " (--pids=all scans them)" : "");
}
