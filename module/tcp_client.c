// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_client.c - the client side of a TCP handshake, per remote port:
 * sock:inet_sock_set_state SYN_SENT -> ESTABLISHED, and the whole
 * connect() call that waited for it (a kretprobe on inet_stream_connect).
 * A connecting socket is an entry of tcp_state.c's table, keyed by its
 * socket; tcp_state.c keeps the counters and the windows.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/skbuff.h>
#include <linux/string.h>
#include <net/inet_sock.h>
#include <net/request_sock.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "tcp_part.h"
#include "trace.h"

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
		teeprobe_tcp_account(now, teeprobe_tcp_port_slot(hs->port),
				     TEEPROBE_TCP_CONNECT_CALLS,
			   phase_ns, BIT(TEEPROBE_TCP_CONNECT_CALL));
	}
	if (trace_teeprobe_tcp_handshake_enabled()) {
		teeprobe_tcp_addrs_of(sk, &addrs);
		trace_teeprobe_tcp_handshake(TEEPROBE_TCP_CLIENT, &addrs, 0, 0, 0,
					     teeprobe_tcp_since(hs->syn_ns, hs->ack_ns),
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
	unsigned long key = teeprobe_tcp_key(sk, TEEPROBE_TCP_KEY_CLIENT);
	struct teeprobe_tcp_hs hs = {};
	unsigned int slot;
	u64 now = teeprobe_now_ns();

	/* A leftover of an earlier connect on this socket goes. */
	teeprobe_tcp_table_take(&teeprobe_tcp_handshakes, key, &hs);
	hs = (struct teeprobe_tcp_hs){
		.syn_ns = now,
		.port = ntohs(sk->sk_dport),
		.in_call = teeprobe_tcp_table_contains(&teeprobe_tcp_handshakes,
						       teeprobe_tcp_key(sk, TEEPROBE_TCP_KEY_CALL)),
	};
	slot = teeprobe_tcp_port_slot(hs.port);
	teeprobe_tcp_count_at(now, slot, TEEPROBE_TCP_CONNECTS);
	/* No room: the table counts it, ESTABLISHED counts it untracked. */
	teeprobe_tcp_table_insert(&teeprobe_tcp_handshakes, key, now, &hs);
}

/* client_syn_sent_left - @sk left SYN_SENT for @newstate */
static void client_syn_sent_left(const struct sock *sk, int newstate)
{
	unsigned long key = teeprobe_tcp_key(sk, TEEPROBE_TCP_KEY_CLIENT);
	u64 phase_ns[TEEPROBE_TCP_PHASES] = {};
	struct teeprobe_tcp_slot *s;
	struct teeprobe_tcp_hs hs;
	unsigned long flags;
	bool wait;
	u64 now;

	s = teeprobe_tcp_table_find_lock(&teeprobe_tcp_handshakes, key, &flags);
	if (!s) {
		/* Counted all the same, not timed: see accept_done. */
		hs = (struct teeprobe_tcp_hs){ .port = ntohs(sk->sk_dport) };
		if (newstate != TCP_ESTABLISHED) {
			teeprobe_tcp_count(teeprobe_tcp_port_slot(hs.port),
					   TEEPROBE_TCP_CONNECT_FAILED);
			return;
		}
		teeprobe_tcp_count(teeprobe_tcp_port_slot(hs.port), TEEPROBE_TCP_CONNECTED);
		teeprobe_tcp_count(teeprobe_tcp_port_slot(hs.port), TEEPROBE_TCP_CONNECT_UNTRACKED);
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
	teeprobe_tcp_table_unlock(&teeprobe_tcp_handshakes, key, flags);

	if (newstate != TCP_ESTABLISHED) {
		teeprobe_tcp_count(teeprobe_tcp_port_slot(hs.port), TEEPROBE_TCP_CONNECT_FAILED);
		return;
	}
	phase_ns[TEEPROBE_TCP_CONNECT] = teeprobe_tcp_since(hs.syn_ns, now);
	teeprobe_tcp_account(now, teeprobe_tcp_port_slot(hs.port), TEEPROBE_TCP_CONNECTED, phase_ns,
		   BIT(TEEPROBE_TCP_CONNECT));
	if (!wait)
		client_emit(now, sk, &hs, 0);
}

/* inet_sock_set_state - the client side: SYN_SENT -> ESTABLISHED */
static void inet_sock_set_state(TEEPROBE_INET_SOCK_SET_STATE_PROTO)
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
	if (teeprobe_tcp_table_insert(&teeprobe_tcp_handshakes,
				      teeprobe_tcp_key(c->sk,
						       TEEPROBE_TCP_KEY_CALL),
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
	teeprobe_tcp_table_take(&teeprobe_tcp_handshakes,
				teeprobe_tcp_key(c->sk,
						 TEEPROBE_TCP_KEY_CALL), &hs);
	key = teeprobe_tcp_key(c->sk, TEEPROBE_TCP_KEY_CLIENT);
	s = teeprobe_tcp_table_find_lock(&teeprobe_tcp_handshakes, key, &flags);
	if (s) {
		hs = s->hs;
		done = hs.in_call && hs.ack_ns;
		if (done)
			s->key = 0;
		else
			s->hs.in_call = false;
		teeprobe_tcp_table_unlock(&teeprobe_tcp_handshakes, key, flags);
	}
	if (done)
		client_emit(now, c->sk, &hs, ret ? 0 : teeprobe_tcp_since(c->start_ns, now));
	local_irq_restore(irqs);
	return 0;
}
NOKPROBE_SYMBOL(connect_return);

static struct teeprobe_hook client_hooks[] = {
	{ .name = "inet_sock_set_state", .probe = inet_sock_set_state },
};

static struct teeprobe_kretprobe client_probes[] = {
	{ .symbol = TEEPROBE_TCP_INET_STREAM_CONNECT, .entry = connect_entry,
	  .ret = connect_return, .data_size = sizeof(struct teeprobe_tcp_connect) },
};

struct teeprobe_tcp_probes teeprobe_tcp_client = {
	.hooks = client_hooks,
	.nr_hooks = ARRAY_SIZE(client_hooks),
	.probes = client_probes,
	.nr_probes = ARRAY_SIZE(client_probes),
};
