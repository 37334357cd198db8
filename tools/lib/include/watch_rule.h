/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch_rule.h - the decisions of "teeprobe watch", pure (no I/O, no
 * clock) so that the unit tests drive them with made-up windows:
 *
 *   - one host-wide window out of the module's per-CPU window events
 *     (teeprobe_tcp_window, teeprobe_netrx_window), and when it is complete;
 *   - when a run of windows over a threshold is a breach, and when the
 *     cooldown lets a breach start a capture;
 *   - which of the snapshots kept in memory starts a capture, given how far
 *     back each CPU's ring still holds every event;
 *   - how large the ring must grow to hold the time asked for;
 *   - which old captures go, and whether the disk has room for a new one.
 *
 * Times are CLOCK_MONOTONIC nanoseconds (the module's window clock and the
 * trace clock "mono" of the watch's instances).
 */
#ifndef TEEPROBE_WATCH_RULE_H
#define TEEPROBE_WATCH_RULE_H

#include <stdbool.h>
#include <stddef.h>

/* What a watch can hold against a threshold, one option each */
enum watch_measure {
	WATCH_HANDSHAKE_P99,	/* SYN -> SYN/ACK or ACK -> accept() p99, ns */
	WATCH_NETRX_P99,	/* NET_RX raise -> entry delay p99, ns */
	WATCH_TEE_BLOCKED,	/* of the TEE calls' time, asleep: 0..1 */
	NR_WATCH_MEASURES
};

const char *watch_measure_key(enum watch_measure m);	/* "handshake_p99" */
const char *watch_measure_name(enum watch_measure m);	/* "handshake p99" */
int watch_measure_of(const char *key);			/* -1: none */
bool watch_measure_is_time(enum watch_measure m);
int watch_parse_threshold(enum watch_measure m, const char *arg, double *value);
int watch_parse_duration_ns(const char *arg, double *ns);
const char *watch_value_str(enum watch_measure m, double value, char *buf,
			    size_t len);

/* One host-wide window: every CPU's window events with the same start */
struct watch_window {
	unsigned long long start_ns, len_ns;
	double handshakes;		/* server handshakes timed in it */
	double netrx_waits;		/* NET_RX runs with a raise before them */
	double tee_calls;		/* set by the caller (tee_stats), or 0 */
	double value[NR_WATCH_MEASURES];	/* NAN: nothing measured */
	int cpus;			/* CPUs whose events it holds */
};

/* The per-CPU fields of the window events the watch reads */
struct watch_tcp_event {
	int cpu;
	unsigned long long start_ns, len_ns;
	unsigned long long syn_synack_count, syn_synack_p99_ns;
	unsigned long long ack_accept_count, ack_accept_p99_ns;
};

struct watch_netrx_event {
	int cpu;
	unsigned long long start_ns, len_ns;
	unsigned long long inline_count, inline_p99_ns;
	unsigned long long ksoftirqd_count, ksoftirqd_p99_ns;
};

/*
 * The windows whose events are still coming in. A CPU emits a window's
 * event when it next has something to count, or from a work item an eighth
 * of a window after its end when it went quiet: a window is judged once
 * @grace_ns have passed since its end, and an event for a window already
 * judged is counted as late and left out.
 */
#define WATCH_OPEN_WINDOWS	16

struct watch_windows {
	struct watch_window open[WATCH_OPEN_WINDOWS];
	int nr_open;
	unsigned long long judged_until_ns;	/* end of the last window judged */
	unsigned long long late, overflow;	/* events left out */
};

void watch_windows_init(struct watch_windows *ws);
void watch_windows_add_tcp(struct watch_windows *ws, const struct watch_tcp_event *e);
void watch_windows_add_netrx(struct watch_windows *ws,
			     const struct watch_netrx_event *e);
struct watch_window *watch_windows_get(struct watch_windows *ws,
				       unsigned long long start_ns,
				       unsigned long long len_ns);
bool watch_windows_next_due(struct watch_windows *ws, unsigned long long now_ns,
			    unsigned long long grace_ns, struct watch_window *out);
void watch_windows_close_until(struct watch_windows *ws, unsigned long long now_ns,
			       unsigned long long grace_ns, unsigned long long len_ns);

/* The thresholds, and how many windows in a row make a breach */
struct watch_rule {
	bool set[NR_WATCH_MEASURES];
	double threshold[NR_WATCH_MEASURES];
	int run_windows;		/* windows over in a row (>= 1) */
	double min_tee_calls;		/* fewer in a window: no TEE share */
};

/* What one window did to one measure */
enum watch_state {
	WATCH_EMPTY,	/* nothing measured: neither counts nor breaks a run */
	WATCH_UNDER,	/* at or under the threshold: the run ends */
	WATCH_OVER,	/* over it, the run not yet long enough */
	WATCH_BREACH,	/* over it, in a run of at least run_windows */
};

/* The judge's state: runs, counts, and the last breach and capture */
struct watch_judge {
	int run[NR_WATCH_MEASURES];
	double run_start_ns[NR_WATCH_MEASURES];	/* first window of the run */
	double last_value[NR_WATCH_MEASURES];
	unsigned long long windows, over[NR_WATCH_MEASURES];
	unsigned long long breaches[NR_WATCH_MEASURES];	/* runs that became one */
	bool captured;			/* a capture was started */
	double last_capture_ns;		/* when the last capture was started */
};

void watch_judge_init(struct watch_judge *j);
int watch_judge_window(struct watch_judge *j, const struct watch_rule *r,
		       const struct watch_window *w,
		       enum watch_state state[NR_WATCH_MEASURES]);
bool watch_cooldown_over(const struct watch_judge *j, double now_ns,
			 double cooldown_ns);
void watch_judge_captured(struct watch_judge *j, double now_ns);

/*
 * How far back a capture's events are whole: each CPU's ring since the
 * ring was (re)started at @restart_ns, or since its oldest event when it
 * has overwritten some since
 */
struct watch_cpu_ring {
	bool overwrote;			/* events lost since the restart */
	double oldest_ns;		/* its oldest event still held */
};

double watch_whole_from(const struct watch_cpu_ring *cpus, int ncpus,
			double restart_ns);
int watch_pick_start(const double *snap_ns, int n, double from_ns);

unsigned long watch_ring_kb(unsigned long cur_kb, double span_s, double want_s,
			    bool overwrote, unsigned long max_kb);

/* Old captures, and room for a new one */
int watch_capture_cmp(const void *a, const void *b);
int watch_prune(const char *const *names, int n, int keep, bool *remove);
bool watch_capture_name_ok(const char *name);
bool watch_disk_has_room(double free_bytes, double ring_bytes,
			 double min_free_bytes);

#endif /* TEEPROBE_WATCH_RULE_H */
