// SPDX-License-Identifier: GPL-2.0
/*
 * analyze_text.c - "teeprobe analyze" as text: struct analysis (analyze.c
 * computes it): where a handshake's time goes, the links, the verdict,
 * and with --windows the time series.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze.h"
#include "utils.h"

static void print_windows(const struct analysis *a)
{
	const struct series *s = &a->s;
	size_t i;

	printf("\nTime series (%zu windows of %.0f ms; TEE in threads)\n",
	       s->n, s->len_ns / 1e6);
	printf("  %8s %7s %7s %7s %8s %11s %11s %6s %11s %11s\n", "t_s",
	       "tee_in", "tee_cpu", "netrx", "packets", "delay", "delay_p99",
	       "hs", "hs_time", "connect");
	for (i = 0; i < s->n; i++) {
		const struct win_point *p = &s->all[i];
		double len = (double)s->len_ns;

		printf("  %8.2f %7.2f %7.2f %7.0f %8.0f %11s %11s %6.0f %11s %11s\n",
		       i * len / 1e9, p->tee_busy_ns / len, p->tee_oncpu_ns / len,
		       p->netrx_runs, p->packets,
		       dur_str(point_netrx_delay_ns(p), 0),
		       dur_str(p->delay_p99_ns, 0), p->hs,
		       dur_str(point_handshake_ns(p), 0),
		       dur_str(p->connects ? p->connect_ns / p->connects : NAN, 0));
	}
}

/* pct - a share in percent, for printing */
static double pct(double share)
{
	return 100 * share;
}

/* print_accept_queue - what the accepting threads did while connections waited */
static void print_accept_queue(const struct analysis *a)
{
	const struct acceptq *q = &a->q;
	const struct accept_evidence *x = &a->e.acc;
	int k;

	if (!(q->thread_ns > 0))
		return;
	printf("\nAccept queue (ACK -> accept, %.1f %% of the handshake time): while\n"
	       "connections waited, the %.0f %s\n",
	       pct(a->part_share[PART_ACCEPT]), q->acceptors,
	       q->acceptors == 1 ? "thread that accepts them was" :
	       "threads that accept them were");
	/* the split of TEE time only where there was TEE time to split */
	if (x->tee > 0)
		printf("  %-28s %6.1f %%  (%.0f %% of it asleep, %.0f %% in shared-memory\n"
		       "  %-28s %8s  set-up, %.0f %% waiting for a secure thread)\n",
		       "in TEE calls", pct(x->tee), pct(x->tee_asleep),
		       pct(x->tee_setup), "", "", pct(x->tee_queue));
	else
		printf("  %-28s %6.1f %%\n", "in TEE calls", pct(x->tee));
	for (k = 0; k < NR_AQ_PARTS; k++) {
		if (k == AQ_RUNNING)
			printf("  outside TEE calls\n");
		if (k == AQ_UNKNOWN && !(q->part_ns[k] > 0))
			continue;
		printf("    %-26s %6.1f %%\n", acceptq_part_name(k),
		       pct(a->aq_share[k]));
	}
}

/* print_para - a paragraph composed by printf, word-wrapped (print_wrapped) */
static void __attribute__((format(printf, 2, 3)))
print_para(int indent, const char *fmt, ...)
{
	char *text;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("out of memory\n");
	print_wrapped(text, indent);
	free(text);
}

