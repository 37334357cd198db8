// SPDX-License-Identifier: GPL-2.0
/*
 * test_verdict.c - unit tests for tools/verdict.c: every cause from
 * made-up evidence whose answer is known, the split of a handshake's time
 * into parts, the edges (too few handshakes, below the target, no part
 * large enough, missing figures), and each share of where TEE time went
 * moved across its threshold, with the words of the title that follow it.
 */
#include <math.h>
#include <string.h>

#include "../../tools/lib/include/verdict.h"
#include "tap.h"

#define US	1e3
#define MS	1e6

#define NO_TEE	{ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN }

/*
 * tee - where TEE time went: set-up (@asleep and @oncpu of it), waiting
 * for a secure thread, the secure world (NAN: not timed) and the driver
 */
static struct tee_split tee(double setup, double asleep, double oncpu,
			    double queue, double secure, double driver)
{
	double work = 1 - setup - queue;

	return (struct tee_split){
		.setup = setup, .setup_asleep = asleep, .setup_oncpu = oncpu,
		.queue = queue, .work = work, .secure = secure,
		.driver = isnan(secure) ? NAN : driver,
	};
}

/* has - does the verdict's @text hold @s? (printed when it does not) */
static int has(const char *text, const char *s)
{
	if (strstr(text, s))
		return 1;
	tap_diag("\"%s\" is not in \"%s\"", s, text);
	return 0;
}

/* base - a loaded server with nothing wrong yet: 1000 handshakes of 1 ms */
static struct evidence base(void)
{
	struct evidence e = {
		.handshakes = 1000,
		.netrx_wait_ns = 50 * US,
		.syn_synack_ns = 100 * US,
		.synack_ack_ns = 500 * US,
		.ack_accept_ns = 300 * US,
		.tee_per_hs_ns = 0,
		.r_tee_netrx = NAN,
		/* an older file: no waits per handshake, no accept queue split */
		.syn_wait_ns = NAN,
		.ack_wait_ns = NAN,
		.acc = { NAN, NAN, NO_TEE, NAN, NAN, NAN, NAN },
		.tee = NO_TEE,
	};
	return e;
}

/* queued - a server with fewer accepting threads than clients: 80 ms in
 * the accept queue, each connection's own packets' waits known */
static struct evidence queued(void)
{
	struct evidence e = base();

	e.syn_wait_ns = 40 * US;
	e.ack_wait_ns = 60 * US;
	e.ack_accept_ns = 80 * MS;
	e.tee_per_hs_ns = 20 * MS;
	e.acc = (struct accept_evidence){
		.tee = 0.65, .tee_asleep = 0.86,
		.split = tee(0.61, 0.9, 0.08, 0.1, 0.2, 0.09),
		.runnable = 0.05, .running = 0.2, .asleep = 0.1, .unknown = 0,
	};
	return e;
}

/* decide - the cause for @e with the default options */
static enum verdict_cause decide(const struct evidence *e, struct verdict *v)
{
	struct verdict_opts o;

	verdict_default_opts(&o);
	verdict_decide(e, &o, v);
	return v->cause;
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(a) + fabs(b) + 1);
}

