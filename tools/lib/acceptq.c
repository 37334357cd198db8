// SPDX-License-Identifier: GPL-2.0
/*
 * acceptq.c - what the accepting threads did while connections waited in
 * the accept queue (see acceptq.h).
 *
 * Each accepting thread's time is cut into segments at its TEE calls'
 * starts and ends and at its state changes; each segment falls in one part
 * (acceptq_part). Running sums over the segments answer "how much of each
 * part between a and b" with two binary searches, for every wait and every
 * thread that accepts on the wait's port.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "acceptq.h"
#include "utils.h"

static const char *const part_names[NR_AQ_PARTS] = {
	[AQ_TEE_ONCPU] = "on a CPU",
	[AQ_TEE_RUNNABLE] = "waiting for a CPU",
	[AQ_TEE_ASLEEP] = "asleep",
	[AQ_RUNNING] = "running their own code",
	[AQ_RUNNABLE] = "waiting for a CPU",
	[AQ_ASLEEP] = "asleep, waiting for work",
	[AQ_UNKNOWN] = "not known (no states)",
};

static const char *const part_keys[NR_AQ_PARTS] = {
	[AQ_TEE_ONCPU] = "tee_oncpu",
	[AQ_TEE_RUNNABLE] = "tee_runnable",
	[AQ_TEE_ASLEEP] = "tee_asleep",
	[AQ_RUNNING] = "running",
	[AQ_RUNNABLE] = "runnable",
	[AQ_ASLEEP] = "asleep",
	[AQ_UNKNOWN] = "unknown",
};

const char *acceptq_part_name(enum acceptq_part p)
{
	return p < NR_AQ_PARTS ? part_names[p] : "?";
}

const char *acceptq_part_key(enum acceptq_part p)
{
	return p < NR_AQ_PARTS ? part_keys[p] : "?";
}

/* The extra sums kept beside the parts (acceptq's tee_*_ns) */
enum {
	SUM_SETUP = NR_AQ_PARTS, SUM_SETUP_ASLEEP, SUM_SETUP_ONCPU, SUM_ONCE,
	SUM_QUEUE, SUM_SECURE, NR_SUMS
};

/*
 * One thread's time line: segment i is [t[i], t[i + 1]), in TEE call
 * seg[i].call (an index in the session's calls; -1: none) with scheduler
 * state seg[i].state. The sums from t[0] to t[i] (each segment's rates
 * times its length, added in order) are kept only at every CHECKPOINT-th
 * boundary, and a look-up adds the segments from the one before: the same
 * additions in the same order, so the same doubles as keeping them all
 * (216 bytes a boundary; this way 16, and 104 a CHECKPOINT).
 */
#define CHECKPOINT	16

struct segment {
	int call;
	enum acc_state state;
};

/*
 * Where a look-up left the sums: at boundary @at, the sums from t[0] to
 * t[at], and @hint, where its search ended. A wait looks a time line up
 * twice, at its start and at its end; each of the two has its own cursor,
 * and as a port's waits come in time order each moves on by a few
 * segments, rather than one cursor going back and forth between them (back
 * to a checkpoint, and up to CHECKPOINT - 1 segments added again, twice a
 * wait and thread). A cursor keeps the rates of the segment it last
 * looked into, which the next look-up often falls in again.
 */
struct cursor {
	size_t at, hint;
	double sum[NR_SUMS];
	size_t rated;			/* the segment of rate[], + 1; 0: none */
	double rate[NR_SUMS];
};

enum { CUR_FROM, CUR_TO, NR_CURSORS };

struct timeline {
	int tid;
	size_t n;			/* boundaries */
	unsigned long long *t;
	struct segment *seg;		/* [n] */
	double (*cp)[NR_SUMS];		/* [n / CHECKPOINT + 1]: the sums at k * CHECKPOINT */
	size_t known;			/* the farthest sums added up to */
	struct cursor cur[NR_CURSORS];
};

/* A port and one thread that accepts on it */
struct acceptor {
	int port, tid;
	size_t handshakes;
};

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return (x > y) - (x < y);
}

