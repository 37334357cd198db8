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
 * histograms (upper bounds).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../module/abi.h"
#include "derive.h"
#include "modstats.h"
#include "json.h"
#include "module.h"
#include "report.h"
#include "session.h"
#include "snapshot.h"
#include "stats.h"
#include "teeprobe.h"
#include "utils.h"

#define MAX_CMDS	SESSION_MAX_CMDS
#define MAX_THREADS	SESSION_MAX_THREADS
#define MAX_CPUS	SESSION_MAX_CPUS
#define TOP_THREADS	5
/* The JSON's version: 2 since it goes through json-c (1 was printf's) */
#define REPORT_JSON_FORMAT	2

struct samples {
	unsigned long long *v;
	size_t n, cap;
};

struct cmd_events {
	unsigned int id;
	char name[32];
	struct samples duration;
	double total_ns, offcpu_ns, runq_ns, queue_wait_ns;
	unsigned long long errors;
};

struct thread_events {
	int tid;
	char comm[32];
	unsigned long long calls;
	double total_ns, offcpu_ns;
};

struct netrx_windows {
	unsigned long long windows;
	double runs, packets, raises, ksoftirqd_runs;
	double first_start, last_end;	/* seconds */
};

/* TCP handshake phases: the module's (module/abi.h), as its files name them */
enum {
	PH_SYN_SYNACK = TEEPROBE_TCP_SYN_SYNACK,
	PH_SYNACK_ACK = TEEPROBE_TCP_SYNACK_ACK,
	PH_ACK_ACCEPT = TEEPROBE_TCP_ACK_ACCEPT,
	PH_CONNECT = TEEPROBE_TCP_CONNECT,
	PH_CONNECT_CALL = TEEPROBE_TCP_CONNECT_CALL,
	PH_SYN_WAIT = TEEPROBE_TCP_SYN_WAIT,
	PH_ACK_WAIT = TEEPROBE_TCP_ACK_WAIT,
	NR_PHASES = TEEPROBE_TCP_PHASES
};
static const char *const phase_names[NR_PHASES] = { TEEPROBE_TCP_PHASE_NAMES };
/* The order phases are shown in: a handshake's own, then the client's */
static const int phase_order[NR_PHASES] = {
	PH_SYN_WAIT, PH_SYN_SYNACK, PH_SYNACK_ACK, PH_ACK_WAIT, PH_ACK_ACCEPT,
	PH_CONNECT, PH_CONNECT_CALL
};
/* phase_server - whether phase @p is a server one */
static bool phase_server(int p)
{
	return p != PH_CONNECT && p != PH_CONNECT_CALL;
}

/* A session's events in the report's tables: by command, thread, phase, CPU */
struct report {
	const struct session *s;
	const struct snapshot *snap;		/* the session's start, end */
	struct samples phase[NR_PHASES];
	unsigned long long handshakes[2];	/* server, client events */
	struct cmd_events cmds[MAX_CMDS];
	int nr_cmds;
	struct thread_events threads[MAX_THREADS];
	int nr_threads;
	unsigned long long threads_overflow;
	struct netrx_windows win[MAX_CPUS];
	struct json_object *j;		/* --json: the output, built */
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

/* report_build - @s's events into the report's tables, in the file's order */
static void report_build(struct report *r, const struct session *s)
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
		w->runs += nw->runs;
		w->raises += nw->raises;
		w->packets += nw->packets;
		w->ksoftirqd_runs += nw->ksoftirqd_runs;
	}
}

/* report_release - what report_build() allocated */
static void report_release(struct report *r)
{
	int i;

	for (i = 0; i < r->nr_cmds; i++)
		free(r->cmds[i].duration.v);
	for (i = 0; i < NR_PHASES; i++)
		free(r->phase[i].v);
}

/* snap_value - the number a one-line snapshot source holds */
static double snap_value(const struct snapshot *s, const char *source)
{
	const char *t = snapshot_text(s, source);

	return t ? strtod(t, NULL) : 0;
}

/* ---- output ---------------------------------------------------------------- */

/* cpu_pct - the five shares of CPU time @pct into @o */
static void cpu_pct(struct json_object *o, const double pct[5])
{
	static const char *const keys[5] = {
		"user", "system", "softirq", "irq", "idle"
	};
	int i;

	for (i = 0; i < 5; i++)
		jset_num(o, keys[i], pct[i], 2);
}

