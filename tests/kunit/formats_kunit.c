// SPDX-License-Identifier: GPL-2.0
/*
 * The tree-wide differential: the kernel's decoder against ptrguard's.
 *
 * Not part of the series.  tests/kunit/run copies this file into the
 * guarded tree as lib/seq_ptr_guard_formats_kunit.c, next to the table
 * it writes, lib/seq_ptr_guard_formats.h: every seq-output format literal
 * of the tree with the kinds `ptrguard fmt` gives its arguments.  Here
 * vsnprintf_walk() and seq_ptr_conv_kind() must give each format the same
 * kinds, "none" entries left out on both sides (the walk shows only the
 * values that can be addresses).
 */

#include <kunit/test.h>
#include <linux/seq_ptr_guard.h>
#include <linux/string.h>

struct guard_format {
	const char *fmt;
	const char *kinds;	/* as `ptrguard fmt` prints them */
};

#include "printf_walk.h"
#include "seq_ptr_guard_formats.h"

struct formats_kinds {
	char buf[512];
	size_t len;
};

static int formats_kinds_add(const struct printf_conv *conv, void *data)
{
	struct formats_kinds *k = data;
	enum seq_ptr_kind kind = seq_ptr_conv_kind(conv);

	if (kind != SEQ_PTR_NONE)
		k->len += scnprintf(k->buf + k->len, sizeof(k->buf) - k->len,
				    "%s%s", k->len ? "," : "",
				    seq_ptr_kind_name(kind));
	return 0;
}

static const struct printf_walker formats_walker = {
	.fn = formats_kinds_add,
	.ptr_ext = { [0 ... sizeof(formats_walker.ptr_ext) - 1] = 0xff },
};

static void formats_kinds_of(struct formats_kinds *k, const char *fmt, ...)
{
	va_list ap;

	k->len = 0;
	k->buf[0] = '\0';
	va_start(ap, fmt);
	vsnprintf_walk(NULL, 0, fmt, ap, &formats_walker, k);
	va_end(ap);
}

/* Enough zero arguments for any format checked; vsnprintf() prints them */
#define FORMATS_MAX_ARGS	32

/* The kinds of @kinds that are not "none", in @out */
static void formats_drop_none(char *out, size_t size, const char *kinds)
{
	size_t len = 0;
	const char *p = kinds;

	out[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n != 4 || strncmp(p, "none", 4))
			len += scnprintf(out + len, size - len, "%s%.*s",
					 len ? "," : "", (int)n, p);
		p += n;
		if (*p == ',')
			p++;
	}
}

static void formats_differential(struct kunit *test)
{
	unsigned int i, checked = 0, differ = 0;
	struct formats_kinds k;
	char want[512];

	for (i = 0; i < ARRAY_SIZE(guard_formats); i++) {
		const struct guard_format *f = &guard_formats[i];
		const char *p;
		int n = 0;

		for (p = f->fmt; *p; p++)
			n += *p == '%' || *p == '*';
		if (n > FORMATS_MAX_ARGS)
			continue;

		formats_kinds_of(&k, f->fmt,
				 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL,
				 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL,
				 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL,
				 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL);
		formats_drop_none(want, sizeof(want), f->kinds);
		checked++;
		if (strcmp(k.buf, want)) {
			if (differ++ < 10)
				kunit_err(test, "\"%*pE\": kernel %s, ptrguard fmt %s\n",
					  (int)strlen(f->fmt), f->fmt, k.buf, want);
		}
	}
	kunit_info(test, "%u of %zu formats checked, %u differ\n",
		   checked, ARRAY_SIZE(guard_formats), differ);
	KUNIT_EXPECT_EQ(test, differ, 0);
	KUNIT_EXPECT_GT(test, checked, 0);
}

static struct kunit_case formats_cases[] = {
	KUNIT_CASE(formats_differential),
	{}
};

static struct kunit_suite formats_suite = {
	.name = "seq_ptr_guard_formats",
	.test_cases = formats_cases,
};
kunit_test_suite(formats_suite);

MODULE_DESCRIPTION("ptrguard's tree-wide format differential (test only)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
