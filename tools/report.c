// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - "teeprobe report": read a recorded session (libtracecmd and
 * libtraceevent) and print, per link of the chain, the numbers behind it.
 *
 * Two sources, both inside the trace.dat: the events (every TEE ioctl's
 * exit, the NET_RX window summaries) and the start and end snapshots that
 * "teeprobe record" writes as markers (the module's debugfs counters and
 * histograms, /proc/stat, /proc/softirqs, /proc/net/dev and the Tcp
 * counters). Totals and rates come from the snapshots when the file has
 * them; TEE latency percentiles from the events (exact) or else from the
 * histograms (interpolated within a log-linear bucket, 12.5 % wide; upper
 * bounds from an older module's log2 ones).
 *
 * Every number is computed once into struct report (report.h); the text
 * (report_text.c) and the JSON (report_json.c) only read it.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module/abi.h"
#include "delta.h"
#include "table.h"
#include "module.h"
#include "report.h"
#include "report_events.h"
#include "session.h"
#include "snapshot.h"
#include "hist.h"
#include "teeprobe.h"
#include "utils.h"
#include "watch_rule.h"

#define MAX_CPUS	SESSION_MAX_CPUS

/* The phases' names, as the module's files give them */
/* The order phases are shown in: a handshake's own, then the client's */
static const int phase_order[NR_PHASES] = {
	PH_SYN_WAIT, PH_SYN_SYNACK, PH_SYNACK_ACK, PH_ACK_WAIT, PH_ACK_ACCEPT,
	PH_CONNECT, PH_CONNECT_CALL
};

/* report_usage - help for teeprobe report */
static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe report [--json] [--no-hist] [--no-header] [-i FILE | FILE]\n\n"
		"  -i, --input FILE   trace.dat to read (default: trace.dat); or FILE\n"
		"      --json         one JSON object with the same numbers\n"
		"      --no-hist      leave out the histograms\n"
		"      --no-header    histograms without their header lines\n\n"
		"Prints, from a session recorded with 'teeprobe record': the CPU\n"
		"context (%%system, %%softirq), TEE ioctls by command (calls,\n"
		"latency percentiles, blocked share, top threads), NET_RX per CPU\n"
		"(runs/s against packets/s, raise->entry delay percentiles,\n"
		"ksoftirqd share, re-raises), TCP handshake phases per port and\n"
		"the kernel's TCP counters, lost events, and the\n"
		"delay histograms with one column per CPU. A trace.dat recorded\n"
		"with 'trace-cmd record -e teeprobe' gives what its events hold.\n");
}

/* snap_value - the number a one-line snapshot source holds */
static double snap_value(const struct snapshot *s, const char *source)
{
	const char *t = snapshot_text(s, source);

	return t ? strtod(t, NULL) : 0;
}

/* ---- the numbers ----------------------------------------------------------- */

/* compute_context - the CPU context, all CPUs and each */
static void compute_context(struct report *out, const struct snapshot *snap)
{
	double pct[5];
	char name[16];
	int cpu;

	out->cpu_ok = derive_cpu(&snap[0], &snap[1], "cpu", out->cpu_all);
	if (!out->cpu_ok)
		return;
	out->cpus = xzalloc((out->ncpus > 0 ? out->ncpus : 1) *
			    sizeof(*out->cpus));
	for (cpu = 0; cpu < out->ncpus; cpu++) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		if (!derive_cpu(&snap[0], &snap[1], name, pct))
			continue;
		out->cpus[out->nr_cpus].cpu = cpu;
		memcpy(out->cpus[out->nr_cpus].pct, pct, sizeof(pct));
		out->nr_cpus++;
	}
}

/* cmp_thread - longest total time first */
static int cmp_thread(const void *a, const void *b)
{
	const struct thread_events *x = a, *y = b;

	return x->total_ns < y->total_ns ? 1 : x->total_ns > y->total_ns ? -1 : 0;
}

