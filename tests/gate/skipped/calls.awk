# SPDX-License-Identifier: GPL-2.0
# calls.awk: the seq-output call statements of a C file, read from its text
# with a small lexer of its own (comments, literals, preprocessor lines,
# braces), for tests/gate/skipped/gen.sh and bench/gate-judge.sh.
#
#   awk -f calls.awk FILE.c
#
# Prints, tab-separated:
#   call START END DEPTH INFUNC OK F M FUNC
#     a call of seq_printf, seq_buf_printf or trace_seq_printf: its first
#     and last line, the brace depth at its name, 1 when that is inside a
#     function body, F and its first argument M (tokens as written, one
#     blank only between two words), the function around it.  OK is 1
#     when the call is a statement of its own, the one thing on its lines,
#     after which a statement can be inserted: it begins its line, comes
#     after ";", "{", "}", ")" (the body of an if, a for or an iterator
#     macro: the new line comes after that statement), ":" or "else", ends
#     with ";" as the last token of its last line (no comment left open),
#     no "else" nor "while" follows, and no preprocessor line lies inside
#     it.
#   func OPEN CLOSE NAME TYPE PARAM
#     a function body: the lines of its "{" and "}"; TYPE and PARAM name
#     its first parameter of type struct seq_file *, struct seq_buf * or
#     struct trace_seq * ("-" "-": none).
#   gap LINE DEPTH INFUNC
#     a line can be inserted after LINE as a statement (at brace depth
#     DEPTH > 0) or a declaration (DEPTH 0): the last token before is ";",
#     "{" or "}", outside any parentheses, the next is none of "else",
#     "while", ";", ",", ")", and no comment, literal or preprocessor line
#     is left open at the end of LINE.
#   incl LINE
#     the last #include outside any #if before the first function body
#     (0: none).
BEGIN {
	seqf["seq_printf"]; seqf["seq_buf_printf"]; seqf["trace_seq_printf"]
	seqtypes["seq_file"]; seqtypes["seq_buf"]; seqtypes["trace_seq"]
	depth = 0; ifdepth = 0; state = 0; prev = ""; incl = 0; seenfunc = 0
}
function word(c) { return c ~ /[A-Za-z0-9_]/ }
function out_call(ok) {
	printf "call\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", cstart, cend, cdepth, cinfunc, ok, cf, cm, cfunc
}
# one token t (kind: w word or number, p punctuation, s literal) on line ln
function tok(t, kind, ln,   b) {
	if (pdepth == 0 && (prev == ";" || prev == "{" || prev == "}" || prev == "") &&
	    t != "else" && t != "while" && t != ";" && t != "," && t != ")")
		for (b = prevline; b < ln; b++)
			if (!(b in unsafe))
				printf "gap\t%d\t%d\t%d\n", b, depth, depth ? infunc : 0
	if (t == "(") pdepth++
	else if (t == ")" && pdepth > 0) pdepth--
	if (state == 4) {
		# the token after the call's ";"
		out_call(cok && t != "else" && t != "while" && ln != cend && !copen)
		state = 0
	}
	if (state == 1) {
		if (t == "(") {
			state = 2; pd = 1; cm = ""; argi = 1
			prev = t; prevline = ln
			return
		}
		state = 0
	} else if (state == 2) {
		if (t == "(") pd++
		else if (t == ")") pd--
		if (pd == 0) {
			state = 3
		} else if (t == "," && pd == 1) {
			argi++
		} else if (argi == 1) {
			if (cm != "" && word(substr(cm, length(cm))) && word(substr(t, 1, 1)))
				cm = cm " "
			cm = cm t
		}
		prev = t; prevline = ln
		return
	} else if (state == 3) {
		if (t == ";") {
			cend = ln; state = 4
			if (ppcount != spp) cok = 0
			prev = t; prevline = ln
			return
		}
		cend = ln
		out_call(0)
		state = 0
	}
	if (kind == "w" && (t in seqf)) {
		state = 1; cstart = ln; cf = t; cdepth = depth; cinfunc = infunc
		cfunc = depth ? curfunc : ""
		cok = (prevline != ln) && (prev == ";" || prev == "{" || prev == "}" ||
			prev == ")" || prev == ":" || prev == "else")
		spp = ppcount
	}
	if (depth == 0) {
		if (t == "(" && prev != "" && word(substr(prev, 1, 1)) && declname == "")
			declname = prev
		if (t == ";" || t == "}")
			declname = seqtype = seqparam = ""
		# "struct seq_file * NAME" in the head
		if (kind == "w" && p3 == "struct" && p2 in seqtypes && p1 == "*" && seqtype == "") {
			seqtype = p2
			seqparam = t
		}
		p3 = p2; p2 = p1; p1 = t
	}
	if (t == "{") {
		if (depth == 0) {
			infunc = (prev == ")")
			if (infunc) {
				curfunc = declname; fopen = ln
				ftype = seqtype == "" ? "-" : seqtype
				fparam = seqparam == "" ? "-" : seqparam
				if (!seenfunc) { seenfunc = 1; firstincl = incl }
			}
		}
		depth++
	} else if (t == "}") {
		if (depth > 0) depth--
		if (depth == 0) {
			if (infunc)
				printf "func\t%d\t%d\t%s\t%s\t%s\n", fopen, ln, curfunc, ftype, fparam
			infunc = 0; curfunc = ""; declname = seqtype = seqparam = ""
		}
	}
	prev = t; prevline = ln
}
{
	L = $0
	n = length(L)
	i = 1
	if (!incomment && !indirective && L ~ /^[ \t]*#/) {
		indirective = 1
		ppcount++
		d = L
		sub(/^[ \t]*#[ \t]*/, "", d)
		if (d ~ /^if/) ifdepth++
		else if (d ~ /^endif/) ifdepth--
		else if (d ~ /^include[ \t<"]/ && ifdepth == 0 && !seenfunc) incl = NR
	}
	while (i <= n) {
		c = substr(L, i, 1)
		if (incomment) {
			if (c == "*" && substr(L, i + 1, 1) == "/") { incomment = 0; i += 2 }
			else i++
			continue
		}
		if (c == "/" && substr(L, i + 1, 1) == "*") { incomment = 1; i += 2; continue }
		if (c == "/" && substr(L, i + 1, 1) == "/") break
		if (c == "\"" || c == "'") {
			j = i + 1
			while (j <= n && substr(L, j, 1) != c) {
				if (substr(L, j, 1) == "\\") j++
				j++
			}
			if (!indirective) tok(substr(L, i, j - i + 1), "s", NR)
			i = j + 1
			continue
		}
		if (c ~ /[ \t\r\f\v]/) { i++; continue }
		if (word(c)) {
			j = i
			while (j <= n && word(substr(L, j, 1))) j++
			if (!indirective) tok(substr(L, i, j - i), "w", NR)
			i = j
			continue
		}
		if (!indirective) tok(c, "p", NR)
		i++
	}
	if (indirective && L ~ /\\$/)
		unsafe[NR]
	else
		indirective = 0
	if (incomment)
		unsafe[NR]
	if (state == 4) copen = incomment
	if (state >= 1 && state <= 3 && ppcount != spp) cok = 0
}
END {
	if (state == 4) out_call(cok && !copen)
	printf "incl\t%d\n", seenfunc ? firstincl : incl
}
