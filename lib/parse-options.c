// SPDX-License-Identifier: GPL-2.0
/*
 * parse-options: argv against a table of options (parse-options.h), and
 * the --help text made from the same table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse-options.h"
#include "lib/ptrguard.h"

static const char *const format_names[] = {
	[FORMAT_DEFAULT] = "default", [FORMAT_TEXT] = "text", [FORMAT_CHECKPATCH] = "checkpatch",
	[FORMAT_JSON] = "json", [FORMAT_SARIF] = "sarif",
};

const char *format_name(enum pg_format f)
{
	return format_names[f];
}

/* "--format=xml: want text, json or sarif": the formats of @formats. */
static void bad_format(const char *arg, long formats)
{
	char want[128] = "";
	int i, n = 0, left = 0;

	for (i = FORMAT_TEXT; i <= FORMAT_SARIF; i++)
		left += !!(formats & FORMATS(i));
	for (i = FORMAT_TEXT; i <= FORMAT_SARIF; i++) {
		if (!(formats & FORMATS(i)))
			continue;
		left--;
		n += snprintf(want + n, sizeof(want) - n, "%s%s", format_names[i],
			      !left ? "" : left == 1 ? " or " : ", ");
	}
	error("--format=%s: want %s", arg, want);
}

/*
 * --format=FMT (defval: the FORMATS() of the command), or --json/--sarif
 * (defval: the format): two different formats are an error, the same one
 * twice is not.
 */
int parse_opt_format(const struct option *opt, const char *arg, int unset)
{
	enum pg_format *v = opt->value, f = (enum pg_format)opt->defval;
	int i;

	(void)unset;
	if (arg) {
		const char *name = strcmp(arg, "gcc") ? arg : "text";

		for (i = FORMAT_TEXT; i <= FORMAT_SARIF; i++)
			if (!strcmp(name, format_names[i]))
				break;
		if (i > FORMAT_SARIF || !(opt->defval & FORMATS(i))) {
			bad_format(arg, opt->defval);
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

static int unknown(const char *cmd, const char *what)
{
	error("%s: unknown option (see 'ptrguard %s --help')", what, cmd);
	return -1;
}

/*
 * --help is the command's output: it reaches stdout, or the run is exit 2
 * (a full disk), as ptrguard.c checks every command's output at its end.
 */
static void help_and_exit(const struct option *opts, const struct cmd_help *help)
{
	print_cmd_help(opts, help);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		error("writing to stdout: %s", strerror(errno ? errno : EIO));
		exit(EXIT_ERROR);
	}
	exit(EXIT_CLEAN);
}

static int parse_long(const struct option *opts, const struct cmd_help *help, char *a,
		      int argc, char **argv, int *i, unsigned char *seen)
{
	const struct option *o;
	char *eq = strchr(a, '='), *name = a + 2;
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int unset = 0;

	if (!strcmp(name, "help"))
		help_and_exit(opts, help);
	for (o = opts; o->type != OPTION_END; o++)
		if (o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, name, len))
			break;
	/* --no-X unsets X; an option named no-X is unset by --X, as in git */
	if (o->type == OPTION_END && !strncmp(name, "no-", 3) && !eq) {
		for (o = opts; o->type != OPTION_END; o++)
			if (o->long_name && !strcmp(o->long_name, name + 3) &&
			    strncmp(o->long_name, "no-", 3) && !(o->flags & PARSE_OPT_NONEG))
				break;
		unset = 1;
	}
	if (o->type == OPTION_END && !eq) {
		for (o = opts; o->type != OPTION_END; o++)
			if (o->long_name && !strncmp(o->long_name, "no-", 3) &&
			    !strcmp(o->long_name + 3, name) && !(o->flags & PARSE_OPT_NONEG))
				break;
		unset = 1;
	}
	if (o->type == OPTION_END) {
		if (eq)
			*eq = '\0';
		unknown(help->name, a);
		return -1;
	}
	seen[o - opts] = 1;
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
		       int argc, char **argv, int *i, unsigned char *seen)
{
	const struct option *o;
	char *p;

	for (p = a + 1; *p; p++) {
		if (*p == 'h')
			help_and_exit(opts, help);
		for (o = opts; o->type != OPTION_END; o++)
			if (o->short_name == *p)
				break;
		if (o->type == OPTION_END) {
			char opt[3] = { '-', *p, '\0' };

			return unknown(help->name, opt);
		}
		seen[o - opts] = 1;
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

/* "-o OUT is required (see 'ptrguard fix --help')": the first one missing. */
static int check_required(const struct option *opts, const unsigned char *seen,
			  const struct cmd_help *help)
{
	const struct option *o;

	for (o = opts; o->type != OPTION_END; o++) {
		if (!(o->flags & PARSE_OPT_REQUIRED) || seen[o - opts])
			continue;
		if (o->short_name)
			error("-%c %s is required (see 'ptrguard %s --help')", o->short_name,
			      o->argh, help->name);
		else
			error("--%s %s is required (see 'ptrguard %s --help')", o->long_name,
			      o->argh, help->name);
		return -1;
	}
	return 0;
}

int parse_options(int argc, char **argv, const struct option *opts,
		  const struct cmd_help *help)
{
	const struct option *o;
	unsigned char seen[64] = { 0 };
	int i, n = 0;

	for (o = opts; o->type != OPTION_END; o++)
		;
	if (o - opts > (long)sizeof(seen))
		die("parse_options: more than %zu options", sizeof(seen));
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
		if (a[1] == '-' ? parse_long(opts, help, a, argc, argv, &i, seen) :
		    parse_short(opts, help, a, argc, argv, &i, seen))
			return -1;
	}
	argv[n] = NULL;
	return check_required(opts, seen, help) ? -1 : n;
}

/*
 * The help is written twice from the same table: as text (--help) and as
 * roff (the man page, `ptrguard help --man`).  The pieces an option is
 * spelled with are built once, with the font marked in them: BOLD an
 * option's name, ITALIC its argument, ROMAN back; put() writes them as
 * the text or the roff asks.
 */
#define BOLD	"\001"
#define ITALIC	"\002"
#define ROMAN	"\003"

/* What print_cmd_help() writes: the text, or one part of the man page. */
static enum man_part man_part = MAN_NONE;
static const char *man_heading;

void help_as_man(enum man_part part, const char *heading)
{
	man_part = part;
	man_heading = heading;
}

/* The columns @s takes in the text: its bytes but the font marks. */
static int width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += (unsigned char)*s > 3;
	return n;
}

/*
 * Write @s: in the text without its marks; in roff with \fB \fI \fR for
 * them, '-' as \- (an option's hyphen is ASCII in every output), '\' as
 * \e, and its spaces unbreakable with @nbsp.  A '.' or '\'' that would
 * start the line is \&-escaped, not taken for a request.
 */
static void put(const char *s, int roff, int nbsp)
{
	static const char *const fonts[] = { NULL, "\\fB", "\\fI", "\\fR" };

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 1 && c <= 3) {
			if (roff)
				fputs(fonts[c], stdout);
		} else if (!roff) {
			putchar(c);
		} else if (c == '-') {
			fputs("\\-", stdout);
		} else if (c == '\\') {
			fputs("\\e", stdout);
		} else if (c == ' ' && nbsp) {
			fputs("\\ ", stdout);
		} else {
			putchar(c);
		}
	}
}

