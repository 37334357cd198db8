/* SPDX-License-Identifier: GPL-2.0 */
/*
 * derive.h - figures derived from two snapshots (start, end): CPU time
 * shares, counter differences in the module's tables and the kernel's TCP
 * counters, NIC receive counts, histogram differences. Shared by report
 * and stat.
 */
#ifndef TEEPROBE_DERIVE_H
#define TEEPROBE_DERIVE_H

#include <stdbool.h>

#include "table.h"
#include "snapshot.h"
#include "hist.h"

/* one debugfs file of the start and end snapshots, parsed (modstats_of) */
struct tables {
	const struct modstats *t[2];
	bool ok;
	enum hist_layout layout;	/* of a histogram file's buckets */
};

bool derive_same_counters(const struct snapshot *a, const struct snapshot *b,
			  const char **why);
void tables_load(struct tables *tb, const struct snapshot *a,
		 const struct snapshot *b, const char *source);
double tables_delta(const struct tables *tb, const char *k0, const char *k1,
		    const char *col);
double tables_hist_keyed_delta(const struct tables *tb, const char *const *keys,
			       int nkeys, const char *col,
			       double bucket[HIST_BUCKETS]);
double tables_hist_delta(const struct tables *tb, const char *key,
			 const char *col, double bucket[HIST_BUCKETS]);
double tables_hist_pct(const struct tables *tb, const double *bucket,
		       double max, double pct);
bool derive_cpu(const struct snapshot *a, const struct snapshot *b,
		const char *name, double pct[5]);
double derive_snmp(const struct snapshot *a, const struct snapshot *b,
		   const char *source, const char *name);
double derive_nic_rx(const struct snapshot *a, const struct snapshot *b,
		     const char *dev);
double derive_seconds(const struct snapshot *a, const struct snapshot *b);

#endif /* TEEPROBE_DERIVE_H */
