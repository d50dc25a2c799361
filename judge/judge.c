// SPDX-License-Identifier: GPL-2.0
/*
 * cocci_lex: the one judge of the static half.
 *
 * The rules report facts only (cocci/rules/pg.py): the calls spatch parsed ("C"
 * records, at the callee's name) and what spatch knows of an argument
 * that the text does not say (a value chosen by a privilege check, a
 * constant NULL, a cast of an expression of pointer type).  Every class
 * is decided here, from the lexical model's reading of each call (lex.h:
 * its format, literal or through a variable or a ?: of literals, decoded
 * by model/format.c, paired with the arguments) and those facts:
 *
 *  - a call a rule parsed is judged with its facts: a %px whose value is
 *    gated is px-gated, and an integer conversion is int-cast exactly
 *    when the cast rule says its operand is a pointer;
 *  - a call no rule parsed, or lying in lines spatch skipped, is judged
 *    from the text alone, marked lexical (no privilege check was looked
 *    for); integer casts only in skipped lines, where the cast rule was
 *    blind, and a cast whose operand may be a pointer is unjudged there;
 *  - a call whose format neither half can read, or that spatch parsed
 *    and the model does not find, is listed as unjudged (not understood),
 *    for the gate to refuse when a patch adds it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cocci/cocci_impl.h"
#include "model/lex.h"
#include "judge/away.h"
#include "judge/judge_impl.h"
#include "lib/ptrguard.h"
#include "model/vocab.h"

/* The message the rules give a finding of class @cls. */
static const char *message_of(const char *cls)
{
	const struct vocab_class *c = vocab_class(cls);

	return c ? c->message : "";
}

int cocci_skipped(const struct cocci_result *res, const char *file, unsigned int a, unsigned int b)
{
	size_t i;

	for (i = 0; i < res->nskips; i++)
		if (!strcmp(res->skips[i].file, file) && res->skips[i].first <= b &&
		    res->skips[i].last >= a)
			return 1;
	return 0;
}

static void add_unjudged(struct cocci_result *res, const char *file, const struct lex_call *c,
			 const char *why)
{
	struct cocci_unjudged *u;

	res->unjudged = xrealloc(res->unjudged, (res->nunjudged + 1) * sizeof(*res->unjudged));
	u = &res->unjudged[res->nunjudged++];
	u->file = xstrdup(file);
	u->line = c->line;
	u->end_line = c->end_line;
	u->callee = xstrdup(c->fn->name);
	u->why = xstrdup(why);
}

static void add_finding(struct cocci_result *res, const char *file, const struct lex_call *c,
			const struct lex_finding *lf, const char *cls, const char *message,
			int lexical)
{
	struct finding *f;

	res->findings = xrealloc(res->findings, (res->nfindings + 1) * sizeof(*res->findings));
	f = &res->findings[res->nfindings++];
	f->file = xstrdup(file);
	f->line = lf->line;
	f->column = lf->column;
	f->cls = xstrdup(cls);
	f->conversion = xstrdup(lf->conversion);
	f->function = xstrdup(c->function);
	f->format = xstrdup(lf->format);
	f->arg = xstrdup(lf->arg);
	/* the model's own message goes with the class the model gave */
	if (!message && lf->message && lf->cls && !strcmp(cls, lf->cls))
		message = lf->message;
	f->message = message ? xstrdup(message) : xstrdup(message_of(cls));
	f->lexical = lexical;
	f->arg_line = lf->arg_line;
	f->arg_column = lf->arg_column;
}

static void add_call(struct cocci_result *res, const char *file, const struct lex_call *c)
{
	size_t k;

	for (k = 0; k < c->nformats; k++) {
		struct cocci_call *cl;

		res->calls = xrealloc(res->calls, (res->ncalls + 1) * sizeof(*res->calls));
		cl = &res->calls[res->ncalls++];
		cl->file = xstrdup(file);
		cl->line = c->line;
		cl->function = xstrdup(c->function);
		cl->format = xstrdup(c->formats[k]);
	}
}