/* print_context - the CPU context, per CPU and all */
static void print_context(const struct report *r, int ncpus)
{
	struct json_object *all, *list, *row;
	double pct[5];
	char name[16];
	int cpu;

	if (!derive_cpu(&r->snap[0], &r->snap[1], "cpu", pct)) {
		if (r->j)
			jset(r->j, "cpu", NULL);
		else
			printf("CPU context: not in this file (record with teeprobe record)\n\n");
		return;
	}
	if (r->j) {
		all = jnew();
		cpu_pct(all, pct);
		list = jnew_array();
		for (cpu = 0; cpu < ncpus; cpu++) {
			snprintf(name, sizeof(name), "cpu%d", cpu);
			if (!derive_cpu(&r->snap[0], &r->snap[1], name, pct))
				continue;
			row = jnew();
			jset_int(row, "cpu", cpu);
			cpu_pct(row, pct);
			jappend(list, row);
		}
		row = jnew();
		jset(row, "all", all);
		jset(row, "per_cpu", list);
		jset(r->j, "cpu", row);
		return;
	}
	printf("CPU context (%% of CPU time)\n");
	printf("  %-5s %8s %8s %8s %8s %8s\n", "cpu", "%user", "%system",
	       "%softirq", "%irq", "%idle");
	printf("  %-5s %8.2f %8.2f %8.2f %8.2f %8.2f\n", "all", pct[0], pct[1],
	       pct[2], pct[3], pct[4]);
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		if (derive_cpu(&r->snap[0], &r->snap[1], name, pct))
			printf("  %-5d %8.2f %8.2f %8.2f %8.2f %8.2f\n", cpu,
			       pct[0], pct[1], pct[2], pct[3], pct[4]);
	}
	printf("\n");
}

/* cmp_thread - longest total time first */
static int cmp_thread(const void *a, const void *b)
{
	const struct thread_events *x = a, *y = b;

	return x->total_ns < y->total_ns ? 1 : x->total_ns > y->total_ns ? -1 : 0;
}

