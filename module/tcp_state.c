// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_state.c - the TCP part's state: its parameters, the table of
 * handshakes in flight, the ports' slots and each CPU's counters and
 * windows, the phase histograms' blocks, and the accounting tcp_server.c
 * and tcp_client.c call. The part's windows are flushed, its table
 * expired and its counters reset from here too (tcp.c registers them).
 *
 * A handshake in flight is an entry of a bounded table (tcp_table.h) keyed
 * by its request socket, then by its child socket (client: its socket).
 * The table is allocated at load (tcp_table_size entries); when it has no
 * room a handshake is counted as untracked and nothing is allocated.
 *
 * Counters and histograms are per CPU and per port (the listening port on
 * the server, the remote port on the client), updated with interrupts
 * disabled; each CPU also keeps the counts of the current window (window.h)
 * and emits teeprobe_tcp_window when it closes, as netrx.c does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/sock.h>

#include "hist.h"
#include "tcp_part.h"
#include "trace.h"
#include "window.h"

/* ---- parameters ------------------------------------------------------ */

#define TEEPROBE_TCP_TABLE_MIN	64
#define TEEPROBE_TCP_TABLE_MAX	(1U << 20)
#define TEEPROBE_TCP_TIMEOUT_MAX	3600

/*
 * 2048 handshakes in flight: a server holds its rate times its handshake
 * time (tens at 10,000 connections/s); under a SYN flood a listener's
 * half-open queue fills any size, and the rest is counted untracked. Its
 * 102 KiB keep teeprobe's fixed memory within 256 KiB per CPU on a 2-CPU
 * machine (Documentation/benchmarks.rst).
 */
unsigned int teeprobe_tcp_table_size = 2048;
unsigned int teeprobe_tcp_timeout_s = 120;

