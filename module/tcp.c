// SPDX-License-Identifier: GPL-2.0
/*
 * tcp.c - the third link of the chain: where does a TCP handshake's time go?
 *
 * Server side, per listening port:
 *
 *   SYN -> SYN/ACK        tcp_conn_request to the first send_synack of its
 *                         request socket: the server's own processing
 *   SYN/ACK -> final ACK  to syn_recv_sock making the child: a round trip
 *   final ACK -> accept   to inet_csk_accept returning the child: the
 *                         accept-queue wait, long when workers are busy
 *
 * Client side: sock:inet_sock_set_state SYN_SENT -> ESTABLISHED, and the
 * whole connect() call that waited for it (inet_stream_connect). Also
 * counted: SYNs answered by no SYN/ACK, listen-queue overflows (at the SYN
 * and at the final ACK), SYN/ACK retransmits (tcp:tcp_retransmit_synack),
 * syncookies, and request sockets freed before they made a child.
 * compat.h lists the probed symbols and why they are stable.
 *
 * A handshake in flight is an entry of a bounded table (tcp_table.h) keyed
 * by its request socket, then by its child socket (client: its socket).
 * The table is allocated at load (tcp_table_size entries); when it has no
 * room a handshake is counted as untracked and nothing is allocated.
 *
 * The server side is seen at function entries (fhook.h: ftrace callbacks,
 * which nest across contexts, where kprobes would miss the SYNs of a
 * softirq that interrupts another kprobe's handler). The SYN -> SYN/ACK
 * step happens inside one tcp_conn_request call on one CPU: its hook
 * publishes the SYN being served, per CPU and context, and the send_synack
 * hook pairs the SYN/ACK with it by the SYN's skb, which tcp_conn_request
 * passes on. SYNs answered by no SYN/ACK are the rest: syns less synacks
 * and syncookies. Each handshake also carries its own packets' waits for
 * NET_RX (netrx.c): the SYN's and the final ACK's.
 *
 * Counters and histograms are per CPU and per port (the listening port on
 * the server, the remote port on the client), updated with interrupts
 * disabled; each CPU also keeps the counts of the current window (window.h)
 * and emits teeprobe_tcp_window when it closes, as netrx.c does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/ftrace.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/request_sock.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "compat.h"
#include "fhook.h"
#include "hist.h"
#include "tcp.h"
#include "tcp_table.h"
#include "teeprobe.h"
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
static unsigned int tcp_table_size = 2048;
static unsigned int tcp_timeout_s = 120;

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
module_param_cb(tcp_table_size, &table_size_ops, &tcp_table_size, 0444);
__MODULE_PARM_TYPE(tcp_table_size, "uint");
MODULE_PARM_DESC(tcp_table_size, "TCP handshakes followed at once, a power of two from 64 to 1048576 (default 2048)");
module_param_cb(tcp_timeout_s, &timeout_ops, &tcp_timeout_s, 0444);
__MODULE_PARM_TYPE(tcp_timeout_s, "uint");
MODULE_PARM_DESC(tcp_timeout_s, "seconds after which a handshake never seen to finish is forgotten, 1 to 3600 (default 120)");

/* ---- state ---------------------------------------------------------- */

/*
 * Ports get a slot on first sight, in order; slot 0 counts every port
 * beyond. Eleven ports and "other" keep a CPU's counters each. Their phase
 * histograms (10 KiB a port and CPU) are a per-CPU block a slot, allocated
 * ahead of need: TEEPROBE_TCP_SPARE slots past the last one taken always have
 * theirs, and taking a slot has a work allocate the next (tcp_grow_fn).
 * More new ports than that within the work's delay lose their first
 * phases, counted as phases_lost in tcp_phases.
 */
#define TEEPROBE_TCP_PORTS		12
#define TEEPROBE_TCP_SPARE		1
#define TEEPROBE_TCP_EXPIRE_NS	NSEC_PER_SEC	/* expiry pass at most this often */

/* Table keys: the socket's address with its kind in the low bits */
enum teeprobe_tcp_kind {
	TEEPROBE_TCP_KEY_REQ = 1,	/* a request socket, server side */
	TEEPROBE_TCP_KEY_CHILD = 2,	/* its child socket, until accept() */
	TEEPROBE_TCP_KEY_CLIENT = 3,	/* a connecting socket */
	TEEPROBE_TCP_KEY_CALL = 4,	/* a socket in a connect() call */
};

struct teeprobe_tcp_cpu {
	u64 port[TEEPROBE_TCP_PORTS][TEEPROBE_TCP_COUNTERS];	/* since load/reset */
	u64 phases_lost;		/* phases of a slot without its block */
	struct teeprobe_window window;			/* the open window */
	struct teeprobe_tcp_window_counts win;		/* its counters */
};

/* A port's phase histograms on one CPU */
struct teeprobe_tcp_phases {
	struct teeprobe_hist phase[TEEPROBE_TCP_PHASES];
};

/*
 * The SYN tcp_conn_request serves on this CPU, in softirq context or in
 * process context (a listener's backlog, processed as its owner releases
 * it, which a softirq can interrupt): one per context
 */
struct teeprobe_tcp_syn {
	const struct sock *listener;
	const struct sk_buff *skb;
	u64 syn_ns;
	u32 wait_ns;		/* its wait for NET_RX */
	unsigned int slot;
	bool answered;
};

static struct teeprobe_tcp_cpu __percpu *tcp_cpu;
/* Each port's counters and phases on each CPU, since load or reset */
static struct teeprobe_tcp_phases __percpu *tcp_phases[TEEPROBE_TCP_PORTS];
static DEFINE_MUTEX(tcp_grow_lock);	/* serializes tcp_phases' growth */
static struct work_struct tcp_grow_work;
static struct irq_work tcp_grow_irq;
static DEFINE_PER_CPU(struct teeprobe_tcp_syn, tcp_syn_now[2]);
/* the final ACK's wait, from syn_recv_sock's hook to hashdance's */
static DEFINE_PER_CPU(u32, tcp_ack_wait_now[2]);
static u32 tcp_ports[TEEPROBE_TCP_PORTS];
static struct teeprobe_tcp_table tcp_table;
static struct teeprobe_tcp_bucket *tcp_buckets;
static u64 tcp_last_expire_ns;

/* tcp_key - the table key of @p as a @kind */
static unsigned long tcp_key(const void *p, enum teeprobe_tcp_kind kind)
{
	return (unsigned long)p | kind;
}

