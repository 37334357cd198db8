// SPDX-License-Identifier: GPL-2.0
/*
 * report_text.c - "teeprobe report" as text: the tables of struct report
 * (report.c computes them), a section per link of the chain, then the
 * histograms rtla style, a column per CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "utils.h"
#include "watch_rule.h"

/*
 * text_capture - a capture of teeprobe watch: what started it, and the
 * ring's events before its start (trace-cmd shows them; the figures leave
 * them out)
 */
static void text_capture(const struct report *r)
{
	struct report_capture c;
	char v[32], t[32];

	report_capture_of(r, &c);
	if (c.measure < 0) {
		printf("  capture: teeprobe watch's; %llu events of its ring before its start left out\n",
		       r->before_start);
		return;
	}
	printf("  capture: teeprobe watch's, %s %s over %s in %d windows; %llu events\n"
	       "  of its ring before its start left out\n",
	       watch_measure_name(c.measure), watch_value_str(c.measure, c.value, v, sizeof(v)),
	       watch_value_str(c.measure, c.threshold, t, sizeof(t)), c.run_windows,
	       r->before_start);
}

/* text_session - the file, its size, its events and what was lost */
static void text_session(const struct report *r, const struct report_opts *o)
{
	char *line = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	printf("teeprobe report: %s\n", tstr(o->input));
	printf("  %.*s%s%d CPUs, %.3f s\n",
	       r->uname ? (int)strcspn(r->uname, "\n") : 0,
	       r->uname ? r->uname : "", r->uname ? ", " : "", r->ncpus,
	       r->seconds);
	f = open_memstream(&line, &len);
	if (!f)
		fatal("out of memory\n");
	fprintf(f, "  events:");
	for (i = 0; i < r->nr_kinds; i++)
		fprintf(f, " %s %llu", r->kinds[i].name, r->kinds[i].count);
	fprintf(f, "; %llu others", r->other_events);
	fclose(f);
	print_wrapped(line, 10);
	free(line);
	/* one line to the kretprobes' losses: scripts read it up to there */
	printf("  lost: %.0f in the ring buffer, %llu missed while reading, %.0f TEE calls the kretprobes missed,\n"
	       "        %.0f untracked, %.0f TCP probe hits missed, %.0f handshakes' phases without a histogram\n",
	       r->ring_losses, r->missed_events, r->tee_missed,
	       r->tee_untracked, r->tcp_missed, r->tcp_phases_lost);
	if (r->capture)
		text_capture(r);
	if (r->counters_note)
		printf("  counters: %s: the module's counters of the start and end\n"
		       "  snapshots do not subtract and are left out; what follows\n"
		       "  comes from the events\n", r->counters_note);
	printf("\n");
}

/* text_context - the CPU context, all CPUs and each */
static void text_context(const struct report *r)
{
	const double *pct = r->cpu_all;
	int i;

	if (!r->cpu_ok) {
		printf("CPU context: not in this file (record with teeprobe record)\n\n");
		return;
	}
	printf("CPU context (%% of CPU time)\n");
	printf("  %-5s %8s %8s %8s %8s %8s\n", "cpu", "%user", "%system",
	       "%softirq", "%irq", "%idle");
	printf("  %-5s %8.2f %8.2f %8.2f %8.2f %8.2f\n", "all", pct[0], pct[1],
	       pct[2], pct[3], pct[4]);
	for (i = 0; i < r->nr_cpus; i++) {
		pct = r->cpus[i].pct;
		printf("  %-5d %8.2f %8.2f %8.2f %8.2f %8.2f\n", r->cpus[i].cpu,
		       pct[0], pct[1], pct[2], pct[3], pct[4]);
	}
	printf("\n");
}

/*
 * pct_how - what a percentile from the module's histograms is: placed
 * within its log-linear bucket (at most 12.5 % off), or an older module's
 * log2 bucket's top
 */
static const char *pct_how(enum hist_layout layout)
{
	return layout == HIST_LOGLIN ? "interpolated within 12.5 %" :
	       "upper bounds (log2 buckets)";
}

