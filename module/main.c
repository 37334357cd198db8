// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - teeprobe.ko: measure the chain TEE ioctl blocking -> NET_RX
 * softirq starvation -> slow TCP handshakes.
 *
 * This file owns module load and unload; each part of the module has a
 * teeprobe_<part>_init()/_exit() pair called from here in order, and undone
 * in reverse order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/atomic.h>
#include <linux/time64.h>
#include <linux/cpu.h>
#include <linux/jiffies.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#define CREATE_TRACE_POINTS
#include "trace.h"

#include "hist.h"
#include "teeprobe.h"
#include "window.h"

atomic_t teeprobe_reset_generation = ATOMIC_INIT(0);

/*
 * Tells this load of the module from any other (debugfs "generation"):
 * counters read before and after a reload do not subtract, even when the
 * later ones happen to be larger.
 */
u64 teeprobe_load_id;

/*
 * teeprobe_event_reg - one of teeprobe's trace events is enabled (its
 * tracepoint gets its first probe): the module stays until it is disabled
 */
int teeprobe_event_reg(void)
{
	return try_module_get(THIS_MODULE) ? 0 : -ENODEV;
}

/* teeprobe_event_unreg - the event's last probe is gone */
void teeprobe_event_unreg(void)
{
	module_put(THIS_MODULE);
}

#define TP_WINDOW_MS_MIN	10
#define TP_WINDOW_MS_MAX	60000

/*
 * The window_ms parameter's one value, kept in ns: every probe that counts
 * in a window reads it.
 */
u64 teeprobe_window_ns = 100 * NSEC_PER_MSEC;

/* param_set_window_ms - a window length from 10 ms to 60 s */
static int param_set_window_ms(const char *val, const struct kernel_param *kp)
{
	unsigned int value;

	if (kstrtouint(val, 10, &value) || value < TP_WINDOW_MS_MIN ||
	    value > TP_WINDOW_MS_MAX) {
		/* a script writing in a loop must not flood the log */
		pr_err_ratelimited("window_ms: must be a number from %u to %u\n",
				   TP_WINDOW_MS_MIN, TP_WINDOW_MS_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(teeprobe_window_ns, (u64)value * NSEC_PER_MSEC);
	return 0;
}

/* param_get_window_ms - the window length in ms */
static int param_get_window_ms(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%llu\n",
			 div_u64(READ_ONCE(teeprobe_window_ns), NSEC_PER_MSEC));
}

static const struct kernel_param_ops window_ms_ops = {
	.set = param_set_window_ms,
	.get = param_get_window_ms,
};
module_param_cb(window_ms, &window_ms_ops, NULL, 0644);
__MODULE_PARM_TYPE(window_ms, "uint");
MODULE_PARM_DESC(window_ms, "length of the summary windows in ms, 10 to 60000 (default 100); writable at run time");

/*
 * teeprobe_windows_flush_quiet - the periodic flush of a part's windows. A
 * window is closed by the first event after it, so a CPU that went quiet
 * would keep its last window open: every online CPU whose window
 * (@window_of) ended is asked to close it itself by running @flush (an IPI,
 * so the close never races with its probes). Busy CPUs have rolled on their
 * own by then and get no IPI. Returns the delay in jiffies to just after the
 * next boundary, an eighth of a window late, for the next pass.
 */
unsigned long teeprobe_windows_flush_quiet(struct teeprobe_window *(*window_of)(int cpu),
					   smp_call_func_t flush)
{
	u64 len = teeprobe_window_len_ns();
	u64 now = teeprobe_now_ns();
	int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct teeprobe_window *src = window_of(cpu);
		struct teeprobe_window w = {
			.start_ns = READ_ONCE(src->start_ns),
			.len_ns = READ_ONCE(src->len_ns),
			.open = READ_ONCE(src->open),
		};

		/* A hint only: the CPU checks again with interrupts off. */
		if (teeprobe_window_expired(&w, now, len))
			smp_call_function_single(cpu, flush, NULL, 1);
	}
	cpus_read_unlock();
	return nsecs_to_jiffies(teeprobe_window_align(now, len) + len +
				len / 8 - now) + 1;
}

/*
 * teeprobe_reset_each_cpu - run @reset for every possible CPU, its number
 * as the argument (teeprobe_cpu_of()): on the CPU itself when it is online
 * (an IPI, so the reset never races with its probes), directly when it is
 * offline
 */
void teeprobe_reset_each_cpu(smp_call_func_t reset)
{
	int cpu;

	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			smp_call_function_single(cpu, reset, (void *)(long)cpu, 1);
		else
			reset((void *)(long)cpu);
	}
	cpus_read_unlock();
}

/* The bytes each CPU holds in teeprobe's per-CPU allocations */
static atomic_long_t percpu_bytes = ATOMIC_LONG_INIT(0);

/*
 * teeprobe_alloc_percpu - @size zeroed bytes per CPU, counted in debugfs
 * "memory". alloc_percpu's unit is PCPU_MIN_UNIT_SIZE (32 KiB): parts with
 * more per CPU allocate it in pieces (teeprobe_alloc_percpu_n()).
 */
void __percpu *teeprobe_alloc_percpu(size_t size, size_t align)
{
	void __percpu *p;

	if (WARN_ON_ONCE(size > PCPU_MIN_UNIT_SIZE))
		return NULL;
	p = __alloc_percpu(size, align);
	if (p)
		atomic_long_add(size, &percpu_bytes);
	return p;
}

