// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for lib/seq_ptr_guard.c and the seq_file hook.
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
#include <linux/cred.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/seq_file.h>
#include <linux/seq_ptr_guard.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <linux/vmalloc.h>
#include <trace/events/seq_ptr_guard.h>

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
	int mode;	/* the machine's, put back after each case */
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
 * What a walk shows its callback: each %p and integer conversion with its
 * value, as "spec=value;" (vsnprintf_walk() does not show %c, %s or %%).
 */
struct guard_visits {
	char buf[256];
	size_t len;
	int n;
	int stop_at;	/* the visit that returns -EPERM; 0 for none */
	const struct printf_walker *walker;	/* NULL: guard_walk_all */
	const char *out;	/* the text of that visit in the buffer */
	int out_len;
};

static int guard_visit(const struct printf_conv *conv, void *data)
{
	struct guard_visits *v = data;
	unsigned long long value = conv->num;

	if (conv->conv == 'p')
		value = (unsigned long)conv->ptr;

	v->len += scnprintf(v->buf + v->len, sizeof(v->buf) - v->len,
			    "%.*s=%llx;", conv->len, conv->spec, value);
	if (++v->n != v->stop_at)
		return 0;
	v->out = conv->out;
	v->out_len = conv->out_len;
	return -EPERM;
}

/* Shows guard_visit() every value vsnprintf_walk() can show */
static const struct printf_walker guard_walk_all = {
	.fn = guard_visit,
	.ptr_ext = { [0 ... sizeof(guard_walk_all.ptr_ext) - 1] = 0xff },
};

static int guard_vsnprintf_walk(char *buf, size_t size, struct guard_visits *v,
				const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsnprintf_walk(buf, size, fmt, ap,
			     v->walker ?: &guard_walk_all, v);
	va_end(ap);
	return ret;
}

/*
 * vsnprintf_walk(), which the hooks format with, prints what vsnprintf()
 * prints, shows its callback the same values with no buffer (the walk
 * seq_ptr_guard_find() makes) as with one, and stops when told to, with
 * the refused conversion's text taken back: the buffer ends where that
 * text began, and what of it was printed is wiped.
 */
static void guard_walk_case(struct kunit *test)
{
	const struct guard_case *c = test->param_value;
	struct guard_visits walked = {}, printed = {}, stopped = { .stop_at = 1 };
	struct guard_visits nobuf = { .stop_at = 1 };
	char want[128], got[128];
	unsigned long v[3];
	int stack, len, i;

	for (i = 0; i < 3; i++)
		v[i] = guard_arg_value(test, c->args[i], &stack);

	len = guard_vsnprintf_walk(NULL, 0, &walked, c->fmt, v[0], v[1], v[2]);
	KUNIT_EXPECT_EQ(test, len, guard_print(want, sizeof(want), c->fmt,
					       v[0], v[1], v[2]));
	len = guard_vsnprintf_walk(got, sizeof(got), &printed, c->fmt,
				   v[0], v[1], v[2]);
	KUNIT_EXPECT_EQ(test, len, guard_print(want, sizeof(want), c->fmt,
					       v[0], v[1], v[2]));
	KUNIT_EXPECT_STREQ(test, got, want);
	KUNIT_EXPECT_STREQ(test, printed.buf, walked.buf);

	len = guard_vsnprintf_walk(got, sizeof(got), &stopped, c->fmt,
				   v[0], v[1], v[2]);
	KUNIT_EXPECT_EQ(test, stopped.n, walked.n ? 1 : 0);
	if (walked.n) {
		KUNIT_EXPECT_EQ(test, len, -EPERM);
		KUNIT_ASSERT_NOT_NULL(test, stopped.out);
		KUNIT_EXPECT_PTR_EQ(test, got + strlen(got), stopped.out);
		KUNIT_EXPECT_GT(test, stopped.out_len, 0);
		KUNIT_EXPECT_NULL(test, memchr_inv(stopped.out, 0, stopped.out_len));

		/* With no buffer, the text is nowhere to be looked at */
		len = guard_vsnprintf_walk(NULL, 0, &nobuf, c->fmt,
					   v[0], v[1], v[2]);
		KUNIT_EXPECT_EQ(test, len, -EPERM);
		KUNIT_EXPECT_NULL(test, nobuf.out);
		KUNIT_EXPECT_EQ(test, nobuf.out_len, 0);
	}
}

/*
 * A walker shows only what it selects: here integers from 0x1000 up and
 * %px and %pS, so the first %lx, the %pK and the %p are printed unseen.
 */
static void guard_walk_filter(struct kunit *test)
{
	static const char fmt[] = "%lx %lx %px %pK %pS %p %llu\n";
	struct printf_walker walker = { .fn = guard_visit, .min_num = 0x1000 };
	struct guard_visits seen = { .walker = &walker };
	char got[256], want[256], expect[128];
	int len;

	walker.ptr_ext['x' / 8] |= 1 << ('x' % 8);
	walker.ptr_ext['S' / 8] |= 1 << ('S' % 8);
	len = guard_vsnprintf_walk(got, sizeof(got), &seen, fmt, 0xfffUL,
				   0x1000UL, &guard_data, &guard_data,
				   guard_walk_filter, &guard_data, 5ULL);
	KUNIT_EXPECT_EQ(test, len, guard_print(want, sizeof(want), fmt, 0xfffUL,
					       0x1000UL, &guard_data,
					       &guard_data, guard_walk_filter,
					       &guard_data, 5ULL));
	KUNIT_EXPECT_STREQ(test, got, want);
	snprintf(expect, sizeof(expect), "%%lx=1000;%%px=%lx;%%pS=%lx;",
		 (unsigned long)&guard_data, (unsigned long)guard_walk_filter);
	KUNIT_EXPECT_STREQ(test, seen.buf, expect);
}

