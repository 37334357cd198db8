/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teeprobe.h - declarations shared between the parts of teeprobe.ko.
 */
#ifndef TEEPROBE_H
#define TEEPROBE_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

#include "abi.h"

#define TEEPROBE_VERSION "0.1.0"

/*
 * teeprobe_now_ns - the clock every part of teeprobe stamps with: the
 * monotonic clock, read by ktime_get_mono_fast_ns(), which is NMI-safe. A
 * kprobe that cannot go through ftrace (a notrace function, any kprobe on
 * arm64 6.1, or an int3 still in place while ftrace patches the site) runs
 * its handlers from the int3/BRK trap, which x86 enters as an NMI; there
 * ktime_get_ns() takes the timekeeping seqcount, which lockdep reports and
 * which spins forever if the trap interrupted its writer. The fast clock
 * may step back a few ns across an NTP update, so take differences with
 * teeprobe_ns_delta().
 */
static inline u64 teeprobe_now_ns(void)
{
	return ktime_get_mono_fast_ns();
}

/* teeprobe_ns_delta - @to - @from, or 0 if the clock stepped back */
static inline u64 teeprobe_ns_delta(u64 from, u64 to)
{
	return to > from ? to - from : 0;
}

/* window.c: incremented on every counter reset (the teeprobe_reset event) */
extern atomic_t teeprobe_reset_generation;
/* main.c: a random number drawn at load: which load of the module it is */
extern u64 teeprobe_load_id;

/* window.c: the window_ms parameter in ns */
extern u64 teeprobe_window_ns;

/* teeprobe_window_len_ns - the current window length (an inline read) */
static inline u64 teeprobe_window_len_ns(void)
{
	return READ_ONCE(teeprobe_window_ns);
}

struct seq_file;
struct teeprobe_window;

/*
 * A debugfs file of a part, @id of abi.h's TEEPROBE_FILES (0400): its
 * table by @show; then the lines the other parts add to it (their notes),
 * then "# window_ms" when @window_ms
 */
struct teeprobe_file {
	enum teeprobe_file_id id;
	void (*show)(struct seq_file *m);
	bool window_ms;
};

/*
 * window.c: what a part of the module shares with the others. Every
 * callback is optional.
 */
struct teeprobe_part {
	const char *name;
	/* @cpu's open window (the work reads it for a hint) */
	struct teeprobe_window *(*window_of)(int cpu);
	/*
	 * on this CPU, interrupts off: close and emit its window if it ended
	 * with windows of @len ns; @len 0 closes any open window (unload)
	 */
	void (*flush)(u64 len);
	/* the part's own periodic pass, from the window work, after flushes */
	void (*tick)(u64 now);
	/* zero @cpu's totals: on @cpu by IPI when online, else directly */
	void (*reset_cpu)(int cpu);
	/* zero what is not per CPU, after every CPU's reset_cpu */
	void (*reset)(void);
	struct teeprobe_file *files;	/* debugfs */
	unsigned int nr_files;
	/* lines it adds to other parts' files (by id) */
	struct teeprobe_file *notes;
	unsigned int nr_notes;
	struct list_head node;		/* window.c's list of parts */
};

int teeprobe_window_init(void);
void teeprobe_window_exit(void);
void teeprobe_part_register(struct teeprobe_part *part);
void teeprobe_part_unregister(struct teeprobe_part *part);
int teeprobe_parts_each_file(int (*fn)(struct teeprobe_file *file, void *arg),
			     void *arg);
void teeprobe_parts_show_notes(struct seq_file *m, enum teeprobe_file_id id);
void teeprobe_reset_all(void);

struct tracepoint;

/* stats.c: per-CPU memory, counted (debugfs "memory") */
void __percpu *teeprobe_alloc_percpu(size_t size, size_t align);
void teeprobe_free_percpu(void __percpu *p, size_t size);
void teeprobe_free_percpu_n(void __percpu **blocks, unsigned int n,
			    size_t size);
void teeprobe_show_memory(struct seq_file *m);

/* stats.c: "# key value" lines, and the *_hist files' lines */
void teeprobe_seq_key_u64(struct seq_file *m, enum teeprobe_key key, u64 v);
void teeprobe_seq_key_str(struct seq_file *m, enum teeprobe_key key,
			  const char *v);
