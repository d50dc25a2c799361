// SPDX-License-Identifier: GPL-2.0
/*
 * fmt: decode kernel printf formats in userspace, the way lib/vsprintf.c
 * decodes them at run time, and map each conversion to the kind of
 * include/linux/seq_ptr_kind.h.  `ptrguard fmt` (builtin/fmt.c) prints the
 * kinds of the format literals read on stdin, for the differential test
 * against the kernel's own decoder.
 */
#include <stdlib.h>
#include <string.h>

#include "model/format.h"
#include "lib/ptrguard.h"

/* The kernel's ctype: ASCII, plus the Latin-1 letters of lib/ctype.c. */
static int k_isdigit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static int k_isalnum(unsigned char c)
{
	if (c >= 0xc0)
		return c != 0xd7 && c != 0xf7;	/* all but multiply and divide */
	return k_isdigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int fmt_plain_p(const struct fmt_conv *c)
{
	return c->type == 'p' && !k_isalnum((unsigned char)c->ext);
}

int fmt_p_raw_unhashed(const char *fmt, const struct fmt_conv *c)
{
	/* the extensions v4.14's pointer() hands to a printer of their own */
	static const char printers[] = "FfSsBRrhbMmEUVKadCDgG";
	size_t p = c->start, end = c->start + c->len;
	unsigned char ext, ext2;

	if (c->type != 'p')
		return 0;
	/* flags, width, precision and qualifier hold no 'p' */
	while (p < end && fmt[p] != 'p')
		p++;
	ext = p + 1 < end ? (unsigned char)fmt[p + 1] : 0;
	ext2 = p + 2 < end ? (unsigned char)fmt[p + 2] : 0;
	if (!k_isalnum(ext))
		return 1;			/* plain %p */
	switch (ext) {
	case 'I':
	case 'i':
		/* "break": an IP conversion other than 4, 6 or S falls through */
		return ext2 != '4' && ext2 != '6' && ext2 != 'S';
	case 'O':
		/* only "OF" is a device node; the switch falls through */
		return ext2 != 'F';
	case 'N':
		/* netdev_bits(): anything but "NF" prints the pointer itself */
		return ext2 != 'F';
	default:
		/* a letter it does not know (x, e, t, a Latin-1 one...): number() */
		return !memchr(printers, ext, sizeof(printers) - 1);
	}
}

enum { RESUME_START, RESUME_PRECISION, RESUME_QUALIFIER };

/* The kind of a complete conversion; -1 if it is not a supported one. */
static int conv_kind(struct fmt_conv *c)
{
	/* the conversions format_decode() knows; %n is not one of them */
	if (!c->type || !strchr("cspdiouxX", c->type))
		return -1;
	return seq_ptr_type_kind(c->type, c->qualifier, c->ext);
}

int fmt_next(const char *fmt, size_t len, struct fmt_iter *it, struct fmt_conv *c)
{
	const unsigned char *s = (const unsigned char *)fmt;
	size_t p = it->pos;
	int kind;

#define AT(i) ((i) < len ? s[i] : 0)
	for (;;) {
		memset(c, 0, sizeof(*c));
		if (it->state == RESUME_PRECISION)
			goto precision;
		if (it->state == RESUME_QUALIFIER)
			goto qualifier;

		while (AT(p) && AT(p) != '%')
			p++;
		if (!AT(p)) {
			it->pos = p;
			return 0;
		}
		it->start = p++;
		while (AT(p) == '-' || AT(p) == '+' || AT(p) == ' ' ||
		       AT(p) == '#' || AT(p) == '0')
			p++;
		if (k_isdigit(AT(p))) {
			while (k_isdigit(AT(p)))
				p++;
		} else if (AT(p) == '*') {
			it->state = RESUME_PRECISION;
			goto star;
		}
precision:
		it->state = RESUME_START;
		if (AT(p) == '.') {
			p++;
			if (k_isdigit(AT(p))) {
				while (k_isdigit(AT(p)))
					p++;
			} else if (AT(p) == '*') {
				it->state = RESUME_QUALIFIER;
				goto star;
			}
		}
qualifier:
		it->state = RESUME_START;
		if (AT(p) == 'h' || AT(p) == 'l' || AT(p) == 'L' ||
		    AT(p) == 'z' || AT(p) == 't') {
			c->qualifier = (char)AT(p);
			p++;
			if (c->qualifier == AT(p) && c->qualifier == 'l') {
				c->qualifier = 'L';
				p++;
			} else if (c->qualifier == AT(p) && c->qualifier == 'h') {
				c->qualifier = 'H';
				p++;
			}
		}
		if (AT(p) == '%') {
			p++;		/* "%%" prints '%' and takes no argument */
			continue;
		}
		c->type = (char)AT(p);
		if (!c->type && it->partial) {
			/* the format ends inside the conversion: "%", "%08l" */
			c->incomplete = 1;
			c->kind = SEQ_PTR_NONE;
			c->start = it->start;
			c->len = p - it->start;
			it->pos = p;
			return 1;
		}
		if (c->type == 'p') {
			c->ext = (char)AT(p + 1);
			p++;
			while (k_isalnum(AT(p)))
				p++;
		} else {
			p++;
		}
		kind = conv_kind(c);
		if (kind < 0) {
			/* vsnprintf() stops at an unsupported conversion */
			it->pos = len;
			return 0;
		}
		c->kind = (enum seq_ptr_kind)kind;
		c->start = it->start;
		c->len = p - it->start;
		it->pos = p;
		return 1;
	}
star:
	/* a '*' width or precision: an int argument, consumed on its own */
	p++;
	c->type = '*';
	c->kind = SEQ_PTR_NONE;
	c->start = it->start;
	c->len = p - it->start;
	it->pos = p;
	return 1;
#undef AT
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long fmt_unescape(const char *s, size_t n, char *out, const char **why)
{
	const char *p = s, *end = s + n;
	unsigned int v;
	long o = 0;
	int d, i;

	for (; p < end; p++) {
		if (*p != '\\') {
			out[o++] = *p;
			continue;
		}
		if (++p == end) {
			*why = "a backslash ends the literal";
			return -1;
		}
		switch (*p) {
		case 'n': out[o++] = '\n'; break;
		case 't': out[o++] = '\t'; break;
		case 'r': out[o++] = '\r'; break;
		case 'a': out[o++] = '\a'; break;
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'v': out[o++] = '\v'; break;
		case 'e': out[o++] = 0x1b; break;	/* GNU */
		case '\\': case '\'': case '"': case '?':
			out[o++] = *p;
			break;
		case 'x':
			if (p + 1 == end || hexval(p[1]) < 0) {
				*why = "\\x with no hex digit";
				return -1;
			}
			for (v = 0; p + 1 < end && (d = hexval(p[1])) >= 0; p++)
				v = v > 0xff ? v : (v << 4 | (unsigned int)d);
			if (v > 0xff) {
				*why = "\\x escape out of range";
				return -1;
			}
			out[o++] = (char)v;
			break;
		case '0': case '1': case '2': case '3':
		case '4': case '5': case '6': case '7':
			v = 0;
			for (i = 0; i < 3 && p < end && *p >= '0' && *p <= '7'; i++, p++)
				v = v * 8 + (unsigned int)(*p - '0');
			p--;
			if (v > 0xff) {
				*why = "octal escape out of range";
				return -1;
			}
			out[o++] = (char)v;
			break;
		default:
			*why = "unknown escape sequence";
			return -1;
		}
	}
	return o;
}

int fmt_unquote(const char *line, char **out, size_t *len, const char **why)
{
	size_t n = 0;
	const char *p = line, *body;
	char *buf, *nul;
	int pieces = 0;
	long got;

	buf = malloc(strlen(line) + 1);
	if (!buf)
		die("out of memory");
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p)
			break;
		if (*p != '"') {
			*why = pieces ? "text between string literals" :
				"not a C string literal (no opening '\"')";
			goto bad;
		}
		pieces++;
		for (body = ++p; *p != '"'; p++) {
			if (!*p) {
				*why = "unterminated string literal";
				goto bad;
			}
			if (*p == '\\' && p[1])
				p++;
		}
		got = fmt_unescape(body, (size_t)(p - body), buf + n, why);
		if (got < 0)
			goto bad;
		n += (size_t)got;
		p++;
	}
	if (!pieces) {
		*why = "no string literal";
		goto bad;
	}
	buf[n] = '\0';
	*out = buf;
	nul = memchr(buf, '\0', n);
	*len = nul ? (size_t)(nul - buf) : n;
	return 0;
bad:
	free(buf);
	return -1;
}
