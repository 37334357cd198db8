// SPDX-License-Identifier: GPL-2.0
/*
 * window.c - what the parts of teeprobe.ko have in common: their time
 * windows, their resets and their debugfs files.
 *
 * Each part (tee.c, netrx.c, tcp.c, acceptors.c) describes itself in a
 * struct teeprobe_part and registers it once its data is allocated. One
 * delayed work closes the windows of quiet CPUs for every part and runs
 * the parts' periodic passes; a reset walks the parts; debugfs.c creates
 * the parts' files, and shows in each the lines other parts add to it.
 * The window_ms parameter lives here too.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rculist.h>
#include <linux/smp.h>
#include <linux/time64.h>
#include <linux/workqueue.h>

#include "teeprobe.h"
#include "trace.h"
#include "window.h"

#define TEEPROBE_WINDOW_MS_MIN	10
#define TEEPROBE_WINDOW_MS_MAX	60000

/*
 * The window_ms parameter's one value, kept in ns: every probe that counts
 * in a window reads it.
 */
u64 teeprobe_window_ns = 100 * NSEC_PER_MSEC;

static void windows_work_kick(void);

/* param_set_window_ms - a window length from 10 ms to 60 s */
static int param_set_window_ms(const char *val, const struct kernel_param *kp)
{
	unsigned int value;

	if (kstrtouint(val, 10, &value) || value < TEEPROBE_WINDOW_MS_MIN ||
	    value > TEEPROBE_WINDOW_MS_MAX) {
		/* a script writing in a loop must not flood the log */
		pr_err_ratelimited("window_ms: must be a number from %u to %u\n",
				   TEEPROBE_WINDOW_MS_MIN, TEEPROBE_WINDOW_MS_MAX);
		return -EINVAL;
	}
	WRITE_ONCE(teeprobe_window_ns, (u64)value * NSEC_PER_MSEC);
	windows_work_kick();
	return 0;
}

/* param_get_window_ms - the window length in ms */
static int param_get_window_ms(char *buffer, const struct kernel_param *kp)
{
	return scnprintf(buffer, PAGE_SIZE, "%llu\n",
			 div_u64(READ_ONCE(teeprobe_window_ns), NSEC_PER_MSEC));
}

static const struct kernel_param_ops window_ms_ops = {
	.set = param_set_window_ms,
	.get = param_get_window_ms,
};
module_param_cb(window_ms, &window_ms_ops, NULL, 0644);
__MODULE_PARM_TYPE(window_ms, "uint");
MODULE_PARM_DESC(window_ms, "length of the summary windows in ms, 10 to 60000 (default 100); writable at run time");

/* Incremented on every counter reset; carried by the teeprobe_reset event. */
atomic_t teeprobe_reset_generation = ATOMIC_INIT(0);

/*
 * The registered parts, in registration order; parts_lock guards changes
 * to the list, which the windows' IPIs walk under RCU.
 */
static LIST_HEAD(parts);
static DEFINE_MUTEX(parts_lock);

/*
 * A window is closed by the first event after it; a CPU that went quiet
 * would keep its last window open. This work runs just after each window
 * boundary and asks the CPUs where a part's window ended to close it
 * themselves (an IPI, so the close never races with their probes). Busy
 * CPUs have rolled on their own by then and get no IPI. The IPIs are
 * asynchronous, one request a CPU at a time (its csd here): the work never
 * waits on a CPU that keeps interrupts off (a secure-world call spinning
 * with them masked, say), and a CPU whose last request is still pending
 * gets none more: its window closes when it comes back, late, and its
 * event says by how much.
 */
static DEFINE_PER_CPU(call_single_data_t, windows_csd);
static struct delayed_work windows_work;
/* whether it runs (between init and exit), under windows_work_lock */
static DEFINE_MUTEX(windows_work_lock);
static bool windows_work_on;

/*
 * windows_flush_ended - IPI: close this CPU's windows that ended. The work
 * does not wait for it: a part unregistered meanwhile is off the list, and
 * its unregistration waited for any walk that could still see it.
 */
