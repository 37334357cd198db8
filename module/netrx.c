// SPDX-License-Identifier: GPL-2.0
/*
 * netrx.c - NET_RX softirq processing: is it falling behind the NIC?
 *
 * Probes on the kernel's irq:softirq_raise, irq:softirq_entry,
 * irq:softirq_exit (NET_RX only; other vectors return at once) and
 * napi:napi_poll count, per CPU:
 *
 *   - raises, runs (as /proc/softirqs counts them), run time;
 *   - the delay from the first raise of NET_RX to the run that serves it,
 *     the starvation signal, kept apart by who ran it: a run at irq exit or
 *     bh enable ("inline") waited while its CPU had bottom halves disabled
 *     (a driver spinning in the secure world, a long spin_lock_bh); a run
 *     by ksoftirqd waited for the scheduler (a CPU busy with other tasks);
 *   - runs by ksoftirqd against runs at irq exit or bh enable;
 *   - the part of those delays during which a thread inside a TEE ioctl
 *     held the CPU (the TEE clock of tee_calls.c), and the runs it touched:
 *     NET_RX held back by TEE calls, measured, for both kinds of run;
 *   - packets polled by napi, polls that used their whole budget, runs
 *     that left work behind and raised NET_RX again (net_rx_action does so
 *     when it ran out of budget or time, or when a poll used its whole
 *     budget), and the runs squeezed: stopped by the budget (netdev_budget
 *     packets) or the time limit (netdev_budget_usecs), which the kernel
 *     counts itself as softnet_stat's time_squeeze: a run is squeezed
 *     when that count moved during it.
 *
 * Every counter is updated on its own CPU with interrupts disabled, so the
 * probes, the window flush (an IPI) and a reset (an IPI) never interleave
 * on a CPU. Besides the totals since load or reset, each CPU emits the
 * counters of each time window (window.h) as the teeprobe_netrx_window
 * event when the window closes. The probes count only the totals (and a
 * window's maxima, which no difference gives): a window's counters are the
 * totals less a copy taken as it opened, worked out once, at its close.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "hist.h"
#include "netrx.h"
#include "teeprobe.h"
#include "trace.h"
#include "window.h"

/* napi instances a CPU remembers the interrupt of (the packet waits) */
#define TEEPROBE_NETRX_POLLED		4

struct teeprobe_netrx_cpu {
	struct teeprobe_netrx_counts total;	/* since load or reset */
	/* raise -> entry: runs at irq exit or bh enable, runs by ksoftirqd */
	struct teeprobe_netrx_delays delay;
	/* entry -> exit: its buckets (run_ns and run_max_ns count the rest) */
	struct teeprobe_hist run;

	struct teeprobe_window window;		/* the open window */
	/*
	 * when the open window ends (0: none open): the probes' one test of
	 * it. A change of window_ms closes it by the windows' IPI
	 * (window.c's kick), not at the probes.
	 */
	u64 roll_ns;
	/* the totals as it opened (less what a reset took from them) */
	struct teeprobe_netrx_counts base;
	struct teeprobe_netrx_delays base_delay;
	/* its maxima as they come; its other counters at its close */
	struct teeprobe_netrx_counts win;
	struct teeprobe_netrx_delays win_delay;
	/*
	 * the delays' buckets counted in since it opened: the only ones
	 * whose totals and baseline differ, so the close works out, and
	 * clears, those alone (a window's close costs its buckets, not the
	 * histograms' size: issue 51)
	 */
	struct teeprobe_netrx_touched touched;

	/*
	 * 0 stands for none in raise_ns and entry_ns: the monotonic clock is
	 * far past 0 by the time a module loads, and the probes store it as
	 * read (no test for 0 on their straight line)
	 */
	u64 raise_ns;		/* first raise not yet served, 0 if none */
	u64 raise_tee_ns;	/* the TEE clock (tee_calls.c) at that raise */
	u64 entry_ns;		/* NET_RX running since, 0 if not running */
	s64 run_delay_ns;	/* raise -> entry of that run, -1 unknown */
	u64 run_packets;
	unsigned int run_squeeze;	/* softnet_data's time_squeeze then */
	bool run_ksoftirqd;
	bool run_reraised;
	/*
	 * napi instances an interrupt scheduled, and when (0: a poll took
	 * every packet there was since): their packets wait from then,
	 * whatever other raise the run serves
	 */
	struct {
		unsigned int napi_id;
		u64 sched_ns;
	} sched[TEEPROBE_NETRX_POLLED];
};

