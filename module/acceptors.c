// SPDX-License-Identifier: GPL-2.0
/*
 * acceptors.c - what the threads that accept connections are doing.
 *
 * A connection that waits in a listener's accept queue waits for one of
 * the threads that take connections from it. Which link of the chain made
 * it wait depends on what those threads did meanwhile: sat in TEE calls,
 * waited for a CPU, ran the application's own code, or slept waiting for
 * work (then the queue was not the bottleneck). tcp_server.c marks every
 * thread it sees in accept(); a sched:sched_switch and a sched:sched_wakeup
 * probe report their state changes as teeprobe_acceptor_state events, and
 * "teeprobe analyze" lays them over each connection's wait, beside the TEE
 * ioctl events of the same threads. The probes are attached while the
 * event is enabled, and only then: every context switch of the host would
 * pay for them otherwise. A tracepoint's register function runs under the
 * tracepoints' own lock, where no other tracepoint can be registered: a
 * work item attaches and detaches them.
 *
 * The marks are a bounded open-addressing set of thread ids, written with
 * cmpxchg and never taken out but by a reset or at unload (a thread id
 * reused by another thread keeps the mark: its events are only read for
 * threads that accept in the session).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "compat.h"
#include "teeprobe.h"
#include "trace.h"

#define TEEPROBE_ACCEPTORS_BITS	8
#define TEEPROBE_ACCEPTORS		(1U << TEEPROBE_ACCEPTORS_BITS)

static pid_t acceptor_tids[TEEPROBE_ACCEPTORS];
static atomic_t acceptors_marked;
static atomic_long_t acceptors_overflow;

/* acceptor_is - whether @tid is marked (a lock-free read) */
static bool acceptor_is(pid_t tid)
{
	unsigned int i, h = hash_32(tid, TEEPROBE_ACCEPTORS_BITS);
	pid_t t;

	for (i = 0; i < TEEPROBE_ACCEPTORS; i++) {
		t = READ_ONCE(acceptor_tids[(h + i) & (TEEPROBE_ACCEPTORS - 1)]);
		if (t == tid)
			return true;
		if (!t)
			return false;
	}
	return false;
}
NOKPROBE_SYMBOL(acceptor_is);

/* teeprobe_acceptor_mark - @task took a connection from an accept queue */
void teeprobe_acceptor_mark(struct task_struct *task)
{
	pid_t tid = task->pid, old;
	unsigned int i, h = hash_32(tid, TEEPROBE_ACCEPTORS_BITS);

	if (!tid)
		return;
	for (i = 0; i < TEEPROBE_ACCEPTORS; i++) {
		pid_t *slot = &acceptor_tids[(h + i) & (TEEPROBE_ACCEPTORS - 1)];

		old = READ_ONCE(*slot);
		if (old == tid)
			return;
		if (old)
			continue;
		old = cmpxchg(slot, 0, tid);
		if (old && old != tid)
			continue;
		if (!old) {
			atomic_inc(&acceptors_marked);
			/* It runs now: where its events start. */
			trace_teeprobe_acceptor_state(tid, TEEPROBE_ACCEPTOR_RUNNING);
		}
		return;
	}
	atomic_long_inc(&acceptors_overflow);
}
NOKPROBE_SYMBOL(teeprobe_acceptor_mark);

/* teeprobe_acceptor_switch - a marked thread leaves or takes a CPU */
static void teeprobe_acceptor_switch(TEEPROBE_SCHED_SWITCH_PROTO)
{
	if (acceptor_is(prev->pid))
		/* Preempted, or still runnable: it wants the CPU back. */
		trace_teeprobe_acceptor_state(prev->pid,
			preempt || TEEPROBE_SCHED_PREV_STATE == TASK_RUNNING ?
			TEEPROBE_ACCEPTOR_RUNNABLE : TEEPROBE_ACCEPTOR_ASLEEP);
	if (acceptor_is(next->pid))
		trace_teeprobe_acceptor_state(next->pid, TEEPROBE_ACCEPTOR_RUNNING);
}