void teeprobe_seq_enomem(struct seq_file *m);
void teeprobe_seq_hist_header(struct seq_file *m, const char *keys);
void teeprobe_seq_hist_rows(struct seq_file *m, const char *label,
			    const void __percpu *base, size_t offset);
void teeprobe_seq_hist_trailer(struct seq_file *m);
void teeprobe_seq_comm(struct seq_file *m, const char *comm);

/* hooks.c: probes on the kernel's own tracepoints, found by name */
struct teeprobe_hook {
	const char *name;	/* the tracepoint, e.g. "softirq_raise" */
	void *probe;		/* its probe function */
	void *data;		/* passed to the probe */
	struct tracepoint *tp;	/* found at attach time */
	int error;		/* 0 once attached */
};
struct tracepoint *teeprobe_find_tracepoint(const char *name);
int teeprobe_hooks_attach(const char *part, struct teeprobe_hook *hooks,
			  unsigned int n);
void teeprobe_hooks_detach(struct teeprobe_hook *hooks, unsigned int n);
void teeprobe_hooks_show(struct seq_file *m);

/* events.c: a teeprobe event is enabled, or its last user is gone */
int teeprobe_event_reg(void);
void teeprobe_event_unreg(void);

/* tee.c: the TEE driver's ioctl path */
#define TEEPROBE_MAX_PIDS	8
int teeprobe_tee_init(void);
void teeprobe_tee_exit(void);
#if IS_ENABLED(CONFIG_KUNIT)
/* static without KUnit (VISIBLE_IF_KUNIT): module/tests/tee_kunit.c */
bool teeprobe_symbol_list_valid(const char *s, unsigned int max_items);
#endif

/* tee_calls.c: the pid filter, and the TEE clock of this CPU */
void teeprobe_tee_set_pids(const pid_t *pids, unsigned int n);
int teeprobe_tee_parse_pids(char *buf, pid_t *pids, unsigned int *n);
void teeprobe_tee_show_pids(struct seq_file *m);

/*
 * A CPU's TEE clock: the time threads inside followed TEE calls ran on it.
 * Updated by tee_calls.c's probes, read by netrx.c's at every NET_RX raise
 * and run: inline, the read is two loads.
 */
struct teeprobe_tee_clock {
	u64 total_ns;	/* closed stretches */
	u64 since_ns;	/* a thread in a TEE call runs here since; 0 if none */
};
DECLARE_PER_CPU(struct teeprobe_tee_clock, teeprobe_tee_clock);

/*
 * teeprobe_tee_clock_ns - this CPU's TEE clock at @now. Interrupts off;
 * only differences of two readings on one CPU mean anything.
 */
static inline u64 teeprobe_tee_clock_ns(u64 now)
{
	const struct teeprobe_tee_clock *c = this_cpu_ptr(&teeprobe_tee_clock);
	u64 ns = c->total_ns;

	lockdep_assert_irqs_disabled();
	/* a branch, not a select: mostly no TEE call runs (issue 54) */
	if (unlikely(c->since_ns) && now > c->since_ns)
		ns += now - c->since_ns;
	return ns;
}

/* netrx.c: NET_RX softirq processing */
int teeprobe_netrx_init(void);
void teeprobe_netrx_exit(void);
u64 teeprobe_netrx_packet_wait_ns(u64 now, unsigned int napi_id);

/* tcp.c: TCP handshake phases (tcp_part.h: its files) */
int teeprobe_tcp_init(void);
void teeprobe_tcp_exit(void);

/* acceptors.c: the threads that accept connections */
struct task_struct;
int teeprobe_acceptors_init(void);
void teeprobe_acceptors_exit(void);
void teeprobe_acceptor_mark(struct task_struct *task);

/* debugfs.c: the directory and its files, made last */
int teeprobe_debugfs_init(void);
void teeprobe_debugfs_exit(void);

/*
 * fault.c: teeprobe's own fault injection points (the percpu allocator
 * and registrations, which the kernel's failslab does not reach), with
 * CONFIG_FAULT_INJECTION only
 */
#ifdef CONFIG_FAULT_INJECTION
bool teeprobe_should_fail(const char *what);
int teeprobe_fault_init(void);
void teeprobe_fault_exit(void);
#else
static inline bool teeprobe_should_fail(const char *what)
{
	return false;
}

static inline int teeprobe_fault_init(void)
{
	return 0;
}

static inline void teeprobe_fault_exit(void)
{
}
#endif

#endif /* TEEPROBE_H */
