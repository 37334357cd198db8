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

#define CREATE_TRACE_POINTS
#include "trace.h"

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
 * teeprobe_reset_each_cpu - run @reset on every possible CPU's state: on
 * the CPU itself when it is online (an IPI; @reset gets NULL and takes its
 * own), directly with @state_of(cpu) when it is offline
 */
void teeprobe_reset_each_cpu(smp_call_func_t reset, void *(*state_of)(int cpu))
{
	int cpu;

	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			smp_call_function_single(cpu, reset, NULL, 1);
		else
			reset(state_of(cpu));
	}
	cpus_read_unlock();
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
