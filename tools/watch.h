/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch.h - the parts of "teeprobe watch" (watch.c: the command, its
 * windows and its loop; watch_ring.c: its tracefs instances; watch_capture.c:
 * a capture written, analysed and said), and what they share.
 */
#ifndef TEEPROBE_WATCH_H
#define TEEPROBE_WATCH_H

#include <signal.h>
#include <stdbool.h>

#include "record.h"
#include "snapshot.h"
#include "verdict.h"
#include "watch_rule.h"
#include "watch_state.h"

#define MAX_SNAPS		8	/* snapshots kept, a few per ring */
#define WIN_KB			64	/* the window events' buffer, per CPU */
#define MARK_KB			4	/* the markers' buffer between captures */
#define EXTRACT_TIMEOUT_S	600	/* trace-cmd extract of a full ring */
#define MIN_TEE_CALLS		10	/* fewer in a window: no blocked share */

struct tracefs_instance;
struct tep_handle;

struct watch_opts {
	struct watch_rule rule;
	struct record_opts rec;		/* -p and -w, as record takes them */
	struct verdict_opts verdict;
	double ring_s, after_s, cooldown_s, duration_s;
	unsigned long ring_max_kb;	/* all CPUs together */
	int keep;
	const char *dir;
	bool states;			/* the ring gets teeprobe_acceptor_state */
};

/* The watch's three tracefs instances */
struct rings {
	char ring_name[64], win_name[64], mark_name[64];
	struct tracefs_instance *ring, *win, *mark;
	struct tep_handle *tep;		/* the teeprobe events' formats */
	int tcp_id, netrx_id;		/* the window events' ids */
	int ncpus;
	unsigned long ring_kb;		/* per CPU */
	double restart_ns;		/* the ring holds events from then on */
	unsigned long long *overrun0, *dropped0;	/* per CPU, then */
};

/* A capture waiting for its --after, and what started it */
struct pending {
	bool on;
	double at_ns;			/* when the ring is written */
	enum watch_measure measure;
	double value, run_start_ns, breach_ns, breach_wall;
	int run;
};

struct watch {
	const struct watch_opts *o;
	struct rings r;
	struct watch_windows ws;
	struct watch_judge judge;
	struct watch_status st;
	struct snapshot snaps[MAX_SNAPS];
	int nsnaps;
	struct pending cap;
	double last_snap_ns, last_sizing_ns, cooldown_said_ns, last_status_ns;
	bool status_due;		/* a breach: the status written at once */
	double tee_total_ns, tee_off_ns, tee_calls;	/* at the last read */
	bool tee_read;
	bool journal;			/* stderr is the journal */
	char part[4200];		/* the capture being written */
};

extern volatile sig_atomic_t watch_stop;

/* watch.c */
void say(const struct watch *w, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
double now_ns(void);
double wall_s(void);
void poll_windows(struct watch *w);
void snap_take(struct watch *w);
void snaps_clear(struct watch *w);

/* watch_ring.c */
int rings_up(struct rings *r, const struct watch_opts *o);
void rings_down(struct rings *r);
void ring_read(const struct rings *r, struct watch_cpu_ring *cpus, double *bytes,
	       double *overwritten, double *dropped, double *span_s);
void ring_baseline(struct rings *r);
bool ring_wrapped(const struct rings *r);
void ring_size(struct watch *w);

/* watch_capture.c */
void capture_start(struct watch *w, enum watch_measure m, double now);
void capture(struct watch *w);
void part_gone(struct watch *w);

#endif /* TEEPROBE_WATCH_H */
