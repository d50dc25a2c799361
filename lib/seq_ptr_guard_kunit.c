// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for lib/seq_ptr_guard.c.
 *
 * The verdict tables are written by hand.  Where the table's settings are
 * those of the running kernel, each verdict is also checked against what
 * vsnprintf() really prints: a leak must put the address's hex digits in
 * the output, and a non-leak must not.
 *
 * Every argument is passed as an unsigned long, which each conversion used
 * here reads correctly on a 64-bit ABI (hence "depends on 64BIT").
 *
 * Copyright (C) 2026 ptrguard project
 */

#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/seq_ptr_guard.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "printf_walk.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* The values a case can print; resolved to real objects at run time. */
enum guard_arg {
	A_NONE,
	A_NULL,
	A_ERR,		/* ERR_PTR(-ENOMEM) */
	A_USER,		/* a user-space address */
	A_TEXT,		/* the start of a kernel function */
	A_TEXT_MID,	/* inside a kernel function */
	A_DATA,		/* a static variable */
	A_HEAP,		/* a kmalloc() object */
	A_VMALLOC,	/* a vmalloc() object */
	A_STACK,	/* a local variable */
	A_STR,		/* "str" for %s */
	A_CHAR,		/* 'c' for %c */
	A_WIDTH,	/* 20 for '*' */
	A_PHYS,		/* a phys_addr_t for %pa */
	A_RES,		/* a struct resource for %pR */
	A_IP4,		/* four bytes for %pI4 */
	A_SMALL,	/* 0xff, a small integer */
};

static const char * const guard_arg_names[] = {
	[A_NONE] = "", [A_NULL] = "null", [A_ERR] = "err", [A_USER] = "user",
	[A_TEXT] = "text", [A_TEXT_MID] = "text+4", [A_DATA] = "data",
	[A_HEAP] = "heap", [A_VMALLOC] = "vmalloc", [A_STACK] = "stack",
	[A_STR] = "str", [A_CHAR] = "char", [A_WIDTH] = "20", [A_PHYS] = "phys",
	[A_RES] = "res", [A_IP4] = "ip4", [A_SMALL] = "0xff",
};

/* Which of them are kernel addresses whose hex must not be printed */
static bool guard_arg_is_addr(enum guard_arg a)
{
	return a == A_TEXT || a == A_TEXT_MID || a == A_DATA || a == A_HEAP ||
	       a == A_VMALLOC || a == A_STACK;
}

enum guard_pk { PK_ASK, PK_YES, PK_NO };

struct guard_case {
	const char *fmt;
	enum guard_arg args[3];
	/* the settings; zero means those of a default kernel */
	bool no_hash;
	int kptr_restrict;
	enum guard_pk pk;
	/* no vsnprintf() cross-check: see the case */
	bool no_oracle;
	/* expected: the offending conversion (NULL if none) and its kind */
	const char *leak;
	enum seq_ptr_kind kind;
};

static int guard_data;
static const phys_addr_t guard_phys = 0x1000;
static const struct resource guard_res = DEFINE_RES_MEM(0x1000, 0x100);
static const u8 guard_ip4[4] = { 127, 0, 0, 1 };

struct guard_objs {
	void *heap;
	void *vmalloc;
};

static unsigned long guard_arg_value(struct kunit *test, enum guard_arg a,
				     const void *stack)
{
	const struct guard_objs *o = test->priv;

	switch (a) {
	case A_NONE:
	case A_NULL:
		return 0;
	case A_ERR:
		return (unsigned long)ERR_PTR(-ENOMEM);
	case A_USER:
		return 0x400000UL;
	case A_TEXT:
		return (unsigned long)vsnprintf;
	case A_TEXT_MID:
		return (unsigned long)vsnprintf + 4;
	case A_DATA:
		return (unsigned long)&guard_data;
	case A_HEAP:
		return (unsigned long)o->heap;
	case A_VMALLOC:
		return (unsigned long)o->vmalloc;
	case A_STACK:
		return (unsigned long)stack;
	case A_STR:
		return (unsigned long)"str";
	case A_CHAR:
		return 'c';
	case A_WIDTH:
		return 20;
	case A_PHYS:
		return (unsigned long)&guard_phys;
	case A_RES:
		return (unsigned long)&guard_res;
	case A_IP4:
		return (unsigned long)guard_ip4;
	case A_SMALL:
		return 0xff;
	}
	return 0;
}

