// SPDX-License-Identifier: GPL-2.0
/*
 * tee.c - the first link of the chain: time spent in the TEE driver's ioctl,
 * per command, split into on-CPU, off-CPU and waiting for a secure thread.
 *
 * A kretprobe on the driver's ioctl entry (tee_ioctl for the mainline TEE
 * core, tc_client_ioctl for iTrustee's tzdriver, or a named symbol) times
 * each call and decodes its command. While a call is in flight its thread is
 * in a bounded hash table; a sched:sched_switch probe charges the time the
 * thread is switched out to the call. Kretprobes on the driver's "waiting
 * for the TEE" functions add the time spent there, and on its shared-memory
 * paths time those steps. Probes on symbols of a module that is not loaded
 * yet attach when it loads (module notifier) and detach when it goes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/ctype.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/threads.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "hist.h"
#include "offcpu.h"
#include "tee_cmd.h"
#include "teeprobe.h"
#include "trace.h"

/* ---- parameters ------------------------------------------------------ */

/* the tzdriver preset's fifteen probes and up to ten of wait_symbols */
#define TEEPROBE_MAX_PROBES		25
#define TEEPROBE_MAX_WAIT_SYMBOLS	10
#define TEEPROBE_MAX_MAXACTIVE	4096
#define TEEPROBE_THREADS		256
#define TEEPROBE_CALL_BUCKETS		256

static char preset[16] = "tee";
static char wait_symbols[256];
static unsigned int maxactive;

/*
 * teeprobe_symbol_list_valid - comma-separated C identifiers, at most
 * @max_items, none listed twice
 */
