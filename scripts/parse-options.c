// SPDX-License-Identifier: GPL-2.0
/*
 * parse-options: argv against a table of options (parse-options.h), and
 * the --help text made from the same table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse-options.h"
#include "ptrguard.h"

static const char *const format_names[] = {
	[FORMAT_DEFAULT] = "default", [FORMAT_TEXT] = "text", [FORMAT_GCC] = "gcc",
	[FORMAT_JSON] = "json", [FORMAT_SARIF] = "sarif",
};

const char *format_name(enum pg_format f)
{
	return format_names[f];
}

/*
 * --format=FMT, or --json/--sarif (defval): two different formats are an
 * error, the same one twice is not.
 */
int parse_opt_format(const struct option *opt, const char *arg, int unset)
{
	enum pg_format *v = opt->value, f = (enum pg_format)opt->defval;
	int i;

	(void)unset;
	if (arg) {
		for (i = FORMAT_TEXT; i <= FORMAT_SARIF; i++)
			if (!strcmp(arg, format_names[i]))
				break;
		if (i > FORMAT_SARIF) {
			error("--format=%s: want text, gcc, json or sarif", arg);
			return -1;
		}
		f = (enum pg_format)i;
	}
	if (*v != FORMAT_DEFAULT && *v != f) {
		error("--format=%s after --format=%s: only one output format", format_names[f],
		      format_names[*v]);
		return -1;
	}
	*v = f;
	return 0;
}

/* How the user spelled it: "-j" or "--jobs". */
static void spelled(const struct option *o, int as_short, char *buf, size_t n)
{
	if (as_short)
		snprintf(buf, n, "-%c", o->short_name);
	else
		snprintf(buf, n, "--%s", o->long_name);
}

static int takes_arg(const struct option *o)
{
	switch (o->type) {
	case OPTION_UINT:
	case OPTION_STRING:
		return 1;
	case OPTION_CALLBACK:
		return !(o->flags & PARSE_OPT_NOARG);
	default:
		return 0;
	}
}

/* Apply @o with @arg (NULL: none, or --no-X with @unset). 0 or -1. */
static int apply(const struct option *o, int as_short, const char *arg, int unset)
{
	char name[128];
	unsigned long v;
	char *end;

	spelled(o, as_short, name, sizeof(name));
	switch (o->type) {
	case OPTION_BOOL:
		*(int *)o->value = !unset;
		return 0;
	case OPTION_COUNTUP:
		*(int *)o->value = unset ? 0 : *(int *)o->value + 1;
		return 0;
	case OPTION_SET_INT:
		*(int *)o->value = (int)o->defval;
		return 0;
	case OPTION_UINT:
		errno = 0;
		v = strtoul(arg, &end, 10);
		if (errno || end == arg || *end || arg[0] == '-' || (long)v < o->min ||
		    v > (unsigned long)o->max) {
			error("%s %s: want a number from %ld to %ld", name, arg, o->min, o->max);
			return -1;
		}
		*(unsigned int *)o->value = (unsigned int)v;
		return 0;
	case OPTION_STRING:
		*(const char **)o->value = arg;
		return 0;
	case OPTION_CALLBACK:
		return o->callback(o, arg, unset);
	default:
		return -1;
	}
}

static void list_options(const struct option *opts)
{
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++) {
		if (o->type == OPTION_GROUP || (o->flags & PARSE_OPT_HIDDEN))
			continue;
		printf("%c %s %s\n", o->short_name ? o->short_name : '-',
		       o->long_name ? o->long_name : "-", takes_arg(o) ? o->argh : "-");
	}
}

static int unknown(const char *cmd, const char *what)
{
	error("%s: unknown option (see 'ptrguard %s --help')", what, cmd);
	return -1;
}

