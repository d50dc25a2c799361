/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the libFuzzer targets of tests/fuzz (see docs/testing.md, "Fuzzing"). */
#ifndef PTRGUARD_FUZZ_H
#define PTRGUARD_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of the code under test: a failure is a crash libFuzzer saves. */
#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "fuzz: invariant failed: %s (%s:%d)\n", \
				#cond, __FILE__, __LINE__);		\
			abort();					\
		}							\
	} while (0)

/*
 * A copy of the input in a heap block of exactly @size bytes, no NUL
 * after it, so that AddressSanitizer sees any read past the end.
 */
static inline char *fuzz_exact(const uint8_t *data, size_t size)
{
	char *p = malloc(size ? size : 1);

	if (!p)
		abort();
	if (size)
		memcpy(p, data, size);
	return p;
}

/* The same, NUL-terminated: for functions whose contract is a C string. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *p = malloc(size + 1);

	if (!p)
		abort();
	if (size)
		memcpy(p, data, size);
	p[size] = '\0';
	return p;
}

#endif
