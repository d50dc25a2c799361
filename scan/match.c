// SPDX-License-Identifier: GPL-2.0
/*
 * Find candidate kernel addresses in a byte stream, in one pass, with no
 * regex engine: bytes come in chunks of any size and every state that a
 * value split across two chunks needs is kept in struct matcher.
 *
 * Text: a token is a maximal run of word bytes [0-9A-Za-z_] (the \b of
 * leaking_addresses.pl).  Candidates are 16 hex digits with or without a
 * 0x/0X prefix (a shorter hex number cannot reach the kernel half), 20
 * decimal digits (a u64 printed with %lu), and '-' followed by 10 to 17
 * digits after a non-word byte (an address printed with %ld: at least
 * 2^32, smaller negatives are ordinary ints; at most 2^56 below zero, the
 * lowest kernel half, x86_64 5-level; arm64's VA_BITS 52 linear map goes
 * down to -2^52, 16 digits; the address model drops what lies below the
 * layout's own kernel half).
 *
 * Binary: every 8 bytes at a 4-aligned offset (ELF notes and most kernel
 * structures are at least 4-aligned), little-endian.
 *
 * Bitmaps: a value after a "LABEL:" or "LABEL=" on the same line, where
 * LABEL names a signal set, a capability set or an input device bitmap, is
 * ignored, as is every value of a file the caller marks as a bitmap.
 */
#include <string.h>

#include "scan/scan.h"

static const char *const mask_labels[] = {
	/* /proc/PID/status: signal and capability sets */
	"SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt",
	"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
	/* /proc/bus/input/devices, input uevent: capability bitmaps */
	"PROP", "EV", "KEY", "REL", "ABS", "MSC", "LED", "SND", "FF", "SW",
};

/* Word bytes, the \w of Perl: token characters. */
static const unsigned char word[256] = {
	['0' ... '9'] = 1, ['A' ... 'Z'] = 1, ['a' ... 'z'] = 1, ['_'] = 1,
};

/* What a byte does outside a token: most only separate (C_SEP). */
enum { C_SEP, C_WORD, C_NL, C_NUL, C_DASH };
static const unsigned char cls[256] = {
	['0' ... '9'] = C_WORD, ['A' ... 'Z'] = C_WORD, ['a' ... 'z'] = C_WORD,
	['_'] = C_WORD, ['\n'] = C_NL, ['\0'] = C_NUL, ['-'] = C_DASH,
};


void matcher_init(struct matcher *mt, const struct addr_model *model,
		  scan_hit_fn hit, void *ctx)
{
	memset(mt, 0, sizeof(*mt));
	mt->model = model;
	mt->hit = hit;
	mt->ctx = ctx;
	mt->line = 1;
}

