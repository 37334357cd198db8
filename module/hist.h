/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - log-linear latency histograms, pure logic shared by every part
 * of teeprobe and tested alone by KUnit.
 *
 * The layout is abi.h's: below 1024 ns a bucket is 128 ns wide; above,
 * each power-of-two range is split into TEEPROBE_HIST_SUB buckets of
 * equal width, so a value is known within 1/TEEPROBE_HIST_SUB (12.5 %) of
 * itself; the last bucket holds everything from 2^TEEPROBE_HIST_TOP_SHIFT
 * ns (about 2.1 s) up. Values are nanoseconds.
 */
#ifndef TEEPROBE_HIST_H
#define TEEPROBE_HIST_H

#include <linux/bitops.h>
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
	return teeprobe_hist_index(value);
}

/*
 * teeprobe_hist_bucket_low - smallest value counted by bucket @i; for @i
 * past the last bucket, the last bucket's
 */
static inline u64 teeprobe_hist_bucket_low(unsigned int i)
{
	return teeprobe_hist_low(i);
}

/* teeprobe_hist_add_at - count one @value; the bucket that counted it */
static inline unsigned int teeprobe_hist_add_at(struct teeprobe_hist *h,
						u64 value)
{
	unsigned int i = teeprobe_hist_bucket(value);

	h->count++;
	h->sum += value;
	if (value > h->max)
		h->max = value;
	h->bucket[i]++;
	return i;
}

/* teeprobe_hist_add - count one @value */
static inline void teeprobe_hist_add(struct teeprobe_hist *h, u64 value)
{
	teeprobe_hist_add_at(h, value);
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
 * teeprobe_hist_diff - @a less @b into @dst (which may be @a or @b): the
 * values counted since @b was a copy of @a, or, with @a the totals since
 * a reset, a baseline carried across it (modulo 2^64, so that a later
 * difference comes out right). The max is left alone: no difference gives
 * it, the caller keeps its own.
 */
static inline void teeprobe_hist_diff(struct teeprobe_hist *dst,
				      const struct teeprobe_hist *a,
				      const struct teeprobe_hist *b)
{
	unsigned int i;

	dst->count = a->count - b->count;
	dst->sum = a->sum - b->sum;
	for (i = 0; i < TEEPROBE_HIST_BUCKETS; i++)
		dst->bucket[i] = a->bucket[i] - b->bucket[i];
}

/*
 * teeprobe_hist_window - a window's histogram @win: @total less @base, its
 * copy as the window opened, worked out in the @touched buckets only (those
 * teeprobe_hist_add_at() counted in since: the others are equal, their
 * window's 0, which @win holds from teeprobe_hist_window_clear()); and
 * @base brought up to @total for the next window. @win's max is the
 * caller's. What teeprobe_hist_diff() and a copy do, at the cost of the
 * buckets used rather than of all of them.
 */
static inline void teeprobe_hist_window(struct teeprobe_hist *win,
					const struct teeprobe_hist *total,
					struct teeprobe_hist *base,
					const unsigned long *touched)
{
	unsigned int w, i;
	unsigned long bits;

	win->count = total->count - base->count;
	win->sum = total->sum - base->sum;
	base->count = total->count;
	base->sum = total->sum;
	/* a few words: inline, rather than find_next_bit()'s calls */
	for (w = 0; w < BITS_TO_LONGS(TEEPROBE_HIST_BUCKETS); w++) {
		for (bits = touched[w]; bits; bits &= bits - 1) {
			i = w * BITS_PER_LONG + __ffs(bits);
			win->bucket[i] = total->bucket[i] - base->bucket[i];
			base->bucket[i] = total->bucket[i];
		}
	}
}

/*
 * teeprobe_hist_window_clear - @win emptied for the next window, and
 * @touched, after teeprobe_hist_window()
 */
static inline void teeprobe_hist_window_clear(struct teeprobe_hist *win,
					      unsigned long *touched)
{
	unsigned int w;
	unsigned long bits;

	for (w = 0; w < BITS_TO_LONGS(TEEPROBE_HIST_BUCKETS); w++) {
		for (bits = touched[w]; bits; bits &= bits - 1)
			win->bucket[w * BITS_PER_LONG + __ffs(bits)] = 0;
		touched[w] = 0;
	}
	win->count = 0;
	win->sum = 0;
	win->max = 0;
}

/*
 * teeprobe_hist_buckets_percentile - the @pct-th percentile (0 < @pct <=
 * 100, larger is 100) of @count values counted in @bucket, @max the
 * largest: the nearest rank, placed within its bucket as if the bucket's
 * values were spread evenly over it, never above @max. 0 when @count is 0.
 */
static inline u64 teeprobe_hist_buckets_percentile(const u64 *bucket,
						   u64 count, u64 max,
						   unsigned int pct)
{
	u64 rank, seen = 0, low, top, nth, n;
	unsigned int i;

	if (!count)
		return 0;
	rank = div64_u64(count * min(pct, 100U) + 99, 100);
	rank = max_t(u64, rank, 1);
	for (i = 0; i < TEEPROBE_HIST_BUCKETS - 1; i++) {
		if (seen + bucket[i] >= rank)
			break;
		seen += bucket[i];
	}
	if (i == TEEPROBE_HIST_BUCKETS - 1 || !bucket[i])
		return max;
	low = teeprobe_hist_bucket_low(i);
	top = teeprobe_hist_bucket_low(i + 1) - 1;
	/*
	 * The nth of n values spread over [low, top]; top - low < 2^28, so
	 * n below 2^32 keeps the product in 64 bits (and needs no helper
	 * that not every kernel exports)
	 */
	nth = rank - seen;
	n = bucket[i];
	while (n >> 32) {
		nth >>= 1;
		n >>= 1;
	}
	return min(low + div64_u64((top - low) * nth, n), max);
}

/* teeprobe_hist_percentile - the @pct-th percentile of @h, as above */
static inline u64 teeprobe_hist_percentile(const struct teeprobe_hist *h,
					   unsigned int pct)
{
	return teeprobe_hist_buckets_percentile(h->bucket, h->count, h->max,
						pct);
}

#endif /* TEEPROBE_HIST_H */
