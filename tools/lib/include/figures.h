/* SPDX-License-Identifier: GPL-2.0 */
/*
 * figures.h - the headline figures of the chain between two snapshots,
 * computed once here for every command that shows them: stat (each
 * interval), report and compare (a session's start and end), analyze.
 */
#ifndef TEEPROBE_FIGURES_H
#define TEEPROBE_FIGURES_H

struct snapshot;
struct session;

/* Between two snapshots: NAN where the snapshots do not hold the part */
struct figures {
	double seconds;				/* the rates' denominator */
	double system_pct, softirq_pct;		/* all CPUs */
	double netrx_runs, netrx_per_s;
	double ksoftirqd_share;			/* of NET_RX runs, 0..1 */
	double inline_delay_p99_ns;		/* histogram upper bound */
	double rx_packets_per_s;		/* the NICs' (/proc/net/dev) */
	double packets_per_run;			/* napi's packets per NET_RX run */
	double tee_calls, tee_total_ns, tee_calls_per_s;
	double tee_blocked_share, tee_mean_ns;
	double tee_p99_ns;			/* every command, upper bound */
	double accepted, handshakes_per_s;	/* the module's, every port */
	double untracked;			/* accepted handshakes not timed */
	double passive_opens_per_s;		/* the kernel's PassiveOpens */
	double syn_synack_p99_ns, ack_accept_p99_ns;	/* every port */
	double tcp_missed;			/* TCP hook and probe hits missed */
};

void figures_compute(const struct snapshot *a, const struct snapshot *b,
		     double seconds, struct figures *f);

/* A session's figures: the snapshots' and what its events add */
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
	double syn_accept_ns;	/* the three server phases' means, added */
	double syn_wait_ns;	/* mean SYN's NET_RX wait (NAN: not in the file) */
	/*
	 * the part of a client's handshake the server sees: its SYN's NET_RX
	 * wait, SYN -> accept and the application's TEE time per handshake
	 */
	double client_handshake_ns;
	double tee_per_hs_ns;	/* TEE ioctl time per accepted handshake */
	double untracked;	/* accepted handshakes not timed */
	double tcp_missed;	/* TCP hook and probe hits missed */
};

void figures_summarize(const struct session *ses, struct session_summary *sum);

/* The handshakes' phase means (NAN: none), from their events */
struct hs_means {
	double syn_synack_ns, synack_ack_ns, ack_accept_ns;	/* server's */
	double connect_ns;					/* client's */
	double syn_wait_ns;	/* server's, of the events that carry it */
};

void figures_hs_means(const struct session *ses, struct hs_means *m);
void figures_summarize_with(const struct session *ses,
			    const struct hs_means *m,
			    struct session_summary *sum);

#endif /* TEEPROBE_FIGURES_H */
