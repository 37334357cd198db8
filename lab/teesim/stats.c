// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - teesim's own counters in /sys/kernel/debug/teesim/.
 *
 *   stats  (0400) one "name value" line per counter
 *   reset  (0200) write 1 to zero the counters (sessions_open is a level,
 *                 not a counter, and is kept)
 *
 * These are the independent truth that tests compare teeprobe's
 * measurements with.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>

#include "teesim.h"

struct teesim_stats teesim_stats;
static struct dentry *stats_dir;

static const char * const call_names[TEESIM_CALL_KINDS] = {
	[TEESIM_CALL_OPEN_SESSION]	= "open_session",
	[TEESIM_CALL_CLOSE_SESSION]	= "close_session",
	[TEESIM_CALL_INVOKE]		= "invoke",
	[TEESIM_CALL_SHM_REGISTER]	= "shm_register",
	[TEESIM_CALL_SHM_UNREGISTER]	= "shm_unregister",
};

/* stats_show - every counter as "name value" */
static int stats_show(struct seq_file *m, void *unused)
{
	struct teesim_stats *s = &teesim_stats;
	s64 secure_calls = 0;
	int i;

	for (i = 0; i < TEESIM_CALL_KINDS; i++) {
		seq_printf(m, "%s %lld\n", call_names[i],
			   atomic64_read(&s->calls[i]));
		secure_calls += atomic64_read(&s->calls[i]);
	}
	/* each kind's time in the secure world, and its caller's sleep there */
	for (i = 0; i < TEESIM_CALL_KINDS; i++) {
		seq_printf(m, "%s_ns %lld\n", call_names[i],
			   atomic64_read(&s->call_ns[i]));
		seq_printf(m, "%s_asleep_ns %lld\n", call_names[i],
			   atomic64_read(&s->asleep_ns[i]));
	}
	seq_printf(m, "secure_calls %lld\n", secure_calls);
	seq_printf(m, "invoke_sm3 %lld\n", atomic64_read(&s->invoke_sm3));
	seq_printf(m, "invoke_sm4 %lld\n", atomic64_read(&s->invoke_sm4));
	seq_printf(m, "invoke_errors %lld\n", atomic64_read(&s->invoke_errors));
	seq_printf(m, "shm_pool_allocs %lld\n",
		   atomic64_read(&s->shm_pool_allocs));
	seq_printf(m, "shm_pool_frees %lld\n", atomic64_read(&s->shm_pool_frees));
	seq_printf(m, "shm_pool_bytes %lld\n", atomic64_read(&s->shm_pool_bytes));
	seq_printf(m, "thread_waits %lld\n", atomic64_read(&s->thread_waits));
	seq_printf(m, "thread_wait_ns %lld\n", atomic64_read(&s->thread_wait_ns));
	seq_printf(m, "secure_ns %lld\n", atomic64_read(&s->secure_ns));
	seq_printf(m, "bh_off_ns %lld\n", atomic64_read(&s->bh_off_ns));
	seq_printf(m, "driver_ns %lld\n", atomic64_read(&s->driver_ns));
	seq_printf(m, "sessions_open %lld\n", atomic64_read(&s->sessions_open));
	seq_printf(m, "secure_threads %u\n", teesim_params.secure_threads);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/* reset_write - "1" zeroes the counters; anything else is EINVAL */
static ssize_t reset_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct teesim_stats *s = &teesim_stats;
	unsigned int value;
	int i;

	if (kstrtouint_from_user(ubuf, count, 10, &value) || value != 1)
		return -EINVAL;
	for (i = 0; i < TEESIM_CALL_KINDS; i++) {
		atomic64_set(&s->calls[i], 0);
		atomic64_set(&s->call_ns[i], 0);
		atomic64_set(&s->asleep_ns[i], 0);
	}
	atomic64_set(&s->invoke_sm3, 0);
	atomic64_set(&s->invoke_sm4, 0);
	atomic64_set(&s->invoke_errors, 0);
	atomic64_set(&s->shm_pool_allocs, 0);
	atomic64_set(&s->shm_pool_frees, 0);
	atomic64_set(&s->shm_pool_bytes, 0);
	atomic64_set(&s->thread_waits, 0);
	atomic64_set(&s->thread_wait_ns, 0);
	atomic64_set(&s->secure_ns, 0);
	atomic64_set(&s->bh_off_ns, 0);
	atomic64_set(&s->driver_ns, 0);
	return count;
}

static const struct file_operations reset_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.write	= reset_write,
	.llseek	= noop_llseek,
};

/* teesim_stats_init - create /sys/kernel/debug/teesim/ */
int teesim_stats_init(void)
{
	stats_dir = debugfs_create_dir("teesim", NULL);
	if (IS_ERR(stats_dir))
		return PTR_ERR(stats_dir);
	debugfs_create_file("stats", 0400, stats_dir, NULL, &stats_fops);
	debugfs_create_file("reset", 0200, stats_dir, NULL, &reset_fops);
	return 0;
}

/* teesim_stats_exit - remove it */
void teesim_stats_exit(void)
{
	debugfs_remove_recursive(stats_dir);
}