/* print_tee - TEE ioctls by command, then the top threads */
static void print_tee(struct report *r, double seconds)
{
	struct json_object *tee = NULL, *cmds = NULL;
	struct tables tb = { 0 };
	bool from_snap;
	double calls, total, off, runq, qw, errors, p50, p99, max;
	double sec_n, sec_ns;
	double bucket[HIST_BUCKETS];
	char secure[1024] = "";
	size_t secure_len = 0;
	struct cmd_events *c;
	int i, row, n;

	tables_load(&tb, &r->snap[0], &r->snap[1], "tee_stats");
	from_snap = tb.ok;
	if (r->j) {
		tee = jnew();
		cmds = jnew_array();
		jset_str(tee, "source", from_snap ? "snapshots" : "events");
	} else {
		printf("TEE ioctls by command (%s; percentiles from %s)\n"
		       "  %-14s %8s %9s %6s %10s %10s %10s %10s %8s %6s %8s %6s\n",
		       from_snap ? "counts from the module's counters" :
				   "counts from the events",
		       r->nr_cmds ? "every call's event" : "histograms, upper bounds",
		       "cmd", "calls", "calls/s", "errors", "mean_us", "p50_us",
		       "p99_us", "max_us", "blocked%", "runq%", "on-cpu%",
		       "wait%");
	}
	n = from_snap ? tb.t[1]->nrows : r->nr_cmds;
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
			sort_u64(c->duration.v, c->duration.n);
			p50 = pct_sorted(c->duration.v, c->duration.n, 50);
			p99 = pct_sorted(c->duration.v, c->duration.n, 99);
			max = c->duration.v[c->duration.n - 1];
		} else {
			struct tables th = { 0 };

			tables_load(&th, &r->snap[0], &r->snap[1], "tee_hist");
			max = tables_delta(&tb, "all", name, "max_ns");
			if (max < 0)
				max = modstats_get(tb.t[1], "all", name, "max_ns");
			tables_hist_delta(&th, name, "all", bucket);
			p50 = hist_pct(bucket, max, 50);
			p99 = hist_pct(bucket, max, 99);
		}
		if (r->j) {
			struct json_object *x = jnew();

			jset_str(x, "cmd", name);
			jset_num(x, "calls", calls, 0);
			jset_num(x, "calls_per_s", rate(calls, seconds), 2);
			jset_num(x, "errors", errors, 0);
			jset_num(x, "total_ns", total, 0);
			jset_num(x, "offcpu_ns", off, 0);
			jset_num(x, "runq_ns", runq, 0);
			jset_num(x, "queue_wait_ns", qw, 0);
			jset_num(x, "secure_entries", sec_n, 0);
			jset_num(x, "secure_ns", sec_ns, 0);
			jset_num(x, "mean_ns", total / calls, 0);
			jset_num(x, "p50_ns", p50, 0);
			jset_num(x, "p99_ns", p99, 0);
			jset_num(x, "max_ns", max, 0);
			jset_num(x, "blocked_share", share(off, total), 4);
			jappend(cmds, x);
		} else {
			printf("  %-14s %8.0f %9.1f %6.0f %10.1f %10.1f %10.1f %10.1f %8.1f %6.1f %8.1f %6.1f\n",
			       name, calls, rate(calls, seconds), errors,
			       total / calls / 1e3, p50 / 1e3, p99 / 1e3,
			       max / 1e3, 100 * share(off, total),
			       100 * share(runq, total),
			       100 * share(total - off - runq, total),
			       100 * share(qw, total));
			if (sec_n > 0 && secure_len < sizeof(secure))
				secure_len += snprintf(secure + secure_len,
						       sizeof(secure) - secure_len,
						       "  %-14s %8.0f %9.2f %10.1f %8.1f %8.1f\n",
						       name, sec_n, sec_n / calls,
						       sec_ns / sec_n / 1e3,
						       100 * share(sec_ns, total),
						       100 * share(total - off - runq - sec_ns, total));
		}
	}
	if (!r->j && !n)
		printf("  (no TEE ioctls)\n");
	if (!r->j && secure_len)
		printf("  in the secure world (entries timed by the driver's SMC probes)\n"
		       "  %-14s %8s %9s %10s %8s %8s\n%s",
		       "cmd", "entries", "per_call", "mean_us", "secure%",
		       "normal%", secure);
	qsort(r->threads, r->nr_threads, sizeof(r->threads[0]), cmp_thread);
	if (r->j) {
		struct json_object *threads = jnew_array(), *x;

		for (i = 0; i < r->nr_threads && i < TOP_THREADS; i++) {
			x = jnew();
			jset_int(x, "tid", r->threads[i].tid);
			jset_str(x, "comm", r->threads[i].comm);
			jset_int(x, "calls", r->threads[i].calls);
			jset_num(x, "total_ns", r->threads[i].total_ns, 0);
			jset_num(x, "offcpu_ns", r->threads[i].offcpu_ns, 0);
			jappend(threads, x);
		}
		jset(tee, "commands", cmds);
		jset(tee, "threads", threads);
		jset_int(tee, "threads_overflow", r->threads_overflow);
		jset(r->j, "tee", tee);
	} else if (r->nr_threads) {
		printf("  top threads by time in TEE ioctls:\n"
		       "  %-8s %-16s %8s %12s %8s\n", "tid", "comm", "calls",
		       "total_ms", "blocked%");
		for (i = 0; i < r->nr_threads && i < TOP_THREADS; i++)
			printf("  %-8d %-16s %8llu %12.1f %8.1f\n",
			       r->threads[i].tid, tstr(r->threads[i].comm),
			       r->threads[i].calls, r->threads[i].total_ns / 1e6,
			       100 * share(r->threads[i].offcpu_ns,
					   r->threads[i].total_ns));
	}
	if (!r->j && r->threads_overflow)
		printf("  (%llu calls of threads beyond the %d this report keeps: in the\n"
		       "   totals above, not in the list)\n", r->threads_overflow,
		       MAX_THREADS);
	if (!r->j)
		printf("\n");
}

/* netrx_row - the NET_RX figures of one CPU (or "all") */
struct netrx_row {
	double runs, raises, packets, ksoftirqd, reraises, budget_full;
	double inl[3], ksd[3];	/* p50, p99, max in ns */
};

