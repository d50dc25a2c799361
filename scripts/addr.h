/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86_64 kernel address model of `ptrguard scan`: is a 64-bit value a
 * kernel virtual address, and why do we think so.  See docs/scan.md.
 */
#ifndef PTRGUARD_ADDR_H
#define PTRGUARD_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Range flags: how much a hit in the range is trusted in binary data. */
enum {
	ADDR_BIN = 1,		/* a specific region: trusted anywhere */
	ADDR_BIN_ALIGNED = 2,	/* a wide region: trusted in binary data only 8-aligned */
};

struct addr_range {
	uint64_t lo, hi;	/* [lo, hi) */
	const char *reason;
	unsigned int flags;
};

#define ADDR_MAX_RANGES 24

struct addr_model {
	uint64_t half;		/* lowest kernel-half address */
	struct addr_range range[ADDR_MAX_RANGES];	/* first match wins */
	size_t nr;
	char desc[512];		/* one line: which model, from what */
	/* Set by addr_model_begin, used by addr_model_finish. */
	const char *kallsyms;	/* the --kallsyms argument, or NULL */
	bool la57;
	/*
	 * The bytes of the kallsyms file as read for the model, so that the
	 * scanner does not read it a second time: the file's device and
	 * inode, and how long the read took.  NULL when not read whole.
	 */
	unsigned char *ksyms;
	size_t nksyms;
	uint64_t ksyms_dev, ksyms_ino, ksyms_ms;
};

enum addr_verdict {
	ADDR_NOT,		/* below the kernel half: not an address */
	ADDR_IGNORED,		/* in the kernel half but a known non-address */
	ADDR_KERNEL,		/* a kernel address */
};

/*
 * Build the model.  kallsyms: a file in /proc/kallsyms format, NULL for
 * /proc/kallsyms plus host probing (5-level paging, KASLR), or "none" for
 * the layout alone.  Returns 0, or -1 after reporting an unreadable file
 * that was named explicitly.
 */
int addr_model_init(struct addr_model *m, const char *kallsyms);

/*
 * addr_model_init in two steps: begin sets the kernel half (enough to
 * tell candidates), finish reads kallsyms and sets the ranges and desc.
 * addr_classify needs both.
 */
void addr_model_begin(struct addr_model *m, const char *kallsyms);
int addr_model_finish(struct addr_model *m);

/* Drop the kept kallsyms bytes (after a privilege drop: not ours to show). */
void addr_model_forget(struct addr_model *m);

/* Classify v; *reason says why (for ADDR_IGNORED and ADDR_KERNEL). */
enum addr_verdict addr_classify(const struct addr_model *m, uint64_t v,
				bool binary, const char **reason);

#endif
