// SPDX-License-Identifier: GPL-2.0
/*
 * report_events.c - a session's events tallied for "teeprobe report" (see
 * report_events.h): every TEE call's duration by command and its time by
 * thread, every handshake's phases, the NET_RX windows summed by CPU. One
 * event at a time, as the reading child reads them (report_events_visitor)
 * or from a session's kept events (report_events_build()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_events.h"
#include "utils.h"

#define MAX_THREADS	SESSION_MAX_THREADS

/* tally_tee - one TEE call of session @s (its command and thread known) */
static void tally_tee(void *acc, const struct session *s,
		      const struct tee_call *call)
{
	struct report_events *r = acc;
	struct cmd_events *c = NULL;
	struct thread_events *t = NULL;
	const char *comm;
	int i;

	/* the session's commands, in its order; one past them is not kept */
	for (; r->nr_cmds < s->nr_cmds; r->nr_cmds++) {
		r->cmds[r->nr_cmds].id = s->cmds[r->nr_cmds].id;
		snprintf(r->cmds[r->nr_cmds].name, sizeof(r->cmds[r->nr_cmds].name),
			 "%s", s->cmds[r->nr_cmds].name);
	}
	for (i = 0; i < r->nr_cmds; i++)
		if (r->cmds[i].id == call->cmd)
			c = &r->cmds[i];
	if (c) {
		quantile_add(&c->duration, call->dur_ns);
		c->total_ns += call->dur_ns;
		c->offcpu_ns += call->offcpu_ns;
		c->runq_ns += call->runq_ns;
		c->queue_wait_ns += call->queue_wait_ns;
		c->errors += call->ret < 0;
	}
	for (i = 0; i < r->nr_threads; i++)
		if (r->threads[i].tid == call->tid)
			t = &r->threads[i];
	if (!t && r->nr_threads < MAX_THREADS) {
		t = &r->threads[r->nr_threads++];
		t->tid = call->tid;
		comm = session_comm(s, call->tid);
		snprintf(t->comm, sizeof(t->comm), "%s", comm ? comm : "<...>");
	}
	if (!t) {
		r->threads_overflow++;
		return;
	}
	t->calls++;
	t->total_ns += call->dur_ns;
	t->offcpu_ns += call->offcpu_ns;
}

/* tally_hs - one handshake's phases */
static void tally_hs(void *acc, const struct hs_event *h)
{
	struct report_events *r = acc;
	const unsigned long long phase[NR_PHASES] = {
		[PH_SYN_SYNACK] = h->syn_synack_ns,
		[PH_SYNACK_ACK] = h->synack_ack_ns,
		[PH_ACK_ACCEPT] = h->ack_accept_ns,
		[PH_CONNECT] = h->connect_ns,
		[PH_CONNECT_CALL] = h->connect_call_ns,
		[PH_SYN_WAIT] = h->syn_wait_ns,
		[PH_ACK_WAIT] = h->ack_wait_ns,
	};
	unsigned long long v;
	int p;

	r->handshakes[h->client]++;
	for (p = 0; p < NR_PHASES; p++) {
		if (phase_server(p) == h->client)
			continue;
		if ((p == PH_SYN_WAIT || p == PH_ACK_WAIT) && !h->has_waits)
			continue;
		v = phase[p];
		/* connect_call is 0 when connect() did not wait */
		if (v || p != PH_CONNECT_CALL)
			quantile_add(&r->phase[p], v);
	}
}

/* tally_netrx - one CPU's NET_RX window */
static void tally_netrx(void *acc, const struct netrx_win *nw)
{
	struct report_events *r = acc;
	struct netrx_windows *w = &r->win[nw->cpu];
	double start = nw->start_ns / 1e9;
	double end = start + nw->len_ns / 1e9;

	if (!w->windows || start < w->first_start)
		w->first_start = start;
	if (end > w->last_end)
		w->last_end = end;
	w->windows++;
	if (nw->late_known) {
		r->late_known = true;
		if (nw->late_ns > nw->len_ns / TEEPROBE_WINDOW_LATE_DIV) {
			r->late++;
			if (nw->late_ns > r->late_max_ns)
				r->late_max_ns = nw->late_ns;
		}
	}
	w->runs += nw->runs;
	w->raises += nw->raises;
	w->packets += nw->packets;
	w->ksoftirqd_runs += nw->ksoftirqd_runs;
}

/* tally_finish - the percentiles; after it @acc holds no pointer */
static void tally_finish(void *acc, const struct session *s)
{
	struct report_events *r = acc;
	int i;

	(void)s;
	for (i = 0; i < r->nr_cmds; i++)
		quantile_finish(&r->cmds[i].duration);
	for (i = 0; i < NR_PHASES; i++)
		quantile_finish(&r->phase[i]);
	r->s = NULL;
	r->snap = NULL;
}

/* tally_taken - the child's tallies, checked; pointers cleared */
static bool tally_taken(void *acc)
{
	struct report_events *r = acc;
	int i;

	r->s = NULL;
	r->snap = NULL;
	for (i = 0; i < SESSION_MAX_CMDS; i++) {
		r->cmds[i].name[sizeof(r->cmds[i].name) - 1] = '\0';
		r->cmds[i].duration.v = NULL;
		r->cmds[i].duration.spilled = false;
	}
	for (i = 0; i < NR_PHASES; i++) {
		r->phase[i].v = NULL;
		r->phase[i].spilled = false;
	}
	if (r->nr_cmds < 0 || r->nr_cmds > SESSION_MAX_CMDS ||
	    r->nr_threads < 0 || r->nr_threads > MAX_THREADS) {
		r->nr_cmds = r->nr_threads = 0;
		return false;
	}
	for (i = 0; i < r->nr_threads; i++)
		r->threads[i].comm[sizeof(r->threads[i].comm) - 1] = '\0';
	return true;
}

const struct session_visitor report_events_visitor = {
	.tee = tally_tee,
	.netrx = tally_netrx,
	.hs = tally_hs,
	.finish = tally_finish,
	.size = sizeof(struct report_events),
	.taken = tally_taken,
};

/* report_events_attach - @r's tallies are of session @s (the parent's) */
void report_events_attach(struct report_events *r, const struct session *s)
{
	r->s = s;
	r->snap = s->snap;
}

/* report_events_build - @s's kept events tallied into @r, in the file's order */
void report_events_build(struct report_events *r, const struct session *s)
{
	const struct session_events *ev = &s->ev;
	size_t e;

	memset(r, 0, sizeof(*r));
	for (e = 0; e < ev->ntee; e++)
		tally_tee(r, s, &ev->tee[e]);
	for (e = 0; e < ev->nhs; e++)
		tally_hs(r, &ev->hs[e]);
	for (e = 0; e < ev->nnetrx; e++)
		tally_netrx(r, &ev->netrx[e]);
	tally_finish(r, s);
	report_events_attach(r, s);
}

/* report_events_release - what the tallies hold (nothing once finished) */
void report_events_release(struct report_events *r)
{
	int i;

	for (i = 0; i < r->nr_cmds; i++)
		quantile_release(&r->cmds[i].duration);
	for (i = 0; i < NR_PHASES; i++)
		quantile_release(&r->phase[i]);
}
