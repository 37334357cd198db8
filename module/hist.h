/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - log2 latency histograms, pure logic shared by every part of
 * teeprobe and tested alone by KUnit.
 *
 * Bucket 0 holds values 0 and 1; bucket i (1 <= i < TEEPROBE_HIST_BUCKETS - 1)
 * holds [2^i, 2^(i+1)); the last bucket holds everything from
 * 2^(TEEPROBE_HIST_BUCKETS - 1) up. Values are nanoseconds, so 32 buckets
 * reach 2^31 ns (about 2.1 s) before the overflow bucket.
 */
#ifndef TEEPROBE_HIST_H
#define TEEPROBE_HIST_H

#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>

#include "abi.h"


struct teeprobe_hist {
	u64 count;
	u64 sum;
	u64 max;
	u64 bucket[TEEPROBE_HIST_BUCKETS];
};

/* teeprobe_hist_bucket - index of the bucket that counts @value */
static inline unsigned int teeprobe_hist_bucket(u64 value)
{
	if (value < 2)
		return 0;
	return min_t(unsigned int, ilog2(value), TEEPROBE_HIST_BUCKETS - 1);
}

/* teeprobe_hist_bucket_low - smallest value counted by bucket @i */
static inline u64 teeprobe_hist_bucket_low(unsigned int i)
{
	return i ? 1ULL << i : 0;
}

/* teeprobe_hist_add - count one @value */
static inline void teeprobe_hist_add(struct teeprobe_hist *h, u64 value)
{
	h->count++;
	h->sum += value;
	if (value > h->max)
		h->max = value;
	h->bucket[teeprobe_hist_bucket(value)]++;
}

/* teeprobe_hist_merge - add the counts of @src into @dst (per-CPU sums) */
static inline void teeprobe_hist_merge(struct teeprobe_hist *dst,
				       const struct teeprobe_hist *src)
{
	unsigned int i;

	dst->count += src->count;
	dst->sum += src->sum;
	dst->max = max(dst->max, src->max);
	for (i = 0; i < TEEPROBE_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

/*
 * teeprobe_hist_percentile - an upper bound of the @pct-th percentile
 * (0 < @pct <= 100): the top of the bucket that holds it, never above the
 * largest value counted. 0 when nothing was counted.
 */
static inline u64 teeprobe_hist_percentile(const struct teeprobe_hist *h,
					   unsigned int pct)
{
	u64 rank, seen = 0;
	unsigned int i;

	if (!h->count)
		return 0;
	rank = div64_u64(h->count * min(pct, 100U) + 99, 100);
	rank = max_t(u64, rank, 1);
	for (i = 0; i < TEEPROBE_HIST_BUCKETS - 1; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return min(teeprobe_hist_bucket_low(i + 1) - 1, h->max);
	}
	return h->max;
}

/* ---- log-linear buckets (abi.h: TEEPROBE_HIST_SUB_BITS) ------------- */

/* teeprobe_hist_ll_bucket - index of the log-linear bucket that counts @value */
static inline unsigned int teeprobe_hist_ll_bucket(u64 value)
{
	unsigned int shift;

	if (value < TEEPROBE_HIST_SUB)
		return value;
	if (value >= 1ULL << TEEPROBE_HIST_TOP_SHIFT)
		return TEEPROBE_HIST_LL_BUCKETS - 1;
	/* value >> shift is in [SUB, 2 * SUB): the sub-bucket, plus SUB */
	shift = ilog2(value) - TEEPROBE_HIST_SUB_BITS;
	return shift * TEEPROBE_HIST_SUB + (unsigned int)(value >> shift);
}

/*
 * teeprobe_hist_ll_bucket_low - smallest value counted by log-linear
 * bucket @i; for @i past the last bucket, the last bucket's
 */
static inline u64 teeprobe_hist_ll_bucket_low(unsigned int i)
{
	if (i < TEEPROBE_HIST_SUB)
		return i;
	i = min_t(unsigned int, i, TEEPROBE_HIST_LL_BUCKETS - 1);
	return (u64)(TEEPROBE_HIST_SUB + i % TEEPROBE_HIST_SUB) <<
	       (i / TEEPROBE_HIST_SUB - 1);
}

/*
 * teeprobe_hist_ll_percentile - the @pct-th percentile (0 < @pct <= 100,
 * larger is 100) of @count values counted in log-linear @bucket, @max the
 * largest: the nearest rank, placed within its bucket as if the bucket's
 * values were spread evenly over it, never above @max. 0 when @count is 0.
 */
static inline u64 teeprobe_hist_ll_percentile(const u64 *bucket, u64 count,
					      u64 max, unsigned int pct)
{
	u64 rank, seen = 0, low, top, at;
	unsigned int i;

	if (!count)
		return 0;
	rank = div64_u64(count * min(pct, 100U) + 99, 100);
	rank = max_t(u64, rank, 1);
	for (i = 0; i < TEEPROBE_HIST_LL_BUCKETS - 1; i++) {
		if (seen + bucket[i] >= rank)
			break;
		seen += bucket[i];
	}
	if (i == TEEPROBE_HIST_LL_BUCKETS - 1 || !bucket[i])
		return max;
	low = teeprobe_hist_ll_bucket_low(i);
	top = teeprobe_hist_ll_bucket_low(i + 1) - 1;
	/* the (rank - seen)-th of bucket[i] values spread over [low, top] */
	at = low + mul_u64_u64_div_u64(top - low, rank - seen, bucket[i]);
	return min(at, max);
}

#endif /* TEEPROBE_HIST_H */
