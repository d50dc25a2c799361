// SPDX-License-Identifier: GPL-2.0
/*
 * gate_out: the reports of `ptrguard gate`.
 *
 * The default report, --format=checkpatch, reads like checkpatch.pl's,
 * so that a maintainer who runs both sees one style:
 *
 *	ERROR: SEQ_PTR_LEAK: px %px: raw address ...
 *	#57: FILE: kernel/module/procfs.c:80:
 *	+		seq_printf(m, " %px", mod);
 *
 * "#57" is the line in the patch input, FILE the file with its line in
 * the patched file; the last line is the offending line as the patch adds
 * it.  A leak the patches remove is reported as FIXED with the removed
 * line.  --format=text (gcc style, as audit and scan write it), JSON and
 * SARIF (through cocci/output.c) are for tools.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate.h"
#include "cocci/output.h"
#include "lib/output.h"
#include "lib/ptrguard.h"

static void text_item(const struct gate_item *it)
{
	const struct finding *f = it->f;

	printf("%s: SEQ_PTR_LEAK: %s %s: %s%s\n", it->fixed ? "FIXED" : "ERROR", f->cls,
	       f->conversion, f->message, f->lexical ? " [lexical]" : "");
	if (it->input_line)
		printf("#%u: ", it->input_line);
	printf("FILE: %s:%u:\n%c%s\n\n", it->path, f->line, it->mark, it->text);
}

static void patch_title(const struct patch *p)
{
	char name[512];

	printf("%s", patch_name(p, name, sizeof(name)));
	if (p->subject)
		printf(": %s", p->subject);
	putchar('\n');
}

static void counts(const char *prefix, size_t nnew, size_t nfixed, size_t nchecked)
{
	printf("%s%zu new, %zu fixed, %zu files checked\n", prefix, nnew, nfixed, nchecked);
}

static void checkpatch(const struct gate_section *secs, size_t nsecs, int series,
		 size_t npatches, size_t nchecked)
{
	size_t s, i, nnew = 0, nfixed = 0;
	const struct patch *cur = NULL;

	for (s = 0; s < nsecs; s++) {
		const struct gate_section *sec = &secs[s];

		if (series)
			patch_title(sec->patch);
		for (i = 0; i < sec->diff.nitems; i++) {
			const struct gate_item *it = &sec->diff.items[i];

			/* Several patches at once: say whose line it is. */
			if (!series && npatches > 1 && it->patch && it->patch != cur) {
				cur = it->patch;
				patch_title(cur);
			}
			text_item(it);
		}
		if (series)
			counts("", sec->diff.nnew, sec->diff.nfixed, sec->nchecked), putchar('\n');
		nnew += sec->diff.nnew;
		nfixed += sec->diff.nfixed;
	}
	if (npatches > 1)
		printf("total: %zu new, %zu fixed, %zu patches, %zu files checked\n", nnew, nfixed,
		       npatches, nchecked);
	else
		counts("total: ", nnew, nfixed, nchecked);
}

static void text(const struct gate_section *secs, size_t nsecs)
{
	size_t s, i;

	for (s = 0; s < nsecs; s++)
		for (i = 0; i < secs[s].diff.nitems; i++) {
			const struct gate_item *it = &secs[s].diff.items[i];
			const struct finding *f = it->f;

			/* audit's fields (output.c), and what the patches do */
			printf("%s:%u:%u: %s: %s: %s: %s: %s%s\n", it->path, f->line, f->column,
			       it->fixed ? "note" : "error", f->cls, f->conversion,
			       it->fixed ? "fixed" : "new leak", f->message,
			       f->lexical ? " [lexical]" : "");
		}
}

static void json_item(const struct gate_item *it)
{
	const struct finding *f = it->f;
	char name[512];

	fputs("{\"status\": ", stdout);
	output_json_string(stdout, it->fixed ? "fixed" : "new");
	fputs(", ", stdout);
	output_json_finding_fields(stdout, f, it->path, 0);
	fputs(", \"patch\": ", stdout);
	if (it->patch)
		output_json_string(stdout, patch_name(it->patch, name, sizeof(name)));
	else
		fputs("null", stdout);
	printf(", \"patch_line\": %u, \"line_text\": ", it->input_line);
	output_json_string(stdout, it->text);
	fputc('}', stdout);
}

static void json(const struct gate_section *secs, size_t nsecs, int series, size_t nchecked)
{
	size_t s, i, nnew = 0, nfixed = 0, n = 0;
	char name[512];

	fputs("{\"tool\": \"ptrguard gate\", \"findings\": [", stdout);
	for (s = 0; s < nsecs; s++) {
		for (i = 0; i < secs[s].diff.nitems; i++) {
			fputs(n++ ? ",\n  " : "\n  ", stdout);
			json_item(&secs[s].diff.items[i]);
		}
		nnew += secs[s].diff.nnew;
		nfixed += secs[s].diff.nfixed;
	}
	fputs(n ? "\n ]" : "]", stdout);
	if (series) {
		fputs(",\n \"patches\": [", stdout);
		for (s = 0; s < nsecs; s++) {
			fputs(s ? ",\n  {\"patch\": " : "\n  {\"patch\": ", stdout);
			output_json_string(stdout, patch_name(secs[s].patch, name, sizeof(name)));
			fputs(", \"subject\": ", stdout);
			if (secs[s].patch->subject)
				output_json_string(stdout, secs[s].patch->subject);
			else
				fputs("null", stdout);
			printf(", \"new\": %zu, \"fixed\": %zu, \"files_checked\": %zu}",
			       secs[s].diff.nnew, secs[s].diff.nfixed, secs[s].nchecked);
		}
		fputs("\n ]", stdout);
	}
	printf(",\n \"new\": %zu, \"fixed\": %zu, \"files_checked\": %zu}\n", nnew, nfixed,
	       nchecked);
}

/* SARIF: the new leaks only, as results at level "error". */
static void sarif(const struct gate_section *secs, size_t nsecs, const char *base)
{
	struct finding *arr;
	size_t s, i, n = 0, total = 0;

	for (s = 0; s < nsecs; s++)
		total += secs[s].diff.nitems;
	arr = calloc(total + 1, sizeof(*arr));
	if (!arr)
		die("out of memory");
	for (s = 0; s < nsecs; s++)
		for (i = 0; i < secs[s].diff.nitems; i++) {
			const struct gate_item *it = &secs[s].diff.items[i];

			if (it->fixed)
				continue;
			arr[n] = *it->f;
			arr[n].file = it->path;
			n++;
		}
	output_findings(stdout, OUTPUT_SARIF, "ptrguard gate", base, arr, n);
	free(arr);
}

void gate_output(enum pg_format fmt, const struct gate_section *secs, size_t nsecs,
		 int series, size_t npatches, size_t nchecked, const char *base)
{
	switch (fmt) {
	case FORMAT_TEXT:
		text(secs, nsecs);
		break;
	case FORMAT_JSON:
		json(secs, nsecs, series, nchecked);
		break;
	case FORMAT_SARIF:
		sarif(secs, nsecs, base);
		break;
	default:
		checkpatch(secs, nsecs, series, npatches, nchecked);
	}
	fflush(stdout);
}
