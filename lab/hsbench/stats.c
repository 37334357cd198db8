// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - latency statistics for hsbench (see stats.h).
 */
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* compare_u64 - qsort comparator, ascending */
static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a;
	uint64_t y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* stats_sort - sort @n samples ascending, in place */
void stats_sort(uint64_t *samples, size_t n)
{
	if (n > 1)
		qsort(samples, n, sizeof(*samples), compare_u64);
}

/* stats_percentile_sorted - nearest-rank percentile of sorted samples */
uint64_t stats_percentile_sorted(const uint64_t *sorted, size_t n,
				 unsigned int pct)
{
	size_t rank;

	if (n == 0)
		return 0;
	if (pct > 100)
		pct = 100;
	/* ceil(pct * n / 100) in integers, so 90 percent of 100 is exactly 90 */
	rank = ((size_t)pct * n + 99) / 100;
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

/* stats_summarize - sort @samples in place and fill @sum */
void stats_summarize(uint64_t *samples, size_t n, struct stats_summary *sum)
{
	long double total = 0;
	size_t i;

	memset(sum, 0, sizeof(*sum));
	if (n == 0)
		return;
	stats_sort(samples, n);
	for (i = 0; i < n; i++)
		total += samples[i];
	sum->count = n;
	sum->mean = (double)(total / n);
	sum->min = samples[0];
	sum->p50 = stats_percentile_sorted(samples, n, 50);
	sum->p90 = stats_percentile_sorted(samples, n, 90);
	sum->p99 = stats_percentile_sorted(samples, n, 99);
	sum->max = samples[n - 1];
}