/* compute_tee - TEE ioctls by command, then the top threads */
static void compute_tee(struct report *out, struct report_events *r)
{
	struct tables tb = { 0 };
	bool from_snap;
	double calls, total, off, runq, qw, errors, p50, p99, max;
	double sec_n, sec_ns;
	double bucket[HIST_BUCKETS];
	struct report_tee_cmd *x;
	struct cmd_events *c;
	int i, row, n;

	tables_load(&tb, &r->snap[0], &r->snap[1], "tee_stats");
	from_snap = tb.ok;
	out->tee_from_snapshots = from_snap;
	out->tee_exact = r->nr_cmds;
	n = from_snap ? tb.t[1]->nrows : r->nr_cmds;
	out->tee_candidates = n;
	out->tee_cmds = xzalloc((n > 0 ? n : 1) * sizeof(*out->tee_cmds));
	for (i = 0; i < n; i++) {
		const char *name;

		c = NULL;
		if (from_snap) {
			row = i;
			if (tb.t[1]->ncols < 2 ||
			    strcmp(tb.t[1]->rows[row].field[0], "all"))
				continue;
			name = tb.t[1]->rows[row].field[1];
			calls = tables_delta(&tb, "all", name, "calls");
			errors = tables_delta(&tb, "all", name, "errors");
			total = tables_delta(&tb, "all", name, "total_ns");
			off = tables_delta(&tb, "all", name, "offcpu_ns");
			runq = tables_delta(&tb, "all", name, "runq_ns");
			qw = tables_delta(&tb, "all", name, "queue_wait_ns");
			/* a module before the secure split has no such columns */
			sec_n = fmax(tables_delta(&tb, "all", name, "secure_entries"), 0);
			sec_ns = fmax(tables_delta(&tb, "all", name, "secure_ns"), 0);
			for (row = 0; row < r->nr_cmds; row++)
				if (!strcmp(r->cmds[row].name, name))
					c = &r->cmds[row];
		} else {
			c = &r->cmds[i];
			name = c->name;
			calls = c->duration.n;
			errors = c->errors;
			total = c->total_ns;
			off = c->offcpu_ns;
			runq = c->runq_ns;
			qw = c->queue_wait_ns;
			sec_n = sec_ns = 0;
		}
		if (calls <= 0)
			continue;
		if (c && c->duration.n) {
			p50 = c->duration.p50;
			p99 = c->duration.p99;
			max = c->duration.max;
		} else {
			struct tables th = { 0 };

			tables_load(&th, &r->snap[0], &r->snap[1], "tee_hist");
			out->tee_layout = th.layout;
			max = tables_delta(&tb, "all", name, "max_ns");
			if (max < 0)
				max = modstats_get(tb.t[1], "all", name, "max_ns");
			tables_hist_delta(&th, name, "all", bucket);
			p50 = tables_hist_pct(&th, bucket, max, 50);
			p99 = tables_hist_pct(&th, bucket, max, 99);
		}
		x = &out->tee_cmds[out->nr_tee_cmds++];
		x->name = xstrdup(name);
		x->calls = calls;
		x->calls_per_s = rate(calls, out->seconds);
		x->errors = errors;
		x->total_ns = total;
		x->offcpu_ns = off;
		x->runq_ns = runq;
		x->queue_wait_ns = qw;
		x->secure_entries = sec_n;
		x->secure_ns = sec_ns;
		x->mean_ns = total / calls;
		x->p50_ns = p50;
		x->p99_ns = p99;
		x->max_ns = max;
		x->blocked_share = share(off, total);
		x->runq_share = share(runq, total);
		x->oncpu_share = share(total - off - runq, total);
		x->queue_wait_share = share(qw, total);
		if (sec_n > 0) {
			x->secure_per_call = sec_n / calls;
			x->secure_mean_ns = sec_ns / sec_n;
			x->secure_share = share(sec_ns, total);
			/*
			 * the rest of the call, the normal world's: not in
			 * the secure world and not waiting for a thread of
			 * it (teesim's secure side may work while its caller
			 * sleeps: not the on-CPU time less the secure)
			 */
			x->normal_share = share(fmax(total - qw - sec_ns, 0), total);
		}
	}
	qsort(r->threads, r->nr_threads, sizeof(r->threads[0]), cmp_thread);
	for (i = 0; i < r->nr_threads && i < REPORT_TOP_THREADS; i++) {
		struct report_thread *t = &out->threads[i];

		t->tid = r->threads[i].tid;
		memcpy(t->comm, r->threads[i].comm, sizeof(t->comm));
		t->calls = r->threads[i].calls;
		t->total_ns = r->threads[i].total_ns;
		t->offcpu_ns = r->threads[i].offcpu_ns;
		t->blocked_share = share(t->offcpu_ns, t->total_ns);
	}
	out->nr_threads = i;
	out->threads_overflow = r->threads_overflow;
}

