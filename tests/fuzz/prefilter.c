// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the prefilter's lexer (cocci/prefilter.c).
 *
 * prefilter_scan() reads the whole input as C; prefilter_scan_read() reads
 * the same text in place when it has no line to splice.  Both must say the
 * same, and only what the rules ask about.
 */
#include "fuzz.h"
#include "cocci/prefilter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *all = fuzz_exact(data, size);
	char *nul = fuzz_string(data, size);
	unsigned int bits = prefilter_scan(all, size);

	CHECK(!(bits & ~(unsigned int)(PF_RAW | PF_PTR | PF_WIDE_INT | PF_INT_CAST)));
	CHECK(!(bits & PF_RAW) || (bits & PF_PTR));
	CHECK(prefilter_scan_read(nul, size) == bits);
	free(all);
	free(nul);
	return 0;
}
