// A rule spatch cannot parse: the metavariable declaration lacks its ';'.
virtual ptrguard

@r@
expression e
@@
seq_printf(e, ...)