static int cmp_acceptor(const void *a, const void *b)
{
	const struct acceptor *x = a, *y = b;

	if (x->port != y->port)
		return (x->port > y->port) - (x->port < y->port);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* call_start - when TEE call @c began */
static unsigned long long call_start(const struct tee_call *c)
{
	return c->end_ns > c->dur_ns ? c->end_ns - c->dur_ns : 0;
}

/*
 * segment_rates - how fast each sum grows in a segment in TEE call @c
 * (NULL: none) with scheduler state @s
 */
static void segment_rates(const struct tee_call *c, enum acc_state s,
			  double rate[NR_SUMS])
{
	double d, off, runq;

	memset(rate, 0, NR_SUMS * sizeof(*rate));
	if (!c) {
		rate[s == ACC_RUNNING ? AQ_RUNNING : s == ACC_RUNNABLE ? AQ_RUNNABLE :
		     s == ACC_ASLEEP ? AQ_ASLEEP : AQ_UNKNOWN] = 1;
		return;
	}
	d = c->dur_ns ? (double)c->dur_ns : 1;
	switch (s) {
	case ACC_RUNNING:
		rate[AQ_TEE_ONCPU] = 1;
		break;
	case ACC_RUNNABLE:
		rate[AQ_TEE_RUNNABLE] = 1;
		break;
	case ACC_ASLEEP:
		rate[AQ_TEE_ASLEEP] = 1;
		break;
	default:
		/* No state known: the call's own shares spread over it. */
		off = fmin(c->offcpu_ns / d, 1);
		runq = fmin(c->runq_ns / d, 1 - off);
		rate[AQ_TEE_ASLEEP] = off;
		rate[AQ_TEE_RUNNABLE] = runq;
		rate[AQ_TEE_ONCPU] = 1 - off - runq;
		break;
	}
	/*
	 * A set-up call is set-up whole, per call or one-time (its waits and
	 * secure entries are what set-up costs); the others' waits and secure
	 * time apart.
	 */
	if (c->setup && c->setup_once) {
		rate[SUM_ONCE] = 1;
	} else if (c->setup) {
		rate[SUM_SETUP] = 1;
		rate[SUM_SETUP_ASLEEP] = rate[AQ_TEE_ASLEEP];
		rate[SUM_SETUP_ONCPU] = rate[AQ_TEE_ONCPU];
	} else {
		rate[SUM_QUEUE] = fmin(c->queue_wait_ns / d, 1);
		rate[SUM_SECURE] = fmin(c->secure_ns / d, 1 - rate[SUM_QUEUE]);
	}
}

/* cmp_call_start - TEE calls by start time */
static int cmp_call_start(const void *a, const void *b)
{
	unsigned long long x = call_start(*(const struct tee_call *const *)a);
	unsigned long long y = call_start(*(const struct tee_call *const *)b);

	return (x > y) - (x < y);
}

static int cmp_acc_ts(const void *a, const void *b)
{
	unsigned long long x = (*(const struct acc_event *const *)a)->ts;
	unsigned long long y = (*(const struct acc_event *const *)b)->ts;

	return (x > y) - (x < y);
}

/*
 * The events of each thread, found without a scan of them all per thread:
 * the calls' and the states' indices sorted by thread, then by their
 * place in the file (so a thread's are in the file's order, as a scan
 * finds them)
 */
struct by_thread {
	int tid;
	unsigned int i;		/* 8 bytes an event, not 16 */
};

struct thread_index {
	struct by_thread *tee, *acc;
	size_t ntee, nacc;
};

/*
 * A thread of sort_by_thread()'s table: its entries counted, then where
 * the next of its run goes
 */
struct tid_slot {
	int tid;
	bool used;
	size_t at;
};

/* tid_slot_of - @tid's slot in @tab of @mask + 1, taken if new (@used) */
static struct tid_slot *tid_slot_of(struct tid_slot *tab, size_t mask,
				    int tid, size_t *used)
{
	size_t h = ((unsigned int)tid * 2654435761u) & mask;

	while (tab[h].used && tab[h].tid != tid)
		h = (h + 1) & mask;
	if (!tab[h].used) {
		tab[h].used = true;
		tab[h].tid = tid;
		(*used)++;
	}
	return &tab[h];
}

static int cmp_slot_tid(const void *a, const void *b)
{
	const struct tid_slot *x = *(const struct tid_slot *const *)a;
	const struct tid_slot *y = *(const struct tid_slot *const *)b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

/*
 * sort_by_thread - @v[@n], in the file's order, sorted by thread and kept
 * in the file's order within each: what a sort by (tid, i) gives, by
 * counting each thread's entries (a table of the threads, a few thousand
 * at most) rather than comparing them (n log n, a tenth of analyze's time)
 */
static void sort_by_thread(struct by_thread *v, size_t n)
{
	size_t size = 1024, used = 0, i, k, at = 0;
	struct tid_slot *tab = xzalloc(size * sizeof(*tab)), **order;
	struct by_thread *out;

	for (i = 0; i < n; i++) {
		if (2 * (used + 1) > size) {
			struct tid_slot *old = tab;
			size_t old_size = size, j, u = 0;

			size *= 2;
			tab = xzalloc(size * sizeof(*tab));
			for (j = 0; j < old_size; j++)
				if (old[j].used)
					tid_slot_of(tab, size - 1, old[j].tid,
						    &u)->at = old[j].at;
			free(old);
		}
		tid_slot_of(tab, size - 1, v[i].tid, &used)->at++;
	}
	order = xzalloc((used + 1) * sizeof(*order));
	for (i = 0, k = 0; i < size; i++)
		if (tab[i].used)
			order[k++] = &tab[i];
	qsort(order, used, sizeof(*order), cmp_slot_tid);
	for (k = 0; k < used; k++) {
		size_t count = order[k]->at;

		order[k]->at = at;
		at += count;
	}
	out = xzalloc((n + 1) * sizeof(*out));
	for (i = 0; i < n; i++)
		out[tid_slot_of(tab, size - 1, v[i].tid, &used)->at++] = v[i];
	memcpy(v, out, n * sizeof(*v));
	free(out);
	free(order);
	free(tab);
}

/* thread_index_build - @ev's calls and states by thread */
static void thread_index_build(const struct session_events *ev,
			       struct thread_index *ix)
{
	size_t i;

	if (ev->ntee > UINT_MAX || ev->nacc > UINT_MAX)
		fatal("more than %u events of a kind\n", UINT_MAX);
	ix->ntee = ev->ntee;
	ix->nacc = ev->nacc;
	ix->tee = xzalloc((ev->ntee + 1) * sizeof(*ix->tee));
	ix->acc = xzalloc((ev->nacc + 1) * sizeof(*ix->acc));
	for (i = 0; i < ev->ntee; i++)
		ix->tee[i] = (struct by_thread){ .tid = ev->tee[i].tid,
						 .i = (unsigned int)i };
	for (i = 0; i < ev->nacc; i++)
		ix->acc[i] = (struct by_thread){ .tid = ev->acc[i].tid,
						 .i = (unsigned int)i };
	sort_by_thread(ix->tee, ev->ntee);
	sort_by_thread(ix->acc, ev->nacc);
}

/* thread_run - where thread @tid's entries of @v[@n] start; their count */
static size_t thread_run(const struct by_thread *v, size_t n, int tid,
			 size_t *first)
{
	size_t lo = 0, hi = n, end;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (v[mid].tid < tid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < n && v[end].tid == tid; end++)
		;
	*first = lo;
	return end - lo;
}

/* segment_rates_of - the rates of segment @i of @tl */
static void segment_rates_of(const struct session_events *ev,
			     const struct timeline *tl, size_t i,
			     double rate[NR_SUMS])
{
	const struct segment *g = &tl->seg[i];

	segment_rates(g->call >= 0 ? &ev->tee[g->call] : NULL, g->state, rate);
}

/*
 * timeline_sum_to - @tl's sums from t[0] to t[@i] into @c's, added on
 * from @c's last ones where @i is ahead of them, else from the checkpoint
 * before @i; the checkpoints passed are kept
 */
static void timeline_sum_to(const struct session_events *ev,
			    struct timeline *tl, struct cursor *c, size_t i)
{
	double rate[NR_SUMS], len;
	int j;

	/* a checkpoint is known once the sums were added up past it */
	if ((c->at > i || i - c->at > i % CHECKPOINT) &&
	    i - i % CHECKPOINT <= tl->known) {
		c->at = i - i % CHECKPOINT;
		memcpy(c->sum, tl->cp[c->at / CHECKPOINT], sizeof(c->sum));
	}
	while (c->at < i) {
		segment_rates_of(ev, tl, c->at, rate);
		len = (double)(tl->t[c->at + 1] - tl->t[c->at]);
		for (j = 0; j < NR_SUMS; j++)
			c->sum[j] = c->sum[j] + rate[j] * len;
		if (++c->at % CHECKPOINT == 0)
			memcpy(tl->cp[c->at / CHECKPOINT], c->sum, sizeof(c->sum));
	}
	if (c->at > tl->known)
		tl->known = c->at;
}

/* timeline_build - thread @tid's segments, from @ev's calls and states */
static void timeline_build(const struct session_events *ev,
			   const struct thread_index *ix, int tid,
			   struct timeline *tl)
{
	const struct tee_call **calls;
	const struct acc_event **states;
	size_t nc, ns, i, j, ci = 0, si = 0, k, fc, fs;
	enum acc_state s = ACC_UNKNOWN;
	const struct tee_call *in = NULL;
	unsigned long long end = ev->end_ns;

	nc = thread_run(ix->tee, ix->ntee, tid, &fc);
	ns = thread_run(ix->acc, ix->nacc, tid, &fs);
	calls = xzalloc((nc + 1) * sizeof(*calls));
	states = xzalloc((ns + 1) * sizeof(*states));
	for (i = 0; i < nc; i++)
		calls[i] = &ev->tee[ix->tee[fc + i].i];
	for (i = 0; i < ns; i++)
		states[i] = &ev->acc[ix->acc[fs + i].i];
	/* in the file's order (by their ends) they are by start too, mostly */
	for (i = 1; i < nc && cmp_call_start(&calls[i - 1], &calls[i]) < 0; i++)
		;
	if (i < nc)
		qsort(calls, nc, sizeof(*calls), cmp_call_start);
	/* the states come in time order from the file: sort only if not */
	for (i = 1; i < ns && cmp_acc_ts(&states[i - 1], &states[i]) <= 0; i++)
		;
	if (i < ns)
		qsort(states, ns, sizeof(*states), cmp_acc_ts);

	/*
	 * Every call's start and end, every state change, and the end, in
	 * order: the calls' (a thread's do not overlap) merged with the
	 * states', and sorted only if that is not in order after all
	 */
	tl->tid = tid;
	tl->t = xzalloc((2 * nc + ns + 2) * sizeof(*tl->t));
	k = 0;
	tl->t[k++] = 0;
	for (i = 0, j = 0; i < 2 * nc || j < ns;) {
		unsigned long long c = ~0ULL;

		if (i < 2 * nc)
			c = i % 2 ? calls[i / 2]->end_ns : call_start(calls[i / 2]);
		if (i < 2 * nc && (j == ns || c <= states[j]->ts)) {
			tl->t[k++] = c;
			i++;
		} else {
			tl->t[k++] = states[j++]->ts;
		}
	}
	tl->t[k++] = end > 0 ? end : 1;
	for (i = 1; i < k && tl->t[i - 1] <= tl->t[i]; i++)
		;
	if (i < k)
		qsort(tl->t, k, sizeof(*tl->t), cmp_ull);
	tl->n = 0;
	for (i = 0; i < k; i++)
		if (!tl->n || tl->t[i] != tl->t[tl->n - 1])
			tl->t[tl->n++] = tl->t[i];

	tl->seg = xzalloc(tl->n * sizeof(*tl->seg));
	tl->cp = xzalloc((tl->n / CHECKPOINT + 1) * sizeof(*tl->cp));
	for (i = 0; i + 1 < tl->n; i++) {
		unsigned long long a = tl->t[i];

		/* the state from the last change at or before a */
		while (si < ns && states[si]->ts <= a)
			s = states[si++]->state;
		/* the call that holds a, if any (calls of a thread do not overlap) */
		while (ci < nc && calls[ci]->end_ns <= a)
			ci++;
		in = ci < nc && call_start(calls[ci]) <= a ? calls[ci] : NULL;
		tl->seg[i].call = in ? (int)(in - ev->tee) : -1;
		tl->seg[i].state = s;
	}
	tl->seg[tl->n - 1].call = -1;
	tl->seg[tl->n - 1].state = ACC_UNKNOWN;
	/* the checkpoints: the sums added up along the whole line once */
	timeline_sum_to(ev, tl, &tl->cur[CUR_FROM], tl->n - 1);
	free(calls);
	free(states);
}

/*
 * last_at_or_before - the last of the increasing @t[@n] at or before @x
 * (t[0] <= x < t[n - 1]), searched outwards from @hint: the handshakes of
 * a port come in time order, so each look-up starts near the last one's
 * end instead of at the whole line's middle
 */
static size_t last_at_or_before(const unsigned long long *t, size_t n,
				size_t hint, unsigned long long x)
{
	size_t lo, hi, step = 1;

	if (hint >= n)
		hint = 0;
	lo = hi = hint;
	if (t[hint] <= x) {
		hi = lo + 1;
		while (hi < n && t[hi] <= x) {
			lo = hi;
			hi = n - lo > step ? lo + step : n;
			step *= 2;
		}
	} else {
		while (lo > 0 && t[lo] > x) {
			hi = lo;
			lo = lo > step ? lo - step : 0;
			step *= 2;
		}
	}
	/* t[lo] <= x, and t[hi] > x or hi == n */
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (t[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * timeline_at - the sums from the time line's start to @x, into @out,
 * with cursor @k (CUR_FROM or CUR_TO)
 */
static void timeline_at(const struct session_events *ev, struct timeline *tl,
			int k, unsigned long long x, double out[NR_SUMS])
{
	struct cursor *c = &tl->cur[k];
	size_t lo;
	int j;

	if (!tl->n || x <= tl->t[0]) {
		memset(out, 0, NR_SUMS * sizeof(*out));
		return;
	}
	if (x >= tl->t[tl->n - 1]) {
		timeline_sum_to(ev, tl, c, tl->n - 1);
		memcpy(out, c->sum, NR_SUMS * sizeof(*out));
		return;
	}
	/* the last boundary at or before x */
	lo = last_at_or_before(tl->t, tl->n, c->hint, x);
	c->hint = lo;
	timeline_sum_to(ev, tl, c, lo);
	if (c->rated != lo + 1) {
		segment_rates_of(ev, tl, lo, c->rate);
		c->rated = lo + 1;
	}
	for (j = 0; j < NR_SUMS; j++)
		out[j] = c->sum[j] + c->rate[j] * (double)(x - tl->t[lo]);
}

static void timeline_free(struct timeline *tl)
{
	free(tl->t);
	free(tl->seg);
	free(tl->cp);
}

/*
 * acceptors_of - the (port, thread) pairs of @ev's server handshakes,
 * sorted; a thread counts for a port when it accepted two of its
 * connections or more, or one and it has scheduler states (the module
 * marks a thread only in accept(): a request socket whose last reference
 * goes in a softirq carries whatever thread ran there)
 */
static size_t acceptors_of(const struct session_events *ev,
			   const struct thread_index *ix,
			   struct acceptor **out)
{
	struct acceptor *a = xzalloc((ev->nhs + 1) * sizeof(*a));
	size_t n = 0, k = 0, i, j;

	for (i = 0; i < ev->nhs; i++)
		if (!ev->hs[i].client)
			a[n++] = (struct acceptor){ .port = ev->hs[i].port,
						    .tid = ev->hs[i].tid };
	qsort(a, n, sizeof(*a), cmp_acceptor);
	for (i = 0; i < n; i = j) {
		size_t first;
		bool states = thread_run(ix->acc, ix->nacc, a[i].tid, &first) > 0;

		for (j = i; j < n && !cmp_acceptor(&a[i], &a[j]); j++)
			;
		if (j - i >= 2 || states) {
			a[k] = a[i];
			a[k++].handshakes = j - i;
		}
	}
	*out = a;
	return k;
}

/*
 * add_wait - into @q, one accepting thread's part of a wait of @wait_ns:
 * its sums at the wait's end @b less those at its start @a
 */
static void add_wait(struct acceptq *q, const double a[NR_SUMS],
		     const double b[NR_SUMS], unsigned long long wait_ns)
{
	int k;

	for (k = 0; k < NR_AQ_PARTS; k++)
		q->part_ns[k] += b[k] - a[k];
	q->tee_setup_ns += b[SUM_SETUP] - a[SUM_SETUP];
	q->tee_setup_asleep_ns += b[SUM_SETUP_ASLEEP] - a[SUM_SETUP_ASLEEP];
	q->tee_setup_oncpu_ns += b[SUM_SETUP_ONCPU] - a[SUM_SETUP_ONCPU];
	q->tee_setup_once_ns += b[SUM_ONCE] - a[SUM_ONCE];
	q->tee_queue_ns += b[SUM_QUEUE] - a[SUM_QUEUE];
	q->tee_secure_ns += b[SUM_SECURE] - a[SUM_SECURE];
	q->thread_ns += wait_ns;
}

void acceptq_measure(const struct session_events *ev, struct acceptq *q)
{
	struct thread_index ix;
	struct acceptor *acc;
	struct timeline *tl;
	size_t na, i, j, first;
	double a[NR_SUMS], b[NR_SUMS];

	memset(q, 0, sizeof(*q));
	q->states = ev->nacc > 0;
	thread_index_build(ev, &ix);
	na = acceptors_of(ev, &ix, &acc);
	tl = xzalloc((na + 1) * sizeof(*tl));
	for (i = 0; i < na; i++) {
		/* a thread accepting on two ports has one time line each */
		timeline_build(ev, &ix, acc[i].tid, &tl[i]);
		for (j = 0; j < i; j++)
			if (acc[j].tid == acc[i].tid)
				break;
		q->acceptors += j == i;
	}
	for (i = 0; i < ev->nhs; i++) {
		const struct hs_event *h = &ev->hs[i];
		unsigned long long from;

		if (h->client || !h->ack_accept_ns || h->ack_accept_ns > h->ts)
			continue;
		from = h->ts - h->ack_accept_ns;
		/* the port's acceptors: a run of the sorted pairs */
		for (first = 0; first < na && acc[first].port < h->port; first++)
			;
		if (first == na || acc[first].port != h->port)
			continue;
		q->handshakes++;
		q->wait_ns += h->ack_accept_ns;
		for (j = first; j < na && acc[j].port == h->port; j++) {
			timeline_at(ev, &tl[j], CUR_FROM, from, a);
			timeline_at(ev, &tl[j], CUR_TO, h->ts, b);
			add_wait(q, a, b, h->ack_accept_ns);
		}
	}
	for (i = 0; i < na; i++)
		timeline_free(&tl[i]);
	free(tl);
	free(acc);
	free(ix.tee);
	free(ix.acc);
}

/*
 * The same split, streamed: the events come in time order, none kept
 * but those of the last moments (see acceptq.h, struct acceptq_stream).
 * A thread's time line is added up as acceptq_measure()'s is, boundary
 * after boundary, the same additions in the same order, but only up to
 * the horizon now - max_call_ns: every call that starts before it has
 * ended before now, so it is known, and so is every state change. A
 * wait is measured once the horizon has passed its end; the boundaries
 * kept go back max_wait_ns behind the horizon, as far as a wait to come
 * can look back.
 */

/* A boundary of a streamed time line: the sums up to it, the rates after */
struct sq_bound {
	unsigned long long t;
	double sum[NR_SUMS];
	double rate[NR_SUMS];
};

struct sq_thread {
	int tid;
	/* not yet added up: the calls by start, the states by time */
	struct tee_call *calls;
	size_t ncalls, hcalls, capcalls;
	struct acc_event *states;
	size_t nstates, hstates, capstates;
	/* the state and call from the last boundary on */
	enum acc_state state;
	struct tee_call call;
	bool in_call;
	unsigned long long last_end;	/* of the last call taken in */
	/* the boundaries kept, the last one still open */
	struct sq_bound *b;
	size_t nb, hb, capb;
	unsigned long long fin;		/* added up below this time */
	size_t hint[NR_CURSORS];
};

/* A port and a thread that accepts on it, for the streamed split */
struct sq_pair {
	int port;
	struct sq_thread *t;
};

struct acceptq_stream {
	unsigned long long max_call_ns, max_wait_ns, end_ns;
	unsigned long long now, horizon;
	struct sq_thread *threads;	/* the acceptors, by tid */
	size_t nthreads;
	struct sq_pair *pairs;		/* by port, then tid */
	size_t npairs;
	struct hs_event *pending;	/* the waits not yet measured */
	size_t npending, hpending, cappending;
	struct acceptq q;
	size_t most;			/* the most a thread or the waits held */
	bool finished, broken;
};

/* queue_push - room at the end of a queue of @n from @h (moved down if needed) */
static void *queue_push(void *v, size_t *n, size_t *h, size_t *cap,
			size_t size)
{
	if (*n == *cap && *h > 0) {
		memmove(v, (char *)v + *h * size, (*n - *h) * size);
		*n -= *h;
		*h = 0;
	}
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		v = realloc(v, *cap * size);
		if (!v)
			fatal("out of memory\n");
	}
	(*n)++;
	return v;
}

static int cmp_tid(const void *a, const void *b)
{
	const struct sq_thread *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

static struct sq_thread *sq_thread_of(struct acceptq_stream *s, int tid)
{
	struct sq_thread key = { .tid = tid };

	return bsearch(&key, s->threads, s->nthreads, sizeof(key), cmp_tid);
}

/* sq_bound_rates - the rates after @t's last boundary */
static void sq_bound_rates(struct sq_thread *t)
{
	segment_rates(t->in_call ? &t->call : NULL, t->state,
		      t->b[t->nb - 1].rate);
}

/* sq_boundary - a boundary at @x: a new one, or the open one if at @x */
static void sq_boundary(struct sq_thread *t, unsigned long long x)
{
	struct sq_bound *last = &t->b[t->nb - 1], *nb;
	double len;
	int j;

	if (x == last->t)
		return;
	len = (double)(x - last->t);
	t->b = queue_push(t->b, &t->nb, &t->hb, &t->capb, sizeof(*t->b));
	last = &t->b[t->nb - 2];
	nb = &t->b[t->nb - 1];
	nb->t = x;
	for (j = 0; j < NR_SUMS; j++)
		nb->sum[j] = last->sum[j] + last->rate[j] * len;
}

/*
 * sq_advance - @t's boundaries below @h added up (all, @h ~0ULL), and
 * those no wait can look back to any more let go
 */
static void sq_advance(struct acceptq_stream *s, struct sq_thread *t,
		       unsigned long long h)
{
	unsigned long long keep;
	size_t held;

	for (;;) {
		unsigned long long x = ~0ULL;
		bool more = false;

		if (t->in_call) {
			x = t->call.end_ns;
			more = true;
		} else if (t->hcalls < t->ncalls) {
			x = call_start(&t->calls[t->hcalls]);
			more = true;
		}
		if (t->hstates < t->nstates &&
		    (!more || t->states[t->hstates].ts < x)) {
			x = t->states[t->hstates].ts;
			more = true;
		}
		if (!more || x >= h)
			break;
		sq_boundary(t, x);
		/* the call that holds x, the state from the last change at x */
		if (t->in_call && t->call.end_ns <= x)
			t->in_call = false;
		while (!t->in_call && t->hcalls < t->ncalls &&
		       call_start(&t->calls[t->hcalls]) <= x) {
			t->call = t->calls[t->hcalls++];
			t->in_call = t->call.end_ns > x;
		}
		while (t->hstates < t->nstates && t->states[t->hstates].ts <= x)
			t->state = t->states[t->hstates++].state;
		sq_bound_rates(t);
	}
	t->fin = h;
	held = (t->nb - t->hb) + (t->ncalls - t->hcalls) +
	       (t->nstates - t->hstates);
	if (held > s->most)
		s->most = held;
	if (h == ~0ULL)
		return;
	/*
	 * A wait still to be measured ends at the horizon or later, or is
	 * one of those waiting (the first ends first), and lasts
	 * max_wait_ns at most: the boundary at or before its start is kept
	 */
	if (s->hpending < s->npending && s->pending[s->hpending].ts < h)
		h = s->pending[s->hpending].ts;
	keep = h > s->max_wait_ns ? h - s->max_wait_ns : 0;
	while (t->nb - t->hb > 1 && t->b[t->hb + 1].t <= keep)
		t->hb++;
}

/* last_at_or_before_b - the last of @b[0..@n) at or before @x (b[0].t <= x) */
static size_t last_at_or_before_b(const struct sq_bound *b, size_t n,
				  unsigned long long x)
{
	size_t lo = 0, hi = n;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (b[mid].t <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * sq_at - the sums of @t from its start to @x (below its horizon, or at
 * the end once finished), into @out, found from cursor @k's last place
 */
static void sq_at(struct acceptq_stream *s, struct sq_thread *t, int k,
		  unsigned long long x, double out[NR_SUMS])
{
	const struct sq_bound *b = t->b + t->hb;
	size_t n = t->nb - t->hb, lo, hi;
	int j;

	if (x <= b[0].t && !t->hb) {
		memset(out, 0, NR_SUMS * sizeof(*out));
		return;
	}
	if (x < b[0].t)
		s->broken = true;	/* let go: cannot be, in time order */
	if (s->finished && x >= b[n - 1].t) {
		memcpy(out, b[n - 1].sum, NR_SUMS * sizeof(*out));
		return;
	}
	/* the last boundary at or before x, near the last look-up's */
	lo = t->hint[k] >= t->hb && t->hint[k] < t->nb ? t->hint[k] - t->hb : 0;
	if (b[lo].t > x)
		lo = last_at_or_before_b(b, lo, x);
	for (hi = lo + 1; hi < n && b[hi].t <= x; hi++)
		lo = hi;
	t->hint[k] = lo + t->hb;
	for (j = 0; j < NR_SUMS; j++)
		out[j] = b[lo].sum[j] + b[lo].rate[j] * (double)(x - b[lo].t);
}

/* sq_measure - the wait of handshake @h, as acceptq_measure() adds it */
static void sq_measure(struct acceptq_stream *s, const struct hs_event *h)
{
	unsigned long long from = h->ts - h->ack_accept_ns;
	double a[NR_SUMS], b[NR_SUMS];
	size_t lo = 0, hi = s->npairs, j;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->pairs[mid].port < h->port)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->npairs || s->pairs[lo].port != h->port)
		return;
	s->q.handshakes++;
	s->q.wait_ns += h->ack_accept_ns;
	for (j = lo; j < s->npairs && s->pairs[j].port == h->port; j++) {
		struct sq_thread *t = s->pairs[j].t;

		if (t->fin < s->horizon)
			sq_advance(s, t, s->horizon);
		sq_at(s, t, CUR_FROM, from, a);
		sq_at(s, t, CUR_TO, h->ts, b);
		add_wait(&s->q, a, b, h->ack_accept_ns);
	}
}

/* sq_now - the stream has come to time @t: the waits behind the horizon */
static void sq_now(struct acceptq_stream *s, unsigned long long t)
{
	if (t > s->now) {
		s->now = t;
		s->horizon = t > s->max_call_ns ? t - s->max_call_ns : 0;
	}
	while (s->hpending < s->npending &&
	       s->pending[s->hpending].ts < s->horizon)
		sq_measure(s, &s->pending[s->hpending++]);
}

struct acceptq_stream *acceptq_stream_new(const int *ports, const int *tids,
					  size_t npairs,
					  unsigned long long max_call_ns,
					  unsigned long long max_wait_ns,
					  unsigned long long end_ns)
{
	struct acceptq_stream *s = xzalloc(sizeof(*s));
	size_t i, n = 0;

	s->max_call_ns = max_call_ns;
	s->max_wait_ns = max_wait_ns;
	s->end_ns = end_ns;
	s->threads = xzalloc((npairs + 1) * sizeof(*s->threads));
	for (i = 0; i < npairs; i++)
		s->threads[n++].tid = tids[i];
	qsort(s->threads, n, sizeof(*s->threads), cmp_tid);
	for (i = 0; i < n; i++)
		if (!s->nthreads || s->threads[s->nthreads - 1].tid !=
		    s->threads[i].tid)
			s->threads[s->nthreads++] = s->threads[i];
	s->q.acceptors = s->nthreads;
	for (i = 0; i < s->nthreads; i++) {
		struct sq_thread *t = &s->threads[i];

		t->state = ACC_UNKNOWN;
		t->b = queue_push(NULL, &t->nb, &t->hb, &t->capb, sizeof(*t->b));
		memset(t->b, 0, sizeof(*t->b));
		sq_bound_rates(t);
	}
	s->pairs = xzalloc((npairs + 1) * sizeof(*s->pairs));
	for (i = 0; i < npairs; i++) {
		s->pairs[i].port = ports[i];
		s->pairs[i].t = sq_thread_of(s, tids[i]);
	}
	s->npairs = npairs;
	return s;
}

void acceptq_stream_tee(struct acceptq_stream *s, const struct tee_call *c)
{
	struct sq_thread *t = sq_thread_of(s, c->tid);

	if (t) {
		if (call_start(c) < s->horizon || call_start(c) < t->last_end)
			s->broken = true;
		t->calls = queue_push(t->calls, &t->ncalls, &t->hcalls,
				      &t->capcalls, sizeof(*t->calls));
		t->calls[t->ncalls - 1] = *c;
		t->last_end = c->end_ns;
	}
	sq_now(s, c->end_ns);
	if (t && t->fin < s->horizon)
		sq_advance(s, t, s->horizon);
}

void acceptq_stream_acc(struct acceptq_stream *s, const struct acc_event *a)
{
	struct sq_thread *t = sq_thread_of(s, a->tid);

	s->q.states = true;
	if (t) {
		if (a->ts < s->horizon || (t->nstates > t->hstates &&
				       a->ts < t->states[t->nstates - 1].ts))
			s->broken = true;
		t->states = queue_push(t->states, &t->nstates, &t->hstates,
				       &t->capstates, sizeof(*t->states));
		t->states[t->nstates - 1] = *a;
	}
	sq_now(s, a->ts);
	if (t && t->fin < s->horizon)
		sq_advance(s, t, s->horizon);
}

void acceptq_stream_hs(struct acceptq_stream *s, const struct hs_event *h)
{
	sq_now(s, h->ts);
	if (h->client || !h->ack_accept_ns || h->ack_accept_ns > h->ts)
		return;
	if (h->ts < s->horizon || h->ack_accept_ns > s->max_wait_ns ||
	    (s->npending && h->ts < s->pending[s->npending - 1].ts))
		s->broken = true;
	s->pending = queue_push(s->pending, &s->npending, &s->hpending,
				&s->cappending, sizeof(*s->pending));
	s->pending[s->npending - 1] = *h;
	if (s->npending - s->hpending > s->most)
		s->most = s->npending - s->hpending;
}

/*
 * acceptq_stream_most - the most boundaries, calls and states one thread
 * held at once, or waits not yet measured: bounded by what happens in
 * max_call_ns + max_wait_ns, not by the session's length
 */
size_t acceptq_stream_most(const struct acceptq_stream *s)
{
	return s->most;
}

bool acceptq_stream_finish(struct acceptq_stream *s, struct acceptq *q)
{
	unsigned long long end = s->end_ns > 0 ? s->end_ns : 1;
	size_t i;

	s->finished = true;
	s->horizon = ~0ULL;
	for (i = 0; i < s->nthreads; i++) {
		struct sq_thread *t = &s->threads[i];

		sq_advance(s, t, ~0ULL);
		if (t->b[t->nb - 1].t > end)
			s->broken = true;
		else
			sq_boundary(t, end);
	}
	while (s->hpending < s->npending)
		sq_measure(s, &s->pending[s->hpending++]);
	*q = s->q;
	return !s->broken;
}

void acceptq_stream_free(struct acceptq_stream *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nthreads; i++) {
		free(s->threads[i].calls);
		free(s->threads[i].states);
		free(s->threads[i].b);
	}
	free(s->threads);
	free(s->pairs);
	free(s->pending);
	free(s);
}
