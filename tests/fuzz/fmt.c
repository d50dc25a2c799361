// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the format decoder (model/format.c).
 *
 *  - fmt_unquote() reads the input as a line of C string literals;
 *  - fmt_unescape() decodes it as the text between the quotes of one
 *    literal, into a buffer of exactly its size; when the input holds no
 *    '"' and no NUL, fmt_unquote() of it in quotes must agree;
 *  - fmt_next() walks every conversion of the raw bytes, of the decoded
 *    ones and of the unquoted ones, with and without fmt_iter.partial.
 *
 * Walk invariants: each conversion starts at a '%' inside the format and
 * ends inside it, starts no earlier and ends later than the one before
 * (but for a conversion cut after a '*' width or precision, which may
 * end where that '*' ends); the walk ends; its type is one vsnprintf() consumes an argument for;
 * and the walk without partial is the partial one less a last, cut
 * conversion.
 */
#include "fuzz.h"
#include "model/format.h"

#define MAXCONV 4096

static size_t walk(const char *f, size_t len, int partial, struct fmt_conv *out, size_t max)
{
	struct fmt_iter it = { 0 };
	struct fmt_conv c;
	size_t n = 0, prev_start = 0, prev_end = 0, prev_pos = 0;
	char prev_type = 0;

	it.partial = partial;
	while (fmt_next(f, len, &it, &c)) {
		CHECK(n <= len);		/* each conversion eats a byte at least */
		CHECK(c.start < len && f[c.start] == '%');
		CHECK(c.len >= 1 && c.len <= len - c.start);
		CHECK(n == 0 || c.start >= prev_start);
		CHECK(it.pos >= c.start + c.len && it.pos <= len);
		/*
		 * A conversion cut after a '*' ("%*" or "%*.*l" at the end)
		 * is returned from its '%': it may have no byte of its own.
		 */
		if (c.incomplete && prev_type == '*')
			CHECK(c.start + c.len >= prev_end && it.pos >= prev_pos);
		else
			CHECK(n == 0 || (c.start + c.len > prev_end && it.pos > prev_pos));
		CHECK(seq_ptr_kind_name(c.kind) != NULL);
		if (c.incomplete) {
			CHECK(partial && c.type == 0 && c.kind == SEQ_PTR_NONE);
			/* only the format's end (or a NUL) cuts a conversion */
			CHECK(c.start + c.len == len || f[c.start + c.len] == '\0');
		} else {
			CHECK(c.type && strchr("cspdiouxX*", c.type));
			CHECK(c.type != '*' || c.kind == SEQ_PTR_NONE);
		}
		if (n < max)
			out[n] = c;
		n++;
		prev_start = c.start;
		prev_end = c.start + c.len;
		prev_pos = it.pos;
		prev_type = c.type;
	}
	return n;
}

static void walk_both(const char *f, size_t len)
{
	static struct fmt_conv a[MAXCONV], b[MAXCONV];
	size_t na = walk(f, len, 0, a, MAXCONV), nb = walk(f, len, 1, b, MAXCONV), i;

	CHECK(nb == na || (nb == na + 1 && (nb > MAXCONV || b[na].incomplete)));
	for (i = 0; i < na && i < MAXCONV; i++)
		CHECK(a[i].kind == b[i].kind && a[i].start == b[i].start && a[i].len == b[i].len &&
		      a[i].type == b[i].type && a[i].qualifier == b[i].qualifier &&
		      a[i].ext == b[i].ext && !b[i].incomplete);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *raw = fuzz_exact(data, size), *line = fuzz_string(data, size);
	char *dec = fuzz_exact(data, size), *uq = NULL, *uq2 = NULL;
	const char *why = NULL, *why2 = NULL;
	size_t uqlen = 0, uq2len = 0;
	long got;
	int ok, ok2;

	walk_both(raw, size);

	ok = fmt_unquote(line, &uq, &uqlen, &why) == 0;
	CHECK(ok ? uq && uqlen <= size && uq[uqlen] == '\0' : why != NULL);
	if (ok)
		walk_both(uq, uqlen);

	why = NULL;
	got = fmt_unescape(raw, size, dec, &why);
	CHECK(got >= 0 ? (size_t)got <= size : why != NULL);
	if (got >= 0)
		walk_both(dec, (size_t)got);

	/* the same text as one literal, when it can be written as one */
	if (!memchr(data, '"', size) && !memchr(data, '\0', size)) {
		char *q = malloc(size + 3);

		if (!q)
			abort();
		q[0] = '"';
		memcpy(q + 1, data, size);
		q[size + 1] = '"';
		q[size + 2] = '\0';
		ok2 = fmt_unquote(q, &uq2, &uq2len, &why2) == 0;
		CHECK(ok2 == (got >= 0));
		if (ok2) {
			const char *nul = memchr(dec, '\0', (size_t)got);

			CHECK(uq2len == (nul ? (size_t)(nul - dec) : (size_t)got));
			CHECK(!memcmp(uq2, dec, uq2len));
		}
		free(q);
		free(uq2);
	}
	free(uq);
	free(raw);
	free(line);
	free(dec);
	return 0;
}
