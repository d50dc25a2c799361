// A rule that kills spatch with SIGSEGV on the first seq_printf call, so
// that ptrguard audit meets a crashing spatch.
// Options: --no-includes --include-headers
virtual ptrguard

@r@
position p;
@@
seq_printf@p(...)

@script:python@
p << r.p;
@@
import os
import signal
os.kill(os.getpid(), signal.SIGSEGV)
