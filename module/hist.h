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

#endif /* TEEPROBE_HIST_H */