/* netrx_stats' COUNT columns (abi.h), as report_json.c writes them */
#define NETRX_COUNT(name, kind, ...) NETRX_COUNT_##kind(name)
#define NETRX_COUNT_COUNT(name) { #name, REPORT_NETRX_##name },
#define NETRX_COUNT_NS(name)
#define NETRX_COUNT_MAX(name)
#define NETRX_COUNT_DELAY(name)
static const struct {
	const char *name;
	enum report_netrx_col col;
} netrx_counts[] = { TEEPROBE_NETRX_STATS_COLS(NETRX_COUNT) };

/* netrx_compute - one CPU's (or "all"'s) from netrx_stats and netrx_hist */
static void netrx_compute(const struct tables *st, const struct tables *hi,
			  const char *cpu, struct report_netrx_cpu *x)
{
	double bucket[HIST_BUCKETS];
	char col[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(netrx_counts); i++) {
		const char *name = netrx_counts[i].name;

		/* A column the session's module did not have is unknown. */
		x->count[netrx_counts[i].col] = modstats_col(st->t[1], name) < 0 ?
			NAN : tables_delta(st, cpu, NULL, name);
	}
	snprintf(col, sizeof(col), strcmp(cpu, "all") ? "cpu%s" : "%s", cpu);
	/* Maxima are not differences: the end's max bounds the session's. */
	x->inline_ns[2] = modstats_get(st->t[1], cpu, NULL, "inline_delay_max_ns");
	x->ksoftirqd_ns[2] = modstats_get(st->t[1], cpu, NULL,
				       "ksoftirqd_delay_max_ns");
	tables_hist_delta(hi, "inline_delay", col, bucket);
	x->inline_ns[0] = tables_hist_pct(hi, bucket, x->inline_ns[2], 50);
	x->inline_ns[1] = tables_hist_pct(hi, bucket, x->inline_ns[2], 99);
	tables_hist_delta(hi, "ksoftirqd_delay", col, bucket);
	x->ksoftirqd_ns[0] = tables_hist_pct(hi, bucket, x->ksoftirqd_ns[2], 50);
	x->ksoftirqd_ns[1] = tables_hist_pct(hi, bucket, x->ksoftirqd_ns[2], 99);
}

/* compute_netrx - NET_RX per CPU: the module's counters, else the windows */
static void compute_netrx(struct report *out, const struct report_events *r)
{
	struct tables st = { 0 }, hi = { 0 };
	struct report_netrx_cpu *x;
	char cpu[16];
	double runs;
	int i;

	for (i = 0; i < MAX_CPUS; i++)
		out->netrx_windows_seen += r->win[i].windows;
	out->netrx_late_known = r->late_known;
	out->netrx_windows_late = r->late;
	out->netrx_windows_late_max_ns = r->late_max_ns;
	tables_load(&st, &r->snap[0], &r->snap[1], "netrx_stats");
	tables_load(&hi, &r->snap[0], &r->snap[1], "netrx_hist");
	out->netrx_layout = hi.layout;
	out->netrx_from_snapshots = st.ok;
	if (!st.ok) {
		/* A plain trace-cmd recording: the windows are all there is. */
		out->netrx_windows = xzalloc(MAX_CPUS * sizeof(*out->netrx_windows));
		for (i = 0; i < MAX_CPUS; i++) {
			const struct netrx_windows *w = &r->win[i];
			struct report_netrx_windows *y;
			double span = w->last_end - w->first_start;

			if (!w->windows)
				continue;
			y = &out->netrx_windows[out->nr_netrx_windows++];
			y->cpu = i;
			y->windows = w->windows;
			y->runs = w->runs;
			y->packets = w->packets;
			y->runs_per_s = rate(w->runs, span);
			y->packets_per_s = rate(w->packets, span);
			y->ksoftirqd_share = share(w->ksoftirqd_runs, w->runs);
		}
		return;
	}
	out->netrx_cpus = xzalloc((out->ncpus > 0 ? out->ncpus + 1 : 1) *
				  sizeof(*out->netrx_cpus));
	for (i = 0; i <= out->ncpus; i++) {
		if (i == out->ncpus)
			snprintf(cpu, sizeof(cpu), "all");
		else
			snprintf(cpu, sizeof(cpu), "%d", i);
		if (modstats_find(st.t[1], cpu, NULL) < 0)
			continue;
		x = &out->netrx_cpus[out->nr_netrx_cpus++];
		snprintf(x->cpu, sizeof(x->cpu), "%s", cpu);
		netrx_compute(&st, &hi, cpu, x);
		runs = x->count[REPORT_NETRX_runs];
		x->runs_per_s = rate(runs, out->seconds);
		x->raises_per_s = rate(x->count[REPORT_NETRX_raises], out->seconds);
		x->packets_per_s = rate(x->count[REPORT_NETRX_packets], out->seconds);
		x->packets_per_run = share(x->count[REPORT_NETRX_packets], runs);
		x->ksoftirqd_share = share(x->count[REPORT_NETRX_ksoftirqd_runs], runs);
	}
}