VISIBLE_IF_KUNIT bool teeprobe_symbol_list_valid(const char *s,
						 unsigned int max_items)
{
	unsigned int items = 0, len = 0, i;
	const char *start[TEEPROBE_MAX_PROBES + 1], *p = s;
	size_t size[TEEPROBE_MAX_PROBES + 1];

	for (; *p && *p != '\n'; p++) {
		if (*p == ',') {
			if (!len)
				return false;
			len = 0;
			continue;
		}
		if (!isalnum(*p) && *p != '_' && *p != '.')
			return false;
		if (!len++) {
			if (items == max_items || items > TEEPROBE_MAX_PROBES)
				return false;
			start[items++] = p;
		}
		size[items - 1] = len;
		if (len >= KSYM_NAME_LEN)
			return false;
	}
	if (items && !len)
		return false;
	for (i = 0; i < items; i++) {
		unsigned int j;

		for (j = 0; j < i; j++)
			if (size[i] == size[j] && !memcmp(start[i], start[j], size[i]))
				return false;
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(teeprobe_symbol_list_valid);

/* param_set_preset - one of tee, tzdriver, custom */
static int param_set_preset(const char *val, const struct kernel_param *kp)
{
	if (sysfs_streq(val, "tee") || sysfs_streq(val, "tzdriver") ||
	    sysfs_streq(val, "custom"))
		return param_set_copystring(val, kp);
	pr_err("preset=%s: must be tee, tzdriver or custom\n", val);
	return -EINVAL;
}

/* param_set_symbols - a symbol name (or a list of them), checked */
static char ioctl_symbol[KSYM_NAME_LEN];
static int param_set_symbols(const char *val, const struct kernel_param *kp)
{
	unsigned int max = kp->str->string == ioctl_symbol ? 1 : TEEPROBE_MAX_WAIT_SYMBOLS;

	if (!teeprobe_symbol_list_valid(val, max)) {
		if (max == 1)
			pr_err("%s: must be one C symbol name\n", kp->name);
		else
			pr_err("%s: must be up to %u comma-separated C symbol names, none twice\n",
			       kp->name, max);
		return -EINVAL;
	}
	return param_set_copystring(val, kp);
}

/* param_set_maxactive - 0 (automatic) or 1..TEEPROBE_MAX_MAXACTIVE */
static int param_set_maxactive(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v > TEEPROBE_MAX_MAXACTIVE) {
		pr_err("maxactive=%s: must be a number from 0 to %d\n", val,
		       TEEPROBE_MAX_MAXACTIVE);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops preset_ops = {
	.set = param_set_preset,
	.get = param_get_string,
};
static const struct kernel_param_ops symbols_ops = {
	.set = param_set_symbols,
	.get = param_get_string,
};
static const struct kernel_param_ops maxactive_ops = {
	.set = param_set_maxactive,
	.get = param_get_uint,
};

static struct kparam_string preset_str = {
	.maxlen = sizeof(preset), .string = preset };
static struct kparam_string ioctl_symbol_str = {
	.maxlen = sizeof(ioctl_symbol), .string = ioctl_symbol };
static struct kparam_string wait_symbols_str = {
	.maxlen = sizeof(wait_symbols), .string = wait_symbols };

/*
 * The _cb parameters carry no type for modinfo by themselves;
 * __MODULE_PARM_TYPE adds it, as module_param() does for the plain ones.
 */
module_param_cb(preset, &preset_ops, &preset_str, 0444);
__MODULE_PARM_TYPE(preset, "string");
MODULE_PARM_DESC(preset, "TEE driver to probe: tee (mainline TEE core: OP-TEE, AMD-TEE), tzdriver (iTrustee) or custom (default tee)");
module_param_cb(ioctl_symbol, &symbols_ops, &ioctl_symbol_str, 0444);
__MODULE_PARM_TYPE(ioctl_symbol, "string");
MODULE_PARM_DESC(ioctl_symbol, "the driver's ioctl entry symbol, replacing the preset's; needed by preset=custom (default: the preset's, tee_ioctl or tc_client_ioctl)");
module_param_cb(wait_symbols, &symbols_ops, &wait_symbols_str, 0444);
__MODULE_PARM_TYPE(wait_symbols, "string");
MODULE_PARM_DESC(wait_symbols, "up to 10 comma-separated symbols where callers wait for the TEE, added to the preset's (default none)");
module_param_cb(maxactive, &maxactive_ops, &maxactive, 0444);
__MODULE_PARM_TYPE(maxactive, "uint");
MODULE_PARM_DESC(maxactive, "calls each kretprobe can follow at once, 0 to 4096; 0 = max(256, 16 per CPU) (default 0)");

static bool agents;
module_param(agents, bool, 0444);
MODULE_PARM_DESC(agents, "follow tzdriver's TZ_WAIT_EVENT ioctls too: teecd's agents wait in them for the secure world's requests, for ever (default no: they are no caller's blocking)");

static int pid_param[TEEPROBE_MAX_PIDS];
static unsigned int nr_pid_param;
module_param_array_named(pid, pid_param, int, &nr_pid_param, 0444);
MODULE_PARM_DESC(pid, "follow only the TEE calls of these processes, up to 8 comma-separated pids (default: every process)");

/* ---- probes -------------------------------------------------------- */

enum teeprobe_role {
	TEEPROBE_ROLE_IOCTL,	/* the ioctl entry: one call per hit */
	TEEPROBE_ROLE_WAIT,	/* waiting for the TEE: charged to the current call */
	TEEPROBE_ROLE_STEP,	/* a timed step (shared memory set-up or release) */
	/*
	 * one entry into the secure world (an SMC): timed, and charged to the
	 * current call as secure time
	 */
	TEEPROBE_ROLE_SECURE,
	/*
	 * a wait with no function of its own, before the preset's wait_end
	 * step starts: from this function's entry to that step's entry
	 * (tzdriver: tc_ns_send_cmd's session lock, before tc_client_call)
	 */
	TEEPROBE_ROLE_WAIT_BEFORE,
	/*
	 * a wait inlined into this function: the time the caller sleeps in
	 * it, less the waits of the preset's own functions inside it
	 * (tzdriver: proc_ta_pending, inlined into smp_smc_send_func)
	 */
	TEEPROBE_ROLE_WAIT_BLOCKED,
};

enum teeprobe_state {
	TEEPROBE_WAITING,	/* symbol not found yet: tried again on module load */
	TEEPROBE_ATTACHED,
	TEEPROBE_FAILED,	/* found but cannot be probed */
	/*
	 * not in the version of the driver that is loaded: an optional
	 * symbol its ioctl's module lacks, or one of a group whose earlier
	 * member is attached
	 */
	TEEPROBE_ABSENT,
};

struct teeprobe_step_stats {
	u64 calls;
	u64 total_ns;
	u64 max_ns;
};

struct teeprobe_probe {
	char symbol[KSYM_NAME_LEN];
	char resolved[KSYM_NAME_LEN];	/* with a compiler clone's suffix */
	enum teeprobe_role role;
	enum teeprobe_state state;
	int error;
	bool optional;		/* not in every version of the driver */
	bool wait_end;		/* a step whose entry ends the WAIT_BEFORE wait */
	unsigned int group;	/* 0, or alternatives: the first found is used */
	struct kretprobe rp;
	struct teeprobe_step_stats __percpu *stats;
};

/*
 * What a kretprobe instance keeps between entry and return. 16 bytes: with
 * the kernel's 48-byte instance header each of the maxactive instances of
 * every probe fits a 64-byte slab object (a pointer here made it 96).
 */
struct teeprobe_instance {
	u64 start_ns;
	u32 raw_cmd;
	u32 call;	/* 1 + the call's slot in call_pool; 0: not tracked */
};

static struct teeprobe_probe probes[TEEPROBE_MAX_PROBES];
static unsigned int nr_probes;
static DEFINE_MUTEX(probes_lock);	/* attach/detach, module notifier */

/* ---- calls in flight -------------------------------------------------- */

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

/* ---- statistics --------------------------------------------------------- */

struct teeprobe_cmd_stats {
	u64 calls;
	u64 errors;
	u64 total_ns;
	u64 offcpu_ns;		/* blocked */
	u64 runq_ns;		/* preempted, waiting for a CPU */
	u64 queue_wait_ns;
	u64 secure_entries;	/* entries into the secure world */
	u64 secure_ns;		/* time there, a part of the on-CPU time */
	struct teeprobe_hist latency;
};

/*
 * Allocated at init, not DEFINE_PER_CPU: a module's static per-CPU data
 * comes out of the kernel's small reserve for all modules (8 KiB on
 * arm64, where OP-TEE's driver takes some too). A command's statistics on
 * each CPU are a block of their own (2 KiB, most of it the histogram),
 * kept for the preset's driver's commands and OTHER (cmd_kept()): a
 * command of the other driver counts as OTHER.
 */
static struct teeprobe_cmd_stats __percpu *cmd_stats[TEEPROBE_TEE_CMDS];
static u64 __percpu *tee_untracked;	/* calls timed without an off-CPU split */

struct teeprobe_thread {
	pid_t tid;
	pid_t tgid;
	char comm[TASK_COMM_LEN];
	u64 calls;
	u64 total_ns;
	u64 offcpu_ns;
	u64 queue_wait_ns;
};
static struct teeprobe_thread threads[TEEPROBE_THREADS];
static u64 threads_overflow;
static DEFINE_RAW_SPINLOCK(threads_lock);

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
struct teeprobe_tee_clock {
	u64 total_ns;	/* closed stretches */
	u64 since_ns;	/* a thread in a TEE call runs here since; 0 if none */
};

static DEFINE_PER_CPU(struct teeprobe_tee_clock, tee_clock);

/* tee_clock_start - a thread in a TEE call starts running on this CPU */
static void tee_clock_start(u64 now)
{
	struct teeprobe_tee_clock *c = this_cpu_ptr(&tee_clock);

	if (c->since_ns)	/* a stop we did not see */
		c->total_ns += teeprobe_ns_delta(c->since_ns, now);
	c->since_ns = now ? now : 1;
}

/* tee_clock_stop - it stops running here (switched out, or the call ended) */
static void tee_clock_stop(u64 now)
{
	struct teeprobe_tee_clock *c = this_cpu_ptr(&tee_clock);

	if (c->since_ns)
		c->total_ns += teeprobe_ns_delta(c->since_ns, now);
	c->since_ns = 0;
}

/*
 * teeprobe_tee_clock_ns - this CPU's TEE clock at @now. Interrupts off;
 * only differences of two readings on one CPU mean anything.
 */
u64 teeprobe_tee_clock_ns(u64 now)
{
	const struct teeprobe_tee_clock *c = this_cpu_ptr(&tee_clock);

	lockdep_assert_irqs_disabled();
	return c->total_ns + (c->since_ns ?
			      teeprobe_ns_delta(c->since_ns, now) : 0);
}

/* teeprobe_sched_switch - charge switched-out time to the calls in flight */
static void teeprobe_sched_switch(TEEPROBE_SCHED_SWITCH_PROTO)
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

/* ---- statistics updates ------------------------------------------------ */

/* thread_account - add one finished call to its thread's line */
static void thread_account(u64 duration, u64 offcpu, u64 queue_wait)
{
	pid_t tid = current->pid;
	unsigned int i, h = hash_32(tid, ilog2(TEEPROBE_THREADS));
	struct teeprobe_thread *t = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&threads_lock, flags);
	for (i = 0; i < TEEPROBE_THREADS; i++) {
		struct teeprobe_thread *slot = &threads[(h + i) % TEEPROBE_THREADS];

		if (slot->tid == tid || !slot->tid) {
			t = slot;
			break;
		}
	}
	if (!t) {
		threads_overflow++;
	} else {
		if (!t->tid) {
			t->tid = tid;
			t->tgid = current->tgid;
		}
		/*
		 * Its own name, as the sched tracepoints copy it: without
		 * get_task_comm()'s task lock (a write from /proc may tear
		 * it, never its final NUL).
		 */
		memcpy(t->comm, current->comm, sizeof(t->comm));
		t->comm[sizeof(t->comm) - 1] = '\0';
		t->calls++;
		t->total_ns += duration;
		t->offcpu_ns += offcpu;
		t->queue_wait_ns += queue_wait;
	}
	raw_spin_unlock_irqrestore(&threads_lock, flags);
}

/* ---- kretprobe handlers -------------------------------------------------- */

/* stats_account - count one hit of probe @p, of @elapsed ns, on this CPU */
static void stats_account(struct teeprobe_probe *p, u64 elapsed)
{
	struct teeprobe_step_stats *s = this_cpu_ptr(p->stats);

	s->calls++;
	s->total_ns += elapsed;
	if (elapsed > s->max_ns)
		s->max_ns = elapsed;
}
NOKPROBE_SYMBOL(stats_account);

/* probe_account - count one return of @ri's probe, which took @elapsed ns */
static void probe_account(struct kretprobe_instance *ri, u64 elapsed)
{
	stats_account(container_of(teeprobe_kretprobe_of(ri),
				   struct teeprobe_probe, rp), elapsed);
}
NOKPROBE_SYMBOL(probe_account);

/* The preset's WAIT_BEFORE probe, whose wait the wait_end step ends */
static struct teeprobe_probe *wait_before_probe;

/* ioctl_entry - a thread enters the driver's ioctl */
static int ioctl_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_instance *inst = (struct teeprobe_instance *)ri->data;
	struct teeprobe_call *call;
	u64 now;

	if (!pid_allowed())
		return 1;	/* not followed: no return handler */
	inst->raw_cmd = (u32)regs_get_kernel_argument(regs, 1);
	if (!agents && teeprobe_tee_decode(inst->raw_cmd) == TEEPROBE_TZ_WAIT_EVENT)
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
NOKPROBE_SYMBOL(ioctl_entry);

/* ioctl_return - the call ends: account it on this CPU */
static int ioctl_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_instance *inst = (struct teeprobe_instance *)ri->data;
	enum teeprobe_tee_cmd cmd = teeprobe_tee_decode(inst->raw_cmd);
	long ret = (long)regs_return_value(regs);
	u64 now = teeprobe_now_ns();
	u64 duration = teeprobe_ns_delta(inst->start_ns, now);
	u64 offcpu = 0, runq = 0, queue_wait = 0, secure = 0, entries = 0;
	struct teeprobe_call *call = inst_call(inst);
	struct teeprobe_cmd_stats *s;

	probe_account(ri, duration);
	if (call) {
		/* The call's entry is still in the table: sched_switch may
		 * touch it until call_end(), so read it under its lock.
		 */
		unsigned int b = call_bucket(call->task);
		unsigned long flags;

		raw_spin_lock_irqsave(&call_hash[b].lock, flags);
		teeprobe_offcpu_end(&call->off, now);
		offcpu = min(call->off.off_ns, duration);
		runq = min(call->off.runq_ns, duration - offcpu);
		queue_wait = min(call->queue_wait_ns, duration);
		secure = min(call->secure_ns, duration - offcpu - runq);
		entries = call->secure_entries;
		raw_spin_unlock_irqrestore(&call_hash[b].lock, flags);
		call_end(call);
		local_irq_save(flags);
		tee_clock_stop(now);
		local_irq_restore(flags);
	}
	if (!call)
		this_cpu_inc(*tee_untracked);
	s = this_cpu_ptr(cmd_stats[cmd] ?: cmd_stats[TEEPROBE_TEE_CMD_OTHER]);
	s->calls++;
	if (ret < 0)
		s->errors++;
	s->total_ns += duration;
	s->offcpu_ns += offcpu;
	s->runq_ns += runq;
	s->queue_wait_ns += queue_wait;
	s->secure_entries += entries;
	s->secure_ns += secure;
	teeprobe_hist_add(&s->latency, duration);
	thread_account(duration, offcpu, queue_wait);
	trace_teeprobe_tee_ioctl_exit(cmd, duration, offcpu, runq, queue_wait, ret);
	return 0;
}
NOKPROBE_SYMBOL(ioctl_return);

/*
 * timed_entry - a wait or step function is entered. A WAIT_BEFORE
 * function marks the start of its wait in the call, a WAIT_BLOCKED one
 * what the call has slept and waited so far; a wait_end step charges the
 * marked wait to the WAIT_BEFORE probe and to the call.
 */
static int timed_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_instance *inst = (struct teeprobe_instance *)ri->data;
	struct teeprobe_probe *p = container_of(teeprobe_kretprobe_of(ri),
						struct teeprobe_probe, rp);
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
	if (call && p->wait_end && wait_before_probe)
		stats_account(wait_before_probe, waited);
	return 0;
}
NOKPROBE_SYMBOL(timed_entry);