static bool guard_find(const struct seq_ptr_env *env, struct seq_ptr_leak *leak,
		       const char *fmt, ...)
{
	va_list ap;
	bool ret;

	va_start(ap, fmt);
	ret = seq_ptr_guard_find(env, leak, fmt, ap);
	va_end(ap);
	return ret;
}

/* Is @conv the text of the conversion @leak found? */
static bool guard_conv_is(const struct seq_ptr_leak *leak, const char *conv)
{
	return leak->conv && leak->conv_len == strlen(conv) &&
	       !strncmp(leak->conv, conv, leak->conv_len);
}

static int guard_print(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return ret;
}

#define TEXT	A_TEXT
#define HEAP	A_HEAP

static const struct guard_case guard_cases[] = {
	/* Text and %% print nothing */
	{ .fmt = "no conversion\n" },
	{ .fmt = "%%px %%lx 100%%\n", .args = { HEAP } },
	/* %px: its value decides */
	{ .fmt = "%px", .args = { A_NULL } },
	{ .fmt = "%px", .args = { A_ERR } },
	{ .fmt = "%px", .args = { A_USER } },
	{ .fmt = "%px", .args = { TEXT }, .leak = "%px", .kind = SEQ_PTR_RAW },
	{ .fmt = "%px", .args = { A_DATA }, .leak = "%px", .kind = SEQ_PTR_RAW },
	{ .fmt = "%px", .args = { HEAP }, .leak = "%px", .kind = SEQ_PTR_RAW },
	{ .fmt = "%px", .args = { A_VMALLOC }, .leak = "%px", .kind = SEQ_PTR_RAW },
	{ .fmt = "%px", .args = { A_STACK }, .leak = "%px", .kind = SEQ_PTR_RAW },
	{ .fmt = "a=%s b=%px\n", .args = { A_STR, HEAP }, .leak = "%px", .kind = SEQ_PTR_RAW },
	{ .fmt = "%-20px|", .args = { HEAP }, .leak = "%-20px", .kind = SEQ_PTR_RAW },
	/* Plain %p and its fallbacks are hashed, unless no_hash_pointers */
	{ .fmt = "%p", .args = { HEAP } },
	{ .fmt = "%p,", .args = { HEAP } },
	{ .fmt = "%pe", .args = { HEAP } },
	{ .fmt = "%pe", .args = { A_ERR } },
	{ .fmt = "%pz", .args = { HEAP } },
	{ .fmt = "%p", .args = { HEAP }, .no_hash = true, .leak = "%p", .kind = SEQ_PTR_HASHED },
	{ .fmt = "%pe", .args = { HEAP }, .no_hash = true, .leak = "%pe", .kind = SEQ_PTR_HASHED },
	{ .fmt = "%pe", .args = { A_ERR }, .no_hash = true },
	{ .fmt = "%p", .args = { A_USER }, .no_hash = true },
	/* %pK: kptr_restrict and the reader decide */
	{ .fmt = "%pK", .args = { HEAP } },
	{ .fmt = "%pK", .args = { HEAP }, .no_hash = true,
	  .leak = "%pK", .kind = SEQ_PTR_RESTRICTED },
	{ .fmt = "%pK", .args = { HEAP }, .kptr_restrict = 1, .pk = PK_YES,
	  .leak = "%pK", .kind = SEQ_PTR_RESTRICTED },
	{ .fmt = "%pK", .args = { HEAP }, .kptr_restrict = 1, .pk = PK_NO },
	{ .fmt = "%pK", .args = { A_NULL }, .kptr_restrict = 1, .pk = PK_YES },
	{ .fmt = "%pK", .args = { HEAP }, .kptr_restrict = 2, .pk = PK_YES },
	{ .fmt = "%pK", .args = { HEAP }, .kptr_restrict = 2, .no_hash = true },
	/* Integers as wide as a pointer: their value decides */
	{ .fmt = "%lx", .args = { HEAP }, .leak = "%lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%lX", .args = { A_VMALLOC }, .leak = "%lX", .kind = SEQ_PTR_INT },
	{ .fmt = "%016lx", .args = { TEXT }, .leak = "%016lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%#-20lx|", .args = { A_DATA }, .leak = "%#-20lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%llx", .args = { HEAP }, .leak = "%llx", .kind = SEQ_PTR_INT },
	{ .fmt = "%zx", .args = { HEAP }, .leak = "%zx", .kind = SEQ_PTR_INT },
	{ .fmt = "%tx", .args = { HEAP }, .leak = "%tx", .kind = SEQ_PTR_INT },
	{ .fmt = "%.0lx", .args = { HEAP }, .leak = "%.0lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%*lx", .args = { A_WIDTH, HEAP }, .leak = "%*lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%-*.*lx|", .args = { A_WIDTH, A_WIDTH, HEAP },
	  .leak = "%-*.*lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%.*s%lx", .args = { A_WIDTH, A_STR, HEAP }, .leak = "%lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%c%lx", .args = { A_CHAR, HEAP }, .leak = "%lx", .kind = SEQ_PTR_INT },
	/* decimal and octal give the address away as well (no hex to look for) */
	{ .fmt = "%lu", .args = { TEXT }, .no_oracle = true, .leak = "%lu", .kind = SEQ_PTR_INT },
	{ .fmt = "%ld", .args = { HEAP }, .no_oracle = true, .leak = "%ld", .kind = SEQ_PTR_INT },
	{ .fmt = "%#lo", .args = { HEAP }, .no_oracle = true, .leak = "%#lo", .kind = SEQ_PTR_INT },
	{ .fmt = "%lx", .args = { A_USER } },
	{ .fmt = "%lx", .args = { A_SMALL } },
	{ .fmt = "%ld", .args = { A_ERR } },
	{ .fmt = "%llu", .args = { A_NULL } },
	/*
	 * Narrower integers cannot hold an address on x86_64, and the model
	 * ignores them.  UML's kernel lives below 4 GiB, where %x of an
	 * address does print all of it: no vsnprintf() cross-check there.
	 */
	{ .fmt = "%x", .args = { HEAP }, .no_oracle = true },
	{ .fmt = "%hx", .args = { HEAP } },
	{ .fmt = "%hhx", .args = { HEAP } },
	{ .fmt = "%hhx%lx", .args = { A_SMALL, HEAP }, .leak = "%lx", .kind = SEQ_PTR_INT },
	/* Symbols: hex only when there is no symbol */
	{ .fmt = "%pS", .args = { HEAP }, .leak = "%pS", .kind = SEQ_PTR_SYMBOL },
	{ .fmt = "%ps", .args = { A_VMALLOC }, .leak = "%ps", .kind = SEQ_PTR_SYMBOL },
	{ .fmt = "%pB", .args = { HEAP }, .leak = "%pB", .kind = SEQ_PTR_SYMBOL },
	{ .fmt = "%pS", .args = { A_NULL } },
	{ .fmt = "%pS", .args = { A_USER } },
	/* (the next three leak without CONFIG_KALLSYMS; see guard_find_case()) */
	{ .fmt = "%pS", .args = { TEXT } },
	{ .fmt = "%ps", .args = { A_TEXT_MID } },
	{ .fmt = "%pB", .args = { A_TEXT_MID } },
	/* Extensions that print what the pointer points to */
	{ .fmt = "%s", .args = { A_STR } },
	{ .fmt = "%pa", .args = { A_PHYS } },
	{ .fmt = "%pap", .args = { A_PHYS } },
	{ .fmt = "%pR", .args = { A_RES } },
	{ .fmt = "%pr", .args = { A_RES } },
	{ .fmt = "%pI4", .args = { A_IP4 } },
	{ .fmt = "%pI4 %px", .args = { A_IP4, HEAP }, .leak = "%px", .kind = SEQ_PTR_RAW },
	/*
	 * Odd formats that vsnprintf() takes without a warning (an invalid
	 * conversion, %n, or a width it cannot hold make it WARN_ONCE(),
	 * which a panic_on_warn kernel does not survive)
	 */
	{ .fmt = "%-%px", .args = { HEAP } },
	{ .fmt = "%5%%lx", .args = { HEAP }, .leak = "%lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%pxyz", .args = { HEAP }, .leak = "%pxyz", .kind = SEQ_PTR_RAW },
	{ .fmt = "%020000lx", .args = { HEAP }, .no_oracle = true,
	  .leak = "%020000lx", .kind = SEQ_PTR_INT },
	{ .fmt = "%-#0+ 123lx", .args = { HEAP }, .no_oracle = true,
	  .leak = "%-#0+ 123lx", .kind = SEQ_PTR_INT },
	/* The first leak is the one reported */
	{ .fmt = "%p %lx %px", .args = { HEAP, TEXT, HEAP }, .leak = "%lx", .kind = SEQ_PTR_INT },
};

