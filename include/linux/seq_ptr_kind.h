/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one printf conversion can print, as far as kernel addresses go.
 *
 * The model of the ptrguard userspace tools, which find the conversions in
 * format literals of the source (model/format.c) and map each to a kind with
 * the helpers below.  The runtime guard (kernel-series/) hashes the "raw"
 * kind, the "symbol" kind when kallsyms has no symbol, and the "hashed"
 * kind under no_hash_pointers, in vsprintf's own pointer() path.
 *
 * The header is freestanding on purpose: no kernel includes, so the same
 * file builds in userspace.
 */
#ifndef _LINUX_SEQ_PTR_KIND_H
#define _LINUX_SEQ_PTR_KIND_H

enum seq_ptr_kind {
	/* Prints no address: text, %%, %s, %c, int-wide integers, %pI4... */
	SEQ_PTR_NONE,
	/* A long-wide integer (%lx, %llu, %zx...): an address if its value is. */
	SEQ_PTR_INT,
	/* %px: the raw value, always. */
	SEQ_PTR_RAW,
	/* %p, unknown extensions, %pe of a non-error: raw with no_hash_pointers. */
	SEQ_PTR_HASHED,
	/* %pK: raw for the readers kptr_restrict lets through. */
	SEQ_PTR_RESTRICTED,
	/* %pS, %ps, %pB: raw hex when the address resolves to no symbol. */
	SEQ_PTR_SYMBOL,
	/* %pa, %pad, %pap, %pr, %pR: physical, bus or resource values. */
	SEQ_PTR_PHYS,
	/* %pV: whatever the nested format prints. */
	SEQ_PTR_VA,
	SEQ_PTR_NR_KINDS
};

/*
 * seq_ptr_ext_kind - kind of a %p conversion, given its extension character
 * @ext: the character right after "%p" (0 or a non-alphanumeric one for a
 *	 plain "%p")
 *
 * Mirrors the switch in pointer() of lib/vsprintf.c: every extension that
 * ends up in default_pointer() prints a hashed value, so unknown letters are
 * SEQ_PTR_HASHED rather than safe.
 */
static inline enum seq_ptr_kind seq_ptr_ext_kind(char ext)
{
	switch (ext) {
	case 'x':
		return SEQ_PTR_RAW;
	case 'K':
		return SEQ_PTR_RESTRICTED;
	case 'S':
	case 's':
	case 'B':
		return SEQ_PTR_SYMBOL;
	case 'a':
	case 'R':
	case 'r':
		return SEQ_PTR_PHYS;
	case 'V':
		return SEQ_PTR_VA;
	case 'h': case 'b': case 'M': case 'm': case 'I': case 'i':
	case 'E': case 'U': case 'N': case '4': case 'd': case 't':
	case 'C': case 'D': case 'g': case 'G': case 'O': case 'f':
	case 'A': case 'u': case 'k':
		/* Names, numbers and strings derived from the object. */
		return SEQ_PTR_NONE;
	default:
		/* Plain %p, %pe of a non-error and unknown extensions. */
		return SEQ_PTR_HASHED;
	}
}

/*
 * seq_ptr_int_kind - kind of an integer conversion, given its qualifier
 * @qualifier: 0 for none, 'h' ('H' for hh), 'l', 'L' (ll), 'z', 'Z', 't'
 *
 * Only conversions at least as wide as a pointer can carry an address; the
 * model assumes LP64, where int-wide conversions cannot.
 */
static inline enum seq_ptr_kind seq_ptr_int_kind(char qualifier)
{
	switch (qualifier) {
	case 'l':
	case 'L':
	case 'z':
	case 'Z':
	case 't':
		return SEQ_PTR_INT;
	default:
		return SEQ_PTR_NONE;
	}
}

/*
 * seq_ptr_type_kind - kind of a decoded conversion
 * @type: the conversion character ('d', 'x', 'p', 's'...)
 * @qualifier: for an integer conversion, as for seq_ptr_int_kind()
 * @ext: for 'p', as for seq_ptr_ext_kind()
 *
 * The one place that says which conversions are integers and which are
 * pointers: characters and strings print no address.
 */
static inline enum seq_ptr_kind seq_ptr_type_kind(char type, char qualifier,
						  char ext)
{
	switch (type) {
	case 'p':
		return seq_ptr_ext_kind(ext);
	case 'd':
	case 'i':
	case 'o':
	case 'u':
	case 'x':
	case 'X':
		return seq_ptr_int_kind(qualifier);
	default:
		return SEQ_PTR_NONE;
	}
}

/* Short stable names, used in reports and in the differential test. */
static inline const char *seq_ptr_kind_name(enum seq_ptr_kind kind)
{
	static const char * const names[SEQ_PTR_NR_KINDS] = {
		[SEQ_PTR_NONE] = "none",
		[SEQ_PTR_INT] = "int",
		[SEQ_PTR_RAW] = "raw",
		[SEQ_PTR_HASHED] = "hashed",
		[SEQ_PTR_RESTRICTED] = "restricted",
		[SEQ_PTR_SYMBOL] = "symbol",
		[SEQ_PTR_PHYS] = "phys",
		[SEQ_PTR_VA] = "va",
	};

	if ((unsigned int)kind >= SEQ_PTR_NR_KINDS)
		return "?";
	return names[kind];
}

#endif /* _LINUX_SEQ_PTR_KIND_H */