/*
 * timed_return - count the step; a wait, or an entry into the secure
 * world, is also charged to the call
 */
static int timed_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_instance *inst = (struct teeprobe_instance *)ri->data;
	struct teeprobe_probe *p = container_of(teeprobe_kretprobe_of(ri),
						struct teeprobe_probe, rp);
	u64 elapsed = teeprobe_ns_delta(inst->start_ns, teeprobe_now_ns());
	u64 blocked = 0, nested = 0;
	struct teeprobe_call *call;
	unsigned long flags;
	unsigned int b;

	/* a WAIT_BEFORE wait is counted where it ends (timed_entry) */
	if (p->role != TEEPROBE_ROLE_WAIT_BEFORE &&
	    p->role != TEEPROBE_ROLE_WAIT_BLOCKED)
		probe_account(ri, elapsed);
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
		/* asleep in here, less the waits counted inside */
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
		stats_account(p, blocked);
	return 0;
}
NOKPROBE_SYMBOL(timed_return);

/* ---- attaching ------------------------------------------------------------ */

/*
 * add_probe - describe a probe; attached later by attach_all. A symbol
 * probed already (a wait symbol the preset has) or one probe too many is
 * an error: the load fails with a message rather than probe less.
 */
static int add_probe(const char *symbol, enum teeprobe_role role)
{
	struct teeprobe_probe *p;
	unsigned int i;

	if (!*symbol)
		return 0;
	for (i = 0; i < nr_probes; i++) {
		if (!strcmp(probes[i].symbol, symbol)) {
			pr_err("%s is probed twice (the preset %s probes it already)\n",
			       symbol, preset);
			return -EINVAL;
		}
	}
	if (nr_probes >= TEEPROBE_MAX_PROBES) {
		pr_err("%s: more than %d TEE probes in all\n", symbol, TEEPROBE_MAX_PROBES);
		return -EINVAL;
	}
	p = &probes[nr_probes++];
	memset(p, 0, sizeof(*p));
	strscpy(p->symbol, symbol, sizeof(p->symbol));
	p->role = role;
	p->state = TEEPROBE_WAITING;
	return 0;
}