/* netrx_compute - from the snapshots' netrx_stats and netrx_hist */
static void netrx_compute(const struct tables *st, const struct tables *hi,
			  const char *cpu, struct netrx_row *x)
{
	double bucket[HIST_BUCKETS];
	char col[16];

	x->runs = tables_delta(st, cpu, NULL, "runs");
	x->raises = tables_delta(st, cpu, NULL, "raises");
	x->packets = tables_delta(st, cpu, NULL, "packets");
	x->ksoftirqd = tables_delta(st, cpu, NULL, "ksoftirqd_runs");
	x->reraises = tables_delta(st, cpu, NULL, "reraises");
	x->budget_full = tables_delta(st, cpu, NULL, "budget_full");
	snprintf(col, sizeof(col), strcmp(cpu, "all") ? "cpu%s" : "%s", cpu);
	/* Maxima are not differences: the end's max bounds the session's. */
	x->inl[2] = modstats_get(st->t[1], cpu, NULL, "inline_delay_max_ns");
	x->ksd[2] = modstats_get(st->t[1], cpu, NULL, "ksoftirqd_delay_max_ns");
	tables_hist_delta(hi, "inline_delay", col, bucket);
	x->inl[0] = hist_pct(bucket, x->inl[2], 50);
	x->inl[1] = hist_pct(bucket, x->inl[2], 99);
	tables_hist_delta(hi, "ksoftirqd_delay", col, bucket);
	x->ksd[0] = hist_pct(bucket, x->ksd[2], 50);
	x->ksd[1] = hist_pct(bucket, x->ksd[2], 99);
}

/* print_netrx - NET_RX per CPU and the NICs' receive rates */
static void print_netrx(const struct report *r, double seconds, int ncpus)
{
	struct json_object *list = r->j ? jnew_array() : NULL, *row;
	struct tables st = { 0 }, hi = { 0 };
	struct netrx_row x;
	char cpu[16];
	int i;

	tables_load(&st, &r->snap[0], &r->snap[1], "netrx_stats");
	tables_load(&hi, &r->snap[0], &r->snap[1], "netrx_hist");
	if (!st.ok) {
		/* A plain trace-cmd recording: the windows are all there is. */
		if (!r->j)
			printf("NET_RX per CPU (from the window summaries)\n"
			       "  %-5s %8s %10s %10s %10s\n", "cpu", "windows",
			       "runs/s", "packets/s", "ksoftirqd%");
		for (i = 0; i < MAX_CPUS; i++) {
			const struct netrx_windows *w = &r->win[i];
			double span = w->last_end - w->first_start;

			if (!w->windows)
				continue;
			if (r->j) {
				row = jnew();
				jset_int(row, "cpu", i);
				jset_int(row, "windows", w->windows);
				jset_num(row, "runs", w->runs, 0);
				jset_num(row, "packets", w->packets, 0);
				jset_num(row, "runs_per_s", rate(w->runs, span), 2);
				jset_num(row, "packets_per_s", rate(w->packets, span), 2);
				jset_num(row, "ksoftirqd_share",
					 share(w->ksoftirqd_runs, w->runs), 4);
				jappend(list, row);
			} else {
				printf("  %-5d %8llu %10.1f %10.1f %10.1f\n", i,
				       w->windows, rate(w->runs, span),
				       rate(w->packets, span),
				       100 * share(w->ksoftirqd_runs, w->runs));
			}
		}
		goto out;
	}
	if (!r->j)
		printf("NET_RX per CPU (raise->entry delays in us: inline = at irq exit or bh enable,\n"
		       "ksoftirqd = deferred to ksoftirqd; percentiles are upper bounds)\n"
		       "  %-5s %9s %10s %10s %8s %10s %8s %8s %8s %8s %8s %8s %8s\n",
		       "cpu", "runs/s", "raises/s", "packets/s", "pkt/run",
		       "ksoftirqd%", "reraise", "inl_p50", "inl_p99", "inl_max",
		       "ksd_p50", "ksd_p99", "ksd_max");
	for (i = 0; i <= ncpus; i++) {
		if (i == ncpus)
			snprintf(cpu, sizeof(cpu), "all");
		else
			snprintf(cpu, sizeof(cpu), "%d", i);
		if (modstats_find(st.t[1], cpu, NULL) < 0)
			continue;
		netrx_compute(&st, &hi, cpu, &x);
		if (r->j) {
			row = jnew();
			jset_str(row, "cpu", cpu);
			jset_num(row, "runs", x.runs, 0);
			jset_num(row, "raises", x.raises, 0);
			jset_num(row, "packets", x.packets, 0);
			jset_num(row, "ksoftirqd_runs", x.ksoftirqd, 0);
			jset_num(row, "reraises", x.reraises, 0);
			jset_num(row, "budget_full", x.budget_full, 0);
			jset_num(row, "runs_per_s", rate(x.runs, seconds), 2);
			jset_num(row, "packets_per_s", rate(x.packets, seconds), 2);
			jset_num(row, "inline_delay_p50_ns", x.inl[0], 0);
			jset_num(row, "inline_delay_p99_ns", x.inl[1], 0);
			jset_num(row, "inline_delay_max_ns", x.inl[2], 0);
			jset_num(row, "ksoftirqd_delay_p50_ns", x.ksd[0], 0);
			jset_num(row, "ksoftirqd_delay_p99_ns", x.ksd[1], 0);
			jset_num(row, "ksoftirqd_delay_max_ns", x.ksd[2], 0);
			jappend(list, row);
		} else {
			printf("  %-5s %9.1f %10.1f %10.1f %8.2f %10.1f %8.0f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n",
			       cpu, rate(x.runs, seconds), rate(x.raises, seconds),
			       rate(x.packets, seconds), share(x.packets, x.runs),
			       100 * share(x.ksoftirqd, x.runs), x.reraises,
			       x.inl[0] / 1e3, x.inl[1] / 1e3, x.inl[2] / 1e3,
			       x.ksd[0] / 1e3, x.ksd[1] / 1e3, x.ksd[2] / 1e3);
		}
	}
out:
	if (r->j) {
		row = jnew();
		jset_str(row, "source", st.ok ? "snapshots" : "windows");
		jset(row, "per_cpu", list);
		jset(r->j, "netrx", row);
	} else {
		printf("\n");
	}
}