static int guard_hook_print(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = __seq_ptr_guard_vsnprintf(NULL, buf, size, fmt, ap);
	va_end(ap);
	return ret;
}

enum guard_opener { OPENER_PRIV, OPENER_NOCAP, OPENER_OTHER_UID };

static const struct cred *guard_cred(struct kunit *test, enum guard_opener who)
{
	struct cred *cred = prepare_creds();

	KUNIT_ASSERT_NOT_NULL(test, cred);
	if (who == OPENER_NOCAP)
		cap_lower(cred->cap_effective, CAP_SYSLOG);
	else if (who == OPENER_OTHER_UID)
		cred->euid = KUIDT_INIT(1000);
	return cred;
}

/*
 * Is @got what @want is with some values censored: the same length, and
 * where they differ, a hex digit of @want is a '0' in @got?  Written apart
 * from seq_ptr_censor(), which it checks.
 */
static bool guard_is_censored(const char *got, const char *want)
{
	bool differs = false;

	if (strlen(got) != strlen(want))
		return false;
	for (; *want; got++, want++) {
		if (*got == *want)
			continue;
		if (*got != '0' || !isxdigit(*want))
			return false;
		differs = true;
	}
	return differs;
}

/*
 * The hooks judge each value as vsnprintf_walk() prints it (a %pS by the
 * text it printed); seq_ptr_guard_find() judges before anything is printed
 * (a %pS by a kallsyms lookup).  Both must find the same leaks.  A seq_buf
 * has no record to refuse: even in strict mode, it censors what a reader
 * without CAP_SYSLOG formats, and leaves the rest as vsnprintf() prints
 * it.  Only the cases that the running kernel's settings are those of.
 */
static void guard_hook_case(struct kunit *test)
{
	const struct guard_case *c = test->param_value;
	struct seq_ptr_env env = {
		.no_hash_pointers = c->no_hash,
		.kptr_restrict = c->kptr_restrict,
		.pk_reader = -1,
	};
	struct seq_ptr_env real;
	struct seq_ptr_leak found = {};
	const struct cred *nocap, *saved;
	char got[128], want[128];
	unsigned long v[3];
	int stack, len, old, i;
	bool leaks;

	seq_ptr_env_init(&real);
	if (env.no_hash_pointers != real.no_hash_pointers ||
	    env.kptr_restrict != real.kptr_restrict || c->pk != PK_ASK)
		kunit_skip(test, "needs other settings than the running kernel's");

	for (i = 0; i < 3; i++)
		v[i] = guard_arg_value(test, c->args[i], &stack);
	leaks = guard_find(&env, &found, c->fmt, v[0], v[1], v[2]);

	nocap = guard_cred(test, OPENER_NOCAP);
	old = seq_ptr_guard_set_mode(SEQ_PTR_GUARD_REFUSE);
	saved = override_creds(nocap);
	len = guard_hook_print(got, sizeof(got), c->fmt, v[0], v[1], v[2]);
	revert_creds(saved);
	seq_ptr_guard_set_mode(old);
	put_cred(nocap);

	KUNIT_EXPECT_EQ(test, len, guard_print(want, sizeof(want), c->fmt,
					       v[0], v[1], v[2]));
	/* What of the value fits the buffer is censored: maybe none of it */
	if (leaks)
		KUNIT_EXPECT_TRUE_MSG(test, guard_is_censored(got, want) ||
				      (len >= sizeof(got) && !strcmp(got, want)),
				      "\"%s\": %.*s: \"%s\" is not \"%s\" censored",
				      c->fmt, found.conv_len, found.conv, got, want);
	else
		KUNIT_EXPECT_STREQ(test, got, want);
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

/*
 * Reading a real seq_file through seq_read_iter().  The file has three
 * records; the middle one prints the pointer it is given.
 */
enum guard_writer { W_PRINTF, W_HEX, W_DEC, W_DEC_WIDTH, W_DEC_LL, W_BPRINTF };

struct guard_file {
	const char *fmt[3];
	const void *arg;
	unsigned int pad;	/* bytes of padding before record 1's pointer */
	enum guard_writer writer;	/* what prints record 1's value */
};

/* Record 1 printed by a seq_put_*() writer: "[VALUE]\n" */
static void guard_put(struct seq_file *m, enum guard_writer w,
		      unsigned long long v)
{
	switch (w) {
	case W_HEX:
		seq_put_hex_ll(m, "[", v, 16);
		break;
	case W_DEC:
		seq_put_decimal_ull(m, "[", v);
		break;
	case W_DEC_WIDTH:
		seq_put_decimal_ull_width(m, "[", v, 24);
		break;
#ifdef CONFIG_BINARY_PRINTF
	case W_BPRINTF: {
		/* recorded as trace_printk() and bpf_seq_printf() record */
		u32 bin[8];

		bprintf(bin, ARRAY_SIZE(bin), "[%lx", (unsigned long)v);
		seq_bprintf(m, "[%lx", bin);
		break;
	}
#endif
	default:
		seq_put_decimal_ll(m, "[", (long long)v);
		break;
	}
	seq_puts(m, "]\n");
}

static void *guard_start(struct seq_file *m, loff_t *pos)
{
	return *pos < 3 ? pos : NULL;
}

static void *guard_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return guard_start(m, pos);
}

