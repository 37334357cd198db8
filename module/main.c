// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - teeprobe.ko: measure the chain TEE ioctl blocking -> NET_RX
 * softirq starvation -> slow TCP handshakes.
 *
 * This file owns module load and unload: each part of the module has a
 * teeprobe_<part>_init()/_exit() pair, called from one table in order and
 * undone in reverse order, on a failed load as at unload (one way out).
 * The parts register with window.c, which flushes their windows and
 * resets them; debugfs.c, last, makes the parts' files.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/random.h>

#include "kretprobe.h"
#include "teeprobe.h"

/*
 * Tells this load of the module from any other (debugfs "generation"):
 * counters read before and after a reload do not subtract, even when the
 * later ones happen to be larger.
 */
u64 teeprobe_load_id;

/* The parts, in the order they come up; each goes down after those after it */
static const struct {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
} parts[] = {
	{ "fault", teeprobe_fault_init, teeprobe_fault_exit },
	{ "window", teeprobe_window_init, teeprobe_window_exit },
	{ "kretprobes", teeprobe_kretprobes_init, teeprobe_kretprobes_exit },
	{ "tee", teeprobe_tee_init, teeprobe_tee_exit },
	{ "netrx", teeprobe_netrx_init, teeprobe_netrx_exit },
	{ "acceptors", teeprobe_acceptors_init, teeprobe_acceptors_exit },
	{ "tcp", teeprobe_tcp_init, teeprobe_tcp_exit },
	{ "debugfs", teeprobe_debugfs_init, teeprobe_debugfs_exit },
};

/* parts_exit - take the first @n parts down, the last first */
static void parts_exit(unsigned int n)
{
	while (n--)
		parts[n].exit();
}

/* teeprobe_init - bring up each part; take down what came up on failure */
static int __init teeprobe_init(void)
{
	unsigned int i;
	int ret;

	teeprobe_load_id = get_random_u64() ?: 1;
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		ret = parts[i].init();
		if (ret) {
			parts_exit(i);
			pr_err("not loaded: its %s part failed (error %d); what came up before it is undone\n",
			       parts[i].name, ret);
			return ret;
		}
	}
	pr_info("version %s loaded\n", TEEPROBE_VERSION);
	return 0;
}

/* teeprobe_exit - take every part down, in the reverse order of teeprobe_init */
static void __exit teeprobe_exit(void)
{
	parts_exit(ARRAY_SIZE(parts));
	pr_info("unloaded\n");
}

module_init(teeprobe_init);
module_exit(teeprobe_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("teeprobe developers");
MODULE_DESCRIPTION("Measure TEE ioctl blocking, NET_RX softirq starvation and TCP handshake time");
MODULE_VERSION(TEEPROBE_VERSION);
