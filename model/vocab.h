/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vocab: the lists of model/vocab.def, as the C tools ask about them.
 */
#ifndef PTRGUARD_VOCAB_H
#define PTRGUARD_VOCAB_H

#include <stddef.h>

struct vocab_seq_output {
	const char *name;
	unsigned int fmt;	/* index of the format argument */
	int va;			/* a va_list follows the format */
};

struct vocab_class {
	const char *id, *rule;
	int leak;		/* high confidence: a leak, not a note */
	int fix;		/* fix_apply() rewrites it (audit --patch, fix) */
	const char *message, *summary;
};

extern const struct vocab_seq_output vocab_seq_outputs[];
extern const size_t vocab_nseq_outputs;
extern const struct vocab_class vocab_classes[];
extern const size_t vocab_nclasses;

/*
 * A function of a list that carries no format of its own (vocab.def):
 * PG_SEQ_PUT (an integer written to seq output), PG_SEQ_TEXT (a buffer
 * written to it) or PG_BUF_PRINTF (a format printed into a buffer); the
 * argument that matters is @arg (the value, the buffer, the format).
 */
enum vocab_io { VOCAB_IO_NONE, VOCAB_IO_PUT, VOCAB_IO_TEXT, VOCAB_IO_BUF };

struct vocab_io_fn {
	const char *name;
	enum vocab_io kind;
	unsigned int arg;
};

extern const struct vocab_io_fn vocab_io_fns[];
extern const size_t vocab_nio_fns;
/* The function @w (@len bytes) of those lists, or NULL. */
const struct vocab_io_fn *vocab_io(const char *w, size_t len);

/* Is @w (@len bytes) a word of an integer cast type ("unsigned", "u64")? */
int vocab_int_word(const char *w, size_t len);
/* ... or of another integer (or floating) type of a declaration ("u8", "loff_t")? */
int vocab_int_type_word(const char *w, size_t len);
/*
 * An integer cast type, spelled as words joined by single blanks
 * ("unsigned long"): 1 if it holds a whole pointer, 0 if it is narrower,
 * -1 if it is no cast type of the vocabulary.
 */
int vocab_int_cast(const char *type);
/* ... the name of a privilege check or privilege variable? */
int vocab_priv_name(const char *w, size_t len);
/*
 * ... a name with "seq" or "SEQ" in it: the rules' callee regexes take
 * such a name for a seq output call (seq|SEQ).
 */
int vocab_seq_word(const char *w, size_t len);
/* ... a uapi field that holds a user-space pointer? */
int vocab_user_field(const char *w, size_t len);
/*
 * Is the function @name one a formatted buffer may be handed to without
 * its text reaching seq output (PG_BUF_SINK: the log, a sysfs page, a
 * string reader, a copy, kfree())?
 */
int vocab_buf_sink(const char *name);
/* The class named @id, or NULL. */
const struct vocab_class *vocab_class(const char *id);

#endif