/* text_tee - TEE ioctls by command, their secure-world share, top threads */
static void text_tee(const struct report *r)
{
	char secure[1024] = "";
	size_t secure_len = 0;
	int i;

	printf("TEE ioctls by command (counts: %s; percentiles: %s)\n"
	       "  %-14s %8s %9s %6s %11s %11s %11s %11s\n",
	       r->tee_from_snapshots ? "the module's counters" : "the events",
	       r->tee_exact ? "every call's event" : r->tee_layout == HIST_LOGLIN ?
	       "histograms, interpolated within 12.5 %" :
	       "log2 histograms' upper bounds",
	       "cmd", "calls", "calls/s", "errors", "mean", "p50", "p99", "max");
	for (i = 0; i < r->nr_tee_cmds; i++) {
		const struct report_tee_cmd *c = &r->tee_cmds[i];

		printf("  %-14s %8.0f %9.1f %6.0f %11s %11s %11s %11s\n",
		       c->name, c->calls, c->calls_per_s, c->errors,
		       dur_str(c->mean_ns, 0), dur_str(c->p50_ns, 0),
		       dur_str(c->p99_ns, 0), dur_str(c->max_ns, 0));
		/* the lines of the secure world's table, as far as they fit */
		if (c->secure_entries > 0 && secure_len < sizeof(secure))
			secure_len += snprintf(secure + secure_len,
					       sizeof(secure) - secure_len,
					       "  %-14s %8.0f %9.2f %11s %8.1f %8.1f\n",
					       c->name, c->secure_entries,
					       c->secure_per_call,
					       dur_str(c->secure_mean_ns, 0),
					       100 * c->secure_share,
					       100 * c->normal_share);
	}
	if (!r->tee_candidates)
		printf("  (no TEE ioctls)\n");
	if (r->nr_tee_cmds) {
		printf("  where their time went (%% of it)\n"
		       "  %-14s %8s %8s %8s %8s\n", "cmd", "blocked%", "runq%",
		       "on-cpu%", "wait%");
		for (i = 0; i < r->nr_tee_cmds; i++) {
			const struct report_tee_cmd *c = &r->tee_cmds[i];

			printf("  %-14s %8.1f %8.1f %8.1f %8.1f\n", c->name,
			       100 * c->blocked_share, 100 * c->runq_share,
			       100 * c->oncpu_share, 100 * c->queue_wait_share);
		}
	}
	if (secure_len)
		printf("  in the secure world (the driver's entries into it, timed; normal%%: the\n"
		       "  rest of the calls but their wait%%, the normal world's)\n"
		       "  %-14s %8s %9s %11s %8s %8s\n%s",
		       "cmd", "entries", "per_call", "mean", "secure%",
		       "normal%", secure);
	if (r->nr_threads) {
		printf("  top threads by time in TEE ioctls:\n"
		       "  %-8s %-16s %8s %13s %8s\n", "tid", "comm", "calls",
		       "total", "blocked%");
		for (i = 0; i < r->nr_threads; i++)
			printf("  %-8d %-16s %8llu %13s %8.1f\n",
			       r->threads[i].tid, tstr(r->threads[i].comm),
			       r->threads[i].calls,
			       dur_str(r->threads[i].total_ns, 0),
			       100 * r->threads[i].blocked_share);
	}
	if (r->threads_overflow)
		printf("  (%llu calls of threads beyond the %d this report keeps: in the\n"
		       "   totals above, not in the list)\n", r->threads_overflow,
		       SESSION_MAX_THREADS);
	printf("\n");
}

/*
 * text_netrx_late - the NET_RX windows closed late, when there were: their
 * counts are whole, but a reader that followed them live saw them late
 */
static void text_netrx_late(const struct report *r)
{
	if (!r->netrx_late_known || !r->netrx_windows_late)
		return;
	printf("  %llu of %llu NET_RX windows closed late (the latest %s after its\n"
	       "  end): their CPUs could not run the windows' work in time; their\n"
	       "  counts are whole, a live reader (stat, watch) saw them late\n",
	       r->netrx_windows_late, r->netrx_windows_seen,
	       dur_str(r->netrx_windows_late_max_ns, 0));
}