static void print_text(const struct analysis *a, const struct analyze_opts *o)
{
	static const char tee_note[] =
		"TEE ioctls: the accepting threads' time in TEE calls per handshake";
	const struct evidence *e = &a->e;
	const struct verdict *v = &a->v;
	int p, c;

	printf("teeprobe analyze: %s\n  %.1f s in %zu windows of %.0f ms, %d CPUs\n",
	       tstr(o->input), a->seconds, a->s.n, a->s.len_ns / 1e6, a->s.ncpus);
	if (a->counters_note)
		printf("  counters: %s: the module's counters are left out; the\n"
		       "  figures come from the events\n", a->counters_note);
	printf("\nWhere a handshake's time goes (server side, %.0f handshakes):\n",
	       e->handshakes);
	printf("  %-16s %11s %11s %11s %7s\n", "part", "mean", "p50",
	       "p99", "share");
	for (p = 0; p < NR_PARTS; p++) {
		const struct part_dist *d = analysis_part_dist(a, p);

		printf("  %-16s %11s %11s %11s %6.1f %%\n", verdict_part_name(p),
		       dur_str(v->part_ns[p], 0), dur_str(d ? d->p50 : NAN, 0),
		       dur_str(d ? d->p99 : NAN, 0), 100 * a->part_share[p]);
	}
	printf("  %-16s %11s\n", "total", dur_str(v->total_ns, 0));
	if (a->hp[HP_TCP].n)
		printf("  %-16s %11s %11s %11s  (per connection, from the SYN's interrupt)\n",
		       "connect+accept", dur_str(a->hp[HP_TCP].mean, 0),
		       dur_str(a->hp[HP_TCP].p50, 0), dur_str(a->hp[HP_TCP].p99, 0));
	if (a->hp[HP_STACK].n)
		printf("  %-16s %11s %11s %11s  (per connection, from the SYN's processing)\n",
		       "SYN -> accept", dur_str(a->hp[HP_STACK].mean, 0),
		       dur_str(a->hp[HP_STACK].p50, 0),
		       dur_str(a->hp[HP_STACK].p99, 0));
	if (a->hp[HP_NETRX].n)
		print_para(3, "  (NET_RX wait: each connection's own SYN and final ACK, from the NIC's interrupt to their processing; round trip: the rest of SYN/ACK -> ACK, the client's side%s; %s)",
			   e->local_client ? ", its NET_RX wait too: it runs on this host" : "",
			   tee_note);
	else
		print_para(3, "  (NET_RX wait: %s per packet, the SYN's and the ACK's%s; %s)",
			   dur_str(e->netrx_wait_ns, 0), e->local_client ?
			   ", and the client's SYN/ACK: the client runs on this host" : "",
			   tee_note);
	if (!isnan(a->sum.untracked) && (a->sum.untracked > 0 || a->sum.tcp_missed > 0))
		printf("  Not timed: %.0f of %.0f accepted handshakes (the table had no room,\n"
		       "  or a step was not seen: %.0f hook hits missed); the figures above are\n"
		       "  the others'.\n", a->sum.untracked, a->sum.accepted,
		       a->sum.tcp_missed);
	print_accept_queue(a);

	printf("\nEvidence:\n");
	print_para(17, "  TEE ioctls     %.0f calls, on-CPU %.1f %% of CPU time; by the %.0f threads that accepted the connections: %.0f calls, %s per handshake, %.0f %% asleep, %.0f %% in shared-memory set-up",
		   a->sum.tee_calls, 100 * e->tee_oncpu_share, a->acceptors,
		   a->acceptor_calls, dur_str(e->tee_per_hs_ns, 0),
		   100 * e->tee_blocked_share, 100 * e->tee_setup_share);
	print_para(17, "  NET_RX         %.0f runs/s for %.0f rx packets/s; of the wait, %.0f %% by ksoftirqd, %.0f %% while TEE calls held the CPU (%.0f runs)",
		   a->sum.netrx_per_s, a->sum.rx_packets_per_s,
		   100 * e->ksoftirqd_share, 100 * e->tee_wait_share,
		   a->tee_wait_runs);
	print_para(17, "  handshakes     %.1f/s; SYN->SYN/ACK %s, SYN/ACK->ACK %s, ACK->accept %s",
		   a->sum.handshakes_per_s, dur_str(e->syn_synack_ns, 0),
		   dur_str(e->synack_ack_ns, 0), dur_str(e->ack_accept_ns, 0));
	printf("  per CPU        %-5s %8s %10s %11s %9s %8s\n", "cpu", "NET_RX%",
	       "packets", "wait", "TEE_cpu%", "r");
	for (c = 0; c < a->s.ncpus; c++) {
		const struct cpu_row *r = &a->cpus[c];

		printf("                 %-5d %8.1f %10.0f %11s %9.1f %8.2f\n", c,
		       100 * r->runs_share, r->packets,
		       dur_str(r->wait_mean_ns, 0), 100 * r->tee_oncpu_share,
		       r->r);
	}
	printf("\nLinks over time (Pearson's r at the best lag, in windows; rank r):\n");
	for (p = 0; p < NR_LINKS; p++) {
		const struct link *l = &a->links[p];

		printf("  %-44s r = %5.2f  lag %+d  rank %5.2f  (%zu windows)\n",
		       l->name, l->best.r, l->best.lag, l->rank, l->best.n);
	}
	printf("\nVerdict: %s\n", verdict_title(v->cause));
	if (v->cause != CAUSE_WEAK || e->handshakes >= o->v.min_handshakes)
		print_para(2, "  %s: %s %s of %s (%.0f %%), next %s %s.", v->why,
			   verdict_part_name(v->top), dur_str(v->part_ns[v->top], 0),
			   dur_str(v->total_ns, 0), 100 * a->part_share[v->top],
			   verdict_part_name(v->second),
			   dur_str(v->part_ns[v->second], 0));
	else
		print_para(2, "  %s.", v->why);
	if (v->path == PATH_ACCEPT_QUEUE && (v->cause == CAUSE_TEE_BLOCKING ||
					     v->cause == CAUSE_TEE_WORK))
		printf("  Through the accept queue: %.0f %% of the handshake time waiting for\n"
		       "  accept() while the accepting threads were %.0f %% in TEE calls (%.0f %%\n"
		       "  asleep, %.0f %% set-up).\n",
		       pct(a->part_share[PART_ACCEPT]), pct(e->acc.tee),
		       pct(e->acc.tee_asleep), pct(e->acc.tee_setup));
	else if (v->path == PATH_ACCEPT_QUEUE && e->acc.unknown > 0)
		printf("  Through the accept queue: %.0f %% of the handshake time waiting for\n"
		       "  accept() while the accepting threads waited %.0f %% of it for a CPU\n"
		       "  (%.0f %% of the time their state is known).\n",
		       pct(a->part_share[PART_ACCEPT]), pct(e->acc.runnable),
		       pct(e->acc.runnable / (1 - e->acc.unknown)));
	else if (v->path == PATH_ACCEPT_QUEUE)
		printf("  Through the accept queue: %.0f %% of the handshake time waiting for\n"
		       "  accept() while the accepting threads waited %.0f %% of it for a CPU.\n",
		       pct(a->part_share[PART_ACCEPT]), pct(e->acc.runnable));
}

/* analyze_text - struct analysis as text; with --windows, the series too */
void analyze_text(const struct analysis *a, const struct analyze_opts *o)
{
	print_text(a, o);
	if (o->windows)
		print_windows(a);
}
