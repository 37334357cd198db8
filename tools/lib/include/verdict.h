/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verdict.h - which link of the chain is to blame: the decision of
 * "teeprobe analyze" on the evidence it measured. Pure (no I/O), so the
 * unit tests drive every branch with made-up evidence.
 */
#ifndef TEEPROBE_VERDICT_H
#define TEEPROBE_VERDICT_H

#include <stdbool.h>

/*
 * What the accepting threads did while connections waited in the accept
 * queue (acceptq.h): shares of their time then, NAN where not measured
 */
struct accept_evidence {
	double tee;			/* inside TEE calls */
	double tee_asleep;		/* of that, asleep */
	double tee_setup;		/* of that, in shared-memory set-up calls */
	double tee_queue;		/* of that, waiting for a secure thread */
	double runnable;		/* waiting for a CPU, in TEE calls or not */
	double running;			/* on a CPU outside TEE calls */
	double asleep;			/* asleep outside TEE calls */
	double unknown;			/* outside TEE calls, state not recorded */
};

/* What one session showed; times are means per server handshake, in ns */
struct evidence {
	double handshakes;		/* server handshakes with phases */
	double netrx_wait_ns;		/* one packet's NET_RX raise->entry wait */
	bool local_client;		/* the clients' handshakes seen too */
	double syn_synack_ns, synack_ack_ns, ack_accept_ns;
	/* each handshake's own SYN's and ACK's NET_RX waits (NAN: not known) */
	double syn_wait_ns, ack_wait_ns;
	struct accept_evidence acc;
	double tee_per_hs_ns;		/* TEE ioctl time per handshake */
	double tee_blocked_share;	/* of TEE ioctl time, asleep */
	double tee_setup_share;		/* of TEE ioctl time, SHM set-up */
	double tee_oncpu_share;		/* TEE on-CPU time / CPU time */
	double ksoftirqd_share;		/* of NET_RX wait time, ksoftirqd's */
	double tee_wait_share;		/* of NET_RX wait time, behind TEE calls */
	double r_tee_netrx;		/* TEE on-CPU vs NET_RX delay, per window */
};

enum verdict_part {
	PART_NETRX,	/* packets waiting for NET_RX (SYN, and ACK) */
	PART_KERNEL,	/* SYN -> SYN/ACK */
	PART_NETWORK,	/* SYN/ACK -> ACK less the ACK's NET_RX wait */
	PART_ACCEPT,	/* ACK -> accept */
	PART_TEE,	/* the application's time in TEE ioctls */
	NR_PARTS
};

enum verdict_cause {
	CAUSE_TEE_BLOCKING,	/* threads blocked in TEE ioctls (set-up) */
	CAUSE_TEE_WORK,		/* TEE calls long, not blocked on set-up */
	CAUSE_TEE_NETRX,	/* TEE calls hold NET_RX back */
	CAUSE_SOFTIRQ_SCHED,	/* NET_RX waits for ksoftirqd: CPU hog */
	CAUSE_SOFTIRQ_BH,	/* NET_RX held off, not by TEE calls */
	CAUSE_NETWORK,		/* the round trip */
	CAUSE_ACCEPT,		/* the application accepts late */
	CAUSE_ACCEPT_CPU,	/* the accepting threads wait for a CPU */
	CAUSE_KERNEL,		/* SYN processing itself */
	CAUSE_NONE,		/* handshakes within the target */
	CAUSE_WEAK,		/* not enough, or mixed, evidence */
	NR_CAUSES
};

struct verdict_opts {
	double target_ns;		/* handshake time that is fine */
	double min_handshakes;		/* fewer: weak evidence */
	double min_share;		/* top part below it: mixed */
};

/* How the cause reaches the handshakes */
enum verdict_path {
	PATH_DIRECT,		/* the cause is the top part itself */
	PATH_ACCEPT_QUEUE,	/* connections wait for accept() meanwhile */
};

struct verdict {
	enum verdict_cause cause;
	enum verdict_path path;
	double part_ns[NR_PARTS];
	double total_ns;
	enum verdict_part top, second;
	const char *why;		/* the rule that decided, for a person */
};

void verdict_default_opts(struct verdict_opts *o);
void verdict_decide(const struct evidence *e, const struct verdict_opts *o,
		    struct verdict *v);
const char *verdict_key(enum verdict_cause c);		/* for JSON */
const char *verdict_title(enum verdict_cause c);	/* for people */
const char *verdict_part_name(enum verdict_part p);
const char *verdict_part_key(enum verdict_part p);	/* for JSON */
const char *verdict_path_key(enum verdict_path p);	/* for JSON */

#endif /* TEEPROBE_VERDICT_H */
