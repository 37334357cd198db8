// SPDX-License-Identifier: GPL-2.0
/*
 * tee_calls.c - the TEE calls in flight: which processes are followed (the
 * pid filter), the table of calls their threads are in, the TEE clock of
 * each CPU, the sched_switch probe that charges switched-out time to a
 * call, and the kretprobes' handlers, which end a call in tee_stats.c's
 * counters.
 *
 * A call's entry in the table is taken from a pool allocated at load; when
 * every slot is taken a call is timed without its off-CPU split (counted
 * as untracked) and nothing is allocated.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/vmalloc.h>

#include "offcpu.h"
#include "tee_part.h"
#include "trace.h"

#define TEEPROBE_CALL_BUCKETS		256

struct teeprobe_call {
	struct hlist_node node;
	struct task_struct *task;
	u64 start_ns;
	u64 queue_wait_ns;
	u64 secure_ns;		/* in the secure world (TEEPROBE_ROLE_SECURE) */
	u64 secure_entries;
	u64 wait_mark_ns;	/* a WAIT_BEFORE wait started then, or 0 */
	u64 blocked_base_ns;	/* off.off_ns at a WAIT_BLOCKED entry */
	u64 wait_base_ns;	/* queue_wait_ns then */
	struct teeprobe_offcpu off;
};

static struct {
	raw_spinlock_t lock;
	struct hlist_head head;
} call_hash[TEEPROBE_CALL_BUCKETS];

static struct teeprobe_call *call_pool;
static unsigned long *call_used;
static unsigned int call_pool_size;
static atomic_t calls_in_flight = ATOMIC_INIT(0);

/* ---- pid filter ---------------------------------------------------------- */

static pid_t pid_filter[TEEPROBE_MAX_PIDS];
static unsigned int pid_filter_count;
static DEFINE_MUTEX(pid_filter_lock);

/* pid_allowed - is the current process traced? */
static bool pid_allowed(void)
{
	/* Pairs with the release in teeprobe_tee_set_pids(): the first n
	 * entries are written before n is published.
	 */
	unsigned int i, n = smp_load_acquire(&pid_filter_count);

	if (!n)
		return true;
	for (i = 0; i < n; i++)
		if (READ_ONCE(pid_filter[i]) == current->tgid)
			return true;
	return false;
}

/*
 * teeprobe_tee_parse_pids - the pid_filter file's input: "PID [PID...]"
 * (at most TEEPROBE_MAX_PIDS, spaces or tabs between them) into @pids and
 * *@n, or "0" alone for every process (*@n = 0). -EINVAL for anything
 * else: an empty list, a negative or too large pid, a 0 among others.
 * @buf is modified.
 */
