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
#include <linux/atomic.h>
#include <linux/time64.h>

#define CREATE_TRACE_POINTS
#include "trace.h"

#include "teeprobe.h"

atomic_t teeprobe_reset_generation = ATOMIC_INIT(0);

#define TP_WINDOW_MS_MIN	10
#define TP_WINDOW_MS_MAX	60000

static unsigned int window_ms = 100;

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
	WRITE_ONCE(window_ms, value);
	return 0;
}

static const struct kernel_param_ops window_ms_ops = {
	.set = param_set_window_ms,
	.get = param_get_uint,
};
module_param_cb(window_ms, &window_ms_ops, &window_ms, 0644);
MODULE_PARM_DESC(window_ms, "Length of the summary windows in ms, 10 to 60000 (default 100); writable at run time");

/* teeprobe_window_len_ns - the current window length */
u64 teeprobe_window_len_ns(void)
{
	return (u64)READ_ONCE(window_ms) * NSEC_PER_MSEC;
}

/* teeprobe_reset_all - zero every counter and histogram, then say so */
void teeprobe_reset_all(void)
{
	unsigned int generation;

	teeprobe_tee_reset();
	teeprobe_softirq_reset();
	teeprobe_tcp_reset();
	generation = atomic_inc_return(&teeprobe_reset_generation);
	trace_teeprobe_reset(generation);
}

/* teeprobe_init - bring up each part; unwind what was done on failure */
static int __init teeprobe_init(void)
{
	int ret;

	ret = teeprobe_tee_init();
	if (ret)
		return ret;
	ret = teeprobe_softirq_init();
	if (ret)
		goto out_tee_exit;
	ret = teeprobe_tcp_init();
	if (ret)
		goto out_softirq_exit;
	ret = teeprobe_debugfs_init();
	if (ret)
		goto out_tcp_exit;

	pr_info("version %s loaded\n", TEEPROBE_VERSION);
	return 0;

out_tcp_exit:
	teeprobe_tcp_exit();
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