/* teeprobe_free_percpu - free @p (NULL is fine), allocated with @size */
void teeprobe_free_percpu(void __percpu *p, size_t size)
{
	if (!p)
		return;
	free_percpu(p);
	atomic_long_sub(size, &percpu_bytes);
}

/*
 * teeprobe_alloc_percpu_n - @n per-CPU blocks of @size into @blocks; on
 * failure none is left and -ENOMEM returned
 */
int teeprobe_alloc_percpu_n(void __percpu **blocks, unsigned int n,
			    size_t size, size_t align)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		blocks[i] = teeprobe_alloc_percpu(size, align);
		if (!blocks[i]) {
			teeprobe_free_percpu_n(blocks, i, size);
			return -ENOMEM;
		}
	}
	return 0;
}

/* teeprobe_free_percpu_n - free the @n blocks of teeprobe_alloc_percpu_n() */
void teeprobe_free_percpu_n(void __percpu **blocks, unsigned int n,
			    size_t size)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		teeprobe_free_percpu(blocks[i], size);
		blocks[i] = NULL;
	}
}

/* teeprobe_show_memory - debugfs "memory": what teeprobe holds per CPU */
void teeprobe_show_memory(struct seq_file *m)
{
	seq_printf(m, "percpu_bytes %ld\n", atomic_long_read(&percpu_bytes));
}

/*
 * teeprobe_seq_hist_header - the header line of a *_hist file: "# "
 * @columns (what names a row), bucket_low_ns, a column per CPU, all
 */
void teeprobe_seq_hist_header(struct seq_file *m, const char *columns)
{
	int cpu;

	seq_printf(m, "# %s bucket_low_ns", columns);
	for_each_possible_cpu(cpu)
		seq_printf(m, " cpu%d", cpu);
	seq_puts(m, " all\n");
}

/*
 * teeprobe_seq_hist_rows - the non-empty buckets of one histogram kept per
 * CPU at @offset in the per-CPU block @base: "@label bucket_low_ns", each
 * CPU's count, their sum
 */
void teeprobe_seq_hist_rows(struct seq_file *m, const char *label,
			    const void __percpu *base, size_t offset)
{
	const struct teeprobe_hist *h;
	unsigned int b;
	int cpu;

	for (b = 0; b < TEEPROBE_HIST_BUCKETS; b++) {
		u64 total = 0;

		for_each_possible_cpu(cpu) {
			h = (const void *)per_cpu_ptr(base, cpu) + offset;
			total += h->bucket[b];
		}
		if (!total)
			continue;
		seq_printf(m, "%s %llu", label, teeprobe_hist_bucket_low(b));
		for_each_possible_cpu(cpu) {
			h = (const void *)per_cpu_ptr(base, cpu) + offset;
			seq_printf(m, " %llu", h->bucket[b]);
		}
		seq_printf(m, " %llu\n", total);
	}
}

/* teeprobe_seq_hist_trailer - the layout lines every *_hist file ends with */
void teeprobe_seq_hist_trailer(struct seq_file *m)
{
	seq_printf(m, "# hist_sub_bits %d\n", TEEPROBE_HIST_SUB_BITS);
	seq_printf(m, "# hist_unit_shift %d\n", TEEPROBE_HIST_UNIT_SHIFT);
}

/* teeprobe_reset_all - zero every counter and histogram, then say so */
void teeprobe_reset_all(void)
{
	unsigned int generation;

	teeprobe_tee_reset();
	teeprobe_softirq_reset();
	teeprobe_tcp_reset();
	teeprobe_acceptors_reset();
	generation = atomic_inc_return(&teeprobe_reset_generation);
	trace_teeprobe_reset(generation);
}

/* teeprobe_init - bring up each part; unwind what was done on failure */
static int __init teeprobe_init(void)
{
	int ret;

	teeprobe_load_id = get_random_u64() ?: 1;
	ret = teeprobe_tee_init();
	if (ret)
		return ret;
	ret = teeprobe_softirq_init();
	if (ret)
		goto out_tee_exit;
	ret = teeprobe_acceptors_init();
	if (ret)
		goto out_softirq_exit;
	ret = teeprobe_tcp_init();
	if (ret)
		goto out_acceptors_exit;
	ret = teeprobe_debugfs_init();
	if (ret)
		goto out_tcp_exit;

	pr_info("version %s loaded\n", TEEPROBE_VERSION);
	return 0;

out_tcp_exit:
	teeprobe_tcp_exit();
out_acceptors_exit:
	teeprobe_acceptors_exit();
out_softirq_exit:
	teeprobe_softirq_exit();
out_tee_exit:
	teeprobe_tee_exit();
	return ret;
}

/* teeprobe_exit - tear down in the reverse order of teeprobe_init */
static void __exit teeprobe_exit(void)
{
	teeprobe_debugfs_exit();
	teeprobe_tcp_exit();
	teeprobe_acceptors_exit();
	teeprobe_softirq_exit();
	teeprobe_tee_exit();
	pr_info("unloaded\n");
}

module_init(teeprobe_init);
module_exit(teeprobe_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("teeprobe developers");
MODULE_DESCRIPTION("Measure TEE ioctl blocking, NET_RX softirq starvation and TCP handshake time");
MODULE_VERSION(TEEPROBE_VERSION);
