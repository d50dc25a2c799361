// SPDX-License-Identifier: GPL-2.0
/*
 * Prefilter, keep: the grep query reads words as spatch does, of
 * [A-Za-z0-9_] bytes: a byte >= 0x80 ends one, so the only name of a seq
 * printf here, in éseq_printfé, is a word, and the file, which has a
 * %px, goes to spatch (which finds no call in it).
 */
const char *query_fmt = "q %px\n";