/* port_slot - the counters slot of @port: its own, or 0 when all are taken */
static unsigned int port_slot(u16 port)
{
	unsigned int i;
	u32 v;

	if (!port)
		return 0;
	for (i = 1; i < TEEPROBE_TCP_PORTS; i++) {
		v = READ_ONCE(tcp_ports[i]);
		if (v == port)
			return i;
		if (!v) {
			v = cmpxchg(&tcp_ports[i], 0, port);
			if (!v) {
				/* any context: an irq_work can be queued from NMI */
				irq_work_queue(&tcp_grow_irq);
				return i;
			}
			if (v == port)
				return i;
		}
	}
	return 0;
}

/* ---- accounting --------------------------------------------------------- */

/*
 * fill_syn_drops - SYNs answered by no SYN/ACK, in @c: every SYN is
 * answered by its tcp_conn_request call on its own CPU, so the rest of the
 * SYNs counted on a CPU were dropped (a SYN being served right now counts
 * among them until its SYN/ACK leaves)
 */
static void fill_syn_drops(u64 *count)
{
	u64 answered = count[TEEPROBE_TCP_SYNACKS] +
		       count[TEEPROBE_TCP_SYNCOOKIES];

	count[TEEPROBE_TCP_SYN_DROPS] = count[TEEPROBE_TCP_SYNS] > answered ?
		count[TEEPROBE_TCP_SYNS] - answered : 0;
}

/* tcp_window_close - emit the closed window @w of this CPU and start afresh */
static void tcp_window_close(struct teeprobe_tcp_cpu *st, const struct teeprobe_window *w)
{
	fill_syn_drops(st->win.count);
	trace_teeprobe_tcp_window(smp_processor_id(), w->start_ns, w->len_ns,
				  &st->win);
	memset(&st->win, 0, sizeof(st->win));
}

/* tcp_this_cpu - this CPU's state, its window rolled to @now; irqs off */
static struct teeprobe_tcp_cpu *tcp_this_cpu(u64 now)
{
	struct teeprobe_tcp_cpu *st = this_cpu_ptr(tcp_cpu);
	struct teeprobe_window closed;

	if (teeprobe_window_roll(&st->window, now, teeprobe_window_len_ns(),
				 &closed))
		tcp_window_close(st, &closed);
	return st;
}

/*
 * tcp_account - count @counter for port @slot at @now (the caller's clock
 * reading: most have one) and add the phases of @phase_ns whose bit is set
 * in @phases
 */
