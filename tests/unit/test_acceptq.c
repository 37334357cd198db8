// SPDX-License-Identifier: GPL-2.0
/*
 * test_acceptq.c - unit tests for tools/acceptq.c: the split of the
 * accept-queue waits by what the accepting threads did, on made-up event
 * streams whose answer is worked out by hand.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
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

/*
 * A made-up busy session, for a check against the plain sum: NT threads
 * (tids far apart and out of order, to be sorted by thread), each from 0
 * to END in TEE calls and out of them, changing state now and then; their
 * events in the file's (time) order, all threads' mixed. The server's
 * handshakes come on two ports, four threads accept on each (two on
 * both), their waits overlap and are of every length, so that look-ups go
 * back and forth over many checkpoints.
 */
#define NT	6
#define END	(2000 * MS)
#define US	1000ULL
#define MAX_EV	20000
#define NHS	300

static const int tids[NT] = { 5, 3000042, 12, 70001, 44, 9 };
static const int port_of[2] = { 80, 443 };

static struct tee_call bc[MAX_EV];
static struct acc_event bs[MAX_EV];
static struct hs_event bh[NHS];
static size_t nbc, nbs;
static unsigned int seed = 1;

static unsigned int rnd(unsigned int n)
{
	seed = seed * 1103515245 + 12345;
	return (seed >> 16) % n;
}

static int cmp_call_end(const void *a, const void *b)
{
	const struct tee_call *x = a, *y = b;

	return (x->end_ns > y->end_ns) - (x->end_ns < y->end_ns);
}

