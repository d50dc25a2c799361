/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM seq_ptr_guard

#if !defined(_TRACE_SEQ_PTR_GUARD_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_SEQ_PTR_GUARD_H

#include <linux/sched.h>
#include <linux/seq_ptr_guard.h>
#include <linux/tracepoint.h>

TRACE_DEFINE_ENUM(SEQ_PTR_INT);
TRACE_DEFINE_ENUM(SEQ_PTR_RAW);
TRACE_DEFINE_ENUM(SEQ_PTR_HASHED);
TRACE_DEFINE_ENUM(SEQ_PTR_RESTRICTED);
TRACE_DEFINE_ENUM(SEQ_PTR_SYMBOL);
TRACE_DEFINE_ENUM(SEQ_PTR_VA);
TRACE_DEFINE_ENUM(SEQ_PTR_SHOW);
TRACE_DEFINE_ENUM(SEQ_PTR_CENSOR);
TRACE_DEFINE_ENUM(SEQ_PTR_REFUSE);

#define show_seq_ptr_kind(kind)						\
	__print_symbolic(kind,						\
			 { SEQ_PTR_INT,		"int" },		\
			 { SEQ_PTR_RAW,		"raw" },		\
			 { SEQ_PTR_HASHED,	"hashed" },		\
			 { SEQ_PTR_RESTRICTED,	"restricted" },		\
			 { SEQ_PTR_SYMBOL,	"symbol" },		\
			 { SEQ_PTR_VA,		"va" })

/*
 * seq_ptr_guard_leak - seq output was about to print a kernel address
 *
 * Every time, where the log has one line per call site: for perf and BPF
 * to watch censoring and refusals as they happen.  The value is not recorded.
 */
TRACE_EVENT(seq_ptr_guard_leak,
	    TP_PROTO(const void *show, const struct seq_ptr_leak *leak,
		     int action),
	    TP_ARGS(show, leak, action),
	    TP_STRUCT__entry(__field(const void *, show)
			     __field(int, kind)
			     __field(unsigned int, depth)
			     __field(int, action)
			     __array(char, conv, 16)
			     __array(char, comm, TASK_COMM_LEN)),
	    TP_fast_assign(__entry->show = show;
			   __entry->kind = leak->kind;
			   __entry->depth = leak->depth;
			   __entry->action = action;
			   strscpy(__entry->conv, leak->conv,
				   min_t(size_t, leak->conv_len + 1,
					 sizeof(__entry->conv)));
			   memcpy(__entry->comm, current->comm, TASK_COMM_LEN);),
	    TP_printk("show=%ps conv=\"%s\" kind=%s depth=%u comm=%s action=%s",
		      __entry->show, __entry->conv,
		      show_seq_ptr_kind(__entry->kind), __entry->depth,
		      __entry->comm,
		      __print_symbolic(__entry->action,
				       { SEQ_PTR_SHOW,		"shown" },
				       { SEQ_PTR_CENSOR,	"censored" },
				       { SEQ_PTR_REFUSE,	"refused" }))
);

#endif /* _TRACE_SEQ_PTR_GUARD_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
