// SPDX-License-Identifier: GPL-2.0
/*
 * test_verdict.c - unit tests for tools/verdict.c: every cause from
 * made-up evidence whose answer is known, the split of a handshake's time
 * into parts, and the edges (too few handshakes, below the target, no part
 * large enough, missing figures).
 */
#include <math.h>

#include "../../tools/lib/include/verdict.h"
#include "tap.h"

#define US	1e3
#define MS	1e6

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
		.acc = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN },
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
		.tee = 0.65, .tee_asleep = 0.86, .tee_setup = 0.61,
		.tee_queue = 0, .runnable = 0.05, .running = 0.2,
		.asleep = 0.1, .unknown = 0,
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
	e.tee_setup_share = 0.62;
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING && v.top == PART_TEE,
	       "TEE time, asleep, in set-up: tee-blocking (%s)", verdict_key(v.cause));
	/* after the fix: as long, but INVOKE work */
	e.tee_setup_share = 0.01;
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK, "TEE time without set-up: tee-work (%s)",
	       verdict_key(v.cause));
	e.tee_setup_share = 0.62;
	e.tee_blocked_share = 0.1;
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK, "TEE time on-CPU, not asleep: tee-work (%s)",
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
	       "accept queue largest, acceptors 65 %% in TEE calls, asleep, in set-up: "
	       "tee-blocking through the accept queue (%s, %s)", verdict_key(v.cause),
	       verdict_path_key(v.path));
	e.acc.tee_setup = 0.02;
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK && v.path == PATH_ACCEPT_QUEUE,
	       "... TEE calls without set-up (the fix at the same pool size): tee-work (%s)",
	       verdict_key(v.cause));
	e = queued();
	e.acc.tee_asleep = 0.2;
	tap_ok(decide(&e, &v) == CAUSE_TEE_WORK,
	       "... TEE calls mostly on a CPU: tee-work (%s)", verdict_key(v.cause));
	e = queued();
	e.acc = (struct accept_evidence){ .tee = 0.05, .tee_asleep = 0.5,
		.tee_setup = 0.5, .runnable = 0.7, .running = 0.2, .asleep = 0.05 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT_CPU && v.path == PATH_ACCEPT_QUEUE,
	       "acceptors waiting for a CPU: accept-cpu-starved (%s)", verdict_key(v.cause));
	e.acc = (struct accept_evidence){ .tee = 0, .tee_asleep = NAN,
		.tee_setup = NAN, .runnable = 0.02, .running = 0.03, .asleep = 0.95 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT && v.path == PATH_DIRECT,
	       "acceptors asleep outside TEE calls (the application accepts late): "
	       "slow-accept (%s)", verdict_key(v.cause));
	e.acc = (struct accept_evidence){ .tee = 0.1, .runnable = 0.1, .running = 0.8 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT,
	       "acceptors running their own code: slow-accept (%s)", verdict_key(v.cause));
	/* a third of the acceptors' time before their first accept(): not known */
	e.acc = (struct accept_evidence){ .tee = 0, .tee_asleep = NAN, .tee_setup = NAN,
		.runnable = 0.463, .running = 0.202, .asleep = 0.001, .unknown = 0.334 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT_CPU && v.path == PATH_ACCEPT_QUEUE,
	       "acceptors waiting for a CPU 46 %% of the time, a third of it not known "
	       "(70 %% of the known): accept-cpu-starved (%s)", verdict_key(v.cause));
	e.acc.runnable = 0.30;
	e.acc.running = 0.365;
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT,
	       "... 30 %% waiting (45 %% of the known): slow-accept (%s)", verdict_key(v.cause));
	e.acc = (struct accept_evidence){ .tee = 0, .tee_asleep = NAN, .tee_setup = NAN,
		.runnable = 0.3, .running = 0, .asleep = 0, .unknown = 0.7 };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT,
	       "... 30 %% waiting, 70 %% not known: too little known to say, slow-accept (%s)",
	       verdict_key(v.cause));
	e = queued();
	e.acc = (struct accept_evidence){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
	tap_ok(decide(&e, &v) == CAUSE_ACCEPT,
	       "nothing known of the acceptors: slow-accept, not a guess (%s)",
	       verdict_key(v.cause));
	e = queued();
	e.ack_accept_ns = 1 * MS;
	e.tee_per_hs_ns = 80 * MS;
	e.tee_blocked_share = 0.9;
	e.tee_setup_share = 0.6;
	tap_ok(decide(&e, &v) == CAUSE_TEE_BLOCKING && v.path == PATH_DIRECT &&
	       v.top == PART_TEE,
	       "as many acceptors as clients: the TEE part itself, directly (%s)",
	       verdict_path_key(v.path));

	/* every cause has a key and a title */
	{
		int c, named = 1;

		for (c = 0; c < NR_CAUSES; c++)
			named &= verdict_key(c)[0] != '?' && verdict_title(c)[0] != '?';
		tap_ok(named, "every cause has a key and a title");
	}
	return tap_done();
}