static void windows_flush_ended(void *unused)
{
	u64 len = teeprobe_window_len_ns();
	struct teeprobe_part *part;

	rcu_read_lock();
	list_for_each_entry_rcu(part, &parts, node)
		if (part->flush)
			part->flush(len);
	rcu_read_unlock();
}

/* windows_ended_on - whether a part's window on @cpu ended by @now */
static bool windows_ended_on(int cpu, u64 now, u64 len)
{
	struct teeprobe_part *part;

	list_for_each_entry(part, &parts, node) {
		struct teeprobe_window *src;
		struct teeprobe_window w;

		if (!part->window_of)
			continue;
		src = part->window_of(cpu);
		w.start_ns = READ_ONCE(src->start_ns);
		w.len_ns = READ_ONCE(src->len_ns);
		w.open = READ_ONCE(src->open);
		/* A hint only: the CPU checks again with interrupts off. */
		if (teeprobe_window_expired(&w, now, len))
			return true;
	}
	return false;
}

/*
 * windows_work_fn - close the windows of quiet CPUs, run the parts'
 * periodic passes, and come again just after the next boundary, an eighth
 * of a window late
 */
static void windows_work_fn(struct work_struct *work)
{
	u64 len = teeprobe_window_len_ns();
	u64 now = teeprobe_now_ns();
	struct teeprobe_part *part;
	int cpu;

	mutex_lock(&parts_lock);
	cpus_read_lock();
	for_each_online_cpu(cpu)
		if (windows_ended_on(cpu, now, len))
			/* -EBUSY: its last request is still pending */
			smp_call_function_single_async(cpu,
						       per_cpu_ptr(&windows_csd, cpu));
	cpus_read_unlock();
	list_for_each_entry(part, &parts, node)
		if (part->tick)
			part->tick(teeprobe_now_ns());
	mutex_unlock(&parts_lock);
	schedule_delayed_work(&windows_work,
			      nsecs_to_jiffies(teeprobe_window_align(now, len) +
					       len + len / 8 - now) + 1);
}

/*
 * windows_work_kick - the window length changed: the work comes now, to
 * close the windows of the old length on quiet CPUs, rather than at the
 * old length's next boundary (a minute away with 60 s windows), and goes
 * on at the new one's. It closes netrx.c's on busy CPUs too: its probes ask
 * only whether a window ended, not whether its length changed (issue 54).
 * Nothing before init (the parameter given to insmod) or after exit.
 */
static void windows_work_kick(void)
{
	mutex_lock(&windows_work_lock);
	if (windows_work_on)
		mod_delayed_work(system_wq, &windows_work, 0);
	mutex_unlock(&windows_work_lock);
}

/* part_flush_open - IPI at unregister: close the part's open window */
static void part_flush_open(void *info)
{
	const struct teeprobe_part *part = info;

	part->flush(0);	/* no window has length 0: every open one closes */
}

/*
 * teeprobe_part_register - @part's windows are flushed, its counters reset
 * and its debugfs files made from now on. Its data must be allocated.
 */
void teeprobe_part_register(struct teeprobe_part *part)
{
	mutex_lock(&parts_lock);
	list_add_tail_rcu(&part->node, &parts);
	mutex_unlock(&parts_lock);
}

/*
 * teeprobe_part_unregister - undo teeprobe_part_register. Called once the
 * part's probes are gone: nothing updates its windows any more, so the
 * open ones are closed and emitted, no data lost.
 */
void teeprobe_part_unregister(struct teeprobe_part *part)
{
	mutex_lock(&parts_lock);
	list_del_rcu(&part->node);
	mutex_unlock(&parts_lock);
	/* a windows' IPI that saw the part is done with it */
	synchronize_rcu();
	if (part->flush)
		on_each_cpu(part_flush_open, part, 1);
}

