// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/teeprobe/: teeprobe's files, named with
 * their permissions in abi.h's TEEPROBE_FILES. This file makes the
 * module's own (version, generation, reset, pid_filter, hooks, memory)
 * and every part's, whose tables the parts show; a part's file ends with
 * the lines other parts add to it, and its window length where it has
 * windows.
 *
 * Documentation/debugfs.rst describes every format: one table per file,
 * a '#' line naming its columns, then its rows; every other line that
 * starts with '#' is "# key value". Files are root-only:
 * they describe what runs on the host.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/uaccess.h>
#include <generated/utsrelease.h>

#include "teeprobe.h"

static struct dentry *teeprobe_dir;

/*
 * teeprobe_debugfs_file - make file @name in @dir, or say why not. A
 * missing file would leave an operator's tool to guess: the load fails
 * instead.
 */
static int teeprobe_debugfs_file(const char *name, umode_t mode,
				 struct dentry *dir, void *data,
				 const struct file_operations *fops)
{
	struct dentry *d;

	d = teeprobe_should_fail(name) ? ERR_PTR(-ENOMEM) :
	    debugfs_create_file(name, mode, dir, data, fops);
	if (IS_ERR(d)) {
		pr_err("cannot create debugfs file %s: error %ld\n", name,
		       PTR_ERR(d));
		return PTR_ERR(d);
	}
	return 0;
}

/* create - file @id of the directory, read and written through @fops */
static int create(unsigned int id, void *data,
		  const struct file_operations *fops)
{
	return teeprobe_debugfs_file(teeprobe_file_name(id),
				     teeprobe_file_mode(id), teeprobe_dir,
				     data, fops);
}

/* version_show - one line: "teeprobe VERSION kernel RELEASE" */
static int version_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "teeprobe %s kernel %s\n", TEEPROBE_VERSION, UTS_RELEASE);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(version);

/*
 * generation_show - "load ID reset N": counters read under two different
 * lines (a reload, a reset in between) do not subtract
 */
static int generation_show(struct seq_file *m, void *unused)
{
	seq_printf(m, "load %016llx reset %u\n", teeprobe_load_id,
		   (unsigned int)atomic_read(&teeprobe_reset_generation));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(generation);

/*
 * copy_input - a write as a C string; refuse empty and overlong writes and
 * NUL bytes, which would hide what follows them
 */
static int copy_input(char *buf, size_t size, const char __user *ubuf,
		      size_t count)
{
	if (!count || count >= size)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (strlen(buf) != count)
		return -EINVAL;
	return 0;
}

/* reset_write - accept exactly "1" (with optional newline) and reset */
static ssize_t reset_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	unsigned int value;
	char buf[16];
	int ret;

	ret = copy_input(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;
	/* Every malformed or out-of-range value is the same error to a user. */
	if (kstrtouint(buf, 10, &value) || value != 1)
		return -EINVAL;
	teeprobe_reset_all();
	return count;
}

/* pid_filter_write - "PID [PID...]" (at most 8) or "0" for every process */
static ssize_t pid_filter_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	pid_t pids[TEEPROBE_MAX_PIDS];
	unsigned int n;
	char buf[128];
	int ret;

	ret = copy_input(buf, sizeof(buf), ubuf, count);
	if (ret)
		return ret;
	ret = teeprobe_tee_parse_pids(buf, pids, &n);
	if (ret)
		return ret;
	teeprobe_tee_set_pids(pids, n);
	return count;
}

/* pid_filter_show - the current filter */
static int pid_filter_show(struct seq_file *m, void *unused)
{
	teeprobe_tee_show_pids(m);
	return 0;
}

/* pid_filter_open - seq_file read, raw write */
static int pid_filter_open(struct inode *inode, struct file *file)
{
	return single_open(file, pid_filter_show, NULL);
}

static const struct file_operations pid_filter_fops = {
	.owner		= THIS_MODULE,
	.open		= pid_filter_open,
	.read		= seq_read,
	.write		= pid_filter_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

#define TEEPROBE_SHOW(name, fn)						\
static int name##_show(struct seq_file *m, void *unused)		\
{									\
	fn(m);								\
	return 0;							\
}									\
DEFINE_SHOW_ATTRIBUTE(name)

TEEPROBE_SHOW(hooks, teeprobe_hooks_show);
TEEPROBE_SHOW(memory, teeprobe_show_memory);

/*
 * part_file_show - a part's file: its table, the other parts' lines, its
 * window length
 */
static int part_file_show(struct seq_file *m, void *unused)
{
	const struct teeprobe_file *file = m->private;

	file->show(m);
	teeprobe_parts_show_notes(m, file->id);
	if (file->window_ms)
		teeprobe_seq_key_u64(m, TEEPROBE_KEY_WINDOW_MS,
				     div64_u64(teeprobe_window_len_ns(),
					       NSEC_PER_MSEC));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(part_file);

/* create_part_file - a part's file @file in the directory */
static int create_part_file(struct teeprobe_file *file, void *unused)
{
	return teeprobe_debugfs_file(teeprobe_file_name(file->id), 0400,
				     teeprobe_dir, file, &part_file_fops);
}

static const struct file_operations reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= reset_write,
	.llseek	= noop_llseek,
};

/*
 * teeprobe_debugfs_init - create the directory, its own files, and those of
 * every part registered (all of them: it comes last)
 */
int teeprobe_debugfs_init(void)
{
	int ret;

	teeprobe_dir = teeprobe_should_fail("debugfs directory") ?
		       ERR_PTR(-ENOMEM) : debugfs_create_dir("teeprobe", NULL);
	if (IS_ERR(teeprobe_dir)) {
		ret = PTR_ERR(teeprobe_dir);
		teeprobe_dir = NULL;
		pr_err("cannot create debugfs directory teeprobe: error %d\n",
		       ret);
		return ret;
	}
	ret = create(TEEPROBE_FILE_VERSION, NULL, &version_fops) ?:
	      create(TEEPROBE_FILE_GENERATION, NULL, &generation_fops) ?:
	      create(TEEPROBE_FILE_RESET, NULL, &reset_fops) ?:
	      create(TEEPROBE_FILE_PID_FILTER, NULL, &pid_filter_fops) ?:
	      create(TEEPROBE_FILE_HOOKS, NULL, &hooks_fops) ?:
	      create(TEEPROBE_FILE_MEMORY, NULL, &memory_fops) ?:
	      teeprobe_parts_each_file(create_part_file, NULL);
	if (ret) {
		debugfs_remove_recursive(teeprobe_dir);
		teeprobe_dir = NULL;
	}
	return ret;
}

/* teeprobe_debugfs_exit - remove everything teeprobe_debugfs_init made */
void teeprobe_debugfs_exit(void)
{
	debugfs_remove_recursive(teeprobe_dir);
	teeprobe_dir = NULL;
}