static void guard_stop(struct seq_file *m, void *v)
{
}

static int guard_show(struct seq_file *m, void *v)
{
	const struct guard_file *g = m->private;
	loff_t i = *(loff_t *)v;

	if (i == 1 && g->pad)
		seq_printf(m, "%*s", g->pad, "");
	if (i == 1 && g->writer != W_PRINTF)
		guard_put(m, g->writer, (unsigned long)g->arg);
	else
		seq_printf(m, g->fmt[i], g->arg);
	return 0;
}

static const struct seq_operations guard_seq_ops = {
	.start = guard_start,
	.next = guard_next,
	.stop = guard_stop,
	.show = guard_show,
};

static struct file *guard_open(struct kunit *test, const struct guard_file *g,
			       const struct cred *opener)
{
	struct file *file = kunit_kzalloc(test, sizeof(*file), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, file);
	file->f_cred = opener;
	KUNIT_ASSERT_EQ(test, seq_open(file, &guard_seq_ops), 0);
	((struct seq_file *)file->private_data)->private = (void *)g;
	return file;
}

static void guard_close(struct file *file)
{
	seq_release(NULL, file);
}

static ssize_t guard_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	struct kvec kv = { .iov_base = buf, .iov_len = len };
	struct iov_iter iter;
	struct kiocb kiocb;
	ssize_t ret;

	init_sync_kiocb(&kiocb, file);
	kiocb.ki_pos = *pos;
	iov_iter_kvec(&iter, ITER_DEST, &kv, 1, len);
	ret = seq_read_iter(&kiocb, &iter);
	*pos = kiocb.ki_pos;
	return ret;
}

/* Read the whole file @chunk bytes at a time; returns the first error or 0 */
static ssize_t guard_read_all(struct file *file, char *buf, size_t size,
			      size_t chunk, size_t *got)
{
	loff_t pos = 0;
	ssize_t n;

	*got = 0;
	do {
		n = guard_read(file, buf + *got, min(chunk, size - *got), &pos);
		if (n > 0)
			*got += n;
	} while (n > 0 && *got < size);
	buf[*got] = '\0';
	return n < 0 ? n : 0;
}

static const char guard_fmt_rec_px[] = "[%px]\n";
/*
 * What no reader is kept from: a user-space value.  (A hashed %p is no
 * such thing: with no_hash_pointers it prints the address.)
 */
#define GUARD_USER_PTR	((void *)0x400000UL)
static const char guard_fmt_leak[] = "[%px]\nlast\n";

enum guard_result { R_SHOWN, R_CENSORED, R_REFUSED, R_OTHER };

static const char * const guard_result_names[] = {
	[R_SHOWN] = "shown", [R_CENSORED] = "censored",
	[R_REFUSED] = "refused", [R_OTHER] = "garbled",
};

struct guard_read_case {
	const char *name;
	int mode;
	enum guard_opener opener;
	bool leak;		/* record 1 prints a heap address */
	unsigned int pad;	/* make record 1 overflow the first buffer */
	size_t chunk;		/* read() size */
	enum guard_result result;	/* expected, for a leak */
};

static const struct guard_read_case guard_read_cases[] = {
	{ "off", SEQ_PTR_GUARD_OFF, OPENER_NOCAP, true, 0, 4096, R_SHOWN },
	{ "log", SEQ_PTR_GUARD_LOG, OPENER_NOCAP, true, 0, 4096, R_SHOWN },
	{ "censor, no leak", SEQ_PTR_GUARD_CENSOR, OPENER_NOCAP, false, 0, 4096 },
	{ "censor, CAP_SYSLOG", SEQ_PTR_GUARD_CENSOR, OPENER_PRIV, true, 0, 4096, R_SHOWN },
	{ "censor, no CAP_SYSLOG", SEQ_PTR_GUARD_CENSOR, OPENER_NOCAP, true, 0, 4096,
	  R_CENSORED },
	{ "censor, uid changed", SEQ_PTR_GUARD_CENSOR, OPENER_OTHER_UID, true, 0, 4096,
	  R_CENSORED },
	{ "censor, 1-byte reads", SEQ_PTR_GUARD_CENSOR, OPENER_NOCAP, true, 0, 1,
	  R_CENSORED },
	{ "censor, overflow first", SEQ_PTR_GUARD_CENSOR, OPENER_NOCAP, true, 5000, 16384,
	  R_CENSORED },
	{ "refuse, CAP_SYSLOG", SEQ_PTR_GUARD_REFUSE, OPENER_PRIV, true, 0, 4096, R_SHOWN },
	{ "refuse, no CAP_SYSLOG", SEQ_PTR_GUARD_REFUSE, OPENER_NOCAP, true, 0, 4096,
	  R_REFUSED },
	{ "refuse, uid changed", SEQ_PTR_GUARD_REFUSE, OPENER_OTHER_UID, true, 0, 4096,
	  R_REFUSED },
	{ "refuse, no leak", SEQ_PTR_GUARD_REFUSE, OPENER_NOCAP, false, 0, 4096 },
	{ "refuse, 1-byte reads", SEQ_PTR_GUARD_REFUSE, OPENER_NOCAP, true, 0, 1, R_REFUSED },
	{ "refuse, 3-byte reads", SEQ_PTR_GUARD_REFUSE, OPENER_NOCAP, true, 0, 3, R_REFUSED },
	{ "refuse, overflow first", SEQ_PTR_GUARD_REFUSE, OPENER_NOCAP, true, 5000, 16384,
	  R_REFUSED },
	{ "refuse, overflow, no leak", SEQ_PTR_GUARD_REFUSE, OPENER_NOCAP,
	  false, 5000, 16384 },
	{ "log, overflow", SEQ_PTR_GUARD_LOG, OPENER_NOCAP, true, 5000, 16384, R_SHOWN },
};

