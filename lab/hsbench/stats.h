/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - latency statistics for hsbench: mean and nearest-rank
 * percentiles over a set of integer samples (nanoseconds in hsbench).
 */
#ifndef HSBENCH_STATS_H
#define HSBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

/*
 * struct stats_summary - summary of a sample set; all zero when empty
 * @count: number of samples
 * @mean:  arithmetic mean
 * @p50, @p90, @p99: nearest-rank percentiles
 * @min, @max: smallest and largest sample
 */
struct stats_summary {
	size_t count;
	double mean;
	uint64_t min;
	uint64_t p50;
	uint64_t p90;
	uint64_t p99;
	uint64_t max;
};

/* stats_sort - sort @n samples ascending, in place */
void stats_sort(uint64_t *samples, size_t n);

/*
 * stats_percentile_sorted - nearest-rank percentile @pct (1..100) of @n
 * ascending samples: the smallest sample with at least @pct percent of the
 * samples at or below it, i.e. sorted[ceil(pct * n / 100) - 1]; 0 if n == 0
 */
uint64_t stats_percentile_sorted(const uint64_t *sorted, size_t n,
				 unsigned int pct);

/* stats_summarize - sort @samples in place and fill @sum */
void stats_summarize(uint64_t *samples, size_t n, struct stats_summary *sum);

#endif /* HSBENCH_STATS_H */