/* A line of roff text: @s, its leading '.' or '\'' escaped. */
static void put_line(const char *s, int len)
{
	char *line = xstrndup(s, (size_t)len);

	if (line[0] == '.' || line[0] == '\'')
		fputs("\\&", stdout);
	put(line, 1, 0);
	putchar('\n');
	free(line);
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

static int spaces(const char *p)
{
	int n = 0;

	while (p[n] == ' ')
		n++;
	return n;
}

static const char *line_end(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl : p + strlen(p);
}

/*
 * @text (lines indented by @base spaces, paragraphs between blank lines)
 * as roff: a paragraph of lines at @base is filled text; one with lines
 * indented further (a table, an example, a list whose items go on under
 * their text) is kept as it is, less @base, in no-fill mode, and so is
 * every paragraph with @keep (examples: one command a line).  Paragraphs
 * after the first begin with @para (".PP", or ".IP" inside an option).
 */
static void roff_text(const char *text, int base, const char *para, int keep)
{
	const char *p = text, *q, *e;
	int first = 1, fill;

	while (*p) {
		e = line_end(p);
		if (e - p == spaces(p)) {
			p = *e ? e + 1 : e;	/* a blank line */
			continue;
		}
		fill = !keep;
		for (q = p; *q && line_end(q) - q > spaces(q); q = *e ? e + 1 : e) {
			e = line_end(q);
			fill &= spaces(q) <= base;
		}
		if (!first)
			printf("%s\n", para);
		first = 0;
		if (!fill)
			fputs(".nf\n", stdout);
		for (; p < q; p = *e ? e + 1 : e) {
			int skip = spaces(p);

			e = line_end(p);
			if (!fill)
				skip = skip < base ? skip : base;
			put_line(p + skip, (int)(e - p - skip));
		}
		if (!fill)
			fputs(".fi\n", stdout);
	}
}

/* The text of @heading's section in @trailer (its lines up to the next heading), or NULL. */
static char *trailer_section(const char *trailer, const char *heading)
{
	const char *p = trailer, *start = NULL;
	size_t len = strlen(heading);

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (*p == ' ' || *p == '\n')
			continue;
		if (start)
			return xstrndup(start, (size_t)(p - start));
		if (!strncmp(p, heading, len) && p[len] == '\n')
			start = p + len + 1;
	}
	return start ? xstrdup(start) : NULL;
}