static void guard_read_case_desc(const struct guard_read_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(guard_read_cases, guard_read_cases, guard_read_case_desc);

static void guard_read_case(struct kunit *test)
{
	const struct guard_read_case *c = test->param_value;
	const struct guard_objs *o = test->priv;
	struct guard_file g = {
		.fmt = { "first\n", guard_fmt_rec_px, "last\n" },
		.arg = c->leak ? o->heap : GUARD_USER_PTR,
		.pad = c->pad,
	};
	const struct cred *opener = guard_cred(test, c->opener);
	size_t size = 16384, got, len1;
	char *buf = kunit_kzalloc(test, size + 1, GFP_KERNEL);
	char *want = kunit_kzalloc(test, size + 1, GFP_KERNEL);
	struct file *file;
	ssize_t err;
	int old;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, want);

	/* What the file holds with the guard off: the reference output. */
	len1 = scnprintf(want, size, "first\n%*s", c->pad, "");
	if (c->leak)
		guard_print(want + len1, size - len1, guard_fmt_leak, o->heap);

	old = seq_ptr_guard_set_mode(c->mode);
	file = guard_open(test, &g, opener);
	err = guard_read_all(file, buf, size, c->chunk, &got);
	if (c->leak && c->result == R_REFUSED) {
		/* Records before the refused one are returned, then -EPERM. */
		KUNIT_EXPECT_EQ_MSG(test, err, -EPERM, "%s", c->name);
		KUNIT_EXPECT_STREQ_MSG(test, buf, "first\n", "%s", c->name);
		/* ... and it stays refused */
		{
			loff_t pos = got;

			KUNIT_EXPECT_EQ_MSG(test, guard_read(file, buf, size, &pos),
					    -EPERM, "%s: read again", c->name);
		}
	} else if (c->leak && c->result == R_CENSORED) {
		/* Every record, the address's digits zeros, the rest as is */
		KUNIT_EXPECT_EQ_MSG(test, err, 0, "%s", c->name);
		KUNIT_EXPECT_TRUE_MSG(test, guard_is_censored(buf, want),
				      "%s: \"%s\" is not \"%s\" censored",
				      c->name, buf, want);
		KUNIT_EXPECT_STREQ_MSG(test, buf + len1, "[0000000000000000]\nlast\n",
				       "%s: not zeros in place", c->name);
	} else {
		KUNIT_EXPECT_EQ_MSG(test, err, 0, "%s", c->name);
		if (c->leak)
			KUNIT_EXPECT_STREQ_MSG(test, buf, want, "%s", c->name);
		else
			KUNIT_EXPECT_EQ_MSG(test, got, len1 + 3 + 2 * sizeof(void *) + 5,
					    "%s: %s", c->name, buf);
	}
	guard_close(file);
	seq_ptr_guard_set_mode(old);
	put_cred(opener);
}

/*
 * seq_put_hex_ll() and seq_put_decimal_*() print numbers with no format: a
 * kernel address among them is refused as a pointer-wide integer would be,
 * and a user address or a count goes through as printed.
 */
struct guard_put_case {
	enum guard_writer writer;
	enum guard_arg arg;
	enum guard_opener opener;
};

static const struct guard_put_case guard_put_cases[] = {
	{ W_HEX, A_HEAP, OPENER_NOCAP },
	{ W_HEX, A_TEXT, OPENER_NOCAP },
	{ W_HEX, A_USER, OPENER_NOCAP },
	{ W_HEX, A_SMALL, OPENER_NOCAP },
	{ W_HEX, A_HEAP, OPENER_PRIV },
	{ W_DEC, A_HEAP, OPENER_NOCAP },
	{ W_DEC, A_TEXT, OPENER_NOCAP },
	{ W_DEC, A_USER, OPENER_NOCAP },
	{ W_DEC, A_SMALL, OPENER_NOCAP },
	{ W_DEC, A_HEAP, OPENER_PRIV },
	{ W_DEC_WIDTH, A_HEAP, OPENER_NOCAP },
	{ W_DEC_WIDTH, A_TEXT, OPENER_NOCAP },
	{ W_DEC_WIDTH, A_USER, OPENER_NOCAP },
	{ W_DEC_WIDTH, A_SMALL, OPENER_NOCAP },
	{ W_DEC_WIDTH, A_HEAP, OPENER_PRIV },
	{ W_DEC_LL, A_HEAP, OPENER_NOCAP },
	{ W_DEC_LL, A_TEXT, OPENER_NOCAP },
	{ W_DEC_LL, A_USER, OPENER_NOCAP },
	{ W_DEC_LL, A_SMALL, OPENER_NOCAP },
	{ W_DEC_LL, A_HEAP, OPENER_PRIV },
	{ W_BPRINTF, A_HEAP, OPENER_NOCAP },
	{ W_BPRINTF, A_TEXT, OPENER_NOCAP },
	{ W_BPRINTF, A_USER, OPENER_NOCAP },
	{ W_BPRINTF, A_SMALL, OPENER_NOCAP },
	{ W_BPRINTF, A_HEAP, OPENER_PRIV },
};