/* teeprobe_acceptor_wakeup - a marked thread was woken: it waits for a CPU */
static void teeprobe_acceptor_wakeup(TEEPROBE_SCHED_WAKEUP_PROTO)
{
	if (acceptor_is(p->pid))
		trace_teeprobe_acceptor_state(p->pid, TEEPROBE_ACCEPTOR_RUNNABLE);
}

static struct teeprobe_hook acceptor_hooks[] = {
	{ .name = "sched_switch", .probe = teeprobe_acceptor_switch },
	{ .name = "sched_wakeup", .probe = teeprobe_acceptor_wakeup },
};

static DEFINE_MUTEX(hooks_lock);
static bool hooks_attached, hooks_closing;
static atomic_t event_users;	/* the event is enabled (0 or 1) */

/* hooks_sync - attach the scheduler probes while the event is enabled */
static void hooks_sync(struct work_struct *work)
{
	bool want;

	mutex_lock(&hooks_lock);
	want = atomic_read(&event_users) > 0 && !hooks_closing;
	if (want && !hooks_attached) {
		hooks_attached = !teeprobe_hooks_attach("acceptors", acceptor_hooks,
							ARRAY_SIZE(acceptor_hooks));
	} else if (!want && hooks_attached) {
		teeprobe_hooks_detach(acceptor_hooks, ARRAY_SIZE(acceptor_hooks));
		tracepoint_synchronize_unregister();
		hooks_attached = false;
	}
	mutex_unlock(&hooks_lock);
}

static DECLARE_WORK(hooks_work, hooks_sync);

/*
 * teeprobe_acceptors_event_reg - teeprobe_acceptor_state is enabled: the
 * module stays while it is (as for every teeprobe event), and the probes
 * are attached
 */
int teeprobe_acceptors_event_reg(void)
{
	int ret = teeprobe_event_reg();

	if (ret)
		return ret;
	atomic_inc(&event_users);
	schedule_work(&hooks_work);
	return 0;
}

/* teeprobe_acceptors_event_unreg - it is disabled: the probes go */
void teeprobe_acceptors_event_unreg(void)
{
	atomic_dec(&event_users);
	schedule_work(&hooks_work);
	teeprobe_event_unreg();
}

/* acceptors_reset - forget the marks (threads are marked again) */
static void acceptors_reset(void)
{
	unsigned int i;

	for (i = 0; i < TEEPROBE_ACCEPTORS; i++)
		WRITE_ONCE(acceptor_tids[i], 0);
	atomic_set(&acceptors_marked, 0);
	atomic_long_set(&acceptors_overflow, 0);
}

/* acceptors_show - the "# acceptors*" lines the part adds to tcp_stats */
static void acceptors_show(struct seq_file *m)
{
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_ACCEPTORS,
			     atomic_read(&acceptors_marked));
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_ACCEPTORS_MAX, TEEPROBE_ACCEPTORS);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_ACCEPTORS_OVERFLOW,
			     atomic_long_read(&acceptors_overflow));
}

static struct teeprobe_file acceptors_notes[] = {
	{ .id = TEEPROBE_FILE_TCP_STATS, .show = acceptors_show },
};

static struct teeprobe_part acceptors_part = {
	.name = "acceptors",
	.reset = acceptors_reset,
	.notes = acceptors_notes,
	.nr_notes = ARRAY_SIZE(acceptors_notes),
};

/* teeprobe_acceptors_init - nothing to attach until the event is enabled */
int teeprobe_acceptors_init(void)
{
	hooks_closing = false;
	teeprobe_part_register(&acceptors_part);
	return 0;
}

/* teeprobe_acceptors_exit - the probes gone, and no work left behind */
void teeprobe_acceptors_exit(void)
{
	teeprobe_part_unregister(&acceptors_part);
	mutex_lock(&hooks_lock);
	hooks_closing = true;
	mutex_unlock(&hooks_lock);
	cancel_work_sync(&hooks_work);
	hooks_sync(NULL);
}