/* print_nics - receive rate of every interface that received packets */
static void print_nics(const struct report *r, double seconds)
{
	const char *end = snapshot_text(&r->snap[1], "net_dev");
	struct json_object *list = r->j ? jnew_array() : NULL, *row;
	char *copy, *line, *save = NULL, dev[64];
	double a, b;

	if (!r->j && end)
		printf("NIC receive (/proc/net/dev)\n");
	copy = xstrdup(end ? end : "");
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " %63[^:]:", dev) != 1 || strchr(dev, '|'))
			continue;
		b = derive_nic_rx(&r->snap[0], &r->snap[1], dev);
		a = 0;
		if (b <= 0)
			continue;
		if (r->j) {
			row = jnew();
			jset_str(row, "dev", dev);
			jset_num(row, "rx_packets", b - a, 0);
			jset_num(row, "rx_packets_per_s", rate(b - a, seconds), 2);
			jappend(list, row);
		} else {
			printf("  %-12s %10.0f packets %10.1f/s\n", tstr(dev), b - a,
			       rate(b - a, seconds));
		}
	}
	free(copy);
	if (r->j)
		jset(r->j, "nics", list);
	else if (end)
		printf("\n");
}

/* print_tcp - the kernel's own TCP counters over the session */
static void print_tcp(const struct report *r, double seconds)
{
	static const struct { const char *src, *name; } c[] = {
		{ "snmp", "PassiveOpens" }, { "snmp", "ActiveOpens" },
		{ "snmp", "AttemptFails" }, { "snmp", "RetransSegs" },
		{ "netstat", "ListenOverflows" }, { "netstat", "ListenDrops" },
		{ "netstat", "TCPSynRetrans" }, { "netstat", "TCPReqQFullDrop" },
	};
	struct json_object *tcp = NULL;
	unsigned int i;

	if (!snapshot_text(&r->snap[1], "snmp")) {
		if (r->j)
			jset(r->j, "tcp", NULL);
		return;
	}
	if (r->j)
		tcp = jnew();
	else
		printf("TCP (the kernel's counters, all sockets)\n");
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		double d = derive_snmp(&r->snap[0], &r->snap[1], c[i].src, c[i].name);

		if (tcp)
			jset_num(tcp, c[i].name, d, 0);
		else
			printf("  %-18s %10.0f %10.1f/s\n", c[i].name, d,
			       rate(d, seconds));
	}
	if (tcp)
		jset(r->j, "tcp", tcp);
	else
		printf("\n");
}

