/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the statistics of the reports: percentiles of samples and of
 * log2 histograms, rates and shares. Pure functions, unit-tested.
 */
#ifndef TEEPROBE_STATS_H
#define TEEPROBE_STATS_H

#include <stddef.h>

#include "../module/abi.h"

/* the module's bucket count, by construction */
#define HIST_BUCKETS	TEEPROBE_HIST_BUCKETS

double pct_sorted(const unsigned long long *sorted, size_t n, double pct);
void sort_u64(unsigned long long *v, size_t n);
unsigned int hist_bucket_of(unsigned long long low);
double hist_pct(const double *bucket, double max, double pct);
double rate(double delta, double seconds);
double share(double part, double whole);

#endif /* TEEPROBE_STATS_H */
