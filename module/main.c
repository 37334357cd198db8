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
#include <linux/atomic.h>

#define CREATE_TRACE_POINTS
#include "trace.h"

#include "teeprobe.h"

atomic_t teeprobe_reset_generation = ATOMIC_INIT(0);

/* teeprobe_reset_all - zero every counter and histogram, then say so */
void teeprobe_reset_all(void)
{
	unsigned int generation;

	teeprobe_tee_reset();
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
	ret = teeprobe_debugfs_init();
	if (ret)
		goto out_tee_exit;

	pr_info("version %s loaded\n", TEEPROBE_VERSION);
	return 0;

out_tee_exit:
	teeprobe_tee_exit();
	return ret;
}

/* teeprobe_exit - tear down in the reverse order of teeprobe_init */
static void __exit teeprobe_exit(void)
{
	teeprobe_debugfs_exit();
	teeprobe_tee_exit();
	pr_info("unloaded\n");
}

module_init(teeprobe_init);
module_exit(teeprobe_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("teeprobe developers");
MODULE_DESCRIPTION("Measure TEE ioctl blocking, NET_RX softirq starvation and TCP handshake time");
MODULE_VERSION(TEEPROBE_VERSION);
