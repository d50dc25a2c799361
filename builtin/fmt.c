// SPDX-License-Identifier: GPL-2.0
/*
 * ptrguard fmt: the address kinds of the format literals read on stdin,
 * decoded by model/format.c, for the differential test against the
 * kernel's own decoder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse-options.h"
#include "lib/ptrguard.h"
#include "model/format.h"

static const struct cmd_help fmt_help = {
	.name = "fmt",
	.summary = "the address kinds of kernel printf formats",
	.args = "< LITERALS",
	.description =
"    Reads one C string literal per line (several adjacent literals are\n"
"    joined, as the compiler joins them; escapes are decoded), decodes it\n"
"    as lib/vsprintf.c decodes a format, and prints for each line the kinds\n"
"    of the arguments its conversions consume, comma-separated, from\n"
"    include/linux/seq_ptr_kind.h: none, int, raw, hashed, restricted,\n"
"    symbol, phys, va.  A '*' width or precision is an int argument (none);\n"
"    %% consumes nothing; the walk stops at an unsupported conversion, as\n"
"    vsnprintf() does.  A line with no conversion prints an empty line.\n",
	.trailer =
"EXIT STATUS\n"
"    0 every line decoded; 2 a line is not a C string literal (reported\n"
"    on stderr with its number; an empty line is printed in its place so\n"
"    that the output stays aligned with the input), a read error, or a\n"
"    write error on stdout.\n"
"\n"
"EXAMPLES\n"
"    echo '\"%px %-16lx %*d\\n\"' | ptrguard fmt      # raw,int,none,none\n"
"    ptrguard audit --list-formats ~/linux | ptrguard fmt\n",
};

int cmd_fmt(int argc, char **argv)
{
	struct fmt_iter it;
	struct fmt_conv c;
	char *line = NULL, *buf;
	const char *why;
	size_t cap = 0, len;
	unsigned long lineno = 0;
	ssize_t r;
	int ret = EXIT_CLEAN, first;

	const struct option opts[] = { OPT_END() };
	int n = parse_options(argc, argv, opts, &fmt_help);

	if (n < 0)
		return EXIT_ERROR;
	if (n > 0) {
		error("%s: unexpected argument (the formats are read from stdin)", argv[0]);
		return EXIT_ERROR;
	}
	errno = 0;
	while ((r = getline(&line, &cap, stdin)) >= 0) {
		lineno++;
		if (fmt_unquote(line, &buf, &len, &why) < 0) {
			error("fmt: stdin:%lu: %s", lineno, why);
			putchar('\n');
			ret = EXIT_ERROR;
			continue;
		}
		memset(&it, 0, sizeof(it));
		for (first = 1; fmt_next(buf, len, &it, &c); first = 0)
			printf("%s%s", first ? "" : ",", seq_ptr_kind_name(c.kind));
		putchar('\n');
		free(buf);
	}
	free(line);
	if (ferror(stdin)) {
		error("fmt: reading stdin: %s", strerror(errno));
		return EXIT_ERROR;
	}
	return ret;	/* stdout is checked at exit (ptrguard.c) */
}