/* param_set_table_size - a power of two from 64 to 1048576 */
static int param_set_table_size(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v < TEEPROBE_TCP_TABLE_MIN ||
	    v > TEEPROBE_TCP_TABLE_MAX || !teeprobe_tcp_table_size_valid(v)) {
		pr_err("tcp_table_size=%s: must be a power of two from %u to %u\n",
		       val, TEEPROBE_TCP_TABLE_MIN, TEEPROBE_TCP_TABLE_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

/* param_set_timeout - seconds, 1 to 3600 */
static int param_set_timeout(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || !v || v > TEEPROBE_TCP_TIMEOUT_MAX) {
		pr_err("tcp_timeout_s=%s: must be a number from 1 to %u\n", val,
		       TEEPROBE_TCP_TIMEOUT_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops table_size_ops = {
	.set = param_set_table_size,
	.get = param_get_uint,
};
static const struct kernel_param_ops timeout_ops = {
	.set = param_set_timeout,
	.get = param_get_uint,
};
module_param_cb(tcp_table_size, &table_size_ops, &teeprobe_tcp_table_size, 0444);
__MODULE_PARM_TYPE(tcp_table_size, "uint");
MODULE_PARM_DESC(tcp_table_size, "TCP handshakes followed at once, a power of two from 64 to 1048576 (default 2048)");
module_param_cb(tcp_timeout_s, &timeout_ops, &teeprobe_tcp_timeout_s, 0444);
__MODULE_PARM_TYPE(tcp_timeout_s, "uint");
MODULE_PARM_DESC(tcp_timeout_s, "seconds after which a handshake never seen to finish is forgotten, 1 to 3600 (default 120)");

/* ---- state ---------------------------------------------------------- */

struct teeprobe_tcp_cpu __percpu *teeprobe_tcp_percpu;
/* Each port's counters and phases on each CPU, since load or reset */
struct teeprobe_tcp_phases __percpu *teeprobe_tcp_port_phases[TEEPROBE_TCP_PORTS];
static DEFINE_MUTEX(tcp_grow_lock);	/* serializes the phase blocks' growth */
/* the growth; after a failed allocation it comes again by itself */
static struct delayed_work tcp_grow_work;
#define TCP_GROW_RETRY	(HZ / 10)
static struct irq_work tcp_grow_irq;
u32 teeprobe_tcp_ports[TEEPROBE_TCP_PORTS];
/* The handshakes in flight (tcp_table.h) */
struct teeprobe_tcp_table teeprobe_tcp_handshakes;
static struct teeprobe_tcp_bucket *tcp_buckets;
static u64 tcp_last_expire_ns;

/*
 * teeprobe_tcp_port_slot - the counters slot of @port: its own, or 0 when
 * all are taken
 */
unsigned int teeprobe_tcp_port_slot(u16 port)
{
	bool taken;
	unsigned int slot = teeprobe_tcp_slot_of(teeprobe_tcp_ports, TEEPROBE_TCP_PORTS,
						 port, &taken);

	if (taken)	/* any context: an irq_work can be queued from NMI */
		irq_work_queue(&tcp_grow_irq);
	return slot;
}

/* ---- accounting --------------------------------------------------------- */

/* tcp_window_close - emit the window @w of this CPU, closed at @now, and start afresh */
static void tcp_window_close(struct teeprobe_tcp_cpu *st,
			     const struct teeprobe_window *w, u64 now)
{
	teeprobe_tcp_fill_syn_drops(st->win.count);
	trace_teeprobe_tcp_window(smp_processor_id(), w->start_ns, w->len_ns,
				  teeprobe_window_late(w, now), &st->win);
	memset(&st->win, 0, sizeof(st->win));
}

/* tcp_roll - close this CPU's window and open the one holding @now */
static noinline void tcp_roll(struct teeprobe_tcp_cpu *st, u64 now)
{
	struct teeprobe_window closed;

	if (teeprobe_window_roll(&st->window, now, teeprobe_window_len_ns(),
				 &closed))
		tcp_window_close(st, &closed, now);
}

/*
 * tcp_this_cpu - this CPU's state, its window rolled to @now; irqs off.
 * The roll, once a window, out of line.
 */
static struct teeprobe_tcp_cpu *tcp_this_cpu(u64 now)
{
	struct teeprobe_tcp_cpu *st = this_cpu_ptr(teeprobe_tcp_percpu);

	if (unlikely(!teeprobe_window_current(&st->window, now,
					      teeprobe_window_len_ns())))
		tcp_roll(st, now);
	return st;
}

/*
 * teeprobe_tcp_account - count @counter for port @slot at @now (the caller's clock
 * reading: most have one) and add the phases of @phase_ns whose bit is set
 * in @phases
 */
void teeprobe_tcp_account(u64 now, unsigned int slot,
		       enum teeprobe_tcp_counter counter, const u64 *phase_ns,
		       unsigned long phases)
{
	struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(teeprobe_tcp_port_phases[slot]);
	struct teeprobe_tcp_phases *port = NULL;
	struct teeprobe_tcp_cpu *st;
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	st = tcp_this_cpu(now);
	st->port[slot][counter]++;
	st->win.count[counter]++;
	if (phases) {
		if (blk) {
			port = this_cpu_ptr(blk);
		} else {
			/* its block could not be allocated: counted, and asked again */
			st->phases_lost++;
			irq_work_queue(&tcp_grow_irq);
		}
	}
	for_each_set_bit(i, &phases, TEEPROBE_TCP_PHASES) {
		if (port)
			teeprobe_hist_add(&port->phase[i], phase_ns[i]);
		if (i < TEEPROBE_TCP_WINDOW_PHASES)
			teeprobe_hist_add(&st->win.phase[i], phase_ns[i]);
	}
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(teeprobe_tcp_account);

/* teeprobe_tcp_count_at - count one @counter for port @slot at @now */
void teeprobe_tcp_count_at(u64 now, unsigned int slot,
			enum teeprobe_tcp_counter counter)
{
	teeprobe_tcp_account(now, slot, counter, NULL, 0);
}

/* teeprobe_tcp_count - count one @counter for port @slot, now */
void teeprobe_tcp_count(unsigned int slot, enum teeprobe_tcp_counter counter)
{
	teeprobe_tcp_count_at(teeprobe_now_ns(), slot, counter);
}

/*
 * teeprobe_tcp_addrs_of - the endpoints of @sk, stored as
 * sock:inet_sock_set_state does
 */
void teeprobe_tcp_addrs_of(const struct sock *sk, struct teeprobe_tcp_addrs *a)
{
	struct in6_addr v6;

	memset(a, 0, sizeof(*a));
	a->family = sk->sk_family;
	a->sport = sk->sk_num;
	a->dport = ntohs(sk->sk_dport);
	memcpy(a->saddr, &sk->sk_rcv_saddr, sizeof(a->saddr));
	memcpy(a->daddr, &sk->sk_daddr, sizeof(a->daddr));
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		memcpy(a->saddr_v6, &sk->sk_v6_rcv_saddr, sizeof(a->saddr_v6));
		memcpy(a->daddr_v6, &sk->sk_v6_daddr, sizeof(a->daddr_v6));
		return;
	}
#endif
	ipv6_addr_set_v4mapped(sk->sk_rcv_saddr, &v6);
	memcpy(a->saddr_v6, &v6, sizeof(a->saddr_v6));
	ipv6_addr_set_v4mapped(sk->sk_daddr, &v6);
	memcpy(a->daddr_v6, &v6, sizeof(a->daddr_v6));
}

/* ---- window flush and table expiry ------------------------------------- */

/*
 * teeprobe_tcp_flush - close this CPU's window if it ended with windows of @len
 * (window.c's work, by IPI; at unload @len is 0)
 */
void teeprobe_tcp_flush(u64 len)
{
	struct teeprobe_tcp_cpu *st = this_cpu_ptr(teeprobe_tcp_percpu);
	struct teeprobe_window closed;
	u64 now = teeprobe_now_ns();

	if (teeprobe_window_flush(&st->window, now, len, &closed))
		tcp_window_close(st, &closed, now);
}

/* teeprobe_tcp_window_of - @cpu's window, for the flush */
struct teeprobe_window *teeprobe_tcp_window_of(int cpu)
{
	return &per_cpu_ptr(teeprobe_tcp_percpu, cpu)->window;
}

/*
 * teeprobe_tcp_tick - window.c's work, every window: forget stale handshakes, at
 * most once a second
 */
void teeprobe_tcp_tick(u64 now)
{
	if (teeprobe_ns_delta(tcp_last_expire_ns, now) >= TEEPROBE_TCP_EXPIRE_NS) {
		teeprobe_tcp_table_expire(&teeprobe_tcp_handshakes, now);
		tcp_last_expire_ns = now;
	}
}

/* ---- reset ---------------------------------------------------- */

/* teeprobe_tcp_reset_cpu - zero a CPU's totals (on it by IPI, or offline) */
void teeprobe_tcp_reset_cpu(int cpu)
{
	struct teeprobe_tcp_cpu *st = per_cpu_ptr(teeprobe_tcp_percpu, cpu);
	unsigned int slot;

	memset(st->port, 0, sizeof(st->port));
	st->phases_lost = 0;
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(teeprobe_tcp_port_phases[slot]);

		if (blk)
			memset(per_cpu_ptr(blk, cpu), 0, sizeof(*blk));
	}
}

/*
 * teeprobe_tcp_reset_counts - after each CPU's reset: zero the table's
 * counters.
 * Handshakes in flight stay followed, ports keep their slots, windows go on.
 */
void teeprobe_tcp_reset_counts(void)
{
	teeprobe_tcp_table_reset_counts(&teeprobe_tcp_handshakes);
}

/*
 * tcp_slot_wanted - whether @slot needs its phase block now: it is taken,
 * or one of the TEEPROBE_TCP_SPARE slots taken next (slots are taken in order,
 * 1 to TEEPROBE_TCP_PORTS - 1, then "other", slot 0)
 */
static bool tcp_slot_wanted(unsigned int slot)
{
	unsigned int order = slot ? slot - 1 : TEEPROBE_TCP_PORTS - 1, taken = 0;

	while (taken < TEEPROBE_TCP_PORTS - 1 && READ_ONCE(teeprobe_tcp_ports[taken + 1]))
		taken++;
	/* "other" counts from the first SYN beyond the last slot */
	return order < taken + TEEPROBE_TCP_SPARE;
}

/*
 * teeprobe_tcp_blocks_missing - the slots that want their phase block and
 * have none (an allocation failed, or the growth has not run yet)
 */
unsigned int teeprobe_tcp_blocks_missing(void)
{
	unsigned int slot, missing = 0;

	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++)
		if (!READ_ONCE(teeprobe_tcp_port_phases[slot]) && tcp_slot_wanted(slot))
			missing++;
	return missing;
}

/*
 * tcp_grow_fn - allocate the phase blocks the slots taken so far want; when
 * one cannot be, try again after TCP_GROW_RETRY, so that a spare slot has
 * its block before its port comes once memory is there again (the probes
 * also ask, counting phases_lost)
 */
static void tcp_grow_fn(struct work_struct *work)
{
	struct teeprobe_tcp_phases __percpu *blk;
	unsigned int slot;

	mutex_lock(&tcp_grow_lock);
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		if (teeprobe_tcp_port_phases[slot] || !tcp_slot_wanted(slot))
			continue;
		blk = teeprobe_alloc_percpu(sizeof(*blk), __alignof__(*blk));
		if (!blk) {
			schedule_delayed_work(&tcp_grow_work, TCP_GROW_RETRY);
			break;
		}
		/* zeroed memory, then the pointer the probes read */
		smp_store_release(&teeprobe_tcp_port_phases[slot], blk);
	}
	mutex_unlock(&tcp_grow_lock);
}

/* tcp_grow_kick - irq_work: a slot was taken; grow from process context, now */
static void tcp_grow_kick(struct irq_work *work)
{
	mod_delayed_work(system_wq, &tcp_grow_work, 0);
}

/* ---- allocation ---------------------------------------------------------- */

/*
 * teeprobe_tcp_state_alloc - the table of handshakes in flight, each
 * CPU's state and the first slots' phase blocks
 */
int teeprobe_tcp_state_alloc(void)
{
	unsigned int nr_buckets;

	/* alloc_percpu's limit */
	BUILD_BUG_ON(sizeof(struct teeprobe_tcp_cpu) > PCPU_MIN_UNIT_SIZE);
	BUILD_BUG_ON(sizeof(struct teeprobe_tcp_phases) > PCPU_MIN_UNIT_SIZE);
	INIT_DELAYED_WORK(&tcp_grow_work, tcp_grow_fn);
	init_irq_work(&tcp_grow_irq, tcp_grow_kick);
	nr_buckets = teeprobe_tcp_table_buckets(teeprobe_tcp_table_size);
	/*
	 * vmalloc: whole pages (102 KiB by default: 256 buckets of 408
	 * bytes), where kmalloc would round up to a power of two (128 KiB).
	 */
	tcp_buckets = vcalloc(nr_buckets, sizeof(*tcp_buckets));
	if (!tcp_buckets)
		return -ENOMEM;	/* vmalloc said it, with its stack */
	teeprobe_tcp_table_init(&teeprobe_tcp_handshakes, tcp_buckets, nr_buckets,
				(u64)teeprobe_tcp_timeout_s * NSEC_PER_SEC);
	teeprobe_tcp_percpu = teeprobe_alloc_percpu(sizeof(struct teeprobe_tcp_cpu),
						    __alignof__(struct teeprobe_tcp_cpu));
	if (!teeprobe_tcp_percpu) {
		pr_err("tcp: cannot allocate its per-CPU state\n");
		return -ENOMEM;
	}
	tcp_grow_fn(NULL);	/* the first slots' blocks */
	if (!teeprobe_tcp_port_phases[1]) {
		pr_err("tcp: cannot allocate the first ports' per-CPU phase blocks\n");
		return -ENOMEM;
	}
	tcp_last_expire_ns = teeprobe_now_ns();
	return 0;
}

/*
 * teeprobe_tcp_state_free - free what teeprobe_tcp_state_alloc and the
 * growth allocated, once no probe takes a slot: the last kick, then its
 * work (on a failed load as at unload)
 */
void teeprobe_tcp_state_free(void)
{
	irq_work_sync(&tcp_grow_irq);
	cancel_delayed_work_sync(&tcp_grow_work);	/* and its retries */
	teeprobe_free_percpu_n((void __percpu **)teeprobe_tcp_port_phases,
			       TEEPROBE_TCP_PORTS, sizeof(struct teeprobe_tcp_phases));
	teeprobe_free_percpu(teeprobe_tcp_percpu, sizeof(struct teeprobe_tcp_cpu));
	teeprobe_tcp_percpu = NULL;
	vfree(tcp_buckets);
	tcp_buckets = NULL;
}
