// SPDX-License-Identifier: GPL-2.0
/*
 * analyze.c - "teeprobe analyze": the diagnosis of a recorded session.
 *
 * The session's events become one time series of aligned windows
 * (series.c): TEE ioctl time (blocked and on-CPU), NET_RX raise->entry
 * delays, handshakes and their phases, host-wide and per CPU. From them:
 * where a handshake's time goes (NET_RX wait, the kernel, the round trip,
 * accept, TEE ioctls), how the links move together over time (Pearson and
 * rank correlation, at the best lag), and the verdict (verdict.c) with the
 * numbers behind it.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "acceptq.h"
#include "correlate.h"
#include "figures.h"
#include "record.h"
#include "session.h"
#include "series.h"
#include "hist.h"
#include "quantile.h"
#include "teeprobe.h"
#include "utils.h"
#include "verdict.h"

#define MAX_LAG		3	/* windows */
#define MIN_PAIRS	5	/* windows for a correlation */

static void analyze_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe analyze [--json] [--windows] [--target-us US] [-i FILE | FILE]\n"
		"       teeprobe analyze -d SECONDS [-p PID]... [-w MS] [-i FILE] [...]\n\n"
		"Names the link of the chain to blame for the clients' handshake time\n"
		"in a session recorded with 'teeprobe record' (default trace.dat),\n"
		"with the numbers behind it: where a client handshake's time goes as\n"
		"the server sees it, how TEE ioctl time, NET_RX delay and the\n"
		"server's SYN->accept time move together from window to window\n"
		"(Pearson's r at the best lag, and rank correlation), per CPU and\n"
		"host-wide, and the verdict with the fix it implies.\n\n"
		"  -i, --input FILE   the recorded session; or FILE\n"
		"  -d, --duration S   live: record S seconds into FILE first (with\n"
		"                     'teeprobe record'; -p and -w are passed to it)\n"
		"  -p, --pid PID      (live) the service's process; repeatable\n"
		"  -w, --window MS    (live) the window length of the session\n"
		"      --json         one JSON object\n"
		"      --windows      also print the time series, a line per window\n"
		"      --target-us US a handshake time that is fine (default 10000,\n"
		"                     the case's target); below it: no problem\n");
}

/* pick - values of a series for correlation, NAN where absent */
static double *pick(const struct series *s, const struct win_point *base,
		    double (*get)(const struct win_point *))
{
	double *v = xzalloc(s->n * sizeof(*v));
	size_t i;

	for (i = 0; i < s->n; i++)
		v[i] = get(&base[i]);
	return v;
}

static double get_tee_oncpu(const struct win_point *p)
{
	return p->tee_oncpu_ns;
}

static double get_tee_busy(const struct win_point *p)
{
	return p->tee_busy_ns;
}

static double get_netrx_delay(const struct win_point *p)
{
	return point_netrx_delay_ns(p);
}

static double get_handshake(const struct win_point *p)
{
	return point_handshake_ns(p);
}

/* pairs - copy the windows where both values exist; returns how many */
static size_t pairs(const double *x, const double *y, size_t n, double *ox,
		    double *oy)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]))
			continue;
		ox[k] = x[i];
		oy[k++] = y[i];
	}
	return k;
}

/* correlate_link - best lag (NAN kept out by shifting on the raw grid) */
static void correlate_link(struct link *l, const double *x, const double *y,
			   size_t n)
{
	double *ax = xzalloc(n * sizeof(*ax)), *ay = xzalloc(n * sizeof(*ay));
	double *bx = xzalloc(n * sizeof(*bx)), *by = xzalloc(n * sizeof(*by));
	size_t k;
	int lag;

	l->best.r = NAN;
	l->best.lag = 0;
	l->best.n = 0;
	for (lag = -MAX_LAG; lag <= MAX_LAG; lag++) {
		size_t i, m = 0;
		double r;

		for (i = 0; i < n; i++) {
			long j = (long)i + lag;

			if (j < 0 || j >= (long)n)
				continue;
			ax[m] = x[i];
			ay[m++] = y[j];
		}
		k = pairs(ax, ay, m, bx, by);
		if (k < MIN_PAIRS)
			continue;
		r = pearson(bx, by, k);
		if (isnan(r))
			continue;
		if (isnan(l->best.r) || fabs(r) > fabs(l->best.r) + 1e-9 ||
		    (fabs(r) >= fabs(l->best.r) - 1e-9 && abs(lag) < abs(l->best.lag))) {
			l->best.r = r;
			l->best.lag = lag;
			l->best.n = k;
		}
	}
	k = pairs(x, y, n, bx, by);
	l->rank = k >= MIN_PAIRS ? spearman(bx, by, k) : NAN;
	free(ax);
	free(ay);
	free(bx);
	free(by);
}