static void tcp_account(u64 now, unsigned int slot,
		       enum teeprobe_tcp_counter counter, const u64 *phase_ns,
		       unsigned long phases)
{
	struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(tcp_phases[slot]);
	struct teeprobe_tcp_phases *port = NULL;
	struct teeprobe_tcp_cpu *st;
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	st = tcp_this_cpu(now);
	st->port[slot][counter]++;
	st->win.count[counter]++;
	if (phases) {
		if (blk)
			port = this_cpu_ptr(blk);
		else
			st->phases_lost++;
	}
	for_each_set_bit(i, &phases, TEEPROBE_TCP_PHASES) {
		if (port)
			teeprobe_hist_add(&port->phase[i], phase_ns[i]);
		if (i < TEEPROBE_TCP_WINDOW_PHASES)
			teeprobe_hist_add(&st->win.phase[i], phase_ns[i]);
	}
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(tcp_account);

/* tcp_count_at - count one @counter for port @slot at @now */
static void tcp_count_at(u64 now, unsigned int slot,
			enum teeprobe_tcp_counter counter)
{
	tcp_account(now, slot, counter, NULL, 0);
}

/* tcp_count - count one @counter for port @slot, now */
static void tcp_count(unsigned int slot, enum teeprobe_tcp_counter counter)
{
	tcp_count_at(teeprobe_now_ns(), slot, counter);
}

/* since - @to - @from, 0 when either is unknown or time ran backwards */
static u64 since(u64 from, u64 to)
{
	return from ? teeprobe_ns_delta(from, to) : 0;
}

/* tcp_addrs_of - the endpoints of @sk, stored as sock:inet_sock_set_state does */
static void tcp_addrs_of(const struct sock *sk, struct teeprobe_tcp_addrs *a)
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

/*
 * packet_napi - the napi that received @skb, 0 if unknown: the kernel's
 * skb_napi_id() is the id only when it was set (it shares its place with
 * the sending CPU's number, below MIN_NAPI_ID)
 */
static unsigned int packet_napi(const struct sk_buff *skb)
{
	unsigned int id = skb ? skb_napi_id(skb) : 0;

	return id > NR_CPUS ? id : 0;
}

/* wait32 - a wait in ns as the table keeps it, saturated */
static u32 wait32(u64 ns)
{
	return ns > U32_MAX ? U32_MAX : (u32)ns;
}

/* syn_now - this CPU's SYN being served in the current context */
static struct teeprobe_tcp_syn *syn_now(void)
{
	return this_cpu_ptr(&tcp_syn_now[in_serving_softirq() ? 1 : 0]);
}

/* ---- server side: hooks ------------------------------------------------ */

/* conn_request_hook - a SYN reaches a listener: publish it on this CPU */
static void conn_request_hook(struct pt_regs *regs)
{
	const struct sock *sk = (const struct sock *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_CONN_REQUEST_ARG_SK);
	struct teeprobe_tcp_syn *syn = syn_now();
	u64 now = teeprobe_now_ns();

	syn->listener = sk;
	syn->skb = (const struct sk_buff *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_CONN_REQUEST_ARG_SKB);
	syn->syn_ns = now;
	syn->wait_ns = wait32(teeprobe_netrx_packet_wait_ns(now, packet_napi(syn->skb)));
	syn->slot = port_slot(sk->sk_num);
	syn->answered = false;
	tcp_count_at(now, syn->slot, TEEPROBE_TCP_SYNS);
	/* tcp_conn_request drops a SYN that finds the accept queue full. */
	if (sk_acceptq_is_full(sk))
		tcp_count_at(now, syn->slot, TEEPROBE_TCP_LISTEN_OVERFLOWS);
}
NOKPROBE_SYMBOL(conn_request_hook);

/*
 * send_synack_hook - a SYN/ACK leaves. The first one of a request socket is
 * sent from inside tcp_conn_request with the SYN's skb; retransmits have
 * none (their tracepoint counts them) and are left alone here.
 */
static void send_synack_hook(struct pt_regs *regs)
{
	const struct sock *sk = (const struct sock *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_SEND_SYNACK_ARG_SK);
	const struct request_sock *req = (const struct request_sock *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_SEND_SYNACK_ARG_REQ);
	int type = (int)regs_get_kernel_argument(regs, TEEPROBE_TCP_SEND_SYNACK_ARG_TYPE);
	const struct sk_buff *syn_skb = (const struct sk_buff *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_SEND_SYNACK_ARG_SYN_SKB);
	struct teeprobe_tcp_syn *syn = syn_now();
	struct teeprobe_tcp_hs hs = {};

	if (!syn_skb)
		return;
	if (syn->skb != syn_skb || syn->answered) {
		/* Its SYN came before teeprobe's hook: not followed. */
		if (type == TCP_SYNACK_NORMAL)
			tcp_count(port_slot(sk->sk_num), TEEPROBE_TCP_SYNACKS);
		return;
	}
	syn->answered = true;
	if (type == TCP_SYNACK_COOKIE) {
		tcp_count(syn->slot, TEEPROBE_TCP_SYNCOOKIES);
		return;
	}
	hs.synack_ns = teeprobe_now_ns();
	tcp_count_at(hs.synack_ns, syn->slot, TEEPROBE_TCP_SYNACKS);
	if (type != TCP_SYNACK_NORMAL)
		return;	/* Fast Open: its child exists already */
	hs.syn_ns = syn->syn_ns;
	hs.syn_wait_ns = syn->wait_ns;
	hs.port = syn->listener->sk_num;
	/* No room: the table counts it, accept() will count it untracked. */
	teeprobe_tcp_table_insert(&tcp_table, tcp_key(req, TEEPROBE_TCP_KEY_REQ),
				  hs.synack_ns, &hs);
}
NOKPROBE_SYMBOL(send_synack_hook);

/*
 * syn_recv_sock_hook - a final ACK is about to make a child socket: it
 * makes none if the accept queue is full (the first thing
 * tcp_v{4,6}_syn_recv_sock checks), and that is a listen overflow. The
 * ACK's wait for NET_RX is kept for the hashdance hook that follows on
 * this CPU, in this context, which has no skb.
 */
static void syn_recv_sock_hook(struct pt_regs *regs)
{
	const struct sock *sk = (const struct sock *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_SYN_RECV_SOCK_ARG_SK);
	const struct sk_buff *skb = (const struct sk_buff *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_SYN_RECV_SOCK_ARG_SKB);

	this_cpu_write(tcp_ack_wait_now[in_serving_softirq() ? 1 : 0],
		       wait32(teeprobe_netrx_packet_wait_ns(teeprobe_now_ns(),
							    packet_napi(skb))));
	if (sk_acceptq_is_full(sk))
		tcp_count(port_slot(sk->sk_num), TEEPROBE_TCP_LISTEN_OVERFLOWS);
}
NOKPROBE_SYMBOL(syn_recv_sock_hook);

/*
 * syn_recv_sock_v6_hook - the same for IPv6; an IPv4 packet to an IPv6
 * listener is handed on to tcp_v4_syn_recv_sock, whose hook counts it
 */
static void syn_recv_sock_v6_hook(struct pt_regs *regs)
{
	const struct sk_buff *skb = (const struct sk_buff *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_SYN_RECV_SOCK_ARG_SKB);

	if (!skb || skb->protocol != htons(ETH_P_IP))
		syn_recv_sock_hook(regs);
}
NOKPROBE_SYMBOL(syn_recv_sock_v6_hook);

/*
 * hashdance_hook - inet_csk_complete_hashdance: the final ACK made @child
 * for @req and it goes to the accept queue, if this CPU owns the request
 * (another CPU that won the race for it keeps its own child). The request
 * socket's entry moves to the child.
 */
static void hashdance_hook(struct pt_regs *regs)
{
	const struct sock *sk = (const struct sock *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_HASHDANCE_ARG_SK);
	const struct sock *child = (const struct sock *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_HASHDANCE_ARG_CHILD);
	const struct request_sock *req = (const struct request_sock *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_HASHDANCE_ARG_REQ);
	/* A bool argument: its register's upper bits are undefined. */
	bool own_req = (u8)regs_get_kernel_argument(regs, TEEPROBE_TCP_HASHDANCE_ARG_OWN_REQ);
	unsigned int slot = port_slot(sk->sk_num);
	struct teeprobe_tcp_hs hs;
	u64 now;

	if (!own_req || !child)
		return;
	now = teeprobe_now_ns();
	tcp_count_at(now, slot, TEEPROBE_TCP_CHILDREN);
	if (!teeprobe_tcp_table_take(&tcp_table, tcp_key(req, TEEPROBE_TCP_KEY_REQ), &hs))
		return;
	hs.ack_ns = now;
	hs.ack_wait_ns = this_cpu_read(tcp_ack_wait_now[in_serving_softirq() ? 1 : 0]);
	teeprobe_tcp_table_insert(&tcp_table, tcp_key(child, TEEPROBE_TCP_KEY_CHILD),
				  now, &hs);
}
NOKPROBE_SYMBOL(hashdance_hook);

/*
 * accept_done - accept() hands out @child: its handshake is complete. It
 * counts whether followed or not (its phases then are unknown: the table
 * had no room, or a probe missed a step).
 */
static void accept_done(const struct sock *child)
{
	u64 phase_ns[TEEPROBE_TCP_PHASES] = {};
	struct teeprobe_tcp_addrs addrs;
	struct teeprobe_tcp_hs hs;
	unsigned int slot;
	u64 now;

	/* In accept(): this thread takes connections from the queue. */
	if (!in_interrupt())
		teeprobe_acceptor_mark(current);
	if (!teeprobe_tcp_table_take(&tcp_table, tcp_key(child, TEEPROBE_TCP_KEY_CHILD),
				     &hs)) {
		slot = port_slot(child->sk_num);
		tcp_count(slot, TEEPROBE_TCP_ACCEPTED);
		tcp_count(slot, TEEPROBE_TCP_UNTRACKED);
		return;
	}
	now = teeprobe_now_ns();
	phase_ns[TEEPROBE_TCP_SYN_SYNACK] = since(hs.syn_ns, hs.synack_ns);
	phase_ns[TEEPROBE_TCP_SYNACK_ACK] = since(hs.synack_ns, hs.ack_ns);
	phase_ns[TEEPROBE_TCP_ACK_ACCEPT] = since(hs.ack_ns, now);
	phase_ns[TEEPROBE_TCP_SYN_WAIT] = hs.syn_wait_ns;
	phase_ns[TEEPROBE_TCP_ACK_WAIT] = hs.ack_wait_ns;
	tcp_account(now, port_slot(hs.port), TEEPROBE_TCP_ACCEPTED, phase_ns,
		   BIT(TEEPROBE_TCP_SYN_SYNACK) | BIT(TEEPROBE_TCP_SYNACK_ACK) |
		   BIT(TEEPROBE_TCP_ACK_ACCEPT) | BIT(TEEPROBE_TCP_SYN_WAIT) |
		   BIT(TEEPROBE_TCP_ACK_WAIT));
	if (trace_teeprobe_tcp_handshake_enabled()) {
		tcp_addrs_of(child, &addrs);
		trace_teeprobe_tcp_handshake(TEEPROBE_TCP_SERVER, &addrs,
					     phase_ns[TEEPROBE_TCP_SYN_SYNACK],
					     phase_ns[TEEPROBE_TCP_SYNACK_ACK],
					     phase_ns[TEEPROBE_TCP_ACK_ACCEPT],
					     0, 0, hs.synack_retrans,
					     hs.syn_wait_ns, hs.ack_wait_ns);
	}
}

/*
 * reqsk_freed - request socket @req is freed: with no child, a request
 * still in the table was dropped (timed out, reset, listener closed).
 *
 * With a child it says nothing of accept(): the SYN/ACK's skb holds a
 * reference to its request socket until the NIC is done with it, so the
 * last reference can go long after accept() (at the next transmit's
 * cleanup, in softirq) and after the child was closed. Only the child a
 * closing listener forgot (inet_child_forget() orphaned it) is taken out:
 * no accept() will ever hand it out. (One accept() returns is alive: not
 * orphaned, whether reset or not.)
 */
static void reqsk_freed(const struct request_sock *req)
{
	const struct sock *child = READ_ONCE(req->sk);
	struct teeprobe_tcp_hs hs;

	/* Still there with a child: syn_recv_sock's probe missed it. */
	if (teeprobe_tcp_table_take(&tcp_table, tcp_key(req, TEEPROBE_TCP_KEY_REQ), &hs) &&
	    !child)
		tcp_count(port_slot(hs.port), TEEPROBE_TCP_REQ_DROPS);
	if (child && sock_flag(child, SOCK_DEAD))
		teeprobe_tcp_table_take(&tcp_table, tcp_key(child, TEEPROBE_TCP_KEY_CHILD),
					&hs);
}

/* reqsk_destructor_hook - a request socket's destructor is called */
static void reqsk_destructor_hook(struct pt_regs *regs)
{
	reqsk_freed((const struct request_sock *)regs_get_kernel_argument(regs, 0));
}
NOKPROBE_SYMBOL(reqsk_destructor_hook);

/* ---- tracepoints ---------------------------------------------------------- */

/* teeprobe_retransmit_synack - a SYN/ACK is sent again */
static void teeprobe_retransmit_synack(TEEPROBE_TCP_RETRANSMIT_SYNACK_PROTO)
{
	tcp_count(port_slot(sk->sk_num), TEEPROBE_TCP_SYNACK_RETRANS);
	teeprobe_tcp_table_count_retrans(&tcp_table, tcp_key(req, TEEPROBE_TCP_KEY_REQ));
}

/*
 * client_emit - the client handshake @hs of @sk ends at @now; @call_ns:
 * connect()
 */
static void client_emit(u64 now, const struct sock *sk,
			const struct teeprobe_tcp_hs *hs, u64 call_ns)
{
	u64 phase_ns[TEEPROBE_TCP_PHASES] = {};
	struct teeprobe_tcp_addrs addrs;

	if (call_ns) {
		phase_ns[TEEPROBE_TCP_CONNECT_CALL] = call_ns;
		tcp_account(now, port_slot(hs->port), TEEPROBE_TCP_CONNECT_CALLS,
			   phase_ns, BIT(TEEPROBE_TCP_CONNECT_CALL));
	}
	if (trace_teeprobe_tcp_handshake_enabled()) {
		tcp_addrs_of(sk, &addrs);
		trace_teeprobe_tcp_handshake(TEEPROBE_TCP_CLIENT, &addrs, 0, 0, 0,
					     since(hs->syn_ns, hs->ack_ns),
					     call_ns, 0, 0, 0);
	}
}

/*
 * client_syn_sent - @sk sends its SYN. Inside a connect() call teeprobe
 * follows (its entry is in the table), the handshake's event waits for the
 * call to return, so that it carries the call's time too.
 */
static void client_syn_sent(const struct sock *sk)
{
	unsigned long key = tcp_key(sk, TEEPROBE_TCP_KEY_CLIENT);
	struct teeprobe_tcp_hs hs = {};
	unsigned int slot;
	u64 now = teeprobe_now_ns();

	/* A leftover of an earlier connect on this socket goes. */
	teeprobe_tcp_table_take(&tcp_table, key, &hs);
	hs = (struct teeprobe_tcp_hs){
		.syn_ns = now,
		.port = ntohs(sk->sk_dport),
		.in_call = teeprobe_tcp_table_contains(&tcp_table,
						       tcp_key(sk, TEEPROBE_TCP_KEY_CALL)),
	};
	slot = port_slot(hs.port);
	tcp_count_at(now, slot, TEEPROBE_TCP_CONNECTS);
	/* No room: the table counts it, ESTABLISHED counts it untracked. */
	teeprobe_tcp_table_insert(&tcp_table, key, now, &hs);
}

/* client_syn_sent_left - @sk left SYN_SENT for @newstate */
static void client_syn_sent_left(const struct sock *sk, int newstate)
{
	unsigned long key = tcp_key(sk, TEEPROBE_TCP_KEY_CLIENT);
	u64 phase_ns[TEEPROBE_TCP_PHASES] = {};
	struct teeprobe_tcp_slot *s;
	struct teeprobe_tcp_hs hs;
	unsigned long flags;
	bool wait;
	u64 now;

	s = teeprobe_tcp_table_find_lock(&tcp_table, key, &flags);
	if (!s) {
		/* Counted all the same, not timed: see accept_done. */
		hs = (struct teeprobe_tcp_hs){ .port = ntohs(sk->sk_dport) };
		if (newstate != TCP_ESTABLISHED) {
			tcp_count(port_slot(hs.port), TEEPROBE_TCP_CONNECT_FAILED);
			return;
		}
		tcp_count(port_slot(hs.port), TEEPROBE_TCP_CONNECTED);
		tcp_count(port_slot(hs.port), TEEPROBE_TCP_CONNECT_UNTRACKED);
		return;
	}
	now = teeprobe_now_ns();
	hs = s->hs;
	hs.ack_ns = now;
	/* Established with a connect() call waiting: it reports at return. */
	wait = newstate == TCP_ESTABLISHED && hs.in_call;
	if (wait)
		s->hs.ack_ns = now;
	else
		s->key = 0;
	teeprobe_tcp_table_unlock(&tcp_table, key, flags);

	if (newstate != TCP_ESTABLISHED) {
		tcp_count(port_slot(hs.port), TEEPROBE_TCP_CONNECT_FAILED);
		return;
	}
	phase_ns[TEEPROBE_TCP_CONNECT] = since(hs.syn_ns, now);
	tcp_account(now, port_slot(hs.port), TEEPROBE_TCP_CONNECTED, phase_ns,
		   BIT(TEEPROBE_TCP_CONNECT));
	if (!wait)
		client_emit(now, sk, &hs, 0);
}

/* teeprobe_inet_sock_set_state - the client side: SYN_SENT -> ESTABLISHED */
static void teeprobe_inet_sock_set_state(TEEPROBE_INET_SOCK_SET_STATE_PROTO)
{
	if (sk->sk_protocol != IPPROTO_TCP)
		return;
	if (newstate == TCP_SYN_SENT)
		client_syn_sent(sk);
	else if (oldstate == TCP_SYN_SENT)
		client_syn_sent_left(sk, newstate);
}

/* What the inet_stream_connect kretprobe keeps between entry and return */
struct teeprobe_tcp_connect {
	const struct sock *sk;
	u64 start_ns;
};

/* connect_entry - a connect() call starts: mark its socket in the table */
static int connect_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_tcp_connect *c = (struct teeprobe_tcp_connect *)ri->data;
	const struct socket *sock = (const struct socket *)
		regs_get_kernel_argument(regs, TEEPROBE_TCP_STREAM_CONNECT_ARG_SOCK);
	struct teeprobe_tcp_hs hs = {};
	unsigned long flags;

	c->sk = sock ? READ_ONCE(sock->sk) : NULL;
	if (!c->sk || c->sk->sk_protocol != IPPROTO_TCP)
		return 1;	/* not followed: no return handler */
	/* Process context: keep softirqs, and their kprobe hits, out. */
	local_irq_save(flags);
	c->start_ns = teeprobe_now_ns();
	if (teeprobe_tcp_table_insert(&tcp_table, tcp_key(c->sk, TEEPROBE_TCP_KEY_CALL),
				      c->start_ns, &hs) != TEEPROBE_TCP_INSERTED)
		c->sk = NULL;	/* no room, or another thread's call */
	local_irq_restore(flags);
	return 0;
}
NOKPROBE_SYMBOL(connect_entry);

