// SPDX-License-Identifier: GPL-2.0
/*
 * vocab: the lists of model/vocab.def, compiled once for the C tools.
 * build/mkrule compiles the same file into the rules.
 */
#include <string.h>

#include "model/vocab.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

const struct vocab_seq_output vocab_seq_outputs[] = {
#define PG_SEQ_OUTPUT(name, fmt, va) { #name, fmt, va },
#include "model/vocab.def"
};
const size_t vocab_nseq_outputs = N(vocab_seq_outputs);

const struct vocab_class vocab_classes[] = {
#define PG_CLASS(id, rule, leak, fix, message, summary) { id, rule, leak, fix, message, summary },
#include "model/vocab.def"
};
const size_t vocab_nclasses = N(vocab_classes);

const struct vocab_io_fn vocab_io_fns[] = {
#define PG_SEQ_PUT(name, arg) { #name, VOCAB_IO_PUT, arg },
#define PG_SEQ_TEXT(name, arg) { #name, VOCAB_IO_TEXT, arg },
#define PG_BUF_PRINTF(name, fmt) { #name, VOCAB_IO_BUF, fmt },
#include "model/vocab.def"
};
const size_t vocab_nio_fns = N(vocab_io_fns);

static const struct {
	const char *type;
	int wide;
} int_casts[] = {
#define PG_INT_CAST(type, wide) { #type, wide },
#include "model/vocab.def"
};

static const char *const priv_names[] = {
#define PG_PRIV_CHECK(name) #name,
#define PG_PRIV_VAR(name) #name,
#include "model/vocab.def"
};

static const struct {
	const char *name;
	int prefix;
} buf_sinks[] = {
#define PG_BUF_SINK(name, prefix) { #name, prefix },
#include "model/vocab.def"
};

static const char *const user_fields[] = {
#define PG_USER_FIELD(name) #name,
#include "model/vocab.def"
};

/*
 * Is the word @w (@len bytes, no NUL in them) @name?  The first byte
 * first: the prefilter asks vocab_io() about every word of every file.
 * When strncmp() finds them equal, @name has @len bytes or more.
 */
static int is(const char *w, size_t len, const char *name)
{
	return len && name[0] == w[0] && !strncmp(name, w, len) && !name[len];
}

const struct vocab_io_fn *vocab_io(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < N(vocab_io_fns); i++)
		if (is(w, len, vocab_io_fns[i].name))
			return &vocab_io_fns[i];
	return NULL;
}

int vocab_int_word(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < N(int_casts); i++) {
		const char *p = int_casts[i].type;

		/* the words of "unsigned long long", one by one */
		while (*p) {
			size_t n = strcspn(p, " ");

			if (n == len && !memcmp(p, w, len))
				return 1;
			p += n;
			p += strspn(p, " ");
		}
	}
	return 0;
}

static const char *const int_types[] = {
#define PG_INT_TYPE(name) #name,
#include "model/vocab.def"
};

int vocab_int_type_word(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < N(int_types); i++)
		if (strlen(int_types[i]) == len && !memcmp(int_types[i], w, len))
			return 1;
	return vocab_int_word(w, len);
}

int vocab_int_cast(const char *type)
{
	size_t i;

	for (i = 0; i < N(int_casts); i++)
		if (!strcmp(int_casts[i].type, type))
			return int_casts[i].wide;
	return -1;
}

int vocab_priv_name(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < N(priv_names); i++)
		if (is(w, len, priv_names[i]))
			return 1;
	return 0;
}

int vocab_user_field(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < N(user_fields); i++)
		if (is(w, len, user_fields[i]))
			return 1;
	return 0;
}

const struct vocab_class *vocab_class(const char *id)
{
	size_t i;

	for (i = 0; i < N(vocab_classes); i++)
		if (!strcmp(vocab_classes[i].id, id))
			return &vocab_classes[i];
	return NULL;
}

int vocab_buf_sink(const char *name)
{
	size_t i;

	for (i = 0; i < N(buf_sinks); i++) {
		size_t n = strlen(buf_sinks[i].name);

		if (!strncmp(name, buf_sinks[i].name, n) && (buf_sinks[i].prefix || !name[n]))
			return 1;
	}
	return 0;
}

int vocab_seq_word(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i + 3 <= len; i++)
		if (!memcmp(w + i, "seq", 3) || !memcmp(w + i, "SEQ", 3))
			return 1;
	return 0;
}
