/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_part.h - what the TCP part's files share: tcp.c (per-port state and
 * accounting, windows, debugfs, init and exit), tcp_server.c (the server's
 * hooks and accept()) and tcp_client.c (the client's state changes and
 * connect()).
 */
#ifndef TEEPROBE_TCP_PART_H
#define TEEPROBE_TCP_PART_H

#include <linux/kprobes.h>
#include <linux/types.h>

#include "abi.h"
#include "compat.h"
#include "fhook.h"
#include "tcp.h"
#include "tcp_table.h"
#include "teeprobe.h"

struct sock;

/* Table keys: the socket's address with its kind in the low bits */
enum teeprobe_tcp_kind {
	TEEPROBE_TCP_KEY_REQ = 1,	/* a request socket, server side */
	TEEPROBE_TCP_KEY_CHILD = 2,	/* its child socket, until accept() */
	TEEPROBE_TCP_KEY_CLIENT = 3,	/* a connecting socket */
	TEEPROBE_TCP_KEY_CALL = 4,	/* a socket in a connect() call */
};

/* teeprobe_tcp_key - the table key of @p as a @kind */
static inline unsigned long teeprobe_tcp_key(const void *p,
					     enum teeprobe_tcp_kind kind)
{
	return (unsigned long)p | kind;
}

/* teeprobe_tcp_since - @to - @from, 0 when either is unknown or time ran backwards */
static inline u64 teeprobe_tcp_since(u64 from, u64 to)
{
	return from ? teeprobe_ns_delta(from, to) : 0;
}

/* tcp.c: the handshakes in flight, and the counters of each port */
extern struct teeprobe_tcp_table teeprobe_tcp_handshakes;
unsigned int teeprobe_tcp_port_slot(u16 port);
void teeprobe_tcp_account(u64 now, unsigned int slot,
			  enum teeprobe_tcp_counter counter, const u64 *phase_ns,
			  unsigned long phases);
void teeprobe_tcp_count_at(u64 now, unsigned int slot,
			   enum teeprobe_tcp_counter counter);
void teeprobe_tcp_count(unsigned int slot, enum teeprobe_tcp_counter counter);
void teeprobe_tcp_addrs_of(const struct sock *sk, struct teeprobe_tcp_addrs *a);

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

/* One side's tracepoints, function hooks and kretprobes, attached by tcp.c */
struct teeprobe_tcp_probes {
	struct teeprobe_hook *hooks;
	unsigned int nr_hooks;
	struct teeprobe_fhook *fhooks;
	unsigned int nr_fhooks;
	struct teeprobe_tcp_probe *probes;
	unsigned int nr_probes;
};

/* tcp_server.c */
extern struct teeprobe_tcp_probes teeprobe_tcp_server;
void teeprobe_tcp_server_forget(void);

/* tcp_client.c */
extern struct teeprobe_tcp_probes teeprobe_tcp_client;

#endif /* TEEPROBE_TCP_PART_H */