/*
 * A format as a test name: escaped, and with '#' spelled out, since KTAP
 * reads "# ..." in a result line as a directive.
 */
static int guard_fmt_desc(char *desc, const char *fmt)
{
	char esc[KUNIT_PARAM_DESC_SIZE];
	const char *p;
	int n = 0;

	snprintf(esc, sizeof(esc), "%*pE", (int)strlen(fmt), fmt);
	for (p = esc; *p && n < KUNIT_PARAM_DESC_SIZE - 5; p++) {
		if (*p == '#')
			n += scnprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "\\x23");
		else
			desc[n++] = *p;
	}
	desc[n] = '\0';
	return n;
}

static void guard_case_desc(const struct guard_case *c, char *desc)
{
	int i, n;

	n = guard_fmt_desc(desc, c->fmt);
	for (i = 0; i < ARRAY_SIZE(c->args) && c->args[i] && n < KUNIT_PARAM_DESC_SIZE; i++)
		n += snprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, "%s%s",
			      i ? "," : " (", guard_arg_names[c->args[i]]);
	if (i && n < KUNIT_PARAM_DESC_SIZE)
		n += snprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, ")");
	if (c->no_hash && n < KUNIT_PARAM_DESC_SIZE)
		n += snprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, " no_hash");
	if (c->kptr_restrict && n < KUNIT_PARAM_DESC_SIZE)
		snprintf(desc + n, KUNIT_PARAM_DESC_SIZE - n, " kptr_restrict=%d%s",
			 c->kptr_restrict, c->pk == PK_YES ? " reader" : "");
}

