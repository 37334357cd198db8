/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace.h - teeprobe's trace events (system "teeprobe").
 *
 * Defined with TRACE_EVENT so they show up under
 * /sys/kernel/tracing/events/teeprobe/ and "trace-cmd record -e teeprobe"
 * records them with their formats; libtraceevent prints them from those
 * formats alone.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM teeprobe

#if !defined(_TEEPROBE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TEEPROBE_TRACE_H

#include <linux/tracepoint.h>

#include "hist.h"
#include "softirq.h"
#include "tee_cmd.h"

/* Tell user space (libtraceevent) the values of the command names. */
#ifndef TP_TEE_CMD_SYMBOL
#define TP_TEE_CMD_SYMBOL(e, name, cmd) { e, name },
#define TP_TEE_CMD_DEFINE(e, name, cmd) TRACE_DEFINE_ENUM(e);
#endif
TEEPROBE_TEE_CMD_LIST(TP_TEE_CMD_DEFINE)
TRACE_DEFINE_ENUM(TP_TEE_CMD_OTHER);

#define show_tee_cmd(cmd)						\
	__print_symbolic(cmd, TEEPROBE_TEE_CMD_LIST(TP_TEE_CMD_SYMBOL)	\
			 { TP_TEE_CMD_OTHER, "OTHER" })

/*
 * teeprobe_reset - the module's counters and histograms were zeroed.
 * Readers of a recording use it to know that debugfs snapshots taken before
 * and after it do not subtract.
 */
TRACE_EVENT(teeprobe_reset,

	TP_PROTO(unsigned int generation),

	TP_ARGS(generation),

	TP_STRUCT__entry(
		__field(unsigned int, generation)
	),

	TP_fast_assign(
		__entry->generation = generation;
	),

	TP_printk("generation=%u", __entry->generation)
);

/*
 * teeprobe_tee_ioctl_enter - a thread entered the TEE driver's ioctl.
 * @cmd: the decoded command; @raw_cmd: the ioctl number as passed.
 */
TRACE_EVENT(teeprobe_tee_ioctl_enter,

	TP_PROTO(unsigned int cmd, unsigned int raw_cmd),

	TP_ARGS(cmd, raw_cmd),

	TP_STRUCT__entry(
		__field(unsigned int, cmd)
		__field(unsigned int, raw_cmd)
	),

	TP_fast_assign(
		__entry->cmd = cmd;
		__entry->raw_cmd = raw_cmd;
	),

	TP_printk("cmd=%s raw_cmd=0x%x", show_tee_cmd(__entry->cmd),
		  __entry->raw_cmd)
);

/*
 * teeprobe_tee_ioctl_exit - the thread left the TEE driver's ioctl.
 * @duration_ns: time inside the ioctl; @offcpu_ns: the part of it the thread
 * was blocked (asleep); @runq_ns: the part it was preempted and waiting for
 * a CPU; @queue_wait_ns: the part spent waiting for a free secure thread
 * (where the driver shows it); @ret: the ioctl's return value.
 */
TRACE_EVENT(teeprobe_tee_ioctl_exit,

	TP_PROTO(unsigned int cmd, u64 duration_ns, u64 offcpu_ns, u64 runq_ns,
		 u64 queue_wait_ns, long ret),

	TP_ARGS(cmd, duration_ns, offcpu_ns, runq_ns, queue_wait_ns, ret),

	TP_STRUCT__entry(
		__field(unsigned int, cmd)
		__field(u64, duration_ns)
		__field(u64, offcpu_ns)
		__field(u64, runq_ns)
		__field(u64, queue_wait_ns)
		__field(long, ret)
	),

	TP_fast_assign(
		__entry->cmd = cmd;
		__entry->duration_ns = duration_ns;
		__entry->offcpu_ns = offcpu_ns;
		__entry->runq_ns = runq_ns;
		__entry->queue_wait_ns = queue_wait_ns;
		__entry->ret = ret;
	),

	TP_printk("cmd=%s duration_ns=%llu offcpu_ns=%llu runq_ns=%llu queue_wait_ns=%llu ret=%ld",
		  show_tee_cmd(__entry->cmd), __entry->duration_ns,
		  __entry->offcpu_ns, __entry->runq_ns, __entry->queue_wait_ns,
		  __entry->ret)
);

/*
 * teeprobe_netrx_window - NET_RX on one CPU during one time window.
 * Emitted when the window closes, only for windows with NET_RX activity;
 * windows are aligned to multiples of @len_ns on the monotonic clock, so
 * windows of different CPUs with the same @start_ns cover the same time.
 * The delay fields describe the raise -> entry delays of the runs in the
 * window, apart for runs at irq exit or bh enable (inline) and runs by
 * ksoftirqd; the p99 fields are upper bounds (the top of the log2 bucket
 * holding the percentile, at most the max).
 */