/* print_handshakes - TCP handshake phases per port, then from the events */
static void print_handshakes(struct report *r, double seconds)
{
	static const char *const counters[] = {
		"syns", "synacks", "syn_drops", "listen_overflows",
		"synack_retrans", "req_drops", "accepted", "untracked",
		"connects", "connected", "connect_failed",
	};
	double bucket[HIST_BUCKETS], count, sum, p50, p99, max;
	const struct modstats_phase *ph[2];
	struct tables tb = { 0 }, th = { 0 };
	struct json_object *ports = NULL, *port_o = NULL, *phases = NULL, *x;
	const char *keys[2];
	unsigned int k;
	int i, p, q;

	tables_load(&tb, &r->snap[0], &r->snap[1], "tcp_stats");
	tables_load(&th, &r->snap[0], &r->snap[1], "tcp_hist");
	if (r->j)
		ports = jnew_array();
	else
		printf("TCP handshakes by port (module's counters; phase percentiles are upper bounds)\n");
	for (i = 0; tb.ok && i < tb.t[1]->nrows; i++) {
		const char *port;

		if (tb.t[1]->ncols < 2 || strcmp(tb.t[1]->rows[i].field[0], "all"))
			continue;
		port = tb.t[1]->rows[i].field[1];
		if (r->j) {
			port_o = jnew();
			jset_str(port_o, "port", port);
			for (k = 0; k < ARRAY_SIZE(counters); k++)
				jset_num(port_o, counters[k],
					 tables_delta(&tb, "all", port, counters[k]), 0);
			phases = jnew_array();
		} else {
			printf("  port %s:", port);
			for (k = 0; k < ARRAY_SIZE(counters); k++)
				printf(" %s %.0f", counters[k],
				       tables_delta(&tb, "all", port, counters[k]));
			printf("\n  %-14s %8s %10s %10s %10s %10s %10s\n", "phase",
			       "count", "per_s", "mean_us", "p50_us", "p99_us",
			       "max_us");
		}
		for (q = 0; q < NR_PHASES; q++) {
			p = phase_order[q];
			ph[0] = modstats_phase(&r->snap[0], port, p);
			ph[1] = modstats_phase(&r->snap[1], port, p);
			/* a phase without a line is all zeros */
			count = (ph[1] ? ph[1]->count : 0.0) - (ph[0] ? ph[0]->count : 0.0);
			sum = (ph[1] ? ph[1]->sum_ns : 0.0) - (ph[0] ? ph[0]->sum_ns : 0.0);
			max = ph[1] ? ph[1]->max_ns : 0;
			if (count <= 0)
				continue;
			keys[0] = port;
			keys[1] = phase_names[p];
			tables_hist_keyed_delta(&th, keys, 2, "all", bucket);
			p50 = hist_pct(bucket, max, 50);
			p99 = hist_pct(bucket, max, 99);
			if (r->j) {
				x = jnew();
				jset_str(x, "phase", phase_names[p]);
				jset_num(x, "count", count, 0);
				jset_num(x, "sum_ns", sum, 0);
				jset_num(x, "p50_ns", p50, 0);
				jset_num(x, "p99_ns", p99, 0);
				jset_num(x, "max_ns", max, 0);
				jappend(phases, x);
			} else {
				printf("  %-14s %8.0f %10.1f %10.1f %10.1f %10.1f %10.1f\n",
				       phase_names[p], count, rate(count, seconds),
				       sum / count / 1e3, p50 / 1e3, p99 / 1e3,
				       max / 1e3);
			}
		}
		if (r->j) {
			jset(port_o, "phases", phases);
			jappend(ports, port_o);
		}
	}
	if (r->j)
		phases = jnew_array();
	else if (r->handshakes[0] + r->handshakes[1])
		printf("  from %llu server and %llu client handshake events (exact):\n"
		       "  %-14s %8s %10s %10s %10s %10s\n", r->handshakes[0],
		       r->handshakes[1], "phase", "count", "mean_us", "p50_us",
		       "p99_us", "max_us");
	for (q = 0; q < NR_PHASES; q++) {
		struct samples *x = &r->phase[phase_order[q]];
		double total = 0;
		size_t j;

		p = phase_order[q];
		if (!x->n)
			continue;
		sort_u64(x->v, x->n);
		for (j = 0; j < x->n; j++)
			total += x->v[j];
		if (r->j) {
			struct json_object *e = jnew();

			jset_str(e, "phase", phase_names[p]);
			jset_int(e, "count", x->n);
			jset_num(e, "mean_ns", total / x->n, 0);
			jset_num(e, "p50_ns", pct_sorted(x->v, x->n, 50), 0);
			jset_num(e, "p99_ns", pct_sorted(x->v, x->n, 99), 0);
			jset_int(e, "max_ns", x->v[x->n - 1]);
			jappend(phases, e);
		} else {
			printf("  %-14s %8zu %10.1f %10.1f %10.1f %10.1f\n",
			       phase_names[p], x->n, total / x->n / 1e3,
			       pct_sorted(x->v, x->n, 50) / 1e3,
			       pct_sorted(x->v, x->n, 99) / 1e3,
			       x->v[x->n - 1] / 1e3);
		}
	}
	if (r->j) {
		struct json_object *hs = jnew(), *ev = jnew();

		jset_int(ev, "server", r->handshakes[0]);
		jset_int(ev, "client", r->handshakes[1]);
		jset(ev, "phases", phases);
		jset(hs, "ports", ports);
		jset(hs, "events", ev);
		jset(r->j, "handshakes", hs);
	} else {
		printf("\n");
	}
}

