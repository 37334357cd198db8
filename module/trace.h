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

#include <linux/sched.h>
#include <linux/tracepoint.h>

#include "abi.h"
#include "hist.h"
#include "netrx.h"
#include "tcp_counts.h"
#include "tee_cmd.h"

/*
 * Every event takes a reference on the module while anyone has it enabled
 * (any tracefs instance, perf, BPF): rmmod says "in use" until they are
 * off, instead of removing the events under a recording (a session whose
 * owner was killed, say). events.c has the pair; acceptors.c wraps it for
 * its event, whose scheduler probes are attached while it is enabled.
 */
#ifndef TEEPROBE_EVENT_REG_DECLARED
#define TEEPROBE_EVENT_REG_DECLARED
int teeprobe_event_reg(void);
void teeprobe_event_unreg(void);
int teeprobe_acceptors_event_reg(void);
void teeprobe_acceptors_event_unreg(void);

/*
 * Each event's entry is abi.h's list of its fields: F(type, name) a
 * field, A(type, name, length) an array. The window events' fields after
 * their window are u64s from the lists of netrx_stats' columns (a DELAY
 * as count, sum, p99 and max) and of the TCP counters and phases marked
 * WIN; their printk's format and arguments come from the same lists (the
 * arguments with no white space between them, as abi.h says).
 */
#define TEEPROBE_EV_FIELD(type, name) __field(type, name)
#define TEEPROBE_EV_ARRAY(type, name, len) __array(type, name, len)
#define TEEPROBE_EV_ENTRY(list) list(TEEPROBE_EV_FIELD, TEEPROBE_EV_ARRAY)
#define TEEPROBE_EV_SET(type, name) __entry->name = name;
#define TEEPROBE_EV_SKIP(type, name, len)
#define TEEPROBE_EV_WINDOW_FMT "cpu=%d start_ns=%llu len_ns=%llu late_ns=%llu"
#define TEEPROBE_EV_WINDOW_ARGS() __entry->cpu, __entry->start_ns, __entry->len_ns, \
	__entry->late_ns