/*
 * add_probe_opt - add_probe() of a symbol only some versions of the driver
 * have (@optional), or one of alternatives @group (the first found is
 * used), or a step that ends the WAIT_BEFORE wait (@wait_end)
 */
static int add_probe_opt(const char *symbol, enum teeprobe_role role,
			 bool optional, unsigned int group, bool wait_end)
{
	int ret = add_probe(symbol, role);

	if (!ret) {
		probes[nr_probes - 1].optional = optional;
		probes[nr_probes - 1].group = group;
		probes[nr_probes - 1].wait_end = wait_end;
		if (role == TEEPROBE_ROLE_WAIT_BEFORE)
			wait_before_probe = &probes[nr_probes - 1];
	}
	return ret;
}

/* add_probe_list - one probe per comma-separated symbol of @list */
static int add_probe_list(const char *list, enum teeprobe_role role)
{
	char name[KSYM_NAME_LEN];
	const char *end;
	size_t len;
	int ret;

	while (*list) {
		end = strchrnul(list, ',');
		len = min_t(size_t, end - list, sizeof(name) - 1);
		memcpy(name, list, len);
		name[len] = '\0';
		ret = add_probe(strim(name), role);
		if (ret)
			return ret;
		list = *end ? end + 1 : end;
	}
	return 0;
}

/*
 * effective_maxactive - calls one kretprobe (and the table of calls in
 * flight) can follow at once: the parameter, or max(256, 16 per CPU)
 */
static unsigned int effective_maxactive(void)
{
	return maxactive ? maxactive :
	       max_t(unsigned int, 256, 16 * num_possible_cpus());
}

/*
 * The suffixes GCC gives the clones of a static function it specialises
 * (tzdriver's smp_smc_send is smp_smc_send.constprop.0 in v1.0.0 and
 * smp_smc_send.constprop.0.isra.0 in the newest tree): tried in turn when
 * the plain name is not in kallsyms, bounded, as kallsyms cannot be walked
 * from a module.
 */