int teeprobe_tee_parse_pids(char *buf, pid_t *pids, unsigned int *n)
{
	char *cur = strim(buf), *tok;
	int value;

	*n = 0;
	if (!*cur)
		return -EINVAL;
	while ((tok = strsep(&cur, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (kstrtoint(tok, 10, &value) || value < 0 ||
		    value >= PID_MAX_LIMIT || *n >= TEEPROBE_MAX_PIDS)
			return -EINVAL;
		if (value == 0) {
			if (*n || (cur && *skip_spaces(cur)))
				return -EINVAL;	/* "0" stands alone */
			break;
		}
		pids[(*n)++] = value;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(teeprobe_tee_parse_pids);

/* teeprobe_tee_set_pids - replace the filter; 0 pids means trace everyone */
void teeprobe_tee_set_pids(const pid_t *pids, unsigned int n)
{
	unsigned int i;

	mutex_lock(&pid_filter_lock);
	/* Hide the entries while they change, then publish them (the
	 * acquire in pid_allowed() pairs with both releases).
	 */
	smp_store_release(&pid_filter_count, 0);
	for (i = 0; i < n; i++)
		WRITE_ONCE(pid_filter[i], pids[i]);
	/* the entries before the count that makes them visible */
	smp_store_release(&pid_filter_count, n);
	mutex_unlock(&pid_filter_lock);
}

/* teeprobe_tee_show_pids - the filter, space-separated, or "all" */
void teeprobe_tee_show_pids(struct seq_file *m)
{
	unsigned int i, n;

	mutex_lock(&pid_filter_lock);
	n = pid_filter_count;
	if (!n)
		seq_puts(m, "all");
	for (i = 0; i < n; i++)
		seq_printf(m, "%s%d", i ? " " : "", pid_filter[i]);
	seq_putc(m, '\n');
	mutex_unlock(&pid_filter_lock);
}

/* ---- the call table ------------------------------------------------------- */

/* call_bucket - the hash bucket of @task */
static unsigned int call_bucket(struct task_struct *task)
{
	return hash_ptr(task, ilog2(TEEPROBE_CALL_BUCKETS));
}

/* call_start - take a free call slot for current, or NULL if all are used */
static struct teeprobe_call *call_start(u64 now)
{
	unsigned int i, b;
	struct teeprobe_call *call;
	unsigned long flags;

	do {
		i = find_first_zero_bit(call_used, call_pool_size);
		if (i >= call_pool_size)
			return NULL;
	} while (test_and_set_bit(i, call_used));

	call = &call_pool[i];
	call->task = current;
	call->start_ns = now;
	call->queue_wait_ns = 0;
	call->secure_ns = 0;
	call->secure_entries = 0;
	call->wait_mark_ns = 0;
	call->blocked_base_ns = 0;
	call->wait_base_ns = 0;
	memset(&call->off, 0, sizeof(call->off));
	b = call_bucket(current);
	/* From an int3-based probe (NMI, see teeprobe_now_ns()) only a
	 * trylock is safe; a call it cannot enter goes untracked.
	 */
	if (!in_nmi()) {
		raw_spin_lock_irqsave(&call_hash[b].lock, flags);
	} else if (!raw_spin_trylock_irqsave(&call_hash[b].lock, flags)) {
		clear_bit(i, call_used);
		return NULL;
	}
	hlist_add_head(&call->node, &call_hash[b].head);
	raw_spin_unlock_irqrestore(&call_hash[b].lock, flags);
	atomic_inc(&calls_in_flight);
	return call;
}

/* inst_call - the call @inst follows, or NULL */
static struct teeprobe_call *inst_call(const struct teeprobe_instance *inst)
{
	return inst->call ? &call_pool[inst->call - 1] : NULL;
}

/* call_end - take @call out of the table and free its slot */
static void call_end(struct teeprobe_call *call)
{
	unsigned int b = call_bucket(call->task);
	unsigned long flags;

	raw_spin_lock_irqsave(&call_hash[b].lock, flags);
	hlist_del(&call->node);
	raw_spin_unlock_irqrestore(&call_hash[b].lock, flags);
	atomic_dec(&calls_in_flight);
	clear_bit(call - call_pool, call_used);
}

/*
 * call_find_locked - the call @task is in; caller holds its bucket lock.
 * A thread is in at most one TEE ioctl at a time.
 */
static struct teeprobe_call *call_find_locked(unsigned int b, struct task_struct *task)
{
	struct teeprobe_call *call;

	hlist_for_each_entry(call, &call_hash[b].head, node)
		if (call->task == task)
			return call;
	return NULL;
}

/*
 * The TEE clock of each CPU: how long threads inside TEE calls have run on
 * it. A NET_RX raised on a CPU waits while such a thread holds it (spinning
 * in the secure world with bottom halves off, or just not preempted); the
 * NET_RX probes read the clock at the raise and at the run, and charge the
 * difference to the TEE. Updated only on its own CPU with interrupts off.
 */
DEFINE_PER_CPU(struct teeprobe_tee_clock, teeprobe_tee_clock);

/* tee_clock_start - a thread in a TEE call starts running on this CPU */
static void tee_clock_start(u64 now)
{
	struct teeprobe_tee_clock *c = this_cpu_ptr(&teeprobe_tee_clock);

	if (c->since_ns)	/* a stop we did not see */
		c->total_ns += teeprobe_ns_delta(c->since_ns, now);
	c->since_ns = now ? now : 1;
}

/* tee_clock_stop - it stops running here (switched out, or the call ended) */
static void tee_clock_stop(u64 now)
{
	struct teeprobe_tee_clock *c = this_cpu_ptr(&teeprobe_tee_clock);

	if (c->since_ns)
		c->total_ns += teeprobe_ns_delta(c->since_ns, now);
	c->since_ns = 0;
}

/* teeprobe_tee_sched_switch - charge switched-out time to the calls in flight */
void teeprobe_tee_sched_switch(TEEPROBE_SCHED_SWITCH_PROTO)
{
	struct teeprobe_call *call;
	unsigned int b;
	u64 now;

	if (!atomic_read(&calls_in_flight))
		return;
	now = teeprobe_now_ns();
	b = call_bucket(prev);
	raw_spin_lock(&call_hash[b].lock);
	call = call_find_locked(b, prev);
	/* Blocked: it went to sleep; otherwise it was preempted. */
	if (call) {
		teeprobe_offcpu_out(&call->off, now,
				    !preempt && TEEPROBE_SCHED_PREV_STATE != TASK_RUNNING);
		tee_clock_stop(now);
	}
	raw_spin_unlock(&call_hash[b].lock);

	b = call_bucket(next);
	raw_spin_lock(&call_hash[b].lock);
	call = call_find_locked(b, next);
	if (call) {
		teeprobe_offcpu_in(&call->off, now);
		tee_clock_start(now);
	}
	raw_spin_unlock(&call_hash[b].lock);
}

/* ---- kretprobe handlers -------------------------------------------------- */

/* probe_of - the TEE probe whose kretprobe instance @ri is */
static __always_inline struct teeprobe_tee_probe *
probe_of(struct kretprobe_instance *ri)
{
	return container_of(teeprobe_kretprobe_of(ri), struct teeprobe_tee_probe,
			    kp.rp);
}

/* teeprobe_tee_ioctl_entry - a thread enters the driver's ioctl */
int teeprobe_tee_ioctl_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_instance *inst = (struct teeprobe_instance *)ri->data;
	struct teeprobe_call *call;
	u64 now;

	if (!pid_allowed())
		return 1;	/* not followed: no return handler */
	inst->raw_cmd = (u32)regs_get_kernel_argument(regs, 1);
	if (!teeprobe_tee_agents &&
	    teeprobe_tee_decode(inst->raw_cmd) == TEEPROBE_TZ_WAIT_EVENT)
		return 1;	/* an agent waiting for work, not a caller */
	now = teeprobe_now_ns();
	inst->start_ns = now;
	call = call_start(now);
	inst->call = call ? call - call_pool + 1 : 0;
	if (call) {
		unsigned long flags;

		local_irq_save(flags);
		tee_clock_start(now);
		local_irq_restore(flags);
	}
	trace_teeprobe_tee_ioctl_enter(teeprobe_tee_decode(inst->raw_cmd),
				       inst->raw_cmd);
	return 0;
}
NOKPROBE_SYMBOL(teeprobe_tee_ioctl_entry);

/* teeprobe_tee_ioctl_return - the call ends: account it on this CPU */
int teeprobe_tee_ioctl_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_instance *inst = (struct teeprobe_instance *)ri->data;
	enum teeprobe_tee_cmd cmd = teeprobe_tee_decode(inst->raw_cmd);
	long ret = (long)regs_return_value(regs);
	u64 now = teeprobe_now_ns();
	struct teeprobe_tee_call_times t = {
		.duration_ns = teeprobe_ns_delta(inst->start_ns, now),
	};
	struct teeprobe_call *call = inst_call(inst);

	teeprobe_tee_step_account(probe_of(ri), t.duration_ns);
	if (call) {
		/* The call's entry is still in the table: sched_switch may
		 * touch it until call_end(), so read it under its lock.
		 */
		unsigned int b = call_bucket(call->task);
		unsigned long flags;

		raw_spin_lock_irqsave(&call_hash[b].lock, flags);
		teeprobe_offcpu_end(&call->off, now);
		t.offcpu_ns = min(call->off.off_ns, t.duration_ns);
		t.runq_ns = min(call->off.runq_ns, t.duration_ns - t.offcpu_ns);
		t.queue_wait_ns = min(call->queue_wait_ns, t.duration_ns);
		/*
		 * Apart from the waits for a secure thread, which come before
		 * an entry. Not bounded by the on-CPU time: an entry's caller
		 * may sleep while the secure side works elsewhere (teesim's
		 * invoke_us, a driver that hands its SMCs to a thread).
		 */
		t.secure_ns = min(call->secure_ns,
				  t.duration_ns - t.queue_wait_ns);
		t.secure_entries = call->secure_entries;
		raw_spin_unlock_irqrestore(&call_hash[b].lock, flags);
		call_end(call);
		local_irq_save(flags);
		tee_clock_stop(now);
		local_irq_restore(flags);
	}
	teeprobe_tee_account(cmd, ret, call != NULL, &t);
	trace_teeprobe_tee_ioctl_exit(cmd, t.duration_ns, t.offcpu_ns,
				      t.runq_ns, t.queue_wait_ns, t.secure_ns,
				      ret);
	return 0;
}
NOKPROBE_SYMBOL(teeprobe_tee_ioctl_return);

/*
 * teeprobe_tee_timed_entry - a wait or step function is entered. A
 * WAIT_BEFORE function marks the start of its wait in the call, a
 * WAIT_BLOCKED one what the call has slept and waited so far; a wait_end
 * step charges the marked wait to the WAIT_BEFORE probe and to the call.
 */
int teeprobe_tee_timed_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_instance *inst = (struct teeprobe_instance *)ri->data;
	struct teeprobe_tee_probe *p = probe_of(ri);
	struct teeprobe_call *call;
	unsigned long flags;
	unsigned int b;
	u64 waited = 0;

	if (!pid_allowed())
		return 1;
	inst->start_ns = teeprobe_now_ns();
	if ((p->role != TEEPROBE_ROLE_WAIT_BEFORE &&
	     p->role != TEEPROBE_ROLE_WAIT_BLOCKED && !p->wait_end) ||
	    !atomic_read(&calls_in_flight))
		return 0;
	b = call_bucket(current);
	/* (an int3-based probe runs as an NMI: only a trylock there) */
	if (!in_nmi())
		raw_spin_lock_irqsave(&call_hash[b].lock, flags);
	else if (!raw_spin_trylock_irqsave(&call_hash[b].lock, flags))
		return 0;
	call = call_find_locked(b, current);
	if (call && p->role == TEEPROBE_ROLE_WAIT_BEFORE) {
		call->wait_mark_ns = inst->start_ns ?: 1;
	} else if (call && p->role == TEEPROBE_ROLE_WAIT_BLOCKED) {
		call->blocked_base_ns = call->off.off_ns;
		call->wait_base_ns = call->queue_wait_ns;
	} else if (call && call->wait_mark_ns) {
		waited = teeprobe_ns_delta(call->wait_mark_ns, inst->start_ns);
		call->wait_mark_ns = 0;
		call->queue_wait_ns += waited;
	}
	raw_spin_unlock_irqrestore(&call_hash[b].lock, flags);
	if (call && p->wait_end && teeprobe_tee_wait_before)
		teeprobe_tee_step_account(teeprobe_tee_wait_before, waited);
	return 0;
}
NOKPROBE_SYMBOL(teeprobe_tee_timed_entry);

/*
 * teeprobe_tee_timed_return - count the step; a wait, or an entry into
 * the secure world, is also charged to the call. A WAIT_BEFORE wait is
 * counted where it ends (teeprobe_tee_timed_entry), a WAIT_BLOCKED one as
 * the time slept in it less the waits counted inside.
 */
int teeprobe_tee_timed_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_instance *inst = (struct teeprobe_instance *)ri->data;
	struct teeprobe_tee_probe *p = probe_of(ri);
	u64 elapsed = teeprobe_ns_delta(inst->start_ns, teeprobe_now_ns());
	u64 blocked = 0, nested = 0;
	struct teeprobe_call *call;
	unsigned long flags;
	unsigned int b;

	if (p->role != TEEPROBE_ROLE_WAIT_BEFORE &&
	    p->role != TEEPROBE_ROLE_WAIT_BLOCKED)
		teeprobe_tee_step_account(p, elapsed);
	if (p->role == TEEPROBE_ROLE_STEP || !atomic_read(&calls_in_flight))
		return 0;
	b = call_bucket(current);
	raw_spin_lock_irqsave(&call_hash[b].lock, flags);
	call = call_find_locked(b, current);
	if (call && p->role == TEEPROBE_ROLE_WAIT) {
		call->queue_wait_ns += elapsed;
	} else if (call && p->role == TEEPROBE_ROLE_WAIT_BEFORE) {
		call->wait_mark_ns = 0;	/* its wait_end step never came */
	} else if (call && p->role == TEEPROBE_ROLE_WAIT_BLOCKED) {
		blocked = call->off.off_ns - call->blocked_base_ns;
		nested = call->queue_wait_ns - call->wait_base_ns;
		blocked = blocked > nested ? blocked - nested : 0;
		call->queue_wait_ns += blocked;
	} else if (call) {
		call->secure_ns += elapsed;
		call->secure_entries++;
	}
	raw_spin_unlock_irqrestore(&call_hash[b].lock, flags);
	if (call && p->role == TEEPROBE_ROLE_WAIT_BLOCKED)
		teeprobe_tee_step_account(p, blocked);
	return 0;
}
NOKPROBE_SYMBOL(teeprobe_tee_timed_return);

/* ---- allocation ---------------------------------------------------------- */

/*
 * teeprobe_tee_calls_alloc - the table of calls in flight, @size calls at
 * once (one per kretprobe instance)
 */
int teeprobe_tee_calls_alloc(unsigned int size)
{
	unsigned int i;

	for (i = 0; i < TEEPROBE_CALL_BUCKETS; i++) {
		raw_spin_lock_init(&call_hash[i].lock);
		INIT_HLIST_HEAD(&call_hash[i].head);
	}
	call_pool_size = size;
	/* vmalloc: whole pages, where kmalloc would round up to a power of 2 */
	call_pool = vcalloc(call_pool_size, sizeof(*call_pool));
	call_used = bitmap_zalloc(call_pool_size, GFP_KERNEL);
	if (!call_pool || !call_used) {
		pr_err("tee: cannot allocate the table of calls in flight (%u calls)\n",
		       call_pool_size);
		return -ENOMEM;
	}
	return 0;
}

/* teeprobe_tee_calls_free - free the table, once no handler runs */
void teeprobe_tee_calls_free(void)
{
	bitmap_free(call_used);
	call_used = NULL;
	vfree(call_pool);
	call_pool = NULL;
}
