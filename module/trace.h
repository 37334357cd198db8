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

#include "hist.h"
#include "acceptors.h"
#include "netrx.h"
#include "tcp.h"
#include "tee_cmd.h"

/*
 * Every event takes a reference on the module while anyone has it enabled
 * (any tracefs instance, perf, BPF): rmmod says "in use" until they are
 * off, instead of removing the events under a recording (a session whose
 * owner was killed, say). main.c has the pair.
 */
#ifndef TEEPROBE_EVENT_REG_DECLARED
#define TEEPROBE_EVENT_REG_DECLARED
int teeprobe_event_reg(void);
void teeprobe_event_unreg(void);
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

	TP_STRUCT__entry(
		__field(unsigned int, generation)
	),

	TP_fast_assign(
		__entry->generation = generation;
	),

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

	TP_STRUCT__entry(
		__field(unsigned int, cmd)
		__field(unsigned int, raw_cmd)
	),

	TP_fast_assign(
		__entry->cmd = cmd;
		__entry->raw_cmd = raw_cmd;
	),

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
 * return value. @comm is
 * the calling thread's name, carried by the event itself: trace-cmd's
 * saved_cmdlines keep 128 names and drop a busy host's callers.
 */
TRACE_EVENT_FN(teeprobe_tee_ioctl_exit,

	TP_PROTO(unsigned int cmd, u64 duration_ns, u64 offcpu_ns, u64 runq_ns,
		 u64 queue_wait_ns, u64 secure_ns, long ret),

	TP_ARGS(cmd, duration_ns, offcpu_ns, runq_ns, queue_wait_ns, secure_ns,
		ret),

	TP_STRUCT__entry(
		__field(unsigned int, cmd)
		__field(u64, duration_ns)
		__field(u64, offcpu_ns)
		__field(u64, runq_ns)
		__field(u64, queue_wait_ns)
		__field(u64, secure_ns)
		__field(long, ret)
		__array(char, comm, TASK_COMM_LEN)
	),

	TP_fast_assign(
		__entry->cmd = cmd;
		__entry->duration_ns = duration_ns;
		__entry->offcpu_ns = offcpu_ns;
		__entry->runq_ns = runq_ns;
		__entry->queue_wait_ns = queue_wait_ns;
		__entry->secure_ns = secure_ns;
		__entry->ret = ret;
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
 * bucket holding the percentile (abi.h: within 12.5 %, at most the max). @tee_runs counts the runs
 * whose wait overlapped a thread inside a TEE ioctl running on this CPU,
 * @tee_delay_sum_ns the overlap: the NET_RX wait TEE calls caused.
 */
TRACE_EVENT_FN(teeprobe_netrx_window,

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
		__field(u64, tee_runs)
		__field(u64, tee_delay_sum_ns)
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
		__entry->tee_runs = c->tee_runs;
		__entry->tee_delay_sum_ns = c->tee_delay_ns;
	),

	TP_printk("cpu=%d start_ns=%llu len_ns=%llu raises=%llu runs=%llu ksoftirqd_runs=%llu run_ns=%llu run_max_ns=%llu packets=%llu polls=%llu budget_full=%llu reraises=%llu inline_delay_count=%llu inline_delay_sum_ns=%llu inline_delay_p99_ns=%llu inline_delay_max_ns=%llu ksoftirqd_delay_count=%llu ksoftirqd_delay_sum_ns=%llu ksoftirqd_delay_p99_ns=%llu ksoftirqd_delay_max_ns=%llu tee_runs=%llu tee_delay_sum_ns=%llu",
		  __entry->cpu, __entry->start_ns, __entry->len_ns,
		  __entry->raises, __entry->runs, __entry->ksoftirqd_runs,
		  __entry->run_ns, __entry->run_max_ns, __entry->packets,
		  __entry->polls, __entry->budget_full, __entry->reraises,
		  __entry->inline_delay_count, __entry->inline_delay_sum_ns,
		  __entry->inline_delay_p99_ns, __entry->inline_delay_max_ns,
		  __entry->ksoftirqd_delay_count,
		  __entry->ksoftirqd_delay_sum_ns,
		  __entry->ksoftirqd_delay_p99_ns,
		  __entry->ksoftirqd_delay_max_ns, __entry->tee_runs,
		  __entry->tee_delay_sum_ns),

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

	TP_STRUCT__entry(
		__field(u8, side)
		__field(u16, family)
		__field(u16, sport)
		__field(u16, dport)
		__array(u8, saddr, 4)
		__array(u8, daddr, 4)
		__array(u8, saddr_v6, 16)
		__array(u8, daddr_v6, 16)
		__array(u8, saddr_sa, sizeof(struct sockaddr_in6))
		__array(u8, daddr_sa, sizeof(struct sockaddr_in6))
		__field(u64, syn_to_synack_ns)
		__field(u64, synack_to_ack_ns)
		__field(u64, ack_to_accept_ns)
		__field(u64, connect_ns)
		__field(u64, connect_call_ns)
		__field(u32, synack_retrans)
		__field(u32, syn_wait_ns)
		__field(u32, ack_wait_ns)
	),

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

	TP_STRUCT__entry(
		__field(pid_t, tid)
		__field(u8, state)
	),

	TP_fast_assign(
		__entry->tid = tid;
		__entry->state = state;
	),

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
#define TEEPROBE_TCP_PHASE_ASSIGN(p, i)					\
	do {								\
		__entry->p##_count = c->phase[i].count;			\
		__entry->p##_p50_ns = teeprobe_hist_percentile(&c->phase[i], 50); \
		__entry->p##_p99_ns = teeprobe_hist_percentile(&c->phase[i], 99); \
		__entry->p##_max_ns = c->phase[i].max;			\
	} while (0)

TRACE_EVENT_FN(teeprobe_tcp_window,

	TP_PROTO(int cpu, u64 start_ns, u64 len_ns,
		 const struct teeprobe_tcp_window_counts *c),

	TP_ARGS(cpu, start_ns, len_ns, c),

	TP_STRUCT__entry(
		__field(int, cpu)
		__field(u64, start_ns)
		__field(u64, len_ns)
		__field(u64, syns)
		__field(u64, synacks)
		__field(u64, syn_drops)
		__field(u64, listen_overflows)
		__field(u64, synack_retrans)
		__field(u64, req_drops)
		__field(u64, accepted)
		__field(u64, untracked)
		__field(u64, connected)
		__field(u64, connect_failed)
		__field(u64, syn_synack_count)
		__field(u64, syn_synack_p50_ns)
		__field(u64, syn_synack_p99_ns)
		__field(u64, syn_synack_max_ns)
		__field(u64, synack_ack_count)
		__field(u64, synack_ack_p50_ns)
		__field(u64, synack_ack_p99_ns)
		__field(u64, synack_ack_max_ns)
		__field(u64, ack_accept_count)
		__field(u64, ack_accept_p50_ns)
		__field(u64, ack_accept_p99_ns)
		__field(u64, ack_accept_max_ns)
		__field(u64, connect_count)
		__field(u64, connect_p50_ns)
		__field(u64, connect_p99_ns)
		__field(u64, connect_max_ns)
		__field(u64, connect_call_count)
		__field(u64, connect_call_p50_ns)
		__field(u64, connect_call_p99_ns)
		__field(u64, connect_call_max_ns)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->start_ns = start_ns;
		__entry->len_ns = len_ns;
		__entry->syns = c->count[TEEPROBE_TCP_SYNS];
		__entry->synacks = c->count[TEEPROBE_TCP_SYNACKS];
		__entry->syn_drops = c->count[TEEPROBE_TCP_SYN_DROPS];
		__entry->listen_overflows = c->count[TEEPROBE_TCP_LISTEN_OVERFLOWS];
		__entry->synack_retrans = c->count[TEEPROBE_TCP_SYNACK_RETRANS];
		__entry->req_drops = c->count[TEEPROBE_TCP_REQ_DROPS];
		__entry->accepted = c->count[TEEPROBE_TCP_ACCEPTED];
		__entry->untracked = c->count[TEEPROBE_TCP_UNTRACKED] +
				     c->count[TEEPROBE_TCP_CONNECT_UNTRACKED];
		__entry->connected = c->count[TEEPROBE_TCP_CONNECTED];
		__entry->connect_failed = c->count[TEEPROBE_TCP_CONNECT_FAILED];
		TEEPROBE_TCP_PHASE_ASSIGN(syn_synack, TEEPROBE_TCP_SYN_SYNACK);
		TEEPROBE_TCP_PHASE_ASSIGN(synack_ack, TEEPROBE_TCP_SYNACK_ACK);
		TEEPROBE_TCP_PHASE_ASSIGN(ack_accept, TEEPROBE_TCP_ACK_ACCEPT);
		TEEPROBE_TCP_PHASE_ASSIGN(connect, TEEPROBE_TCP_CONNECT);
		TEEPROBE_TCP_PHASE_ASSIGN(connect_call, TEEPROBE_TCP_CONNECT_CALL);
	),

	TP_printk("cpu=%d start_ns=%llu len_ns=%llu syns=%llu synacks=%llu syn_drops=%llu listen_overflows=%llu synack_retrans=%llu req_drops=%llu accepted=%llu untracked=%llu connected=%llu connect_failed=%llu syn_synack_count=%llu syn_synack_p50_ns=%llu syn_synack_p99_ns=%llu syn_synack_max_ns=%llu synack_ack_count=%llu synack_ack_p50_ns=%llu synack_ack_p99_ns=%llu synack_ack_max_ns=%llu ack_accept_count=%llu ack_accept_p50_ns=%llu ack_accept_p99_ns=%llu ack_accept_max_ns=%llu connect_count=%llu connect_p50_ns=%llu connect_p99_ns=%llu connect_max_ns=%llu connect_call_count=%llu connect_call_p50_ns=%llu connect_call_p99_ns=%llu connect_call_max_ns=%llu",
		  __entry->cpu, __entry->start_ns, __entry->len_ns,
		  __entry->syns, __entry->synacks, __entry->syn_drops,
		  __entry->listen_overflows, __entry->synack_retrans,
		  __entry->req_drops, __entry->accepted, __entry->untracked,
		  __entry->connected, __entry->connect_failed,
		  __entry->syn_synack_count, __entry->syn_synack_p50_ns,
		  __entry->syn_synack_p99_ns, __entry->syn_synack_max_ns,
		  __entry->synack_ack_count, __entry->synack_ack_p50_ns,
		  __entry->synack_ack_p99_ns, __entry->synack_ack_max_ns,
		  __entry->ack_accept_count, __entry->ack_accept_p50_ns,
		  __entry->ack_accept_p99_ns, __entry->ack_accept_max_ns,
		  __entry->connect_count, __entry->connect_p50_ns,
		  __entry->connect_p99_ns, __entry->connect_max_ns,
		  __entry->connect_call_count, __entry->connect_call_p50_ns,
		  __entry->connect_call_p99_ns, __entry->connect_call_max_ns),

	teeprobe_event_reg, teeprobe_event_unreg
);

#endif /* _TEEPROBE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
