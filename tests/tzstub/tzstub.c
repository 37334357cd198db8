// SPDX-License-Identifier: GPL-2.0
/*
 * tzstub.c - a stand-in with iTrustee tzdriver's names, for tests only.
 *
 * The tzdriver preset is tested on the real driver (tests/integration/
 * t36-itrustee.sh, arm64 guests over tzsim); what this stand-in still does
 * is run teeprobe's handlers from int3 traps on x86 (below) under the lab
 * kernel's lockdep: /dev/tc_ns_client with tc_client_ioctl(), whose
 * commands (magic 't') go through tc_client_call() and tc_ns_smc(). The
 * "secure world" is a short sleep. The module counts the commands it
 * served, as the truth the test compares teeprobe's counts with (read-only
 * parameters).
 *
 * tc_client_ioctl() and tc_ns_smc() are notrace: on x86 the kprobes on them
 * cannot go through ftrace and are int3-based, as every kprobe is on arm64
 * 6.1 (no KPROBES_ON_FTRACE there), where the real tzdriver runs. teeprobe's
 * entry handlers then run from the int3 trap, which x86 enters as an NMI;
 * the lab kernel's lockdep reports any lock or clock read there that is not
 * NMI-safe.
 */
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/ioctl.h>
#include <linux/miscdevice.h>
#include <linux/module.h>

static unsigned int opens, closes, send_cmds, others;
module_param(opens, uint, 0444);
module_param(closes, uint, 0444);
module_param(send_cmds, uint, 0444);
module_param(others, uint, 0444);

/*
 * Global, as in tzdriver, so that the compiler keeps their names: static
 * functions may be cloned under another name (.isra, .constprop).
 */
long tc_ns_smc(unsigned int nr);
long tc_client_call(unsigned int nr);
long tc_client_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* tc_ns_smc - the "secure monitor call": the secure world takes 200 us */
noinline notrace long tc_ns_smc(unsigned int nr)
{
	usleep_range(200, 300);
	return 0;
}

/* tc_client_call - the send path: one SMC per command */
noinline long tc_client_call(unsigned int nr)
{
	return tc_ns_smc(nr);
}

/* tc_client_ioctl - tzdriver's ioctl entry, counting what it serves */
noinline notrace long tc_client_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	if (_IOC_TYPE(cmd) != 't')
		return -ENOTTY;
	switch (_IOC_NR(cmd)) {
	case 1:
		opens++;
		break;
	case 2:
		closes++;
		break;
	case 3:
		send_cmds++;
		break;
	default:
		others++;
		return -EINVAL;
	}
	return tc_client_call(_IOC_NR(cmd));
}

static const struct file_operations tzstub_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= tc_client_ioctl,
};

static struct miscdevice tzstub_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "tc_ns_client",
	.fops	= &tzstub_fops,
};

module_misc_device(tzstub_dev);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Stand-in for iTrustee's tzdriver symbols (tests only)");
