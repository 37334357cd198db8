// SPDX-License-Identifier: GPL-2.0
/*
 * series.c - a session's events cut into aligned windows, host-wide and per
 * CPU (see series.h).
 *
 * The module's NET_RX windows fix the grid: their length and the earliest
 * start. A TEE call is spread over the windows its [end - duration, end]
 * span covers, in proportion, on the CPU it ended on; a handshake counts
 * in the window it finished in.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "utils.h"

#define DEFAULT_LEN_NS	100000000ULL	/* without NET_RX windows */
#define MAX_WINDOWS	1000000
#define MAX_POINTS	4000000	/* windows x (CPUs + 1): 550 MiB */

/* index_of - the window holding time @t, or -1 outside the grid */
static long index_of(const struct series *s, unsigned long long t)
{
	if (t < s->t0_ns)
		return -1;
	if ((t - s->t0_ns) / s->len_ns >= s->n)
		return -1;
	return (long)((t - s->t0_ns) / s->len_ns);
}

/* points - window @i host-wide and of @cpu (NULL when out of range) */
static void points(struct series *s, long i, int cpu, struct win_point **all,
		   struct win_point **one)
{
	*all = &s->all[i];
	*one = cpu >= 0 && cpu < s->ncpus ? &s->cpu[(size_t)cpu * s->n + i] : NULL;
}

void series_extent_init(struct series_extent *x)
{
	memset(x, 0, sizeof(*x));
	x->first = ~0ULL;
}

/* series_extent_netrx - @x with NET_RX window @w: its length, span, CPU */
void series_extent_netrx(struct series_extent *x, const struct netrx_win *w)
{
	if (!w->len_ns || w->cpu < 0 || w->cpu >= SERIES_MAX_CPUS)
		return;
	if (!x->len || w->len_ns < x->len)
		x->len = w->len_ns;
	if (w->start_ns < x->first)
		x->first = w->start_ns;
	if (w->start_ns + w->len_ns > x->last)
		x->last = w->start_ns + w->len_ns;
	if (w->cpu + 1 > x->ncpus)
		x->ncpus = w->cpu + 1;
}

/* series_extent_tee - @x with TEE call @c's span and CPU */
void series_extent_tee(struct series_extent *x, const struct tee_call *c)
{
	unsigned long long start = c->end_ns > c->dur_ns ?
				   c->end_ns - c->dur_ns : 0;

	if (start < x->first)
		x->first = start;
	if (c->end_ns > x->last)
		x->last = c->end_ns;
	if (c->cpu >= 0 && c->cpu < SERIES_MAX_CPUS && c->cpu + 1 > x->ncpus)
		x->ncpus = c->cpu + 1;
}

/* series_extent_hs - @x with handshake @h's time */
void series_extent_hs(struct series_extent *x, const struct hs_event *h)
{
	if (h->ts < x->first)
		x->first = h->ts;
	if (h->ts > x->last)
		x->last = h->ts;
}

/*
 * series_start - @s's windows over extent @x, zeroed, for the series_add_*
 * of each event; -1 (after a message) if it cannot be cut
 */
int series_start(struct series *s, const struct series_extent *x)
{
	unsigned long long len = x->len;

	memset(s, 0, sizeof(*s));
	s->ncpus = x->ncpus;
	if (x->first == ~0ULL) {
		err_msg("the session has no NET_RX windows, TEE calls or handshakes to analyse\n");
		return -1;
	}
	if (!len)
		len = DEFAULT_LEN_NS;
	/* Align the first window as the module does (multiples of len). */
	s->len_ns = len;
	s->t0_ns = x->first - x->first % len;
	s->n = (x->last - s->t0_ns) / len + 1;
	if (s->n > MAX_WINDOWS) {
		err_msg("the session spans %zu windows of %llu ms: more than %d\n",
			s->n, len / 1000000, MAX_WINDOWS);
		return -1;
	}
	if (s->n * (s->ncpus + 1) > MAX_POINTS) {
		err_msg("the session spans %zu windows on %d CPUs: more than %d points\n",
			s->n, s->ncpus, MAX_POINTS);
		return -1;
	}
	s->all = xzalloc(s->n * sizeof(*s->all));
	s->cpu = xzalloc((size_t)(s->ncpus ? s->ncpus : 1) * s->n * sizeof(*s->cpu));
	return 0;
}