static bool parse_dec(const unsigned char *s, unsigned int n, uint64_t *v)
{
	uint64_t x = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned int d = s[i] - '0';

		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

static void report(struct matcher *mt, struct scan_hit *h, bool binary)
{
	h->binary = binary;
	if (h->value < mt->model->half)
		return;		/* ADDR_NOT, without waiting for the model */
	if (mt->wait)
		mt->wait(mt->ctx);
	h->verdict = addr_classify(mt->model, h->value, binary, &h->reason, &h->region);
	if (h->verdict == ADDR_NOT)
		return;
	if (h->verdict == ADDR_KERNEL && !binary && (mt->label || mt->mask_file)) {
		h->verdict = ADDR_IGNORED;
		h->reason = mt->mask_file ? mt->mask_file : mt->label;
		h->region = NULL;
	}
	mt->hit(mt->ctx, h);
}

void matcher_hit(struct matcher *mt, struct scan_hit *h)
{
	report(mt, h, false);
}

void matcher_seek(struct matcher *mt, uint64_t off, unsigned int line)
{
	mt->off = mt->bol = off;
	mt->line = line;
	mt->dash = mt->intok = mt->tokneg = false;
	mt->toklen = 0;
	mt->label = NULL;
	mt->ntail = 0;
}

/*
 * The token t[0..n) ended before byte c: is it a candidate, is it a label?
 * n is more than sizeof(mt->tok) for a longer token (t is then not read).
 */
static void token_end(struct matcher *mt, const unsigned char *t, unsigned int n,
		      unsigned int c)
{
	struct scan_hit h;
	bool ok = false, neg = false;
	size_t i;

	if (n > sizeof(mt->tok))
		return;
	/*
	 * A signed decimal first: at 16 digits it is also a hex candidate,
	 * but a hex value of decimal digits only (0x1000... to 0x9999...) is
	 * below every kernel half, so nothing is lost.
	 */
	if (n >= 10 && n <= 17 && mt->tokneg &&
	    parse_dec(t, n, &h.value) && h.value >= (1ULL << 32)) {
		h.value = -h.value;
		ok = neg = true;
	} else if (n == 16) {
		ok = addr_parse_hex16(t, &h.value);
	} else if (n == 18 && t[0] == '0' && (t[1] | 0x20) == 'x') {
		ok = addr_parse_hex16(t + 2, &h.value);
	} else if (n == 20 && !mt->tokneg) {
		ok = parse_dec(t, 20, &h.value);
	}
	if (ok) {
		/* A negative value starts at its '-'. */
		h.offset = mt->tokoff - neg;
		h.line = mt->tokline;
		h.column = mt->tokcol - neg;
		if (neg) {
			h.text[0] = '-';
			memcpy(h.text + 1, t, n);
			h.text[n + 1] = '\0';
		} else {
			memcpy(h.text, t, n);
			h.text[n] = '\0';
		}
		report(mt, &h, false);
	}
	if ((c == ':' || c == '=') && n <= 6) {
		mt->label = NULL;
		for (i = 0; i < sizeof(mask_labels) / sizeof(mask_labels[0]); i++)
			if (strlen(mask_labels[i]) == n && !memcmp(mask_labels[i], t, n))
				mt->label = c == ':' ? "signal or capability set" :
						       "input device bitmap";
	} else if (c == ':' || c == '=') {
		mt->label = NULL;
	}
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void check_le(struct matcher *mt, const unsigned char *p, uint64_t at)
{
	static const char xd[] = "0123456789abcdef";
	struct scan_hit h = { 0 };
	int i;

	h.value = le64(p);
	if (h.value < mt->model->half)
		return;
	h.offset = at;
	for (i = 0; i < 16; i++)
		h.text[i] = xd[h.value >> (60 - 4 * i) & 15];
	h.text[16] = '\0';
	report(mt, &h, true);
}

/* 8-byte little-endian values at 4-aligned offsets, across chunks. */
static void scan_le(struct matcher *mt, const unsigned char *buf, size_t n)
{
	uint64_t base = mt->off;	/* offset of buf[0] */
	unsigned int nt = mt->ntail;
	unsigned char win[16];
	const unsigned char *q;
	size_t p, k = n < 8 ? n : 8;

	if (nt) {
		memcpy(win, mt->tail, nt);
		memcpy(win + nt, buf, k);
		for (p = 0; p < nt && p + 8 <= nt + k; p++)
			if (!((base - nt + p) & 3) && win[p + 7] == 0xff)
				check_le(mt, win + p, base - nt + p);
	}
	/* Every 0xff byte ends the 8-byte windows it is the top byte of. */
	for (q = n >= 8 ? memchr(buf + 7, 0xff, n - 7) : NULL; q;
	     q = (size_t)(buf + n - q) > 1 ? memchr(q + 1, 0xff, (size_t)(buf + n - q) - 1) : NULL) {
		p = (size_t)(q - 7 - buf);
		if (!((base + p) & 3))
			check_le(mt, buf + p, base + p);
	}
	if (n >= 7) {
		memcpy(mt->tail, buf + n - 7, 7);
		mt->ntail = 7;
	} else {
		unsigned int total = nt + (unsigned int)n;
		unsigned int keep = total < 7 ? total : 7;

		memcpy(win, mt->tail, nt);
		memcpy(win + nt, buf, n);
		memcpy(mt->tail, win + total - keep, keep);
		mt->ntail = keep;
	}
}

/* Append p[0..len) to the token carried across chunks (saturating). */
static void tok_append(struct matcher *mt, const unsigned char *p, size_t len)
{
	size_t have = mt->toklen < sizeof(mt->tok) ? mt->toklen : sizeof(mt->tok);
	size_t room = sizeof(mt->tok) - have;

	memcpy(mt->tok + have, p, len < room ? len : room);
	mt->toklen = mt->toklen + len > sizeof(mt->tok) ?
		     sizeof(mt->tok) + 1 : mt->toklen + (unsigned int)len;
}

/*
 * A chunk with no candidate in it, and nothing carried in or out: no
 * token or sign goes on from the last chunk or into the next (buf ends
 * in a separator, a newline or a NUL), no label is in force or set on the
 * chunk's last line, and no run of 10 hex digits is in it, which every
 * candidate holds (addr_hex_run10).  Such a chunk (most of a /proc or
 * /sys file, which is one chunk) is not tokenized: its newlines are
 * counted and its binary windows looked at.  True when so done.
 */
static bool quiet_chunk(struct matcher *mt, const unsigned char *buf, size_t n)
{
	const unsigned char *p, *q, *end = buf + n, *last = NULL;
	unsigned int lines = 0;

	if (mt->intok || mt->dash || mt->label || !n || cls[buf[n - 1]] == C_WORD ||
	    cls[buf[n - 1]] == C_DASH || addr_hex_run10(buf, n))
		return false;
	for (p = buf; (q = memchr(p, '\n', (size_t)(end - p))); p = q + 1) {
		lines++;
		last = q;
	}
	p = last ? last + 1 : buf;	/* the last line: does it set a label? */
	if (memchr(p, ':', (size_t)(end - p)) || memchr(p, '=', (size_t)(end - p)))
		return false;
	scan_le(mt, buf, n);
	if (memchr(buf, 0, n))
		mt->saw_nul = true;
	mt->line += lines;
	if (last)
		mt->bol = mt->off + (uint64_t)(last + 1 - buf);
	mt->off += n;
	return true;
}

/*
 * The text pass.  A token is matched where it lies in buf; only one that
 * runs to the end of buf is copied, to be finished by the next chunk.  The
 * column is the distance from the line's first byte (bol), found once per
 * token.  The hot loops keep the position in locals: a store through mt
 * (it holds char arrays) would make the compiler reload everything after
 * it.
 */
void matcher_feed(struct matcher *mt, const unsigned char *buf, size_t n)
{
	const unsigned char *p = buf, *end = buf + n;
	uint64_t base = mt->off, bol = mt->bol;
	unsigned int line = mt->line, c;
	bool dash = mt->dash;

	if (quiet_chunk(mt, buf, n))
		return;
	scan_le(mt, buf, n);
	if (mt->intok && p < end) {	/* a token carried from the last chunk */
		while (p < end && word[*p])
			p++;
		tok_append(mt, buf, (size_t)(p - buf));
		if (p == end)
			goto out;
		c = *p++;
		mt->intok = false;
		token_end(mt, (const unsigned char *)mt->tok, mt->toklen, c);
		dash = false;	/* a '-' right after a token is no sign */
		goto ended;
	}
	while (p < end) {
		unsigned int k;

		c = *p;
		k = cls[c];
		if (k == C_SEP || k == C_NUL) {	/* a run of separators */
			if (k == C_NUL)
				mt->saw_nul = true;
			do
				p++;
			while (p < end && cls[*p] == k);
			dash = false;
			continue;
		}
		if (k == C_DASH) {
			p++;
			dash = true;
			continue;
		}
		if (k == C_NL) {
			p++;
		} else {		/* C_WORD: a token */
			const unsigned char *s = p++;

			while (end - p >= 4 && (word[p[0]] & word[p[1]] & word[p[2]] &
						word[p[3]]))
				p += 4;
			while (p < end && word[*p])
				p++;
			mt->tokoff = base + (uint64_t)(s - buf);
			mt->tokline = line;
			mt->tokcol = (unsigned int)(mt->tokoff - bol) + 1;
			mt->tokneg = dash;
			if (p == end) {
				mt->intok = true;
				mt->toklen = 0;
				tok_append(mt, s, (size_t)(p - s));
				goto out;
			}
			c = *p++;
			/* Only a long token can be a value, only ':' or '=' set labels. */
			if (p - 1 - s >= 10 || c == ':' || c == '=')
				token_end(mt, s, (unsigned int)(p - 1 - s), c);
		}
ended:
		/* c, the byte just consumed, ended a token or is a newline. */
		dash = false;
		if (c == '\n') {
			line++;
			bol = base + (uint64_t)(p - buf);
			mt->label = NULL;
		} else if (!c) {
			mt->saw_nul = true;
		}
	}
out:
	mt->dash = dash;
	mt->line = line;
	mt->bol = bol;
	mt->off += n;
}

void matcher_end(struct matcher *mt)
{
	if (mt->intok) {
		mt->intok = false;
		token_end(mt, (const unsigned char *)mt->tok, mt->toklen, '\n');
	}
}
