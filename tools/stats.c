// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - percentiles, rates and shares (see stats.h).
 */
#include <math.h>
#include <stdlib.h>

#include "stats.h"

/*
 * pct_sorted - the @pct-th percentile (0 < pct <= 100) of @n sorted
 * samples, by nearest rank: the smallest sample with at least pct % of
 * the samples at or below it. 0 when there are none.
 */
double pct_sorted(const unsigned long long *sorted, size_t n, double pct)
{
	size_t rank;

	if (!n)
		return 0;
	if (pct <= 0)
		return sorted[0];
	rank = (size_t)ceil(pct / 100.0 * n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

/* cmp_u64 - qsort order */
static int cmp_u64(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

/* sort_u64 - ascending */
void sort_u64(unsigned long long *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
}

/* hist_bucket_of - the module's bucket index for a row's bucket_low_ns */
unsigned int hist_bucket_of(unsigned long long low)
{
	unsigned int i = 0;

	while (low > 1 && i < HIST_BUCKETS - 1) {
		low >>= 1;
		i++;
	}
	return i;
}

/*
 * hist_pct - an upper bound of the @pct-th percentile of a log2 histogram
 * in the module's buckets (bucket 0: 0 and 1; bucket i: [2^i, 2^(i+1))):
 * the top of the bucket holding it, capped by @max when @max > 0.
 */
double hist_pct(const double *bucket, double max, double pct)
{
	double total = 0, rank, seen = 0, top;
	unsigned int i;

	for (i = 0; i < HIST_BUCKETS; i++)
		total += bucket[i];
	if (total <= 0)
		return 0;
	rank = ceil(pct / 100.0 * total);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += bucket[i];
		if (seen >= rank)
			break;
	}
	if (i >= HIST_BUCKETS - 1)
		return max > 0 ? max : ldexp(1, HIST_BUCKETS - 1);
	top = ldexp(1, i + 1) - 1;
	return max > 0 && max < top ? max : top;
}

/* rate - per second; 0 over no time */
double rate(double delta, double seconds)
{
	return seconds > 0 ? delta / seconds : 0;
}

/* share - part of whole, 0..1; 0 when whole is 0 */
double share(double part, double whole)
{
	return whole > 0 ? part / whole : 0;
}