static int in_synopsis(const struct option *o)
{
	return o->type != OPTION_GROUP && o->type != OPTION_END && !(o->flags & PARSE_OPT_HIDDEN);
}

/* Append to @buf (of @n bytes) what @fmt says. */
static void add(char *buf, size_t n, const char *fmt, const char *a, const char *b)
{
	size_t len = strlen(buf);

	snprintf(buf + len, n - len, fmt, a, b);
}

/* The long name as --help spells it: "--tree=DIR", "--[no-]casts", "--no-prefilter". */
static void long_option(char *buf, size_t n, const struct option *o)
{
	if (takes_arg(o))
		add(buf, n, BOLD "--%s" ROMAN "=" ITALIC "%s" ROMAN, o->long_name, o->argh);
	else if (o->flags & PARSE_OPT_NONEG || !strncmp(o->long_name, "no-", 3))
		add(buf, n, BOLD "--%s%s" ROMAN, o->long_name, "");
	else
		add(buf, n, BOLD "--[no-]%s%s" ROMAN, o->long_name, "");
}

/* One option as the synopsis spells it: "-j N", or its long name. */
static void synopsis_option(char *buf, size_t n, const struct option *o)
{
	char s[3] = { '-', (char)o->short_name, '\0' };

	if (o->short_name)
		add(buf, n, takes_arg(o) ? BOLD "%s" ROMAN " " ITALIC "%s" ROMAN : BOLD "%s" ROMAN,
		    s, o->argh);
	else
		long_option(buf, n, o);
}

/* The arguments: their names (FILE, PATH) in italics. */
static int is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static void synopsis_args(char *buf, size_t n, const char *args)
{
	char c[2] = "";
	size_t i;

	for (i = 0; args[i]; i++) {
		if (is_upper(args[i]) && (!i || !is_upper(args[i - 1])))
			add(buf, n, "%s", ITALIC, NULL);
		c[0] = args[i];
		add(buf, n, "%s", c, NULL);
		if (is_upper(args[i]) && !is_upper(args[i + 1]))
			add(buf, n, "%s", ROMAN, NULL);
	}
}

/* Print @item, first folding the line if it would pass 79 columns; in roff, one line each. */
static void synopsis_item(const char *item, int indent, int *col)
{
	if (man_part) {
		put(item, 1, 1);
		putchar('\n');
		return;
	}
	if (*col > indent && *col + 1 + width(item) > 79) {
		printf("\n%*s", indent, "");
		*col = indent;
	}
	putchar(' ');
	put(item, 0, 0);
	*col += 1 + width(item);
}

/*
 * SYNOPSIS: "ptrguard NAME", each option of the table (those next to
 * each other that set the same variable as one choice), then the
 * arguments, folded before 80 columns under the first option; in roff,
 * a .SY block that groff folds between the items.
 */
static void print_synopsis(const struct option *opts, const struct cmd_help *h)
{
	const struct option *o, *first;
	int indent = 4 + (int)strlen("ptrguard ") + (int)strlen(h->name), col = indent;
	char item[512];

	if (man_part)
		printf(".SY \"ptrguard %s\"\n", h->name);
	else
		printf("    ptrguard %s", h->name);
	for (o = opts; o->type != OPTION_END;) {
		if (!in_synopsis(o) || (o->flags & PARSE_OPT_ARGS)) {
			o++;
			continue;
		}
		item[0] = '\0';
		add(item, sizeof(item), "%s", o->flags & PARSE_OPT_REQUIRED ? "" : "[", NULL);
		for (first = o; in_synopsis(o) && o->value == first->value; o++) {
			if (o->flags & PARSE_OPT_ARGS)
				continue;
			add(item, sizeof(item), "%s", o == first ? "" : " | ", NULL);
			synopsis_option(item, sizeof(item), o);
		}
		add(item, sizeof(item), "%s", first->flags & PARSE_OPT_REQUIRED ? "" : "]", NULL);
		synopsis_item(item, indent, &col);
	}
	/* the arguments, and the options given instead of them */
	item[0] = '\0';
	for (o = opts; o->type != OPTION_END; o++)
		if (in_synopsis(o) && (o->flags & PARSE_OPT_ARGS)) {
			add(item, sizeof(item), "%s", " | ", NULL);
			synopsis_option(item, sizeof(item), o);
		}
	if (item[0]) {
		char args[sizeof(item) + 128] = "(";

		synopsis_args(args, 128, h->args ? h->args : "");
		add(args, sizeof(args), "%s)", item, NULL);
		synopsis_item(args, indent, &col);
	} else if (h->args && *h->args) {
		char args[128] = "";

		synopsis_args(args, sizeof(args), h->args);
		synopsis_item(args, indent, &col);
	}
	puts(man_part ? ".YS" : "");
}