static const char * const clone_suffixes[] = {
	"", ".constprop.0", ".isra.0", ".part.0", ".constprop.0.isra.0",
	".isra.0.constprop.0", ".part.0.constprop.0", ".constprop.1",
};

/* register_resolved - register @p under its name or a clone's */
static int register_resolved(struct teeprobe_probe *p)
{
	unsigned int i;
	int ret = -ENOENT;

	for (i = 0; i < ARRAY_SIZE(clone_suffixes) && ret == -ENOENT; i++) {
		if (snprintf(p->resolved, sizeof(p->resolved), "%s%s", p->symbol,
			     clone_suffixes[i]) >= sizeof(p->resolved))
			break;
		p->rp.kp.symbol_name = p->resolved;
		p->rp.kp.addr = NULL;
		p->rp.kp.flags = 0;
		ret = register_kretprobe(&p->rp);
	}
	if (ret)
		strscpy(p->resolved, p->symbol, sizeof(p->resolved));
	return ret;
}

/* attach_one - register @p's kretprobe; ENOENT leaves it waiting */
static void attach_one(struct teeprobe_probe *p)
{
	int ret;

	memset(&p->rp, 0, sizeof(p->rp));
	p->rp.kp.symbol_name = p->symbol;
	p->rp.data_size = sizeof(struct teeprobe_instance);
	p->rp.maxactive = effective_maxactive();
	if (p->role == TEEPROBE_ROLE_IOCTL) {
		p->rp.entry_handler = ioctl_entry;
		p->rp.handler = ioctl_return;
	} else {
		p->rp.entry_handler = timed_entry;
		p->rp.handler = timed_return;
	}
	ret = register_resolved(p);
	if (!ret) {
		p->state = TEEPROBE_ATTACHED;
		p->error = 0;
		pr_info("probing %s\n", p->resolved);
		return;
	}
	if (ret == -ENOENT) {
		/* Said once, not on every module load that does not have it. */
		if (p->error != -ENOENT)
			pr_info("%s not found: waiting for a module that has it\n",
				p->symbol);
		p->error = ret;
		p->state = TEEPROBE_WAITING;
	} else {
		/* Said once: it is tried again whenever a module loads. */
		if (p->error != ret)
			pr_warn("cannot probe %s: error %d\n", p->symbol, ret);
		p->error = ret;
		p->state = TEEPROBE_FAILED;
	}
}

/* group_has_attached - is another probe of @p's group attached? */
static bool group_has_attached(const struct teeprobe_probe *p)
{
	const struct teeprobe_probe *q;

	for (q = probes; q < probes + nr_probes; q++)
		if (q != p && q->group && q->group == p->group &&
		    q->state == TEEPROBE_ATTACHED)
			return true;
	return false;
}

/*
 * attach_all - try every probe that is not attached (probes_lock held).
 * One of a group whose earlier member is attached, and an optional one
 * the driver's module (the first ioctl probe's) lacks, are absent: this
 * version of the driver has no such function.
 */
static void attach_all(void)
{
	struct teeprobe_probe *p;
	bool driver = nr_probes && probes[0].role == TEEPROBE_ROLE_IOCTL &&
		      probes[0].state != TEEPROBE_WAITING &&
		      probes[0].state != TEEPROBE_ABSENT;
	unsigned int i;

	if (!driver && nr_probes && probes[0].state == TEEPROBE_WAITING) {
		attach_one(&probes[0]);
		driver = probes[0].state == TEEPROBE_ATTACHED;
	}
	for (i = 0; i < nr_probes; i++) {
		p = &probes[i];
		if (p->state == TEEPROBE_ATTACHED)
			continue;
		if (p->group && group_has_attached(p)) {
			p->state = TEEPROBE_ABSENT;
			continue;
		}
		attach_one(p);
		if (p->state == TEEPROBE_WAITING && p->optional && driver)
			p->state = TEEPROBE_ABSENT;
	}
	/* a group's member not found where a later one was */
	for (i = 0; i < nr_probes; i++)
		if (probes[i].group && probes[i].state == TEEPROBE_WAITING &&
		    group_has_attached(&probes[i]))
			probes[i].state = TEEPROBE_ABSENT;
}

/* detach_one - unregister @p; calls in flight finish unaccounted */
static void detach_one(struct teeprobe_probe *p, enum teeprobe_state state)
{
	if (p->state == TEEPROBE_ATTACHED)
		unregister_kretprobe(&p->rp);
	p->state = state;
}

/* teeprobe_module_notify - attach to modules that load, detach from those that go */
static int teeprobe_module_notify(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct module *mod = data;
	unsigned int i;

	mutex_lock(&probes_lock);
	if (action == MODULE_STATE_LIVE) {
		attach_all();
	} else if (action == MODULE_STATE_GOING) {
		bool driver_gone = false;

		for (i = 0; i < nr_probes; i++) {
			struct teeprobe_probe *p = &probes[i];

			if (p->state == TEEPROBE_ATTACHED &&
			    within_module((unsigned long)p->rp.kp.addr, mod)) {
				detach_one(p, TEEPROBE_WAITING);
				p->error = -ENOENT;
				driver_gone |= i == 0;
				pr_info("%s went away with module %s: waiting for it again\n",
					p->resolved, mod->name);
			}
		}
		/* what was absent from that version may be in the next */
		for (i = 0; driver_gone && i < nr_probes; i++)
			if (probes[i].state == TEEPROBE_ABSENT)
				probes[i].state = TEEPROBE_WAITING;
	}
	mutex_unlock(&probes_lock);
	return NOTIFY_DONE;
}

static struct notifier_block teeprobe_module_nb = {
	.notifier_call = teeprobe_module_notify,
};