/*
 * Allocated at init, not DEFINE_PER_CPU: a module's static per-CPU data
 * comes out of the kernel's small reserve for all modules (8 KiB on arm64)
 */
static struct teeprobe_netrx_cpu __percpu *netrx_cpu;

/*
 * netrx_less - @a less @b into @dst (which may be @a), for every counter a
 * difference gives (not the maxima): at a window's close, the totals less
 * their values as it opened; at a reset, the baseline less the totals
 * taken away
 */
static void netrx_less(struct teeprobe_netrx_counts *dst,
		       const struct teeprobe_netrx_counts *a,
		       const struct teeprobe_netrx_counts *b)
{
#define NETRX_LESS(name, kind, ...) NETRX_LESS_##kind(name)
#define NETRX_LESS_COUNT(name) dst->name = a->name - b->name;
#define NETRX_LESS_NS(name) dst->name = a->name - b->name;
#define NETRX_LESS_MAX(name)
#define NETRX_LESS_DELAY(name)
	TEEPROBE_NETRX_STATS_COLS(NETRX_LESS)
}

/*
 * netrx_close - emit the window @w of this CPU, closed at @now, and start afresh
 * (once a window: kept out of the probes' straight line). Its counters
 * are the totals less their values as it opened; its maxima were kept.
 */
static noinline void netrx_close(struct teeprobe_netrx_cpu *st,
				 const struct teeprobe_window *w, u64 now)
{
	netrx_less(&st->win, &st->total, &st->base);
#define TEEPROBE_NETRX_DELAY_DO(name) \
	teeprobe_hist_window(&st->win_delay.name, &st->delay.name, \
			     &st->base_delay.name, st->touched.name);
	TEEPROBE_NETRX_EACH_DELAY
#undef TEEPROBE_NETRX_DELAY_DO
	trace_teeprobe_netrx_window(smp_processor_id(), w->start_ns, w->len_ns,
				    teeprobe_window_late(w, now),
				    &st->win, &st->win_delay);
	st->base = st->total;
	memset(&st->win, 0, sizeof(st->win));
#define TEEPROBE_NETRX_DELAY_DO(name) \
	teeprobe_hist_window_clear(&st->win_delay.name, st->touched.name);
	TEEPROBE_NETRX_EACH_DELAY
#undef TEEPROBE_NETRX_DELAY_DO
}

/* netrx_roll - close this CPU's window and open the one holding @now */
static noinline void netrx_roll(struct teeprobe_netrx_cpu *st, u64 now)
{
	struct teeprobe_window closed;

	if (teeprobe_window_roll(&st->window, now, teeprobe_window_len_ns(),
				 &closed))
		netrx_close(st, &closed, now);
	st->roll_ns = st->window.start_ns + st->window.len_ns;
}

/*
 * netrx_roll_due - @st's window rolled to @now, if @now is past its end.
 * Interrupts are disabled. Inline, and the roll out of line (with the
 * closed window's copy on its stack): a probe asks once or twice a run,
 * and only whether @now is past the open window's end (an event older
 * than the window's start counts in it, as teeprobe_window_roll() does).
 * A new window length does not roll it here: the windows' work sends
 * every CPU whose window has another length an IPI at once (window.c),
 * whose flush closes it early, as a roll did.
 */
static __always_inline void netrx_roll_due(struct teeprobe_netrx_cpu *st,
					   u64 now)
{
	if (unlikely(now >= st->roll_ns))
		netrx_roll(st, now);
}

/* netrx_this_cpu - this CPU's state, its window rolled to @now; irqs off */
static __always_inline struct teeprobe_netrx_cpu *netrx_this_cpu(u64 now)
{
	struct teeprobe_netrx_cpu *st = this_cpu_ptr(netrx_cpu);

	netrx_roll_due(st, now);
	return st;
}