/*
 * connect_return - the call returns. If it waited for ESTABLISHED, the
 * handshake is reported now; if it returned first (non-blocking), the
 * state change will report it.
 */
static int connect_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct teeprobe_tcp_connect *c = (struct teeprobe_tcp_connect *)ri->data;
	long ret = (long)regs_return_value(regs);
	struct teeprobe_tcp_slot *s;
	struct teeprobe_tcp_hs hs;
	unsigned long irqs, flags, key;
	bool done = false;
	u64 now;

	if (!c->sk)
		return 0;
	local_irq_save(irqs);
	now = teeprobe_now_ns();
	teeprobe_tcp_table_take(&tcp_table, tcp_key(c->sk, TEEPROBE_TCP_KEY_CALL), &hs);
	key = tcp_key(c->sk, TEEPROBE_TCP_KEY_CLIENT);
	s = teeprobe_tcp_table_find_lock(&tcp_table, key, &flags);
	if (s) {
		hs = s->hs;
		done = hs.in_call && hs.ack_ns;
		if (done)
			s->key = 0;
		else
			s->hs.in_call = false;
		teeprobe_tcp_table_unlock(&tcp_table, key, flags);
	}
	if (done)
		client_emit(now, c->sk, &hs, ret ? 0 : since(c->start_ns, now));
	local_irq_restore(irqs);
	return 0;
}
NOKPROBE_SYMBOL(connect_return);

