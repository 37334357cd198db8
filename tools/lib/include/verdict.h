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
 * Where TEE calls' time went, as shares of it that add up to 1 (NAN where
 * not measured). A shared-memory set-up call (SHM_REGISTER, SHM_ALLOC)
 * counts whole as set-up: its waits for a secure thread and its entries
 * into the secure world are what the set-up costs, and registering the
 * memory once saves them all. Set-up a thread makes before its first call
 * into a TA is one-time set-up (session_mark_setup_once()): memory already
 * registered once, a share apart that no fix removes. The other calls' time is waiting for a
 * secure thread, in the secure world (the driver's timed entries into it:
 * the TA's work and the secure OS's), or the rest: the normal world's
 * driver and TEE core.
 */
struct tee_split {
	double setup;			/* set-up calls, whole */
	double setup_asleep;		/* of the set-up time, asleep */
	double setup_oncpu;		/* of the set-up time, on a CPU */
	double setup_once;		/* one-time set-up calls, whole */
	double queue;			/* other calls, waiting for a secure thread */
	double work;			/* other calls, the rest: secure + driver */
	double secure;			/* of that, in the secure world; NAN: not timed */
	double driver;			/* of that, the normal world's; NAN with secure */
};

/*
 * What the accepting threads did while connections waited in the accept
 * queue (acceptq.h): shares of their time then, NAN where not measured
 */
struct accept_evidence {
	double tee;			/* inside TEE calls */
	double tee_asleep;		/* of that, asleep */
	struct tee_split split;		/* of that, where it went */
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
	struct tee_split tee;		/* of TEE ioctl time, where it went */
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
	CAUSE_TEE_BLOCKING,	/* TEE calls held up by per-call SHM set-up */
	CAUSE_TEE_QUEUE,	/* TEE calls wait for a free secure thread */
	CAUSE_TEE_WORK,		/* the secure world's own work (the TA's) */
	CAUSE_TEE_DRIVER,	/* the normal world's driver work */
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

#define VERDICT_TEXT	512

/*
 * The title and why are made from the evidence's own numbers, rounded as
 * the evidence prints them (whole percent), so that the words agree with
 * what is printed beside them: "mostly" only above 50 %, "not set-up"
 * only when set-up is small.
 */
struct verdict {
	enum verdict_cause cause;
	enum verdict_path path;
	double part_ns[NR_PARTS];
	double total_ns;
	enum verdict_part top, second;
	char title[VERDICT_TEXT];	/* the cause, with its share */
	char why[VERDICT_TEXT];		/* the rule that decided, its numbers */
	const char *fix;		/* what the cause implies; NULL: none */
};

void verdict_default_opts(struct verdict_opts *o);
void verdict_decide(const struct evidence *e, const struct verdict_opts *o,
		    struct verdict *v);
const char *verdict_key(enum verdict_cause c);		/* for JSON */
const char *verdict_name(enum verdict_cause c);		/* for people */
const char *verdict_fix(enum verdict_cause c);		/* NULL: none */
int verdict_pct(double share);		/* a share as the text prints it */
bool verdict_tee_cause(enum verdict_cause c);	/* where TEE time went */
const char *verdict_part_name(enum verdict_part p);
const char *verdict_part_key(enum verdict_part p);	/* for JSON */
const char *verdict_path_key(enum verdict_path p);	/* for JSON */

#endif /* TEEPROBE_VERDICT_H */
