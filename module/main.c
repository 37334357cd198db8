// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - teeprobe.ko: measure the chain TEE ioctl blocking -> NET_RX
 * softirq starvation -> slow TCP handshakes.
 *
 * This file owns module load and unload; each part of the module has a
 * teeprobe_<part>_init()/_exit() pair called from here in order, and undone
 * in reverse order. The parts register with window.c, which flushes their
 * windows and resets them; debugfs.c, last, makes the parts' files.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/random.h>

#define CREATE_TRACE_POINTS
#include "trace.h"

#include "teeprobe.h"

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

/* teeprobe_init - bring up each part; unwind what was done on failure */
static int __init teeprobe_init(void)
{
	int ret;

	teeprobe_load_id = get_random_u64() ?: 1;
	teeprobe_window_init();
	ret = teeprobe_tee_init();
	if (ret)
		goto out_window_exit;
	ret = teeprobe_netrx_init();
	if (ret)
		goto out_tee_exit;
	ret = teeprobe_acceptors_init();
	if (ret)
		goto out_netrx_exit;
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
out_netrx_exit:
	teeprobe_netrx_exit();
out_tee_exit:
	teeprobe_tee_exit();
out_window_exit:
	teeprobe_window_exit();
	return ret;
}

/* teeprobe_exit - tear down in the reverse order of teeprobe_init */
static void __exit teeprobe_exit(void)
{
	teeprobe_debugfs_exit();
	teeprobe_tcp_exit();
	teeprobe_acceptors_exit();
	teeprobe_netrx_exit();
	teeprobe_tee_exit();
	teeprobe_window_exit();
	pr_info("unloaded\n");
}

module_init(teeprobe_init);
module_exit(teeprobe_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("teeprobe developers");
MODULE_DESCRIPTION("Measure TEE ioctl blocking, NET_RX softirq starvation and TCP handshake time");
MODULE_VERSION(TEEPROBE_VERSION);