/* Is @x the fact @mark of the call at @line:@col (argument @arg)? */
static int fact_is(const struct cocci_fact *x, unsigned int line, unsigned int col,
		   int cast_rule, char mark, int arg)
{
	return x->line == line && x->column == col && x->cast_rule == cast_rule &&
	       x->mark == mark && (mark == 'C' || x->arg == arg);
}

/* The fact @mark of the call at @line:@col (argument @arg), or NULL. */
static const struct cocci_fact *fact(const struct facts *fs, unsigned int line, unsigned int col,
				     int cast_rule, char mark, int arg)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		if (fact_is(&fs->x[i], line, col, cast_rule, mark, arg))
			return &fs->x[i];
	return NULL;
}

/*
 * A %px that spatch's facts show to be no leak: the value is a constant
 * NULL or chosen by a privilege check, or the whole call is (px-gated).
 * The message says which; NULL if none.
 */
static char *gate_message(const struct facts *fs, const struct lex_call *c, int arg)
{
	const struct cocci_fact *x;

	if (arg >= 0 && fact(fs, c->line, c->column, 0, 'n', arg))
		return xstrdup("constant NULL, prints only zeros");
	x = arg >= 0 ? fact(fs, c->line, c->column, 0, 'g', arg) : NULL;
	if (x && *x->what)
		return xasprintf("raw address, zeroed unless the reader passes the privilege check stored in ->%s",
				 x->what);
	if (x)
		return xstrdup(message_of("px-gated"));
	if (fact(fs, c->line, c->column, 0, 'g', -1))
		return xstrdup("raw address, printed only to readers who pass a privilege check");
	return NULL;
}

/*
 * A %px of an error pointer (the "err" fact: ERR_PTR(), ERR_CAST(), or a
 * local assigned one): it prints -4095..-1, an error code, not an address.
 * No finding; -vv names it.
 */
static int px_error_pointer(const struct facts *fs, const struct lex_call *c,
			    const struct lex_finding *f, const char *rel, int verbose)
{
	if (!fact(fs, c->line, c->column, 0, 'e', f->argidx))
		return 0;
	if (verbose)
		fprintf(stderr, "ptrguard: judge: %s:%u: %s of %s: an error pointer, not an address\n",
			rel, f->line, f->conversion, f->arg);
	return 1;
}

/* The fact @mark about argument @arg of the call at @line:@col, from either rule. */
static const struct cocci_fact *fact_any(const struct facts *fs, unsigned int line,
					 unsigned int col, char mark, int arg)
{
	const struct cocci_fact *x = fact(fs, line, col, 1, mark, arg);

	return x ? x : fact(fs, line, col, 0, mark, arg);
}

/*
 * A pointer spatch saw cast to an integer that is no kernel address all
 * the same: the text declares it __user (spatch's parser drops the
 * word), it is an error pointer (ERR_PTR(-E...) holds -4095..-1), or NULL.
 * Why, or NULL.
 */
static const char *not_an_address(const char *buf, size_t len, const char *what,
				  unsigned int line)
{
	if (!strncmp(what, "ERR_PTR", 7) || !strncmp(what, "ERR_CAST", 8))
		return "an error pointer, not an address";
	if (!strcmp(what, "NULL"))
		return "a constant NULL, not an address";
	if (lex_user_expr(buf, len, what, line))
		return "a __user pointer, not a kernel address";
	return NULL;
}

/* A conversion that prints a signed decimal: %ld, %lld, %zd, seq_put_decimal_ll(). */
static int signed_conversion(const struct lex_finding *f)
{
	size_t n = strlen(f->conversion);
	char last = n ? f->conversion[n - 1] : 0;

	if (f->conversion[0] != '%')
		return !strcmp(f->conversion, "seq_put_decimal_ll");
	return last == 'd' || last == 'i';
}

/*
 * The fact that an integer argument holds a pointer: a cast in the
 * argument ('p'), a local that holds one ('h'), a field the file assigns
 * one ('f'), in that order; of each, the first whose pointer may be a
 * kernel address.  A field assigned NULL in one place and an object in
 * another holds an address: the answer must not hang on which record
 * spatch printed first.  @why: NULL, or why none is an address (the
 * fact returned is then the first found).
 */
