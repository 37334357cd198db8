/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teeprobe.h - declarations shared between the parts of teeprobe.ko.
 */
#ifndef TEEPROBE_H
#define TEEPROBE_H

#include <linux/atomic.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/types.h>

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

/* Incremented on every counter reset; carried by the teeprobe_reset event. */
extern atomic_t teeprobe_reset_generation;
/* A random number drawn at load: which load of the module the counters are */
extern u64 teeprobe_load_id;

void teeprobe_reset_all(void);

/* main.c: the window_ms parameter in ns */
extern u64 teeprobe_window_ns;

/* teeprobe_window_len_ns - the current window length (an inline read) */
static inline u64 teeprobe_window_len_ns(void)
{
	return READ_ONCE(teeprobe_window_ns);
}

struct teeprobe_window;
unsigned long teeprobe_windows_flush_quiet(struct teeprobe_window *(*window_of)(int cpu),
					   smp_call_func_t flush);
void teeprobe_reset_each_cpu(smp_call_func_t reset);

/* teeprobe_cpu_of - the CPU a teeprobe_reset_each_cpu() callback resets */
static inline int teeprobe_cpu_of(void *info)
{
	return (long)info;
}

struct seq_file;
struct tracepoint;

/* main.c: per-CPU memory, counted (debugfs "memory") */
void __percpu *teeprobe_alloc_percpu(size_t size, size_t align);
void teeprobe_free_percpu(void __percpu *p, size_t size);
int teeprobe_alloc_percpu_n(void __percpu **blocks, unsigned int n,
			    size_t size, size_t align);
void teeprobe_free_percpu_n(void __percpu **blocks, unsigned int n,
			    size_t size);
void teeprobe_show_memory(struct seq_file *m);

/* main.c: the *_hist files' lines */
void teeprobe_seq_hist_header(struct seq_file *m, const char *columns);
void teeprobe_seq_hist_rows(struct seq_file *m, const char *label,
			    const void __percpu *base, size_t offset);
void teeprobe_seq_hist_trailer(struct seq_file *m);

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

/* tee.c: the TEE driver's ioctl path */
#define TEEPROBE_MAX_PIDS	8
int teeprobe_tee_init(void);
void teeprobe_tee_exit(void);
void teeprobe_tee_reset(void);
void teeprobe_tee_set_pids(const pid_t *pids, unsigned int n);
void teeprobe_tee_show_pids(struct seq_file *m);
void teeprobe_tee_show_probes(struct seq_file *m);
void teeprobe_tee_show_stats(struct seq_file *m);
void teeprobe_tee_show_hist(struct seq_file *m);
void teeprobe_tee_show_threads(struct seq_file *m);
u64 teeprobe_tee_clock_ns(u64 now);

/* softirq.c: NET_RX softirq processing */
int teeprobe_softirq_init(void);
void teeprobe_softirq_exit(void);
void teeprobe_softirq_reset(void);
void teeprobe_softirq_show_stats(struct seq_file *m);
void teeprobe_softirq_show_hist(struct seq_file *m);
u64 teeprobe_netrx_packet_wait_ns(u64 now, unsigned int napi_id);

/* tcp.c: TCP handshake phases */
int teeprobe_tcp_init(void);
void teeprobe_tcp_exit(void);
void teeprobe_tcp_reset(void);
void teeprobe_tcp_show_probes(struct seq_file *m);
void teeprobe_tcp_show_stats(struct seq_file *m);
void teeprobe_tcp_show_phases(struct seq_file *m);
void teeprobe_tcp_show_hist(struct seq_file *m);

/* acceptors.c: the threads that accept connections */
struct task_struct;
int teeprobe_acceptors_init(void);
void teeprobe_acceptors_exit(void);
void teeprobe_acceptors_reset(void);
void teeprobe_acceptor_mark(struct task_struct *task);
void teeprobe_acceptors_show(struct seq_file *m);

int teeprobe_debugfs_init(void);
void teeprobe_seq_comm(struct seq_file *m, const char *comm);
void teeprobe_debugfs_exit(void);

#endif /* TEEPROBE_H */