/*
 * accept_return - inet_csk_accept returns: a child, or NULL with an error
 * (a signal, a non-blocking listener with an empty queue, a closed one)
 */
static int accept_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const struct sock *child = (const struct sock *)regs_return_value(regs);

	if (child && !IS_ERR(child))
		accept_done(child);
	return 0;
}
NOKPROBE_SYMBOL(accept_return);

static struct teeprobe_hook tcp_hooks[] = {
	{ .name = "tcp_retransmit_synack", .probe = teeprobe_retransmit_synack },
	{ .name = "inet_sock_set_state", .probe = teeprobe_inet_sock_set_state },
};

/* ---- the hooks and the kretprobes ------------------------------------------ */

/* The server side, in the order a handshake meets them */
static struct teeprobe_fhook tcp_fhooks[] = {
	{ .symbol = TEEPROBE_TCP_CONN_REQUEST, .func = conn_request_hook },
	{ .symbol = TEEPROBE_TCP_V4_SEND_SYNACK, .func = send_synack_hook },
	{ .symbol = TEEPROBE_TCP_V6_SEND_SYNACK, .func = send_synack_hook,
	  .optional = TEEPROBE_TCP_V6_OPTIONAL },
	{ .symbol = TEEPROBE_TCP_V4_SYN_RECV_SOCK, .func = syn_recv_sock_hook },
	{ .symbol = TEEPROBE_TCP_V6_SYN_RECV_SOCK, .func = syn_recv_sock_v6_hook,
	  .optional = TEEPROBE_TCP_V6_OPTIONAL },
	{ .symbol = TEEPROBE_TCP_HASHDANCE, .func = hashdance_hook },
	{ .symbol = TEEPROBE_TCP_V4_REQSK_DESTRUCTOR, .func = reqsk_destructor_hook },
	{ .symbol = TEEPROBE_TCP_V6_REQSK_DESTRUCTOR, .func = reqsk_destructor_hook,
	  .optional = TEEPROBE_TCP_V6_OPTIONAL },
};