static int cmp_state_ts(const void *a, const void *b)
{
	const struct acc_event *x = a, *y = b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

static int cmp_hs_ts(const void *a, const void *b)
{
	const struct hs_event *x = a, *y = b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

/* busy_state - a state change of thread @tid at @ts */
static void busy_state(int tid, unsigned long long ts)
{
	bs[nbs++] = (struct acc_event){ .ts = ts, .tid = tid,
					.state = (enum acc_state)rnd(3) };
}

/* busy_session - the session above, into @ev */
static void busy_session(struct session_events *ev)
{
	size_t i, n = 0;
	int j;

	nbc = nbs = 0;
	for (j = 0; j < NT; j++) {
		unsigned long long t = 0;

		busy_state(tids[j], 0);
		for (;;) {
			unsigned long long gap = rnd(5000) * US, dur;

			if (rnd(2))
				busy_state(tids[j], t + gap / 2);
			dur = (1 + rnd(8000)) * US;
			if (t + gap + dur > END - MS)
				break;
			t += gap;
			if (rnd(2))
				busy_state(tids[j], t + dur / 3);
			if (rnd(2))
				busy_state(tids[j], t + dur / 2);
			bc[nbc++] = (struct tee_call){
				.end_ns = t + dur, .dur_ns = dur, .tid = tids[j],
				.queue_wait_ns = rnd(2) ? dur / 4 : 0,
				.secure_ns = rnd(2) ? dur / 3 : 0 };
			t += dur;
		}
	}
	qsort(bc, nbc, sizeof(*bc), cmp_call_end);
	qsort(bs, nbs, sizeof(*bs), cmp_state_ts);
	/* port p: threads 2p .. 2p + 3; each accepts two or more */
	for (i = 0; i < NHS; i++) {
		int p = i % 2;
		unsigned long long ts = (100 + rnd(1800)) * MS + rnd(1000) * US;

		bh[n++] = hs(tids[2 * p + (i / 2) % 4], port_of[p], ts,
			     i % 7 == 0 ? 0 : rnd(60000) * US);
	}
	qsort(bh, n, sizeof(*bh), cmp_hs_ts);
	memset(ev, 0, sizeof(*ev));
	ev->tee = bc;
	ev->ntee = nbc;
	ev->acc = bs;
	ev->nacc = nbs;
	ev->hs = bh;
	ev->nhs = n;
	ev->end_ns = END;
}

/* busy_at - thread @tid's call holding @t (NULL: none), its state at @t */
static const struct tee_call *busy_at(int tid, unsigned long long t,
				      enum acc_state *s)
{
	size_t i;

	*s = ACC_UNKNOWN;
	for (i = 0; i < nbs; i++)
		if (bs[i].tid == tid && bs[i].ts <= t)
			*s = bs[i].state;
	for (i = 0; i < nbc; i++)
		if (bc[i].tid == tid && bc[i].end_ns - bc[i].dur_ns <= t &&
		    t < bc[i].end_ns)
			return &bc[i];
	return NULL;
}

/*
 * busy_add - thread @tid's time from @a to @b, part by part (@part), and
 * its calls' waits for a secure thread and time in the secure world, the
 * plain way: cut at each of its events inside, each piece by the call and
 * state at its start
 */
static void busy_add(int tid, unsigned long long a, unsigned long long b,
		     double part[NR_AQ_PARTS], double *queue, double *secure)
{
	unsigned long long u = a;

	while (u < b) {
		unsigned long long v = b;
		const struct tee_call *c;
		enum acc_state s;
		size_t i;

		for (i = 0; i < nbs; i++)
			if (bs[i].tid == tid && bs[i].ts > u && bs[i].ts < v)
				v = bs[i].ts;
		for (i = 0; i < nbc; i++) {
			unsigned long long st = bc[i].end_ns - bc[i].dur_ns;

			if (bc[i].tid != tid)
				continue;
			if (st > u && st < v)
				v = st;
			if (bc[i].end_ns > u && bc[i].end_ns < v)
				v = bc[i].end_ns;
		}
		c = busy_at(tid, u, &s);
		if (c) {
			double q = fmin((double)c->queue_wait_ns / c->dur_ns, 1);

			part[s == ACC_RUNNING ? AQ_TEE_ONCPU : s == ACC_RUNNABLE ?
			     AQ_TEE_RUNNABLE : AQ_TEE_ASLEEP] += v - u;
			*queue += q * (v - u);
			*secure += fmin((double)c->secure_ns / c->dur_ns, 1 - q) *
				   (v - u);
		} else {
			part[s == ACC_RUNNING ? AQ_RUNNING : s == ACC_RUNNABLE ?
			     AQ_RUNNABLE : AQ_ASLEEP] += v - u;
		}
		u = v;
	}
}

/* busy_check - acceptq_measure() on the busy session, against busy_add() */
static void busy_check(void)
{
	double part[NR_AQ_PARTS] = { 0 }, queue = 0, secure = 0, thread = 0;
	struct session_events ev;
	struct acceptq q;
	bool same = true;
	size_t i;
	int k, p;

	busy_session(&ev);
	acceptq_measure(&ev, &q);
	for (i = 0; i < ev.nhs; i++) {
		const struct hs_event *h = &ev.hs[i];

		if (!h->ack_accept_ns)
			continue;
		p = h->port == port_of[1];
		for (k = 2 * p; k < 2 * p + 4; k++) {
			busy_add(tids[k], h->ts - h->ack_accept_ns, h->ts, part,
				 &queue, &secure);
			thread += h->ack_accept_ns;
		}
	}
	for (k = 0; k < NR_AQ_PARTS; k++)
		same = same && near(q.part_ns[k], part[k]);
	tap_ok(nbc > 500 && nbs > 1000 && q.acceptors == NT &&
	       near(q.thread_ns, thread),
	       "a busy session: %zu calls, %zu states, %g acceptors, their time",
	       nbc, nbs, q.acceptors);
	tap_ok(same,
	       "... its parts as the plain sum's, wait by wait and thread (asleep in TEE calls %.6g ms, %.6g ms)",
	       q.part_ns[AQ_TEE_ASLEEP] / MS, part[AQ_TEE_ASLEEP] / MS);
	tap_ok(near(q.tee_queue_ns, queue) && near(q.tee_secure_ns, secure),
	       "... and the waits for a secure thread and the secure world's time (%.6g, %.6g ms)",
	       q.tee_queue_ns / MS, q.tee_secure_ns / MS);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * busy_stream - the busy session's events one by one in time order (the
 * calls at their ends) through acceptq_stream: the same doubles as
 * acceptq_measure() over them all
 */
static void busy_stream(void)
{
	unsigned long long max_call = 0, max_wait = 0;
	int ports[2 * 4], ptids[2 * 4];
	struct session_events ev;
	struct acceptq_stream *st;
	struct acceptq q, sq;
	size_t i, c = 0, a = 0, h = 0;
	bool ok;
	int p, k;

	busy_session(&ev);
	acceptq_measure(&ev, &q);
	for (p = 0; p < 2; p++) {
		for (k = 0; k < 4; k++) {
			ports[4 * p + k] = port_of[p];
			ptids[4 * p + k] = tids[2 * p + k];
		}
		qsort(ptids + 4 * p, 4, sizeof(int), cmp_int);
	}
	for (i = 0; i < ev.ntee; i++)
		if (ev.tee[i].dur_ns > max_call)
			max_call = ev.tee[i].dur_ns;
	for (i = 0; i < ev.nhs; i++)
		if (ev.hs[i].ack_accept_ns > max_wait)
			max_wait = ev.hs[i].ack_accept_ns;
	st = acceptq_stream_new(ports, ptids, 8, max_call, max_wait, ev.end_ns);
	while (c < ev.ntee || a < ev.nacc || h < ev.nhs) {
		unsigned long long tc = c < ev.ntee ? ev.tee[c].end_ns : ~0ULL;
		unsigned long long ta = a < ev.nacc ? ev.acc[a].ts : ~0ULL;
		unsigned long long th = h < ev.nhs ? ev.hs[h].ts : ~0ULL;

		if (tc <= ta && tc <= th)
			acceptq_stream_tee(st, &ev.tee[c++]);
		else if (ta <= th)
			acceptq_stream_acc(st, &ev.acc[a++]);
		else
			acceptq_stream_hs(st, &ev.hs[h++]);
	}
	ok = acceptq_stream_finish(st, &sq);
	tap_ok(ok && !memcmp(&q, &sq, offsetof(struct acceptq, states)) &&
	       q.states == sq.states,
	       "the busy session streamed: the same doubles (asleep in TEE calls %.17g, %.17g ms)",
	       q.part_ns[AQ_TEE_ASLEEP] / MS, sq.part_ns[AQ_TEE_ASLEEP] / MS);
	/*
	 * a thread's events in 8 ms (the longest call) and 60 ms (the
	 * longest wait): some 5 % of its 2 s, a boundary every 0.7 ms
	 */
	tap_ok(acceptq_stream_most(st) < (nbc + nbs) / NT / 5,
	       "... holding at most %zu boundaries, calls and states of a thread or waits, of %zu a thread",
	       acceptq_stream_most(st), (nbc + nbs) / NT);
	acceptq_stream_free(st);

	/* a state that comes after its time has passed: said, not measured */
	st = acceptq_stream_new(ports, ptids, 8, max_call, max_wait, ev.end_ns);
	acceptq_stream_acc(st, &ev.acc[ev.nacc - 1]);
	acceptq_stream_acc(st, &ev.acc[0]);
	tap_ok(!acceptq_stream_finish(st, &sq),
	       "events out of time order: the stream says so");
	acceptq_stream_free(st);
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

	busy_check();
	busy_stream();
	return tap_done();
}