int main(void)
{
	struct evidence e;
	struct verdict v;

	/* the split: remote client, one NET_RX wait inside SYN/ACK -> ACK */
	e = base();
	decide(&e, &v);
	tap_ok(near(v.part_ns[PART_NETRX], 100 * US), "NET_RX part = SYN's + ACK's wait (%.0f)",
	       v.part_ns[PART_NETRX]);
	tap_ok(near(v.part_ns[PART_NETWORK], 450 * US), "round trip = SYN/ACK->ACK less the ACK's wait");
	tap_ok(near(v.total_ns, 950 * US), "the parts add up to the phases and the SYN's wait (%.0f)", v.total_ns);
	tap_ok(v.cause == CAUSE_NONE, "1 ms handshakes: no problem (%s)", verdict_key(v.cause));
	e.local_client = true;
	decide(&e, &v);
	tap_ok(near(v.part_ns[PART_NETRX], 150 * US) && near(v.part_ns[PART_NETWORK], 400 * US),
	       "a client on this host adds its own NET_RX wait to the part");
	e.netrx_wait_ns = 400 * US;
	decide(&e, &v);
	tap_ok(near(v.part_ns[PART_NETWORK], 0) && near(v.part_ns[PART_NETRX], 900 * US),
	       "the round trip never goes below 0: the wait is capped at SYN/ACK->ACK");

	/* the case before the fix: TEE calls blocked in shared-memory set-up */
	e = base();
	e.tee_per_hs_ns = 80 * MS;
	e.tee_blocked_share = 0.94;
	e.tee = tee(0.62, 0.97, 0.02, 0.2, 0.12, 0.06);
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING && v.top == PART_TEE,
	       "TEE time, most of it in set-up: tee-blocking (%s)", verdict_key(v.cause));
	tap_ok(has(v.title, "set-up, 62 % of the TEE time, mostly asleep (97 % of it)"),
	       "... the title gives set-up's share and that it is mostly asleep");
	tap_ok(has(v.why, "set-up 62 % (97 % of it asleep), waiting for a secure thread 20 %, the secure world 12 %, the driver 6 %"),
	       "... the why gives every share");
	tap_ok(v.fix && has(v.fix, "register the shared memory once"),
	       "... and the fix: register once");
	/* a real secure world: the same set-up, on a CPU (OP-TEE pins pages
	 * and registers them with an SMC): still set-up */
	e.tee = tee(0.53, 0, 0.98, 0, 0.40, 0.07);
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING &&
	       has(v.title, "set-up, 53 % of the TEE time, mostly on a CPU (98 % of it)"),
	       "set-up on a CPU is set-up too: tee-blocking, \"mostly on a CPU\" (%s)",
	       verdict_key(v.cause));
	/* "mostly": more than half, as printed */
	e.tee = tee(0.53, 0.505, 0.4, 0, 0.40, 0.07);
	decide(&e, &v);
	tap_ok(has(v.title, "mostly asleep (51 % of it)"), "50.5 %% asleep prints 51 %%: mostly asleep");
	e.tee = tee(0.53, 0.504, 0.45, 0, 0.40, 0.07);
	decide(&e, &v);
	tap_ok(has(v.title, "50 % of it asleep, 45 % on a CPU") && !strstr(v.title, "mostly"),
	       "50.4 %% asleep prints 50 %%: not \"mostly\", both shares");
	e.tee = tee(0.53, 0.3, 0.5, 0, 0.40, 0.07);
	decide(&e, &v);
	tap_ok(has(v.title, "30 % of it asleep, 50 % on a CPU"),
	       "50 %% on a CPU: not \"mostly\" either");

	/* set-up against the secure world's work, across their equality */
	e.tee = tee(0.41, 0.1, 0.9, 0.1, 0.40, 0.09);
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING,
	       "set-up 41 %%, secure world 40 %%: tee-blocking (%s)", verdict_key(v.cause));
	/* set-up named from 30 % of the TEE time, larger shares or not */
	e.tee = tee(0.30, 0.1, 0.9, 0.05, 0.55, 0.10);
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING,
	       "set-up 30 %%, secure world 55 %%: tee-blocking (%s)", verdict_key(v.cause));
	e.tee = tee(0.29, 0.1, 0.9, 0.05, 0.56, 0.10);
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK && v.top == PART_TEE,
	       "set-up 29 %%, secure world 56 %%: tee-work (%s)", verdict_key(v.cause));
	tap_ok(has(v.title, "the secure world's own work (the TA's), 56 % of it") &&
	       !strstr(v.title, "not per-call set-up"),
	       "... its title gives the share, and does not say \"not per-call set-up\" at 29 %%");
	tap_ok(v.fix && has(v.fix, "less work in the secure world"), "... its fix: less secure work");
	/* after the fix: as long, INVOKE work, set-up small */
	e.tee = tee(0.09, 0.1, 0.9, 0.1, 0.7, 0.11);
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK && has(v.title, ", not per-call set-up (9 %)"),
	       "set-up 9 %%: \"not per-call set-up\" (%s)", v.title);
	e.tee = tee(0.10, 0.1, 0.9, 0.1, 0.7, 0.10);
	decide(&e, &v);
	tap_ok(!strstr(v.title, "not per-call set-up"), "set-up 10 %%: no \"not per-call set-up\"");

	/*
	 * One-time set-up (memory registered as the threads start, before
	 * their first INVOKE) is no cause, however large: OP-TEE's hard-reg,
	 * 8 workers for 4 threads, 24 handshakes, their 8 registrations 35 %
	 */
	e.tee = tee(0, 0, 0, 0.05, 0.40, 0.20);
	e.tee.setup_once = 0.35;
	e.tee.work = 0.60;
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK &&
	       has(v.title, "the secure world's own work (the TA's), 40 % of it, not per-call set-up (0 %)") &&
	       has(v.why, "set-up 0 %, one-time set-up 35 %, waiting for a secure thread 5 %"),
	       "one-time set-up 35 %%: not the cause, and the why gives it apart (%s)",
	       verdict_key(v.cause));
	e.tee = tee(0.30, 0.1, 0.9, 0.05, 0.25, 0.05);
	e.tee.setup_once = 0.35;
	e.tee.work = 0.30;
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING &&
	       has(v.title, "per-call shared-memory set-up, 30 % of the TEE time"),
	       "per-call set-up 30 %% beside one-time 35 %%: per-call set-up (%s)",
	       verdict_key(v.cause));

	/* waiting for a secure thread, across its equality with set-up */
	e.tee = tee(0.25, 0.9, 0.1, 0.26, 0.25, 0.24);
	tap_ok(decide(&e, &v) == CAUSE_TEE_QUEUE &&
	       has(v.title, "wait for a free secure thread: 26 % of the TEE time"),
	       "queue 26 %%, set-up 25 %%: tee-queue (%s)", verdict_key(v.cause));
	tap_ok(v.fix && has(v.fix, "CFG_NUM_THREADS"), "... its fix: the secure side's threads");
	e.tee = tee(0.26, 0.9, 0.1, 0.25, 0.25, 0.24);
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING, "queue 25 %%, set-up 26 %%: tee-blocking (%s)",
	       verdict_key(v.cause));

	/* the normal world's driver, across its equality with the secure world */
	e.tee = tee(0.02, 0, 1, 0.05, 0.46, 0.47);
	tap_ok(decide(&e, &v) == CAUSE_TEE_DRIVER &&
	       has(v.title, "the normal world's driver work, 47 % of it, outside the secure world, not per-call set-up (2 %)"),
	       "driver 47 %%, secure world 46 %%: tee-driver (%s)", v.title);
	tap_ok(v.fix && has(v.fix, "perf record"), "... its fix: profile the driver");
	e.tee = tee(0.02, 0, 1, 0.05, 0.47, 0.46);
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK, "driver 46 %%, secure world 47 %%: tee-work (%s)",
	       verdict_key(v.cause));

	/* the secure world's entries not timed: its work and the driver's as one */
	e.tee = tee(0.2, 0.5, 0.5, 0.1, NAN, NAN);
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK &&
	       has(v.title, "the calls' own work, 70 % of it (the secure world's and the driver's, not told apart)") &&
	       has(v.why, "the calls' own work 70 %"),
	       "secure world not timed: its own work and the driver's together, tee-work (%s)",
	       v.title);
	tap_ok(v.fix && has(v.fix, "time the secure world's entries"),
	       "... its fix says to time the secure world first");
	e.tee = tee(0.61, 0.5, 0.5, 0.1, NAN, NAN);
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING, "... set-up larger: tee-blocking (%s)",
	       verdict_key(v.cause));

	/* NET_RX wait largest: which cause holds it back */
	e = base();
	e.netrx_wait_ns = 20 * MS;
	e.synack_ack_ns = 21 * MS;
	e.tee_oncpu_share = 0.3;
	e.r_tee_netrx = 0.7;
	e.ksoftirqd_share = 0.2;
	tap_ok(decide(&e, &v) == CAUSE_TEE_NETRX && v.top == PART_NETRX,
	       "NET_RX wait, TEE on-CPU and correlated, inline: tee-starves-netrx (%s)",
	       verdict_key(v.cause));
	e.r_tee_netrx = 0.1;
	e.tee_wait_share = 0.6;
	tap_ok(decide(&e, &v) == CAUSE_TEE_NETRX,
	       "... not correlated, but 60 %% of the wait measured inside TEE calls: tee-starves-netrx (%s)",
	       verdict_key(v.cause));
	e.ksoftirqd_share = 0.35;
	e.tee_oncpu_share = 0;
	tap_ok(decide(&e, &v) == CAUSE_TEE_NETRX,
	       "... the measured share decides, whatever the correlation or on-CPU share (%s)",
	       verdict_key(v.cause));
	e.tee_oncpu_share = 0.3;
	e.ksoftirqd_share = 0.2;
	e.tee_wait_share = 0.1;
	tap_ok(decide(&e, &v) == CAUSE_SOFTIRQ_BH,
	       "... not correlated with the TEE: softirq-bh-off (%s)", verdict_key(v.cause));
	e.r_tee_netrx = NAN;
	tap_ok(decide(&e, &v) == CAUSE_SOFTIRQ_BH,
	       "... correlation unknown: not blamed on the TEE (%s)", verdict_key(v.cause));
	e.r_tee_netrx = 0.7;
	e.tee_oncpu_share = 0.01;
	tap_ok(decide(&e, &v) == CAUSE_SOFTIRQ_BH,
	       "... TEE calls barely on a CPU: softirq-bh-off (%s)", verdict_key(v.cause));
	e.ksoftirqd_share = 0.9;
	tap_ok(decide(&e, &v) == CAUSE_SOFTIRQ_SCHED,
	       "... wait mostly ksoftirqd's: softirq-cpu-hog (%s)", verdict_key(v.cause));
	e.tee_oncpu_share = 0.3;
	tap_ok(decide(&e, &v) == CAUSE_SOFTIRQ_SCHED,
	       "... even with TEE calls on the CPUs (%s)", verdict_key(v.cause));

	/* the round trip, accept, the kernel */
	e = base();
	e.synack_ack_ns = 25 * MS;
	tap_ok(decide(&e, &v) == CAUSE_NETWORK && v.top == PART_NETWORK,
	       "a 25 ms SYN/ACK->ACK with a small wait: network (%s)", verdict_key(v.cause));
	e = base();
	e.ack_accept_ns = 40 * MS;
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT, "40 ms in the accept queue: slow-accept (%s)",
	       verdict_key(v.cause));
	e = base();
	e.syn_synack_ns = 30 * MS;
	tap_ok(decide(&e, &v) == CAUSE_KERNEL, "30 ms from SYN to SYN/ACK: kernel-syn (%s)",
	       verdict_key(v.cause));

	/* weak evidence */
	e = base();
	e.ack_accept_ns = 40 * MS;
	e.handshakes = 5;
	tap_ok(decide(&e, &v) == CAUSE_WEAK, "5 handshakes: weak-evidence (%s)",
	       verdict_key(v.cause));
	e = base();
	e.synack_ack_ns = 10 * MS;
	e.ack_accept_ns = 10 * MS;
	e.tee_per_hs_ns = 10 * MS;
	tap_ok(decide(&e, &v) == CAUSE_WEAK && v.part_ns[v.top] < 0.4 * v.total_ns,
	       "three equal parts: weak-evidence, not a guess (%s)", verdict_key(v.cause));
	tap_ok(v.top != v.second, "the top and the next part differ");
	e = base();
	e.netrx_wait_ns = NAN;
	e.syn_synack_ns = NAN;
	e.ack_accept_ns = 50 * MS;
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT && !isnan(v.total_ns),
	       "missing figures count as 0, not NAN (%s)", verdict_key(v.cause));

	/* each connection's own packets' waits */
	e = base();
	e.syn_wait_ns = 30 * US;
	e.ack_wait_ns = 70 * US;
	e.local_client = true;
	decide(&e, &v);
	tap_ok(near(v.part_ns[PART_NETRX], 100 * US) && near(v.part_ns[PART_NETWORK], 430 * US),
	       "own waits: NET_RX = SYN's + ACK's own, round trip the rest of SYN/ACK->ACK, "
	       "no mean added for a local client (%.0f, %.0f)",
	       v.part_ns[PART_NETRX], v.part_ns[PART_NETWORK]);
	e.ack_wait_ns = 900 * US;
	decide(&e, &v);
	tap_ok(near(v.part_ns[PART_NETWORK], 0) && near(v.part_ns[PART_NETRX], 530 * US),
	       "an ACK's own wait is capped at SYN/ACK->ACK");
	e = base();
	e.syn_wait_ns = 0;
	e.ack_wait_ns = 0;
	decide(&e, &v);
	tap_ok(near(v.part_ns[PART_NETRX], 0),
	       "measured waits of 0 are 0, not the mean per packet");

	/* the accept queue: what the accepting threads did meanwhile */
	e = queued();
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING && v.top == PART_ACCEPT &&
	       v.path == PATH_ACCEPT_QUEUE,
	       "accept queue largest, acceptors 65 %% in TEE calls, most of it set-up: "
	       "tee-blocking through the accept queue (%s, %s)", verdict_key(v.cause),
	       verdict_path_key(v.path));
	tap_ok(has(v.why, "the threads that accept them are in TEE calls 65 % of that time; of the TEE time: set-up 61 %"),
	       "... the why gives the acceptors' TEE share and its split");
	/* the case: OP-TEE, set-up on a CPU, 2 workers for 8 clients */
	e.acc.split = tee(0.53, 0, 0.97, 0, 0.41, 0.06);
	e.acc.tee = 0.76;
	e.acc.tee_asleep = 0;
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING && v.path == PATH_ACCEPT_QUEUE &&
	       has(v.title, "53 % of the TEE time, mostly on a CPU"),
	       "... set-up 53 %% and never asleep: still tee-blocking (%s)", v.title);
	e.acc.split = tee(0.02, 0.9, 0.1, 0.1, 0.6, 0.28);
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK && v.path == PATH_ACCEPT_QUEUE,
	       "... TEE calls without set-up (the fix at the same pool size): tee-work (%s)",
	       verdict_key(v.cause));
	e.acc.split = tee(0.02, 0.9, 0.1, 0.6, 0.3, 0.08);
	tap_ok(decide(&e, &v) == CAUSE_TEE_QUEUE && v.path == PATH_ACCEPT_QUEUE,
	       "... their calls waiting for a secure thread: tee-queue (%s)", verdict_key(v.cause));
	/* the acceptors' TEE share across its threshold, half */
	e = queued();
	e.acc.tee = 0.5;
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING, "acceptors 50 %% in TEE calls: a TEE cause (%s)",
	       verdict_key(v.cause));
	e.acc.tee = 0.49;
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT && has(v.why, "in TEE calls 49 % of that time"),
	       "acceptors 49 %% in TEE calls: slow-accept, and the why says how much (%s)",
	       verdict_key(v.cause));
	e = queued();
	e.acc = (struct accept_evidence){ .tee = 0.05, .tee_asleep = 0.5,
		.split = tee(0.5, 0.5, 0.5, 0, 0.3, 0.2), .runnable = 0.7,
		.running = 0.2, .asleep = 0.05 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT_CPU && v.path == PATH_ACCEPT_QUEUE &&
	       has(v.why, "wait for a CPU 70 % of that time"),
	       "acceptors waiting for a CPU: accept-cpu-starved (%s)", verdict_key(v.cause));
	e.acc = (struct accept_evidence){ .tee = 0, .tee_asleep = NAN,
		.split = NO_TEE, .runnable = 0.02, .running = 0.03, .asleep = 0.95 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT && v.path == PATH_DIRECT,
	       "acceptors asleep outside TEE calls (the application accepts late): "
	       "slow-accept (%s)", verdict_key(v.cause));
	e.acc = (struct accept_evidence){ .tee = 0.1, .split = NO_TEE, .runnable = 0.1,
		.running = 0.8 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT,
	       "acceptors running their own code: slow-accept (%s)", verdict_key(v.cause));
	/* a third of the acceptors' time before their first accept(): not known */
	e.acc = (struct accept_evidence){ .tee = 0, .tee_asleep = NAN, .split = NO_TEE,
		.runnable = 0.463, .running = 0.202, .asleep = 0.001, .unknown = 0.334 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT_CPU && v.path == PATH_ACCEPT_QUEUE &&
	       has(v.why, "46 % of that time (70 % of the time their state is known)"),
	       "acceptors waiting for a CPU 46 %% of the time, a third of it not known "
	       "(70 %% of the known): accept-cpu-starved (%s)", verdict_key(v.cause));
	e.acc.runnable = 0.30;
	e.acc.running = 0.365;
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT,
	       "... 30 %% waiting (45 %% of the known): slow-accept (%s)", verdict_key(v.cause));
	e.acc = (struct accept_evidence){ .tee = 0, .tee_asleep = NAN, .split = NO_TEE,
		.runnable = 0.3, .running = 0, .asleep = 0, .unknown = 0.7 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT,
	       "... 30 %% waiting, 70 %% not known: too little known to say, slow-accept (%s)",
	       verdict_key(v.cause));
	e = queued();
	e.acc = (struct accept_evidence){ NAN, NAN, NO_TEE, NAN, NAN, NAN, NAN };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT && !strcmp(v.why, "connections wait in the accept queue longest"),
	       "nothing known of the acceptors: slow-accept, not a guess (%s)",
	       verdict_key(v.cause));
	e = queued();
	e.ack_accept_ns = 1 * MS;
	e.tee_per_hs_ns = 80 * MS;
	e.tee_blocked_share = 0.9;
	e.tee = tee(0.6, 0.9, 0.1, 0.1, 0.2, 0.1);
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING && v.path == PATH_DIRECT &&
	       v.top == PART_TEE,
	       "as many acceptors as clients: the TEE part itself, directly (%s)",
	       verdict_path_key(v.path));

	/* every cause has a key, a name and, where it has one, a fix */
	{
		int c, named = 1, fixed = 1;

		for (c = 0; c < NR_CAUSES; c++) {
			named &= verdict_key(c)[0] != '?' && verdict_name(c)[0] != '?';
			fixed &= !verdict_fix(c) == (c == CAUSE_NONE || c == CAUSE_WEAK);
		}
		tap_ok(named, "every cause has a key and a name");
		tap_ok(fixed, "every cause but no-problem and weak-evidence has a fix");
	}
	return tap_done();
}
