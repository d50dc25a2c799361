// SPDX-License-Identifier: GPL-2.0
/*
 * kernel: the kernel out-of-tree sources are built against (kernel.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "lib/kernel.h"
#include "lib/ptrguard.h"

/* The include path and forced includes, as kbuild passes them (x86). */
const char *const kernel_include_dirs[] = {
	"arch/x86/include", "arch/x86/include/generated", "include",
	"arch/x86/include/uapi", "arch/x86/include/generated/uapi",
	"include/uapi", "include/generated/uapi", NULL,
};
const char *const kernel_forced_includes[] = {
	"include/linux/compiler-version.h", "include/linux/kconfig.h", NULL,
};

static int outside;
static char *kdir, *karg;

int kernel_outside(void)
{
	return outside;
}

const char *kernel_dir(void)
{
	return kdir;
}

const char *kernel_arg(void)
{
	return karg;
}

static int is_file(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	int ok = !stat(p, &st) && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

static int is_dir(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	int ok = !stat(p, &st) && S_ISDIR(st.st_mode);

	free(p);
	return ok;
}

int kernel_is_tree(const char *dir)
{
	return is_file(dir, "Makefile") && is_file(dir, "Kconfig") && is_file(dir, "MAINTAINERS");
}

int kernel_use(const char *arg)
{
	struct utsname u;
	char *guess = NULL;

	outside = 1;
	if (!arg && !uname(&u)) {
		guess = xasprintf("/lib/modules/%s/build", u.release);
		if (is_dir(guess, "include/linux"))
			arg = guess;
	}
	if (!arg) {
		free(guess);
		/* the version of a Makefile above the sources, if any, else current */
		error("no kernel tree (--kernel KDIR, or /lib/modules/$(uname -r)/build): the newest kernel's semantics (%%p hashed), no kernel headers");
		return 0;
	}
	kdir = realpath(arg, NULL);
	if (!kdir) {
		error("--kernel %s: %s", arg, strerror(errno));
		free(guess);
		return -1;
	}
	if (!is_dir(kdir, "include/linux")) {
		error("--kernel %s: not a kernel source or build tree (no include/linux)", arg);
		free(guess);
		return -1;
	}
	karg = xstrdup(arg);
	free(guess);
	return 0;
}