/*
 * is_ksoftirqd - whether @task is a ksoftirqd thread. Most runs happen at
 * irq exit over a user task or the idle task (a kernel thread too, with
 * PF_IDLE): the flags alone answer for those, without comparing names.
 */
static bool is_ksoftirqd(const struct task_struct *task)
{
	return (task->flags & (PF_KTHREAD | PF_IDLE)) == PF_KTHREAD &&
	       !strncmp(task->comm, "ksoftirqd/", 10);
}

/* netrx_this_cpu_now - netrx_this_cpu() at a fresh clock reading, out of line */
static noinline struct teeprobe_netrx_cpu *netrx_this_cpu_now(void)
{
	return netrx_this_cpu(teeprobe_now_ns());
}

/*
 * netrx_scheduled - an interrupt scheduled the napi at the tail of this
 * CPU's poll list (____napi_schedule adds it there, then raises NET_RX):
 * its packets wait from @now (0: the clock is read here, only when it is
 * needed), unless it was scheduled and not polled yet. Irqs off.
 */
static void netrx_scheduled(struct teeprobe_netrx_cpu *st, u64 now)
{
	struct softnet_data *sd = this_cpu_ptr(&softnet_data);
	unsigned int i, id;

	if (list_empty(&sd->poll_list))
		return;
	id = list_last_entry(&sd->poll_list, struct napi_struct, poll_list)->napi_id;
	if (!id)
		return;
	/* its entry, else the first free one (once per napi: apart) */
	for (i = 0; i < TEEPROBE_NETRX_POLLED; i++) {
		if (st->sched[i].napi_id == id) {
			if (st->sched[i].sched_ns)
				return;
			goto stamp;
		}
	}
	for (i = 0; i < TEEPROBE_NETRX_POLLED; i++)
		if (!st->sched[i].napi_id)
			break;
	if (i == TEEPROBE_NETRX_POLLED)
		return;
	st->sched[i].napi_id = id;
stamp:
	if (!now)
		now = teeprobe_now_ns();
	st->sched[i].sched_ns = now ? now : 1;
}

/* netrx_sched_of - when napi @id was scheduled and not polled since, or 0 */
static u64 netrx_sched_of(const struct teeprobe_netrx_cpu *st, unsigned int id)
{
	unsigned int i;

	for (i = 0; id && i < TEEPROBE_NETRX_POLLED; i++)
		if (st->sched[i].napi_id == id)
			return st->sched[i].sched_ns;
	return 0;
}

/*
 * netrx_softirq_raise - NET_RX was raised (hard irq, or NET_RX itself).
 * Interrupts are off: __raise_softirq_irqoff() is the tracepoint's only
 * caller, and every path to it disables them (raise_softirq() does).
 */
static void netrx_softirq_raise(void *data, unsigned int vec_nr)
{
	struct teeprobe_netrx_cpu *st;
	u64 now = 0;

	if (vec_nr != NET_RX_SOFTIRQ)
		return;
	lockdep_assert_irqs_disabled();
	/*
	 * Only the first raise before a run starts the clock: the others (an
	 * interrupt per packet under load) are counted in the open window.
	 */
	st = this_cpu_ptr(netrx_cpu);
	if (!st->raise_ns) {
		now = teeprobe_now_ns();
		netrx_roll_due(st, now);
		st->raise_ns = now;
		st->raise_tee_ns = teeprobe_tee_clock_ns(now);
	}
	st->total.raises++;
	/* A NIC's interrupt: which napi it scheduled, and when. */
	if (in_hardirq())
		netrx_scheduled(st, now);
	/*
	 * Raised from inside our own run, not by an interrupt: work left, the
	 * run counted once, here rather than at its exit
	 */
	else if (st->entry_ns && in_serving_softirq() && !st->run_reraised) {
		st->run_reraised = true;
		st->total.reraises++;
	}
}

/*
 * netrx_wait - the run starting at @now serves the raise of st->raise_ns:
 * its wait, by who runs it (@ksoftirqd), and the TEE's share of it
 */
