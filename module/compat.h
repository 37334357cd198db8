/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - every kernel-version difference teeprobe.ko deals with.
 *
 * Supported: 5.10 (Debian 11, openEuler 22.03 LTS) to Debian unstable's
 * newest (7.2 when this was written); make check builds and tests 5.10,
 * 6.1, 6.12 and the newest. Below 5.10 the module refuses to build.
 */
#ifndef TEEPROBE_COMPAT_H
#define TEEPROBE_COMPAT_H

#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/version.h>

/*
 * VISIBLE_IF_KUNIT and EXPORT_SYMBOL_IF_KUNIT (<kunit/visibility.h>, 6.3,
 * and Debian's 6.1 from its stable updates): a helper static in the module
 * is visible, and exported, to the KUnit suites where the kernel has KUnit.
 * Without the header (5.10), no kernel of ours has KUnit either.
 */
#if __has_include("kunit/visibility.h")
#include <kunit/visibility.h>
#else
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#define VISIBLE_IF_KUNIT static
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(5, 10, 0)
#error "teeprobe needs Linux 5.10 or newer (tracepoint and kprobe interfaces; see Documentation/install.rst)"
#endif

/*
 * sched:sched_switch gained prev_state in 5.18 (before, the state was read
 * from the task, as the tracepoint itself did). TEEPROBE_SCHED_PREV_STATE is the
 * switched-out task's state in a probe declared with TEEPROBE_SCHED_SWITCH_PROTO.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
#define TEEPROBE_SCHED_SWITCH_PROTO	void *data, bool preempt,		\
				struct task_struct *prev,		\
				struct task_struct *next,		\
				unsigned int prev_state
#define TEEPROBE_SCHED_PREV_STATE	prev_state
#else
#define TEEPROBE_SCHED_SWITCH_PROTO	void *data, bool preempt,		\
				struct task_struct *prev,		\
				struct task_struct *next
#define TEEPROBE_SCHED_PREV_STATE	READ_ONCE(prev->state)
#endif

/*
 * sched:sched_wakeup passes the woken task, in 6.1 and 6.12 alike.
 */
#define TEEPROBE_SCHED_WAKEUP_PROTO	void *data, struct task_struct *p

/*
 * TCP handshake hooks (tcp_server.c, tcp_client.c). Tracepoints are used where the kernel has
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
 *                           request socket freed (with no child: dropped)
 *   inet_csk_accept         exported, proto->accept: returns the child
 *                           accept() hands out (kretprobe; it sleeps). Not
 *                           the request socket's destructor: the SYN/ACK's
 *                           skb keeps the request socket until the NIC's
 *                           transmit cleanup, which may come after accept()
 *                           and the child's close (seen on 7.2 guests)
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
 * SYNs left unanswered are counted as the rest. The two kretprobes left,
 * accept()'s and connect()'s, run in process context.
 *
 * Tracepoints: tcp:tcp_retransmit_synack for retransmits and
 * sock:inet_sock_set_state for the client side (SYN_SENT -> ESTABLISHED).
 * Their prototypes, and the argument positions of the hooked functions,
 * are the same from 5.10 to 7.2 (7.2's syn_recv_sock takes one more
 * argument, after the two read here).
 */
/*
 * The module refuses to load when one of these is missing (tcp.c), but for
 * the IPv6 ones where IPv6 is a module (it may come later, or never).
 * TEEPROBE_TCP_V4_SYN_RECV_SOCK may be overridden at build time: the tests build
 * a module naming a function no kernel has, to see it refused.
 */