static const char * const guard_writer_names[] = {
	[W_PRINTF] = "seq_printf",
	[W_HEX] = "seq_put_hex_ll",
	[W_DEC] = "seq_put_decimal_ull",
	[W_DEC_WIDTH] = "seq_put_decimal_ull_width",
	[W_DEC_LL] = "seq_put_decimal_ll",
	[W_BPRINTF] = "seq_bprintf",
};

static void guard_put_case_desc(const struct guard_put_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s (%s)%s",
		 guard_writer_names[c->writer], guard_arg_names[c->arg],
		 c->opener == OPENER_PRIV ? " CAP_SYSLOG" : "");
}

KUNIT_ARRAY_PARAM(guard_put_cases, guard_put_cases, guard_put_case_desc);

static void guard_put_case(struct kunit *test)
{
	const struct guard_put_case *c = test->param_value;
	unsigned long v = guard_arg_value(test, c->arg, &c);
	struct guard_file g = {
		.fmt = { "first\n", NULL, "last\n" },
		.arg = (const void *)v,
		.writer = c->writer,
	};
	const struct cred *opener = guard_cred(test, c->opener);
	bool censored = guard_arg_is_addr(c->arg) && c->opener != OPENER_PRIV;
	char buf[128], want[128];
	struct file *file;
	size_t got;
	ssize_t err;
	int old;

	if (c->writer == W_BPRINTF && !IS_ENABLED(CONFIG_BINARY_PRINTF))
		kunit_skip(test, "no seq_bprintf() without CONFIG_BINARY_PRINTF");

	switch (c->writer) {
	case W_HEX:
		snprintf(want, sizeof(want), "first\n[%016lx]\nlast\n", v);
		break;
	case W_BPRINTF:
		snprintf(want, sizeof(want), "first\n[%lx]\nlast\n", v);
		break;
	case W_DEC_WIDTH:
		snprintf(want, sizeof(want), "first\n[%24lu]\nlast\n", v);
		break;
	case W_DEC_LL:
		snprintf(want, sizeof(want), "first\n[%ld]\nlast\n", (long)v);
		break;
	default:
		snprintf(want, sizeof(want), "first\n[%lu]\nlast\n", v);
		break;
	}

	old = seq_ptr_guard_set_mode(SEQ_PTR_GUARD_CENSOR);
	file = guard_open(test, &g, opener);
	err = guard_read_all(file, buf, sizeof(buf) - 1, 4096, &got);
	KUNIT_EXPECT_EQ(test, err, 0);
	if (censored)
		KUNIT_EXPECT_TRUE_MSG(test, guard_is_censored(buf, want),
				      "\"%s\" is not \"%s\" censored", buf, want);
	else
		KUNIT_EXPECT_STREQ(test, buf, want);
	guard_close(file);

	/*
	 * Strict mode censors integers too: users choose many of them
	 * (an rlimit in /proc/PID/stat), and refusing their records would
	 * hide them from everyone else.
	 */
	seq_ptr_guard_set_mode(SEQ_PTR_GUARD_REFUSE);
	file = guard_open(test, &g, opener);
	err = guard_read_all(file, buf, sizeof(buf) - 1, 4096, &got);
	KUNIT_EXPECT_EQ(test, err, 0);
	if (censored)
		KUNIT_EXPECT_TRUE_MSG(test, guard_is_censored(buf, want),
				      "strict: \"%s\" is not \"%s\" censored", buf, want);
	else
		KUNIT_EXPECT_STREQ(test, buf, want);
	guard_close(file);
	seq_ptr_guard_set_mode(old);
	put_cred(opener);
}

/* pread() past the first record goes through traverse(). */
/* What the tracepoint reported while a test watched it */
struct guard_traced {
	int count[SEQ_PTR_NR_ACTIONS];
	char conv[8];
};

static void guard_trace_probe(void *data, const void *show,
			      const struct seq_ptr_leak *leak, int action)
{
	struct guard_traced *t = data;

	/* Other readers on other CPUs may leak meanwhile: count ours */
	if (show != guard_show)
		return;
	if (action >= 0 && action < SEQ_PTR_NR_ACTIONS)
		t->count[action]++;
	strscpy(t->conv, leak->conv,
		min_t(size_t, leak->conv_len + 1, sizeof(t->conv)));
}

/*
 * Every leak is counted at its call site (debugfs seq_ptr_guard/sites)
 * by what became of it, and traced: reads of a file whose format no other
 * case uses, by a reader without CAP_SYSLOG and by a privileged one, in
 * censor mode and in strict mode.  The refused reader meets the record
 * twice: the read that stops before it, and the next, which fails at it;
 * each attempt is counted and traced.
 */
