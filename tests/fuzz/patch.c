// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the gate's patch parser, patch_read_buf() (gate/patch.c),
 * on any bytes, as `ptrguard gate` reads a patch from a stranger.
 * Invariants on success: every patch has a file, every file a path, every
 * line of a hunk is '+' or '-' with an input line inside the input and
 * inside its patch, and each patch's text is a piece of the input.
 */
#include "fuzz.h"
#include "gate/patch.h"

/* The byte offset of line @no (1-based) of @data. */
static size_t line_offset(const uint8_t *data, size_t size, unsigned int no)
{
	size_t i;

	for (i = 0; i < size && no > 1; i++)
		if (data[i] == '\n')
			no--;
	return i;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct patch_series ps = { 0 };
	char *buf = fuzz_exact(data, size), name[600];
	unsigned int nlines = 0;
	size_t i, j, k, at = 0, off;
	int ret;

	for (i = 0; i < size; i++)
		nlines += data[i] == '\n';
	nlines += size && data[size - 1] != '\n';
	ret = patch_read_buf("fuzz.patch", buf, size, &ps);
	for (i = 0; i < ps.npatches; i++) {
		const struct patch *p = &ps.patches[i];

		CHECK(p->index == i + 1);
		CHECK(p->nth >= 1 && p->nth <= p->count);
		CHECK(p->first_line >= 1 && p->first_line <= nlines);
		/*
		 * the patches cut the input in order, end to end, but for the
		 * cover letters left out (patch_read_buf()): a patch starts at
		 * its first line, at or after the end of the one before
		 */
		off = line_offset(data, size, p->first_line);
		CHECK(off >= at && p->len <= size - off && !memcmp(p->text, data + off, p->len));
		at = off + p->len;
		CHECK(patch_name(p, name, sizeof(name)) == name);
		if (ret)
			continue;
		CHECK(p->nfiles > 0);
		for (j = 0; j < p->nfiles; j++) {
			const struct patch_file *f = &p->files[j];

			CHECK(f->old_path || f->new_path);
			for (k = 0; k < f->nlines; k++) {
				const struct patch_line *l = &f->lines[k];

				CHECK(l->kind == '+' || l->kind == '-');
				CHECK(l->text != NULL);
				CHECK(l->input_line > p->first_line && l->input_line <= nlines);
				CHECK(k == 0 || l->input_line > f->lines[k - 1].input_line);
			}
		}
	}
	if (ps.npatches)
		CHECK(at <= size);
	patch_series_free(&ps);
	free(buf);
	return 0;
}
