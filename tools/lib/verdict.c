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
 *
 * When TEE time is to blame, where it went names the cause, each with its
 * own fix: per-call shared-memory set-up (register once), waiting for a
 * secure thread (the secure side's capacity), the secure world's own work
 * (the TA's), or the normal world's driver. The largest share is named,
 * whether its threads sleep or spin there: a real secure world (OP-TEE,
 * iTrustee) registers memory mostly on a CPU, the lab's teesim asleep.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "verdict.h"

#define TEE_SMALL		10	/* percent of TEE time: "not set-up" */
#define TEE_SETUP_CAUSE		30	/* percent of TEE time: set-up is the cause */
#define TEE_ONCPU_MIN		0.05	/* of CPU time, to hold NET_RX back */
#define TEE_NETRX_R_MIN		0.3	/* correlation, TEE vs NET_RX delay */
#define KSOFTIRQD_MIN		0.5	/* ksoftirqd's share of the wait */
#define TEE_WAIT_MIN		0.3	/* share of the wait behind TEE calls */
#define ACC_TEE_MIN		0.5	/* accepting threads' time in TEE calls */
#define ACC_RUNNABLE_MIN	0.5	/* ... waiting for a CPU, of the known */
#define ACC_KNOWN_MIN		0.5	/* their states known for this much */

static const char *const keys[NR_CAUSES] = {
	[CAUSE_TEE_BLOCKING] = "tee-blocking",
	[CAUSE_TEE_QUEUE] = "tee-queue",
	[CAUSE_TEE_WORK] = "tee-work",
	[CAUSE_TEE_DRIVER] = "tee-driver",
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

/* Each cause's name; the TEE causes' titles add their numbers (tee_cause()) */
static const char *const names[NR_CAUSES] = {
	[CAUSE_TEE_BLOCKING] = "TEE ioctl blocking: per-call shared-memory set-up",
	[CAUSE_TEE_QUEUE] = "TEE calls wait for a free secure thread",
	[CAUSE_TEE_WORK] = "TEE ioctl time: the secure world's own work",
	[CAUSE_TEE_DRIVER] = "TEE ioctl time: the normal world's driver work",
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

/* What each cause implies a user does about it */
static const char *const fixes[NR_CAUSES] = {
	[CAUSE_TEE_BLOCKING] = "register the shared memory once (TEEC_RegisterSharedMemory, or TEE_IOC_SHM_REGISTER at start-up) and pass references into it, instead of a temporary memory reference per call",
	[CAUSE_TEE_QUEUE] = "give the secure side as many threads as there are concurrent callers (OP-TEE's CFG_NUM_THREADS, the TEE's thread pool), or let no more threads call the TEE at once than it has",
	[CAUSE_TEE_WORK] = "less work in the secure world per handshake (fewer or batched invokes, less data per call, a faster TA or crypto engine); the normal world's settings do not shorten it",
	[CAUSE_TEE_DRIVER] = "the TEE driver's own work per call in the normal world (copies, allocations, RPCs to tee-supplicant): profile the calling threads inside the ioctl (perf record -g -t TID)",
	[CAUSE_TEE_NETRX] = "keep TEE callers and the NIC's NET_RX apart: the NIC's interrupts (and RPS) on CPUs that make no TEE calls, or the callers pinned away from them",
	[CAUSE_SOFTIRQ_SCHED] = "find the tasks that keep ksoftirqd from running on the NIC's CPUs (a SCHED_FIFO task, a busy loop) and move them or lower their priority",
	[CAUSE_SOFTIRQ_BH] = "find what keeps bottom halves off on the NIC's CPUs (long spin_lock_bh sections, a driver, interrupt storms): perf or the irqsoff tracer there",
	[CAUSE_NETWORK] = "the network or the client: the server's side is not where the time goes",
	[CAUSE_ACCEPT] = "the application: more threads accepting, or accept() before slow work",
	[CAUSE_ACCEPT_CPU] = "CPU for the accepting threads: fewer competing tasks on their CPUs, their priority or affinity",
	[CAUSE_KERNEL] = "the kernel's SYN processing: netfilter rules, SYN cookies, the listen backlog",
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

const char *verdict_name(enum verdict_cause c)
{
	return c < NR_CAUSES ? names[c] : "?";
}

const char *verdict_fix(enum verdict_cause c)
{
	return c < NR_CAUSES ? fixes[c] : NULL;
}

/* verdict_tee_cause - is @c one of the causes of where TEE time went? */
bool verdict_tee_cause(enum verdict_cause c)
{
	return c == CAUSE_TEE_BLOCKING || c == CAUSE_TEE_QUEUE ||
	       c == CAUSE_TEE_WORK || c == CAUSE_TEE_DRIVER;
}

/* verdict_pct - a share in whole percent, as the text prints it */
int verdict_pct(double share)
{
	return isnan(share) ? 0 : (int)lround(100 * share);
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

/* say - printf into one of the verdict's texts */
static void __attribute__((format(printf, 2, 3)))
say(char *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, VERDICT_TEXT, fmt, ap);
	va_end(ap);
}

/* add - printf after what one of the verdict's texts holds */
static void __attribute__((format(printf, 2, 3)))
add(char *out, const char *fmt, ...)
{
	size_t n = strlen(out);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out + n, VERDICT_TEXT - n, fmt, ap);
	va_end(ap);
}

/*
 * setup_state - how the threads spent their set-up time: "mostly" for more
 * than half, both shares otherwise
 */
static void setup_state(char *out, const struct tee_split *t)
{
	int asleep = verdict_pct(t->setup_asleep);
	int oncpu = verdict_pct(t->setup_oncpu);

	if (asleep > 50)
		add(out, "mostly asleep (%d %% of it)", asleep);
	else if (oncpu > 50)
		add(out, "mostly on a CPU (%d %% of it)", oncpu);
	else
		add(out, "%d %% of it asleep, %d %% on a CPU", asleep, oncpu);
}

/*
 * split_text - where the TEE time went, every share, after @out: what the
 * title's share is one of
 */
static void split_text(char *out, const struct tee_split *t)
{
	add(out, "; of the TEE time: set-up %d %%", verdict_pct(t->setup));
	/* how the set-up was spent, where there is some to speak of */
	if (verdict_pct(t->setup) > 0)
		add(out, " (%d %% of it asleep)", verdict_pct(t->setup_asleep));
	if (verdict_pct(t->setup_once) > 0)
		add(out, ", one-time set-up %d %%", verdict_pct(t->setup_once));
	add(out, ", waiting for a secure thread %d %%, ", verdict_pct(t->queue));
	if (isnan(t->secure))
		add(out, "the calls' own work %d %% (the secure world's and the driver's, not told apart: nothing timed the secure world's entries)",
		    verdict_pct(t->work));
	else
		add(out, "the secure world %d %%, the driver %d %%",
		    verdict_pct(t->secure), verdict_pct(t->driver));
}

/*
 * tee_cause - TEE time is to blame: per-call set-up when it holds at least
 * TEE_SETUP_CAUSE % of it (the part its fix removes outright: on OP-TEE the
 * registrations and the TA's work come out near-equal, 49 % against 50 %,
 * and the largest share alone made the verdict a coin toss); else the
 * largest share of where it went (set-up, waiting for a secure thread, the
 * secure world, the driver; the last two as one when the secure world's
 * entries were not timed). Ties go to the first, set-up. One-time set-up
 * (memory registered as the threads start) is never the cause.
 */
static void tee_cause(const struct tee_split *t, struct verdict *v)
{
	bool split = !isnan(t->secure);
	double own = split ? nz(t->secure) : nz(t->work);
	double best = nz(t->setup);

	v->cause = CAUSE_TEE_BLOCKING;
	if (verdict_pct(t->setup) >= TEE_SETUP_CAUSE)
		best = INFINITY;
	if (nz(t->queue) > best) {
		v->cause = CAUSE_TEE_QUEUE;
		best = nz(t->queue);
	}
	if (own > best) {
		v->cause = CAUSE_TEE_WORK;
		best = own;
	}
	if (split && nz(t->driver) > best)
		v->cause = CAUSE_TEE_DRIVER;

	switch (v->cause) {
	case CAUSE_TEE_BLOCKING:
		say(v->title, "%s, %d %% of the TEE time, ", names[v->cause],
		    verdict_pct(t->setup));
		setup_state(v->title, t);
		break;
	case CAUSE_TEE_QUEUE:
		say(v->title, "%s: %d %% of the TEE time", names[v->cause],
		    verdict_pct(t->queue));
		break;
	case CAUSE_TEE_WORK:
		if (split)
			say(v->title, "%s (the TA's), %d %% of it", names[v->cause],
			    verdict_pct(t->secure));
		else
			say(v->title, "TEE ioctl time: the calls' own work, %d %% of it (the secure world's and the driver's, not told apart)",
			    verdict_pct(t->work));
		break;
	default:
		say(v->title, "%s, %d %% of it, outside the secure world",
		    names[v->cause], verdict_pct(t->driver));
		break;
	}
	/* "not per-call set-up" only where it is small */
	if (v->cause != CAUSE_TEE_BLOCKING && verdict_pct(t->setup) < TEE_SMALL)
		add(v->title, ", not per-call set-up (%d %%)", verdict_pct(t->setup));
	v->fix = v->cause == CAUSE_TEE_WORK && !split ?
		"time the secure world's entries to tell its work from the driver's (a probe with the secure role: Documentation/tee-probes.rst); then its fix" :
		fixes[v->cause];
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
		tee_cause(&a->split, v);
		say(v->why, "connections wait longest in the accept queue while the threads that accept them are in TEE calls %d %% of that time",
		    verdict_pct(a->tee));
		split_text(v->why, &a->split);
	} else if (runnable >= ACC_RUNNABLE_MIN) {
		v->path = PATH_ACCEPT_QUEUE;
		v->cause = CAUSE_ACCEPT_CPU;
		say(v->why, "connections wait longest in the accept queue while the threads that accept them wait for a CPU %d %% of that time",
		    verdict_pct(a->runnable));
		if (nz(a->unknown) > 0)
			add(v->why, " (%d %% of the time their state is known)",
			    verdict_pct(runnable));
	} else {
		v->cause = CAUSE_ACCEPT;
		if (isnan(a->tee))
			say(v->why, "connections wait in the accept queue longest");
		else
			say(v->why, "connections wait in the accept queue longest, while the threads that accept them are in TEE calls %d %% of that time and wait for a CPU %d %%: the rest of it they run their own code or sleep",
			    verdict_pct(a->tee), verdict_pct(a->runnable));
	}
}

/* netrx_cause - why packets wait for NET_RX */
static void netrx_cause(const struct evidence *e, struct verdict *v)
{
	if (nz(e->tee_wait_share) >= TEE_WAIT_MIN) {
		v->cause = CAUSE_TEE_NETRX;
		say(v->why, "NET_RX wait is the largest part, and %d %% of it passed while threads inside TEE calls held the CPU",
		    verdict_pct(e->tee_wait_share));
	} else if (nz(e->tee_oncpu_share) >= TEE_ONCPU_MIN &&
		   nz(e->r_tee_netrx) >= TEE_NETRX_R_MIN &&
		   nz(e->ksoftirqd_share) < KSOFTIRQD_MIN) {
		v->cause = CAUSE_TEE_NETRX;
		say(v->why, "NET_RX wait is the largest part; TEE calls hold %d %% of CPU time and the wait rises with them (r = %.2f)",
		    verdict_pct(e->tee_oncpu_share), e->r_tee_netrx);
	} else if (nz(e->ksoftirqd_share) >= KSOFTIRQD_MIN) {
		v->cause = CAUSE_SOFTIRQ_SCHED;
		say(v->why, "NET_RX wait is the largest part, %d %% of it softirqs deferred to ksoftirqd waiting for a CPU",
		    verdict_pct(e->ksoftirqd_share));
	} else {
		v->cause = CAUSE_SOFTIRQ_BH;
		say(v->why, "NET_RX wait is the largest part, %d %% of it at irq exit or bh enable, and only %d %% of it while TEE calls held the CPU",
		    100 - verdict_pct(e->ksoftirqd_share),
		    verdict_pct(e->tee_wait_share));
	}
}

void verdict_decide(const struct evidence *e, const struct verdict_opts *o,
		    struct verdict *v)
{
	v->path = PATH_DIRECT;
	v->title[0] = v->why[0] = '\0';
	split(e, v);
	if (nz(e->handshakes) < o->min_handshakes) {
		v->cause = CAUSE_WEAK;
		say(v->why, "too few handshakes in the session to tell");
	} else if (v->total_ns < o->target_ns) {
		v->cause = CAUSE_NONE;
		say(v->why, "the parts add up to less than the target");
	} else if (v->part_ns[v->top] < o->min_share * v->total_ns) {
		v->cause = CAUSE_WEAK;
		say(v->why, "no part holds the minimum share of the handshake time");
	} else if (v->top == PART_TEE) {
		tee_cause(&e->tee, v);
		say(v->why, "TEE ioctls are the largest part");
		split_text(v->why, &e->tee);
	} else if (v->top == PART_NETRX) {
		netrx_cause(e, v);
	} else if (v->top == PART_NETWORK) {
		v->cause = CAUSE_NETWORK;
		say(v->why, "SYN/ACK -> ACK, less its NET_RX wait, is the largest part");
	} else if (v->top == PART_ACCEPT) {
		accept_cause(e, v);
	} else {
		v->cause = CAUSE_KERNEL;
		say(v->why, "SYN -> SYN/ACK is the largest part");
	}
	/* a TEE cause made its own title and fix; the others have theirs */
	if (!v->title[0]) {
		say(v->title, "%s", names[v->cause]);
		v->fix = fixes[v->cause];
	}
}