static void guard_sites_trace(struct kunit *test)
{
	const struct guard_objs *o = test->priv;
	static const char fmt[] = "sites %px\n";
	struct guard_file g = {
		.fmt = { "first\n", fmt, "last\n" },
		.arg = o->heap,
	};
	const struct cred *nocap = guard_cred(test, OPENER_NOCAP);
	const struct cred *priv = guard_cred(test, OPENER_PRIV);
	long before[SEQ_PTR_NR_ACTIONS] = {}, after[SEQ_PTR_NR_ACTIONS];
	struct guard_traced t = {};
	struct file *file;
	char buf[128];
	size_t got;
	int old, a;

	if (!IS_ENABLED(CONFIG_TRACEPOINTS))
		kunit_skip(test, "no tracepoints");
	seq_ptr_guard_site_counts(fmt, before);
	KUNIT_ASSERT_EQ(test, register_trace_seq_ptr_guard_leak(guard_trace_probe, &t), 0);

	old = seq_ptr_guard_set_mode(SEQ_PTR_GUARD_CENSOR);
	file = guard_open(test, &g, nocap);
	KUNIT_EXPECT_EQ(test, guard_read_all(file, buf, sizeof(buf) - 1, 4096, &got), 0);
	guard_close(file);
	KUNIT_EXPECT_EQ(test, t.count[SEQ_PTR_CENSOR], 1);
	KUNIT_EXPECT_STREQ(test, t.conv, "%px");

	/* What the kernel means a privileged reader to see is not reported */
	file = guard_open(test, &g, priv);
	KUNIT_EXPECT_EQ(test, guard_read_all(file, buf, sizeof(buf) - 1, 4096, &got), 0);
	guard_close(file);
	KUNIT_EXPECT_EQ(test, t.count[SEQ_PTR_SHOW], 0);

	/* ... but logged in log mode, for everyone */
	seq_ptr_guard_set_mode(SEQ_PTR_GUARD_LOG);
	file = guard_open(test, &g, priv);
	KUNIT_EXPECT_EQ(test, guard_read_all(file, buf, sizeof(buf) - 1, 4096, &got), 0);
	guard_close(file);
	KUNIT_EXPECT_EQ(test, t.count[SEQ_PTR_SHOW], 1);

	seq_ptr_guard_set_mode(SEQ_PTR_GUARD_REFUSE);
	file = guard_open(test, &g, nocap);
	KUNIT_EXPECT_EQ(test, guard_read_all(file, buf, sizeof(buf) - 1, 4096, &got), -EPERM);
	guard_close(file);
	seq_ptr_guard_set_mode(old);
	KUNIT_EXPECT_GT(test, t.count[SEQ_PTR_REFUSE], 0);

	unregister_trace_seq_ptr_guard_leak(guard_trace_probe, &t);
	tracepoint_synchronize_unregister();

	KUNIT_ASSERT_TRUE(test, seq_ptr_guard_site_counts(fmt, after));
	for (a = 0; a < SEQ_PTR_NR_ACTIONS; a++)
		KUNIT_EXPECT_EQ_MSG(test, after[a] - before[a], t.count[a],
				    "%s", guard_result_names[a]);
	put_cred(nocap);
	put_cred(priv);
}

static void guard_read_offset(struct kunit *test)
{
	const struct guard_objs *o = test->priv;
	struct guard_file g = {
		.fmt = { "first\n", "[%px]\n", "last\n" },
		.arg = o->heap,
	};
	const struct cred *opener = guard_cred(test, OPENER_NOCAP);
	struct file *file;
	char buf[64];
	loff_t pos;
	int old;

	old = seq_ptr_guard_set_mode(SEQ_PTR_GUARD_REFUSE);
	file = guard_open(test, &g, opener);

	pos = 2;	/* inside "first\n": returns its tail, then stops */
	KUNIT_EXPECT_EQ(test, guard_read(file, buf, sizeof(buf), &pos), 4);
	KUNIT_EXPECT_MEMEQ(test, buf, "rst\n", 4);

	pos = 8;	/* inside the refused record */
	KUNIT_EXPECT_EQ(test, guard_read(file, buf, sizeof(buf), &pos), -EPERM);

	guard_close(file);
	seq_ptr_guard_set_mode(old);
	put_cred(opener);
}

