// SPDX-License-Identifier: GPL-2.0
/*
 * secure.c - teesim's "secure world": a pool of secure threads and the cost
 * of every call into it.
 *
 * A caller first needs a free secure thread; when all are busy it sleeps
 * (off-CPU) in teesim_wait_for_secure_thread(), as OP-TEE callers wait in the
 * driver's call queue when the secure world returns "thread limit". Once it
 * has a thread, the calling CPU belongs to the secure world for the
 * world-switch cost plus the call's own work: it spins with bottom halves
 * disabled, so NET_RX and every other softirq raised on that CPU waits, as
 * it does while a real CPU runs secure code. The normal-world driver's own
 * work per call (teesim_driver_work()) runs outside, preemptible.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

#include "teesim.h"
#include "teesim_abi.h"

static struct {
	spinlock_t lock;
	DECLARE_BITMAP(busy, TEESIM_MAX_SECURE_THREADS);
	wait_queue_head_t waiters;
	unsigned int nr_threads;
	struct teesim_thread threads[TEESIM_MAX_SECURE_THREADS];
} secure_world;

/* try_get_thread - take a free secure thread, or NULL if all are busy */
static struct teesim_thread *try_get_thread(void)
{
	struct teesim_thread *thread = NULL;
	unsigned int i;

	spin_lock(&secure_world.lock);
	i = find_first_zero_bit(secure_world.busy, secure_world.nr_threads);
	if (i < secure_world.nr_threads) {
		__set_bit(i, secure_world.busy);
		thread = &secure_world.threads[i];
	}
	spin_unlock(&secure_world.lock);
	return thread;
}

/*
 * teesim_wait_for_secure_thread - sleep until a secure thread is free.
 * Not inlined: it is the "waiting for the TEE" symbol a tracer hooks, like
 * OP-TEE's optee_cq_wait_for_completion(). A @killable wait returns NULL
 * when the caller is killed; the others (releasing memory, which must
 * happen even in an exiting process) always get a thread.
 */
noinline struct teesim_thread *teesim_wait_for_secure_thread(bool killable)
{
	struct teesim_thread *thread = NULL;

	if (!killable) {
		wait_event_idle_exclusive(secure_world.waiters,
					  (thread = try_get_thread()) != NULL);
		return thread;
	}
	if (wait_event_killable_exclusive(secure_world.waiters,
					  (thread = try_get_thread()) != NULL))
		return NULL;
	return thread;
}

/* teesim_enter_secure_world - get a secure thread, waiting if needed */
struct teesim_thread *teesim_enter_secure_world(bool killable)
{
	struct teesim_thread *thread = try_get_thread();
	u64 start;

	if (thread)
		return thread;
	start = ktime_get_ns();
	thread = teesim_wait_for_secure_thread(killable);
	atomic64_inc(&teesim_stats.thread_waits);
	atomic64_add(ktime_get_ns() - start, &teesim_stats.thread_wait_ns);
	return thread;
}

/* teesim_leave_secure_world - give the thread back and wake one waiter */
void teesim_leave_secure_world(struct teesim_thread *thread)
{
	spin_lock(&secure_world.lock);
	__clear_bit(thread->index, secure_world.busy);
	spin_unlock(&secure_world.lock);
	wake_up(&secure_world.waiters);
}

/* own_cpu_for - spin for @us microseconds: the CPU is in the secure world */
static void own_cpu_for(unsigned int us)
{
	u64 end = ktime_get_ns() + (u64)us * NSEC_PER_USEC;

	while (ktime_get_ns() < end)
		cpu_relax();
}

/*
 * teesim_run_secure - one entry into the secure world on @thread:
 *  - the secure work, @busy_us: the secure thread stays busy while the
 *    caller sleeps, as a normal-world thread sleeps in the TEE driver while
 *    the secure side (a crypto engine, or tzdriver's SMC thread on another
 *    core) works; the caller is off-CPU inside the ioctl;
 *  - the world switch, switch_us, and @cpu_us of secure work that needs the
 *    calling CPU itself (mapping or unmapping shared memory, with TLB
 *    maintenance; a TA that computes on the CPU, as OP-TEE's do), and
 *    @work (the TA's real computation): the CPU belongs to the secure world,
 *    spinning with bottom halves off, so softirqs raised on it wait.
 * Not inlined: it is the symbol a tracer times as one entry into the
 * secure world, as it times OP-TEE's optee_smccc_smc(). Returns what @work
 * returned.
 */
