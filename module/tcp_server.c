// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_server.c - the server side of a TCP handshake, per listening port:
 *
 *   SYN -> SYN/ACK        tcp_conn_request to the first send_synack of its
 *                         request socket: the server's own processing
 *   SYN/ACK -> final ACK  to syn_recv_sock making the child: a round trip
 *   final ACK -> accept   to inet_csk_accept returning the child: the
 *                         accept-queue wait, long when workers are busy
 *
 * Seen at function entries (fhook.h: ftrace callbacks, which nest across
 * contexts, where kprobes would miss the SYNs of a softirq that interrupts
 * another kprobe's handler), and at accept()'s return (a kretprobe). The
 * SYN -> SYN/ACK step happens inside one tcp_conn_request call on one
 * CPU: its hook publishes the SYN being served, per CPU and context, and
 * the send_synack hook pairs the SYN/ACK with it by the SYN's skb, which
 * tcp_conn_request passes on. Each handshake also carries its own
 * packets' waits for NET_RX (netrx.c): the SYN's and the final ACK's.
 * tcp_state.c keeps the counters, the table and the windows.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/busy_poll.h>
#include <net/inet_sock.h>
#include <net/request_sock.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "tcp_part.h"
#include "trace.h"

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

static DEFINE_PER_CPU(struct teeprobe_tcp_syn, tcp_syn_now[2]);
/* the final ACK's wait, from syn_recv_sock's hook to hashdance's */
static DEFINE_PER_CPU(u32, tcp_ack_wait_now[2]);

/*
 * packet_napi - the napi that received @skb, 0 if unknown: the kernel's
 * skb_napi_id() is the id only when it was set (it shares its place with
 * the sending CPU's number, below MIN_NAPI_ID)
 */
static unsigned int packet_napi(const struct sk_buff *skb)
{
	unsigned int id = skb ? skb_napi_id(skb) : 0;

	return id >= MIN_NAPI_ID ? id : 0;
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
	syn->slot = teeprobe_tcp_port_slot(sk->sk_num);
	syn->answered = false;
	teeprobe_tcp_count_at(now, syn->slot, TEEPROBE_TCP_SYNS);
	/* tcp_conn_request drops a SYN that finds the accept queue full. */
	if (sk_acceptq_is_full(sk))
		teeprobe_tcp_count_at(now, syn->slot, TEEPROBE_TCP_LISTEN_OVERFLOWS);
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
			teeprobe_tcp_count(teeprobe_tcp_port_slot(sk->sk_num),
					   TEEPROBE_TCP_SYNACKS);
		return;
	}
	syn->answered = true;
	if (type == TCP_SYNACK_COOKIE) {
		teeprobe_tcp_count(syn->slot, TEEPROBE_TCP_SYNCOOKIES);
		return;
	}
	hs.synack_ns = teeprobe_now_ns();
	teeprobe_tcp_count_at(hs.synack_ns, syn->slot, TEEPROBE_TCP_SYNACKS);
	if (type != TCP_SYNACK_NORMAL)
		return;	/* Fast Open: its child exists already */
	hs.syn_ns = syn->syn_ns;
	hs.syn_wait_ns = syn->wait_ns;
	hs.port = syn->listener->sk_num;
	/* No room: the table counts it, accept() will count it untracked. */
	teeprobe_tcp_table_insert(&teeprobe_tcp_handshakes,
				  teeprobe_tcp_key(req, TEEPROBE_TCP_KEY_REQ),
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
		teeprobe_tcp_count(teeprobe_tcp_port_slot(sk->sk_num),
				   TEEPROBE_TCP_LISTEN_OVERFLOWS);
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
	unsigned int slot = teeprobe_tcp_port_slot(sk->sk_num);
	struct teeprobe_tcp_hs hs;
	u64 now;

	if (!own_req || !child)
		return;
	now = teeprobe_now_ns();
	teeprobe_tcp_count_at(now, slot, TEEPROBE_TCP_CHILDREN);
	if (!teeprobe_tcp_table_take(&teeprobe_tcp_handshakes,
				     teeprobe_tcp_key(req,
						      TEEPROBE_TCP_KEY_REQ), &hs))
		return;
	hs.ack_ns = now;
	hs.ack_wait_ns = this_cpu_read(tcp_ack_wait_now[in_serving_softirq() ? 1 : 0]);
	teeprobe_tcp_table_insert(&teeprobe_tcp_handshakes,
				  teeprobe_tcp_key(child,
						   TEEPROBE_TCP_KEY_CHILD),
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
	if (!teeprobe_tcp_table_take(&teeprobe_tcp_handshakes,
				     teeprobe_tcp_key(child,
						      TEEPROBE_TCP_KEY_CHILD),
				     &hs)) {
		slot = teeprobe_tcp_port_slot(child->sk_num);
		teeprobe_tcp_count(slot, TEEPROBE_TCP_ACCEPTED);
		teeprobe_tcp_count(slot, TEEPROBE_TCP_UNTRACKED);
		return;
	}
	now = teeprobe_now_ns();
	phase_ns[TEEPROBE_TCP_SYN_SYNACK] = teeprobe_tcp_since(hs.syn_ns, hs.synack_ns);
	phase_ns[TEEPROBE_TCP_SYNACK_ACK] = teeprobe_tcp_since(hs.synack_ns, hs.ack_ns);
	phase_ns[TEEPROBE_TCP_ACK_ACCEPT] = teeprobe_tcp_since(hs.ack_ns, now);
	phase_ns[TEEPROBE_TCP_SYN_WAIT] = hs.syn_wait_ns;
	phase_ns[TEEPROBE_TCP_ACK_WAIT] = hs.ack_wait_ns;
	teeprobe_tcp_account(now, teeprobe_tcp_port_slot(hs.port), TEEPROBE_TCP_ACCEPTED, phase_ns,
		   BIT(TEEPROBE_TCP_SYN_SYNACK) | BIT(TEEPROBE_TCP_SYNACK_ACK) |
		   BIT(TEEPROBE_TCP_ACK_ACCEPT) | BIT(TEEPROBE_TCP_SYN_WAIT) |
		   BIT(TEEPROBE_TCP_ACK_WAIT));
	if (trace_teeprobe_tcp_handshake_enabled()) {
		teeprobe_tcp_addrs_of(child, &addrs);
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
	if (teeprobe_tcp_table_take(&teeprobe_tcp_handshakes,
				    teeprobe_tcp_key(req,
						     TEEPROBE_TCP_KEY_REQ), &hs) &&
	    !child)
		teeprobe_tcp_count(teeprobe_tcp_port_slot(hs.port), TEEPROBE_TCP_REQ_DROPS);
	if (child && sock_flag(child, SOCK_DEAD))
		teeprobe_tcp_table_take(&teeprobe_tcp_handshakes,
					teeprobe_tcp_key(child,
							 TEEPROBE_TCP_KEY_CHILD),
					&hs);
}

/* reqsk_destructor_hook - a request socket's destructor is called */
static void reqsk_destructor_hook(struct pt_regs *regs)
{
	reqsk_freed((const struct request_sock *)regs_get_kernel_argument(regs, 0));
}
NOKPROBE_SYMBOL(reqsk_destructor_hook);

/* retransmit_synack - a SYN/ACK is sent again (a tracepoint) */
static void retransmit_synack(TEEPROBE_TCP_RETRANSMIT_SYNACK_PROTO)
{
	teeprobe_tcp_count(teeprobe_tcp_port_slot(sk->sk_num), TEEPROBE_TCP_SYNACK_RETRANS);
	teeprobe_tcp_table_count_retrans(&teeprobe_tcp_handshakes,
					 teeprobe_tcp_key(req,
							  TEEPROBE_TCP_KEY_REQ));
}

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

/* ---- the hooks and the kretprobe ---------------------------------------- */

/* The server side, in the order a handshake meets them */
static struct teeprobe_fhook server_fhooks[] = {
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

static struct teeprobe_hook server_hooks[] = {
	{ .name = "tcp_retransmit_synack", .probe = retransmit_synack },
};

static struct teeprobe_kretprobe server_probes[] = {
	{ .symbol = TEEPROBE_TCP_INET_CSK_ACCEPT, .ret = accept_return },
};

struct teeprobe_tcp_probes teeprobe_tcp_server = {
	.hooks = server_hooks,
	.nr_hooks = ARRAY_SIZE(server_hooks),
	.fhooks = server_fhooks,
	.nr_fhooks = ARRAY_SIZE(server_fhooks),
	.probes = server_probes,
	.nr_probes = ARRAY_SIZE(server_probes),
};

/*
 * teeprobe_tcp_server_forget - forget the SYNs being served, once the
 * hooks are detached (unregistering waited for the callbacks)
 */
void teeprobe_tcp_server_forget(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(tcp_syn_now, cpu), 0, sizeof(tcp_syn_now));
}