TRACE_EVENT(teeprobe_netrx_window,

	TP_PROTO(int cpu, u64 start_ns, u64 len_ns,
		 const struct teeprobe_netrx_counts *c,
		 const struct teeprobe_hist *inline_delay,
		 const struct teeprobe_hist *ksoftirqd_delay),

	TP_ARGS(cpu, start_ns, len_ns, c, inline_delay, ksoftirqd_delay),

	TP_STRUCT__entry(
		__field(int, cpu)
		__field(u64, start_ns)
		__field(u64, len_ns)
		__field(u64, raises)
		__field(u64, runs)
		__field(u64, ksoftirqd_runs)
		__field(u64, run_ns)
		__field(u64, run_max_ns)
		__field(u64, packets)
		__field(u64, polls)
		__field(u64, budget_full)
		__field(u64, reraises)
		__field(u64, inline_delay_count)
		__field(u64, inline_delay_sum_ns)
		__field(u64, inline_delay_p99_ns)
		__field(u64, inline_delay_max_ns)
		__field(u64, ksoftirqd_delay_count)
		__field(u64, ksoftirqd_delay_sum_ns)
		__field(u64, ksoftirqd_delay_p99_ns)
		__field(u64, ksoftirqd_delay_max_ns)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->start_ns = start_ns;
		__entry->len_ns = len_ns;
		__entry->raises = c->raises;
		__entry->runs = c->runs;
		__entry->ksoftirqd_runs = c->ksoftirqd_runs;
		__entry->run_ns = c->run_ns;
		__entry->run_max_ns = c->run_max_ns;
		__entry->packets = c->packets;
		__entry->polls = c->polls;
		__entry->budget_full = c->budget_full;
		__entry->reraises = c->reraises;
		__entry->inline_delay_count = inline_delay->count;
		__entry->inline_delay_sum_ns = inline_delay->sum;
		__entry->inline_delay_p99_ns =
			teeprobe_hist_percentile(inline_delay, 99);
		__entry->inline_delay_max_ns = inline_delay->max;
		__entry->ksoftirqd_delay_count = ksoftirqd_delay->count;
		__entry->ksoftirqd_delay_sum_ns = ksoftirqd_delay->sum;
		__entry->ksoftirqd_delay_p99_ns =
			teeprobe_hist_percentile(ksoftirqd_delay, 99);
		__entry->ksoftirqd_delay_max_ns = ksoftirqd_delay->max;
	),

	TP_printk("cpu=%d start_ns=%llu len_ns=%llu raises=%llu runs=%llu ksoftirqd_runs=%llu run_ns=%llu run_max_ns=%llu packets=%llu polls=%llu budget_full=%llu reraises=%llu inline_delay_count=%llu inline_delay_sum_ns=%llu inline_delay_p99_ns=%llu inline_delay_max_ns=%llu ksoftirqd_delay_count=%llu ksoftirqd_delay_sum_ns=%llu ksoftirqd_delay_p99_ns=%llu ksoftirqd_delay_max_ns=%llu",
		  __entry->cpu, __entry->start_ns, __entry->len_ns,
		  __entry->raises, __entry->runs, __entry->ksoftirqd_runs,
		  __entry->run_ns, __entry->run_max_ns, __entry->packets,
		  __entry->polls, __entry->budget_full, __entry->reraises,
		  __entry->inline_delay_count, __entry->inline_delay_sum_ns,
		  __entry->inline_delay_p99_ns, __entry->inline_delay_max_ns,
		  __entry->ksoftirqd_delay_count,
		  __entry->ksoftirqd_delay_sum_ns,
		  __entry->ksoftirqd_delay_p99_ns,
		  __entry->ksoftirqd_delay_max_ns)
);

/*
 * teeprobe_netrx_run - one NET_RX softirq run on this CPU, for short
 * sessions (off unless enabled). @delay_ns is the raise -> entry delay, -1
 * when no raise was seen since the previous run; @packets the napi work of
 * the run; @ksoftirqd whether ksoftirqd ran it (else irq exit or bh
 * enable); @reraised whether it left work and raised NET_RX again.
 */
TRACE_EVENT(teeprobe_netrx_run,

	TP_PROTO(s64 delay_ns, u64 run_ns, u64 packets, bool ksoftirqd,
		 bool reraised),

	TP_ARGS(delay_ns, run_ns, packets, ksoftirqd, reraised),

	TP_STRUCT__entry(
		__field(s64, delay_ns)
		__field(u64, run_ns)
		__field(u64, packets)
		__field(u8, ksoftirqd)
		__field(u8, reraised)
	),

	TP_fast_assign(
		__entry->delay_ns = delay_ns;
		__entry->run_ns = run_ns;
		__entry->packets = packets;
		__entry->ksoftirqd = ksoftirqd;
		__entry->reraised = reraised;
	),

	TP_printk("delay_ns=%lld run_ns=%llu packets=%llu ksoftirqd=%u reraised=%u",
		  __entry->delay_ns, __entry->run_ns, __entry->packets,
		  __entry->ksoftirqd, __entry->reraised)
);

#endif /* _TEEPROBE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
