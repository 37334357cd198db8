/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modstats.h - the text of teeprobe.ko's debugfs files, parsed once into
 * types: one table per file (a '#' line naming the columns, then rows of
 * space-separated fields), its "# key value" lines, and the handshake
 * phases (tcp_phases). Text comes live from debugfs or from the snapshot
 * markers of a trace.dat (snapshot.h); both the module's current shape and
 * the older one (phase rows inside tcp_stats, "# table size N in_use N
 * ..." and "# acceptors N of M overflow K" lines, log2 histograms
 * without a "# hist_sub_bits" line) are read.
 *
 * Every numeric field is checked when parsed: a truncated or garbled file
 * is an error with its line, never a table with a wrong number in it.
 */
#ifndef TEEPROBE_MODSTATS_H
#define TEEPROBE_MODSTATS_H

#include <stdbool.h>

#include "module/abi.h"
#include "hist.h"

struct snapshot;

/* one row: its fields as text, and those of numeric columns as numbers */
struct modstats_row {
	char **field;			/* ncols fields */
	unsigned long long *num;	/* ncols; 0 in text columns */
};

/* a "# key value" line */
struct modstats_kv {
	char *key;
	char *value;
};

/* a handshake phase of one port, all CPUs (tcp_phases) */
struct modstats_phase {
	char port[16];			/* a number, or "other" */
	enum teeprobe_tcp_phase phase;
	unsigned long long count, sum_ns, max_ns, p50_ns, p99_ns;
};

/* generation: "load ID reset N", this load of the module and its resets */
struct modstats_generation {
	char load[32];			/* hex digits */
	unsigned int reset;
};

struct modstats {
	char **cols;			/* column names, from the header */
	int ncols;
	struct modstats_row *rows;
	int nrows;
	struct modstats_kv *kv;		/* "# key value" lines, in order */
	int nkv;
	struct modstats_phase *phases;	/* tcp_phases, or old tcp_stats */
	int nphases;
	/* *_hist: log-linear with "# hist_sub_bits N", else the older log2 */
	enum hist_layout hist_layout;
};

int modstats_parse(struct modstats *m, const char *file, const char *text,
		   char *err, size_t err_len);
void modstats_free(struct modstats *m);
const struct modstats *modstats_of(const struct snapshot *s, const char *file);
void modstats_cache_free(void *cached);

int modstats_col(const struct modstats *m, const char *name);
int modstats_find(const struct modstats *m, const char *key0, const char *key1);
double modstats_num(const struct modstats *m, int row, int col);
unsigned long long modstats_u64(const struct modstats *m, int row, int col);
double modstats_get(const struct modstats *m, const char *key0,
		    const char *key1, const char *col);
const char *modstats_kv(const struct modstats *m, const char *key);
bool modstats_kv_u64(const struct modstats *m, const char *key,
		     unsigned long long *v);
int modstats_phases(const struct snapshot *s,
		    const struct modstats_phase **phases);
const struct modstats_phase *modstats_phase(const struct snapshot *s,
					    const char *port,
					    enum teeprobe_tcp_phase phase);
bool modstats_generation(const char *text, struct modstats_generation *g);
int modstats_phase_of(const char *name);
const char *modstats_phase_name(enum teeprobe_tcp_phase phase);

#endif /* TEEPROBE_MODSTATS_H */