/* teeprobe_netrx_window's fields after its window */
#define TEEPROBE_EV_NETRX(name, kind, ...) TEEPROBE_EV_NETRX_##kind(name)
#define TEEPROBE_EV_NETRX_COUNT(name) __field(u64, name)
#define TEEPROBE_EV_NETRX_NS(name) __field(u64, name)
#define TEEPROBE_EV_NETRX_MAX(name) __field(u64, name)
#define TEEPROBE_EV_NETRX_DELAY(name) \
	__field(u64, name##_count) __field(u64, name##_sum_ns) \
	__field(u64, name##_p99_ns) __field(u64, name##_max_ns)
#define TEEPROBE_EV_NETRX_SET(name, kind, ...) TEEPROBE_EV_NETRX_SET_##kind(name)
#define TEEPROBE_EV_NETRX_SET_COUNT(name) __entry->name = c->name;
#define TEEPROBE_EV_NETRX_SET_NS(name) __entry->name = c->name;
#define TEEPROBE_EV_NETRX_SET_MAX(name) __entry->name = c->name;
#define TEEPROBE_EV_NETRX_SET_DELAY(name)				\
	__entry->name##_count = d->name.count;				\
	__entry->name##_sum_ns = d->name.sum;				\
	__entry->name##_p99_ns = teeprobe_hist_percentile(&d->name, 99); \
	__entry->name##_max_ns = d->name.max;
#define TEEPROBE_EV_NETRX_FMT(name, kind, ...) TEEPROBE_EV_NETRX_FMT_##kind(name)
#define TEEPROBE_EV_NETRX_FMT_COUNT(name) " " #name "=%llu"
#define TEEPROBE_EV_NETRX_FMT_NS(name) " " #name "=%llu"
#define TEEPROBE_EV_NETRX_FMT_MAX(name) " " #name "=%llu"
#define TEEPROBE_EV_NETRX_FMT_DELAY(name) \
	" " #name "_count=%llu " #name "_sum_ns=%llu " \
	#name "_p99_ns=%llu " #name "_max_ns=%llu"
#define TEEPROBE_EV_NETRX_ARG(name, kind, ...) TEEPROBE_EV_NETRX_ARG_##kind(name)
#define TEEPROBE_EV_NETRX_ARG_COUNT(name) \
	, __entry->name
#define TEEPROBE_EV_NETRX_ARG_NS(name) \
	, __entry->name
#define TEEPROBE_EV_NETRX_ARG_MAX(name) \
	, __entry->name
#define TEEPROBE_EV_NETRX_ARG_DELAY(name) \
	, __entry->name##_count, \
	__entry->name##_sum_ns, __entry->name##_p99_ns, __entry->name##_max_ns

/* teeprobe_tcp_window's fields after its window: counters, then phases */
#define TEEPROBE_EV_TCPC(name, kind, metric, help, id, window) \
	TEEPROBE_EV_TCPC_##window(name, id)
#define TEEPROBE_EV_TCPC_WIN(name, id) __field(u64, name)
#define TEEPROBE_EV_TCPC_NOWIN(name, id)
#define TEEPROBE_EV_TCPC_SET(name, kind, metric, help, id, window) \
	TEEPROBE_EV_TCPC_SET_##window(name, id)
#define TEEPROBE_EV_TCPC_SET_WIN(name, id) \
	__entry->name = teeprobe_tcp_window_count(c, TEEPROBE_TCP_##id);
#define TEEPROBE_EV_TCPC_SET_NOWIN(name, id)
#define TEEPROBE_EV_TCPC_FMT(name, kind, metric, help, id, window) \
	TEEPROBE_EV_TCPC_FMT_##window(name)
#define TEEPROBE_EV_TCPC_FMT_WIN(name) " " #name "=%llu"
#define TEEPROBE_EV_TCPC_FMT_NOWIN(name)
#define TEEPROBE_EV_TCPC_ARG(name, kind, metric, help, id, window) \
	TEEPROBE_EV_TCPC_ARG_##window(name)
#define TEEPROBE_EV_TCPC_ARG_WIN(name) \
	, __entry->name
#define TEEPROBE_EV_TCPC_ARG_NOWIN(name)
#define TEEPROBE_EV_TCPP(id, name, window) TEEPROBE_EV_TCPP_##window(name)
#define TEEPROBE_EV_TCPP_WIN(name) \
	__field(u64, name##_count) __field(u64, name##_p50_ns) \
	__field(u64, name##_p99_ns) __field(u64, name##_max_ns)
#define TEEPROBE_EV_TCPP_NOWIN(name)
#define TEEPROBE_EV_TCPP_SET(id, name, window) \
	TEEPROBE_EV_TCPP_SET_##window(name, TEEPROBE_TCP_##id)
#define TEEPROBE_EV_TCPP_SET_WIN(name, i)				\
	__entry->name##_count = c->phase[i].count;			\
	__entry->name##_p50_ns = teeprobe_hist_percentile(&c->phase[i], 50); \
	__entry->name##_p99_ns = teeprobe_hist_percentile(&c->phase[i], 99); \
	__entry->name##_max_ns = c->phase[i].max;
#define TEEPROBE_EV_TCPP_SET_NOWIN(name, i)
#define TEEPROBE_EV_TCPP_FMT(id, name, window) TEEPROBE_EV_TCPP_FMT_##window(name)
#define TEEPROBE_EV_TCPP_FMT_WIN(name) \
	" " #name "_count=%llu " #name "_p50_ns=%llu " \
	#name "_p99_ns=%llu " #name "_max_ns=%llu"
#define TEEPROBE_EV_TCPP_FMT_NOWIN(name)
#define TEEPROBE_EV_TCPP_ARG(id, name, window) TEEPROBE_EV_TCPP_ARG_##window(name)
#define TEEPROBE_EV_TCPP_ARG_WIN(name) \
	, __entry->name##_count, \
	__entry->name##_p50_ns, __entry->name##_p99_ns, __entry->name##_max_ns
#define TEEPROBE_EV_TCPP_ARG_NOWIN(name)
#endif

/* Tell user space (libtraceevent) the values of the command names. */
#ifndef TEEPROBE_TEE_CMD_SYMBOL
#define TEEPROBE_TEE_CMD_SYMBOL(e, name, cmd) { e, name },
#define TEEPROBE_TEE_CMD_DEFINE(e, name, cmd) TRACE_DEFINE_ENUM(e);
#endif
TEEPROBE_TEE_CMD_LIST(TEEPROBE_TEE_CMD_DEFINE)
TRACE_DEFINE_ENUM(TEEPROBE_TEE_CMD_OTHER);

#define show_tee_cmd(cmd)						\
	__print_symbolic(cmd, TEEPROBE_TEE_CMD_LIST(TEEPROBE_TEE_CMD_SYMBOL)	\
			 { TEEPROBE_TEE_CMD_OTHER, "OTHER" })

/*
 * teeprobe_reset - the module's counters and histograms were zeroed.
 * Readers of a recording use it to know that debugfs snapshots taken before
 * and after it do not subtract.
 */
TRACE_EVENT_FN(teeprobe_reset,

	TP_PROTO(unsigned int generation),

	TP_ARGS(generation),

	TP_STRUCT__entry(TEEPROBE_EV_ENTRY(TEEPROBE_EV_RESET)),

	TP_fast_assign(TEEPROBE_EV_RESET(TEEPROBE_EV_SET, TEEPROBE_EV_SKIP)),

	TP_printk("generation=%u", __entry->generation),

	teeprobe_event_reg, teeprobe_event_unreg
);

/*
 * teeprobe_tee_ioctl_enter - a thread entered the TEE driver's ioctl.
 * @cmd: the decoded command; @raw_cmd: the ioctl number as passed.
 */
TRACE_EVENT_FN(teeprobe_tee_ioctl_enter,

	TP_PROTO(unsigned int cmd, unsigned int raw_cmd),

	TP_ARGS(cmd, raw_cmd),

	TP_STRUCT__entry(TEEPROBE_EV_ENTRY(TEEPROBE_EV_TEE_IOCTL_ENTER)),

	TP_fast_assign(TEEPROBE_EV_TEE_IOCTL_ENTER(TEEPROBE_EV_SET, TEEPROBE_EV_SKIP)),

	TP_printk("cmd=%s raw_cmd=0x%x", show_tee_cmd(__entry->cmd),
		  __entry->raw_cmd),

	teeprobe_event_reg, teeprobe_event_unreg
);

/*
 * teeprobe_tee_ioctl_exit - the thread left the TEE driver's ioctl.
 * @duration_ns: time inside the ioctl; @offcpu_ns: the part of it the thread
 * was blocked (asleep); @runq_ns: the part it was preempted and waiting for
 * a CPU; @queue_wait_ns: the part spent waiting for a free secure thread
 * (where the driver shows it); @secure_ns: the part inside the driver's
 * entries into the secure world (TEEPROBE_ROLE_SECURE probes: on a CPU for
 * OP-TEE's SMCs; 0 where no such probe is attached); @ret: the ioctl's
 * return value. @comm is the calling thread's name, carried by the event
 * itself: trace-cmd's saved_cmdlines keep 128 names and drop a busy host's
 * callers.
 */
TRACE_EVENT_FN(teeprobe_tee_ioctl_exit,

	TP_PROTO(unsigned int cmd, u64 duration_ns, u64 offcpu_ns, u64 runq_ns,
		 u64 queue_wait_ns, u64 secure_ns, long ret),

	TP_ARGS(cmd, duration_ns, offcpu_ns, runq_ns, queue_wait_ns, secure_ns,
		ret),

	TP_STRUCT__entry(TEEPROBE_EV_ENTRY(TEEPROBE_EV_TEE_IOCTL_EXIT)),

	TP_fast_assign(
		TEEPROBE_EV_TEE_IOCTL_EXIT(TEEPROBE_EV_SET, TEEPROBE_EV_SKIP)
		memcpy(__entry->comm, current->comm, TASK_COMM_LEN);
	),

	TP_printk("cmd=%s duration_ns=%llu offcpu_ns=%llu runq_ns=%llu queue_wait_ns=%llu secure_ns=%llu ret=%ld",
		  show_tee_cmd(__entry->cmd), __entry->duration_ns,
		  __entry->offcpu_ns, __entry->runq_ns, __entry->queue_wait_ns,
		  __entry->secure_ns, __entry->ret),

	teeprobe_event_reg, teeprobe_event_unreg
);

/*
 * teeprobe_netrx_window - NET_RX on one CPU during one time window.
 * Emitted when the window closes, only for windows with NET_RX activity;
 * windows are aligned to multiples of @len_ns on the monotonic clock, so
 * windows of different CPUs with the same @start_ns cover the same time.
 * The delay fields describe the raise -> entry delays of the runs in the
 * window, apart for runs at irq exit or bh enable (inline) and runs by
 * ksoftirqd; the p99 fields are interpolated within the log-linear
 * bucket holding the percentile (abi.h: within 12.5 %, at most the max).
 * @late_ns is how long after its end the window was closed: a window
 * closes at its CPU's first event after it, or, on a quiet CPU, by the
 * windows' work an eighth of a window after it; more than a quarter of a
 * window says the CPU could not run that work in time (a reader that
 * follows the windows live saw this one late). @tee_runs counts the runs
 * whose wait overlapped a thread inside a TEE ioctl running on this CPU,
 * @tee_delay_sum_ns the overlap: the NET_RX wait TEE calls caused.
 */
TRACE_EVENT_FN(teeprobe_netrx_window,

	TP_PROTO(int cpu, u64 start_ns, u64 len_ns, u64 late_ns,
		 const struct teeprobe_netrx_counts *c,
		 const struct teeprobe_netrx_delays *d),

	TP_ARGS(cpu, start_ns, len_ns, late_ns, c, d),

	TP_STRUCT__entry(
		TEEPROBE_EV_ENTRY(TEEPROBE_EV_WINDOW)
		TEEPROBE_NETRX_STATS_COLS(TEEPROBE_EV_NETRX)
	),

	TP_fast_assign(
		TEEPROBE_EV_WINDOW(TEEPROBE_EV_SET, TEEPROBE_EV_SKIP)
		TEEPROBE_NETRX_STATS_COLS(TEEPROBE_EV_NETRX_SET)
	),

	TP_printk(TEEPROBE_EV_WINDOW_FMT
		  TEEPROBE_NETRX_STATS_COLS(TEEPROBE_EV_NETRX_FMT),
		  TEEPROBE_EV_WINDOW_ARGS()TEEPROBE_NETRX_STATS_COLS(TEEPROBE_EV_NETRX_ARG)),

	teeprobe_event_reg, teeprobe_event_unreg
);

/*
 * teeprobe_netrx_run - one NET_RX softirq run on this CPU, for short
 * sessions (off unless enabled). @delay_ns is the raise -> entry delay, -1
 * when no raise was seen since the previous run; @packets the napi work of
 * the run; @ksoftirqd whether ksoftirqd ran it (else irq exit or bh
 * enable); @reraised whether it left work and raised NET_RX again.
 */
TRACE_EVENT_FN(teeprobe_netrx_run,

	TP_PROTO(s64 delay_ns, u64 run_ns, u64 packets, bool ksoftirqd,
		 bool reraised),

	TP_ARGS(delay_ns, run_ns, packets, ksoftirqd, reraised),

	TP_STRUCT__entry(TEEPROBE_EV_ENTRY(TEEPROBE_EV_NETRX_RUN)),

	TP_fast_assign(TEEPROBE_EV_NETRX_RUN(TEEPROBE_EV_SET, TEEPROBE_EV_SKIP)),

	TP_printk("delay_ns=%lld run_ns=%llu packets=%llu ksoftirqd=%u reraised=%u",
		  __entry->delay_ns, __entry->run_ns, __entry->packets,
		  __entry->ksoftirqd, __entry->reraised),

	teeprobe_event_reg, teeprobe_event_unreg
);

TRACE_DEFINE_ENUM(TEEPROBE_TCP_SERVER);
TRACE_DEFINE_ENUM(TEEPROBE_TCP_CLIENT);

#define show_tcp_side(side)						\
	__print_symbolic(side, { TEEPROBE_TCP_SERVER, "server" },	\
			 { TEEPROBE_TCP_CLIENT, "client" })

/*
 * teeprobe_tcp_handshake - one handshake finished. Server side (accept()
 * returned its socket): @syn_to_synack_ns, @synack_to_ack_ns,
 * @ack_to_accept_ns and @synack_retrans; client side (ESTABLISHED):
 * @connect_ns, and @connect_call_ns, the whole connect() call that waited
 * for it (0 when connect() did not wait: non-blocking). Fields of the
 * other side are 0. Addresses and ports are the
 * socket's own: s is local, d is remote; IPv4 also in the v6 fields as
 * v4-mapped, as sock:inet_sock_set_state has them. @saddr_sa and
 * @daddr_sa hold the same addresses as a struct sockaddr_in or
 * sockaddr_in6 by @family (as tcp:tcp_probe does), so the text prints
 * the family's name and only that family's addresses (%pISc, which
 * libtraceevent and trace-cmd print too).
 */
TRACE_EVENT_FN(teeprobe_tcp_handshake,

	TP_PROTO(unsigned int side, const struct teeprobe_tcp_addrs *a,
		 u64 syn_to_synack_ns, u64 synack_to_ack_ns,
		 u64 ack_to_accept_ns, u64 connect_ns, u64 connect_call_ns,
		 u32 synack_retrans, u32 syn_wait_ns, u32 ack_wait_ns),

	TP_ARGS(side, a, syn_to_synack_ns, synack_to_ack_ns, ack_to_accept_ns,
		connect_ns, connect_call_ns, synack_retrans, syn_wait_ns,
		ack_wait_ns),

	TP_STRUCT__entry(TEEPROBE_EV_ENTRY(TEEPROBE_EV_TCP_HANDSHAKE)),

	TP_fast_assign(
		__entry->side = side;
		__entry->family = a->family;
		__entry->sport = a->sport;
		__entry->dport = a->dport;
		memcpy(__entry->saddr, a->saddr, 4);
		memcpy(__entry->daddr, a->daddr, 4);
		memcpy(__entry->saddr_v6, a->saddr_v6, 16);
		memcpy(__entry->daddr_v6, a->daddr_v6, 16);
		teeprobe_tcp_store_sockaddrs(a, __entry->saddr_sa,
					     __entry->daddr_sa);
		__entry->syn_to_synack_ns = syn_to_synack_ns;
		__entry->synack_to_ack_ns = synack_to_ack_ns;
		__entry->ack_to_accept_ns = ack_to_accept_ns;
		__entry->connect_ns = connect_ns;
		__entry->connect_call_ns = connect_call_ns;
		__entry->synack_retrans = synack_retrans;
		__entry->syn_wait_ns = syn_wait_ns;
		__entry->ack_wait_ns = ack_wait_ns;
	),

	TP_printk("side=%s family=%s sport=%u dport=%u saddr=%pISc daddr=%pISc syn_to_synack_ns=%llu synack_to_ack_ns=%llu ack_to_accept_ns=%llu connect_ns=%llu connect_call_ns=%llu synack_retrans=%u syn_wait_ns=%u ack_wait_ns=%u",
		  show_tcp_side(__entry->side),
		  __print_symbolic(__entry->family,
				   { AF_INET, "AF_INET" },
				   { AF_INET6, "AF_INET6" }),
		  __entry->sport, __entry->dport,
		  __entry->saddr_sa, __entry->daddr_sa,
		  __entry->syn_to_synack_ns, __entry->synack_to_ack_ns,
		  __entry->ack_to_accept_ns, __entry->connect_ns,
		  __entry->connect_call_ns, __entry->synack_retrans,
		  __entry->syn_wait_ns, __entry->ack_wait_ns),

	teeprobe_event_reg, teeprobe_event_unreg
);

TRACE_DEFINE_ENUM(TEEPROBE_ACCEPTOR_RUNNING);
TRACE_DEFINE_ENUM(TEEPROBE_ACCEPTOR_RUNNABLE);
TRACE_DEFINE_ENUM(TEEPROBE_ACCEPTOR_ASLEEP);

#define show_acceptor_state(state)					\
	__print_symbolic(state, { TEEPROBE_ACCEPTOR_RUNNING, "running" },	\
			 { TEEPROBE_ACCEPTOR_RUNNABLE, "runnable" },	\
			 { TEEPROBE_ACCEPTOR_ASLEEP, "asleep" })

/*
 * teeprobe_acceptor_state - a thread that accepts connections (it took one
 * from a listener's accept queue) changed state: @state is running,
 * runnable (woken or preempted: waiting for a CPU) or asleep. Emitted from
 * sched_switch and sched_wakeup, for those threads only; with the TEE
 * ioctl events it tells what the accepting threads did while connections
 * waited in the accept queue. The scheduler probes are attached only while
 * the event is enabled: they cost nothing otherwise.
 */
TRACE_EVENT_FN(teeprobe_acceptor_state,

	TP_PROTO(pid_t tid, unsigned int state),

	TP_ARGS(tid, state),

	TP_STRUCT__entry(TEEPROBE_EV_ENTRY(TEEPROBE_EV_ACCEPTOR_STATE)),

	TP_fast_assign(TEEPROBE_EV_ACCEPTOR_STATE(TEEPROBE_EV_SET, TEEPROBE_EV_SKIP)),

	TP_printk("tid=%d state=%s", __entry->tid,
		  show_acceptor_state(__entry->state)),

	teeprobe_acceptors_event_reg, teeprobe_acceptors_event_unreg
);

/*
 * teeprobe_tcp_window - TCP handshakes on one CPU during one time window,
 * all ports together; emitted when the window closes, only for windows
 * with handshake activity, aligned like teeprobe_netrx_window. Counters as
 * in tcp_stats; per phase the count, p50 and p99 (placed within their
 * log-linear bucket, hist.h) and the largest value.
 */
TRACE_EVENT_FN(teeprobe_tcp_window,

	TP_PROTO(int cpu, u64 start_ns, u64 len_ns, u64 late_ns,
		 const struct teeprobe_tcp_window_counts *c),

	TP_ARGS(cpu, start_ns, len_ns, late_ns, c),

	TP_STRUCT__entry(
		TEEPROBE_EV_ENTRY(TEEPROBE_EV_WINDOW)
		TEEPROBE_TCP_COUNTER_LIST(TEEPROBE_EV_TCPC)
		TEEPROBE_TCP_PHASE_LIST(TEEPROBE_EV_TCPP)
	),

	TP_fast_assign(
		TEEPROBE_EV_WINDOW(TEEPROBE_EV_SET, TEEPROBE_EV_SKIP)
		TEEPROBE_TCP_COUNTER_LIST(TEEPROBE_EV_TCPC_SET)
		TEEPROBE_TCP_PHASE_LIST(TEEPROBE_EV_TCPP_SET)
	),

	TP_printk(TEEPROBE_EV_WINDOW_FMT
		  TEEPROBE_TCP_COUNTER_LIST(TEEPROBE_EV_TCPC_FMT)
		  TEEPROBE_TCP_PHASE_LIST(TEEPROBE_EV_TCPP_FMT),
		  TEEPROBE_EV_WINDOW_ARGS()TEEPROBE_TCP_COUNTER_LIST(TEEPROBE_EV_TCPC_ARG)TEEPROBE_TCP_PHASE_LIST(TEEPROBE_EV_TCPP_ARG)),

	teeprobe_event_reg, teeprobe_event_unreg
);

#endif /* _TEEPROBE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