static const struct cocci_fact *held_fact(const struct facts *fs, const struct lex_call *c,
					  const struct lex_finding *f, const char *buf,
					  size_t len, const char **why)
{
	static const char marks[] = { 'p', 'h', 'f' };
	const struct cocci_fact *first = NULL;
	const char *first_why = NULL;
	size_t i, k;

	for (i = 0; i < sizeof(marks); i++)
		for (k = 0; k < fs->n; k++) {
			const struct cocci_fact *x = &fs->x[k];
			const char *w;

			if (!fact_is(x, c->line, c->column, 1, marks[i], f->argidx))
				continue;
			/* a field's pointer is assigned in any function */
			w = not_an_address(buf, len, x->what, marks[i] == 'f' ? 0 : c->line);
			if (!w) {
				*why = NULL;
				return x;
			}
			if (!first) {
				first = x;
				first_why = w;
			}
		}
	*why = first_why;
	return first;
}

/*
 * The class of an integer that spatch's facts show to hold a pointer:
 * @direct is the class of a cast in the argument itself (int-cast for a
 * conversion, put-cast for a seq_put_* writer, int-buf for a formatting
 * call).  A local that holds one is int-held (int-buf into a buffer), a
 * field the file assigns one int-field.  NULL: no such fact, the
 * pointer is no kernel address, or the call runs only for readers who
 * pass a privilege check (-vv says which).  @held: the fact decided by.
 */
static const char *held_class(const struct facts *fs, const struct lex_call *c,
			      const struct lex_finding *f, const char *direct, const char *rel,
			      const char *buf, size_t len, int verbose,
			      const struct cocci_fact **held)
{
	const struct cocci_fact *x;
	const char *why;

	x = *held = held_fact(fs, c, f, buf, len, &why);
	if (!x)
		return NULL;
	/* the call runs only for readers who pass a privilege check (px-gated's policy) */
	if (!why && fact_any(fs, c->line, c->column, 'g', -1))
		why = "printed only to readers who pass a privilege check";
	if (why) {
		if (verbose)
			fprintf(stderr, "ptrguard: judge: %s:%u: %s of %s: %s: %s\n", rel, f->line,
				f->conversion, f->arg, x->what, why);
		return NULL;
	}
	if (x->mark == 'p')
		return direct;
	/*
	 * One step removed from the cast, a value printed as a signed number
	 * (%ld, seq_put_decimal_ll()) is an integer carried in a pointer (a
	 * seq_file iterator's cookie, "long count = (long)data"), not an
	 * address: kernel code prints addresses unsigned, in hex mostly.
	 */
	if (signed_conversion(f)) {
		if (verbose)
			fprintf(stderr, "ptrguard: judge: %s:%u: %s of %s: holds %s, printed as a signed number\n",
				rel, f->line, f->conversion, f->arg, x->what);
		return NULL;
	}
	if (c->io == VOCAB_IO_BUF)
		return "int-buf";
	return x->mark == 'h' ? "int-held" : "int-field";
}

/* spatch's print of an expression ("d -> regs") as C is written ("d->regs"). */
static char *unspace(const char *e)
{
	char *out = xstrdup(e), *o = out;
	size_t i;

	for (i = 0; e[i]; i++) {
		int w0 = i && (isalnum((unsigned char)e[i - 1]) || e[i - 1] == '_');
		int w1 = isalnum((unsigned char)e[i + 1]) || e[i + 1] == '_';

		if (e[i] == ' ' && !(w0 && w1))
			continue;
		*o++ = e[i];
	}
	*o = '\0';
	return out;
}

/* The message of a finding of class @cls about the held pointer @x: it names what it holds. */
static char *held_message(const struct cocci_fact *x, const char *cls)
{
	if (x && (!strcmp(cls, "int-held") || !strcmp(cls, "int-field"))) {
		char *what = unspace(x->what), *m = xasprintf("%s (it holds %s)", message_of(cls), what);

		free(what);
		return m;
	}
	return NULL;
}

