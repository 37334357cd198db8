/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prometheus.h - the module's counters in the Prometheus text format
 * (what node_exporter's textfile collector reads), formatted from a
 * snapshot of the debugfs files alone: no kernel needed, unit-tested on
 * recorded files.
 */
#ifndef TEEPROBE_PROMETHEUS_H
#define TEEPROBE_PROMETHEUS_H

#include <stdbool.h>
#include <stdio.h>

#include "snapshot.h"

/*
 * With --fine-buckets, histogram buckets below this module bucket are
 * merged into the first "le" (2^(PROM_FIRST_BUCKET + 1) ns = 1.024 us):
 * nothing the module measures is meaningful below a microsecond, and each
 * bucket is a series.
 */
#define PROM_FIRST_BUCKET	9

/*
 * The default "le" edges: every power of two from 2^PROM_LE_FIRST_SHIFT
 * ns (8.192 us) to 2^PROM_LE_LAST_SHIFT ns (1.07 s), then +Inf: 19
 * buckets a histogram where the module's layout has 170. A power of two
 * is a bucket edge of both of the module's layouts (every edge of the
 * log2 one; the first of the eight of each power of two in the
 * log-linear one), so a coarse bucket's cumulative count is the module's
 * at that edge, exactly, and hosts running either module write the same
 * "le" values, which a fleet's sum by (le) needs. Doubling keeps the
 * latencies that matter apart: the case's handshakes, 4 ms against 20
 * ms, fall under le 2^22 ns (4.19 ms) and above 2^24 ns (16.8 ms).
 */
#define PROM_LE_FIRST_SHIFT	13
#define PROM_LE_LAST_SHIFT	30
#define PROM_LE_BUCKETS		(PROM_LE_LAST_SHIFT - PROM_LE_FIRST_SHIFT + 2)

/* prom_opts - what an exposition holds beyond a fleet's default */
struct prom_opts {
	bool per_cpu;		/* NET_RX and TEE counters by cpu (--per-cpu) */
	bool fine_buckets;	/* the module's own buckets (--fine-buckets) */
};

bool prom_up(const struct snapshot *s);
const char *prom_unshown(const struct snapshot *s);
bool prom_le_is_coarse(unsigned long long ns);
void prom_write(FILE *out, const struct snapshot *s, const char *tool_version,
		const struct prom_opts *opts);

#endif /* TEEPROBE_PROMETHEUS_H */