KUNIT_ARRAY_PARAM(guard_cases, guard_cases, guard_case_desc);

static void guard_find_case(struct kunit *test)
{
	const struct guard_case *c = test->param_value;
	const char *leak = c->leak;
	enum seq_ptr_kind kind = c->kind;
	struct seq_ptr_leak found = {};
	struct seq_ptr_env env = {
		.no_hash_pointers = c->no_hash,
		.kptr_restrict = c->kptr_restrict,
		.pk_reader = c->pk == PK_YES ? 1 : c->pk == PK_NO ? 0 : -1,
	};
	struct seq_ptr_env real;
	unsigned long v[3];
	int stack;
	bool ret;
	int i;

	for (i = 0; i < 3; i++)
		v[i] = guard_arg_value(test, c->args[i], &stack);

	/* Without kallsyms every %pS of a kernel address prints hex. */
	if (!IS_ENABLED(CONFIG_KALLSYMS) && !leak && c->fmt[0] == '%' &&
	    c->fmt[1] == 'p' && strchr("SsB", c->fmt[2]) &&
	    guard_arg_is_addr(c->args[0])) {
		leak = c->fmt;
		kind = SEQ_PTR_SYMBOL;
	}

	ret = guard_find(&env, &found, c->fmt, v[0], v[1], v[2]);
	if (!leak) {
		KUNIT_EXPECT_FALSE_MSG(test, ret, "\"%s\" (%s): found %.*s (%s)",
				       c->fmt, guard_arg_names[c->args[0]],
				       found.conv_len, found.conv,
				       seq_ptr_kind_name(found.kind));
	} else {
		KUNIT_EXPECT_TRUE_MSG(test, ret, "\"%s\" (%s): no leak found, expected %s",
				      c->fmt, guard_arg_names[c->args[0]], leak);
		KUNIT_EXPECT_TRUE_MSG(test, guard_conv_is(&found, leak),
				      "\"%s\": found %.*s", c->fmt,
				      found.conv_len, found.conv);
		KUNIT_EXPECT_STREQ_MSG(test, seq_ptr_kind_name(found.kind),
				       seq_ptr_kind_name(kind), "\"%s\"", c->fmt);
		KUNIT_EXPECT_EQ_MSG(test, found.depth, 0, "\"%s\"", c->fmt);
	}

	/* Cross-check with what vsnprintf() prints under the same settings. */
	seq_ptr_env_init(&real);
	if (!c->no_oracle && env.no_hash_pointers == real.no_hash_pointers &&
	    env.kptr_restrict == real.kptr_restrict && c->pk == PK_ASK) {
		char out[128], hex[24];
		bool shown = false;

		guard_print(out, sizeof(out), c->fmt, v[0], v[1], v[2]);
		for (i = 0; out[i]; i++)
			out[i] = tolower(out[i]);
		for (i = 0; i < 3; i++) {
			if (!guard_arg_is_addr(c->args[i]))
				continue;
			snprintf(hex, sizeof(hex), "%lx", v[i]);
			shown |= !!strstr(out, hex);
		}
		KUNIT_EXPECT_EQ_MSG(test, shown, !!leak,
				    "\"%s\" printed \"%s\": the table is wrong",
				    c->fmt, out);
	}
}