/* ---- debugfs output ------------------------------------------------------ */

static const char * const role_names[] = {
	[TEEPROBE_ROLE_IOCTL] = "ioctl", [TEEPROBE_ROLE_WAIT] = "wait", [TEEPROBE_ROLE_STEP] = "step",
	[TEEPROBE_ROLE_SECURE] = "secure", [TEEPROBE_ROLE_WAIT_BEFORE] = "wait-before",
	[TEEPROBE_ROLE_WAIT_BLOCKED] = "wait-blocked",
};

/* tee_show_probes - one line per probe: its state and counters */
static void tee_show_probes(struct seq_file *m)
{
	unsigned int i;
	int cpu;

	seq_printf(m, "# preset %s\n", preset);
	seq_puts(m, "# symbol role state error nmissed calls total_ns max_ns\n");
	mutex_lock(&probes_lock);
	for (i = 0; i < nr_probes; i++) {
		struct teeprobe_probe *p = &probes[i];
		struct teeprobe_step_stats sum = {};
		const char *state;

		for_each_possible_cpu(cpu) {
			struct teeprobe_step_stats *s = per_cpu_ptr(p->stats, cpu);

			sum.calls += s->calls;
			sum.total_ns += s->total_ns;
			sum.max_ns = max(sum.max_ns, s->max_ns);
		}
		state = p->state == TEEPROBE_ATTACHED ? "attached" :
			p->state == TEEPROBE_WAITING ? "not-found" :
			p->state == TEEPROBE_ABSENT ? "absent" : "failed";
		seq_printf(m, "%s %s %s %d %d %llu %llu %llu\n",
			   p->state == TEEPROBE_ATTACHED ? p->resolved : p->symbol,
			   role_names[p->role], state, p->error,
			   p->state == TEEPROBE_ATTACHED ?
			   p->rp.nmissed + (int)p->rp.kp.nmissed : 0,
			   sum.calls, sum.total_ns, sum.max_ns);
	}
	mutex_unlock(&probes_lock);
}

/* cmd_sum - the counters of one command summed over CPUs */
struct cmd_sum {
	u64 calls, errors, total_ns, offcpu_ns, runq_ns, queue_wait_ns, max_ns;
	u64 secure_entries, secure_ns;
};

/* show_cmd_line - one line of tee_stats */
static void show_cmd_line(struct seq_file *m, const char *cpu, unsigned int c,
			  const struct cmd_sum *s)
{
	seq_printf(m, "%s %s %llu %llu %llu %llu %llu %llu %llu %llu %llu\n", cpu,
		   teeprobe_tee_cmd_name(c), s->calls, s->errors, s->total_ns,
		   s->offcpu_ns, s->runq_ns, s->queue_wait_ns, s->max_ns,
		   s->secure_entries, s->secure_ns);
}

/* tee_show_stats - per CPU and in all, one line per used command */
static void tee_show_stats(struct seq_file *m)
{
	struct cmd_sum *all, one;
	u64 untracked = 0;
	char name[16];
	unsigned int c;
	int cpu;

	all = kcalloc(TEEPROBE_TEE_CMDS, sizeof(*all), GFP_KERNEL);
	if (!all) {
		seq_puts(m, "# error ENOMEM\n");
		return;
	}
	seq_puts(m, "# cpu cmd calls errors total_ns offcpu_ns runq_ns queue_wait_ns max_ns secure_entries secure_ns\n");
	for_each_possible_cpu(cpu) {
		untracked += *per_cpu_ptr(tee_untracked, cpu);
		snprintf(name, sizeof(name), "%d", cpu);
		for (c = 0; c < TEEPROBE_TEE_CMDS; c++) {
			struct teeprobe_cmd_stats *s;

			if (!cmd_stats[c])
				continue;
			s = per_cpu_ptr(cmd_stats[c], cpu);
			if (!s->calls)
				continue;
			one = (struct cmd_sum){ s->calls, s->errors, s->total_ns,
						s->offcpu_ns, s->runq_ns,
						s->queue_wait_ns, s->latency.max,
						s->secure_entries, s->secure_ns };
			show_cmd_line(m, name, c, &one);
			all[c].calls += one.calls;
			all[c].errors += one.errors;
			all[c].total_ns += one.total_ns;
			all[c].offcpu_ns += one.offcpu_ns;
			all[c].runq_ns += one.runq_ns;
			all[c].queue_wait_ns += one.queue_wait_ns;
			all[c].max_ns = max(all[c].max_ns, one.max_ns);
			all[c].secure_entries += one.secure_entries;
			all[c].secure_ns += one.secure_ns;
		}
	}
	for (c = 0; c < TEEPROBE_TEE_CMDS; c++)
		if (all[c].calls)
			show_cmd_line(m, "all", c, &all[c]);
	seq_printf(m, "# untracked %llu\n", untracked);
	kfree(all);
}

/* tee_show_hist - latency histograms per command, a column per CPU */
static void tee_show_hist(struct seq_file *m)
{
	unsigned int c;

	teeprobe_seq_hist_header(m, "cmd");
	for (c = 0; c < TEEPROBE_TEE_CMDS; c++)
		if (cmd_stats[c])
			teeprobe_seq_hist_rows(m, teeprobe_tee_cmd_name(c),
					       cmd_stats[c],
					       offsetof(struct teeprobe_cmd_stats, latency));
	teeprobe_seq_hist_trailer(m);
}

/* cmp_thread - sort threads by time spent in TEE ioctls, longest first */
static int cmp_thread(const void *a, const void *b)
{
	const struct teeprobe_thread *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return x->tid - y->tid;
}

