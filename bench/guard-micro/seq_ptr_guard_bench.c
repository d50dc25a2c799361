// SPDX-License-Identifier: GPL-2.0
/*
 * What one seq_printf() costs with the pointer guard in mode 2 against
 * mode 0, for formats like those of real /proc files.  Not a test: it
 * prints BENCH lines for bench/guard-micro.sh and never fails.  Built
 * into a scratch copy of the guarded tree only, never into the series.
 *
 * Modes alternate every NCALLS calls, ROUNDS times; the figure per format
 * is the median over the rounds of each round's mode 2 / mode 0 ratio, so
 * that a noisy host moves both sides of a ratio alike.
 *
 * Copyright (C) 2026 ptrguard project
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/seq_ptr_guard.h>
#include <linux/slab.h>
#include <linux/sort.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NCALLS	500
#define ROUNDS	101

enum bench_format { B_HEAVY, B_MEMINFO, B_UNIX, B_PLAIN, B_SYMBOL, B_NR };

static const char * const bench_names[B_NR] = {
	[B_HEAVY] = "heavy",		/* the e2e module's pointer-heavy file */
	[B_MEMINFO] = "meminfo",	/* fs/proc/meminfo.c, hugetlb lines */
	[B_UNIX] = "unix",		/* net/unix/af_unix.c, /proc/net/unix */
	[B_PLAIN] = "plain",		/* no pointer-wide conversion */
	[B_SYMBOL] = "symbol",		/* %pS, as /proc/<pid>/stack */
};

static int bench_data;

static int bench_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 bench_calls(struct seq_file *m, enum bench_format f, void *heap)
{
	static const u8 ip[4] = { 10, 0, 0, 1 };
	u64 start = ktime_get_ns();
	int i;

	for (i = 0; i < NCALLS; i++) {
		m->count = 0;
		switch (f) {
		case B_HEAVY:
			seq_printf(m, "%p %pK %pS %lx %pI4\n", heap, &bench_data,
				   bench_cmp, 0x12345UL, ip);
			break;
		case B_MEMINFO:
			seq_printf(m, "%-16s %8lu kB\n", "HugePages_Total:",
				   12345UL);
			break;
		case B_UNIX:
			seq_printf(m, "%pK: %08X %08X %08X %04X %02X %5lu", heap,
				   2, 0, 0x10000, 1, 1, 4242UL);
			break;
		case B_PLAIN:
			seq_printf(m, "%s %d %u\n", "name", 5, 7);
			break;
		default:
			seq_printf(m, "%pS\n", bench_cmp);
			break;
		}
	}
	return ktime_get_ns() - start;
}

static void seq_ptr_guard_bench(struct kunit *test)
{
	static u64 t0[ROUNDS], t2[ROUNDS], ratio[ROUNDS];
	struct seq_file *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	void *heap = kunit_kzalloc(test, 64, GFP_KERNEL);
	enum bench_format f;
	int r, old;

	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, heap);
	m->size = PAGE_SIZE;
	m->buf = kunit_kzalloc(test, m->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);

	for (f = 0; f < B_NR; f++) {
		for (r = 0; r < ROUNDS; r++) {
			old = seq_ptr_guard_set_mode(SEQ_PTR_GUARD_OFF);
			t0[r] = bench_calls(m, f, heap);
			seq_ptr_guard_set_mode(SEQ_PTR_GUARD_REFUSE_UNPRIV);
			t2[r] = bench_calls(m, f, heap);
			seq_ptr_guard_set_mode(old);
			ratio[r] = div64_u64(t2[r] * 1000, max_t(u64, t0[r], 1));
		}
		sort(t0, ROUNDS, sizeof(u64), bench_cmp, NULL);
		sort(t2, ROUNDS, sizeof(u64), bench_cmp, NULL);
		sort(ratio, ROUNDS, sizeof(u64), bench_cmp, NULL);
		kunit_info(test, "BENCH format=%s m0_ns=%llu m2_ns=%llu ratio_milli=%llu\n",
			   bench_names[f], div_u64(t0[ROUNDS / 2], NCALLS),
			   div_u64(t2[ROUNDS / 2], NCALLS), ratio[ROUNDS / 2]);
	}
}

static struct kunit_case seq_ptr_guard_bench_cases[] = {
	KUNIT_CASE(seq_ptr_guard_bench),
	{}
};

static struct kunit_suite seq_ptr_guard_bench_suite = {
	.name = "seq_ptr_guard_bench",
	.test_cases = seq_ptr_guard_bench_cases,
};
kunit_test_suite(seq_ptr_guard_bench_suite);

MODULE_DESCRIPTION("Cost of the seq_file pointer guard per seq_printf()");
MODULE_LICENSE("GPL");
