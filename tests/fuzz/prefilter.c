// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the prefilter's lexer (cocci/prefilter.c).
 *
 * prefilter_scan() reads the whole input as C.  prefilter_same_findings()
 * compares the text before the input's first NUL byte with the text after
 * it (no NUL: the input with itself), both ways: it must be symmetric,
 * without a judge and with one that finds every call quiet (so that the
 * lines it is asked about are read through the splices too).
 */
#include "fuzz.h"
#include "cocci/prefilter.h"

/* A judge that finds every call quiet, and checks the lines it is asked about. */
static int all_quiet(void *ctx, int which, unsigned int first, unsigned int last, int none)
{
	(void)ctx;
	(void)none;
	CHECK(which == 0 || which == 1);
	CHECK(first >= 1 && first <= last);
	return 1;
}

/* ... and reads the same calls everywhere. */
static uint64_t no_calls(void *ctx, int which, unsigned int first, unsigned int last)
{
	(void)ctx;
	CHECK(which == 0 || which == 1);
	CHECK(first >= 1 && first <= last);
	return 1;
}

static const struct pf_judge quiet = { all_quiet, no_calls, NULL };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t blen = nul ? (size_t)(nul - data) : size;
	size_t alen = nul ? size - blen - 1 : size;
	char *all = fuzz_exact(data, size);
	char *before = fuzz_exact(data, blen);
	char *after = fuzz_exact(nul ? nul + 1 : data, alen);
	unsigned int bits = prefilter_scan(all, size);
	int ab, ba;

	CHECK(!(bits & ~(unsigned int)(PF_RAW | PF_PTR | PF_WIDE_INT | PF_INT_CAST)));
	CHECK(!(bits & PF_RAW) || (bits & PF_PTR));
	ab = prefilter_same_findings(before, blen, after, alen, NULL);
	ba = prefilter_same_findings(after, alen, before, blen, NULL);
	CHECK(ab == ba);
	ab = prefilter_same_findings(before, blen, after, alen, &quiet);
	ba = prefilter_same_findings(after, alen, before, blen, &quiet);
	CHECK(ab == ba);
	free(all);
	free(before);
	free(after);
	return 0;
}
