// SPDX-License-Identifier: GPL-2.0
/*
 * analyze_json.c - "teeprobe analyze --json": struct analysis (analyze.c
 * computes it) as one JSON object, through json-c (json.h).
 */
#include <math.h>

#include "analyze.h"
#include "json.h"

/*
 * The JSON's version: 2 since it goes through json-c and parts_us is keyed
 * as parts is (format 1's keys were the parts' names, with spaces); 3 since
 * TEE time is split by where it went (tee_split), accept_queue.tee.queue
 * is the other calls' wait for a secure thread (not every call's), and the
 * verdict has a fix, and seconds is the session's length (report's), the
 * windows' span window_seconds
 */
#define ANALYZE_JSON_FORMAT	3

/* tee_split_json - where TEE time went, under the keys of struct tee_split */
static struct json_object *tee_split_json(const struct tee_split *t)
{
	struct json_object *x = jnew();

	jset_sig(x, "setup", t->setup, 6);
	jset_sig(x, "setup_asleep", t->setup_asleep, 6);
	jset_sig(x, "setup_oncpu", t->setup_oncpu, 6);
	jset_sig(x, "setup_once", t->setup_once, 6);
	jset_sig(x, "queue", t->queue, 6);
	jset_sig(x, "work", t->work, 6);
	jset_sig(x, "secure", t->secure, 6);
	jset_sig(x, "driver", t->driver, 6);
	return x;
}