/*
 * guard_find_nested - check @fmt wrapped in @levels of "[%pV]"
 */
static bool guard_find_nested(struct seq_ptr_leak *leak, unsigned int levels,
			      const char *fmt, ...)
{
	struct seq_ptr_env env = { .kptr_restrict = 2, .pk_reader = 0 };
	struct va_format vaf;
	va_list ap;
	bool ret;

	va_start(ap, fmt);
	if (!levels) {
		ret = seq_ptr_guard_find(&env, leak, fmt, ap);
	} else {
		vaf.fmt = fmt;
		vaf.va = &ap;
		ret = guard_find_nested(leak, levels - 1, "[%pV]", &vaf);
	}
	va_end(ap);
	return ret;
}

static const char guard_fmt_px[] = "%s %px";
static const char guard_fmt_p[] = "%s %p";

static void guard_nested_va(struct kunit *test)
{
	const struct guard_objs *o = test->priv;
	struct seq_ptr_leak leak = {};
	unsigned int levels;

	for (levels = 1; levels <= 4; levels++) {
		memset(&leak, 0, sizeof(leak));
		KUNIT_EXPECT_TRUE_MSG(test, guard_find_nested(&leak, levels, guard_fmt_px,
							      "x", o->heap),
				      "%%px in %u levels of %%pV", levels);
		KUNIT_EXPECT_TRUE(test, guard_conv_is(&leak, "%px"));
		KUNIT_EXPECT_EQ(test, leak.depth, levels);

		KUNIT_EXPECT_FALSE_MSG(test, guard_find_nested(&leak, levels, guard_fmt_p,
							       "x", o->heap),
				       "%%p in %u levels of %%pV", levels);
	}

	/* A fifth level is not followed, and not vouched for. */
	KUNIT_EXPECT_TRUE(test, guard_find_nested(&leak, 5, "%s", "x"));
	KUNIT_EXPECT_TRUE(test, guard_conv_is(&leak, "%pV"));
	KUNIT_EXPECT_EQ(test, leak.kind, SEQ_PTR_VA);

	/* vsnprintf() prints "(null)" and "(efault)" for these */
	KUNIT_EXPECT_FALSE(test, guard_find_nested(&leak, 0, "%pV", NULL));
	KUNIT_EXPECT_FALSE(test, guard_find_nested(&leak, 0, "%pV", ERR_PTR(-EINVAL)));
}

/*
 * What vsnprintf_walk() and seq_ptr_conv_kind() make of a format: the
 * kinds of the values it shows that can be addresses, as "k1,k2".  That is
 * how `ptrguard fmt` prints them, with its "none" entries left out (the
 * walk does not show %c, %s, %% or '*').
 */
struct guard_kinds {
	char buf[512];
	size_t len;
};

