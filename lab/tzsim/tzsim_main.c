// SPDX-License-Identifier: GPL-2.0
/*
 * tzsim_main.c - tzsim.ko: the lab's simulated iTrustee secure side, for
 * the real tzdriver (built beside it by scripts/tzdriver, loaded first).
 *
 * What a host gives tzdriver besides the secure world is an interrupt: on
 * Kunpeng the ACPI device HISI03C1. tzsim registers a platform device named
 * "trusted_core" (tzdriver's platform driver's name, which the platform bus
 * also matches by) with one interrupt of its own, a software one that
 * tzsim raises to wake callers. When tzdriver's platform driver unbinds (at
 * rmmod, before the driver frees its queue) tzsim answers the standing
 * command of the driver's smc_svc_thread so that the thread can stop.
 *
 * Parameters (writable at run time; a bad value is refused with EINVAL):
 *   secure_threads  TA commands the secure side runs at once (1..64,
 *                   default 2: the guest's CPUs); more wait for a thread
 *   ta_us           a TA's time per command (0..1000000, default 1000)
 *   ta_mode         0: the TA runs in the SMC on the caller's CPU (which
 *                   the secure world holds; the SMC exits to the normal
 *                   world whenever that CPU has other work, and the driver
 *                   re-enters), 1: off it, completed later through the
 *                   driver's wake-up path (default 0)
 *   queue_slots     slots of the driver's command queue the secure side
 *                   leaves it (0: all of them, default 0)
 *   switch_us       CPU time of every world switch (0..10000, default 10)
 * Counters: /sys/kernel/debug/tzsim/stats ("name value"), zeroed by
 * writing to /sys/kernel/debug/tzsim/reset.
 */
/* (a header force-included before this one may have set it) */
#undef pr_fmt
#define pr_fmt(fmt) "tzsim: " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>

#include "tzsim.h"

struct tzsim_params tzsim_params = {
	.secure_threads	= 2,
	.ta_us		= 1000,
	.ta_mode	= TZSIM_TA_CPU,
	.queue_slots	= 0,
	.switch_us	= 10,
};
struct tzsim_stats tzsim_stats;

/* struct ranged_param - a parameter's place and range */
struct ranged_param {
	unsigned int *value;
	unsigned int min, max;
	const char *name;
};

/* param_set_ranged - parse an unsigned decimal, check its range, apply */
static int param_set_ranged(const char *val, const struct kernel_param *kp)
{
	const struct ranged_param *rp = kp->arg;
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v < rp->min || v > rp->max) {
		pr_err("%s=%s: must be a number from %u to %u\n", rp->name,
		       val, rp->min, rp->max);
		return -EINVAL;
	}
	WRITE_ONCE(*rp->value, v);
	tzsim_params_changed();
	return 0;
}

/* param_get_ranged - print the current value */
static int param_get_ranged(char *buffer, const struct kernel_param *kp)
{
	const struct ranged_param *rp = kp->arg;

	return sysfs_emit(buffer, "%u\n", READ_ONCE(*rp->value));
}

static const struct kernel_param_ops ranged_ops = {
	.set = param_set_ranged,
	.get = param_get_ranged,
};

#define TZSIM_PARAM(field, lo, hi, desc)					\
	static struct ranged_param rp_##field = {			\
		&tzsim_params.field, lo, hi, #field };			\
	module_param_cb(field, &ranged_ops, &rp_##field, 0644);		\
	__MODULE_PARM_TYPE(field, "uint");				\
	MODULE_PARM_DESC(field, desc)

TZSIM_PARAM(secure_threads, 1, TZSIM_MAX_THREADS,
	    "TA commands the secure side runs at once, 1..64 (default 2)");
TZSIM_PARAM(ta_us, 0, 1000000, "a TA's time per command in us (default 1000)");
TZSIM_PARAM(ta_mode, TZSIM_TA_CPU, TZSIM_TA_PENDING,
	    "0: the TA holds the caller's CPU in the SMC, 1: it runs off it and is completed through the driver's wake-up path (default 0)");
TZSIM_PARAM(queue_slots, 0, 100000,
	    "slots of the driver's command queue left to it, 0 all (default 0)");
TZSIM_PARAM(switch_us, 0, 10000, "CPU time of each world switch in us (default 10)");

/* ---- the device tzdriver binds to, and its interrupt --------------------- */

static struct platform_device *pdev;
static int irq = -1;

/* tzsim_bus_notify - tzdriver's platform driver leaves our device */
static int tzsim_bus_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct device *dev = data;

	if (pdev && dev == &pdev->dev && action == BUS_NOTIFY_UNBIND_DRIVER) {
		pr_info("tzdriver unbinds: the secure side lets its threads go\n");
		tzsim_secure_stop();
	}
	return NOTIFY_DONE;
}

static struct notifier_block tzsim_bus_nb = {
	.notifier_call = tzsim_bus_notify,
};

