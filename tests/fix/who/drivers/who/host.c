// SPDX-License-Identifier: GPL-2.0
/* A SCSI host's /proc/scsi file: scsi_proc.c creates it with mode 0644. */
#include "who_decls.h"

static int who_host_info(struct seq_file *m, struct Scsi_Host *host)
{
	seq_printf(m, "hostdata %px\n", host->hostdata);
	return 0;
}

struct scsi_host_template who_template = {
	.proc_name = "who",
	.show_info = who_host_info,
};
