/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the statistics of the reports: percentiles of samples and of
 * the module's histograms (either layout), rates and shares. Pure
 * functions, unit-tested.
 */
#ifndef TEEPROBE_STATS_H
#define TEEPROBE_STATS_H

#include <stddef.h>

#include "module/abi.h"

/*
 * The module's histogram layouts (abi.h): the log2 one of older modules
 * (TEEPROBE_HIST_LOG2_BUCKETS), the log-linear one its debugfs files
 * announce with "# hist_sub_bits N". A bucket array holds either: HIST_BUCKETS is
 * the larger count.
 */
enum hist_layout {
	HIST_LOG2,
	HIST_LOGLIN,
};

#define HIST_LOG2_BUCKETS	TEEPROBE_HIST_LOG2_BUCKETS
#define HIST_LL_BUCKETS		TEEPROBE_HIST_BUCKETS
#define HIST_BUCKETS		HIST_LL_BUCKETS

double pct_sorted(const unsigned long long *sorted, size_t n, double pct);
void sort_u64(unsigned long long *v, size_t n);
unsigned int hist_bucket_of(unsigned long long low);
double hist_pct(const double *bucket, double max, double pct);
unsigned int hist_buckets_in(enum hist_layout layout);
unsigned int hist_bucket_in(enum hist_layout layout, unsigned long long value);
unsigned long long hist_low_in(enum hist_layout layout, unsigned int i);
double hist_pct_in(enum hist_layout layout, const double *bucket, double max,
		   double pct);
double rate(double delta, double seconds);
double share(double part, double whole);

#endif /* TEEPROBE_STATS_H */
