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
 * Histogram buckets below this module bucket are merged into the first
 * "le" (2^(PROM_FIRST_BUCKET + 1) ns = 1.024 us): nothing the module
 * measures is meaningful below a microsecond, and each bucket is a series.
 */
#define PROM_FIRST_BUCKET	9

bool prom_up(const struct snapshot *s);
void prom_write(FILE *out, const struct snapshot *s, const char *tool_version);

#endif /* TEEPROBE_PROMETHEUS_H */
