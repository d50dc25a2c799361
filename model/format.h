/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fmt: kernel printf formats, decoded as lib/vsprintf.c decodes them, and
 * the kind of what each conversion prints (include/linux/seq_ptr_kind.h).
 */
#ifndef PTRGUARD_FMT_H
#define PTRGUARD_FMT_H

#include <stddef.h>

#include "include/linux/seq_ptr_kind.h"

/* One argument the format consumes. */
struct fmt_conv {
	enum seq_ptr_kind kind;
	size_t start;		/* offset of its '%' in the format */
	size_t len;		/* bytes, up to and with the %p extension */
	char type;		/* 'd', 'x', 'p', 's', 'c', ...; '*' for a width or precision */
	char qualifier;		/* 0, 'h', 'H' (hh), 'l', 'L' (ll or L), 'z', 't' */
	char ext;		/* for 'p': the character after it (0 at the end) */
	/* only in a partial walk (fmt_iter.partial), else always 0: */
	unsigned char incomplete;	/* the format ends inside it; @type is 0 */
};

/* Where a walk over a format is; zero it to start. */
struct fmt_iter {
	size_t pos;
	int state;		/* after a '*': resume at precision or qualifier */
	size_t start;		/* the '%' of the conversion being read */
	/*
	 * Set before the walk for a format whose text goes on in a macro
	 * ("%" PRIx64): a conversion cut by the end of the format is then
	 * returned, with @incomplete set, instead of ending the walk.
	 */
	int partial;
};

/*
 * fmt_next - the next argument-consuming conversion of @fmt
 *
 * Follows format_decode() and vsnprintf(): flags "-+ #0", a width (digits,
 * or '*', which consumes an int argument and is returned as its own
 * conversion of type '*'), a precision ('.' digits or ".*"), a qualifier
 * (h hh l ll L z t) and the conversion character.  "%%" consumes nothing
 * and is skipped; after "%p" every alphanumeric character is taken as
 * the extension.  An unsupported conversion ("%n", "%q"...) ends the walk,
 * as it ends vsnprintf(), and so does the end of @fmt or a NUL.
 * Returns 1 and fills @c, or 0 at the end.  cocci/rules/pg.py decodes formats
 * the same way; tests/model proves the two agree on every seq-output
 * format of a tree, and tests/kunit that the kernel agrees with this one.
 */
int fmt_next(const char *fmt, size_t len, struct fmt_iter *it, struct fmt_conv *c);

/*
 * Is @c a plain %p, with no extension (hashed from v4.15 on, the raw
 * address before)?  An extension is any letter or digit of the kernel's
 * ctype after the 'p', Latin-1 letters included, as vsprintf.c reads it.
 */
int fmt_plain_p(const struct fmt_conv *c);

/*
 * Does the %p conversion @c of the format @fmt (decoded bytes: @c's
 * offsets are into them) print the raw address in a kernel older than
 * v4.15?  Before commit ad67b74d2469 ("printk: hash addresses printed
 * with %p"), pointer() of lib/vsprintf.c ends, for every extension its
 * switch does not hand to a printer, in number() of the pointer: plain
 * %p, a letter it does not know (any byte the kernel's isalnum() takes,
 * Latin-1 letters included, and %px, %pe, %pt... which came later),
 * %pI or %pi not followed by 4, 6 or S, %pO not followed by F; and
 * netdev_bits() prints the pointer itself for %pN not followed by F.
 * The extensions are v4.14's (the last release before hashing); an
 * older tree knew fewer, and a letter it lacked prints raw there too.
 */
int fmt_p_raw_unhashed(const char *fmt, const struct fmt_conv *c);

/*
 * fmt_unquote - decode a line of C string literals ("a" "b" joined)
 * @line: the literals, with C escapes (\n \t \" \\ \xHH \ooo ...)
 * @out: set to a malloc()ed buffer holding the bytes (NUL-terminated)
 * @len: set to the number of bytes, up to the first NUL byte if any
 *
 * Returns 0, or -1 with @why set to a static message.
 */
int fmt_unquote(const char *line, char **out, size_t *len, const char **why);

/*
 * fmt_unescape - decode the text between the quotes of one string literal
 * @s, @n: the text, escapes as written (no line continuations)
 * @out: receives the bytes, NULs included: at most @n of them
 *
 * Returns the number of bytes, or -1 with @why set if an escape is not C.
 */
long fmt_unescape(const char *s, size_t n, char *out, const char **why);

#endif
