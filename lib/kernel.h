/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel: the kernel that sources outside any kernel tree (an out-of-tree
 * module) are built against: `--kernel KDIR`, else the running kernel's
 * /lib/modules/$(uname -r)/build when it is there.  It gives the include
 * path (spatch.c), the headers' __printf() wrappers (lex.c) and the
 * version (%p hashed from v4.15: read by model/kver.c, told to prefilter.c
 * and cocci/rules/pg.py by cocci_use_kernel()).  Without one, the newest
 * kernel's semantics hold and a line on stderr says so.
 *
 * The choice is the process's (the gate's rule runs are children of it):
 * kernel_use() is called once, after the options, by audit, gate or calls
 * (through cocci_use_kernel(), cocci.h).
 */
#ifndef PTRGUARD_KERNEL_H
#define PTRGUARD_KERNEL_H

/*
 * A kernel tree's include path (relative to its top) and forced includes,
 * as kbuild passes them; NULL-terminated.  Every spatch run gets them
 * (cocci/spatch.c), the wrapper table reads the kernel's headers on the
 * path (model/wrapper_table.c) and the caches key on the same headers.
 */
extern const char *const kernel_include_dirs[];
extern const char *const kernel_forced_includes[];

/*
 * Treat the sources as outside a kernel tree, built against @kdir (NULL:
 * the default above).  0, or -1 after error() (@kdir is not a kernel
 * source or build tree).
 */
int kernel_use(const char *kdir);
/* Was kernel_use() called: are the sources out of tree? */
int kernel_outside(void);
/* The kernel's absolute directory, or NULL (none: newest semantics). */
const char *kernel_dir(void);
/*
 * The name the kernel was chosen by (--kernel's argument, or the
 * /lib/modules build directory), for messages; NULL when none was.
 */
const char *kernel_arg(void);
/* Does @dir hold Makefile, Kconfig and MAINTAINERS (a kernel source tree)? */
int kernel_is_tree(const char *dir);

#endif