/* One refused file does not affect another, nor the next reader. */
static void guard_read_isolation(struct kunit *test)
{
	const struct guard_objs *o = test->priv;
	struct guard_file bad = { .fmt = { "a\n", "%px\n", "c\n" }, .arg = o->heap };
	struct guard_file good = { .fmt = { "a\n", "%px\n", "c\n" }, .arg = GUARD_USER_PTR };
	const struct cred *priv = guard_cred(test, OPENER_PRIV);
	const struct cred *nocap = guard_cred(test, OPENER_NOCAP);
	struct file *f1, *f2, *f3;
	char buf[128];
	size_t got;
	int old;

	old = seq_ptr_guard_set_mode(SEQ_PTR_GUARD_REFUSE);
	f1 = guard_open(test, &bad, nocap);
	f2 = guard_open(test, &good, nocap);
	f3 = guard_open(test, &bad, priv);

	KUNIT_EXPECT_EQ(test, guard_read_all(f1, buf, sizeof(buf) - 1, 64, &got), -EPERM);
	KUNIT_EXPECT_EQ(test, guard_read_all(f2, buf, sizeof(buf) - 1, 64, &got), 0);
	KUNIT_EXPECT_EQ(test, got, 2 + 2 * sizeof(void *) + 1 + 2);
	KUNIT_EXPECT_EQ(test, guard_read_all(f3, buf, sizeof(buf) - 1, 64, &got), 0);
	KUNIT_EXPECT_EQ(test, got, 2 + 2 * sizeof(void *) + 1 + 2);

	guard_close(f1);
	guard_close(f2);
	guard_close(f3);
	seq_ptr_guard_set_mode(old);
	put_cred(priv);
	put_cred(nocap);
}

/*
 * No verdict may depend on where kernel memory is.  For every guarded
 * writer, mode and reader, values the kernel has mapped (text, data, a
 * kmalloc() and a vmalloc() object, a stack; module data when this suite
 * is a module) must meet the same fate as an unmapped value in the same
 * window: otherwise a user who makes a file print values of their choice
 * learns from the verdict which are mapped.  The fates themselves follow
 * the mode and the reader only.
 */
struct guard_window_case {
	enum guard_writer writer;
	const char *fmt;	/* for W_PRINTF */
	int mode;
	enum guard_opener opener;
};

static const struct {
	enum guard_writer writer;
	const char *fmt;
} guard_window_writers[] = {
	{ W_PRINTF, "[%px]\n" },
	{ W_PRINTF, "[%lx]\n" },
	{ W_PRINTF, "[%lu]\n" },
	{ W_PRINTF, "[%ld]\n" },
	{ W_HEX },
	{ W_DEC },
	{ W_DEC_LL },
	{ W_BPRINTF },
};

static const int guard_window_modes[] = {
	SEQ_PTR_GUARD_LOG, SEQ_PTR_GUARD_CENSOR, SEQ_PTR_GUARD_REFUSE,
};

#define GUARD_WINDOW_CASES (ARRAY_SIZE(guard_window_writers) * \
			    ARRAY_SIZE(guard_window_modes) * 2)

static struct guard_window_case guard_window_cases[GUARD_WINDOW_CASES];

static const void *guard_window_gen(const void *prev, char *desc)
{
	struct guard_window_case *c = prev ? (void *)prev + sizeof(*c) :
					     guard_window_cases;
	unsigned int i = c - guard_window_cases;
	unsigned int w, m;

	if (i >= GUARD_WINDOW_CASES)
		return NULL;
	w = i / (ARRAY_SIZE(guard_window_modes) * 2);
	m = i / 2 % ARRAY_SIZE(guard_window_modes);
	c->writer = guard_window_writers[w].writer;
	c->fmt = guard_window_writers[w].fmt;
	c->mode = guard_window_modes[m];
	c->opener = i % 2 ? OPENER_NOCAP : OPENER_PRIV;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s%.*s mode %d%s",
		 guard_writer_names[c->writer], c->fmt ? " " : "",
		 c->fmt ? (int)strlen(c->fmt) - 1 : 0, c->fmt ?: "", c->mode,
		 c->opener == OPENER_PRIV ? " CAP_SYSLOG" : "");
	return c;
}

/* What reading the file with @v in record 1 gave: shown, censored... */
static enum guard_result guard_window_read(struct kunit *test,
					   const struct guard_window_case *c,
					   unsigned long v, const struct cred *opener)
{
	struct guard_file g = {
		.fmt = { "first\n", c->fmt, "last\n" },
		.arg = (const void *)v,
		.writer = c->writer,
	};
	char buf[128], want[128];
	struct file *file;
	size_t got;
	ssize_t err;

	switch (c->writer) {
	case W_HEX:
		snprintf(want, sizeof(want), "first\n[%016lx]\nlast\n", v);
		break;
	case W_DEC:
		snprintf(want, sizeof(want), "first\n[%lu]\nlast\n", v);
		break;
	case W_BPRINTF:
		snprintf(want, sizeof(want), "first\n[%lx]\nlast\n", v);
		break;
	case W_DEC_LL:
		snprintf(want, sizeof(want), "first\n[%ld]\nlast\n", (long)v);
		break;
	default:
		strscpy(want, "first\n", sizeof(want));
		guard_print(want + 6, sizeof(want) - 6, c->fmt, v);
		strlcat(want, "last\n", sizeof(want));
		break;
	}

	file = guard_open(test, &g, opener);
	err = guard_read_all(file, buf, sizeof(buf) - 1, 4096, &got);
	guard_close(file);
	if (err == -EPERM && !strcmp(buf, "first\n"))
		return R_REFUSED;
	if (err)
		return R_OTHER;
	if (!strcmp(buf, want))
		return R_SHOWN;
	return guard_is_censored(buf, want) ? R_CENSORED : R_OTHER;
}

