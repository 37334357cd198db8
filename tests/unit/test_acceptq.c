// SPDX-License-Identifier: GPL-2.0
/*
 * test_acceptq.c - unit tests for tools/acceptq.c: the split of the
 * accept-queue waits by what the accepting threads did, on made-up event
 * streams whose answer is worked out by hand.
 */
#include <math.h>
#include <string.h>

#include "../../tools/lib/include/acceptq.h"
#include "tap.h"

#define MS	1000000ULL

static int near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(a) + fabs(b) + 1);
}

/* server handshake accepted by @tid on @port at @ts after @wait in the queue */
static struct hs_event hs(int tid, int port, unsigned long long ts,
			  unsigned long long wait)
{
	return (struct hs_event){ .ts = ts, .tid = tid, .port = port,
				  .ack_accept_ns = wait };
}

/* part - a part's share of the acceptors' time */
static double part(const struct acceptq *q, enum acceptq_part p)
{
	return q->part_ns[p] / q->thread_ns;
}

int main(void)
{
	struct session_events ev = { 0 };
	struct acceptq q;
	double sum;
	int p;

	/*
	 * One thread, tid 10, accepts on port 7000. A connection waits from
	 * 100 to 200 ms; the thread is in a set-up TEE call from 90 to 150
	 * ms (asleep from 100 to 140, running before and after), then runs
	 * its own code until 180, then waits for a CPU until 200. During the
	 * wait from 250 to 300 ms (tid 99's connection, on the same port) it
	 * is in an INVOKE from 260 to 280, running: 5 ms of it waiting for a
	 * secure thread, 10 ms in the secure world.
	 */
	struct hs_event h[] = {
		hs(10, 7000, 200 * MS, 100 * MS),
		hs(10, 7000, 260 * MS, 0),		/* no wait: nothing to add */
		hs(99, 7000, 300 * MS, 50 * MS),	/* one accept: not an acceptor */
		hs(10, 7001, 400 * MS, 10 * MS),	/* once, but it has states */
	};
	struct tee_call c[] = {
		{ .end_ns = 150 * MS, .dur_ns = 60 * MS, .offcpu_ns = 40 * MS,
		  .queue_wait_ns = 30 * MS, .tid = 10, .setup = true },
		{ .end_ns = 120 * MS, .dur_ns = 20 * MS, .tid = 11 },	/* another thread */
		{ .end_ns = 280 * MS, .dur_ns = 20 * MS, .queue_wait_ns = 5 * MS,
		  .secure_ns = 10 * MS, .tid = 10 },
	};
	struct acc_event s[] = {
		{ .ts = 50 * MS, .tid = 10, .state = ACC_RUNNING },
		{ .ts = 100 * MS, .tid = 10, .state = ACC_ASLEEP },
		{ .ts = 140 * MS, .tid = 10, .state = ACC_RUNNING },
		{ .ts = 180 * MS, .tid = 10, .state = ACC_RUNNABLE },
		{ .ts = 200 * MS, .tid = 10, .state = ACC_RUNNING },
	};

	ev.hs = h;
	ev.nhs = 4;
	ev.tee = c;
	ev.ntee = 3;
	ev.acc = s;
	ev.nacc = 5;
	ev.end_ns = 500 * MS;
	acceptq_measure(&ev, &q);
	tap_ok(q.acceptors == 1 && q.handshakes == 3,
	       "one accepting thread (two accepts, or one and states), on two ports; "
	       "tid 99's one accept is the port's waits, not a thread's "
	       "(%.0f threads, %.0f handshakes)", q.acceptors, q.handshakes);
	tap_ok(near(q.thread_ns, 160 * MS) && near(q.wait_ns, 160 * MS),
	       "the waits add up: 100 + 50 + 10 ms (%.0f)", q.thread_ns);
	sum = 0;
	for (p = 0; p < NR_AQ_PARTS; p++)
		sum += q.part_ns[p];
	tap_ok(near(sum, q.thread_ns), "the parts add up to the thread time");
	/* 100..200: asleep in TEE 100-140, on CPU in TEE 140-150, running
	 * 150-180, runnable 180-200; 250..300 (the other wait of port 7000):
	 * running, in the INVOKE 260-280; 390..400 (port 7001): running */
	tap_ok(near(q.part_ns[AQ_TEE_ASLEEP], 40 * MS), "asleep in the TEE call: 40 ms (%.3g)",
	       q.part_ns[AQ_TEE_ASLEEP] / MS);
	tap_ok(near(q.part_ns[AQ_TEE_ONCPU], 30 * MS), "on a CPU in TEE calls: 10 + 20 ms");
	tap_ok(near(q.part_ns[AQ_RUNNING], 70 * MS), "running its own code: 30 + 30 + 10 ms (%.3g)",
	       q.part_ns[AQ_RUNNING] / MS);
	tap_ok(near(q.part_ns[AQ_RUNNABLE], 20 * MS), "waiting for a CPU: 20 ms");
	tap_ok(near(q.tee_setup_ns, 50 * MS), "the first call is a set-up: its 50 ms in the wait");
	tap_ok(near(q.tee_setup_asleep_ns, 40 * MS) && near(q.tee_setup_oncpu_ns, 10 * MS),
	       "... 40 ms of it asleep, 10 ms on a CPU (%.3g, %.3g)",
	       q.tee_setup_asleep_ns / MS, q.tee_setup_oncpu_ns / MS);
	tap_ok(near(q.tee_queue_ns, 5 * MS),
	       "waiting for a secure thread: the INVOKE's 5 ms, not the set-up's own wait (%.3g)",
	       q.tee_queue_ns / MS);
	tap_ok(near(q.tee_secure_ns, 10 * MS),
	       "in the secure world: the INVOKE's 10 ms (%.3g)", q.tee_secure_ns / MS);
	tap_ok(near(part(&q, AQ_RUNNING), 70.0 / 160), "shares of the thread time");
	tap_ok(q.states, "the file has states");

	/* the same without states: the call's own shares, the rest unknown;
	 * tid 10's one accept on 7001 no longer makes it that port's */
	ev.nacc = 0;
	acceptq_measure(&ev, &q);
	tap_ok(near(q.part_ns[AQ_TEE_ASLEEP], 50 * MS * 40 / 60) &&
	       near(q.part_ns[AQ_TEE_ONCPU], 50 * MS * 20 / 60 + 20 * MS),
	       "no states: the calls' time split by their own off-CPU shares");
	tap_ok(near(q.tee_setup_asleep_ns, 50 * MS * 40 / 60) &&
	       near(q.tee_setup_oncpu_ns, 50 * MS * 20 / 60),
	       "... the set-up's too");
	tap_ok(near(q.part_ns[AQ_UNKNOWN], 80 * MS) && !q.states && q.handshakes == 2,
	       "... and the time outside them unknown: 50 + 30 ms (%.3g)",
	       q.part_ns[AQ_UNKNOWN] / MS);

	/* the set-up made once (before the thread's first INVOKE): apart */
	ev.nacc = 5;
	c[0].setup_once = true;
	acceptq_measure(&ev, &q);
	tap_ok(near(q.tee_setup_once_ns, 50 * MS) && q.tee_setup_ns == 0 &&
	       q.tee_setup_asleep_ns == 0 && near(q.tee_queue_ns, 5 * MS),
	       "a one-time set-up: its 50 ms apart, none per call, its wait still not the queue's (%.3g, %.3g)",
	       q.tee_setup_once_ns / MS, q.tee_setup_ns / MS);

	/* no server handshake, no acceptor: nothing, and no division by 0 */
	memset(&ev, 0, sizeof(ev));
	acceptq_measure(&ev, &q);
	tap_ok(q.thread_ns == 0 && q.acceptors == 0, "an empty session: nothing");
	return tap_done();
}
