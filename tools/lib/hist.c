// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - percentiles, rates and shares (see stats.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "hist.h"

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

/* hist_bucket_of - the module's log2 bucket index for a row's bucket_low_ns */
unsigned int hist_bucket_of(unsigned long long low)
{
	unsigned int i = 0;

	while (low > 1 && i < HIST_LOG2_BUCKETS - 1) {
		low >>= 1;
		i++;
	}
	return i;
}

/* Where a percentile's nearest rank falls in a histogram */
struct hist_rank {
	unsigned int i;		/* its bucket */
	double rank;		/* the rank, 1 .. the count */
	double seen;		/* the count in the buckets below i */
};

/*
 * hist_rank_of - the nearest rank of the @pct-th percentile of the @n
 * buckets @bucket, and the first bucket where the count reaches it (the
 * last, n - 1, when no earlier one does) into @r. @clamp: a rank beyond
 * the count (a fractional count) is the count. False when the histogram
 * is empty.
 */
static bool hist_rank_of(const double *bucket, unsigned int n, double pct,
			 bool clamp, struct hist_rank *r)
{
	double total = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		total += bucket[i];
	if (total <= 0)
		return false;
	r->rank = ceil(pct / 100.0 * total);
	if (r->rank < 1)
		r->rank = 1;
	if (clamp && r->rank > total)
		r->rank = total;
	r->seen = 0;
	for (i = 0; i < n - 1; i++) {
		if (bucket[i] > 0 && r->seen + bucket[i] >= r->rank)
			break;
		r->seen += bucket[i];
	}
	r->i = i;
	return true;
}

/*
 * hist_pct - an upper bound of the @pct-th percentile of a log2 histogram
 * in the module's buckets (bucket 0: 0 and 1; bucket i: [2^i, 2^(i+1))):
 * the top of the bucket holding it, capped by @max when @max > 0.
 */
double hist_pct(const double *bucket, double max, double pct)
{
	struct hist_rank r;
	double top;

	if (!hist_rank_of(bucket, HIST_LOG2_BUCKETS, pct, false, &r))
		return 0;
	if (r.i >= HIST_LOG2_BUCKETS - 1)
		return max > 0 ? max : ldexp(1, HIST_LOG2_BUCKETS - 1);
	top = ldexp(1, r.i + 1) - 1;
	return max > 0 && max < top ? max : top;
}

/* hist_buckets_in - how many buckets @layout has */
unsigned int hist_buckets_in(enum hist_layout layout)
{
	return layout == HIST_LOGLIN ? HIST_LL_BUCKETS : HIST_LOG2_BUCKETS;
}

/*
 * hist_bucket_in - the bucket of @layout that counts @value (the mapping
 * of the module's hist.h; a row's bucket_low_ns maps to its own bucket)
 */
unsigned int hist_bucket_in(enum hist_layout layout, unsigned long long value)
{
	if (layout != HIST_LOGLIN)
		return hist_bucket_of(value);
	return teeprobe_hist_index(value);
}

/* hist_low_in - the smallest value bucket @i of @layout counts */
unsigned long long hist_low_in(enum hist_layout layout, unsigned int i)
{
	if (layout != HIST_LOGLIN) {
		if (i >= HIST_LOG2_BUCKETS)
			i = HIST_LOG2_BUCKETS - 1;
		return i ? 1ULL << i : 0;
	}
	return teeprobe_hist_low(i);
}

/*
 * hist_pct_in - the @pct-th percentile of a histogram in @layout. Log2:
 * hist_pct's upper bound, as reports of older modules always showed.
 * Log-linear: the nearest rank placed within its bucket as if the
 * bucket's values were spread evenly over [low, next low - 1], capped by
 * @max when @max > 0 (the overflow bucket's value is @max, or its low
 * edge when @max is unknown). 0 when the histogram is empty.
 */
double hist_pct_in(enum hist_layout layout, const double *bucket, double max,
		   double pct)
{
	struct hist_rank r;
	double low, top, at;

	if (layout != HIST_LOGLIN)
		return hist_pct(bucket, max, pct);
	if (!hist_rank_of(bucket, HIST_LL_BUCKETS, pct, true, &r))
		return 0;
	low = hist_low_in(layout, r.i);
	if (r.i >= HIST_LL_BUCKETS - 1)
		return max > 0 ? max : low;
	top = hist_low_in(layout, r.i + 1) - 1;
	at = low + floor((top - low) * (r.rank - r.seen) / bucket[r.i]);
	return max > 0 && max < at ? max : at;
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