/* print_hist - one histogram set, rtla style: a column per CPU */
static void print_hist(const struct report *r, const struct report_opts *o,
		       const char *source, const char *key, const char *title,
		       int ncpus)
{
	double b[MAX_CPUS + 1][HIST_BUCKETS], total[MAX_CPUS + 1], row;
	struct tables tb = { 0 };
	char col[16];
	int c, i, ncol = ncpus + 1;

	if (ncol > MAX_CPUS + 1)
		ncol = MAX_CPUS + 1;
	tables_load(&tb, &r->snap[0], &r->snap[1], source);
	if (!tb.ok)
		return;
	for (c = 0; c < ncol; c++) {
		if (c == ncol - 1)
			snprintf(col, sizeof(col), "all");
		else
			snprintf(col, sizeof(col), "cpu%d", c);
		total[c] = tables_hist_delta(&tb, key, col, b[c]);
	}
	if (total[ncol - 1] <= 0)
		return;
	if (o->header) {
		printf("# %s\n# %-12s", title, "Index(us)");
		for (c = 0; c < ncol - 1; c++)
			printf(" %9s%03d", "CPU-", c);
		printf(" %12s\n", "all");
	}
	for (i = 0; i < HIST_BUCKETS; i++) {
		row = 0;
		for (c = 0; c < ncol; c++)
			row += b[c][i];
		if (row <= 0)
			continue;
		printf("  %-12.0f", i ? (double)(1ULL << i) / 1e3 : 0);
		for (c = 0; c < ncol; c++)
			printf(" %12.0f", b[c][i]);
		printf("\n");
	}
	if (o->header) {
		printf("  %-12s", "count:");
		for (c = 0; c < ncol; c++)
			printf(" %12.0f", total[c]);
		printf("\n");
	}
	printf("\n");
}