/* text_netrx - NET_RX per CPU, from the module's counters or the windows */
static void text_netrx(const struct report *r)
{
	int i;

	if (!r->netrx_from_snapshots) {
		printf("NET_RX per CPU (from the window summaries)\n"
		       "  %-5s %8s %10s %10s %10s\n", "cpu", "windows",
		       "runs/s", "packets/s", "ksoftirqd%");
		for (i = 0; i < r->nr_netrx_windows; i++) {
			const struct report_netrx_windows *w = &r->netrx_windows[i];

			printf("  %-5d %8llu %10.1f %10.1f %10.1f\n", w->cpu,
			       w->windows, w->runs_per_s, w->packets_per_s,
			       100 * w->ksoftirqd_share);
		}
		text_netrx_late(r);
		printf("\n");
		return;
	}
	printf("NET_RX per CPU\n"
	       "  %-5s %9s %10s %10s %8s %10s %8s %8s\n",
	       "cpu", "runs/s", "raises/s", "packets/s", "pkt/run",
	       "ksoftirqd%", "reraise", "squeeze");
	for (i = 0; i < r->nr_netrx_cpus; i++) {
		const struct report_netrx_cpu *x = &r->netrx_cpus[i];

		printf("  %-5s %9.1f %10.1f %10.1f %8.2f %10.1f %8s %8s\n",
		       x->cpu, x->runs_per_s, x->raises_per_s, x->packets_per_s,
		       x->packets_per_run, 100 * x->ksoftirqd_share,
		       num_str(x->count[REPORT_NETRX_reraises], 0),
		       num_str(x->count[REPORT_NETRX_squeezes], 0));
	}
	printf("  raise->entry delays: inline = at irq exit or bh enable, ksoftirqd =\n"
	       "  deferred to ksoftirqd; percentiles %s\n"
	       "  %-5s %11s %11s %11s %11s %11s %11s\n",
	       pct_how(r->netrx_layout), "cpu", "inl_p50", "inl_p99", "inl_max",
	       "ksd_p50", "ksd_p99", "ksd_max");
	for (i = 0; i < r->nr_netrx_cpus; i++) {
		const struct report_netrx_cpu *x = &r->netrx_cpus[i];

		printf("  %-5s %11s %11s %11s %11s %11s %11s\n", x->cpu,
		       dur_str(x->inline_ns[0], 0), dur_str(x->inline_ns[1], 0),
		       dur_str(x->inline_ns[2], 0),
		       dur_str(x->ksoftirqd_ns[0], 0),
		       dur_str(x->ksoftirqd_ns[1], 0),
		       dur_str(x->ksoftirqd_ns[2], 0));
	}
	text_netrx_late(r);
	printf("\n");
}

/* text_nics - receive rate of every interface that received packets */
static void text_nics(const struct report *r)
{
	int i;

	if (r->nics_ok)
		printf("NIC receive (/proc/net/dev)\n");
	for (i = 0; i < r->nr_nics; i++)
		printf("  %-12s %10.0f packets %10.1f/s\n", tstr(r->nics[i].dev),
		       r->nics[i].rx_packets, r->nics[i].rx_packets_per_s);
	if (r->nics_ok)
		printf("\n");
}

