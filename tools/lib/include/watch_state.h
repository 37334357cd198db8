/* SPDX-License-Identifier: GPL-2.0 */
/*
 * watch_state.h - what a running "teeprobe watch" says of itself, for
 * "teeprobe stat --prometheus" and for the sweep of what a watch that did
 * not end left behind.
 *
 * The watch keeps WATCH_STATE_FILE up to date (written whole, then renamed
 * over the old one): "key value" lines, per measure "key measure value".
 * Parsing and formatting are pure (unit-tested); the reading and writing,
 * and the sweep, are the I/O around them.
 */
#ifndef TEEPROBE_WATCH_STATE_H
#define TEEPROBE_WATCH_STATE_H

#include <stdbool.h>
#include <stdio.h>

#include "lock.h"
#include "watch_rule.h"

#define WATCH_STATE_FILE	TEEPROBE_RUN_DIR "/watch"
/* a capture being written: DIR/.teeprobe-watch-PID.part (and trace-cmd's) */
#define WATCH_PART_PREFIX	".teeprobe-watch-"

struct watch_status {
	int pid;
	double started;			/* Unix time */
	char dir[4096];
	unsigned int window_ms;
	int run_windows;
	double ring_s, after_s, cooldown_s;
	int keep;
	unsigned long ring_kb;		/* per CPU, now */
	bool set[NR_WATCH_MEASURES];
	double threshold[NR_WATCH_MEASURES];
	double value[NR_WATCH_MEASURES];	/* last window's; NAN: none yet */
	unsigned long long over[NR_WATCH_MEASURES];
	unsigned long long breaches[NR_WATCH_MEASURES];
	unsigned long long windows, late_events;
	double judged_until_ns;		/* CLOCK_MONOTONIC: windows ended by then */
	unsigned long long captures, failed, skipped_cooldown, skipped_disk;
	double last_breach, last_capture;	/* Unix time; 0: none */
	char last_file[4096];
	char last_verdict[64];		/* the verdict's key */
};

void watch_status_init(struct watch_status *st);
void watch_status_format(FILE *out, const struct watch_status *st);
bool watch_status_parse(const char *text, struct watch_status *st);

int watch_status_write(const struct watch_status *st);
bool watch_status_read(struct watch_status *st, bool *running);
void watch_state_sweep(const char *who);

#endif /* TEEPROBE_WATCH_STATE_H */