/* An entry of OPTIONS: "-j N, --jobs=N", "--[no-]casts". */
static void option_entry(char *buf, size_t n, const struct option *o)
{
	char s[3] = { '-', (char)o->short_name, '\0' };

	buf[0] = '\0';
	if (o->short_name)
		add(buf, n, takes_arg(o) ? BOLD "%s" ROMAN " " ITALIC "%s" ROMAN : BOLD "%s" ROMAN,
		    s, o->argh);
	if (o->short_name && o->long_name)
		add(buf, n, "%s", ", ", NULL);
	if (o->long_name)
		long_option(buf, n, o);
}

static void print_options(const struct option *opts)
{
	const struct option *o;
	char entry[256];

	for (o = opts; o->type != OPTION_END; o++) {
		if (o->flags & PARSE_OPT_HIDDEN)
			continue;
		if (o->type == OPTION_GROUP) {
			if (man_part)
				printf(".PP\n\\fI%s\\fR\n", o->help);
			else
				printf("  %s\n", o->help);
			continue;
		}
		option_entry(entry, sizeof(entry), o);
		if (man_part) {
			fputs(".TP\n", stdout);
			put(entry, 1, 0);
			putchar('\n');
			roff_text(o->help, 0, ".IP", 0);
			continue;
		}
		fputs("    ", stdout);
		put(entry, 0, 0);
		putchar('\n');
		indented(o->help, 8);
	}
	if (man_part)
		fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow this help.\n", stdout);
	else
		fputs("    -h, --help\n        Show this help.\n", stdout);
}

/*
 * One part of the man page (ptrguard.c puts them together): the
 * command's synopsis; its subsection of DESCRIPTION, with the sections
 * of its trailer that the page has no section for; of OPTIONS; or of
 * the page's section @man_heading, from its trailer's.
 */
static void print_cmd_man(const struct option *opts, const struct cmd_help *h)
{
	static const char *const own[] = { "EXIT STATUS", "EXAMPLES", "ENVIRONMENT" };
	const char *p;
	char *text, *heading;
	size_t i;

	switch (man_part) {
	case MAN_SYNOPSIS:
		print_synopsis(opts, h);
		break;
	case MAN_DESCRIPTION:
		printf(".SS \"ptrguard %s \\- ", h->name);
		put(h->summary, 1, 0);
		fputs("\"\n", stdout);
		if (h->description)
			roff_text(h->description, 4, ".PP", 0);
		/* the trailer's other sections; ENVIRONMENT is the page's one list */
		for (p = h->trailer; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
			if (*p == ' ' || *p == '\n')
				continue;
			for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
				if (!strncmp(p, own[i], strlen(own[i])) && p[strlen(own[i])] == '\n')
					break;
			if (i < sizeof(own) / sizeof(own[0]))
				continue;
			heading = xstrndup(p, (size_t)(line_end(p) - p));
			printf(".PP\n\\fB%s\\fR\n.PP\n", heading);
			text = trailer_section(h->trailer, heading);
			roff_text(text, 4, ".PP", 0);
			free(text);
			free(heading);
		}
		break;
	case MAN_OPTIONS:
		printf(".SS \"ptrguard %s\"\n", h->name);
		print_options(opts);
		break;
	case MAN_SECTION:
		text = h->trailer ? trailer_section(h->trailer, man_heading) : NULL;
		if (text) {
			printf(".SS \"ptrguard %s\"\n", h->name);
			roff_text(text, 4, ".PP", !strcmp(man_heading, "EXAMPLES"));
		}
		free(text);
		break;
	default:
		break;
	}
}

void print_cmd_help(const struct option *opts, const struct cmd_help *h)
{
	if (man_part) {
		print_cmd_man(opts, h);
		return;
	}
	printf("NAME\n    ptrguard %s - %s\n\nSYNOPSIS\n", h->name, h->summary);
	print_synopsis(opts, h);
	if (h->description)
		printf("\nDESCRIPTION\n%s", h->description);
	fputs("\nOPTIONS\n", stdout);
	print_options(opts);
	if (h->trailer)
		printf("\n%s", h->trailer);
}