/*
 * An integer conversion of a cast whose operand spatch could not type
 * (the "untyped" fact @u): the text decides.  Visibly a pointer (the
 * calling function declares it "T *", or "&x"): int-untyped, a leak,
 * unless it is no kernel address (__user, ERR_PTR(), NULL) or the call
 * runs only for readers who pass a privilege check (px-gated's policy).
 * Declared an integer, or neither half can type it (a function's
 * result, a member of a header's struct: on 6.12, 176 casts of sizes,
 * counters and times whose headers spatch did not read): an integer, as
 * before the fact existed; -vv names each.
 */
static void untyped_cast(struct cocci_result *res, const char *rel, const struct lex_call *c,
			 const struct lex_finding *f, const struct facts *fs,
			 const struct cocci_fact *u, const char *buf, size_t len, int verbose)
{
	const char *why = NULL;

	if (f->cls && !strcmp(f->cls, "int-cast")) {
		why = not_an_address(buf, len, u->what, c->line);
		if (!why && fact_any(fs, c->line, c->column, 'g', -1))
			why = "printed only to readers who pass a privilege check";
		if (!why) {
			char *what = unspace(u->what);
			char *m = xasprintf("pointer cast to an integer prints the raw address: spatch could not type %s, and %s; print the pointer with %%p",
					    what, f->pointer ? f->pointer : "the text shows a pointer");

			add_finding(res, rel, c, f, "int-untyped", m, 0);
			free(m);
			free(what);
			return;
		}
	} else if (!f->cls) {
		why = "nor can the text: taken as an integer";
	} else {
		why = "the text declares it an integer";
	}
	if (verbose)
		fprintf(stderr, "ptrguard: judge: %s:%u: %s of %s: spatch could not type %s: %s\n",
			rel, f->line, f->conversion, f->arg, u->what, why);
}

/*
 * A formatting call into a buffer (snprintf()): its conversions count
 * when spatch shows the buffer reaching seq output (the "buf" fact,
 * which names the writer's line).  A %px is px-buf unless spatch's facts
 * show its value gated or NULL (px-gated) or the text shows it __user.
 * Otherwise, a buffer that leaves the function (judge_away()) gives a
 * note: px-away, or int-away for a pointer cast printed wide; a gated,
 * NULL or __user value none.
 */
static void judge_buf(struct cocci_result *res, const char *rel, const struct lex_call *c,
		      const struct facts *fs, const char *buf, size_t len, int verbose)
{
	const struct cocci_fact *b = fact_any(fs, c->line, c->column, 'b', 0);
	char *away = b ? NULL : judge_away(fs->x, fs->n, c->line, c->column);
	size_t k;

	if (!b && !away)
		return;
	for (k = 0; k < c->nfindings; k++) {
		const struct lex_finding *f = &c->findings[k];
		const char *cls = f->cls;
		char *why = NULL;

		if (cls && !strcmp(cls, "px")) {
			if (px_error_pointer(fs, c, f, rel, verbose))
				continue;
			why = gate_message(fs, c, f->argidx);
		}
		if (why) {
			if (b)
				add_finding(res, rel, c, f, "px-gated", why, 0);
		} else if (cls && !strcmp(cls, "px-user")) {
			if (b)
				add_finding(res, rel, c, f, cls, NULL, 0);
		} else if (cls && !strcmp(cls, "px")) {
			cls = b ? "px-buf" : "px-away";
			why = b ? xasprintf("%s (written at line %s)", message_of(cls), b->what) :
				  xasprintf("%s (%s)", message_of(cls), away);
			add_finding(res, rel, c, f, cls, why, 0);
		} else if (!cls || !strcmp(cls, "int-cast") || !strcmp(cls, "int")) {
			const struct cocci_fact *held;

			cls = held_class(fs, c, f, "int-buf", rel, buf, len, verbose, &held);
			if (cls && b) {
				why = xasprintf("%s (written at line %s)", message_of(cls), b->what);
				add_finding(res, rel, c, f, cls, why, 0);
			} else if (cls) {
				why = xasprintf("%s (%s)", message_of("int-away"), away);
				add_finding(res, rel, c, f, "int-away", why, 0);
			}
		}
		free(why);
	}
	free(away);
}

