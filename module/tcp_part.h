/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tcp_part.h - what the TCP part's files share: tcp.c (attaching the
 * hooks, tcp_probes, init and exit), tcp_state.c (parameters, per-port
 * state and accounting, windows), tcp_stats.c (the counters' debugfs
 * files), tcp_server.c (the server's hooks and accept()) and tcp_client.c
 * (the client's state changes and connect()).
 */
#ifndef TEEPROBE_TCP_PART_H
#define TEEPROBE_TCP_PART_H

#include <linux/kprobes.h>
#include <linux/types.h>

#include "abi.h"
#include "compat.h"
#include "fhook.h"
#include "kretprobe.h"
#include "tcp_counts.h"
#include "tcp_table.h"
#include "teeprobe.h"
#include "window.h"

struct seq_file;
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

/*
 * Ports get a slot on first sight, in order; slot 0 counts every port
 * beyond. Eleven ports and "other" keep a CPU's counters each. Their phase
 * histograms (10 KiB a port and CPU) are a per-CPU block a slot, allocated
 * ahead of need: TEEPROBE_TCP_SPARE slots past the last one taken always have
 * theirs, and taking a slot has a work allocate the next (tcp_grow_fn).
 * More new ports than that within the work's delay lose their first
 * phases, counted as phases_lost in tcp_phases; so does a port whose block
 * could not be allocated, which the work tries again every 100 ms
 * (blocks_missing in tcp_phases).
 */
#define TEEPROBE_TCP_PORTS		12
#define TEEPROBE_TCP_SPARE		1
#define TEEPROBE_TCP_EXPIRE_NS	NSEC_PER_SEC	/* expiry pass at most this often */

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

/* tcp_state.c: the parameters, each CPU's state, each port's phase blocks */
extern unsigned int teeprobe_tcp_table_size;
extern unsigned int teeprobe_tcp_timeout_s;
extern struct teeprobe_tcp_cpu __percpu *teeprobe_tcp_percpu;
extern struct teeprobe_tcp_phases __percpu *teeprobe_tcp_port_phases[TEEPROBE_TCP_PORTS];
unsigned int teeprobe_tcp_blocks_missing(void);
extern u32 teeprobe_tcp_ports[TEEPROBE_TCP_PORTS];

/*
 * teeprobe_tcp_fill_syn_drops - SYNs answered by no SYN/ACK, in @c: every SYN is
 * answered by its tcp_conn_request call on its own CPU, so the rest of the
 * SYNs counted on a CPU were dropped (a SYN being served right now counts
 * among them until its SYN/ACK leaves)
 */
static inline void teeprobe_tcp_fill_syn_drops(u64 *count)
{
	u64 answered = count[TEEPROBE_TCP_SYNACKS] +
		       count[TEEPROBE_TCP_SYNCOOKIES];

	count[TEEPROBE_TCP_SYN_DROPS] = count[TEEPROBE_TCP_SYNS] > answered ?
		count[TEEPROBE_TCP_SYNS] - answered : 0;
}


/* tcp_state.c: the handshakes in flight, and the counters of each port */
extern struct teeprobe_tcp_table teeprobe_tcp_handshakes;
int teeprobe_tcp_state_alloc(void);
void teeprobe_tcp_state_free(void);
void teeprobe_tcp_flush(u64 len);
struct teeprobe_window *teeprobe_tcp_window_of(int cpu);
void teeprobe_tcp_tick(u64 now);
void teeprobe_tcp_reset_cpu(int cpu);
void teeprobe_tcp_reset_counts(void);
unsigned int teeprobe_tcp_port_slot(u16 port);
void teeprobe_tcp_account(u64 now, unsigned int slot,
			  enum teeprobe_tcp_counter counter, const u64 *phase_ns,
			  unsigned long phases);
void teeprobe_tcp_count_at(u64 now, unsigned int slot,
			   enum teeprobe_tcp_counter counter);
void teeprobe_tcp_count(unsigned int slot, enum teeprobe_tcp_counter counter);
void teeprobe_tcp_addrs_of(const struct sock *sk, struct teeprobe_tcp_addrs *a);

/* One side's tracepoints, function hooks and kretprobes, attached by tcp.c */
struct teeprobe_tcp_probes {
	struct teeprobe_hook *hooks;
	unsigned int nr_hooks;
	struct teeprobe_fhook *fhooks;
	unsigned int nr_fhooks;
	/*
	 * the server's accept() and the client's connect() calls: kretprobes
	 * (their returns matter, and they sleep), in process context, which
	 * no server hook minds
	 */
	struct teeprobe_kretprobe *probes;
	unsigned int nr_probes;
};

/* tcp_stats.c: the part's counters in debugfs */
void teeprobe_tcp_show_stats(struct seq_file *m);
void teeprobe_tcp_show_phases(struct seq_file *m);
void teeprobe_tcp_show_hist(struct seq_file *m);

/* tcp_server.c */
extern struct teeprobe_tcp_probes teeprobe_tcp_server;
void teeprobe_tcp_server_forget(void);

/* tcp_client.c */
extern struct teeprobe_tcp_probes teeprobe_tcp_client;

#endif /* TEEPROBE_TCP_PART_H */
