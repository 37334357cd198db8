// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/teeprobe/: teeprobe's files.
 *
 *   version  (0400) module version and the kernel it was built for
 *   reset    (0200) write "1" to zero every counter and histogram
 *
 * Files are root-only: they describe what runs on the host.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <generated/utsrelease.h>

#include "teeprobe.h"

static struct dentry *teeprobe_dir;

/* version_show - one line: "teeprobe VERSION kernel RELEASE" */
static int version_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "teeprobe %s kernel %s\n", TEEPROBE_VERSION, UTS_RELEASE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(version);

/* reset_write - accept exactly "1" (with optional newline) and reset */
static ssize_t reset_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	unsigned int value;
	int ret;

	/* Every malformed or out-of-range value is the same error to a user. */
	ret = kstrtouint_from_user(ubuf, count, 10, &value);
	if (ret || value != 1)
		return -EINVAL;
	teeprobe_reset_all();
	return count;
}

static const struct file_operations reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= reset_write,
	.llseek	= noop_llseek,
};

/* teeprobe_debugfs_init - create the directory and its files */
int teeprobe_debugfs_init(void)
{
	teeprobe_dir = debugfs_create_dir("teeprobe", NULL);
	if (IS_ERR(teeprobe_dir)) {
		pr_err("cannot create debugfs directory: %ld\n",
		       PTR_ERR(teeprobe_dir));
		return PTR_ERR(teeprobe_dir);
	}
	debugfs_create_file("version", 0400, teeprobe_dir, NULL, &version_fops);
	debugfs_create_file("reset", 0200, teeprobe_dir, NULL, &reset_fops);
	return 0;
}

/* teeprobe_debugfs_exit - remove everything teeprobe_debugfs_init made */
void teeprobe_debugfs_exit(void)
{
	debugfs_remove_recursive(teeprobe_dir);
}