/*
 * One call: with spatch's facts where a rule parsed it (@px, @cast: the
 * rules examined it), by the text alone otherwise (@lexical).
 */
static void judge_call(struct cocci_result *res, const char *rel, const struct lex_call *c,
		       const struct facts *fs, int in_skip, int lexical, int blind, int verbose,
		       const char *buf, size_t len)
{
	int px = !!fact(fs, c->line, c->column, 0, 'C', 0);
	int cast = !!fact(fs, c->line, c->column, 1, 'C', 0);
	const char *direct = c->io == VOCAB_IO_PUT ? "put-cast" : "int-cast";
	size_t k, found = res->nfindings, unjudged = res->nunjudged;
	int unknown = 0;

	if (c->io == VOCAB_IO_BUF) {
		judge_buf(res, rel, c, fs, buf, len, verbose);
		return;
	}
	if (px)
		add_call(res, rel, c);
	for (k = 0; k < c->nfindings; k++) {
		const struct lex_finding *f = &c->findings[k];
		int integer = !f->cls || !strcmp(f->cls, "int-cast") || !strcmp(f->cls, "int");

		if (!integer) {
			char *why;

			if (px && !strcmp(f->cls, "px") && px_error_pointer(fs, c, f, rel, verbose))
				continue;
			why = px && !strcmp(f->cls, "px") ? gate_message(fs, c, f->argidx) : NULL;
			if (why)
				add_finding(res, rel, c, f, "px-gated", why, 0);
			else if (px || lexical)
				add_finding(res, rel, c, f, f->cls, NULL, !px);
			free(why);
		} else if (cast) {
			/* spatch knows the operand's type: the text's guess does not count */
			int ptr = !!fact(fs, c->line, c->column, 1, 'p', f->argidx);
			const struct cocci_fact *held;
			const char *cls = held_class(fs, c, f, direct, rel, buf, len, verbose, &held);

			const struct cocci_fact *untyped = fact(fs, c->line, c->column, 1, 'u',
								f->argidx);

			if (cls) {
				char *why = held_message(held, cls);

				add_finding(res, rel, c, f, cls, why, 0);
				free(why);
			} else if (untyped && !ptr) {
				/* spatch has no type for the operand: never take that for "an integer" */
				untyped_cast(res, rel, c, f, fs, untyped, buf, len, verbose);
			}
			/* the differential: where both halves read the cast, they agree */
			if (f->cls && ptr != !strcmp(f->cls, "int-cast") && !untyped && verbose)
				fprintf(stderr, "ptrguard: judge: %s:%u: %s of %s: %s\n", rel, f->line,
					f->conversion, f->arg, ptr ?
					"spatch's types show a pointer the text does not" :
					"the text shows a pointer spatch's types do not");
		} else if ((lexical && in_skip) || blind) {
			/*
			 * The cast rule did not see this call: lines spatch
			 * skipped, a call spatch expands as a macro, a file its
			 * prefilter left out.  The text judges.
			 */
			if (f->cls && !strcmp(f->cls, "int-cast")) {
				char *why = xasprintf("%s (lexically: %s)", message_of(direct),
						      f->pointer ? f->pointer : "a pointer");

				add_finding(res, rel, c, f, direct, why, 1);
				free(why);
			} else if (!f->cls && in_skip && !unknown++)
				add_unjudged(res, rel, c,
					     "an integer cast of an operand that may be a pointer");
			else if (!f->cls && verbose)
				/* on 6.12: casts in macro bodies of a macro's parameter */
				fprintf(stderr, "ptrguard: judge: %s:%u: %s of %s: the cast rule did not see this call, and the text cannot type the operand: taken as an integer\n",
					rel, f->line, f->conversion, f->arg);
		}
	}
	/*
	 * Who judged it, each call once: spatch's facts, the text alone
	 * (its findings say so, or it lies in lines spatch skipped), nobody
	 * (not understood: counted there), or nobody needed to (nothing a
	 * rule can report: in a file the prefilter left out, or in a body
	 * the slice blanked, model/lex_slice.c).
	 */
	if (res->nunjudged != unjudged)
		return;
	if (px || cast)
		res->nspatch++;
	else if ((lexical && in_skip) || res->nfindings != found)
		res->nlexical++;
	else
		res->nquiet++;
}