/*
 * tzsim_device_init - a software interrupt (no controller raises it: tzsim
 * does, from hard interrupt context) and the "trusted_core" device holding it
 */
static int tzsim_device_init(void)
{
	struct resource res;
	int ret;

	/* from 1: tzdriver refuses interrupt 0 */
	irq = __irq_alloc_descs(-1, 1, 1, NUMA_NO_NODE, THIS_MODULE, NULL);
	if (irq < 0)
		return irq;
	irq_set_chip_and_handler(irq, &dummy_irq_chip, handle_simple_irq);
	irq_modify_status(irq, IRQ_NOREQUEST | IRQ_NOAUTOEN, IRQ_NOPROBE);
	tzsim_irq_set(irq);
	res = (struct resource)DEFINE_RES_IRQ(irq);
	ret = bus_register_notifier(&platform_bus_type, &tzsim_bus_nb);
	if (ret)
		goto out_free_irq;
	pdev = platform_device_register_simple("trusted_core", PLATFORM_DEVID_NONE,
					       &res, 1);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		pdev = NULL;
		goto out_unregister_notifier;
	}
	return 0;

out_unregister_notifier:
	bus_unregister_notifier(&platform_bus_type, &tzsim_bus_nb);
out_free_irq:
	irq_free_desc(irq);
	return ret;
}

/* tzsim_device_exit - the device, the notifier and the interrupt go */
static void tzsim_device_exit(void)
{
	platform_device_unregister(pdev);
	bus_unregister_notifier(&platform_bus_type, &tzsim_bus_nb);
	irq_free_desc(irq);
}

/* ---- debugfs ------------------------------------------------------------- */

static struct dentry *dir;

#define TZSIM_STAT(name) { #name, &tzsim_stats.name }
static const struct {
	const char *name;
	atomic64_t *v;
} stat_list[] = {
	TZSIM_STAT(smc), TZSIM_STAT(smc_normal), TZSIM_STAT(smc_schedto),
	TZSIM_STAT(smc_other), TZSIM_STAT(exit_preempted),
	TZSIM_STAT(exit_pending), TZSIM_STAT(global_cmds),
	TZSIM_STAT(open_session), TZSIM_STAT(close_session),
	TZSIM_STAT(need_load_app), TZSIM_STAT(register_agent),
	TZSIM_STAT(ta_cmds), TZSIM_STAT(ta_sm3), TZSIM_STAT(ta_sm4),
	TZSIM_STAT(ta_stats), TZSIM_STAT(ta_refused), TZSIM_STAT(memref_temp),
	TZSIM_STAT(memref_pages), TZSIM_STAT(secure_ns), TZSIM_STAT(switch_ns),
	TZSIM_STAT(pending_ns), TZSIM_STAT(thread_waits),
	TZSIM_STAT(thread_wait_ns), TZSIM_STAT(wakeups),
	TZSIM_STAT(notify_full), TZSIM_STAT(queue_max_used),
	TZSIM_STAT(sessions_open),
};

/* stats_show - one "name value" line per counter */
static int stats_show(struct seq_file *m, void *unused)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stat_list); i++)
		seq_printf(m, "%s %lld\n", stat_list[i].name,
			   atomic64_read(stat_list[i].v));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/* reset_write - zero the counters (sessions_open is a state, kept) */
static ssize_t reset_write(struct file *file, const char __user *buf,
			   size_t len, loff_t *pos)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(stat_list); i++)
		if (stat_list[i].v != &tzsim_stats.sessions_open)
			atomic64_set(stat_list[i].v, 0);
	return len;
}

static const struct file_operations reset_fops = {
	.owner = THIS_MODULE,
	.write = reset_write,
};

/* ---- init and exit ------------------------------------------------------- */

/* tzsim_init - the secure side first, then the device tzdriver waits for */
static int __init tzsim_init(void)
{
	int ret;

	ret = tzsim_ta_init();
	if (ret)
		return ret;
	ret = tzsim_secure_init();
	if (ret)
		goto out_ta_exit;
	ret = tzsim_device_init();
	if (ret)
		goto out_secure_exit;
	dir = debugfs_create_dir("tzsim", NULL);
	debugfs_create_file("stats", 0444, dir, NULL, &stats_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &reset_fops);
	pr_info("iTrustee secure side simulated: device trusted_core, irq %d\n", irq);
	return 0;

out_secure_exit:
	tzsim_secure_exit();
out_ta_exit:
	tzsim_ta_exit();
	return ret;
}

/* tzsim_exit - tzdriver, which uses tzsim_smc, is gone by now */
static void __exit tzsim_exit(void)
{
	debugfs_remove_recursive(dir);
	tzsim_device_exit();
	tzsim_secure_exit();
	tzsim_ta_exit();
}

module_init(tzsim_init);
module_exit(tzsim_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("The teeprobe lab's simulated iTrustee secure side, for tzdriver");
