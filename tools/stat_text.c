// SPDX-License-Identifier: GPL-2.0
/*
 * stat_text.c - "teeprobe stat" as text: a line per interval, sar style,
 * the column names above the first line and again after a skipped one.
 */
#include <stdio.h>

#include "figures.h"
#include "stat.h"

/* stat_text - line @l as text: its figures, or why it was skipped */
void stat_text(const struct stat_line *l)
{
	const struct figures *f = l->f;

	if (!f) {
		printf("%-8s interval skipped: %s\n", l->time, l->skipped);
		return;
	}
	if (l->header)
		printf("%-8s %7s %7s %9s %9s %7s %10s %6s %8s %8s %10s %9s %10s %10s\n",
		       "time", "%sys", "%soft", "netrx/s", "rxpkt/s",
		       "pkt/run", "inl_p99us", "ksd%", "tee/s",
		       "blocked%", "tee_p99us", "accepts/s",
		       "syn_p99us", "acc_p99us");
	printf("%-8s %7.2f %7.2f %9.1f %9.1f %7.2f %10.1f %6.1f %8.1f %8.1f %10.1f %9.1f %10.1f %10.1f\n",
	       l->time, f->system_pct, f->softirq_pct, f->netrx_per_s,
	       f->rx_packets_per_s, f->packets_per_run,
	       f->inline_delay_p99_ns / 1e3, 100 * f->ksoftirqd_share,
	       f->tee_calls_per_s, 100 * f->tee_blocked_share,
	       f->tee_p99_ns / 1e3, f->passive_opens_per_s,
	       f->syn_synack_p99_ns / 1e3, f->ack_accept_p99_ns / 1e3);
}
