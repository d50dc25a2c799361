/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptrguard-macros.h: kernel macros that spatch 1.1.1 cannot parse on its
 * own.  ptrguard gives this file to spatch with --macro-file (which adds
 * to spatch's builtin standard.h; --macro-file-builtins would replace it),
 * for both rules; with make coccicheck, pass it the same way:
 *
 *	make coccicheck SPFLAGS="--macro-file $PWD/cocci/ptrguard-macros.h" ...
 *
 * How spatch uses such a file (parsing_c/parse_c.ml of 1.1.1): the first
 * parse of a top-level item uses only the builtin standard.h; when that
 * fails, spatch parses the item again and expands the macros of this file
 * whose names occur in the lines it could not parse (upper-case names
 * first).  So a macro here
 *
 *  - only changes how spatch reads lines it could not parse without it:
 *    the findings of both rules on Linux 6.12 are the same with and
 *    without this file, and no seq call examined without it is lost;
 *  - cannot override standard.h: a name defined there (DEFINE_PER_CPU,
 *    DECLARE_BITMAP, ...) keeps its builtin meaning;
 *  - cannot repair a wrong parse that raises no error: after
 *    "} tracefs_ops __ro_after_init;" spatch takes tracefs_ops for a
 *    type, and the macro for __ro_after_init below is never expanded
 *    there.
 *
 * Every macro below removes skipped lines from real files.  The figures
 * are the lines spatch no longer skips, each group measured alone, in
 * the 1,257 files of Linux 6.12 that name a seq printf, parsed as
 * seq_px.cocci parses them (--no-includes), or in the headers that
 * seq_int_cast.cocci reads; bench/skipped.sh measures the whole file,
 * per rule.  The bodies are minimal stand-ins of our own, not the
 * kernel's: they only have to parse where the kernel uses the macro.
 */

/*
 * include/linux/cleanup.h and friends: scoped_guard(lock, &l) { ... }
 * runs its block (or one statement) with the lock held.  standard.h does
 * not know these statement macros, and a for_each-like name is the only
 * way spatch guesses one, so every function that takes a scoped guard is
 * skipped whole (all 25 of the files that use scoped_guard; 4,292 lines
 * with scoped_cond_guard).  YACFE_ITERATOR, spatch's hint for iterators,
 * makes each one like list_for_each_entry(): the block is parsed and
 * matched as written.
 */
#define scoped_guard(_name, args...) YACFE_ITERATOR
#define scoped_cond_guard(_name, _fail, args...) YACFE_ITERATOR
/* include/linux/seqlock.h (fs/proc/array.c, 205 lines) */
#define scoped_seqlock_read(_seqlock, _target) YACFE_ITERATOR
/* include/linux/iio/iio.h (43 lines) */
#define iio_device_claim_direct_scoped(_fail, _iio_dev) YACFE_ITERATOR

/*
 * Other statement macros that open a block: drm_exec's retry loop
 * (include/drm/drm_exec.h, 605 lines) and i915's wakeref and power
 * sequencer sections (147 and 241 lines).
 */
#define drm_exec_until_all_locked(_exec) YACFE_ITERATOR
#define with_intel_runtime_pm(_rpm, _wf) YACFE_ITERATOR
#define with_intel_pps_lock(_dp, _wf) YACFE_ITERATOR

/*
 * include/linux/mm.h: the VMA iterators are a bare while (...), and some
 * callers use them as the tail of a do-while loop:
 *	do { ... } for_each_vma(vmi, vma);
 * which no iterator can parse (fs/userfaultfd.c, fs/proc/task_mmu.c:
 * 424 lines).  Expanded to a plain while, both uses parse.
 */
#define for_each_vma(_vmi, _vma) while (1)
#define for_each_vma_range(_vmi, _vma, _end) while (1)

/*
 * kfree after a __free(kfree) declaration.  spatch misreads
 *	struct foo *p __free(kfree) = NULL;
 * (it sees a declarator __free(kfree) whose parameter has the type
 * "kfree") and from there on takes kfree for a type name: each later
 * kfree(x->y) is a parse error that skips its whole function
 * (1,382 lines in 9 files; kernel/trace/trace_events_hist.c: 436 of its
 * 497).
 * Naming kfree here lets spatch turn it back into a function name where
 * a parse fails.  (A macro for __free itself cannot help: the
 * declaration raises no error, so spatch never expands it.)
 */
#define kfree(_p) kfree(_p)

/*
 * Type macros used as declaration specifiers, unknown to spatch: the
 * declaration, and the function around it, are skipped.  Each expands
 * to a type of the same kind (the members do not matter to the rules).
 */
/* fs/bcachefs/darray.h (147 lines) */
#define DARRAY(_type) struct { _type *data; size_t nr, size; }
/* include/linux/generic-radix-tree.h (fs/proc/base.c, 93 lines) */
#define GENRADIX(_type) struct { _type *p; }
/* include/linux/container_of.h (fs/proc/inode.c, 62 lines) */
#define typeof_member(_T, _m) typeof(((_T *)0)->_m)
/* include/net/ip_tunnels.h, a bitmap with an initialiser (102 lines) */
#define IP_TUNNEL_DECLARE_FLAGS(_name) unsigned long _name[1]

/*
 * Macros that define a function or an object.  DEF_SCSI_QCMD takes no
 * semicolon, so the next function is glued to it:
 *	static DEF_SCSI_QCMD(ips_queue)
 * include/scsi/scsi_host.h, in 15 SCSI drivers (2,204 lines; the cast
 * rule reads drivers/scsi/ips.c).  Expanded to a prototype.
 */
#define DEF_SCSI_QCMD(_func) int _func(struct Scsi_Host *shost, struct scsi_cmnd *cmd);
/* kernel/sched/sched.h: DEFINE_SCHED_CLASS(ext) = { ... } (50 lines) */
#define DEFINE_SCHED_CLASS(_name) const struct sched_class _name ## _sched_class
/*
 * BPF helpers and compat system calls, written like SYSCALL_DEFINEn()
 * (which standard.h has) with types and names as separate arguments:
 *	BPF_CALL_4(bpf_btf_find_by_name_kind, char *, name, int, name_sz, ...)
 * spatch takes each for an old-style definition without parameter types
 * ("semantic error") and skips it (include/linux/filter.h, compat.h;
 * 455 lines in 10 files, kernel/bpf/ and net/core/ mostly).  The arities
 * that occur in those files only.
 */
#define BPF_CALL_1(_name, _t1, _a1) u64 _name(_t1 _a1)
#define BPF_CALL_2(_name, _t1, _a1, _t2, _a2) u64 _name(_t1 _a1, _t2 _a2)
#define BPF_CALL_3(_name, _t1, _a1, _t2, _a2, _t3, _a3) \
	u64 _name(_t1 _a1, _t2 _a2, _t3 _a3)
#define BPF_CALL_4(_name, _t1, _a1, _t2, _a2, _t3, _a3, _t4, _a4) \
	u64 _name(_t1 _a1, _t2 _a2, _t3 _a3, _t4 _a4)
#define BPF_CALL_5(_name, _t1, _a1, _t2, _a2, _t3, _a3, _t4, _a4, _t5, _a5) \
	u64 _name(_t1 _a1, _t2 _a2, _t3 _a3, _t4 _a4, _t5 _a5)
#define COMPAT_SYSCALL_DEFINE3(_name, _t1, _a1, _t2, _a2, _t3, _a3) \
	long compat_sys_ ## _name(_t1 _a1, _t2 _a2, _t3 _a3)
#define COMPAT_SYSCALL_DEFINE4(_name, _t1, _a1, _t2, _a2, _t3, _a3, _t4, _a4) \
	long compat_sys_ ## _name(_t1 _a1, _t2 _a2, _t3 _a3, _t4 _a4)
#define COMPAT_SYSCALL_DEFINE5(_name, _t1, _a1, _t2, _a2, _t3, _a3, _t4, _a4, _t5, _a5) \
	long compat_sys_ ## _name(_t1 _a1, _t2 _a2, _t3 _a3, _t4 _a4, _t5 _a5)
#define COMPAT_SYSCALL_DEFINE6(_name, _t1, _a1, _t2, _a2, _t3, _a3, _t4, _a4, _t5, _a5, _t6, _a6) \
	long compat_sys_ ## _name(_t1 _a1, _t2 _a2, _t3 _a3, _t4 _a4, _t5 _a5, _t6 _a6)

/*
 * Attributes with arguments after a declarator, which standard.h lacks
 * (include/linux/compiler_attributes.h, compiler_types.h, slab.h):
 *	struct pxad_desc_hw *hw_desc[] __counted_by(nb_desc);
 *	void *krealloc_noprof(...) __realloc_size(2);
 * __counted_by alone makes spatch skip 698 lines of
 * include/linux/netdevice.h (struct net_device) when the cast rule reads
 * the headers for types, and 33 lines in .c files; __alloc_size and
 * __realloc_size skip prototypes in slab.h, vmalloc.h, string.h, percpu.h
 * and gfp.h (about 300 lines read by the cast rule) and __do_krealloc()
 * in mm/slab_common.c (38 lines).
 */
#define __counted_by(_member)
#define __alloc_size(_args...)
#define __realloc_size(_args...)

/*
 * Attributes without arguments that standard.h lacks (compiler_types.h,
 * cache.h, net_namespace.h, kprobes.h).  Where one makes a parse fail,
 * the function or declaration is skipped: 34, 33, 26, 29 and 92 lines.
 */
#define __nonstring
#define __ro_after_init
#define __net_initconst
#define noinstr
#define nokprobe_inline inline

/*
 * include/acpi/acexcep.h: ACPI_FAILURE(s) brings its own parentheses,
 * and drivers/platform/x86/thinkpad_acpi.c writes "if ACPI_FAILURE(...)"
 * (183 lines).
 */
#define ACPI_FAILURE(_status) (_status)