static __always_inline void netrx_wait(struct teeprobe_netrx_cpu *st, u64 now,
				       bool ksoftirqd)
{
	u64 delay = teeprobe_ns_delta(st->raise_ns, now), tee;
	struct teeprobe_hist *h;
	unsigned long *touched;
	u64 *win_max;

	if (ksoftirqd) {
		h = &st->delay.ksoftirqd_delay;
		touched = st->touched.ksoftirqd_delay;
		win_max = &st->win_delay.ksoftirqd_delay.max;
	} else {
		h = &st->delay.inline_delay;
		touched = st->touched.inline_delay;
		win_max = &st->win_delay.inline_delay.max;
	}
	__set_bit(teeprobe_hist_add_at(h, delay), touched);
	if (unlikely(delay > *win_max))
		*win_max = delay;
	/* The TEE's share of the wait: its clock ran meanwhile. */
	tee = teeprobe_tee_clock_ns(now);
	if (unlikely(tee > st->raise_tee_ns)) {
		st->total.tee_runs++;
		st->total.tee_delay_sum_ns += min(tee - st->raise_tee_ns, delay);
	}
	st->run_delay_ns = delay;
	st->raise_ns = 0;
}

/*
 * netrx_softirq_entry - net_rx_action starts on this CPU. handle_softirqs()
 * (__do_softirq() before 6.9), the tracepoint's only caller, runs the
 * vectors with interrupts on: they are turned off, not saved.
 */
static void netrx_softirq_entry(void *data, unsigned int vec_nr)
{
	struct teeprobe_netrx_cpu *st;
	bool ksoftirqd;
	u64 now;

	if (vec_nr != NET_RX_SOFTIRQ)
		return;
	lockdep_assert_irqs_enabled();
	local_irq_disable();
	now = teeprobe_now_ns();
	st = netrx_this_cpu(now);
	ksoftirqd = is_ksoftirqd(current);
	st->total.runs++;
	st->total.ksoftirqd_runs += ksoftirqd;
	st->entry_ns = now;
	st->run_packets = 0;
	st->run_squeeze = __this_cpu_read(softnet_data.time_squeeze);
	st->run_ksoftirqd = ksoftirqd;
	st->run_reraised = false;
	if (likely(st->raise_ns))
		netrx_wait(st, now, ksoftirqd);
	else
		st->run_delay_ns = -1;
	local_irq_enable();
}

/* netrx_trace_run - the teeprobe_netrx_run event, when it is on */
static noinline void netrx_trace_run(const struct teeprobe_netrx_cpu *st,
				     u64 run_ns)
{
	trace_teeprobe_netrx_run(st->run_delay_ns, run_ns, st->run_packets,
				 st->run_ksoftirqd, st->run_reraised);
}

/* netrx_softirq_exit - net_rx_action returned (interrupts on, as above) */
static void netrx_softirq_exit(void *data, unsigned int vec_nr)
{
	struct teeprobe_netrx_cpu *st;
	u64 now, run_ns;

	if (vec_nr != NET_RX_SOFTIRQ)
		return;
	lockdep_assert_irqs_enabled();
	local_irq_disable();
	now = teeprobe_now_ns();
	st = netrx_this_cpu(now);
	if (unlikely(!st->entry_ns))	/* started before teeprobe was loaded */
		goto out;
	run_ns = teeprobe_ns_delta(st->entry_ns, now);
	st->total.run_ns += run_ns;
	if (unlikely(run_ns > st->total.run_max_ns))
		st->total.run_max_ns = run_ns;
	if (unlikely(run_ns > st->win.run_max_ns))
		st->win.run_max_ns = run_ns;
	if (unlikely(__this_cpu_read(softnet_data.time_squeeze) !=
		     st->run_squeeze))
		st->total.squeezes++;
	/* its count, sum and max are runs, run_ns and run_max_ns */
	st->run.bucket[teeprobe_hist_bucket(run_ns)]++;
	if (trace_teeprobe_netrx_run_enabled())
		netrx_trace_run(st, run_ns);
	st->entry_ns = 0;
out:
	local_irq_enable();
}