/* tee_show_threads - threads by time in TEE ioctls */
static void tee_show_threads(struct seq_file *m)
{
	struct teeprobe_thread *copy;
	unsigned long flags;
	unsigned int i, n = 0;

	copy = vmalloc(sizeof(threads));
	if (!copy) {
		seq_puts(m, "# error ENOMEM\n");
		return;
	}
	raw_spin_lock_irqsave(&threads_lock, flags);
	for (i = 0; i < TEEPROBE_THREADS; i++)
		if (threads[i].tid)
			copy[n++] = threads[i];
	raw_spin_unlock_irqrestore(&threads_lock, flags);
	sort(copy, n, sizeof(*copy), cmp_thread, NULL);
	seq_puts(m, "# tgid tid comm calls total_ns offcpu_ns queue_wait_ns\n");
	for (i = 0; i < n; i++) {
		seq_printf(m, "%d %d ", copy[i].tgid, copy[i].tid);
		teeprobe_seq_comm(m, copy[i].comm);
		seq_printf(m, " %llu %llu %llu %llu\n", copy[i].calls,
			   copy[i].total_ns, copy[i].offcpu_ns,
			   copy[i].queue_wait_ns);
	}
	seq_printf(m, "# overflow %llu\n", threads_overflow);
	vfree(copy);
}

/* tee_reset - zero the statistics (not the calls in flight) */
static void tee_reset(void)
{
	unsigned long flags;
	unsigned int i;
	int cpu;

	mutex_lock(&probes_lock);
	for_each_possible_cpu(cpu) {
		*per_cpu_ptr(tee_untracked, cpu) = 0;
		for (i = 0; i < TEEPROBE_TEE_CMDS; i++)
			if (cmd_stats[i])
				memset(per_cpu_ptr(cmd_stats[i], cpu), 0,
				       sizeof(struct teeprobe_cmd_stats));
		for (i = 0; i < nr_probes; i++)
			memset(per_cpu_ptr(probes[i].stats, cpu), 0,
			       sizeof(struct teeprobe_step_stats));
	}
	mutex_unlock(&probes_lock);
	raw_spin_lock_irqsave(&threads_lock, flags);
	memset(threads, 0, sizeof(threads));
	threads_overflow = 0;
	raw_spin_unlock_irqrestore(&threads_lock, flags);
}

/* ---- init and exit ---------------------------------------------------------- */

static struct teeprobe_file tee_files[] = {
	{ .name = "tee_probes", .show = tee_show_probes },
	{ .name = "tee_stats", .show = tee_show_stats },
	{ .name = "tee_hist", .show = tee_show_hist },
	{ .name = "tee_threads", .show = tee_show_threads },
};

static struct teeprobe_part tee_part = {
	.name = "tee",
	.reset = tee_reset,
	.files = tee_files,
	.nr_files = ARRAY_SIZE(tee_files),
};

static struct teeprobe_hook tee_hooks[] = {
	{ .name = "sched_switch", .probe = teeprobe_sched_switch },
};

/*
 * cmd_kept - whether command @c has statistics of its own: OTHER, and the
 * commands of the preset's driver (every command with preset=custom)
 */
static bool cmd_kept(unsigned int c)
{
	if (c == TEEPROBE_TEE_CMD_OTHER || !strcmp(preset, "custom"))
		return true;
	return (c >= TEEPROBE_TZ_SES_OPEN) == !strcmp(preset, "tzdriver");
}

/* describe_probes - the probes of the chosen preset, and wait_symbols */
static int describe_probes(void)
{
	int ret = 0;

	nr_probes = 0;
	wait_before_probe = NULL;
	if (!strcmp(preset, "tee")) {
		ret = add_probe(*ioctl_symbol ? ioctl_symbol : "tee_ioctl", TEEPROBE_ROLE_IOCTL) ?:
		      add_probe("optee_cq_wait_for_completion", TEEPROBE_ROLE_WAIT) ?:
		      add_probe("teesim_wait_for_secure_thread", TEEPROBE_ROLE_WAIT) ?:
		      add_probe(TEEPROBE_TEE_SHM_REGISTER_SYMBOL, TEEPROBE_ROLE_STEP) ?:
		      add_probe(TEEPROBE_TEE_SHM_ALLOC_SYMBOL, TEEPROBE_ROLE_STEP) ?:
		      add_probe("tee_shm_fop_release", TEEPROBE_ROLE_STEP) ?:
		      add_probe("optee_smccc_smc", TEEPROBE_ROLE_SECURE) ?:
		      add_probe("optee_smccc_hvc", TEEPROBE_ROLE_SECURE);
	} else if (!strcmp(preset, "tzdriver")) {
		/*
		 * iTrustee's tzdriver, from its code (v1.0.0 and the newest
		 * tree; Documentation/tee-probes.rst): both device nodes, the
		 * SMC (smc_req, or v1.0.0's smp_smc_send around its inline
		 * one), the waits (the session lock before tc_client_call,
		 * a full command queue, the TA not done, the teecd agent) and
		 * the per-call mailbox set-up and copies
		 */
		ret = add_probe(*ioctl_symbol ? ioctl_symbol : "tc_client_ioctl",
				TEEPROBE_ROLE_IOCTL) ?:
		      add_probe_opt("tc_private_ioctl", TEEPROBE_ROLE_IOCTL, true, 0, false) ?:
		      add_probe_opt("smc_req", TEEPROBE_ROLE_SECURE, false, 1, false) ?:
		      add_probe_opt("smp_smc_send", TEEPROBE_ROLE_SECURE, false, 1, false) ?:
		      add_probe_opt("tc_ns_send_cmd", TEEPROBE_ROLE_WAIT_BEFORE, false, 0, false) ?:
		      add_probe_opt("tc_client_call", TEEPROBE_ROLE_STEP, false, 0, true) ?:
		      add_probe_opt("occupy_free_smc_in_entry", TEEPROBE_ROLE_WAIT, true, 0, false) ?:
		      add_probe("smp_smc_send_func", TEEPROBE_ROLE_WAIT_BLOCKED) ?:
		      add_probe("agent_process_work", TEEPROBE_ROLE_WAIT) ?:
		      add_probe("mailbox_alloc", TEEPROBE_ROLE_STEP) ?:
		      add_probe("mailbox_copy_alloc", TEEPROBE_ROLE_STEP) ?:
		      add_probe("mailbox_free", TEEPROBE_ROLE_STEP) ?:
		      add_probe("read_from_client", TEEPROBE_ROLE_STEP) ?:
		      add_probe("write_to_client", TEEPROBE_ROLE_STEP) ?:
		      add_probe_opt("fill_shared_mem_info", TEEPROBE_ROLE_STEP, true, 0, false);
	} else {
		if (!*ioctl_symbol) {
			pr_err("preset=custom needs ioctl_symbol=\n");
			return -EINVAL;
		}
		ret = add_probe(ioctl_symbol, TEEPROBE_ROLE_IOCTL);
	}
	return ret ?: add_probe_list(wait_symbols, TEEPROBE_ROLE_WAIT);
}

