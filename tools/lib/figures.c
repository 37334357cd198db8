// SPDX-License-Identifier: GPL-2.0
/*
 * figures.c - the chain's headline figures between two snapshots, and a
 * session's summary (see figures.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "delta.h"
#include "figures.h"
#include "session.h"
#include "snapshot.h"
#include "hist.h"

/* figures_netrx - NET_RX runs, their ksoftirqd share and inline delay */
static void figures_netrx(const struct snapshot *a, const struct snapshot *b,
			  struct figures *f)
{
	double bucket[HIST_BUCKETS];
	struct tables tb;

	tables_load(&tb, a, b, "netrx_stats");
	f->netrx_runs = tb.ok ? tables_delta(&tb, "all", NULL, "runs") : NAN;
	/*
	 * per run, the packets napi handed over in it (the module's count,
	 * as report's pkt/run and the Prometheus rule): the NICs' rate of
	 * /proc/net/dev counts other namespaces' NICs out and their own in
	 */
	f->packets_per_run = tb.ok ? share(tables_delta(&tb, "all", NULL,
							"packets"),
					   f->netrx_runs) : NAN;
	f->ksoftirqd_share = share(tables_delta(&tb, "all", NULL,
						"ksoftirqd_runs"), f->netrx_runs);
	tables_load(&tb, a, b, "netrx_hist");
	tables_hist_delta(&tb, "inline_delay", "all", bucket);
	f->inline_delay_p99_ns = tb.ok ? tables_hist_pct(&tb, bucket, 0, 99) : NAN;
	f->netrx_per_s = rate(f->netrx_runs, f->seconds);
	f->rx_packets_per_s = snapshot_text(b, "net_dev") ?
		rate(derive_nic_rx(a, b, NULL), f->seconds) : NAN;
}

/*
 * figures_tee - TEE ioctls of every command but tee-supplicant's: calls,
 * time, blocked share, p99
 */
static void figures_tee(const struct snapshot *a, const struct snapshot *b,
			struct figures *f)
{
	double bucket[HIST_BUCKETS] = { 0 }, one[HIST_BUCKETS];
	double calls = 0, total = 0, off = 0;
	struct tables tb, th;
	const char *cmd;
	int i, j;

	tables_load(&tb, a, b, "tee_stats");
	tables_load(&th, a, b, "tee_hist");
	for (i = 0; tb.ok && i < tb.t[1]->nrows; i++) {
		if (tb.t[1]->ncols < 2 || strcmp(tb.t[1]->rows[i].field[0], "all"))
			continue;
		cmd = tb.t[1]->rows[i].field[1];
		/*
		 * tee-supplicant's own loop is not a TEE call anyone waits
		 * for: SUPPL_RECV sleeps until the secure world wants it
		 * (seconds at a time, OP-TEE's hosts' most blocked "call")
		 */
		if (!strncmp(cmd, "SUPPL_", 6))
			continue;
		calls += tables_delta(&tb, "all", cmd, "calls");
		total += tables_delta(&tb, "all", cmd, "total_ns");
		off += tables_delta(&tb, "all", cmd, "offcpu_ns");
		tables_hist_delta(&th, cmd, "all", one);
		for (j = 0; j < HIST_BUCKETS; j++)
			bucket[j] += one[j];
	}
	f->tee_calls_per_s = tb.ok ? rate(calls, f->seconds) : NAN;
	f->tee_blocked_share = tb.ok ? share(off, total) : NAN;
	f->tee_mean_ns = calls > 0 ? total / calls : NAN;
	f->tee_calls = tb.ok ? calls : NAN;
	f->tee_total_ns = tb.ok ? total : NAN;
	f->tee_p99_ns = tb.ok ? tables_hist_pct(&th, bucket, 0, 99) : NAN;
}

/* figures_tcp - handshakes accepted, their phases' p99, probes missed */
static void figures_tcp(const struct snapshot *a, const struct snapshot *b,
			struct figures *f)
{
	double bucket[HIST_BUCKETS], accepted = 0, untracked = 0;
	struct tables tb;
	int i;

	tables_load(&tb, a, b, "tcp_stats");
	for (i = 0; tb.ok && i < tb.t[1]->nrows; i++) {
		if (tb.t[1]->ncols < 2 || strcmp(tb.t[1]->rows[i].field[0], "all"))
			continue;
		accepted += tables_delta(&tb, "all", tb.t[1]->rows[i].field[1], "accepted");
		untracked += tables_delta(&tb, "all", tb.t[1]->rows[i].field[1],
					  "untracked");
	}
	f->handshakes_per_s = tb.ok ? rate(accepted, f->seconds) : NAN;
	f->accepted = tb.ok ? accepted : NAN;
	f->untracked = tb.ok ? untracked : NAN;
	tables_load(&tb, a, b, "tcp_hist");
	/* every port (NULL) of the phase */
	tables_hist_keyed_delta(&tb, (const char *[]){ NULL, "syn_synack" }, 2,
				"all", bucket);
	f->syn_synack_p99_ns = tb.ok ? tables_hist_pct(&tb, bucket, 0, 99) : NAN;
	tables_hist_keyed_delta(&tb, (const char *[]){ NULL, "ack_accept" }, 2,
				"all", bucket);
	f->ack_accept_p99_ns = tb.ok ? tables_hist_pct(&tb, bucket, 0, 99) : NAN;
	tables_load(&tb, a, b, "tcp_probes");
	f->tcp_missed = tb.ok ? 0 : NAN;
	for (i = 0; tb.ok && i < tb.t[1]->nrows; i++)
		f->tcp_missed += tables_delta(&tb, tb.t[1]->rows[i].field[0], NULL,
						      "nmissed");
	f->passive_opens_per_s = snapshot_text(b, "snmp") ?
		rate(derive_snmp(a, b, "snmp", "PassiveOpens"), f->seconds) : NAN;
}

