// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - teeprobe's own fault injection points, on kernels built with
 * CONFIG_FAULT_INJECTION (the lab kernel; a production kernel without it
 * compiles none of this).
 *
 * The kernel's failslab and fail_page_alloc reach every kmalloc, vmalloc
 * and page teeprobe takes, but not alloc_percpu (the percpu allocator has
 * no hook) nor a registration that fails for a reason of its own (a
 * kretprobe on a function kprobes refuse, a tracepoint that cannot take
 * another probe), and not teeprobe's alone: a read's buffer failing at
 * random fails the filesystem it is read from too (9p's client, in the
 * guests, leaves its channel broken). teeprobe_should_fail() is called at
 * each of those, and at the buffers its files' reads allocate: a fault
 * attribute of the kernel's kind, so that
 *  - a task's /proc/<pid>/fail-nth counts teeprobe's points with the
 *    kernel's own, in one order (tests/integration/t87-faults.sh walks N
 *    over a load, a late attach and an unload);
 *  - /sys/kernel/debug/fail_teeprobe/ (probability, interval, times,
 *    space, task-filter, verbose: Documentation/fault-injection/) fails
 *    them at random while the module runs;
 *  - the parameter fault=<interval>,<probability>,<space>,<times> sets
 *    them from the load on, as the kernel's failslab= boot option does
 *    its own: fault=1,100,K,1 fails the K-th point alone (the walk over
 *    teeprobe's points).
 * As failslab does, a forced failure is said with its stack unless
 * verbose is 0.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/dcache.h>
#include <linux/fault-inject.h>
#include <linux/moduleparam.h>

#include "teeprobe.h"

#ifdef CONFIG_FAULT_INJECTION

static DECLARE_FAULT_ATTR(teeprobe_fault_attr);
static struct dentry *fault_dir;
static char *fault_param;
module_param_named(fault, fault_param, charp, 0);
MODULE_PARM_DESC(fault, "<interval>,<probability>,<space>,<times>: teeprobe's own fault injection points from the load on (kernels with CONFIG_FAULT_INJECTION; default: none fails)");

/* teeprobe_should_fail - fail check point @what (named in the log)? */
bool teeprobe_should_fail(const char *what)
{
	if (!should_fail(&teeprobe_fault_attr, 1))
		return false;
	if (READ_ONCE(teeprobe_fault_attr.verbose))
		pr_notice("fault injected at %s\n", what);
	return true;
}

/*
 * teeprobe_fault_init - the attribute's files, where the kernel's own are
 * (/sys/kernel/debug/fail_*); none without the debugfs interface
 */
int teeprobe_fault_init(void)
{
	/* setup_fault_attr() only reads the string: 1 when it parsed */
	if (fault_param && !setup_fault_attr(&teeprobe_fault_attr, fault_param)) {
		pr_err("fault=%s: must be <interval>,<probability>,<space>,<times>\n",
		       fault_param);
		return -EINVAL;
	}
#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
	fault_dir = fault_create_debugfs_attr("fail_teeprobe", NULL,
					      &teeprobe_fault_attr);
	if (IS_ERR(fault_dir)) {
		int ret = PTR_ERR(fault_dir);

		fault_dir = NULL;
		pr_err("cannot create debugfs directory fail_teeprobe: error %d\n",
		       ret);
		return ret;
	}
#endif
	return 0;
}

/* teeprobe_fault_exit - remove them, and the attribute's hold on their directory */
void teeprobe_fault_exit(void)
{
	debugfs_remove_recursive(fault_dir);
	fault_dir = NULL;
	dput(teeprobe_fault_attr.dname);
	teeprobe_fault_attr.dname = NULL;
}

#endif /* CONFIG_FAULT_INJECTION */
