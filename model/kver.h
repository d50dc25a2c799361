/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kver: the kernel version of a tree, read once for every tool, and the
 * one version fact the static half depends on: plain %p is hashed from
 * v4.15 on (commit ad67b74d2469, "printk: hash addresses printed with %p").
 */
#ifndef PTRGUARD_KVER_H
#define PTRGUARD_KVER_H

/* The number after "NAME =" at a line start of a Makefile's @text, or -1. */
long kver_makefile_var(const char *text, const char *name);

/*
 * VERSION.PATCHLEVEL of the kernel in @dir: its Makefile (a source tree),
 * else the release a build tree records (include/config/kernel.release,
 * include/generated/utsrelease.h).  0, or -1 if none says.
 */
int kver_read(const char *dir, long *version, long *patchlevel);

/* Does a kernel VERSION.PATCHLEVEL print plain %p raw (older than v4.15)? */
int kver_p_unhashed(long version, long patchlevel);

#endif
