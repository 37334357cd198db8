/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference teeprobe.ko deals with.
 *
 * Supported: 6.1 (Debian 12) to 6.12 (Debian 12's newest kernel).
 */
#ifndef TEEPROBE_COMPAT_H
#define TEEPROBE_COMPAT_H

#include <linux/version.h>

/*
 * sched:sched_switch gained prev_state in 5.18; 6.1 and 6.12 both pass
 * (preempt, prev, next, prev_state).
 */
#define TP_SCHED_SWITCH_PROTO	void *data, bool preempt,		\
				struct task_struct *prev,		\
				struct task_struct *next,		\
				unsigned int prev_state

/*
 * sched:sched_wakeup passes the woken task, in 6.1 and 6.12 alike.
 */
#define TP_SCHED_WAKEUP_PROTO	void *data, struct task_struct *p

/*
 * TCP handshake hooks (tcp.c). Tracepoints are used where the kernel has
 * them; the request-socket steps have none in 6.1 or 6.12, so they are
 * entry hooks (fhook.h: ftrace, or kprobes where a module cannot read the
 * arguments from ftrace) on functions that exist, out of line, in both
 * (each is exported or called through a function pointer, so it cannot be
 * inlined away):
 *
 *   tcp_conn_request        exported; every SYN to a listener, both
 *                           families, with the SYN's skb
 *   tcp_v{4,6}_send_synack  request_sock_ops->send_synack: the first
 *                           SYN/ACK, with the SYN's skb (retransmits have
 *                           none)
 *   tcp_v{4,6}_syn_recv_sock  icsk_af_ops->syn_recv_sock: the final ACK
 *                           is about to make the child socket (or finds
 *                           the accept queue full)
 *   inet_csk_complete_hashdance  exported: the child made, with its
 *                           request socket, goes to the accept queue
 *   tcp_v{4,6}_reqsk_destructor  request_sock_ops->destructor: every
 *                           request socket freed; with a child, in
 *                           inet_csk_accept: accept() hands it out
 *   inet_stream_connect     exported, proto_ops->connect: the connect()
 *                           call a client waits in (kretprobe; it sleeps)
 *
 * Why entry hooks and not kprobes: kprobes do not nest, and while any
 * kprobe handler runs in a process (the connect() kretprobe's, a TEE
 * ioctl's) the NET_RX softirq an interrupt runs at its exit loses every
 * SYN and ACK of its batch to "missed" (ab's non-blocking connects lost
 * 3 to 13 % of the handshakes in 6.1 guests). The return values the
 * kretprobes read are now seen elsewhere: the SYN/ACK is paired with its
 * SYN by the skb, the child comes from inet_csk_complete_hashdance, and
 * SYNs left unanswered are counted as the rest.
 *
 * Tracepoints: tcp:tcp_retransmit_synack for retransmits and
 * sock:inet_sock_set_state for the client side (SYN_SENT -> ESTABLISHED).
 * Their prototypes, and the argument positions of the hooked functions,
 * are the same in 6.1 and 6.12.
 */
#define TP_TCP_CONN_REQUEST		"tcp_conn_request"
#define TP_TCP_CONN_REQUEST_ARG_SK	2	/* (rsk_ops, af_ops, sk, skb) */
#define TP_TCP_CONN_REQUEST_ARG_SKB	3
#define TP_TCP_V4_SEND_SYNACK		"tcp_v4_send_synack"
#define TP_TCP_V6_SEND_SYNACK		"tcp_v6_send_synack"
/* (sk, dst, fl, req, foc, synack_type, syn_skb) */
#define TP_TCP_SEND_SYNACK_ARG_SK	0
#define TP_TCP_SEND_SYNACK_ARG_REQ	3
#define TP_TCP_SEND_SYNACK_ARG_TYPE	5
#define TP_TCP_SEND_SYNACK_ARG_SYN_SKB	6	/* on the stack on x86-64 */
#define TP_TCP_V4_SYN_RECV_SOCK		"tcp_v4_syn_recv_sock"
#define TP_TCP_V6_SYN_RECV_SOCK		"tcp_v6_syn_recv_sock"
/* (sk, skb, req, dst, req_unhash, own_req) -> child or NULL */
#define TP_TCP_SYN_RECV_SOCK_ARG_SK	0
#define TP_TCP_SYN_RECV_SOCK_ARG_SKB	1
#define TP_TCP_HASHDANCE		"inet_csk_complete_hashdance"
/* (sk, child, req, own_req) -> the child, or NULL */
#define TP_TCP_HASHDANCE_ARG_SK		0
#define TP_TCP_HASHDANCE_ARG_CHILD	1
#define TP_TCP_HASHDANCE_ARG_REQ	2
#define TP_TCP_HASHDANCE_ARG_OWN_REQ	3
#define TP_TCP_V4_REQSK_DESTRUCTOR	"tcp_v4_reqsk_destructor"
#define TP_TCP_V6_REQSK_DESTRUCTOR	"tcp_v6_reqsk_destructor"
#define TP_TCP_INET_STREAM_CONNECT	"inet_stream_connect"
#define TP_TCP_STREAM_CONNECT_ARG_SOCK	0	/* (sock, uaddr, len, flags) */

#define TP_INET_SOCK_SET_STATE_PROTO	void *data, const struct sock *sk, \
					const int oldstate, const int newstate
#define TP_TCP_RETRANSMIT_SYNACK_PROTO	void *data, const struct sock *sk, \
					const struct request_sock *req

#endif /* TEEPROBE_COMPAT_H */
