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
	       "hs", "syn_accept", "connect");
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

/* pct - a share in percent, for printing */
static double pct(double share)
{
	return 100 * share;
}

/*
 * split_str - where TEE time went (struct tee_split), in whole percent as
 * the verdict's title and why round them (verdict_pct())
 */
static const char *split_str(const struct tee_split *t)
{
	static char out[2][320];
	static int next;
	char *o = out[next++ % 2];
	int n;

	if (verdict_pct(t->setup) > 0)
		n = snprintf(o, sizeof(out[0]),
			     "set-up %d %% (%d %% of it asleep, %d %% on a CPU), ",
			     verdict_pct(t->setup), verdict_pct(t->setup_asleep),
			     verdict_pct(t->setup_oncpu));
	else
		n = snprintf(o, sizeof(out[0]), "set-up 0 %%, ");
	if (verdict_pct(t->setup_once) > 0)
		n += snprintf(o + n, sizeof(out[0]) - n, "one-time set-up %d %%, ",
			      verdict_pct(t->setup_once));
	n += snprintf(o + n, sizeof(out[0]) - n,
		      "waiting for a secure thread %d %%, ", verdict_pct(t->queue));
	if (isnan(t->secure))
		snprintf(o + n, sizeof(out[0]) - n,
			 "the calls' own work %d %% (the secure world's and the driver's, not told apart)",
			 verdict_pct(t->work));
	else
		snprintf(o + n, sizeof(out[0]) - n,
			 "the secure world %d %%, the driver %d %%",
			 verdict_pct(t->secure), verdict_pct(t->driver));
	return o;
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
	if (x->tee > 0)
		printf("  %-28s %6.1f %%  (%d %% of it asleep)\n", "in TEE calls",
		       pct(x->tee), verdict_pct(x->tee_asleep));
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
	/* the split of TEE time only where there was TEE time to split */
	if (x->tee > 0)
		print_para(4, "  of their TEE time: %s", split_str(&x->split));
}

static void print_text(const struct analysis *a, const struct analyze_opts *o)
{
	static const char tee_note[] =
		"TEE ioctls: the accepting threads' time in TEE calls per handshake";
	const struct evidence *e = &a->e;
	const struct verdict *v = &a->v;
	int p, c;

	/* the session's length as report's; the windows span its events */
	printf("teeprobe analyze: %s\n  %.3f s recorded, %zu windows of %.0f ms with events (%.1f s), %d CPUs\n",
	       tstr(o->input), a->sum.seconds, a->s.n, a->s.len_ns / 1e6,
	       a->seconds, a->s.ncpus);
	if (a->counters_note)
		printf("  counters: %s: the module's counters are left out; the\n"
		       "  figures come from the events\n", a->counters_note);
	printf("\nWhere a client handshake's time goes, as the server sees it (%.0f handshakes):\n",
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
	if (isnan(e->tee.work))
		print_para(17, "  TEE ioctls     %.0f calls, on-CPU %.1f %% of CPU time; none by the %.0f threads that accepted the connections",
			   a->sum.tee_calls, 100 * e->tee_oncpu_share,
			   a->acceptors);
	else
		print_para(17, "  TEE ioctls     %.0f calls, on-CPU %.1f %% of CPU time; by the %.0f threads that accepted the connections: %.0f calls, %s per handshake, %d %% asleep; of their TEE time: %s",
			   a->sum.tee_calls, 100 * e->tee_oncpu_share, a->acceptors,
			   a->acceptor_calls, dur_str(e->tee_per_hs_ns, 0),
			   verdict_pct(e->tee_blocked_share), split_str(&e->tee));
	print_para(17, "  NET_RX         %.0f runs/s for %.0f rx packets/s; of the wait, %d %% by ksoftirqd, %d %% while TEE calls held the CPU (%.0f runs)",
		   a->sum.netrx_per_s, a->sum.rx_packets_per_s,
		   verdict_pct(e->ksoftirqd_share),
		   verdict_pct(e->tee_wait_share), a->tee_wait_runs);
	print_para(17, "  handshakes     %.1f/s; SYN->SYN/ACK %s, SYN/ACK->ACK %s, ACK->accept %s",
		   a->sum.handshakes_per_s, dur_str(e->syn_synack_ns, 0),
		   dur_str(e->synack_ack_ns, 0), dur_str(e->ack_accept_ns, 0));
	printf("  per CPU        %-5s %8s %10s %11s %9s %8s\n", "cpu", "NET_RX%",
	       "packets", "wait", "TEE_cpu%", "r");
	for (c = 0; c < a->s.ncpus; c++) {
		const struct cpu_row *r = &a->cpus[c];

		/* "-" for what a CPU without packets or windows has not */
		printf("                 %-5d %8s %10.0f %11s %9s %8s\n", c,
		       num_str(100 * r->runs_share, 1), r->packets,
		       dur_str(r->wait_mean_ns, 0),
		       num_str(100 * r->tee_oncpu_share, 1), num_str(r->r, 2));
	}
	printf("\nLinks over time (Pearson's r at the best lag, in windows; rank r):\n");
	for (p = 0; p < NR_LINKS; p++) {
		const struct link *l = &a->links[p];

		printf("  %-44s r = %5s  lag %+d  rank %5s  (%zu windows)\n",
		       l->name, num_str(l->best.r, 2), l->best.lag,
		       num_str(l->rank, 2), l->best.n);
	}
	/* within 100 columns: a long title goes on under itself */
	printf("\n");
	print_para(9, "Verdict: %s", v->title);
	if (v->cause != CAUSE_WEAK || e->handshakes >= o->v.min_handshakes)
		print_para(2, "  %s: %s %s of %s (%.0f %%), next %s %s.", v->why,
			   verdict_part_name(v->top), dur_str(v->part_ns[v->top], 0),
			   dur_str(v->total_ns, 0), 100 * a->part_share[v->top],
			   verdict_part_name(v->second),
			   dur_str(v->part_ns[v->second], 0));
	else
		print_para(2, "  %s.", v->why);
	if (v->path == PATH_ACCEPT_QUEUE && verdict_tee_cause(v->cause))
		print_para(2, "  Through the accept queue: %.0f %% of the handshake time waiting for accept() while the accepting threads were %d %% in TEE calls (%d %% of it asleep).",
			   pct(a->part_share[PART_ACCEPT]), verdict_pct(e->acc.tee),
			   verdict_pct(e->acc.tee_asleep));
	else if (v->path == PATH_ACCEPT_QUEUE && e->acc.unknown > 0)
		print_para(2, "  Through the accept queue: %.0f %% of the handshake time waiting for accept() while the accepting threads waited %d %% of it for a CPU (%d %% of the time their state is known).",
			   pct(a->part_share[PART_ACCEPT]), verdict_pct(e->acc.runnable),
			   verdict_pct(e->acc.runnable / (1 - e->acc.unknown)));
	else if (v->path == PATH_ACCEPT_QUEUE)
		print_para(2, "  Through the accept queue: %.0f %% of the handshake time waiting for accept() while the accepting threads waited %d %% of it for a CPU.",
			   pct(a->part_share[PART_ACCEPT]), verdict_pct(e->acc.runnable));
	if (v->fix)
		print_para(7, "  Fix: %s.", v->fix);
}

/* analyze_text - struct analysis as text; with --windows, the series too */
void analyze_text(const struct analysis *a, const struct analyze_opts *o)
{
	print_text(a, o);
	if (o->windows)
		print_windows(a);
}