/*
 * The server's accept() and the client's connect() calls: kretprobes
 * (their returns matter, and they sleep). They run in process context,
 * which no server hook minds.
 */
struct teeprobe_tcp_probe {
	const char *symbol;
	kretprobe_handler_t entry;
	kretprobe_handler_t ret;
	size_t data_size;
	bool attached;
	int error;
	struct kretprobe rp;
};

static struct teeprobe_tcp_probe tcp_probes[] = {
	{ .symbol = TEEPROBE_TCP_INET_CSK_ACCEPT, .ret = accept_return },
	{ .symbol = TEEPROBE_TCP_INET_STREAM_CONNECT, .entry = connect_entry,
	  .ret = connect_return, .data_size = sizeof(struct teeprobe_tcp_connect) },
};

/* tcp_probe_attach - register @p; a missing symbol is reported, not fatal */
static void tcp_probe_attach(struct teeprobe_tcp_probe *p)
{
	unsigned int cpus = num_possible_cpus();
	int ret;

	memset(&p->rp, 0, sizeof(p->rp));
	p->rp.kp.symbol_name = p->symbol;
	p->rp.entry_handler = p->entry;
	p->rp.handler = p->ret;
	p->rp.data_size = p->data_size;
	/* accept() and connect() sleep in every waiting thread. */
	p->rp.maxactive = max(256U, 16 * cpus);
	ret = register_kretprobe(&p->rp);
	p->error = ret;
	p->attached = !ret;
	if (ret)
		pr_warn("tcp: cannot probe %s: error %d\n", p->symbol, ret);
}

/* tcp_probe_detach - unregister @p if it is attached */
static void tcp_probe_detach(struct teeprobe_tcp_probe *p)
{
	if (!p->attached)
		return;
	unregister_kretprobe(&p->rp);
	p->attached = false;
}

/* tcp_show_probes - tcp_probes: each hook, its state, nmissed */
static void tcp_show_probes(struct seq_file *m)
{
	unsigned int i;

	seq_puts(m, "# symbol type state error nmissed\n");
	for (i = 0; i < ARRAY_SIZE(tcp_fhooks); i++)
		teeprobe_fhook_show(m, &tcp_fhooks[i]);
	for (i = 0; i < ARRAY_SIZE(tcp_probes); i++) {
		const struct teeprobe_tcp_probe *p = &tcp_probes[i];

		seq_printf(m, "%s kretprobe %s %d %lu\n", p->symbol,
			   p->attached ? "attached" :
			   p->error == -ENOENT ? "not-found" : "failed",
			   p->error, p->attached ?
			   p->rp.nmissed + p->rp.kp.nmissed : 0UL);
	}
}

/* ---- window flush and table expiry ------------------------------------- */

/*
 * tcp_flush - close this CPU's window if it ended with windows of @len
 * (window.c's work, by IPI; at unload @len is 0)
 */
static void tcp_flush(u64 len)
{
	struct teeprobe_tcp_cpu *st = this_cpu_ptr(tcp_cpu);
	struct teeprobe_window closed;

	if (teeprobe_window_flush(&st->window, teeprobe_now_ns(), len, &closed))
		tcp_window_close(st, &closed);
}

/* tcp_window_of - @cpu's window, for the flush */
static struct teeprobe_window *tcp_window_of(int cpu)
{
	return &per_cpu_ptr(tcp_cpu, cpu)->window;
}

/*
 * tcp_tick - window.c's work, every window: forget stale handshakes, at
 * most once a second
 */
static void tcp_tick(u64 now)
{
	if (teeprobe_ns_delta(tcp_last_expire_ns, now) >= TEEPROBE_TCP_EXPIRE_NS) {
		teeprobe_tcp_table_expire(&tcp_table, now);
		tcp_last_expire_ns = now;
	}
}

/* ---- reset and debugfs ---------------------------------------------------- */

/* tcp_reset_cpu - zero a CPU's totals (on it by IPI, or offline) */
static void tcp_reset_cpu(int cpu)
{
	struct teeprobe_tcp_cpu *st = per_cpu_ptr(tcp_cpu, cpu);
	unsigned int slot;

	memset(st->port, 0, sizeof(st->port));
	st->phases_lost = 0;
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(tcp_phases[slot]);

		if (blk)
			memset(per_cpu_ptr(blk, cpu), 0, sizeof(*blk));
	}
}

/*
 * tcp_reset_counts - after each CPU's tcp_reset_cpu: zero the table's counters.
 * Handshakes in flight stay followed, ports keep their slots, windows go on.
 */
static void tcp_reset_counts(void)
{
	teeprobe_tcp_table_reset_counts(&tcp_table);
}

static const char * const tcp_counter_names[] = { TEEPROBE_TCP_COUNTER_NAMES };
static const char * const tcp_phase_names[] = { TEEPROBE_TCP_PHASE_NAMES };

/* show_port - the port of slot @slot as text; false for an unused slot */
static bool show_port(unsigned int slot, char *buf, size_t len)
{
	u32 port = READ_ONCE(tcp_ports[slot]);

	if (!slot) {
		strscpy(buf, "other", len);
		return true;
	}
	snprintf(buf, len, "%u", port);
	return port != 0;
}

/* counts_empty - whether nothing was counted in @count */
static bool counts_empty(const u64 *count)
{
	unsigned int i;

	for (i = 0; i < TEEPROBE_TCP_COUNTERS; i++)
		if (count[i])
			return false;
	return true;
}

/* show_counts_line - one counters line of tcp_stats */
static void show_counts_line(struct seq_file *m, const char *cpu,
			     const char *port, const u64 *count)
{
	u64 c[TEEPROBE_TCP_COUNTERS];
	unsigned int i;

	memcpy(c, count, sizeof(c));
	fill_syn_drops(c);
	seq_printf(m, "%s %s", cpu, port);
	for (i = 0; i < TEEPROBE_TCP_COUNTERS; i++)
		seq_printf(m, " %llu", c[i]);
	seq_putc(m, '\n');
}

/*
 * tcp_sums - each port's counters and phase histograms with every CPU
 * added (kvfree() it), each CPU's counters line printed to @m on the way
 * when @per_cpu; NULL, said in @m, when out of memory
 */
