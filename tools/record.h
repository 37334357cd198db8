/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - a recording session, for "teeprobe record" and for "teeprobe
 * analyze -d", which records one before it analyses it.
 */
#ifndef TEEPROBE_RECORD_H
#define TEEPROBE_RECORD_H

#include <stdbool.h>

#define MAX_PIDS	8

/* What to record: record's options */
struct record_opts {
	double duration;		/* 0: until Ctrl-C */
	int pids[MAX_PIDS];
	int nr_pids;
	const char *output;
	const char *cpus;		/* a CPU list, or NULL for all */
	unsigned int window_ms;		/* 0: leave the module's */
	bool raw;
	bool sched;
	bool kallsyms;			/* keep trace-cmd's copy of kallsyms */
	bool quiet;
};

int record_option(struct record_opts *o, int opt, const char *arg);
int record_session(const struct record_opts *o);

#endif /* TEEPROBE_RECORD_H */
