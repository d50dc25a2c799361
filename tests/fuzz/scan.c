// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the live scanner's matcher (scan/match.c), which
 * reads whatever /proc and /sys hold, in reads of any size.
 *
 * The input is matched twice with the layout-only address model
 * (--kallsyms none): in one matcher_feed(), and cut in pieces whose sizes
 * come from the input's last byte (which both matchers read too).  The
 * two must report the same hits.  Each hit must also be where it says:
 * its offset, line and column inside the input, its text the bytes there
 * (a text value), or its value the 8 little-endian bytes there at a
 * 4-aligned offset (a binary one).
 */
#include "fuzz.h"
#include "scan/scan.h"

struct hits {
	struct scan_hit *h;
	size_t n, alloc;
	unsigned int waits;
};

static void on_hit(void *ctx, const struct scan_hit *h)
{
	struct hits *hs = ctx;

	if (hs->n == hs->alloc) {
		hs->alloc = hs->alloc ? 2 * hs->alloc : 64;
		hs->h = realloc(hs->h, hs->alloc * sizeof(*hs->h));
		if (!hs->h)
			abort();
	}
	hs->h[hs->n++] = *h;
}

static void on_wait(void *ctx)
{
	((struct hits *)ctx)->waits++;
}

static int cmp_hit(const void *x, const void *y)
{
	const struct scan_hit *a = x, *b = y;

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return (int)a->binary - (int)b->binary;
}

static const struct addr_model *model(void)
{
	static struct addr_model m;
	static int done;

	if (!done) {
		/* x86_64, 4-level, the layout alone: no host probing */
		if (addr_model_begin(&m, "none", "x86_64", 48, 0) ||
		    addr_model_finish(&m))
			abort();
		done = 1;
	}
	return &m;
}

static void run(const uint8_t *data, size_t size, unsigned int ctl, int pieces, struct hits *hs)
{
	struct matcher mt;
	size_t at = 0, step = (ctl & 7) + 1, n;

	matcher_init(&mt, model(), on_hit, hs);
	if (ctl & 0x40)
		mt.wait = on_wait;
	if (ctl & 0x80)
		mt.mask_file = "bitmap file";
	while (at < size) {
		n = pieces ? step : size - at;
		if (n > size - at)
			n = size - at;
		/* a copy of exactly the piece: no read past it goes unseen */
		{
			unsigned char *piece = (unsigned char *)fuzz_exact(data + at, n);

			matcher_feed(&mt, piece, n);
			free(piece);
		}
		at += n;
		/* sizes 1..8, and with bit 3 every other piece is long */
		if (ctl & 8)
			step = step < 64 ? step * 8 + 3 : (ctl & 7) + 1;
	}
	matcher_end(&mt);
	if (hs->n > 1)
		qsort(hs->h, hs->n, sizeof(*hs->h), cmp_hit);
}

static void check_hit(const uint8_t *data, size_t size, const struct scan_hit *h)
{
	uint64_t v = 0;
	unsigned int line = 1, col = 1;
	size_t i, tl = strlen(h->text);

	CHECK(h->offset < size);
	CHECK(h->verdict == ADDR_KERNEL || h->verdict == ADDR_IGNORED);
	CHECK(h->reason != NULL);
	CHECK(h->value >= model()->half);
	if (h->binary) {
		CHECK(h->offset % 4 == 0 && h->offset + 8 <= size && tl == 16);
		for (i = 8; i-- > 0;)
			v = v << 8 | data[h->offset + i];
		CHECK(v == h->value);
		return;
	}
	CHECK(tl >= 11 && h->offset + tl <= size && !memcmp(data + h->offset, h->text, tl));
	for (i = 0; i < h->offset; i++) {
		if (data[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	CHECK(h->line == line && h->column == col);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hits whole = { 0 }, cut = { 0 };
	unsigned int ctl = size ? data[size - 1] : 0;
	size_t i;

	run(data, size, ctl, 0, &whole);
	run(data, size, ctl, 1, &cut);
	CHECK(whole.n == cut.n);
	for (i = 0; i < whole.n; i++) {
		const struct scan_hit *a = &whole.h[i], *b = &cut.h[i];

		check_hit(data, size, a);
		CHECK(a->value == b->value && a->offset == b->offset && a->binary == b->binary);
		CHECK(a->line == b->line && a->column == b->column && a->verdict == b->verdict);
		CHECK(a->reason == b->reason && !strcmp(a->text, b->text));
		CHECK(!(ctl & 0x40) || whole.waits > 0);
	}
	free(whole.h);
	free(cut.h);
	return 0;
}