/* text_handshakes - TCP handshake phases per port, then from the events */
static void text_handshakes(const struct report *r)
{
	const struct report_port_phase *x;
	const struct report_event_phase *e;
	char *line = NULL;
	size_t len = 0;
	int i, k, q;
	FILE *f;

	printf("TCP handshakes by port (module's counters; phase percentiles %s)\n",
	       pct_how(r->tcp_layout));
	for (i = 0; i < r->nr_ports; i++) {
		const struct report_port *port = &r->ports[i];

		f = open_memstream(&line, &len);
		if (!f)
			fatal("out of memory\n");
		fprintf(f, "  port %s:", port->port);
		for (k = 0; k < REPORT_PORT_COUNTERS; k++)
			fprintf(f, " %s %.0f", port->counters[k].name,
				port->counters[k].count);
		fclose(f);
		print_wrapped(line, 4);
		free(line);
		line = NULL;
		printf("  %-14s %8s %10s %11s %11s %11s %11s\n", "phase",
		       "count", "per_s", "mean", "p50", "p99", "max");
		for (q = 0; q < port->nr_phases; q++) {
			x = &port->phases[q];
			printf("  %-14s %8.0f %10.1f %11s %11s %11s %11s\n",
			       x->name, x->count, x->per_s,
			       dur_str(x->mean_ns, 0), dur_str(x->p50_ns, 0),
			       dur_str(x->p99_ns, 0), dur_str(x->max_ns, 0));
		}
	}
	if (r->handshakes[0] + r->handshakes[1])
		printf("  from %llu server and %llu client handshake events (exact):\n"
		       "  %-14s %8s %11s %11s %11s %11s\n", r->handshakes[0],
		       r->handshakes[1], "phase", "count", "mean", "p50",
		       "p99", "max");
	for (q = 0; q < r->nr_event_phases; q++) {
		e = &r->event_phases[q];
		printf("  %-14s %8zu %11s %11s %11s %11s\n", e->name,
		       e->count, dur_str(e->mean_ns, 0), dur_str(e->p50_ns, 0),
		       dur_str(e->p99_ns, 0), dur_str(e->max_ns, 0));
	}
	printf("\n");
}

/* text_tcp - the kernel's own TCP counters over the session */
static void text_tcp(const struct report *r)
{
	int i;

	if (!r->tcp_ok)
		return;
	printf("TCP (the kernel's counters, all sockets)\n");
	for (i = 0; i < REPORT_TCP_COUNTERS; i++)
		printf("  %-18s %10.0f %10.1f/s\n", r->tcp[i].name,
		       r->tcp[i].count, r->tcp[i].per_s);
	printf("\n");
}

/*
 * hist_label - a bucket's low edge in us, with the decimals that keep four
 * significant digits: the log-linear buckets are 12.5 % apart (2.048,
 * 2.304, 2.560 us), and whole microseconds printed five of them as "2"
 */
static const char *hist_label(double us)
{
	static char out[32];
	int decimals = us < 10 ? 3 : us < 100 ? 2 : us < 1000 ? 1 : 0;

	snprintf(out, sizeof(out), "%.*f", decimals, us);
	return out;
}

/* text_hist - one histogram set, rtla style: a column per CPU */
static void text_hist(const struct report_hist *h, const struct report_opts *o)
{
	double row;
	int c, i;

	if (!h->shown)
		return;
	if (o->header) {
		printf("# %s\n# %-12s", h->title, "Index(us)");
		for (c = 0; c < h->ncol - 1; c++)
			printf(" %9s%03d", "CPU-", c);
		printf(" %12s\n", "all");
	}
	for (i = 0; i < HIST_BUCKETS; i++) {
		row = 0;
		for (c = 0; c < h->ncol; c++)
			row += h->bucket[c][i];
		if (row <= 0)
			continue;
		printf("  %-12s", hist_label(hist_low_in(h->layout, i) / 1e3));
		for (c = 0; c < h->ncol; c++)
			printf(" %12.0f", h->bucket[c][i]);
		printf("\n");
	}
	if (o->header) {
		printf("  %-12s", "count:");
		for (c = 0; c < h->ncol; c++)
			printf(" %12.0f", h->total[c]);
		printf("\n");
	}
	printf("\n");
}

/* report_text - struct report as text, every section */
void report_text(const struct report *r, const struct report_opts *o)
{
	int i;

	text_session(r, o);
	text_context(r);
	text_tee(r);
	text_netrx(r);
	text_nics(r);
	text_handshakes(r);
	text_tcp(r);
	for (i = 0; i < r->nr_hist; i++)
		text_hist(&r->hist[i], o);
}