#define TEEPROBE_TCP_V6_OPTIONAL		(!IS_BUILTIN(CONFIG_IPV6))
#define TEEPROBE_TCP_CONN_REQUEST		"tcp_conn_request"
#define TEEPROBE_TCP_CONN_REQUEST_ARG_SK	2	/* (rsk_ops, af_ops, sk, skb) */
#define TEEPROBE_TCP_CONN_REQUEST_ARG_SKB	3
#define TEEPROBE_TCP_V4_SEND_SYNACK		"tcp_v4_send_synack"
#define TEEPROBE_TCP_V6_SEND_SYNACK		"tcp_v6_send_synack"
/* (sk, dst, fl, req, foc, synack_type, syn_skb) */
#define TEEPROBE_TCP_SEND_SYNACK_ARG_SK	0
#define TEEPROBE_TCP_SEND_SYNACK_ARG_REQ	3
#define TEEPROBE_TCP_SEND_SYNACK_ARG_TYPE	5
#define TEEPROBE_TCP_SEND_SYNACK_ARG_SYN_SKB	6	/* on the stack on x86-64 */
#ifndef TEEPROBE_TCP_V4_SYN_RECV_SOCK
#define TEEPROBE_TCP_V4_SYN_RECV_SOCK		"tcp_v4_syn_recv_sock"
#endif
#define TEEPROBE_TCP_V6_SYN_RECV_SOCK		"tcp_v6_syn_recv_sock"
/* (sk, skb, req, dst, req_unhash, own_req) -> child or NULL */
#define TEEPROBE_TCP_SYN_RECV_SOCK_ARG_SK	0
#define TEEPROBE_TCP_SYN_RECV_SOCK_ARG_SKB	1
#define TEEPROBE_TCP_HASHDANCE		"inet_csk_complete_hashdance"
/* (sk, child, req, own_req) -> the child, or NULL */
#define TEEPROBE_TCP_HASHDANCE_ARG_SK		0
#define TEEPROBE_TCP_HASHDANCE_ARG_CHILD	1
#define TEEPROBE_TCP_HASHDANCE_ARG_REQ	2
#define TEEPROBE_TCP_HASHDANCE_ARG_OWN_REQ	3
#define TEEPROBE_TCP_V4_REQSK_DESTRUCTOR	"tcp_v4_reqsk_destructor"
#define TEEPROBE_TCP_V6_REQSK_DESTRUCTOR	"tcp_v6_reqsk_destructor"
#define TEEPROBE_TCP_INET_CSK_ACCEPT		"inet_csk_accept"	/* -> child or NULL */
#define TEEPROBE_TCP_INET_STREAM_CONNECT	"inet_stream_connect"
#define TEEPROBE_TCP_STREAM_CONNECT_ARG_SOCK	0	/* (sock, uaddr, len, flags) */

/*
 * ftrace callbacks (fhook.c). Since 5.11 they receive struct ftrace_regs
 * and guard against recursion themselves (ftrace_test_recursion_trylock()
 * in <linux/trace_recursion.h>, per context, as fhook.h says). 5.10 passes
 * struct pt_regs, and runs a callback whose ops lack
 * FTRACE_OPS_FL_RECURSION_SAFE through its own guard of the same kind
 * (ftrace_ops_assist_func), which drops a recursing call without a count:
 * there, "missed" stays 0 (a hook's callback calls nothing it hooks).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)
#include <linux/trace_recursion.h>
#define TEEPROBE_FTRACE_REGS			struct ftrace_regs
#define teeprobe_ftrace_get_regs(fregs)	ftrace_get_regs(fregs)
#define teeprobe_ftrace_trylock(ip, pip)	ftrace_test_recursion_trylock(ip, pip)
#define teeprobe_ftrace_unlock(bit)		ftrace_test_recursion_unlock(bit)
#else
#define TEEPROBE_FTRACE_REGS			struct pt_regs
#define teeprobe_ftrace_get_regs(regs)	(regs)
#define teeprobe_ftrace_trylock(ip, pip)	0
#define teeprobe_ftrace_unlock(bit)		do { } while (0)
#endif

/*
 * ftrace_free_filter() is exported to modules since 6.2 (and Debian's 6.1):
 * before, an empty filter set with reset frees the ops' filter entries
 * (what is left is ftrace's shared empty hash).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 1, 0)
#define teeprobe_ftrace_free_filter(ops)	ftrace_free_filter(ops)
#else
#define teeprobe_ftrace_free_filter(ops)	ftrace_set_filter(ops, NULL, 0, 1)
#endif

/* in_hardirq() came in 5.11 (in_irq() before, the same test) */
#ifndef in_hardirq
#define in_hardirq()	in_irq()
#endif

/* A kretprobe instance's kretprobe: get_kretprobe() since 5.11 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0)
#define teeprobe_kretprobe_of(ri)	get_kretprobe(ri)
#else
#define teeprobe_kretprobe_of(ri)	((ri)->rp)
#endif

/*
 * The TEE core's shared-memory set-up for user space (the tee preset's
 * "step" probes): tee_shm_register_user_buf() and tee_shm_alloc_user_buf()
 * since the 5.18 rework; before, tee_shm_register() and tee_shm_alloc(),
 * which kernel clients call too (outside a TEE ioctl they are not counted:
 * a step is charged to the ioctl its thread is in).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
#define TEEPROBE_TEE_SHM_REGISTER_SYMBOL	"tee_shm_register_user_buf"
#define TEEPROBE_TEE_SHM_ALLOC_SYMBOL		"tee_shm_alloc_user_buf"
#else
#define TEEPROBE_TEE_SHM_REGISTER_SYMBOL	"tee_shm_register"
#define TEEPROBE_TEE_SHM_ALLOC_SYMBOL		"tee_shm_alloc"
#endif

#define TEEPROBE_INET_SOCK_SET_STATE_PROTO	void *data, const struct sock *sk, \
					const int oldstate, const int newstate
#define TEEPROBE_TCP_RETRANSMIT_SYNACK_PROTO	void *data, const struct sock *sk, \
					const struct request_sock *req

#endif /* TEEPROBE_COMPAT_H */