/*
 * figures_compute - the figures between snapshots @a and @b, rates over
 * @seconds (derive_seconds() of them, or a session's own length)
 */
void figures_compute(const struct snapshot *a, const struct snapshot *b,
		     double seconds, struct figures *f)
{
	double pct[5];

	memset(f, 0, sizeof(*f));
	f->seconds = seconds;
	f->system_pct = f->softirq_pct = NAN;
	if (derive_cpu(a, b, "cpu", pct)) {
		f->system_pct = pct[1];
		f->softirq_pct = pct[2];
	}
	figures_netrx(a, b, f);
	figures_tee(a, b, f);
	figures_tcp(a, b, f);
}

/*
 * phase_mean - the mean of one phase over the handshake events of its side
 * (@client), in the file's order; NAN when there are none
 */
static double phase_mean(const struct session *s, bool client,
			 size_t offset)
{
	double total = 0;
	size_t i, n = 0;

	for (i = 0; i < s->ev.nhs; i++) {
		if (s->ev.hs[i].client != client)
			continue;
		total += *(const unsigned long long *)
			 ((const char *)&s->ev.hs[i] + offset);
		n++;
	}
	return n ? total / n : NAN;
}

#define PHASE_MEAN(s, client, field) \
	phase_mean(s, client, offsetof(struct hs_event, field))

/*
 * syn_wait_mean - the mean NET_RX wait of the server handshakes' SYNs, over
 * the events that carry it; NAN when none does (an earlier module's files)
 */
static double syn_wait_mean(const struct session *s)
{
	double total = 0;
	size_t i, n = 0;

	for (i = 0; i < s->ev.nhs; i++) {
		if (s->ev.hs[i].client || !s->ev.hs[i].has_waits)
			continue;
		total += s->ev.hs[i].syn_wait_ns;
		n++;
	}
	return n ? total / n : NAN;
}

/* figures_hs_means - the handshakes' phase means, from @ses's events */
void figures_hs_means(const struct session *ses, struct hs_means *m)
{
	m->syn_synack_ns = PHASE_MEAN(ses, false, syn_synack_ns);
	m->synack_ack_ns = PHASE_MEAN(ses, false, synack_ack_ns);
	m->ack_accept_ns = PHASE_MEAN(ses, false, ack_accept_ns);
	m->connect_ns = PHASE_MEAN(ses, true, connect_ns);
	m->syn_wait_ns = syn_wait_mean(ses);
}

/* figures_summarize - the headline figures of session @ses */
void figures_summarize(const struct session *ses, struct session_summary *sum)
{
	struct hs_means m;

	figures_hs_means(ses, &m);
	figures_summarize_with(ses, &m, sum);
}

/*
 * figures_summarize_with - the same, with the handshakes' phase means @m
 * (figures_hs_means(), or added up as the events streamed by)
 */
void figures_summarize_with(const struct session *ses,
			    const struct hs_means *m,
			    struct session_summary *sum)
{
	struct figures f;

	figures_compute(&ses->snap[0], &ses->snap[1], session_seconds(ses), &f);
	sum->seconds = f.seconds;
	sum->system_pct = f.system_pct;
	sum->softirq_pct = f.softirq_pct;
	sum->netrx_per_s = f.netrx_per_s;
	sum->rx_packets_per_s = f.rx_packets_per_s;
	sum->packets_per_run = f.packets_per_run;
	sum->inline_delay_p99_ns = f.inline_delay_p99_ns;
	sum->ksoftirqd_share = f.ksoftirqd_share;
	sum->tee_calls_per_s = f.tee_calls_per_s;
	sum->tee_blocked_share = f.tee_blocked_share;
	sum->tee_mean_ns = f.tee_mean_ns;
	sum->tee_calls = f.tee_calls;
	sum->tee_total_ns = f.tee_total_ns;
	sum->handshakes_per_s = f.handshakes_per_s;
	sum->accepted = f.accepted;
	sum->untracked = f.untracked;
	sum->tcp_missed = f.tcp_missed;
	sum->syn_synack_ns = m->syn_synack_ns;
	sum->synack_ack_ns = m->synack_ack_ns;
	sum->ack_accept_ns = m->ack_accept_ns;
	sum->connect_ns = m->connect_ns;
	sum->syn_accept_ns = sum->syn_synack_ns + sum->synack_ack_ns +
			     sum->ack_accept_ns;
	sum->tee_per_hs_ns = sum->accepted > 0 ?
			     sum->tee_total_ns / sum->accepted : NAN;
	sum->syn_wait_ns = m->syn_wait_ns;
	sum->client_handshake_ns = sum->syn_accept_ns +
		(isnan(sum->syn_wait_ns) ? 0 : sum->syn_wait_ns) +
		(isnan(sum->tee_per_hs_ns) ? 0 : sum->tee_per_hs_ns);
}
