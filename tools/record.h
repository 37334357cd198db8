/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - a recording session, for "teeprobe record" and for "teeprobe
 * analyze -d", which records one before it analyses it.
 */
#ifndef TEEPROBE_RECORD_H
#define TEEPROBE_RECORD_H

#include <stdbool.h>
#include <sys/types.h>

#define MAX_PIDS	8

/* What to record: record's options */
struct record_opts {
	double duration;		/* 0: until Ctrl-C */
	int pids[MAX_PIDS];
	int nr_pids;
	const char *output;
	const char *cpus;		/* a CPU list, or NULL for all */
	unsigned int window_ms;		/* 0: leave the module's */
	unsigned int buffer_kb;		/* each CPU's ring; 0: the kernel's */
	bool raw;
	bool sched;
	bool kallsyms;			/* keep trace-cmd's copy of kallsyms */
	bool quiet;
};

int record_option(struct record_opts *o, int opt, const char *arg);
int record_session(const struct record_opts *o);

/*
 * The pieces of a session that "teeprobe watch" shares with record: the
 * module's settings and pin, trace-cmd as the trace.dat's writer, the
 * room a file needs, and the file read back
 */
#define RECORD_MIN_FREE_BYTES	(4 << 20)	/* room a session needs at the least */

struct session;

bool record_raw_event(const char *name);
int record_config_apply(const struct record_opts *o);
int module_pin(void);
pid_t record_tracecmd_start(char **argv, bool kallsyms, int deathsig, int err_fd);
int record_dir_usable(const char *opt, const char *dir);
void record_remove_temp_files(const char *output, const char *instance);
struct session *record_output_read(const char *output);

#endif /* TEEPROBE_RECORD_H */
