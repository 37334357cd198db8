/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - "teeprobe report": a session's tables printed, and the
 * headline figures of a session for report, analyze and compare.
 */
#ifndef TEEPROBE_REPORT_H
#define TEEPROBE_REPORT_H

#include <stdbool.h>

struct session;

/* The figures of the case's before/after table, NAN when not recorded */
struct session_summary {
	double seconds;
	double system_pct, softirq_pct;
	double netrx_per_s, rx_packets_per_s, packets_per_run;
	double inline_delay_p99_ns, ksoftirqd_share;
	double tee_calls_per_s, tee_blocked_share, tee_mean_ns;
	double tee_calls, tee_total_ns;		/* in the session */
	double handshakes_per_s, accepted;
	double syn_synack_ns, synack_ack_ns, ack_accept_ns;	/* means */
	double connect_ns;					/* mean */
	double handshake_ns;	/* the three server phases' means, added */
	double tee_per_hs_ns;	/* TEE ioctl time per accepted handshake */
	double untracked;	/* accepted handshakes not timed */
	double tcp_missed;	/* TCP hook and probe hits missed */
};

struct report_opts {
	const char *input;	/* the file's name, as the report shows it */
	bool json;
	bool hist;
	bool header;
};

void report_print(const struct session *s, const struct report_opts *o);
void report_summarize(const struct session *ses, struct session_summary *sum);

#endif /* TEEPROBE_REPORT_H */