/*
 * teeprobe_parts_each_file - @fn on every registered part's files, in the
 * parts' order, until it returns an error, which this returns (0 when
 * every call did): debugfs.c makes the files, without window.c knowing how
 */
int teeprobe_parts_each_file(int (*fn)(struct teeprobe_file *file, void *arg),
			     void *arg)
{
	struct teeprobe_part *part;
	unsigned int i;
	int ret = 0;

	mutex_lock(&parts_lock);
	list_for_each_entry(part, &parts, node)
		for (i = 0; i < part->nr_files && !ret; i++)
			ret = fn(&part->files[i], arg);
	mutex_unlock(&parts_lock);
	return ret;
}

/*
 * teeprobe_parts_show_notes - the lines the parts add to file @id (the
 * acceptors' to tcp_stats, say), in the parts' order: the file's owner
 * shows them without knowing who adds them
 */
void teeprobe_parts_show_notes(struct seq_file *m, enum teeprobe_file_id id)
{
	struct teeprobe_part *part;
	unsigned int i;

	mutex_lock(&parts_lock);
	list_for_each_entry(part, &parts, node)
		for (i = 0; i < part->nr_notes; i++)
			if (part->notes[i].id == id)
				part->notes[i].show(m);
	mutex_unlock(&parts_lock);
}

struct reset_cpu_arg {
	const struct teeprobe_part *part;
	int cpu;
};

/* part_reset_cpu - a part's reset_cpu, by IPI or for an offline CPU */
static void part_reset_cpu(void *info)
{
	const struct reset_cpu_arg *arg = info;

	arg->part->reset_cpu(arg->cpu);
}

/*
 * reset_each_cpu - @part's reset_cpu for every possible CPU: on the CPU
 * itself when it is online (an IPI, so the reset never races with its
 * probes), directly when it is offline
 */
static void reset_each_cpu(const struct teeprobe_part *part)
{
	struct reset_cpu_arg arg = { .part = part };

	cpus_read_lock();
	for_each_possible_cpu(arg.cpu) {
		if (cpu_online(arg.cpu))
			smp_call_function_single(arg.cpu, part_reset_cpu, &arg, 1);
		else
			part_reset_cpu(&arg);
	}
	cpus_read_unlock();
}

/*
 * teeprobe_reset_all - zero every counter and histogram, then say so.
 * Windows are a stream and go on undisturbed.
 */
void teeprobe_reset_all(void)
{
	struct teeprobe_part *part;
	unsigned int generation;

	mutex_lock(&parts_lock);
	list_for_each_entry(part, &parts, node) {
		if (part->reset_cpu)
			reset_each_cpu(part);
		if (part->reset)
			part->reset();
	}
	mutex_unlock(&parts_lock);
	generation = atomic_inc_return(&teeprobe_reset_generation);
	trace_teeprobe_reset(generation);
}

/* teeprobe_window_init - start the windows' work, before any part */
int teeprobe_window_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		call_single_data_t *csd = per_cpu_ptr(&windows_csd, cpu);

		/* by its fields: 5.10's csd has no INIT_CSD() */
		csd->func = windows_flush_ended;
		csd->info = NULL;
	}
	INIT_DELAYED_WORK(&windows_work, windows_work_fn);
	mutex_lock(&windows_work_lock);
	windows_work_on = true;
	schedule_delayed_work(&windows_work,
			      nsecs_to_jiffies(teeprobe_window_len_ns()));
	mutex_unlock(&windows_work_lock);
	return 0;
}

/* teeprobe_window_exit - stop it, after every part has unregistered */
void teeprobe_window_exit(void)
{
	mutex_lock(&windows_work_lock);
	windows_work_on = false;	/* no kick queues it again */
	mutex_unlock(&windows_work_lock);
	cancel_delayed_work_sync(&windows_work);
	/*
	 * The IPIs it sent may still be queued: every CPU runs its queue in
	 * order, so once each has run an IPI sent after them, none of ours
	 * is left to run module code that is about to go
	 */
	kick_all_cpus_sync();
}
