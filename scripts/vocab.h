/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vocab: the lists of scripts/vocab.def, as the C tools ask about them.
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
	const char *message, *summary;
};

extern const struct vocab_seq_output vocab_seq_outputs[];
extern const size_t vocab_nseq_outputs;
extern const struct vocab_class vocab_classes[];
extern const size_t vocab_nclasses;

/* Is @w (@len bytes) a word of an integer cast type ("unsigned", "u64")? */
int vocab_int_word(const char *w, size_t len);
/*
 * An integer cast type, spelled as words joined by single blanks
 * ("unsigned long"): 1 if it holds a whole pointer, 0 if it is narrower,
 * -1 if it is no cast type of the vocabulary.
 */
int vocab_int_cast(const char *type);
/* ... the name of a privilege check or privilege variable? */
int vocab_priv_name(const char *w, size_t len);
/* ... a uapi field that holds a user-space pointer? */
int vocab_user_field(const char *w, size_t len);
/* The class named @id, or NULL. */
const struct vocab_class *vocab_class(const char *id);

#endif
