/* SPDX-License-Identifier: GPL-2.0 */
/*
 * series.h - a session's events as time series: the raw material of
 * "teeprobe analyze" and "teeprobe plot", read by session_read()
 * (session.h), cut into aligned windows (series.c).
 *
 * Times are the trace clock's (record uses CLOCK_MONOTONIC, the module's
 * window clock), in nanoseconds.
 */
#ifndef TEEPROBE_SERIES_H
#define TEEPROBE_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

#define SERIES_MAX_CPUS	256

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

/*
 * The same, one event at a time: the windows' extent from every event
 * first (series_extent_*), then series_start() and each event added
 * (series_add_*), the events of a kind in the same order as the first
 * time; the kinds add to figures of their own
 */
struct series_extent {
	unsigned long long first, last, len;
	int ncpus;
};

void series_extent_init(struct series_extent *x);
void series_extent_netrx(struct series_extent *x, const struct netrx_win *w);
void series_extent_tee(struct series_extent *x, const struct tee_call *c);
void series_extent_hs(struct series_extent *x, const struct hs_event *h);
int series_start(struct series *s, const struct series_extent *x);
void series_add_netrx(struct series *s, const struct netrx_win *w);
void series_add_tee(struct series *s, const struct tee_call *c);
void series_add_hs(struct series *s, const struct hs_event *h);
void series_free(struct series *s);

/* Helpers on one window point: NAN where there is nothing to average */
double point_netrx_delay_ns(const struct win_point *p);	/* mean raise->entry */
double point_handshake_ns(const struct win_point *p);	/* mean server phases */

#endif /* TEEPROBE_SERIES_H */
