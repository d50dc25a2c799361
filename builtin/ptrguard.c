// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard - find kernel addresses that leak through seq_file output.
 *
 * A tiny dispatcher: each subcommand owns its options (parse-options.h)
 * and its output; stdout is flushed and checked once, here, at the end.
 * `ptrguard help --man` prints the man page, ptrguard(1), from the
 * commands' own --help.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/parse-options.h"
#include "lib/ptrguard.h"

#define PTRGUARD_VERSION "0.2.0"

static const char usage[] =
	"usage: ptrguard <command> [options] [args]\n"
	"       ptrguard --version\n"
	"\n"
	"commands:\n"
	"  audit   find seq_file output that prints raw kernel addresses (source)\n"
	"  calls   list the seq output calls of C files as the lexical model reads them\n"
	"  fix     write a patch series that fixes the leaks an audit finds\n"
	"  fmt     print the address kinds of kernel printf format literals\n"
	"  gate    report the leaks a patch adds to a kernel tree\n"
	"  scan    find kernel addresses leaked by a running system\n"
	"  version print the version of ptrguard\n"
	"\n"
	"'ptrguard <command> --help' describes each command.\n"
	"Exit status: 0 clean, 1 findings, 2 usage or tool error.\n";

static int cmd_version(int argc, char **argv);

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "audit", cmd_audit },
	{ "calls", cmd_calls },
	{ "fix", cmd_fix },
	{ "fmt", cmd_fmt },
	{ "gate", cmd_gate },
	{ "scan", cmd_scan },
	{ "version", cmd_version },
};

static int cmd_version(int argc, char **argv)
{
	static const struct cmd_help help = {
		.name = "version",
		.summary = "print the version of ptrguard",
		.description = "    Prints \"ptrguard version N\"; the same as ptrguard --version.\n",
	};
	const struct option opts[] = { OPT_END() };
	int n = parse_options(argc, argv, opts, &help);

	if (n < 0)
		return EXIT_ERROR;
	if (n > 0) {
		error("%s: unexpected argument (takes none)", argv[0]);
		return EXIT_ERROR;
	}
	printf("ptrguard version %s\n", PTRGUARD_VERSION);
	return EXIT_CLEAN;
}

/*
 * One part of the man page from every command, in the order of the
 * table: each command's --help, run in a child with help_as_man(), prints
 * its share in roff (parse-options.c) from the table it parses with, as
 * git's --git-completion-helper lists a command's options.
 */
static void man_part(enum man_part part, const char *heading)
{
	size_t i;
	int status;
	pid_t pid;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char *argv[] = { (char *)commands[i].name, "--help", NULL };

		fflush(stdout);
		pid = fork();
		if (pid < 0)
			die("fork: %s", strerror(errno));
		if (!pid) {
			help_as_man(part, heading);
			usage_set_command(commands[i].name);
			exit(commands[i].fn(2, argv));
		}
		if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			die("help --man: '%s --help' failed", commands[i].name);
	}
}

/*
 * ptrguard(1).  What the program as a whole does, its environment and
 * files are written here; every command's synopsis, description, options,
 * exit status and examples come from the command (man_part()).
 */
