// SPDX-License-Identifier: GPL-2.0
/* ptrguard audit: placeholder until the subcommand lands. */
#include "ptrguard.h"

int cmd_audit(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("audit: not implemented yet");
	return EXIT_ERROR;
}