/* analyze_json - struct analysis as one JSON object */
void analyze_json(const struct analysis *a, const struct analyze_opts *o)
{
	const struct evidence *e = &a->e;
	const struct verdict *v = &a->v;
	struct json_object *out = jnew(), *x, *y, *z, *list;
	int p, c;

	jset_int(out, "format", ANALYZE_JSON_FORMAT);
	jset_str(out, "file", o->input);
	/* the session's length, as report's; the windows', apart */
	jset_sig(out, "seconds", a->sum.seconds, 6);
	jset_sig(out, "window_seconds", a->seconds, 6);
	jset_sig(out, "window_ms", a->s.len_ns / 1e6, 6);
	x = jnew();
	jset_str(x, "cause", verdict_key(v->cause));
	jset_str(x, "title", v->title);
	jset_str(x, "why", v->why);
	if (v->fix)
		jset_str(x, "fix", v->fix);
	else
		jset(x, "fix", NULL);
	jset_str(x, "top", verdict_part_name(v->top));
	jset_str(x, "second", verdict_part_name(v->second));
	jset_str(x, "path", verdict_path_key(v->path));
	jset(out, "verdict", x);
	/* keyed as "parts" is: no spaces in a key */
	x = jnew();
	for (p = 0; p < NR_PARTS; p++)
		jset_sig(x, verdict_part_key(p), us(v->part_ns[p]), 6);
	jset_sig(x, "total", us(v->total_ns), 6);
	jset(out, "parts_us", x);
	/* per part: the mean the verdict used, and per connection p50/p99 */
	x = jnew();
	for (p = 0; p < NR_PARTS; p++) {
		const struct part_dist *d = analysis_part_dist(a, p);

		y = jnew();
		jset_sig(y, "mean_us", us(v->part_ns[p]), 6);
		jset_sig(y, "p50_us", us(d ? d->p50 : NAN), 6);
		jset_sig(y, "p99_us", us(d ? d->p99 : NAN), 6);
		jset(x, verdict_part_key(p), y);
	}
	for (p = 0; p < 2; p++) {
		const struct part_dist *h = &a->hp[p ? HP_STACK : HP_TCP];

		y = jnew();
		jset_sig(y, "handshakes", h->n, 6);
		jset_sig(y, "mean_us", us(h->mean), 6);
		jset_sig(y, "p50_us", us(h->p50), 6);
		jset_sig(y, "p99_us", us(h->p99), 6);
		jset(x, p ? "syn_accept" : "connect_accept", y);
	}
	jset(out, "parts", x);
	x = jnew();
	jset_sig(x, "handshakes", a->q.handshakes, 6);
	jset_sig(x, "acceptors", a->q.acceptors, 6);
	jset_sig(x, "wait_share", a->part_share[PART_ACCEPT], 6);
	jset_bool(x, "states", a->q.states);
	/* the split's keys beside share and asleep, as format 2 had them */
	y = tee_split_json(&e->acc.split);
	jset_sig(y, "share", e->acc.tee, 6);
	jset_sig(y, "asleep", e->acc.tee_asleep, 6);
	jset(x, "tee", y);
	y = jnew();
	for (p = 0; p < NR_AQ_PARTS; p++)
		jset_sig(y, acceptq_part_key(p), a->aq_share[p], 6);
	jset(x, "time", y);
	jset(out, "accept_queue", x);
	x = jnew();
	jset_sig(x, "handshakes", e->handshakes, 6);
	jset_sig(x, "client_handshakes", a->client_handshakes, 6);
	jset_sig(x, "netrx_wait_us", us(e->netrx_wait_ns), 6);
	jset_sig(x, "syn_synack_us", us(e->syn_synack_ns), 6);
	jset_sig(x, "synack_ack_us", us(e->synack_ack_ns), 6);
	jset_sig(x, "ack_accept_us", us(e->ack_accept_ns), 6);
	jset_sig(x, "tee_calls", a->sum.tee_calls, 6);
	jset_sig(x, "acceptor_threads", a->acceptors, 6);
	jset_sig(x, "acceptor_tee_calls", a->acceptor_calls, 6);
	jset_sig(x, "tee_per_handshake_us", us(e->tee_per_hs_ns), 6);
	jset_sig(x, "tee_blocked_share", e->tee_blocked_share, 6);
	jset_sig(x, "tee_setup_share", e->tee.setup, 6);
	jset(x, "tee_split", tee_split_json(&e->tee));
	jset_bool(x, "secure_timed", a->secure_timed);
	jset_sig(x, "tee_oncpu_share", e->tee_oncpu_share, 6);
	jset_sig(x, "ksoftirqd_share", e->ksoftirqd_share, 6);
	jset_sig(x, "tee_wait_share", e->tee_wait_share, 6);
	jset_sig(x, "tee_wait_runs", a->tee_wait_runs, 6);
	jset_sig(x, "netrx_per_s", a->sum.netrx_per_s, 6);
	jset_sig(x, "rx_packets_per_s", a->sum.rx_packets_per_s, 6);
	jset_sig(x, "handshakes_per_s", a->sum.handshakes_per_s, 6);
	jset_sig(x, "untracked_handshakes", a->sum.untracked, 6);
	jset_sig(x, "tcp_hook_missed", a->sum.tcp_missed, 6);
	jset_sig(x, "syn_wait_us", us(e->syn_wait_ns), 6);
	jset_sig(x, "ack_wait_us", us(e->ack_wait_ns), 6);
	jset_bool(x, "counters_comparable", !a->counters_note);
	jset(out, "evidence", x);
	list = jnew_array();
	for (p = 0; p < NR_LINKS; p++) {
		const struct link *l = &a->links[p];

		z = jnew();
		jset_str(z, "link", l->key);
		jset_sig(z, "r", l->best.r, 6);
		jset_sig(z, "lag", l->best.lag, 6);
		jset_sig(z, "rank", l->rank, 6);
		jset_sig(z, "windows", l->best.n, 6);
		jappend(list, z);
	}
	jset(out, "links", list);
	list = jnew_array();
	for (c = 0; c < a->s.ncpus; c++) {
		const struct cpu_row *r = &a->cpus[c];

		z = jnew();
		jset_int(z, "cpu", c);
		jset_sig(z, "netrx_runs", r->runs, 6);
		jset_sig(z, "packets", r->packets, 6);
		jset_sig(z, "wait_us", us(r->wait_mean_ns), 6);
		jset_sig(z, "tee_oncpu_share", r->tee_oncpu_share, 6);
		jset_sig(z, "r_tee_netrx", r->r, 6);
		jappend(list, z);
	}
	jset(out, "cpus", list);
	jprint(out);
}