static void print_man(void)
{
	printf(".TH PTRGUARD 1 \"\" \"ptrguard %s\" \"User Commands\"\n", PTRGUARD_VERSION);
	fputs(".SH NAME\n"
	      "ptrguard \\- find kernel addresses that leak through seq_file output\n"
	      ".SH SYNOPSIS\n", stdout);
	man_part(MAN_SYNOPSIS, NULL);
	fputs(".SY ptrguard\n"
	      ".RB ( \\-\\-help \" | \" \\-\\-version )\n"
	      ".YS\n"
	      ".SH DESCRIPTION\n"
	      "ptrguard finds the raw kernel addresses that seq_file output (the files of\n"
	      "/proc, /sys and debugfs) gives to user space: in the source of a kernel\n"
	      "tree or an out-of-tree module\n"
	      "(\\fBaudit\\fR, \\fBcalls\\fR, \\fBfmt\\fR),\n"
	      "in the patches that would add one (\\fBgate\\fR),\n"
	      "with a patch series that fixes them (\\fBfix\\fR),\n"
	      "and in the files of a running system (\\fBscan\\fR).\n"
	      ".PP\n"
	      "Each command is described by\n"
	      "\\fBptrguard\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR,\n"
	      "from the same option tables as this page.\n", stdout);
	man_part(MAN_DESCRIPTION, NULL);
	fputs(".SH OPTIONS\n"
	      "A command reads its options and arguments in any order, as git does:\n"
	      "\\fB\\-\\-opt\\fR=\\fIvalue\\fR or \\fB\\-\\-opt\\fR \\fIvalue\\fR,\n"
	      "\\fB\\-j2\\fR or \\fB\\-j\\ 2\\fR, bundled short flags,\n"
	      "\\fB\\-\\-no\\-\\fR\\fIX\\fR for the options shown as \\fB\\-\\-[no\\-]\\fR\\fIX\\fR;\n"
	      "\\fB\\-\\-\\fR ends the options.\n"
	      "An option means the same in every command that takes it\n"
	      "(\\fB\\-j\\fR, \\fB\\-\\-format\\fR, \\fB\\-\\-json\\fR, \\fB\\-\\-sarif\\fR,\n"
	      "\\fB\\-v\\fR, \\fB\\-q\\fR, \\fB\\-\\-tree\\fR, \\fB\\-\\-kernel\\fR, \\fB\\-\\-timeout\\fR).\n",
	      stdout);
	man_part(MAN_OPTIONS, NULL);
	fputs(".SH EXIT STATUS\n"
	      "The same three for every command:\n"
	      ".TP\n0\nNothing found.\n"
	      ".TP\n1\nSomething found: a leak, a new leak, a kernel address.\n"
	      ".TP\n2\nA usage, input or tool error, or a write error on standard output;\n"
	      "one line on standard error names the input.\n"
	      ".PP\n"
	      "What each command counts as found:\n", stdout);
	man_part(MAN_SECTION, "EXIT STATUS");
	fputs(".SH ENVIRONMENT\n"
	      ".TP\n.B SPATCH\n"
	      "The spatch program (default: \\fBspatch\\fR on \\fBPATH\\fR).\n"
	      ".TP\n.B PTRGUARD_PYTHON\n"
	      "The Python that spatch runs the rules' scripts with (\\fBspatch \\-\\-python\\fR);\n"
	      "default: the first \\fBpython3\\fR on \\fBPATH\\fR that is a program, not a script\n"
	      "such as a pyenv shim; empty: spatch's own choice.\n"
	      ".TP\n.B OCAMLRUNPARAM\n"
	      "Left to spatch when set (or \\fBCAMLRUNPARAM\\fR); otherwise spatch runs\n"
	      "with \\fBo=200\\fR (OCaml's collector: a third less time on the cast rule).\n"
	      ".TP\n.B PTRGUARD_CACHE\n"
	      "The directory of the caches (default: \\fI~/.cache/ptrguard\\fR, under\n"
	      "\\fBHOME\\fR); \\fBoff\\fR: no cache is read or written.\n"
	      ".TP\n.B PTRGUARD_GATE_CACHE\n"
	      "Where \\fBgate\\fR keeps the base side's findings\n"
	      "(default: \\fI\\%$PTRGUARD_CACHE/gate\\fR); empty or \\fBoff\\fR: no cache.\n"
	      ".TP\n.B TMPDIR\n"
	      "Where \\fBgate\\fR builds its shadow trees and \\fBfix\\fR its scratch\n"
	      "repository (default: \\fI/tmp\\fR).\n"
	      ".TP\n.B PTRGUARD_KEEP_TMP\n"
	      "When set, \\fBfix\\fR leaves its scratch repository in place (for debugging).\n"
	      ".SH FILES\n"
	      ".TP\n.I PREFIX/share/ptrguard/cocci/\n"
	      "The Coccinelle rules and their macro file, found from the program's own\n"
	      "path (\\fI../share/ptrguard/cocci\\fR, or \\fIcocci/\\fR next to the program in a\n"
	      "build tree); \\fB\\-\\-rules\\fR \\fIDIR\\fR names another directory.\n"
	      ".TP\n.I ~/.cache/ptrguard/\n"
	      "The caches (\\fBPTRGUARD_CACHE\\fR), keyed by content: what spatch printed\n"
	      "for each file (\\fIspatch/\\fR), the judge's results (\\fIjudge/\\fR), the rules'\n"
	      "grep queries (\\fIqueries/\\fR), a tree's index (\\fIwalk/\\fR), its wrapper\n"
	      "table (\\fIwrappers/\\fR) and the gate's base side (\\fIgate/\\fR).\n"
	      "Deleting them costs only time.\n"
	      ".SH EXAMPLES\n", stdout);
	man_part(MAN_SECTION, "EXAMPLES");
	fputs(".SH SEE ALSO\n"
	      ".BR spatch (1),\n"
	      ".BR sparse (1),\n"
	      "the kernel's \\fIscripts/checkpatch.pl\\fR (whose report \\fBgate\\fR's default\n"
	      "output follows), and \\fIDocumentation/core\\-api/printk\\-formats.rst\\fR\n"
	      "(what %p, %px and %pK print).\n", stdout);
}

/*
 * Everything the command wrote to stdout reaches it, or the run is an
 * error (a full disk, a closed pipe): checked once, for every command.
 */
static int finish(int ret)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		error("writing to stdout: %s", strerror(errno ? errno : EIO));
		return EXIT_ERROR;
	}
	return ret;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		fputs(usage, stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "help") && argc == 3 && !strcmp(argv[2], "--man")) {
		print_man();
		return finish(EXIT_CLEAN);
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return finish(EXIT_CLEAN);
	}
	if (!strcmp(argv[1], "--version"))
		return finish(cmd_version(argc - 1, argv + 1));
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			usage_set_command(commands[i].name);
			return finish(commands[i].fn(argc - 1, argv + 1));
		}
	error("%s: unknown command (see 'ptrguard --help')", argv[1]);
	return EXIT_ERROR;
}
