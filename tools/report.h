/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - a recorded session read back, and its headline figures, for
 * "teeprobe report" and "teeprobe compare".
 */
#ifndef TEEPROBE_REPORT_H
#define TEEPROBE_REPORT_H

#include <stdbool.h>
#include <sys/types.h>

struct report;
struct session_events;

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

struct report *report_read(const char *input);
void report_read_in_parent(bool yes);
void report_read_stall(unsigned int ms);
pid_t report_last_child(int *status);
void report_summarize(struct report *r, struct session_summary *s);
bool report_has_snapshots(const struct report *r);
const char *report_counters_note(const struct report *r);
const struct session_events *report_events(const struct report *r);
void report_release(struct report *r);

#endif /* TEEPROBE_REPORT_H */