/*
 * netrx_served - a poll of napi @id took fewer packets than its budget:
 * every packet there was. A packet of a later poll came after it, and the
 * interrupt that schedules the napi again says when (no clock read here).
 * A poll that used its whole budget left packets behind, which still wait
 * from the interrupt it served. (An interrupt between the driver's
 * napi_complete_done() and this hook is forgotten: that napi's next
 * packets then wait from the raise their run serves, an upper bound.)
 */
static void netrx_served(struct teeprobe_netrx_cpu *st, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < TEEPROBE_NETRX_POLLED; i++) {
		if (st->sched[i].napi_id == id) {	/* its one entry */
			st->sched[i].sched_ns = 0;
			return;
		}
	}
}

/* netrx_poll_count - count a poll of @napi that did @work of @budget */
static __always_inline void netrx_poll_count(struct teeprobe_netrx_cpu *st,
					     const struct napi_struct *napi,
					     u64 packets, int work, int budget)
{
	st->total.polls++;
	st->total.packets += packets;
	if (budget > 0 && work >= budget)
		st->total.budget_full++;
	else if (napi->napi_id)	/* without an id: no wait is asked of it */
		netrx_served(st, napi->napi_id);
}

/*
 * netrx_poll_alone - a poll outside a NET_RX run (busy polling, netpoll,
 * a threaded napi): no entry rolled the window, so it is rolled here, out
 * of the hook's straight line. Irqs off.
 */
static noinline void netrx_poll_alone(const struct napi_struct *napi,
				      u64 packets, int work, int budget)
{
	netrx_poll_count(netrx_this_cpu_now(), napi, packets, work, budget);
}

/* netrx_napi_poll - one napi instance was polled and did @work packets */
static void netrx_napi_poll(void *data, struct napi_struct *napi, int work,
			 int budget)
{
	struct teeprobe_netrx_cpu *st;
	unsigned long flags;
	u64 packets = work > 0 ? work : 0;

	local_irq_save(flags);
	st = this_cpu_ptr(netrx_cpu);
	/* In a run, its entry rolled the window: no clock read per poll. */
	if (likely(st->entry_ns)) {
		netrx_poll_count(st, napi, packets, work, budget);
		st->run_packets += packets;
	} else {
		netrx_poll_alone(napi, packets, work, budget);
	}
	local_irq_restore(flags);
}

/*
 * teeprobe_netrx_packet_wait_ns - how long a packet of napi @napi_id that
 * this CPU's NET_RX run hands to its protocol now waited for NET_RX: from
 * when it is known to have been there to @now, the packets the poll took
 * before it included (they held it back as much as a late poll would).
 * It was there since the NIC's interrupt scheduled its napi (a poll that
 * took every packet there was ends that: the next interrupt starts it
 * again); else (an interrupt teeprobe did not see) since the raise the
 * run serves. A packet that came while its napi was already scheduled
 * came later than that: without a timestamp from the NIC no one knows
 * when, and the wait is an upper bound. 0 when no NET_RX run is in
 * progress on this CPU: the packet is handled in process context (a
 * socket's backlog). Called with preemption off, from NET_RX's own call
 * chain.
 */
u64 teeprobe_netrx_packet_wait_ns(u64 now, unsigned int napi_id)
{
	const struct teeprobe_netrx_cpu *st = this_cpu_ptr(netrx_cpu);
	u64 entry = READ_ONCE(st->entry_ns), sched;
	s64 delay = READ_ONCE(st->run_delay_ns);

	if (!entry || !in_serving_softirq())
		return 0;
	sched = netrx_sched_of(st, napi_id);
	if (sched)
		return teeprobe_ns_delta(sched, now);
	return (delay > 0 ? delay : 0) + teeprobe_ns_delta(entry, now);
}

static struct teeprobe_hook netrx_hooks[] = {
	{ .name = "softirq_raise", .probe = netrx_softirq_raise },
	{ .name = "softirq_entry", .probe = netrx_softirq_entry },
	{ .name = "softirq_exit", .probe = netrx_softirq_exit },
	{ .name = "napi_poll", .probe = netrx_napi_poll },
};

