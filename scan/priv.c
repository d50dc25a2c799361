// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard scan: privileges.  Who the scan runs as (scan_unprivileged),
 * and the drop to another user for good (scan_drop_privileges), which
 * both --as-user (scan.c) and the readable-by check's child
 * (scan/readable.c) use.  docs/scan.md, "Who can read it".
 */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib/ptrguard.h"
#include "scan/scan.h"

/*
 * Become uid:gid with no supplementary groups and no capabilities, for
 * good: the bounding and ambient sets are emptied, no_new_privs is set,
 * and we check that the effective, permitted and inheritable sets are
 * empty and that root cannot be regained.
 */
int scan_drop_privileges(uid_t uid, gid_t gid)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };
	int cap;

	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	for (cap = 0; cap < 64; cap++)
		if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL) {
			error("scan: --as-user: cannot drop capability %d: %s", cap,
			      strerror(errno));
			return -1;
		}
	if (setgroups(0, NULL) < 0 || setgid(gid) < 0 || setuid(uid) < 0) {
		error("scan: --as-user %u:%u: %s", (unsigned int)uid,
		      (unsigned int)gid, strerror(errno));
		return -1;
	}
	if (syscall(SYS_capset, &hdr, data) < 0) {
		error("scan: --as-user: capset: %s", strerror(errno));
		return -1;
	}
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (syscall(SYS_capget, &hdr, data) < 0 ||
	    data[0].effective || data[0].permitted || data[0].inheritable ||
	    data[1].effective || data[1].permitted || data[1].inheritable) {
		error("scan: --as-user: capabilities remain after the drop");
		return -1;
	}
	if (uid != 0 && (setuid(0) == 0 || getuid() != uid || geteuid() != uid ||
			 getgid() != gid || getegid() != gid)) {
		error("scan: --as-user: root could be regained");
		return -1;
	}
	/* Changing credentials made us undumpable: /proc/self would be root's. */
	prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
	return 0;
}

/*
 * No capabilities in the effective set and not root: what this process
 * reads, any unprivileged user can.  *can_switch: it could become another
 * user (CAP_SETUID and CAP_SETGID, as root has).
 */
bool scan_unprivileged(bool *can_switch)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };
	bool caps;

	if (syscall(SYS_capget, &hdr, data) < 0) {
		*can_switch = geteuid() == 0;
		return false;
	}
	caps = data[0].effective || data[1].effective;
	*can_switch = (data[0].effective & (1u << CAP_SETUID)) &&
		      (data[0].effective & (1u << CAP_SETGID));
	return geteuid() != 0 && !caps;
}