/* print_report - every section, text or JSON */
static void print_report(struct report *r, const struct report_opts *o)
{
	double seconds = session_seconds(r->s);
	int ncpus = (int)snap_value(&r->snap[1], "nproc");
	double tee_missed = 0, untracked = 0, tcp_missed = 0;
	struct tables tp = { 0 }, ts = { 0 };
	unsigned long long u[2];
	const char *uname = snapshot_text(&r->snap[1], "uname");
	double ring = snap_value(&r->snap[1], "ring_losses");
	const char *note = session_counters_note(r->s);
	struct json_object *x;
	int i;

	if (ncpus <= 0) {
		for (i = 0; i < MAX_CPUS; i++)
			if (r->win[i].windows)
				ncpus = i + 1;
	}
	tables_load(&tp, &r->snap[0], &r->snap[1], "tee_probes");
	for (i = 0; tp.ok && i < tp.t[1]->nrows; i++)
		tee_missed += tables_delta(&tp, tp.t[1]->rows[i].field[0], NULL, "nmissed");
	tables_load(&tp, &r->snap[0], &r->snap[1], "tcp_probes");
	for (i = 0; tp.ok && i < tp.t[1]->nrows; i++)
		tcp_missed += tables_delta(&tp, tp.t[1]->rows[i].field[0], NULL, "nmissed");
	tables_load(&ts, &r->snap[0], &r->snap[1], "tee_stats");
	if (ts.ok && modstats_kv_u64(ts.t[0], "untracked", &u[0]) &&
	    modstats_kv_u64(ts.t[1], "untracked", &u[1]))
		untracked = (double)u[1] - (double)u[0];

	if (o->json) {
		r->j = jnew();
		jset_int(r->j, "format", REPORT_JSON_FORMAT);
		jset_str(r->j, "file", o->input);
		jset_num(r->j, "seconds", seconds, 3);
		jset_int(r->j, "cpus", ncpus);
		jset_bool(r->j, "snapshots", snapshot_text(&r->snap[1], "time"));
		x = jnew();
		for (i = 0; i < r->s->nr_kinds; i++)
			jset_int(x, r->s->kinds[i].name, r->s->kinds[i].count);
		jset(r->j, "events", x);
		jset_int(r->j, "other_events", r->s->other_events);
		x = jnew();
		jset_num(x, "ring_buffer", ring, 0);
		jset_int(x, "missed_events", r->s->missed_events);
		jset_num(x, "tee_kretprobe_missed", tee_missed, 0);
		jset_num(x, "tee_untracked", untracked, 0);
		jset_num(x, "tcp_probe_missed", tcp_missed, 0);
		jset(r->j, "lost", x);
		x = jnew();
		jset_bool(x, "comparable", !note);
		if (note)
			jset_str(x, "why", note);
		jset(r->j, "counters", x);
	} else {
		printf("teeprobe report: %s\n", tstr(o->input));
		printf("  %.*s%s%d CPUs, %.3f s\n",
		       uname ? (int)strcspn(uname, "\n") : 0, uname ? uname : "",
		       uname ? ", " : "", ncpus, seconds);
		printf("  events:");
		for (i = 0; i < r->s->nr_kinds; i++)
			printf(" %s %llu", r->s->kinds[i].name, r->s->kinds[i].count);
		printf("; %llu others\n", r->s->other_events);
		printf("  lost: %.0f in the ring buffer, %llu missed while reading, %.0f TEE calls the kretprobes missed, %.0f untracked, %.0f TCP probe hits missed\n",
		       ring, r->s->missed_events, tee_missed, untracked, tcp_missed);
		if (note)
			printf("  counters: %s: the module's counters of the start and end\n"
			       "  snapshots do not subtract and are left out; what follows\n"
			       "  comes from the events\n", note);
		printf("\n");
	}
	print_context(r, ncpus);
	print_tee(r, seconds);
	print_netrx(r, seconds, ncpus);
	print_nics(r, seconds);
	print_handshakes(r, seconds);
	print_tcp(r, seconds);
	if (r->j) {
		jprint(r->j);
		r->j = NULL;
		return;
	}
	if (o->hist) {
		print_hist(r, o, "netrx_hist", "inline_delay",
			   "NET_RX raise->entry delay, inline runs: runs per bucket",
			   ncpus);
		print_hist(r, o, "netrx_hist", "ksoftirqd_delay",
			   "NET_RX raise->entry delay, ksoftirqd runs: runs per bucket",
			   ncpus);
	}
}

/* report_print - what "teeprobe report" prints of session @s */
void report_print(const struct session *s, const struct report_opts *o)
{
	struct report *r = xzalloc(sizeof(*r));

	report_build(r, s);
	print_report(r, o);
	report_release(r);
	free(r);
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
	struct session *s;
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
	s = session_read(o.input);
	if (!s)
		return 1;
	report_print(s, &o);
	session_free(s);
	return 0;
}