/* ---- window flush ------------------------------------------------------- */

/*
 * netrx_flush - close this CPU's window if it ended with windows of @len
 * (window.c's work, by IPI; at unload @len is 0)
 */
static void netrx_flush(u64 len)
{
	struct teeprobe_netrx_cpu *st = this_cpu_ptr(netrx_cpu);
	struct teeprobe_window closed;
	u64 now = teeprobe_now_ns();

	if (teeprobe_window_flush(&st->window, now, len, &closed)) {
		netrx_close(st, &closed, now);
		st->roll_ns = 0;
	}
}

/* netrx_window_of - @cpu's window, for the flush */
static struct teeprobe_window *netrx_window_of(int cpu)
{
	return &per_cpu_ptr(netrx_cpu, cpu)->window;
}

/* ---- reset and debugfs ---------------------------------------------------- */

/*
 * netrx_reset_cpu - zero a CPU's totals and histograms (on it by IPI, or
 * offline). Windows are a stream and go on undisturbed: what the open
 * window holds so far is carried in its baseline, below zero.
 */
static void netrx_reset_cpu(int cpu)
{
	struct teeprobe_netrx_cpu *st = per_cpu_ptr(netrx_cpu, cpu);

	/*
	 * A bucket's baseline moves only where the window's touched bitmap
	 * says it differs from the total, and differs from it after this
	 * by as much as before: the bitmap holds.
	 */
	netrx_less(&st->base, &st->base, &st->total);
#define TEEPROBE_NETRX_DELAY_DO(name) \
	teeprobe_hist_diff(&st->base_delay.name, &st->base_delay.name, \
			   &st->delay.name);
	TEEPROBE_NETRX_EACH_DELAY
#undef TEEPROBE_NETRX_DELAY_DO
	memset(&st->total, 0, sizeof(st->total));
	memset(&st->delay, 0, sizeof(st->delay));
	memset(&st->run, 0, sizeof(st->run));
}

/* counts_merge - add the counters and delays of one CPU into the sums */
static void counts_merge(struct teeprobe_netrx_counts *sum,
			 struct teeprobe_netrx_delays *sum_delay,
			 const struct teeprobe_netrx_counts *c,
			 const struct teeprobe_netrx_delays *d)
{
#define NETRX_MERGE(name, kind, ...) NETRX_MERGE_##kind(name)
#define NETRX_MERGE_COUNT(name) sum->name += c->name;
#define NETRX_MERGE_NS(name) sum->name += c->name;
#define NETRX_MERGE_MAX(name) sum->name = max(sum->name, c->name);
#define NETRX_MERGE_DELAY(name) teeprobe_hist_merge(&sum_delay->name, &d->name);
	TEEPROBE_NETRX_STATS_COLS(NETRX_MERGE)
}

/* show_counts_line - one line of netrx_stats, its columns abi.h's */
static void show_counts_line(struct seq_file *m, const char *cpu,
			     const struct teeprobe_netrx_counts *c,
			     const struct teeprobe_netrx_delays *d)
{
#define NETRX_SHOW(name, kind, ...) NETRX_SHOW_##kind(name)
#define NETRX_SHOW_COUNT(name) seq_printf(m, " %llu", c->name);
#define NETRX_SHOW_NS(name) seq_printf(m, " %llu", c->name);
#define NETRX_SHOW_MAX(name) seq_printf(m, " %llu", c->name);
#define NETRX_SHOW_DELAY(name) \
	seq_printf(m, " %llu %llu %llu", d->name.count, d->name.sum, d->name.max);
	seq_puts(m, cpu);
	TEEPROBE_NETRX_STATS_COLS(NETRX_SHOW)
	seq_putc(m, '\n');
}