/* compute_nics - receive count of every interface that received packets */
static void compute_nics(struct report *out, const struct snapshot *snap)
{
	const char *end = snapshot_text(&snap[1], "net_dev");
	char *copy, *line, *save = NULL, dev[64];
	struct report_nic *nic;
	int cap = 0;
	double b;

	out->nics_ok = end;
	copy = xstrdup(end ? end : "");
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " %63[^:]:", dev) != 1 || strchr(dev, '|'))
			continue;
		b = derive_nic_rx(&snap[0], &snap[1], dev);
		if (b <= 0)
			continue;
		if (out->nr_nics == cap) {
			cap = cap ? 2 * cap : 8;
			out->nics = realloc(out->nics, cap * sizeof(*out->nics));
			if (!out->nics)
				fatal("out of memory\n");
		}
		nic = &out->nics[out->nr_nics++];
		snprintf(nic->dev, sizeof(nic->dev), "%s", dev);
		nic->rx_packets = b - 0;
		nic->rx_packets_per_s = rate(b - 0, out->seconds);
	}
	free(copy);
}

/* compute_tcp - the kernel's own TCP counters over the session */
static void compute_tcp(struct report *out, const struct snapshot *snap)
{
	static const struct { const char *src, *name; } c[REPORT_TCP_COUNTERS] = {
		{ "snmp", "PassiveOpens" }, { "snmp", "ActiveOpens" },
		{ "snmp", "AttemptFails" }, { "snmp", "RetransSegs" },
		{ "netstat", "ListenOverflows" }, { "netstat", "ListenDrops" },
		{ "netstat", "TCPSynRetrans" }, { "netstat", "TCPReqQFullDrop" },
	};
	unsigned int i;

	out->tcp_ok = snapshot_text(&snap[1], "snmp");
	if (!out->tcp_ok)
		return;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		double d = derive_snmp(&snap[0], &snap[1], c[i].src, c[i].name);

		out->tcp[i].name = c[i].name;
		out->tcp[i].count = d;
		out->tcp[i].per_s = rate(d, out->seconds);
	}
}

/* compute_port - the counters and phases of @port from the module's tables */
static void compute_port(struct report_port *y, const struct tables *tb,
			 const struct tables *th, const struct snapshot *snap,
			 const char *port, double seconds)
{
	static const char *const counters[REPORT_PORT_COUNTERS] = {
		"syns", "synacks", "syn_drops", "listen_overflows",
		"synack_retrans", "req_drops", "accepted", "untracked",
		"connects", "connected", "connect_failed",
	};
	double bucket[HIST_BUCKETS], count, sum, max;
	const struct modstats_phase *ph[2];
	struct report_port_phase *x;
	const char *keys[2];
	unsigned int k;
	int p, q;

	y->port = xstrdup(port);
	for (k = 0; k < ARRAY_SIZE(counters); k++) {
		y->counters[k].name = counters[k];
		y->counters[k].count = tables_delta(tb, "all", port, counters[k]);
	}
	for (q = 0; q < NR_PHASES; q++) {
		p = phase_order[q];
		ph[0] = modstats_phase(&snap[0], port, p);
		ph[1] = modstats_phase(&snap[1], port, p);
		/* a phase without a line is all zeros */
		count = (ph[1] ? ph[1]->count : 0.0) - (ph[0] ? ph[0]->count : 0.0);
		sum = (ph[1] ? ph[1]->sum_ns : 0.0) - (ph[0] ? ph[0]->sum_ns : 0.0);
		max = ph[1] ? ph[1]->max_ns : 0;
		if (count <= 0)
			continue;
		keys[0] = port;
		keys[1] = teeprobe_tcp_phase_name(p);
		tables_hist_keyed_delta(th, keys, 2, "all", bucket);
		x = &y->phases[y->nr_phases++];
		x->name = teeprobe_tcp_phase_name(p);
		x->count = count;
		x->per_s = rate(count, seconds);
		x->sum_ns = sum;
		x->mean_ns = sum / count;
		x->p50_ns = tables_hist_pct(th, bucket, max, 50);
		x->p99_ns = tables_hist_pct(th, bucket, max, 99);
		x->max_ns = max;
	}
}