static struct teeprobe_tcp_counts *tcp_sums(struct seq_file *m, bool per_cpu)
{
	struct teeprobe_tcp_counts *sum;
	char cpu_name[16], port[16];
	unsigned int slot, i;
	int cpu;

	sum = kvcalloc(TEEPROBE_TCP_PORTS, sizeof(*sum), GFP_KERNEL);
	if (!sum) {
		seq_puts(m, "# error ENOMEM\n");
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		const struct teeprobe_tcp_cpu *st = per_cpu_ptr(tcp_cpu, cpu);

		snprintf(cpu_name, sizeof(cpu_name), "%d", cpu);
		for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
			struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(tcp_phases[slot]);

			if (!show_port(slot, port, sizeof(port)) ||
			    counts_empty(st->port[slot]))
				continue;
			if (per_cpu)
				show_counts_line(m, cpu_name, port, st->port[slot]);
			for (i = 0; i < TEEPROBE_TCP_COUNTERS; i++)
				sum[slot].count[i] += st->port[slot][i];
			for (i = 0; blk && i < TEEPROBE_TCP_PHASES; i++)
				teeprobe_hist_merge(&sum[slot].phase[i],
						    &per_cpu_ptr(blk, cpu)->phase[i]);
		}
	}
	return sum;
}

/*
 * tcp_show_stats - tcp_stats: counters per CPU and port, then per
 * port for all CPUs, then the table's and the acceptors' "# key value"
 * lines (the phases are tcp_phases)
 */
static void tcp_show_stats(struct seq_file *m)
{
	struct teeprobe_tcp_counts *sum;
	struct teeprobe_tcp_table_stats ts;
	unsigned int slot, i;
	char port[16];

	seq_puts(m, "# cpu port");
	for (i = 0; i < TEEPROBE_TCP_COUNTERS; i++)
		seq_printf(m, " %s", tcp_counter_names[i]);
	seq_putc(m, '\n');
	sum = tcp_sums(m, true);
	if (!sum)
		return;
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++)
		if (show_port(slot, port, sizeof(port)) &&
		    !counts_empty(sum[slot].count))
			show_counts_line(m, "all", port, sum[slot].count);
	kvfree(sum);
	teeprobe_tcp_table_stats(&tcp_table, &ts);
	seq_printf(m, "# table_size %u\n", tcp_table_size);
	seq_printf(m, "# table_in_use %llu\n", ts.in_use);
	seq_printf(m, "# table_expired %llu\n", ts.expired);
	seq_printf(m, "# table_full %llu\n", ts.full);
	seq_printf(m, "# timeout_s %u\n", tcp_timeout_s);
	teeprobe_acceptors_show(m);
	seq_printf(m, "# window_ms %llu\n",
		   div64_u64(teeprobe_window_len_ns(), NSEC_PER_MSEC));
}

/*
 * tcp_show_phases - tcp_phases: each port's phases for all CPUs,
 * count, sum, max, p50 and p99 (interpolated within their bucket), in ns
 */
static void tcp_show_phases(struct seq_file *m)
{
	struct teeprobe_tcp_counts *sum;
	unsigned int slot, i;
	u64 lost = 0;
	char port[16];
	int cpu;

	seq_puts(m, "# " TEEPROBE_TCP_PHASES_HEADER "\n");
	sum = tcp_sums(m, false);
	if (!sum)
		return;
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		if (!show_port(slot, port, sizeof(port)))
			continue;
		for (i = 0; i < TEEPROBE_TCP_PHASES; i++) {
			const struct teeprobe_hist *h = &sum[slot].phase[i];

			if (!h->count)
				continue;
			seq_printf(m, "%s %s %llu %llu %llu %llu %llu\n",
				   port, tcp_phase_names[i], h->count, h->sum,
				   h->max, teeprobe_hist_percentile(h, 50),
				   teeprobe_hist_percentile(h, 99));
		}
	}
	kvfree(sum);
	for_each_possible_cpu(cpu)
		lost += per_cpu_ptr(tcp_cpu, cpu)->phases_lost;
	seq_printf(m, "# phases_lost %llu\n", lost);
}

/* tcp_show_hist - tcp_hist: per port and phase, a column per CPU */
static void tcp_show_hist(struct seq_file *m)
{
	unsigned int slot, phase;
	char label[48], port[16];

	teeprobe_seq_hist_header(m, "port phase");
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(tcp_phases[slot]);

		if (!blk || !show_port(slot, port, sizeof(port)))
			continue;
		for (phase = 0; phase < TEEPROBE_TCP_PHASES; phase++) {
			snprintf(label, sizeof(label), "%s %s", port,
				 tcp_phase_names[phase]);
			teeprobe_seq_hist_rows(m, label, blk,
					       offsetof(struct teeprobe_tcp_phases, phase) +
					       phase * sizeof(struct teeprobe_hist));
		}
	}
	teeprobe_seq_hist_trailer(m);
}

/* ---- init and exit -------------------------------------------------------- */

static struct teeprobe_file tcp_files[] = {
	{ .name = "tcp_probes", .show = tcp_show_probes },
	{ .name = "tcp_stats", .show = tcp_show_stats },
	{ .name = "tcp_phases", .show = tcp_show_phases },
	{ .name = "tcp_hist", .show = tcp_show_hist },
};

static struct teeprobe_part tcp_part = {
	.name = "tcp",
	.window_of = tcp_window_of,
	.flush = tcp_flush,
	.tick = tcp_tick,
	.reset_cpu = tcp_reset_cpu,
	.reset = tcp_reset_counts,
	.files = tcp_files,
	.nr_files = ARRAY_SIZE(tcp_files),
};

/* tcp_detach_all - unregister every hook and probe, then forget the SYNs */
static void tcp_detach_all(void)
{
	unsigned int i;
	int cpu;

	for (i = ARRAY_SIZE(tcp_probes); i--; )
		tcp_probe_detach(&tcp_probes[i]);
	/*
	 * In reverse: send_synack's hook reads the SYN that tcp_conn_request's
	 * publishes; it goes first.
	 */
	for (i = ARRAY_SIZE(tcp_fhooks); i--; )
		teeprobe_fhook_detach(&tcp_fhooks[i]);
	/* Unregistering waited for the callbacks: no one reads these. */
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(tcp_syn_now, cpu), 0, sizeof(tcp_syn_now));
}