noinline int teesim_run_secure(struct teesim_thread *thread,
			       enum teesim_call kind, unsigned int busy_us,
			       unsigned int cpu_us,
			       int (*work)(struct teesim_thread *thread,
					   void *data),
			       void *data)
{
	u64 start, asleep, bh_off;
	int ret = 0;

	start = ktime_get_ns();
	asleep = 0;
	if (busy_us) {
		usleep_range(busy_us, busy_us + busy_us / 8 + 1);
		asleep = ktime_get_ns() - start;
	}
	local_bh_disable();
	bh_off = ktime_get_ns();
	own_cpu_for(teesim_params.switch_us + cpu_us);
	if (work)
		ret = work(thread, data);
	bh_off = ktime_get_ns() - bh_off;
	local_bh_enable();
	atomic64_add(bh_off, &teesim_stats.bh_off_ns);
	atomic64_add(asleep, &teesim_stats.asleep_ns[kind]);
	atomic64_add(ktime_get_ns() - start, &teesim_stats.call_ns[kind]);
	return ret;
}

/*
 * teesim_driver_work - @us of the normal-world driver's own work on the
 * calling CPU, outside the secure world and preemptible: copying a call's
 * parameters into a mailbox, as iTrustee's tzdriver does per call
 */
void teesim_driver_work(unsigned int us)
{
	u64 start = ktime_get_ns(), end = start + (u64)us * NSEC_PER_USEC;

	if (!us)
		return;
	while (ktime_get_ns() < end)
		cond_resched();
	atomic64_add(ktime_get_ns() - start, &teesim_stats.driver_ns);
}

/*
 * teesim_secure_call - one call into the secure world: the caller takes a
 * secure thread (sleeping while none is free), enters the secure world on
 * it (teesim_run_secure()) and gives it back. Returns -EINTR if the caller
 * was killed while waiting for a thread, else what @work returned. Calls
 * that release something (close a session, unregister memory) wait
 * unkillably: they must happen.
 */
int teesim_secure_call(enum teesim_call kind, unsigned int busy_us,
		       unsigned int cpu_us,
		       int (*work)(struct teesim_thread *thread, void *data),
		       void *data)
{
	struct teesim_thread *thread;
	u64 start;
	int ret;

	thread = teesim_enter_secure_world(kind != TEESIM_CALL_SHM_UNREGISTER &&
					   kind != TEESIM_CALL_CLOSE_SESSION);
	if (!thread)
		return -EINTR;
	start = ktime_get_ns();
	ret = teesim_run_secure(thread, kind, busy_us, cpu_us, work, data);
	atomic64_add(ktime_get_ns() - start, &teesim_stats.secure_ns);
	teesim_leave_secure_world(thread);
	atomic64_inc(&teesim_stats.calls[kind]);
	return ret;
}

/* teesim_secure_init - the thread pool, each thread with a bounce buffer */
int teesim_secure_init(void)
{
	unsigned int i;

	spin_lock_init(&secure_world.lock);
	init_waitqueue_head(&secure_world.waiters);
	bitmap_zero(secure_world.busy, TEESIM_MAX_SECURE_THREADS);
	secure_world.nr_threads = teesim_params.secure_threads;
	for (i = 0; i < secure_world.nr_threads; i++) {
		secure_world.threads[i].index = i;
		secure_world.threads[i].bounce = vmalloc(TEESIM_MAX_MEMREF);
		if (!secure_world.threads[i].bounce) {
			teesim_secure_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/* teesim_secure_exit - free the pool (no call can be in flight now) */
void teesim_secure_exit(void)
{
	unsigned int i;

	for (i = 0; i < secure_world.nr_threads; i++) {
		vfree(secure_world.threads[i].bounce);
		secure_world.threads[i].bounce = NULL;
	}
}
