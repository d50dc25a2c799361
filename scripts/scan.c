// SPDX-License-Identifier: GPL-2.0
/* ptrguard scan: placeholder until the subcommand lands. */
#include "ptrguard.h"

int cmd_scan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("scan: not implemented yet");
	return EXIT_ERROR;
}