/* compute_handshakes - TCP handshake phases per port, then from the events */
static void compute_handshakes(struct report *out, struct report_events *r)
{
	struct tables tb = { 0 }, th = { 0 };
	struct report_event_phase *e;
	int i, p, q;

	tables_load(&tb, &r->snap[0], &r->snap[1], "tcp_stats");
	tables_load(&th, &r->snap[0], &r->snap[1], "tcp_hist");
	out->tcp_layout = th.layout;
	if (tb.ok)
		out->ports = xzalloc((tb.t[1]->nrows > 0 ? tb.t[1]->nrows : 1) *
				     sizeof(*out->ports));
	for (i = 0; tb.ok && i < tb.t[1]->nrows; i++) {
		if (tb.t[1]->ncols < 2 || strcmp(tb.t[1]->rows[i].field[0], "all"))
			continue;
		compute_port(&out->ports[out->nr_ports++], &tb, &th, r->snap,
			     tb.t[1]->rows[i].field[1], out->seconds);
	}
	out->handshakes[0] = r->handshakes[0];
	out->handshakes[1] = r->handshakes[1];
	for (q = 0; q < NR_PHASES; q++) {
		const struct quantile *x = &r->phase[phase_order[q]];

		p = phase_order[q];
		if (!x->n)
			continue;
		e = &out->event_phases[out->nr_event_phases++];
		e->name = teeprobe_tcp_phase_name(p);
		e->count = x->n;
		e->mean_ns = x->sum / x->n;
		e->p50_ns = x->p50;
		e->p99_ns = x->p99;
		e->max_ns = x->max;
	}
}

/* compute_hist - one histogram set, a column per CPU and one for all */
static void compute_hist(struct report_hist *h, const struct snapshot *snap,
			 const char *source, const char *key, const char *title,
			 int ncpus)
{
	struct tables tb = { 0 };
	char col[16];
	int c, ncol = ncpus + 1;

	h->title = title;
	if (ncol > REPORT_HIST_COLUMNS)
		ncol = REPORT_HIST_COLUMNS;
	h->ncol = ncol;
	tables_load(&tb, &snap[0], &snap[1], source);
	if (!tb.ok)
		return;
	for (c = 0; c < ncol; c++) {
		if (c == ncol - 1)
			snprintf(col, sizeof(col), "all");
		else
			snprintf(col, sizeof(col), "cpu%d", c);
		h->total[c] = tables_hist_delta(&tb, key, col, h->bucket[c]);
	}
	h->layout = tb.layout;
	h->shown = ncol > 0 && h->total[ncol - 1] > 0;
}

/* probes_missed - the kretprobe hits the module's @source table missed */
static double probes_missed(const struct snapshot *snap, const char *source)
{
	struct tables tp = { 0 };
	double missed = 0;
	int i;

	tables_load(&tp, &snap[0], &snap[1], source);
	for (i = 0; tp.ok && i < tp.t[1]->nrows; i++)
		missed += tables_delta(&tp, tp.t[1]->rows[i].field[0], NULL, "nmissed");
	return missed;
}

/* compute_session - what the report's head shows: size, events, losses */
static void compute_session(struct report *out, const struct report_events *r)
{
	const struct session *s = r->s;
	struct tables ts = { 0 };
	unsigned long long u[2];
	int i;

	out->seconds = session_seconds(s);
	out->ncpus = (int)snap_value(&r->snap[1], "nproc");
	if (out->ncpus <= 0) {
		for (i = 0; i < MAX_CPUS; i++)
			if (r->win[i].windows)
				out->ncpus = i + 1;
	}
	out->uname = snapshot_text(&r->snap[1], "uname");
	out->snapshots = snapshot_text(&r->snap[1], "time");
	out->kinds = s->kinds;
	out->nr_kinds = s->nr_kinds;
	out->other_events = s->other_events;
	out->missed_events = s->missed_events;
	out->ring_losses = snap_value(&r->snap[1], "ring_losses");
	out->counters_note = session_counters_note(s);
	out->capture = snapshot_text(&r->snap[0], "capture");
	out->before_start = s->before_start;
	out->tee_missed = probes_missed(r->snap, "tee_probes");
	out->tcp_missed = probes_missed(r->snap, "tcp_probes");
	tables_load(&ts, &r->snap[0], &r->snap[1], "tee_stats");
	if (ts.ok && modstats_kv_u64(ts.t[0], "untracked", &u[0]) &&
	    modstats_kv_u64(ts.t[1], "untracked", &u[1]))
		out->tee_untracked = (double)u[1] - (double)u[0];
	tables_load(&ts, &r->snap[0], &r->snap[1], "tcp_phases");
	if (ts.ok && modstats_kv_u64(ts.t[0], "phases_lost", &u[0]) &&
	    modstats_kv_u64(ts.t[1], "phases_lost", &u[1]))
		out->tcp_phases_lost = (double)u[1] - (double)u[0];
}

