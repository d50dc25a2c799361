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
#include "model/kver.h"
#include "cocci/prefilter.h"
#include "lib/ptrguard.h"

static int outside;
static char *kdir;

int kernel_outside(void)
{
	return outside;
}

const char *kernel_dir(void)
{
	return kdir;
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

/*
 * VERSION.PATCHLEVEL of the kernel in @dir: its Makefile (a source tree),
 * else the release a build tree records.  0, or -1 if none says.
 */
static int kernel_version(const char *dir, long *v, long *p)
{
	static const char *const release[] = {
		"include/config/kernel.release", "include/generated/utsrelease.h",
	};
	char *path = xasprintf("%s/Makefile", dir), *buf, *q;
	size_t len, i;

	buf = read_file(path, 65536, &len);
	free(path);
	if (buf) {
		*v = kver_makefile_var(buf, "VERSION");
		*p = kver_makefile_var(buf, "PATCHLEVEL");
		free(buf);
		if (*v >= 0 && *p >= 0)
			return 0;
	}
	for (i = 0; i < sizeof(release) / sizeof(release[0]); i++) {
		path = xasprintf("%s/%s", dir, release[i]);
		buf = read_file(path, 65536, &len);
		free(path);
		if (!buf)
			continue;
		for (q = buf; *q && (*q < '0' || *q > '9'); q++)
			;
		if (sscanf(q, "%ld.%ld", v, p) == 2) {
			free(buf);
			return 0;
		}
		free(buf);
	}
	return -1;
}

int kernel_use(const char *arg)
{
	struct utsname u;
	char *guess = NULL;
	long v = -1, p = -1;

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
	if (kernel_version(kdir, &v, &p) < 0) {
		error("%s: no VERSION in its Makefile nor a kernel release: the newest kernel's semantics (%%p hashed)",
		      arg);
	} else {
		char ver[64];

		snprintf(ver, sizeof(ver), "%ld.%ld", v, p);
		prefilter_set_old(kver_p_unhashed(v, p));
		setenv("PTRGUARD_KERNEL_VERSION", ver, 1);
	}
	free(guess);
	return 0;
}
