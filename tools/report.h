/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - "teeprobe report": a session's tables, computed once into
 * struct report (report.c), then shown as text (report_text.c) or JSON
 * (report_json.c); the headline figures of a session are figures.h's.
 */
#ifndef TEEPROBE_REPORT_H
#define TEEPROBE_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "module/abi.h"
#include "session.h"
#include "hist.h"

#define REPORT_TOP_THREADS	5
#define REPORT_PORT_COUNTERS	11
#define REPORT_TCP_COUNTERS	8
#define REPORT_HIST_COLUMNS	(SESSION_MAX_CPUS + 1)	/* a CPU each, then all */

struct session;

struct report_opts {
	const char *input;	/* the file's name, as the report shows it */
	bool json;
	bool hist;
	bool header;
};

/* The shares of CPU time, in this order: user, system, softirq, irq, idle */
struct report_cpu_row {
	int cpu;
	double pct[5];
};

/* One TEE command: counts from the module's counters or from the events */
struct report_tee_cmd {
	char *name;
	double calls, calls_per_s, errors;
	double total_ns, offcpu_ns, runq_ns, queue_wait_ns;
	double secure_entries, secure_ns;	/* 0: no secure-world probes */
	double mean_ns, p50_ns, p99_ns, max_ns;
	double blocked_share, runq_share, oncpu_share, queue_wait_share;
	double secure_per_call, secure_mean_ns, secure_share, normal_share;
};

struct report_thread {
	int tid;
	char comm[32];
	unsigned long long calls;
	double total_ns, offcpu_ns;
	double blocked_share;
};

/* NET_RX of one CPU from the window summaries (a plain trace-cmd file) */
struct report_netrx_windows {
	int cpu;
	unsigned long long windows;
	double runs, packets;
	double runs_per_s, packets_per_s, ksoftirqd_share;
};

/* netrx_stats' columns, numbered in abi.h's order */
#define REPORT_NETRX_COL(name, kind, ...) REPORT_NETRX_##name,
enum report_netrx_col {
	TEEPROBE_NETRX_STATS_COLS(REPORT_NETRX_COL)
	REPORT_NETRX_COLS
};

/* NET_RX of one CPU (or "all") from the module's counters and histograms */
struct report_netrx_cpu {
	char cpu[16];
	/*
	 * the session's difference of each COUNT column of netrx_stats (a
	 * column an older module lacks: NAN), indexed by REPORT_NETRX_name;
	 * the others unused
	 */
	double count[REPORT_NETRX_COLS];
	double runs_per_s, raises_per_s, packets_per_s;
	double packets_per_run, ksoftirqd_share;
	double inline_ns[3], ksoftirqd_ns[3];	/* p50, p99, max */
};

struct report_nic {
	char dev[64];
	double rx_packets, rx_packets_per_s;
};

struct report_counter {
	const char *name;
	double count, per_s;
};

/* A handshake phase of one port, from the module's counters */
struct report_port_phase {
	const char *name;
	double count, per_s, sum_ns, mean_ns, p50_ns, p99_ns, max_ns;
};

struct report_port {
	char *port;
	struct report_counter counters[REPORT_PORT_COUNTERS];
	struct report_port_phase phases[TEEPROBE_TCP_PHASES];
	int nr_phases;
};

/* A handshake phase from the events (exact) */
struct report_event_phase {
	const char *name;
	size_t count;
	double mean_ns, p50_ns, p99_ns;
	unsigned long long max_ns;
};

/* One histogram set, a column per CPU and one for all */
struct report_hist {
	const char *title;
	bool shown;		/* the snapshots hold it, and it counted runs */
	int ncol;
	enum hist_layout layout;	/* of the module that counted them */
	double bucket[REPORT_HIST_COLUMNS][HIST_BUCKETS];
	double total[REPORT_HIST_COLUMNS];
};

/* report - every number "teeprobe report" shows; the renderers only read it */
/* What started a capture of teeprobe watch (its "capture" lines) */
struct report_capture {
	int measure;			/* enum watch_measure; -1: not said */
	double value, threshold;	/* the measure's: ns, or a share */
	int run_windows;
};

struct report {
	/* the session */
	double seconds;
	int ncpus;
	const char *uname;		/* the session's, or NULL */
	bool snapshots;
	const struct session_kind *kinds;
	int nr_kinds;
	unsigned long long other_events, missed_events;
	double ring_losses, tee_missed, tee_untracked, tcp_missed;
	/* handshakes' phases no histogram took (a port's block not allocated) */
	double tcp_phases_lost;
	const char *counters_note;	/* why the counters do not subtract */
	/* a capture of teeprobe watch: its start snapshot's "capture" lines */
	const char *capture;
	unsigned long long before_start;	/* its ring's events left out */

	/* CPU context */
	bool cpu_ok;
	double cpu_all[5];
	struct report_cpu_row *cpus;
	int nr_cpus;

	/* TEE ioctls */
	bool tee_from_snapshots;
	bool tee_exact;			/* percentiles from every call's event */
	enum hist_layout tee_layout;	/* else from histograms of this layout */
	int tee_candidates;		/* commands looked at; 0: no TEE ioctls */
	struct report_tee_cmd *tee_cmds;
	int nr_tee_cmds;
	struct report_thread threads[REPORT_TOP_THREADS];
	int nr_threads;
	unsigned long long threads_overflow;

	/* NET_RX and the NICs */
	bool netrx_from_snapshots;
	/* NET_RX windows, and those closed late (if the events say) */
	bool netrx_late_known;
	unsigned long long netrx_windows_seen, netrx_windows_late;
	double netrx_windows_late_max_ns;
	enum hist_layout netrx_layout;	/* of netrx_hist: how its percentiles are */
	struct report_netrx_windows *netrx_windows;
	int nr_netrx_windows;
	struct report_netrx_cpu *netrx_cpus;
	int nr_netrx_cpus;
	bool nics_ok;			/* the snapshots have /proc/net/dev */
	struct report_nic *nics;
	int nr_nics;

	/* TCP handshakes and the kernel's counters */
	struct report_port *ports;
	int nr_ports;
	enum hist_layout tcp_layout;	/* of tcp_hist: how its percentiles are */
	unsigned long long handshakes[2];	/* server, client events */
	struct report_event_phase event_phases[TEEPROBE_TCP_PHASES];
	int nr_event_phases;
	bool tcp_ok;
	struct report_counter tcp[REPORT_TCP_COUNTERS];

	/* the histograms (with --no-hist: none) */
	struct report_hist hist[2];
	int nr_hist;
};

void report_capture_of(const struct report *r, struct report_capture *c);
struct report *report_compute(const struct session *s,
			      const struct report_opts *o);
void report_free(struct report *r);
void report_text(const struct report *r, const struct report_opts *o);
void report_json(const struct report *r, const struct report_opts *o);
void report_print(const struct session *s, const struct report_opts *o);
int report_file(const struct report_opts *o);

#endif /* TEEPROBE_REPORT_H */