/* per_cpu - NET_RX and TEE figures per CPU, and r(TEE on-CPU, delay) */
static void per_cpu(struct analysis *a)
{
	const struct series *s = &a->s;
	double *x, *y, *px, *py, *tx, *ty;
	size_t i, k, pooled = 0;
	int c;

	a->cpus = xzalloc((s->ncpus ? s->ncpus : 1) * sizeof(*a->cpus));
	px = xzalloc(s->n * (s->ncpus + 1) * sizeof(*px));
	py = xzalloc(s->n * (s->ncpus + 1) * sizeof(*py));
	tx = xzalloc(s->n * sizeof(*tx));
	ty = xzalloc(s->n * sizeof(*ty));
	for (c = 0; c < s->ncpus; c++) {
		const struct win_point *base = &s->cpu[(size_t)c * s->n];
		struct cpu_row *row = &a->cpus[c];

		for (i = 0; i < s->n; i++) {
			row->runs += base[i].netrx_runs;
			row->packets += base[i].packets;
			row->wait_ns += base[i].inline_sum_ns + base[i].ksoftirqd_sum_ns;
			row->waits += base[i].inline_n + base[i].ksoftirqd_n;
			row->tee_oncpu_ns += base[i].tee_oncpu_ns;
		}
		x = pick(s, base, get_tee_oncpu);
		y = pick(s, base, get_netrx_delay);
		k = pairs(x, y, s->n, tx, ty);
		row->pairs = k;
		row->r = k >= MIN_PAIRS ? pearson(tx, ty, k) : NAN;
		memcpy(px + pooled, tx, k * sizeof(*tx));
		memcpy(py + pooled, ty, k * sizeof(*ty));
		pooled += k;
		free(x);
		free(y);
	}
	/* TEE on-CPU vs NET_RX delay on the same CPU, all CPUs' windows */
	a->links[LINK_TEE_NETRX].best.r = pooled >= MIN_PAIRS ?
		pearson(px, py, pooled) : NAN;
	a->links[LINK_TEE_NETRX].best.lag = 0;
	a->links[LINK_TEE_NETRX].best.n = pooled;
	a->links[LINK_TEE_NETRX].rank = pooled >= MIN_PAIRS ?
		spearman(px, py, pooled) : NAN;
	free(px);
	free(py);
	free(tx);
	free(ty);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The acceptors' TEE time, by where it went (verdict.h, struct tee_split) */
struct tee_sums {
	double busy, off;		/* in TEE calls, asleep */
	double setup, setup_off, setup_oncpu;	/* per-call set-up */
	double once;			/* one-time set-up */
	double queue, secure;		/* of the calls other than set-up */
};

/*
 * What the analysis takes from the events besides their windows: from the
 * events kept (ev_figures_of()), or added up as they stream by
 */
struct ev_figures {
	struct hs_means m;			/* the phases' means */
	double client_handshakes, hs, s1, s2, s3;	/* server phase sums */
	bool secure_timed;
	struct tee_sums t;			/* the acceptors' TEE time */
	double acceptors, acceptor_calls;
	struct part_dist hp[NR_HP];		/* per server handshake */
	double syn_wait_ns, ack_wait_ns;	/* their means */
	struct acceptq q;
};

/*
 * tee_split_of - the shares of @busy ns of TEE time; the secure world's
 * entries timed (@secure_timed) or not
 */
static struct tee_split tee_split_of(double busy, double setup,
				     double setup_off, double setup_oncpu,
				     double once, double queue, double secure,
				     bool secure_timed)
{
	struct tee_split t;

	t.setup = share(setup, busy);
	t.setup_asleep = share(setup_off, setup);
	t.setup_oncpu = share(setup_oncpu, setup);
	t.setup_once = share(once, busy);
	t.queue = share(queue, busy);
	t.work = busy > 0 ? fmax(1 - t.setup - t.setup_once - t.queue, 0) : NAN;
	t.secure = secure_timed ? share(secure, busy) : NAN;
	t.driver = secure_timed && busy > 0 ? fmax(t.work - t.secure, 0) : NAN;
	return t;
}

/*
 * acceptor_call - TEE call @c of an accepting thread into @f's sums:
 * made once, set-up, or its queue and the secure world's part
 */
static void acceptor_call(struct ev_figures *f, const struct tee_call *c)
{
	struct tee_sums *t = &f->t;
	double queue;

	f->acceptor_calls++;
	t->busy += c->dur_ns;
	t->off += c->offcpu_ns;
	if (c->setup && c->setup_once) {
		t->once += c->dur_ns;
		return;
	}
	if (c->setup) {
		t->setup += c->dur_ns;
		t->setup_off += c->offcpu_ns;
		t->setup_oncpu += fmax((double)c->dur_ns - c->offcpu_ns -
				       c->runq_ns, 0);
		return;
	}
	queue = fmin(c->queue_wait_ns, c->dur_ns);
	t->queue += queue;
	t->secure += fmin(c->secure_ns, c->dur_ns - queue);
}

/*
 * acceptor_tee - the TEE ioctl time (total, asleep, and where it went) of
 * the threads that accepted the session's connections: the application's
 * TEE time that handshakes wait for. TEE calls of other threads (a
 * background job, another service) still show in the NET_RX evidence, not
 * here.
 */
static void acceptor_tee(struct ev_figures *f, const struct session_events *ev)
{
	int *tids = xzalloc((ev->nhs + 1) * sizeof(*tids));
	size_t i, n = 0, k = 0;

	for (i = 0; i < ev->nhs; i++)
		if (!ev->hs[i].client)
			tids[n++] = ev->hs[i].tid;
	qsort(tids, n, sizeof(*tids), cmp_int);
	/*
	 * A request socket is sometimes freed outside accept() (its last
	 * reference dropped in a softirq), and its event then carries the pid
	 * of whatever thread ran: keep the threads with two events or more.
	 */
	for (i = 0; i < n; i++) {
		size_t j = i;

		while (j + 1 < n && tids[j + 1] == tids[i])
			j++;
		if (j > i)
			tids[k++] = tids[i];
		i = j;
	}
	f->acceptors = k;
	for (i = 0; i < ev->ntee; i++)
		if (bsearch(&ev->tee[i].tid, tids, k, sizeof(*tids), cmp_int))
			acceptor_call(f, &ev->tee[i]);
	free(tids);
}

/*
 * secure_timed - whether the session timed the secure world's entries: its
 * events carry the time (not a file of an earlier module), and some call had
 * some (a driver whose entry teeprobe probes: OP-TEE's SMC, teesim's)
 */
static bool secure_timed(const struct session_events *ev)
{
	size_t i;

	for (i = 0; i < ev->ntee; i++)
		if (ev->tee[i].secure_known && ev->tee[i].secure_ns > 0)
			return true;
	return false;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* dist - mean, p50 and p99 (nearest rank) of @v[@n], sorted here */
static struct part_dist dist(double *v, size_t n)
{
	struct part_dist d = { .mean = NAN, .p50 = NAN, .p99 = NAN, .n = n };
	double total = 0;
	size_t i;

	if (!n)
		return d;
	qsort(v, n, sizeof(*v), cmp_double);
	for (i = 0; i < n; i++)
		total += v[i];
	d.mean = total / n;
	d.p50 = v[(n * 50 + 99) / 100 - 1];
	d.p99 = v[(n * 99 + 99) / 100 - 1];
	return d;
}

/* hp_always - whether part @p is one every file has (the others: waits) */
static bool hp_always(int p)
{
	return p == HP_KERNEL || p == HP_ACCEPT || p == HP_STACK;
}

/*
 * hs_parts - server handshake @h's parts into @v (whole nanoseconds), its
 * ACK's NET_RX wait into @ack: the three every file has, and the three of
 * its packets' waits if it carries them (then true)
 */
static bool hs_parts(const struct hs_event *h, unsigned long long v[NR_HP],
		     unsigned long long *ack)
{
	v[HP_KERNEL] = h->syn_synack_ns;
	v[HP_STACK] = h->syn_synack_ns + h->synack_ack_ns + h->ack_accept_ns;
	v[HP_ACCEPT] = h->ack_accept_ns;
	if (!h->has_waits)
		return false;
	*ack = h->ack_wait_ns < h->synack_ack_ns ? h->ack_wait_ns :
						    h->synack_ack_ns;
	v[HP_NETRX] = h->syn_wait_ns + *ack;
	v[HP_NETWORK] = h->synack_ack_ns - *ack;
	v[HP_TCP] = h->syn_wait_ns + h->syn_synack_ns + h->synack_ack_ns +
		    h->ack_accept_ns;
	return true;
}

/*
 * per_handshake - each server handshake's own parts (the events that carry
 * its packets' waits): what that connection lived through, from its SYN's
 * arrival to accept(), part by part
 */
static void per_handshake(struct ev_figures *f, const struct session_events *ev)
{
	double *v[NR_HP];
	double syn_wait = 0, ack_wait = 0;
	size_t i, n = 0, all = 0;
	int p;

	for (p = 0; p < NR_HP; p++)
		v[p] = xzalloc((ev->nhs + 1) * sizeof(double));
	for (i = 0; i < ev->nhs; i++) {
		const struct hs_event *h = &ev->hs[i];
		unsigned long long part[NR_HP], ack;
		bool waits;

		if (h->client)
			continue;
		waits = hs_parts(h, part, &ack);
		for (p = 0; p < NR_HP; p++)
			if (hp_always(p))
				v[p][all] = part[p];
			else if (waits)
				v[p][n] = part[p];
		all++;
		if (!waits)
			continue;
		syn_wait += h->syn_wait_ns;
		ack_wait += ack;
		n++;
	}
	for (p = 0; p < NR_HP; p++) {
		f->hp[p] = dist(v[p], hp_always(p) ? all : n);
		free(v[p]);
	}
	f->syn_wait_ns = n ? syn_wait / n : NAN;
	f->ack_wait_ns = n ? ack_wait / n : NAN;
}

/* accept_evidence - the accept queue's split as the verdict's shares */
static void accept_evidence(struct analysis *a)
{
	struct accept_evidence *x = &a->e.acc;
	const struct acceptq *q = &a->q;
	double tee;

	tee = q->part_ns[AQ_TEE_ONCPU] + q->part_ns[AQ_TEE_RUNNABLE] +
	      q->part_ns[AQ_TEE_ASLEEP];
	x->tee = q->thread_ns > 0 ? tee / q->thread_ns : NAN;
	x->tee_asleep = tee > 0 ? q->part_ns[AQ_TEE_ASLEEP] / tee : NAN;
	x->split = tee_split_of(tee, q->tee_setup_ns, q->tee_setup_asleep_ns,
				q->tee_setup_oncpu_ns, q->tee_setup_once_ns,
				q->tee_queue_ns,
				q->tee_secure_ns, a->secure_timed);
	x->runnable = q->thread_ns > 0 ? (q->part_ns[AQ_RUNNABLE] +
		      q->part_ns[AQ_TEE_RUNNABLE]) / q->thread_ns : NAN;
	x->running = q->thread_ns > 0 ? q->part_ns[AQ_RUNNING] / q->thread_ns : NAN;
	x->asleep = q->thread_ns > 0 ? q->part_ns[AQ_ASLEEP] / q->thread_ns : NAN;
	x->unknown = q->thread_ns > 0 ? q->part_ns[AQ_UNKNOWN] / q->thread_ns : NAN;
}

/* ev_figures_of - @f from the events kept, @ev */
static void ev_figures_of(const struct session *r,
			  const struct session_events *ev, struct ev_figures *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	figures_hs_means(r, &f->m);
	for (i = 0; i < ev->nhs; i++) {
		if (ev->hs[i].client) {
			f->client_handshakes++;
			continue;
		}
		f->hs++;
		f->s1 += ev->hs[i].syn_synack_ns;
		f->s2 += ev->hs[i].synack_ack_ns;
		f->s3 += ev->hs[i].ack_accept_ns;
	}
	f->secure_timed = secure_timed(ev);
	acceptor_tee(f, ev);
	per_handshake(f, ev);
	acceptq_measure(ev, &f->q);
}

/* gather - the evidence from the series and the events' figures @f */
static void gather(struct analysis *a, const struct ev_figures *f)
{
	const struct series *s = &a->s;
	struct evidence *e = &a->e;
	double hs = f->hs, s1 = f->s1, s2 = f->s2, s3 = f->s3;
	double wait_pk = 0, pk = 0, inl = 0, ksd = 0, oncpu = 0, teew = 0;
	struct tee_sums t = f->t;
	double *x, *y;
	size_t i;

	a->client_handshakes = f->client_handshakes;
	for (i = 0; i < (size_t)s->ncpus * s->n; i++) {
		const struct win_point *p = &s->cpu[i];
		double d = point_netrx_delay_ns(p);

		if (!isnan(d) && p->packets > 0) {
			wait_pk += d * p->packets;
			pk += p->packets;
		}
		inl += p->inline_sum_ns;
		ksd += p->ksoftirqd_sum_ns;
		teew += p->tee_wait_ns;
		a->tee_wait_runs += p->tee_wait_n;
	}
	for (i = 0; i < s->n; i++) {
		oncpu += s->all[i].tee_oncpu_ns;
		a->busy_windows += s->all[i].hs > 0;
	}
	a->secure_timed = f->secure_timed;
	a->acceptors = f->acceptors;
	a->acceptor_calls = f->acceptor_calls;
	a->seconds = s->n * s->len_ns / 1e9;
	e->handshakes = hs;
	e->syn_synack_ns = hs ? s1 / hs : NAN;
	e->synack_ack_ns = hs ? s2 / hs : NAN;
	e->ack_accept_ns = hs ? s3 / hs : NAN;
	e->netrx_wait_ns = pk > 0 ? wait_pk / pk : NAN;
	e->local_client = hs > 0 && a->client_handshakes >= hs / 2;
	e->tee_per_hs_ns = hs ? t.busy / hs : NAN;
	e->tee_blocked_share = share(t.off, t.busy);
	e->tee = tee_split_of(t.busy, t.setup, t.setup_off, t.setup_oncpu,
			      t.once, t.queue, t.secure, a->secure_timed);
	e->tee_oncpu_share = share(oncpu, a->seconds * 1e9 *
				   (s->ncpus ? s->ncpus : 1));
	e->ksoftirqd_share = share(ksd, inl + ksd);
	e->tee_wait_share = share(teew, inl + ksd);

	per_cpu(a);
	e->r_tee_netrx = a->links[LINK_TEE_NETRX].best.r;
	memcpy(a->hp, f->hp, sizeof(a->hp));
	e->syn_wait_ns = f->syn_wait_ns;
	e->ack_wait_ns = f->ack_wait_ns;
	a->q = f->q;
	accept_evidence(a);

	x = pick(s, s->all, get_netrx_delay);
	y = pick(s, s->all, get_handshake);
	correlate_link(&a->links[LINK_NETRX_HS], x, y, s->n);
	free(x);
	x = pick(s, s->all, get_tee_busy);
	correlate_link(&a->links[LINK_TEE_HS], x, y, s->n);
	free(x);
	free(y);
	a->links[LINK_TEE_NETRX].name = "TEE on-CPU time -> NET_RX delay (same CPU)";
	a->links[LINK_TEE_NETRX].key = "tee_oncpu_to_netrx_delay";
	/* the server's TCP phases per window: the handshakes it finished */
	a->links[LINK_NETRX_HS].name = "NET_RX delay -> SYN->accept time";
	a->links[LINK_NETRX_HS].key = "netrx_delay_to_syn_accept";
	a->links[LINK_TEE_HS].name = "TEE ioctl time -> SYN->accept time";
	a->links[LINK_TEE_HS].key = "tee_time_to_syn_accept";
}

/*
 * analysis_shares - the shares the renderers show: of the handshake time
 * per part, of the acceptors' time, and each CPU's
 */
static void analysis_shares(struct analysis *a)
{
	int c, p;

	for (p = 0; p < NR_PARTS; p++)
		a->part_share[p] = share(a->v.part_ns[p], a->v.total_ns);
	for (p = 0; p < NR_AQ_PARTS; p++)
		a->aq_share[p] = share(a->q.part_ns[p], a->q.thread_ns);
	for (c = 0; c < a->s.ncpus; c++) {
		struct cpu_row *r = &a->cpus[c];

		r->runs_share = share(r->runs, a->sum.netrx_per_s * a->sum.seconds);
		r->wait_mean_ns = r->waits ? r->wait_ns / r->waits : NAN;
		r->tee_oncpu_share = share(r->tee_oncpu_ns, a->seconds * 1e9);
	}
}

/*
 * analysis_of - the analysis of session @r, decided with @vo, into @a:
 * what "teeprobe analyze" prints, and what "teeprobe watch" logs of a
 * capture. 0, or -1 (said) when the session's windows cannot be lined up;
 * analysis_free() releases it either way.
 */
int analysis_of(const struct session *r, const struct verdict_opts *vo,
		struct analysis *a)
{
	struct ev_figures f;

	memset(a, 0, sizeof(*a));
	figures_summarize(r, &a->sum);
	a->counters_note = session_counters_note(r);
	if (series_build(&r->ev, &a->s))
		return -1;
	ev_figures_of(r, &r->ev, &f);
	gather(a, &f);
	verdict_decide(&a->e, vo, &a->v);
	analysis_shares(a);
	return 0;
}

/*
 * A session of any length is read twice, none of its events kept (the
 * reading child hands over figures): a first read finds what the analysis
 * needs to know ahead (struct facts: the windows' grid, which threads
 * accept on which port, each thread's first call into a TA, the longest
 * TEE call and accept-queue wait), the second adds each event up as it
 * comes (struct stream_out), in the file's order as analysis_of() adds
 * the events kept: the same figures. Only if the threads or ports are
 * too many for the first read's tables, or the events not in time order
 * (acceptq_stream), is the session read again with every event kept.
 */
/*
 * threads, (port, thread) pairs: half full at most. A power of two; the
 * unit tests build it with 2, to run the fallback on every session.
 */
#ifndef FACT_SLOTS
#define FACT_SLOTS	8192
#endif

struct fact_thread {
	int tid;
	bool used, states, invoked;
	unsigned long long first_invoke;	/* its first INVOKE's start */
	unsigned long long server_hs;		/* handshakes it accepted */
};

struct fact_pair {
	int port, tid;
	bool used;
	unsigned long long n;			/* handshakes */
};

struct facts {
	struct series_extent x;
	unsigned long long max_call_ns, max_wait_ns;
	unsigned long long end_ns;	/* the last event's time */
	bool secure_timed;
	bool full;			/* a table ran out: read otherwise */
	size_t nthreads, npairs;
	struct fact_thread threads[FACT_SLOTS];
	struct fact_pair pairs[FACT_SLOTS];
};

static size_t slot_hash(unsigned int a, unsigned int b)
{
	return ((a * 2654435761u) ^ (b * 40503u)) & (FACT_SLOTS - 1);
}

/* fact_thread_of - @tid's entry (taken if new), NULL if not there (@add) */
static struct fact_thread *fact_thread_of(struct facts *f, int tid, bool add)
{
	size_t h = slot_hash(tid, 0);

	while (f->threads[h].used && f->threads[h].tid != tid)
		h = (h + 1) & (FACT_SLOTS - 1);
	if (f->threads[h].used)
		return &f->threads[h];
	if (!add || 2 * (f->nthreads + 1) > FACT_SLOTS) {
		f->full |= add;
		return NULL;
	}
	f->threads[h].used = true;
	f->threads[h].tid = tid;
	f->nthreads++;
	return &f->threads[h];
}

static struct fact_pair *fact_pair_of(struct facts *f, int port, int tid)
{
	size_t h = slot_hash(tid, port);

	while (f->pairs[h].used &&
	       (f->pairs[h].tid != tid || f->pairs[h].port != port))
		h = (h + 1) & (FACT_SLOTS - 1);
	if (f->pairs[h].used)
		return &f->pairs[h];
	if (2 * (f->npairs + 1) > FACT_SLOTS) {
		f->full = true;
		return NULL;
	}
	f->pairs[h].used = true;
	f->pairs[h].port = port;
	f->pairs[h].tid = tid;
	f->npairs++;
	return &f->pairs[h];
}

static void facts_tee(void *acc, const struct session *s,
		      const struct tee_call *c)
{
	struct facts *f = acc;
	struct fact_thread *t;
	unsigned long long start = c->end_ns - c->dur_ns;

	(void)s;
	series_extent_tee(&f->x, c);
	if (c->dur_ns > f->max_call_ns)
		f->max_call_ns = c->dur_ns;
	if (c->secure_known && c->secure_ns > 0)
		f->secure_timed = true;
	if (!c->invoke)
		return;
	/* session_mark_setup_once()'s start, as it computes it */
	t = fact_thread_of(f, c->tid, true);
	if (t && (!t->invoked || start < t->first_invoke)) {
		t->invoked = true;
		t->first_invoke = start;
	}
}

static void facts_netrx(void *acc, const struct netrx_win *w)
{
	series_extent_netrx(&((struct facts *)acc)->x, w);
}

static void facts_hs(void *acc, const struct hs_event *h)
{
	struct facts *f = acc;
	struct fact_thread *t;
	struct fact_pair *p;

	series_extent_hs(&f->x, h);
	if (h->client)
		return;
	t = fact_thread_of(f, h->tid, true);
	if (t)
		t->server_hs++;
	p = fact_pair_of(f, h->port, h->tid);
	if (p)
		p->n++;
	if (h->ack_accept_ns > f->max_wait_ns)
		f->max_wait_ns = h->ack_accept_ns;
}

static void facts_acc(void *acc, const struct acc_event *a)
{
	struct fact_thread *t = fact_thread_of(acc, a->tid, true);

	if (t)
		t->states = true;
}

static bool facts_taken(void *acc)
{
	struct facts *f = acc;

	return f->nthreads <= FACT_SLOTS / 2 && f->npairs <= FACT_SLOTS / 2;
}

/*
 * The first read takes each CPU's events in turn (its facts do not depend
 * on their order); the second finds them again in time order and checks
 * (same_facts())
 */
static const struct session_visitor facts_visitor = {
	.tee = facts_tee,
	.netrx = facts_netrx,
	.hs = facts_hs,
	.acc = facts_acc,
	.size = sizeof(struct facts),
	.taken = facts_taken,
	.any_order = true,
};

/* same_facts - whether @x and @y found the same (their tables' order aside) */
static bool same_facts(struct facts *x, struct facts *y)
{
	size_t i;

	if (memcmp(&x->x, &y->x, sizeof(x->x)) ||
	    x->max_call_ns != y->max_call_ns ||
	    x->max_wait_ns != y->max_wait_ns || x->end_ns != y->end_ns ||
	    x->secure_timed != y->secure_timed || x->full || y->full ||
	    x->nthreads != y->nthreads || x->npairs != y->npairs)
		return false;
	for (i = 0; i < FACT_SLOTS; i++) {
		const struct fact_thread *a = &x->threads[i], *b;
		const struct fact_pair *p = &x->pairs[i], *q;

		if (a->used) {
			b = fact_thread_of(y, a->tid, false);
			if (!b || a->states != b->states ||
			    a->invoked != b->invoked ||
			    a->server_hs != b->server_hs ||
			    (a->invoked && a->first_invoke != b->first_invoke))
				return false;
		}
		if (p->used) {
			q = fact_pair_of(y, p->port, p->tid);
			if (!q || !q->used || q->n != p->n)
				return false;
		}
	}
	return true;
}

/*
 * What the second read hands over: the events' figures, then the
 * windows' points (all[n], then cpu[max(ncpus, 1) * n])
 */
struct stream_out {
	struct ev_figures f;
	bool broken;			/* not in time order: read otherwise */
	size_t n;
	int ncpus;
	struct win_point pts[];
};

/* The second read's work, in the reading child */
static struct {
	struct facts *facts;
	struct facts *check;		/* the same, found again in time order */
	struct series s;		/* its points in the stream_out */
	struct quantile hp[NR_HP];
	double syn_wait, ack_wait, waits;	/* of the events with waits */
	double connect;				/* the clients' */
	int *acceptors;			/* acceptor_tee()'s threads, sorted */
	size_t nacceptors;
	struct acceptq_stream *aq;
} st;

static void stream_tee(void *acc, const struct session *s,
		       const struct tee_call *call)
{
	struct ev_figures *f = &((struct stream_out *)acc)->f;
	struct tee_call c = *call;

	facts_tee(st.check, s, call);
	if (c.setup) {
		const struct fact_thread *ft =
			fact_thread_of(st.facts, c.tid, false);

		c.setup_once = !ft || !ft->invoked ||
			       c.end_ns - c.dur_ns < ft->first_invoke;
	}
	series_add_tee(&st.s, &c);
	acceptq_stream_tee(st.aq, &c);
	/* acceptor_tee()'s sums */
	if (bsearch(&c.tid, st.acceptors, st.nacceptors, sizeof(int), cmp_int))
		acceptor_call(f, &c);
}

static void stream_netrx(void *acc, const struct netrx_win *w)
{
	(void)acc;
	facts_netrx(st.check, w);
	series_add_netrx(&st.s, w);
}

static void stream_hs(void *acc, const struct hs_event *h)
{
	struct ev_figures *f = &((struct stream_out *)acc)->f;
	unsigned long long part[NR_HP], ack;
	bool waits;
	int p;

	facts_hs(st.check, h);
	series_add_hs(&st.s, h);
	acceptq_stream_hs(st.aq, h);
	if (h->client) {
		f->client_handshakes++;
		st.connect += h->connect_ns;
		return;
	}
	f->hs++;
	f->s1 += h->syn_synack_ns;
	f->s2 += h->synack_ack_ns;
	f->s3 += h->ack_accept_ns;
	/* per_handshake()'s parts */
	waits = hs_parts(h, part, &ack);
	for (p = 0; p < NR_HP; p++)
		if (waits || hp_always(p))
			quantile_add(&st.hp[p], part[p]);
	if (!waits)
		return;
	st.syn_wait += h->syn_wait_ns;
	st.ack_wait += ack;
	st.waits++;
}

static void stream_acc(void *acc, const struct acc_event *a)
{
	(void)acc;
	facts_acc(st.check, a);
	acceptq_stream_acc(st.aq, a);
}

static void stream_finish(void *acc, const struct session *s)
{
	struct stream_out *out = acc;
	struct ev_figures *f = &out->f;
	int p;

	for (p = 0; p < NR_HP; p++) {
		struct quantile *q = &st.hp[p];
		struct part_dist d = { .mean = NAN, .p50 = NAN, .p99 = NAN,
				       .n = q->n };

		quantile_finish(q);
		if (q->n) {
			d.mean = q->sum / q->n;
			d.p50 = q->p50;
			d.p99 = q->p99;
		}
		f->hp[p] = d;
		quantile_release(q);
	}
	f->syn_wait_ns = st.waits ? st.syn_wait / st.waits : NAN;
	f->ack_wait_ns = st.waits ? st.ack_wait / st.waits : NAN;
	/* figures_hs_means()'s, from the same sums as the phases' */
	f->m.syn_synack_ns = f->hs ? f->s1 / f->hs : NAN;
	f->m.synack_ack_ns = f->hs ? f->s2 / f->hs : NAN;
	f->m.ack_accept_ns = f->hs ? f->s3 / f->hs : NAN;
	f->m.connect_ns = f->client_handshakes ?
			  st.connect / f->client_handshakes : NAN;
	f->m.syn_wait_ns = f->syn_wait_ns;
	f->secure_timed = st.facts->secure_timed;
	f->acceptors = st.nacceptors;
	out->broken = !acceptq_stream_finish(st.aq, &f->q);
	st.check->end_ns = s->ev.end_ns;
	out->broken |= !same_facts(st.facts, st.check);
}

static bool stream_taken(void *acc)
{
	struct stream_out *out = acc;

	return out->n == st.s.n && out->ncpus == st.s.ncpus;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct fact_pair *x = a, *y = b;

	if (x->port != y->port)
		return (x->port > y->port) - (x->port < y->port);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/*
 * stream_setup - the second read's work from the first's @f, into @out's
 * points; acceptq_measure()'s accepting threads: two handshakes on the
 * port or more, or one and scheduler states
 */
static void stream_setup(struct facts *f, struct stream_out *out)
{
	struct fact_pair *pairs = xzalloc((f->npairs + 1) * sizeof(*pairs));
	int *ports, *tids;
	size_t i, n = 0, k = 0;

	st.facts = f;
	st.check = xzalloc(sizeof(*st.check));
	series_extent_init(&st.check->x);
	out->n = st.s.n;
	out->ncpus = st.s.ncpus;
	free(st.s.all);
	free(st.s.cpu);
	st.s.all = out->pts;
	st.s.cpu = out->pts + st.s.n;
	for (i = 0; i < FACT_SLOTS; i++) {
		const struct fact_thread *t;

		if (!f->pairs[i].used)
			continue;
		t = fact_thread_of(f, f->pairs[i].tid, false);
		if (f->pairs[i].n >= 2 || (t && t->states))
			pairs[n++] = f->pairs[i];
	}
	qsort(pairs, n, sizeof(*pairs), cmp_pair);
	ports = xzalloc((n + 1) * sizeof(*ports));
	tids = xzalloc((n + 1) * sizeof(*tids));
	for (i = 0; i < n; i++) {
		ports[i] = pairs[i].port;
		tids[i] = pairs[i].tid;
	}
	st.aq = acceptq_stream_new(ports, tids, n, f->max_call_ns,
				   f->max_wait_ns, f->end_ns);
	free(ports);
	free(tids);
	free(pairs);
	st.acceptors = xzalloc((f->nthreads + 1) * sizeof(int));
	for (i = 0; i < FACT_SLOTS; i++)
		if (f->threads[i].used && f->threads[i].server_hs >= 2)
			st.acceptors[k++] = f->threads[i].tid;
	qsort(st.acceptors, k, sizeof(int), cmp_int);
	st.nacceptors = k;
}

/* stream_free - what stream_setup() holds */
static void stream_free(void)
{
	int p;

	acceptq_stream_free(st.aq);
	free(st.acceptors);
	free(st.check);
	for (p = 0; p < NR_HP; p++)
		quantile_release(&st.hp[p]);
	memset(&st, 0, sizeof(st));
}

/*
 * analysis_read - the analysis of the session in @input, decided with
 * @vo, into @a (analysis_free() it either way); its session into @rp
 * (session_free() it): read twice, its events not kept. 0, or -1 (said).
 */
int analysis_read(const char *input, const struct verdict_opts *vo,
			 struct analysis *a, struct session **rp)
{
	struct session_visitor sv = {
		.tee = stream_tee, .netrx = stream_netrx, .hs = stream_hs,
		.acc = stream_acc, .finish = stream_finish,
		.taken = stream_taken,
	};
	struct facts *f = xzalloc(sizeof(*f));
	struct stream_out *out = NULL;
	struct session *r;
	size_t points;
	int ret = -1;

	memset(a, 0, sizeof(*a));
	series_extent_init(&f->x);
	*rp = r = session_stream(input, &facts_visitor, f);
	if (!r)
		goto out;
	f->end_ns = r->ev.end_ns;
	if (f->full)
		goto keep;
	if (series_start(&st.s, &f->x))
		goto out;
	points = st.s.n * (1 + (size_t)(st.s.ncpus ? st.s.ncpus : 1));
	sv.size = sizeof(*out) + points * sizeof(out->pts[0]);
	out = xzalloc(sv.size);
	stream_setup(f, out);
	session_free(r);
	*rp = r = session_stream(input, &sv, out);
	if (!r)
		goto out;
	if (out->broken)
		goto keep;
	figures_summarize_with(r, &out->f.m, &a->sum);
	a->counters_note = session_counters_note(r);
	a->s = st.s;
	a->s.all = xzalloc(a->s.n * sizeof(*a->s.all));
	memcpy(a->s.all, out->pts, a->s.n * sizeof(*a->s.all));
	a->s.cpu = xzalloc((points - a->s.n) * sizeof(*a->s.cpu));
	memcpy(a->s.cpu, out->pts + a->s.n,
	       (points - a->s.n) * sizeof(*a->s.cpu));
	gather(a, &out->f);
	verdict_decide(&a->e, vo, &a->v);
	analysis_shares(a);
	ret = 0;
	goto out;
keep:
	/* every event kept, as before */
	session_free(r);
	*rp = r = session_read(input);
	ret = r ? analysis_of(r, vo, a) : -1;
out:
	stream_free();
	free(out);
	free(f);
	return ret;
}

/* analysis_free - what analysis_of() allocated */
void analysis_free(struct analysis *a)
{
	free(a->cpus);
	a->cpus = NULL;
	series_free(&a->s);
}

int analyze_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "window", required_argument, NULL, 'w' },
		{ "json", no_argument, NULL, 'j' },
		{ "windows", no_argument, NULL, 'W' },
		{ "target-us", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct analyze_opts o = { .input = "trace.dat" };
	struct analysis a = { 0 };
	const char *in_opt = NULL;
	struct session *r;
	char *end;
	double t;
	int c;

	verdict_default_opts(&o.v);
	while ((c = getopt_long(argc, argv, "i:d:p:w:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			in_opt = optarg;
			break;
		case 'd':
		case 'p':
		case 'w':
			/* record's own checks, and its messages */
			if (record_option(&o.rec, c, optarg))
				return 2;
			o.record_args |= c != 'd';
			break;
		case 'j':
			o.json = true;
			break;
		case 'W':
			o.windows = true;
			break;
		case 't':
			t = strtod(optarg, &end);
			if (end == optarg || *end || !(t > 0) || t > 1e9) {
				err_msg("analyze: --target-us: not a time in us: '%s'\n",
					optarg);
				return 2;
			}
			o.v.target_ns = t * 1e3;
			break;
		case 'h':
			analyze_usage(stdout);
			return 0;
		default:
			return usage_error("analyze", analyze_usage);
		}
	}
	if (input_arg("analyze", in_opt, argc, argv, optind, &o.input))
		return usage_error("analyze", analyze_usage);
	if (o.record_args && !o.rec.duration) {
		err_msg("analyze: -p and -w go with -d (a live session)\n");
		return 2;
	}
	if (o.rec.duration) {
		o.rec.output = o.input;
		if (record_session(&o.rec))
			return 1;
	}
	if (analysis_read(o.input, &o.v, &a, &r)) {
		analysis_free(&a);
		session_free(r);
		return 1;
	}
	if (o.json)
		analyze_json(&a, &o);
	else
		analyze_text(&a, &o);
	analysis_free(&a);
	session_free(r);
	return 0;
}