static void guard_window_case(struct kunit *test)
{
	const struct guard_window_case *c = test->param_value;
	const struct guard_objs *o = test->priv;
	const struct cred *opener = guard_cred(test, c->opener);
	unsigned long hole = VMALLOC_START - PAGE_SIZE;
	const struct {
		const char *name;
		unsigned long v;
	} mapped[] = {
		{ "text", (unsigned long)vsnprintf },
		{ "data", (unsigned long)&guard_data },
		{ "heap", (unsigned long)o->heap },
		{ "vmalloc", (unsigned long)o->vmalloc },
		{ "stack", (unsigned long)&opener },
	};
	enum guard_result want, unmapped;
	unsigned int i;
	int old;

	if (c->writer == W_BPRINTF && !IS_ENABLED(CONFIG_BINARY_PRINTF))
		kunit_skip(test, "no seq_bprintf() without CONFIG_BINARY_PRINTF");
	/* The premise: nothing is mapped there, the guard once said so */
	KUNIT_ASSERT_FALSE(test, is_vmalloc_addr((void *)hole));
	KUNIT_ASSERT_FALSE(test, virt_addr_valid((void *)hole));

	/* Strict mode refuses pointers; integers are censored in it too */
	if (c->mode == SEQ_PTR_GUARD_LOG || c->opener == OPENER_PRIV)
		want = R_SHOWN;
	else if (c->mode == SEQ_PTR_GUARD_REFUSE && c->fmt && strstr(c->fmt, "%p"))
		want = R_REFUSED;
	else
		want = R_CENSORED;

	old = seq_ptr_guard_set_mode(c->mode);
	unmapped = guard_window_read(test, c, hole, opener);
	KUNIT_EXPECT_STREQ_MSG(test, guard_result_names[unmapped],
			       guard_result_names[want], "unmapped %lx", hole);
	for (i = 0; i < ARRAY_SIZE(mapped); i++) {
		enum guard_result r = guard_window_read(test, c, mapped[i].v, opener);

		KUNIT_EXPECT_STREQ_MSG(test, guard_result_names[r],
				       guard_result_names[unmapped],
				       "%s: mapped and unmapped differ", mapped[i].name);
	}
	seq_ptr_guard_set_mode(old);
	put_cred(opener);
}

/*
 * A BPF iterator calls ->show() itself (bpf_seq_read()), outside
 * seq_read_iter(): there is no record to refuse, so even strict mode
 * censors, and nothing carries over to the next record or file.
 */
static void guard_direct_show(struct kunit *test)
{
	const struct guard_objs *o = test->priv;
	struct guard_file g = {
		.fmt = { "first\n", "[%px]\n", "last\n" },
		.arg = o->heap,
	};
	const struct cred *nocap = guard_cred(test, OPENER_NOCAP);
	struct file *file;
	struct seq_file *m;
	char want[64];
	loff_t pos;
	int old;

	old = seq_ptr_guard_set_mode(SEQ_PTR_GUARD_REFUSE);
	file = guard_open(test, &g, nocap);
	m = file->private_data;
	m->buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);
	m->size = PAGE_SIZE;
	for (pos = 0; pos < 3; pos++)
		KUNIT_EXPECT_EQ(test, m->op->show(m, &pos), 0);
	seq_ptr_guard_set_mode(old);

	snprintf(want, sizeof(want), "first\n[%016lx]\nlast\n",
		 (unsigned long)o->heap);
	m->buf[m->count] = '\0';
	KUNIT_EXPECT_TRUE_MSG(test, guard_is_censored(m->buf, want),
			      "\"%s\" is not \"%s\" censored", m->buf, want);
	KUNIT_EXPECT_FALSE(test, m->ptr_refused);
	m->buf = NULL;	/* kunit frees it */
	guard_close(file);
	put_cred(nocap);
}

static int guard_test_init(struct kunit *test)
{
	struct guard_objs *o = kunit_kzalloc(test, sizeof(*o), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, o);
	o->heap = kunit_kmalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, o->heap);
	o->vmalloc = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, o->vmalloc);
	o->mode = seq_ptr_guard_set_mode(SEQ_PTR_GUARD_LOG);
	seq_ptr_guard_set_mode(o->mode);
	test->priv = o;
	return 0;
}

static void guard_test_exit(struct kunit *test)
{
	const struct guard_objs *o = test->priv;

	if (!o)		/* ->exit runs after a failed ->init too */
		return;
	vfree(o->vmalloc);
	/* A case stopped by a failed assertion leaves its mode behind */
	seq_ptr_guard_set_mode(o->mode);
}

static struct kunit_case seq_ptr_guard_test_cases[] = {
	KUNIT_CASE_PARAM(guard_find_case, guard_cases_gen_params),
	KUNIT_CASE_PARAM(guard_walk_case, guard_cases_gen_params),
	KUNIT_CASE_PARAM(guard_hook_case, guard_cases_gen_params),
	KUNIT_CASE(guard_walk_filter),
	KUNIT_CASE(guard_nested_va),
	KUNIT_CASE_PARAM(guard_kinds_case, guard_kind_cases_gen_params),
	KUNIT_CASE_PARAM(guard_read_case, guard_read_cases_gen_params),
	KUNIT_CASE_PARAM(guard_put_case, guard_put_cases_gen_params),
	KUNIT_CASE(guard_read_offset),
	KUNIT_CASE(guard_read_isolation),
	KUNIT_CASE(guard_sites_trace),
	KUNIT_CASE_PARAM(guard_window_case, guard_window_gen),
	KUNIT_CASE(guard_direct_show),
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
