// SPDX-License-Identifier: GPL-2.0
/*
 * report_events.c - a session's events tallied for "teeprobe report" (see
 * report_events.h): every TEE call's duration by command and its time by
 * thread, every handshake's phases, the NET_RX windows summed by CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_events.h"
#include "utils.h"

#define MAX_THREADS	SESSION_MAX_THREADS

/* samples_add - append one value */
static void samples_add(struct samples *s, unsigned long long v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			fatal("out of memory\n");
	}
	s->v[s->n++] = v;
}

/* report_events_build - @s's events tallied into @r, in the file's order */
void report_events_build(struct report_events *r, const struct session *s)
{
	const struct session_events *ev = &s->ev;
	struct cmd_events *c;
	struct thread_events *t;
	const char *comm;
	unsigned long long v;
	size_t e;
	int i, p;

	memset(r, 0, sizeof(*r));
	r->s = s;
	r->snap = s->snap;
	for (i = 0; i < s->nr_cmds; i++) {
		r->cmds[i].id = s->cmds[i].id;
		snprintf(r->cmds[i].name, sizeof(r->cmds[i].name), "%s",
			 s->cmds[i].name);
	}
	r->nr_cmds = s->nr_cmds;
	for (e = 0; e < ev->ntee; e++) {
		const struct tee_call *call = &ev->tee[e];

		c = NULL;
		for (i = 0; i < r->nr_cmds; i++)
			if (r->cmds[i].id == call->cmd)
				c = &r->cmds[i];
		if (c) {
			samples_add(&c->duration, call->dur_ns);
			c->total_ns += call->dur_ns;
			c->offcpu_ns += call->offcpu_ns;
			c->runq_ns += call->runq_ns;
			c->queue_wait_ns += call->queue_wait_ns;
			c->errors += call->ret < 0;
		}
		t = NULL;
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
			continue;
		}
		t->calls++;
		t->total_ns += call->dur_ns;
		t->offcpu_ns += call->offcpu_ns;
	}
	for (e = 0; e < ev->nhs; e++) {
		const struct hs_event *h = &ev->hs[e];
		const unsigned long long phase[NR_PHASES] = {
			[PH_SYN_SYNACK] = h->syn_synack_ns,
			[PH_SYNACK_ACK] = h->synack_ack_ns,
			[PH_ACK_ACCEPT] = h->ack_accept_ns,
			[PH_CONNECT] = h->connect_ns,
			[PH_CONNECT_CALL] = h->connect_call_ns,
			[PH_SYN_WAIT] = h->syn_wait_ns,
			[PH_ACK_WAIT] = h->ack_wait_ns,
		};

		r->handshakes[h->client]++;
		for (p = 0; p < NR_PHASES; p++) {
			if (phase_server(p) == h->client)
				continue;
			if ((p == PH_SYN_WAIT || p == PH_ACK_WAIT) && !h->has_waits)
				continue;
			v = phase[p];
			/* connect_call is 0 when connect() did not wait */
			if (v || p != PH_CONNECT_CALL)
				samples_add(&r->phase[p], v);
		}
	}
	for (e = 0; e < ev->nnetrx; e++) {
		const struct netrx_win *nw = &ev->netrx[e];
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
}

/* report_events_release - what report_events_build() allocated */
void report_events_release(struct report_events *r)
{
	int i;

	for (i = 0; i < r->nr_cmds; i++)
		free(r->cmds[i].duration.v);
	for (i = 0; i < NR_PHASES; i++)
		free(r->phase[i].v);
}