static int parse_long(const struct option *opts, const struct cmd_help *help, char *a,
		      int argc, char **argv, int *i)
{
	const struct option *o;
	char *eq = strchr(a, '='), *name = a + 2;
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int unset = 0;

	if (!strcmp(name, "help")) {
		print_cmd_help(opts, help);
		exit(EXIT_CLEAN);
	}
	if (!strcmp(name, "list-options")) {
		list_options(opts);
		exit(EXIT_CLEAN);
	}
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			break;
	if (o->type == OPTION_END && !strncmp(name, "no-", 3) && !eq) {
		for (o = opts; o->type != OPTION_END; o++)
			if (o->long_name && !strcmp(o->long_name, name + 3) &&
			    !(o->flags & PARSE_OPT_NONEG))
				break;
		unset = 1;
	}
	if (o->type == OPTION_END) {
		if (eq)
			*eq = '\0';
		unknown(help->name, a);
		return -1;
	}
	if (!takes_arg(o)) {
		if (eq) {
			error("--%s takes no value", o->long_name);
			return -1;
		}
		return apply(o, 0, NULL, unset);
	}
	if (eq)
		return apply(o, 0, eq + 1, 0);
	if (*i + 1 >= argc) {
		error("--%s: needs a value (%s)", o->long_name, o->argh);
		return -1;
	}
	return apply(o, 0, argv[++*i], 0);
}

/* "-abc", "-j2", "-j 2", "-vj2". */
static int parse_short(const struct option *opts, const struct cmd_help *help, char *a,
		       int argc, char **argv, int *i)
{
	const struct option *o;
	char *p;

	for (p = a + 1; *p; p++) {
		if (*p == 'h') {
			print_cmd_help(opts, help);
			exit(EXIT_CLEAN);
		}
		for (o = opts; o->type != OPTION_END; o++)
			if (o->short_name == *p)
				break;
		if (o->type == OPTION_END) {
			char opt[3] = { '-', *p, '\0' };

			return unknown(help->name, opt);
		}
		if (!takes_arg(o)) {
			if (apply(o, 1, NULL, 0))
				return -1;
			continue;
		}
		if (p[1])
			return apply(o, 1, p + 1, 0);
		if (*i + 1 >= argc) {
			error("-%c: needs a value (%s)", *p, o->argh);
			return -1;
		}
		return apply(o, 1, argv[++*i], 0);
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct option *opts,
		  const struct cmd_help *help)
{
	int i, n = 0;

	for (i = 1; i < argc; i++) {
		char *a = argv[i];

		if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				argv[n++] = argv[i];
			break;
		}
		if (a[0] != '-' || !a[1]) {
			argv[n++] = a;
			continue;
		}
		if (a[1] == '-' ? parse_long(opts, help, a, argc, argv, &i) :
		    parse_short(opts, help, a, argc, argv, &i))
			return -1;
	}
	argv[n] = NULL;
	return n;
}

/* Each line of @text, indented by @indent spaces. */
static void indented(const char *text, int indent)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		printf("%*s%.*s\n", indent, "", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
	}
}

void print_cmd_help(const struct option *opts, const struct cmd_help *h)
{
	const struct option *o;
	const char *p, *nl;

	printf("NAME\n    ptrguard %s - %s\n\nSYNOPSIS\n", h->name, h->summary);
	for (p = h->synopsis; *p; p = *nl ? nl + 1 : nl) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		printf("    ptrguard %s %.*s\n", h->name, (int)(nl - p), p);
	}
	if (h->description)
		printf("\nDESCRIPTION\n%s", h->description);
	fputs("\nOPTIONS\n", stdout);
	for (o = opts; o->type != OPTION_END; o++) {
		if (o->flags & PARSE_OPT_HIDDEN)
			continue;
		if (o->type == OPTION_GROUP) {
			printf("  %s\n", o->help);
			continue;
		}
		fputs("    ", stdout);
		if (o->short_name)
			printf("-%c%s%s%s", o->short_name, takes_arg(o) ? " " : "",
			       takes_arg(o) ? o->argh : "", o->long_name ? ", " : "");
		if (o->long_name)
			printf("--%s%s%s", o->long_name, takes_arg(o) ? "=" : "",
			       takes_arg(o) ? o->argh : "");
		putchar('\n');
		indented(o->help, 8);
	}
	fputs("    -h, --help\n        Show this help.\n", stdout);
	if (h->trailer)
		printf("\n%s", h->trailer);
}
