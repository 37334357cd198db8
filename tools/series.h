/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - a session's events as time series: the raw material of
 * "teeprobe analyze" and "teeprobe plot", kept by report_read() as it
 * reads the file, then cut into aligned windows (series.c).
 *
 * Times are the trace clock's (record uses CLOCK_MONOTONIC, the module's
 * window clock), in nanoseconds.
 */
#ifndef TEEPROBE_SERIES_H
#define TEEPROBE_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#define SERIES_MAX_CPUS	256

/* One TEE ioctl, from its exit event */
struct tee_call {
	unsigned long long end_ns, dur_ns, offcpu_ns, runq_ns, queue_wait_ns;
	int cpu, tid;
	bool setup;		/* SHM_REGISTER or SHM_ALLOC */
};

/* One CPU's NET_RX window (teeprobe_netrx_window) */
struct netrx_win {
	int cpu;
	unsigned long long start_ns, len_ns;
	double raises, runs, ksoftirqd_runs, run_ns, packets, reraises;
	double inline_n, inline_sum_ns, inline_p99_ns;
	double ksoftirqd_n, ksoftirqd_sum_ns, ksoftirqd_p99_ns;
	double tee_runs, tee_sum_ns;	/* inline runs inside TEE calls */
};

/* One handshake (teeprobe_tcp_handshake) */
struct hs_event {
	unsigned long long ts;
	int tid;		/* server: the thread that accepted it */
	int port;		/* server: the listening port; client: the remote */
	bool client;
	bool has_waits;		/* the event carries syn_wait_ns and ack_wait_ns */
	unsigned long long syn_synack_ns, synack_ack_ns, ack_accept_ns;
	unsigned long long syn_wait_ns, ack_wait_ns;	/* its own packets' */
	unsigned long long connect_ns;
};

/* The scheduler states of accepting threads (teeprobe_acceptor_state) */
enum acc_state { ACC_RUNNING, ACC_RUNNABLE, ACC_ASLEEP, ACC_UNKNOWN };

struct acc_event {
	unsigned long long ts;
	int tid;
	enum acc_state state;
};

struct session_events {
	struct tee_call *tee;
	size_t ntee, cap_tee;
	struct netrx_win *netrx;
	size_t nnetrx, cap_netrx;
	struct hs_event *hs;
	size_t nhs, cap_hs;
	struct acc_event *acc;
	size_t nacc, cap_acc;
	unsigned long long end_ns;	/* the last event's time */
};

/* The per-window figures, host-wide ("all") or of one CPU */
struct win_point {
	/* TEE: time inside ioctls (spread over the windows a call spans) */
	double tee_calls, tee_busy_ns, tee_oncpu_ns, tee_offcpu_ns;
	/* NET_RX */
	double netrx_runs, packets, run_ns;
	double inline_n, inline_sum_ns, ksoftirqd_n, ksoftirqd_sum_ns;
	double delay_p99_ns;		/* the larger of the two p99s */
	double tee_wait_n, tee_wait_ns;	/* the wait of runs TEE calls held */
	/* server handshakes finished in the window, and their phase sums */
	double hs, syn_synack_ns, synack_ack_ns, ack_accept_ns;
	/* client handshakes (connect) finished in the window */
	double connects, connect_ns;
};

struct series {
	unsigned long long t0_ns, len_ns;	/* first window's start, length */
	size_t n;				/* windows */
	int ncpus;				/* CPUs with NET_RX windows */
	struct win_point *all;			/* [n] */
	struct win_point *cpu;			/* [ncpus * n], CPU c at c * n */
};

/* series_build - cut @ev into windows; -1 (after a message) if it cannot */
int series_build(const struct session_events *ev, struct series *s);
void series_free(struct series *s);
void session_events_free(struct session_events *ev);

/* Helpers on one window point: NAN where there is nothing to average */
double point_netrx_delay_ns(const struct win_point *p);	/* mean raise->entry */
double point_handshake_ns(const struct win_point *p);	/* mean server phases */

#endif /* TEEPROBE_SERIES_H */