/* The identifier at @line:@col (1-based) of @buf, malloc()ed, or NULL. */
static char *word_at(const char *buf, size_t len, unsigned int line, unsigned int col)
{
	size_t i = 0, e;

	while (--line && i < len) {
		const char *nl = memchr(buf + i, '\n', len - i);

		if (!nl)
			return NULL;
		i = (size_t)(nl - buf) + 1;
	}
	i += col - 1;
	for (e = i; e < len && (isalnum((unsigned char)buf[e]) || buf[e] == '_'); e++)
		;
	return e > i ? xstrndup(buf + i, e - i) : NULL;
}

/*
 * The calls spatch parsed where the lexical model finds none: a function
 * the model knows in this file, called in a way it does not read (a
 * macro that builds the call, say).  Neither half can judge it alone.
 */
static void spatch_only(struct cocci_result *res, const char *rel, const char *buf, size_t len,
			const struct lex_file *lf, const struct lex_vocab *v, const struct facts *fs)
{
	size_t i, k;

	for (i = 0; i < fs->n; i++) {
		const struct cocci_fact *x = &fs->x[i];
		int known = 0;
		char *name;

		if (x->mark != 'C' || x->cast_rule)
			continue;
		for (k = 0; k < lf->ncalls && !known; k++)
			known = lf->calls[k].line == x->line && lf->calls[k].column == x->column;
		/* a wrapper's own body: judged at its callers */
		for (k = 0; k < lf->nbodies && !known; k++)
			known = lf->bodies[k][0] == x->line && lf->bodies[k][1] == x->column;
		if (known)
			continue;
		name = word_at(buf, len, x->line, x->column);
		known = !name;
		for (k = 0; name && k < lf->nwrappers && !known; k++)
			known = !strcmp(lf->wrappers[k], name);
		if (name && (known || lex_vocab_find(v, name, strlen(name)))) {
			struct lex_fn fn = { name, 0, 0, (char *)"", NULL };
			struct lex_call c = { 0 };

			c.line = c.end_line = x->line;
			c.fn = &fn;
			add_unjudged(res, rel, &c, "spatch parsed this call; the lexical model cannot read it");
		}
		free(name);
	}
}

void judge_file(const char *root, const char *rel, int px_ran, int cast_ran, int old,
		int lexical, int casts, int verbose, const struct facts *fs,
		struct cocci_result *res)
{
	char *abs = xasprintf("%s/%s", root, rel), *buf;
	struct lex_vocab v = { 0 };
	struct lex_file lf;
	size_t len, i;