static int guard_kinds_add(const struct printf_conv *conv, void *data)
{
	struct guard_kinds *k = data;
	enum seq_ptr_kind kind = seq_ptr_conv_kind(conv);

	if (kind != SEQ_PTR_NONE)
		k->len += scnprintf(k->buf + k->len, sizeof(k->buf) - k->len,
				    "%s%s", k->len ? "," : "",
				    seq_ptr_kind_name(kind));
	return 0;
}

static const struct printf_walker guard_kinds_walker = {
	.fn = guard_kinds_add,
	.ptr_ext = { [0 ... sizeof(guard_kinds_walker.ptr_ext) - 1] = 0xff },
};

/* Zero arguments, which vsnprintf() prints safely for every conversion */
static void guard_kinds_of(struct guard_kinds *k, const char *fmt, ...)
{
	va_list ap;

	k->len = 0;
	k->buf[0] = '\0';
	va_start(ap, fmt);
	vsnprintf_walk(NULL, 0, fmt, ap, &guard_kinds_walker, k);
	va_end(ap);
}

static void guard_kinds_of_fmt(struct guard_kinds *k, const char *fmt)
{
	guard_kinds_of(k, fmt, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL,
		       0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL, 0UL);
}

struct guard_format {
	const char *fmt;
	const char *kinds;
};

/* Hand-written: what each conversion of these formats is */
static const struct guard_format guard_kind_cases[] = {
	{ "", "" },
	{ "text only\n", "" },
	{ "%%", "" },
	{ "%c%s%d%i%u%x%X%o", "" },
	{ "%hhd %hu %lu %lld %llx %zu %zd %td", "int,int,int,int,int,int" },
	{ "%px %p %pK %pS %ps %pB", "raw,hashed,restricted,symbol,symbol,symbol" },
	{ "%pa %pad %pR %pr %pV", "phys,phys,phys,phys,va" },
	{ "%pe %pz %p, %p", "hashed,hashed,hashed,hashed" },
	{ "%pI4 %pM %pUb %pE %pd %pD %pg %pGp %pOF %pfw", "" },
	{ "%ph %pb %pbl %pt %pC %pN %p4cc %pks %pus", "" },
	{ "%*.*lx %-08.3s %#o", "int" },
	{ "%-*s|%.*pK", "restricted" },
	{ "%5%%lx", "int" },
	{ "%-%px", "" },
	{ "%d %lx %s %px", "int,raw" },
};

static void guard_kind_case_desc(const struct guard_format *f, char *desc)
{
	guard_fmt_desc(desc, f->fmt);
}

KUNIT_ARRAY_PARAM(guard_kind_cases, guard_kind_cases, guard_kind_case_desc);

static void guard_kinds_case(struct kunit *test)
{
	const struct guard_format *f = test->param_value;
	struct guard_kinds k;

	guard_kinds_of_fmt(&k, f->fmt);
	KUNIT_EXPECT_STREQ_MSG(test, k.buf, f->kinds, "\"%s\"", f->fmt);
}

static int guard_test_init(struct kunit *test)
{
	struct guard_objs *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	o->heap = kunit_kmalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o->heap);
	o->vmalloc = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, o->vmalloc);
	test->priv = o;
	return 0;
}

static void guard_test_exit(struct kunit *test)
{
	const struct guard_objs *o = test->priv;

	if (!o)		/* ->exit runs after a failed ->init too */
		return;
	vfree(o->vmalloc);
}

static struct kunit_case seq_ptr_guard_test_cases[] = {
	KUNIT_CASE_PARAM(guard_find_case, guard_cases_gen_params),
	KUNIT_CASE(guard_nested_va),
	KUNIT_CASE_PARAM(guard_kinds_case, guard_kind_cases_gen_params),
	{}
};

static struct kunit_suite seq_ptr_guard_test_suite = {
	.name = "seq_ptr_guard",
	.init = guard_test_init,
	.exit = guard_test_exit,
	.test_cases = seq_ptr_guard_test_cases,
};

kunit_test_suite(seq_ptr_guard_test_suite);

MODULE_DESCRIPTION("KUnit tests for the seq_file pointer guard");
MODULE_LICENSE("GPL");