/* series_add_netrx - one CPU's NET_RX window */
void series_add_netrx(struct series *s, const struct netrx_win *w)
{
	struct win_point *p[2];
	long i = index_of(s, w->start_ns);
	int k;

	if (i < 0 || w->cpu < 0)
		return;
	points(s, i, w->cpu, &p[0], &p[1]);
	for (k = 0; k < 2; k++) {
		if (!p[k])
			continue;
		p[k]->netrx_runs += w->runs;
		p[k]->packets += w->packets;
		p[k]->run_ns += w->run_ns;
		p[k]->inline_n += w->inline_n;
		p[k]->inline_sum_ns += w->inline_sum_ns;
		p[k]->ksoftirqd_n += w->ksoftirqd_n;
		p[k]->ksoftirqd_sum_ns += w->ksoftirqd_sum_ns;
		p[k]->tee_wait_n += w->tee_runs;
		p[k]->tee_wait_ns += w->tee_sum_ns;
		p[k]->delay_p99_ns = fmax(p[k]->delay_p99_ns,
					  fmax(w->inline_p99_ns, w->ksoftirqd_p99_ns));
	}
}

/* series_add_tee - one TEE call, spread over the windows it spans */
void series_add_tee(struct series *s, const struct tee_call *c)
{
	unsigned long long start = c->end_ns > c->dur_ns ? c->end_ns - c->dur_ns : 0;
	double dur = c->dur_ns ? (double)c->dur_ns : 1;
	double oncpu = (double)c->dur_ns - c->offcpu_ns - c->runq_ns;
	unsigned long long t = start;
	struct win_point *p[2];
	long i;
	int k;

	if (oncpu < 0)
		oncpu = 0;
	i = index_of(s, c->end_ns);
	if (i >= 0) {
		points(s, i, c->cpu, &p[0], &p[1]);
		for (k = 0; k < 2; k++)
			if (p[k])
				p[k]->tee_calls++;
	}
	while (t < c->end_ns) {
		unsigned long long wend, part;
		double f;

		i = index_of(s, t);
		if (i < 0) {
			t = s->t0_ns > t ? s->t0_ns : c->end_ns;
			continue;
		}
		wend = s->t0_ns + (unsigned long long)(i + 1) * s->len_ns;
		part = (wend < c->end_ns ? wend : c->end_ns) - t;
		f = part / dur;
		points(s, i, c->cpu, &p[0], &p[1]);
		for (k = 0; k < 2; k++) {
			if (!p[k])
				continue;
			p[k]->tee_busy_ns += part;
			p[k]->tee_oncpu_ns += f * oncpu;
			p[k]->tee_offcpu_ns += f * c->offcpu_ns;
		}
		t += part;
	}
}

/* series_add_hs - one finished handshake */
void series_add_hs(struct series *s, const struct hs_event *h)
{
	long i = index_of(s, h->ts);
	struct win_point *p;

	if (i < 0)
		return;
	p = &s->all[i];
	if (h->client) {
		p->connects++;
		p->connect_ns += h->connect_ns;
		return;
	}
	p->hs++;
	p->syn_synack_ns += h->syn_synack_ns;
	p->synack_ack_ns += h->synack_ack_ns;
	p->ack_accept_ns += h->ack_accept_ns;
}

int series_build(const struct session_events *ev, struct series *s)
{
	struct series_extent x;
	size_t i;

	series_extent_init(&x);
	for (i = 0; i < ev->nnetrx; i++)
		series_extent_netrx(&x, &ev->netrx[i]);
	for (i = 0; i < ev->ntee; i++)
		series_extent_tee(&x, &ev->tee[i]);
	for (i = 0; i < ev->nhs; i++)
		series_extent_hs(&x, &ev->hs[i]);
	if (series_start(s, &x))
		return -1;
	/* each kind adds to figures of its own: in any order of the kinds */
	for (i = 0; i < ev->nnetrx; i++)
		series_add_netrx(s, &ev->netrx[i]);
	for (i = 0; i < ev->ntee; i++)
		series_add_tee(s, &ev->tee[i]);
	for (i = 0; i < ev->nhs; i++)
		series_add_hs(s, &ev->hs[i]);
	return 0;
}

void series_free(struct series *s)
{
	free(s->all);
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

double point_netrx_delay_ns(const struct win_point *p)
{
	double n = p->inline_n + p->ksoftirqd_n;

	return n > 0 ? (p->inline_sum_ns + p->ksoftirqd_sum_ns) / n : NAN;
}

double point_handshake_ns(const struct win_point *p)
{
	return p->hs > 0 ?
	       (p->syn_synack_ns + p->synack_ack_ns + p->ack_accept_ns) / p->hs :
	       NAN;
}
