// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - the decision of "teeprobe analyze" (see verdict.h).
 *
 * A server handshake's time, as the server's kernel and its TEE calls see
 * it, is cut into parts: the SYN's wait for NET_RX, SYN -> SYN/ACK (the
 * kernel), SYN/ACK -> ACK (the round trip, which holds the ACK's own NET_RX
 * wait, and the client's too when the client runs on this host), ACK ->
 * accept (the application), and the application's time in TEE ioctls per
 * handshake. The largest part names the link; its evidence names the cause.
 * When it is the accept queue, the cause is what the accepting threads did
 * meanwhile: TEE calls (the case's blocking, seen through the queue when
 * the server has fewer accepting threads than clients), waiting for a CPU,
 * or the application's own slowness.
 */
#include <math.h>
#include <stddef.h>

#include "verdict.h"

#define TEE_BLOCKED_MIN		0.5	/* blocked share of TEE ioctl time */
#define TEE_SETUP_MIN		0.25	/* set-up share of TEE ioctl time */
#define TEE_ONCPU_MIN		0.05	/* of CPU time, to hold NET_RX back */
#define TEE_NETRX_R_MIN		0.3	/* correlation, TEE vs NET_RX delay */
#define KSOFTIRQD_MIN		0.5	/* ksoftirqd's share of the wait */
#define TEE_WAIT_MIN		0.3	/* share of the wait behind TEE calls */
#define ACC_TEE_MIN		0.5	/* accepting threads' time in TEE calls */
#define ACC_RUNNABLE_MIN	0.5	/* ... waiting for a CPU, of the known */
#define ACC_KNOWN_MIN		0.5	/* their states known for this much */

static const char *const keys[NR_CAUSES] = {
	[CAUSE_TEE_BLOCKING] = "tee-blocking",
	[CAUSE_TEE_WORK] = "tee-work",
	[CAUSE_TEE_NETRX] = "tee-starves-netrx",
	[CAUSE_SOFTIRQ_SCHED] = "softirq-cpu-hog",
	[CAUSE_SOFTIRQ_BH] = "softirq-bh-off",
	[CAUSE_NETWORK] = "network",
	[CAUSE_ACCEPT] = "slow-accept",
	[CAUSE_ACCEPT_CPU] = "accept-cpu-starved",
	[CAUSE_KERNEL] = "kernel-syn",
	[CAUSE_NONE] = "no-problem",
	[CAUSE_WEAK] = "weak-evidence",
};

static const char *const titles[NR_CAUSES] = {
	[CAUSE_TEE_BLOCKING] = "TEE ioctl blocking: threads sit off-CPU in per-call shared-memory set-up",
	[CAUSE_TEE_WORK] = "TEE ioctl time: the secure world's work, not blocking on set-up",
	[CAUSE_TEE_NETRX] = "TEE calls starve NET_RX on the CPUs that take the NIC's packets",
	[CAUSE_SOFTIRQ_SCHED] = "NET_RX starved by CPU load: deferred softirqs wait for ksoftirqd",
	[CAUSE_SOFTIRQ_BH] = "NET_RX held off by something other than TEE calls",
	[CAUSE_NETWORK] = "network round trip",
	[CAUSE_ACCEPT] = "slow accept: the application takes connections late",
	[CAUSE_ACCEPT_CPU] = "slow accept: the accepting threads wait for a CPU",
	[CAUSE_KERNEL] = "the kernel's SYN processing",
	[CAUSE_NONE] = "no problem: handshakes are within the target",
	[CAUSE_WEAK] = "weak evidence: no single link stands out",
};

static const char *const part_keys[NR_PARTS] = {
	[PART_NETRX] = "netrx_wait",
	[PART_KERNEL] = "syn_synack",
	[PART_NETWORK] = "round_trip",
	[PART_ACCEPT] = "ack_accept",
	[PART_TEE] = "tee_ioctls",
};

static const char *const path_keys[] = {
	[PATH_DIRECT] = "direct",
	[PATH_ACCEPT_QUEUE] = "accept-queue",
};

static const char *const parts[NR_PARTS] = {
	[PART_NETRX] = "NET_RX wait",
	[PART_KERNEL] = "SYN -> SYN/ACK",
	[PART_NETWORK] = "round trip",
	[PART_ACCEPT] = "ACK -> accept",
	[PART_TEE] = "TEE ioctls",
};

const char *verdict_key(enum verdict_cause c)
{
	return c < NR_CAUSES ? keys[c] : "?";
}

const char *verdict_title(enum verdict_cause c)
{
	return c < NR_CAUSES ? titles[c] : "?";
}

const char *verdict_part_name(enum verdict_part p)
{
	return p < NR_PARTS ? parts[p] : "?";
}

const char *verdict_part_key(enum verdict_part p)
{
	return p < NR_PARTS ? part_keys[p] : "?";
}

const char *verdict_path_key(enum verdict_path p)
{
	return p <= PATH_ACCEPT_QUEUE ? path_keys[p] : "?";
}

void verdict_default_opts(struct verdict_opts *o)
{
	o->target_ns = 10e6;		/* the case's target: 10,000 us */
	o->min_handshakes = 20;
	o->min_share = 0.4;
}

/* nz - a measured value, 0 where it was not measured */
static double nz(double v)
{
	return isnan(v) || v < 0 ? 0 : v;
}

/*
 * split - the parts of one handshake's time. With each handshake's own
 * packets' waits the NET_RX part is theirs, and the round trip holds the
 * rest of SYN/ACK -> ACK: the client's side, its own NET_RX wait included
 * when it runs on this host. Without (an older file) it is the mean wait
 * of a packet, once for the SYN and once for the ACK inside SYN/ACK ->
 * ACK, and once more for a client on this host.
 */
static void split(const struct evidence *e, struct verdict *v)
{
	double w = nz(e->netrx_wait_ns), s2 = nz(e->synack_ack_ns);
	double own_syn, own_ack, client;
	int p;

	if (!isnan(e->syn_wait_ns) && !isnan(e->ack_wait_ns)) {
		own_syn = nz(e->syn_wait_ns);
		own_ack = fmin(nz(e->ack_wait_ns), s2);
		client = 0;
	} else {
		own_syn = w;
		own_ack = fmin(w, s2);
		client = e->local_client ? fmin(s2 - own_ack, w) : 0;
	}
	v->part_ns[PART_NETRX] = own_syn + own_ack + client;
	v->part_ns[PART_KERNEL] = nz(e->syn_synack_ns);
	v->part_ns[PART_NETWORK] = s2 - own_ack - client;
	v->part_ns[PART_ACCEPT] = nz(e->ack_accept_ns);
	v->part_ns[PART_TEE] = nz(e->tee_per_hs_ns);
	v->total_ns = 0;
	v->top = PART_NETRX;
	for (p = 0; p < NR_PARTS; p++) {
		v->total_ns += v->part_ns[p];
		if (v->part_ns[p] > v->part_ns[v->top])
			v->top = p;
	}
	v->second = v->top == PART_NETRX ? PART_KERNEL : PART_NETRX;
	for (p = 0; p < NR_PARTS; p++)
		if (p != (int)v->top && v->part_ns[p] > v->part_ns[v->second])
			v->second = p;
}

/* tee_cause - TEE time is to blame: blocking in set-up, or the work */
static void tee_cause(double asleep, double setup, struct verdict *v)
{
	v->cause = nz(asleep) >= TEE_BLOCKED_MIN && nz(setup) >= TEE_SETUP_MIN ?
		   CAUSE_TEE_BLOCKING : CAUSE_TEE_WORK;
}

/*
 * accept_cause - why connections wait in the accept queue: what the
 * threads that take them from it were doing meanwhile
 */
static void accept_cause(const struct evidence *e, struct verdict *v)
{
	const struct accept_evidence *a = &e->acc;
	/*
	 * A thread's state is known from its first accept() in the session
	 * on: before, its time is "not known". Waiting for a CPU is a share
	 * of the known time, when that is most of it (a server whose threads
	 * accept one after another leaves a third unknown, seen on 7.2).
	 */
	double known = 1 - nz(a->unknown);
	double runnable = known >= ACC_KNOWN_MIN ? nz(a->runnable) / known : 0;

	if (nz(a->tee) >= ACC_TEE_MIN) {
		v->path = PATH_ACCEPT_QUEUE;
		tee_cause(a->tee_asleep, a->tee_setup, v);
		v->why = v->cause == CAUSE_TEE_BLOCKING ?
			"connections wait longest in the accept queue while the threads that accept them sit in TEE calls, mostly asleep, much of it in shared-memory set-up" :
			"connections wait longest in the accept queue while the threads that accept them sit in TEE calls, not for shared-memory set-up";
	} else if (runnable >= ACC_RUNNABLE_MIN) {
		v->path = PATH_ACCEPT_QUEUE;
		v->cause = CAUSE_ACCEPT_CPU;
		v->why = "connections wait longest in the accept queue while the threads that accept them wait for a CPU";
	} else {
		v->cause = CAUSE_ACCEPT;
		v->why = isnan(a->tee) ?
			"connections wait in the accept queue longest" :
			"connections wait in the accept queue longest, while the threads that accept them run their own code or sleep, not in TEE calls";
	}
}

/* netrx_cause - why packets wait for NET_RX */
static void netrx_cause(const struct evidence *e, struct verdict *v)
{
	if (nz(e->tee_wait_share) >= TEE_WAIT_MIN) {
		v->cause = CAUSE_TEE_NETRX;
		v->why = "NET_RX wait is the largest part, and much of it passed while threads inside TEE calls held the CPU";
	} else if (nz(e->tee_oncpu_share) >= TEE_ONCPU_MIN &&
		   nz(e->r_tee_netrx) >= TEE_NETRX_R_MIN &&
		   nz(e->ksoftirqd_share) < KSOFTIRQD_MIN) {
		v->cause = CAUSE_TEE_NETRX;
		v->why = "NET_RX wait is the largest part; TEE calls hold the CPUs and the wait rises with them";
	} else if (nz(e->ksoftirqd_share) >= KSOFTIRQD_MIN) {
		v->cause = CAUSE_SOFTIRQ_SCHED;
		v->why = "NET_RX wait is the largest part, mostly softirqs deferred to ksoftirqd waiting for a CPU";
	} else {
		v->cause = CAUSE_SOFTIRQ_BH;
		v->why = "NET_RX wait is the largest part, at irq exit or bh enable, without TEE calls to match";
	}
}

void verdict_decide(const struct evidence *e, const struct verdict_opts *o,
		    struct verdict *v)
{
	v->path = PATH_DIRECT;
	split(e, v);
	if (nz(e->handshakes) < o->min_handshakes) {
		v->cause = CAUSE_WEAK;
		v->why = "too few handshakes in the session to tell";
		return;
	}
	if (v->total_ns < o->target_ns) {
		v->cause = CAUSE_NONE;
		v->why = "the parts add up to less than the target";
		return;
	}
	if (v->part_ns[v->top] < o->min_share * v->total_ns) {
		v->cause = CAUSE_WEAK;
		v->why = "no part holds the minimum share of the handshake time";
		return;
	}
	switch (v->top) {
	case PART_TEE:
		tee_cause(e->tee_blocked_share, e->tee_setup_share, v);
		v->why = v->cause == CAUSE_TEE_BLOCKING ?
			"TEE ioctls are the largest part, mostly asleep, and shared-memory set-up takes a large share of them" :
			"TEE ioctls are the largest part, but not for shared-memory set-up";
		break;
	case PART_NETRX:
		netrx_cause(e, v);
		break;
	case PART_NETWORK:
		v->cause = CAUSE_NETWORK;
		v->why = "SYN/ACK -> ACK, less its NET_RX wait, is the largest part";
		break;
	case PART_ACCEPT:
		accept_cause(e, v);
		break;
	default:
		v->cause = CAUSE_KERNEL;
		v->why = "SYN -> SYN/ACK is the largest part";
		break;
	}
}
