// SPDX-License-Identifier: GPL-2.0
/* ptrguard gate: placeholder until the subcommand lands. */
#include "ptrguard.h"

int cmd_gate(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	error("gate: not implemented yet");
	return EXIT_ERROR;
}