/* report_capture_of - the "capture" lines of @r's start snapshot, parsed */
void report_capture_of(const struct report *r, struct report_capture *c)
{
	char *copy = r->capture ? xstrdup(r->capture) : NULL, *line, *save = NULL;
	char name[32];

	c->measure = -1;
	c->value = c->threshold = NAN;
	c->run_windows = 0;
	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "measure %31s", name) == 1)
			c->measure = watch_measure_of(name);
		else if (sscanf(line, "value %lf", &c->value) == 1 ||
			 sscanf(line, "threshold %lf", &c->threshold) == 1 ||
			 sscanf(line, "run_windows %d", &c->run_windows) == 1)
			continue;
	}
	free(copy);
}

/* compute - every number of the report from the tallies @r */
static struct report *compute(struct report_events *r,
			      const struct report_opts *o)
{
	struct report *out = xzalloc(sizeof(*out));

	compute_session(out, r);
	compute_context(out, r->snap);
	compute_tee(out, r);
	compute_netrx(out, r);
	compute_nics(out, r->snap);
	compute_handshakes(out, r);
	compute_tcp(out, r->snap);
	if (o->hist) {
		compute_hist(&out->hist[out->nr_hist++], r->snap, "netrx_hist",
			     "inline_delay",
			     "NET_RX raise->entry delay, inline runs: runs per bucket",
			     out->ncpus);
		compute_hist(&out->hist[out->nr_hist++], r->snap, "netrx_hist",
			     "ksoftirqd_delay",
			     "NET_RX raise->entry delay, ksoftirqd runs: runs per bucket",
			     out->ncpus);
	}
	return out;
}

/* report_compute - every number of the report of session @s's kept events */
struct report *report_compute(const struct session *s,
			      const struct report_opts *o)
{
	struct report_events *r = xzalloc(sizeof(*r));
	struct report *out;

	report_events_build(r, s);
	out = compute(r, o);
	report_events_release(r);
	free(r);
	return out;
}

/* report_free - what report_compute() allocated */
void report_free(struct report *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < r->nr_tee_cmds; i++)
		free(r->tee_cmds[i].name);
	for (i = 0; i < r->nr_ports; i++)
		free(r->ports[i].port);
	free(r->cpus);
	free(r->tee_cmds);
	free(r->netrx_windows);
	free(r->netrx_cpus);
	free(r->nics);
	free(r->ports);
	free(r);
}

/* show - @r as text or JSON, then freed */
static void show(struct report *r, const struct report_opts *o)
{
	if (o->json)
		report_json(r, o);
	else
		report_text(r, o);
	report_free(r);
}

/* report_print - what "teeprobe report" prints of session @s */
void report_print(const struct session *s, const struct report_opts *o)
{
	show(report_compute(s, o), o);
}

/*
 * report_file - what "teeprobe report" prints of the file @o->input: its
 * events tallied in the reading child as they are read, none kept
 * (session_stream()); 0, or 1 after a message
 */
int report_file(const struct report_opts *o)
{
	struct report_events *r = xzalloc(sizeof(*r));
	struct session *s;

	s = session_stream(o->input, &report_events_visitor, r);
	if (!s) {
		free(r);
		return 1;
	}
	report_events_attach(r, s);
	show(compute(r, o), o);
	report_events_release(r);
	free(r);
	session_free(s);
	return 0;
}

/* report_main - entry point of teeprobe report */
int report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-hist", no_argument, NULL, 'H' },
		{ "no-header", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_opts o = { .input = "trace.dat", .hist = true,
				 .header = true };
	const char *in_opt = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			in_opt = optarg;
			break;
		case 'j':
			o.json = true;
			break;
		case 'H':
			o.hist = false;
			break;
		case 'N':
			o.header = false;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
		default:
			return usage_error("report", report_usage);
		}
	}
	if (input_arg("report", in_opt, argc, argv, optind, &o.input))
		return usage_error("report", report_usage);
	return report_file(&o);
}