	buf = read_file(abs, SIZE_MAX, &len);
	if (!buf) {
		/* spatch read it a moment ago; it would have said if it could not */
		free(abs);
		return;
	}
	lex_vocab_core(&v);
	lex_vocab_tree(&v, root, rel);
	lex_scan(buf, len, &v, !old, &lf);
	for (i = 0; i < lf.ncalls; i++) {
		const struct lex_call *c = &lf.calls[i];
		int in_skip = cocci_skipped(res, rel, c->line, c->end_line);

		/*
		 * A format neither the rules nor the model can read, of a call
		 * that prints values: not understood, wherever it is (a call
		 * with nothing after its format prints no value; a wrapper's
		 * own body is judged at its callers).
		 */
		if (c->opaque && c->io == VOCAB_IO_BUF)
			continue;	/* a buffer's format in a variable: a limit, not a seq call */
		if (c->opaque) {
			if (lexical && (in_skip || (c->nvalues && !c->body)))
				add_unjudged(res, rel, c, c->opaque);
			else if (!c->body)
				res->nquiet++;	/* it prints no value */
			continue;
		}
		/* where no rule ran, the prefilter found nothing they report */
		/*
		 * blind: the calls the cast rule did not see outside skipped
		 * lines, judged where its facts are (the gate's run of the
		 * cast rule alone too: its run of seq_px.cocci judges the
		 * skipped lines)
		 */
		judge_call(res, rel, c, fs, in_skip, lexical && (px_ran || cast_ran || in_skip),
			   casts && !in_skip, verbose, buf, len);
	}
	if (lexical)
		spatch_only(res, rel, buf, len, &lf, &v, fs);
	/* a comment or literal that never ends: no call after it can be trusted to be found */
	if (lexical && lf.broken && cocci_skipped(res, rel, 1, ~0u)) {
		struct lex_fn fn = { (char *)"(text)", 0, 0, (char *)"", NULL };
		struct lex_call whole = { 0 };

		whole.line = 1;
		whole.end_line = ~0u;
		whole.fn = &fn;
		add_unjudged(res, rel, &whole, "the text does not lex: an unterminated comment or string literal");
	}
	lex_file_free(&lf);
	lex_vocab_free(&v);
	free(buf);
	free(abs);
}

void cocci_file_wrappers(const char *root, char *const *files, size_t nfiles,
			 struct strvec *names)
{
	size_t i, k, j;

	for (i = 0; i < nfiles; i++) {
		char *abs = xasprintf("%s/%s", root, files[i]), *buf;
		struct lex_vocab v = { 0 };
		struct lex_file lf;
		size_t len;

		buf = read_file(abs, SIZE_MAX, &len);
		free(abs);
		if (!buf)
			continue;
		lex_vocab_core(&v);
		lex_vocab_tree(&v, root, files[i]);
		lex_scan(buf, len, &v, 1, &lf);
		for (k = 0; k < lf.nwrappers; k++) {
			for (j = 0; j < names->nr && strcmp(names->v[j], lf.wrappers[k]); j++)
				;
			if (j == names->nr)
				strvec_push(names, xstrdup(lf.wrappers[k]));
		}
		lex_file_free(&lf);
		lex_vocab_free(&v);
		free(buf);
	}
}

static int skip_first_cmp(const void *pa, const void *pb)
{
	const struct cocci_skip *a = pa, *b = pb;

	return a->first < b->first ? -1 : a->first > b->first;
}

char *cocci_skip_text(const struct cocci_result *res, const char *file, unsigned int *count)
{
	struct cocci_skip *v = NULL;
	char *text = NULL;
	size_t len = 0, i, n = 0, m = 0, alloc = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		die("out of memory");
	*count = 0;
	/*
	 * The file's regions, in order, overlapping ones merged: the gate
	 * gathers them from several runs (two rules, two parses of a file).
	 */
	for (i = 0; i < res->nskips; i++)
		if (!strcmp(res->skips[i].file, file)) {
			GROW(v, n, alloc);
			v[n++] = res->skips[i];
		}
	if (n)
		qsort(v, n, sizeof(*v), skip_first_cmp);
	for (i = 0; i < n; i++) {
		/* "to the end" (~0u) takes in every region after it */
		if (m && (v[m - 1].last == ~0u || v[i].first <= v[m - 1].last + 1)) {
			if (v[i].last > v[m - 1].last)
				v[m - 1].last = v[i].last;
			continue;
		}
		v[m++] = v[i];
	}
	for (i = 0; i < m; i++) {
		const struct cocci_skip *s = &v[i];

		fprintf(out, "%s%u", *count ? ", " : "", s->first);
		if (s->last == ~0u)
			fputs("-end", out);
		else if (s->last != s->first)
			fprintf(out, "-%u", s->last);
		*count += s->last == ~0u ? 1 : s->last - s->first + 1;
	}
	free(v);
	fclose(out);
	if (!*count) {
		free(text);
		return NULL;
	}
	return text;
}