/* teeprobe_tee_init - allocate, hook sched_switch, attach what exists */
int teeprobe_tee_init(void)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nr_pid_param; i++) {
		if (pid_param[i] <= 0 || pid_param[i] >= PID_MAX_LIMIT) {
			pr_err("pid=%d: must be a process id from 1 to %d\n",
			       pid_param[i], (int)PID_MAX_LIMIT - 1);
			return -EINVAL;
		}
	}
	ret = describe_probes();
	if (ret)
		return ret;
	teeprobe_tee_set_pids(pid_param, nr_pid_param);
	for (i = 0; i < TEEPROBE_CALL_BUCKETS; i++) {
		raw_spin_lock_init(&call_hash[i].lock);
		INIT_HLIST_HEAD(&call_hash[i].head);
	}
	call_pool_size = effective_maxactive();
	/* vmalloc: whole pages, where kmalloc would round up to a power of 2 */
	call_pool = vcalloc(call_pool_size, sizeof(*call_pool));
	call_used = bitmap_zalloc(call_pool_size, GFP_KERNEL);
	tee_untracked = teeprobe_alloc_percpu(sizeof(u64), __alignof__(u64));
	if (!call_pool || !call_used || !tee_untracked) {
		ret = -ENOMEM;
		goto out_free_table;
	}
	for (i = 0; i < TEEPROBE_TEE_CMDS; i++) {
		if (!cmd_kept(i))
			continue;
		cmd_stats[i] = teeprobe_alloc_percpu(sizeof(struct teeprobe_cmd_stats),
						     __alignof__(struct teeprobe_cmd_stats));
		if (!cmd_stats[i]) {
			ret = -ENOMEM;
			goto out_free_table;
		}
	}
	for (i = 0; i < nr_probes; i++) {
		probes[i].stats = teeprobe_alloc_percpu(sizeof(struct teeprobe_step_stats),
							__alignof__(struct teeprobe_step_stats));
		if (!probes[i].stats) {
			ret = -ENOMEM;
			goto out_free_stats;
		}
	}

	ret = teeprobe_hooks_attach("tee", tee_hooks, ARRAY_SIZE(tee_hooks));
	if (ret)
		goto out_free_stats;

	ret = register_module_notifier(&teeprobe_module_nb);
	if (ret)
		goto out_detach_hooks;
	mutex_lock(&probes_lock);
	attach_all();
	mutex_unlock(&probes_lock);
	teeprobe_part_register(&tee_part);
	return 0;

out_detach_hooks:
	teeprobe_hooks_detach(tee_hooks, ARRAY_SIZE(tee_hooks));
	tracepoint_synchronize_unregister();
out_free_stats:
	for (i = 0; i < nr_probes; i++)
		teeprobe_free_percpu(probes[i].stats,
				     sizeof(struct teeprobe_step_stats));
out_free_table:
	teeprobe_free_percpu_n((void __percpu **)cmd_stats, TEEPROBE_TEE_CMDS,
			       sizeof(struct teeprobe_cmd_stats));
	teeprobe_free_percpu(tee_untracked, sizeof(u64));
	tee_untracked = NULL;
	bitmap_free(call_used);
	vfree(call_pool);
	return ret;
}

/* teeprobe_tee_exit - detach everything, then free */
void teeprobe_tee_exit(void)
{
	unsigned int i;

	teeprobe_part_unregister(&tee_part);
	unregister_module_notifier(&teeprobe_module_nb);
	mutex_lock(&probes_lock);
	for (i = 0; i < nr_probes; i++)
		detach_one(&probes[i], TEEPROBE_WAITING);
	mutex_unlock(&probes_lock);
	teeprobe_hooks_detach(tee_hooks, ARRAY_SIZE(tee_hooks));
	/* No handler runs any more once both have drained. */
	tracepoint_synchronize_unregister();
	synchronize_rcu();
	for (i = 0; i < nr_probes; i++)
		teeprobe_free_percpu(probes[i].stats,
				     sizeof(struct teeprobe_step_stats));
	teeprobe_free_percpu_n((void __percpu **)cmd_stats, TEEPROBE_TEE_CMDS,
			       sizeof(struct teeprobe_cmd_stats));
	teeprobe_free_percpu(tee_untracked, sizeof(u64));
	tee_untracked = NULL;
	bitmap_free(call_used);
	vfree(call_pool);
}