/*
 * tcp_hooks_required - every function the handshake's phases are timed at
 * is hooked. A kernel without one (renamed, inlined, not traceable) would
 * give counts of zero that look like no traffic: the module refuses to
 * load instead, naming the function (compat.h says where each comes from).
 */
static int tcp_hooks_required(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tcp_fhooks); i++) {
		struct teeprobe_fhook *h = &tcp_fhooks[i];

		if (h->attached || (h->optional && h->error == -ENOENT))
			continue;
		pr_err("tcp: cannot hook %s (error %d)%s: the handshake's phases need it\n",
		       h->symbol, h->error,
		       h->error == -ENOENT ? ", not in this kernel or not traceable" : "");
		return h->error ?: -ENOENT;
	}
	for (i = 0; i < ARRAY_SIZE(tcp_probes); i++) {
		struct teeprobe_tcp_probe *p = &tcp_probes[i];

		if (p->attached)
			continue;
		pr_err("tcp: cannot probe %s (error %d): the handshake's phases need it\n",
		       p->symbol, p->error);
		return p->error ?: -ENOENT;
	}
	return 0;
}

/*
 * tcp_slot_wanted - whether @slot needs its phase block now: it is taken,
 * or one of the TEEPROBE_TCP_SPARE slots taken next (slots are taken in order,
 * 1 to TEEPROBE_TCP_PORTS - 1, then "other", slot 0)
 */
static bool tcp_slot_wanted(unsigned int slot)
{
	unsigned int order = slot ? slot - 1 : TEEPROBE_TCP_PORTS - 1, taken = 0;

	while (taken < TEEPROBE_TCP_PORTS - 1 && READ_ONCE(tcp_ports[taken + 1]))
		taken++;
	/* "other" counts from the first SYN beyond the last slot */
	return order < taken + TEEPROBE_TCP_SPARE;
}

/* tcp_grow_fn - allocate the phase blocks the slots taken so far want */
static void tcp_grow_fn(struct work_struct *work)
{
	struct teeprobe_tcp_phases __percpu *blk;
	unsigned int slot;

	mutex_lock(&tcp_grow_lock);
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		if (tcp_phases[slot] || !tcp_slot_wanted(slot))
			continue;
		blk = teeprobe_alloc_percpu(sizeof(*blk), __alignof__(*blk));
		if (!blk)
			break;	/* the probes count phases_lost */
		/* zeroed memory, then the pointer the probes read */
		smp_store_release(&tcp_phases[slot], blk);
	}
	mutex_unlock(&tcp_grow_lock);
}

/* tcp_grow_kick - irq_work: a slot was taken; grow from process context */
static void tcp_grow_kick(struct irq_work *work)
{
	schedule_work(&tcp_grow_work);
}

/* tcp_free_percpu - free what teeprobe_tcp_init and the growth allocated */
static void tcp_free_percpu(void)
{
	teeprobe_free_percpu_n((void __percpu **)tcp_phases, TEEPROBE_TCP_PORTS,
			       sizeof(struct teeprobe_tcp_phases));
	teeprobe_free_percpu(tcp_cpu, sizeof(struct teeprobe_tcp_cpu));
	tcp_cpu = NULL;
}

/* teeprobe_tcp_init - allocate the table, attach probes and tracepoints */
int teeprobe_tcp_init(void)
{
	unsigned int nr_buckets, i;
	int ret;

	/* alloc_percpu's limit */
	BUILD_BUG_ON(sizeof(struct teeprobe_tcp_cpu) > PCPU_MIN_UNIT_SIZE);
	BUILD_BUG_ON(sizeof(struct teeprobe_tcp_phases) > PCPU_MIN_UNIT_SIZE);
	nr_buckets = teeprobe_tcp_table_buckets(tcp_table_size);
	/*
	 * vmalloc: whole pages (102 KiB by default: 256 buckets of 408
	 * bytes), where kmalloc would round up to a power of two (128 KiB).
	 */
	tcp_buckets = vcalloc(nr_buckets, sizeof(*tcp_buckets));
	if (!tcp_buckets)
		return -ENOMEM;
	teeprobe_tcp_table_init(&tcp_table, tcp_buckets, nr_buckets,
				(u64)tcp_timeout_s * NSEC_PER_SEC);
	INIT_WORK(&tcp_grow_work, tcp_grow_fn);
	init_irq_work(&tcp_grow_irq, tcp_grow_kick);
	tcp_cpu = teeprobe_alloc_percpu(sizeof(struct teeprobe_tcp_cpu),
					__alignof__(struct teeprobe_tcp_cpu));
	if (!tcp_cpu) {
		ret = -ENOMEM;
		goto out_free_percpu;
	}
	tcp_grow_fn(NULL);	/* the first slots' blocks */
	if (!tcp_phases[1]) {
		ret = -ENOMEM;
		goto out_free_percpu;
	}
	ret = teeprobe_hooks_attach("tcp", tcp_hooks, ARRAY_SIZE(tcp_hooks));
	if (ret)
		goto out_free_percpu;
	for (i = 0; i < ARRAY_SIZE(tcp_fhooks); i++)
		teeprobe_fhook_attach(&tcp_fhooks[i]);
	for (i = 0; i < ARRAY_SIZE(tcp_probes); i++)
		tcp_probe_attach(&tcp_probes[i]);
	ret = tcp_hooks_required();
	if (ret)
		goto out_detach;
	tcp_last_expire_ns = teeprobe_now_ns();
	teeprobe_part_register(&tcp_part);
	return 0;

out_detach:
	tcp_detach_all();
	teeprobe_hooks_detach(tcp_hooks, ARRAY_SIZE(tcp_hooks));
	tracepoint_synchronize_unregister();
out_free_percpu:
	irq_work_sync(&tcp_grow_irq);
	cancel_work_sync(&tcp_grow_work);
	tcp_free_percpu();
	vfree(tcp_buckets);
	return ret;
}

/* teeprobe_tcp_exit - detach everything, emit the open windows, free */
void teeprobe_tcp_exit(void)
{
	tcp_detach_all();
	teeprobe_hooks_detach(tcp_hooks, ARRAY_SIZE(tcp_hooks));
	tracepoint_synchronize_unregister();
	/* Nothing updates the windows any more: it closes them. */
	teeprobe_part_unregister(&tcp_part);
	/* no probe takes a slot any more: the last kick, then its work */
	irq_work_sync(&tcp_grow_irq);
	cancel_work_sync(&tcp_grow_work);
	tcp_free_percpu();
	vfree(tcp_buckets);
}