/* netrx_show_stats - netrx_stats: a line per CPU, then "all" */
static void netrx_show_stats(struct seq_file *m)
{
	struct teeprobe_netrx_counts sum = {};
	struct teeprobe_netrx_delays *d;
	char name[16];
	int cpu;

	/* [0]: one CPU's delays (a copy: they change meanwhile); [1]: sums */
	d = teeprobe_should_fail("netrx_stats") ? NULL :
	    kcalloc(2, sizeof(*d), GFP_KERNEL);
	if (!d) {
		teeprobe_seq_enomem(m);
		return;
	}
	seq_puts(m, TEEPROBE_HEADER(TEEPROBE_NETRX_STATS_KEYS,
				    TEEPROBE_NETRX_STATS_COLS));
	for_each_possible_cpu(cpu) {
		struct teeprobe_netrx_cpu *st = per_cpu_ptr(netrx_cpu, cpu);
		struct teeprobe_netrx_counts c = st->total;

		d[0] = st->delay;
		snprintf(name, sizeof(name), "%d", cpu);
		show_counts_line(m, name, &c, &d[0]);
		counts_merge(&sum, &d[1], &c, &d[0]);
	}
	show_counts_line(m, TEEPROBE_ALL, &sum, &d[1]);
	kfree(d);
}

/* netrx_show_hist - netrx_hist: the delays, then the run times */
static void netrx_show_hist(struct seq_file *m)
{
#define NETRX_HIST(name, kind, ...) NETRX_HIST_##kind(name)
#define NETRX_HIST_COUNT(name)
#define NETRX_HIST_NS(name)
#define NETRX_HIST_MAX(name)
#define NETRX_HIST_DELAY(name) \
	teeprobe_seq_hist_rows(m, #name, netrx_cpu, \
			       offsetof(struct teeprobe_netrx_cpu, delay.name));
#define NETRX_HIST_HIST(name) \
	teeprobe_seq_hist_rows(m, #name, netrx_cpu, \
			       offsetof(struct teeprobe_netrx_cpu, name));
	teeprobe_seq_hist_header(m, TEEPROBE_COLS_STR(TEEPROBE_NETRX_HIST_KEYS));
	TEEPROBE_NETRX_HISTS(NETRX_HIST)
	teeprobe_seq_hist_trailer(m);
}

/* ---- init and exit -------------------------------------------------------- */

static struct teeprobe_file netrx_files[] = {
	{ .id = TEEPROBE_FILE_NETRX_STATS, .show = netrx_show_stats,
	  .window_ms = true },
	{ .id = TEEPROBE_FILE_NETRX_HIST, .show = netrx_show_hist },
};

static struct teeprobe_part netrx_part = {
	.name = "netrx",
	.window_of = netrx_window_of,
	.flush = netrx_flush,
	.reset_cpu = netrx_reset_cpu,
	.files = netrx_files,
	.nr_files = ARRAY_SIZE(netrx_files),
};

/* teeprobe_netrx_init - attach the probes, register the part */
int teeprobe_netrx_init(void)
{
	int ret;

	netrx_cpu = teeprobe_alloc_percpu(sizeof(struct teeprobe_netrx_cpu),
					  __alignof__(struct teeprobe_netrx_cpu));
	if (!netrx_cpu) {
		pr_err("netrx: cannot allocate its per-CPU state (%zu bytes a CPU)\n",
		       sizeof(struct teeprobe_netrx_cpu));
		return -ENOMEM;
	}
	ret = teeprobe_hooks_attach("netrx", netrx_hooks,
				    ARRAY_SIZE(netrx_hooks));
	if (ret) {
		teeprobe_free_percpu(netrx_cpu, sizeof(struct teeprobe_netrx_cpu));
		netrx_cpu = NULL;
		return ret;
	}
	teeprobe_part_register(&netrx_part);
	return 0;
}

/* teeprobe_netrx_exit - detach, then emit the windows still open */
void teeprobe_netrx_exit(void)
{
	teeprobe_hooks_detach(netrx_hooks, ARRAY_SIZE(netrx_hooks));
	tracepoint_synchronize_unregister();
	/* Nothing updates the windows any more: it closes them. */
	teeprobe_part_unregister(&netrx_part);
	teeprobe_free_percpu(netrx_cpu, sizeof(struct teeprobe_netrx_cpu));
	netrx_cpu = NULL;
}
