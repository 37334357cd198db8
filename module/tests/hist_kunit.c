// SPDX-License-Identifier: GPL-2.0
/*
 * hist_kunit.c - KUnit suite teeprobe_hist: the log-linear histograms:
 * bucket mapping, merging, percentiles (hist.h).
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/string.h>

#include "hist.h"

/* hist_new - a zeroed histogram, too large for a test's stack */
static struct teeprobe_hist *hist_new(struct kunit *test)
{
	struct teeprobe_hist *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	return h;
}

/*
 * hist_bucket_small_values_by_unit - below 1024 ns, a bucket a unit of
 * 2^TEEPROBE_HIST_UNIT_SHIFT (128) ns: the lowest discernible value
 */
static void hist_bucket_small_values_by_unit(struct kunit *test)
{
	unsigned int v;

	for (v = 0; v < TEEPROBE_HIST_SUB << TEEPROBE_HIST_UNIT_SHIFT; v++)
		KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(v),
				v >> TEEPROBE_HIST_UNIT_SHIFT);
	for (v = 0; v < TEEPROBE_HIST_SUB; v++)
		KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket_low(v), (u64)v * 128);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(1024), 8U);
}

/* hist_bucket_huge_values_land_in_last_bucket - overflow bucket */
static void hist_bucket_huge_values_land_in_last_bucket(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(1ULL << 31),
			TEEPROBE_HIST_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(U64_MAX),
			TEEPROBE_HIST_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket((1ULL << 31) - 1),
			TEEPROBE_HIST_BUCKETS - 2);
}

/* hist_add_tracks_count_sum_max - the summary fields */
static void hist_add_tracks_count_sum_max(struct kunit *test)
{
	struct teeprobe_hist *h = hist_new(test);

	teeprobe_hist_add(h, 1000);
	teeprobe_hist_add(h, 3);
	teeprobe_hist_add(h, 70000);
	KUNIT_EXPECT_EQ(test, h->count, 3ULL);
	KUNIT_EXPECT_EQ(test, h->sum, 71003ULL);
	KUNIT_EXPECT_EQ(test, h->max, 70000ULL);
	KUNIT_EXPECT_EQ(test, h->bucket[7], 1ULL);	/* 896..1023 */
	KUNIT_EXPECT_EQ(test, h->bucket[0], 1ULL);	/* 0..127 */
	KUNIT_EXPECT_EQ(test, h->bucket[56], 1ULL);	/* 65536..73727 */
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket_low(7), 896ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket_low(56), 65536ULL);
}

/* hist_merge_adds_buckets_and_keeps_largest_max - per-CPU folding */
static void hist_merge_adds_buckets_and_keeps_largest_max(struct kunit *test)
{
	struct teeprobe_hist *a = hist_new(test), *b = hist_new(test);

	teeprobe_hist_add(a, 5);
	teeprobe_hist_add(b, 5);
	teeprobe_hist_add(b, 900);
	teeprobe_hist_merge(a, b);
	KUNIT_EXPECT_EQ(test, a->count, 3ULL);
	KUNIT_EXPECT_EQ(test, a->sum, 910ULL);
	KUNIT_EXPECT_EQ(test, a->max, 900ULL);
	KUNIT_EXPECT_EQ(test, a->bucket[0], 2ULL);
	KUNIT_EXPECT_EQ(test, a->bucket[7], 1ULL);	/* 896..1023 */
}

/*
 * hist_diff_gives_what_came_since_a_copy - a window's counts are the
 * totals less a copy taken at its start; a reset carries the difference
 * as a baseline below zero, and the next difference is still right
 */
static void hist_diff_gives_what_came_since_a_copy(struct kunit *test)
{
	struct teeprobe_hist *total = hist_new(test), *base = hist_new(test);
	struct teeprobe_hist *win = hist_new(test);

	teeprobe_hist_add(total, 5);
	*base = *total;
	teeprobe_hist_add(total, 900);
	teeprobe_hist_add(total, 6);
	teeprobe_hist_diff(win, total, base);
	KUNIT_EXPECT_EQ(test, win->count, 2ULL);
	KUNIT_EXPECT_EQ(test, win->sum, 906ULL);
	KUNIT_EXPECT_EQ(test, win->bucket[0], 1ULL);
	KUNIT_EXPECT_EQ(test, win->bucket[7], 1ULL);	/* 896..1023 */
	KUNIT_EXPECT_EQ(test, win->max, 0ULL);		/* the caller's */
	/* a reset: the baseline goes below zero by what the window holds */
	teeprobe_hist_diff(base, base, total);
	memset(total, 0, sizeof(*total));
	teeprobe_hist_add(total, 7);
	teeprobe_hist_diff(win, total, base);
	KUNIT_EXPECT_EQ(test, win->count, 3ULL);
	KUNIT_EXPECT_EQ(test, win->sum, 913ULL);
	KUNIT_EXPECT_EQ(test, win->bucket[0], 2ULL);
	KUNIT_EXPECT_EQ(test, win->bucket[7], 1ULL);
}

/*
 * hist_window_of_touched_buckets_is_the_diff - a window worked out in the
 * buckets counted in since it opened equals the whole difference, window
 * after window, across resets (the baseline below zero), and leaves the
 * same baseline and an empty window behind
 */
static void hist_window_of_touched_buckets_is_the_diff(struct kunit *test)
{
	struct teeprobe_hist *total = hist_new(test), *base = hist_new(test);
	struct teeprobe_hist *win = hist_new(test), *want = hist_new(test);
	struct teeprobe_hist *empty = hist_new(test);
	DECLARE_BITMAP(touched, TEEPROBE_HIST_BUCKETS);
	unsigned int w, n, i, seed = 1;

	bitmap_zero(touched, TEEPROBE_HIST_BUCKETS);
	for (w = 0; w < 200; w++) {
		/* 0 to 40 values a window, 0 ns to 4 s, some windows empty */
		seed = seed * 1103515245 + 12345;
		n = (seed >> 16) % 41;
		for (i = 0; i < n; i++) {
			u64 v;

			seed = seed * 1103515245 + 12345;
			v = ((u64)seed << 7) % (4ULL * NSEC_PER_SEC) >>
			    ((seed >> 8) % 24);
			__set_bit(teeprobe_hist_add_at(total, v), touched);
		}
		if (w % 37 == 36) {
			/* a reset inside the window, as netrx's */
			teeprobe_hist_diff(base, base, total);
			memset(total, 0, sizeof(*total));
			seed = seed * 1103515245 + 12345;
			__set_bit(teeprobe_hist_add_at(total, seed % 100000), touched);
		}
		teeprobe_hist_diff(want, total, base);
		teeprobe_hist_window(win, total, base, touched);
		KUNIT_ASSERT_EQ(test, win->count, want->count);
		KUNIT_ASSERT_EQ(test, win->sum, want->sum);
		KUNIT_ASSERT_EQ(test, memcmp(win->bucket, want->bucket,
					     sizeof(win->bucket)), 0);
		KUNIT_ASSERT_EQ(test, memcmp(base->bucket, total->bucket,
					     sizeof(base->bucket)), 0);
		KUNIT_ASSERT_EQ(test, base->count, total->count);
		teeprobe_hist_window_clear(win, touched);
		KUNIT_ASSERT_EQ(test, memcmp(win, empty, sizeof(*win)), 0);
		KUNIT_ASSERT_TRUE(test, bitmap_empty(touched, TEEPROBE_HIST_BUCKETS));
	}
}

/*
 * hist_percentile_interpolates_and_max_caps - a rank placed within its
 * bucket, the top percentile the largest value itself
 */
static void hist_percentile_interpolates_and_max_caps(struct kunit *test)
{
	struct teeprobe_hist *h = hist_new(test);
	unsigned int i;

	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 50), 0ULL);
	for (i = 0; i < 98; i++)
		teeprobe_hist_add(h, 1500);	/* bucket 1408..1535 */
	teeprobe_hist_add(h, 5000);		/* bucket 4608..5119 */
	teeprobe_hist_add(h, 70000);		/* bucket 65536..73727 */
	/* the 50th of 98 values spread over 1408..1535 */
	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 50), 1408ULL + 127 * 50 / 98);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 98), 1535ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 99), 5119ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 100), 70000ULL);
	/* Out-of-range percentages are clamped, not trusted. */
	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 1000), 70000ULL);
}

/* hist_percentile_of_one_value_is_that_value - max caps the bucket */
static void hist_percentile_of_one_value_is_that_value(struct kunit *test)
{
	struct teeprobe_hist *h = hist_new(test);

	teeprobe_hist_add(h, 3000);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 1), 3000ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 99), 3000ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_percentile(h, 100), 3000ULL);
}

/*
 * hist_check_value - @value lands in a bucket whose bounds hold it, and
 * that bucket is at most 1/TEEPROBE_HIST_SUB of its low edge wide
 */
static void hist_check_value(struct kunit *test, u64 value)
{
	unsigned int b = teeprobe_hist_bucket(value);
	u64 low = teeprobe_hist_bucket_low(b), width;

	KUNIT_ASSERT_LT(test, b, TEEPROBE_HIST_BUCKETS);
	KUNIT_EXPECT_LE_MSG(test, low, value, "value %llu bucket %u", value, b);
	if (b == TEEPROBE_HIST_BUCKETS - 1) {
		KUNIT_EXPECT_GE(test, value, 1ULL << TEEPROBE_HIST_TOP_SHIFT);
		return;
	}
	KUNIT_EXPECT_LT_MSG(test, value, teeprobe_hist_bucket_low(b + 1),
			    "value %llu bucket %u", value, b);
	width = teeprobe_hist_bucket_low(b + 1) - low;
	if (low < TEEPROBE_HIST_SUB << TEEPROBE_HIST_UNIT_SHIFT)	/* a unit */
		KUNIT_EXPECT_EQ_MSG(test, width, 1ULL << TEEPROBE_HIST_UNIT_SHIFT,
				    "bucket %u", b);
	else				/* within 1/SUB (12.5 %) of low */
		KUNIT_EXPECT_LE_MSG(test, width * TEEPROBE_HIST_SUB, low,
				    "value %llu bucket %u", value, b);
}

/* hist_every_value_lands_in_a_bucket_that_holds_it - the mapping */
static void hist_every_value_lands_in_a_bucket_that_holds_it(struct kunit *test)
{
	unsigned int e, k;
	u64 v;

	/* every value up to 2^16, then around each power of two and between */
	for (v = 0; v <= 1 << 16; v++)
		hist_check_value(test, v);
	for (e = 16; e < 64; e++) {
		for (k = 0; k < 64; k++) {
			hist_check_value(test, (1ULL << e) + k);
			hist_check_value(test, (1ULL << e) - 1 - k);
			/* spread over the range: 2^e * (1 + k/64) */
			hist_check_value(test, (1ULL << e) + (k << (e - 6)));
		}
	}
	hist_check_value(test, U64_MAX);
}

/* hist_bucket_edges_rise_and_map_back - a low edge opens its own bucket */
static void hist_bucket_edges_rise_and_map_back(struct kunit *test)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket_low(0), 0ULL);
	for (i = 0; i < TEEPROBE_HIST_BUCKETS; i++) {
		KUNIT_EXPECT_EQ(test,
				teeprobe_hist_bucket(teeprobe_hist_bucket_low(i)), i);
		if (i)
			KUNIT_EXPECT_GT(test, teeprobe_hist_bucket_low(i),
					teeprobe_hist_bucket_low(i - 1));
	}
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket_low(TEEPROBE_HIST_BUCKETS - 1),
			1ULL << TEEPROBE_HIST_TOP_SHIFT);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket((1ULL << TEEPROBE_HIST_TOP_SHIFT) - 1),
			TEEPROBE_HIST_BUCKETS - 2);
}

/* hist_fill - count @n values @first, @first + @step, ... in @bucket */
static void hist_fill(u64 *bucket, u64 *count, u64 *max, u64 first,
			 u64 step, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		u64 v = first + i * step;

		bucket[teeprobe_hist_bucket(v)]++;
		(*count)++;
		*max = max(*max, v);
	}
}

/* hist_within - |@got - @want| <= @want / TEEPROBE_HIST_SUB */
static bool hist_within(u64 got, u64 want)
{
	u64 diff = got > want ? got - want : want - got;

	return diff * TEEPROBE_HIST_SUB <= want;
}

/*
 * hist_percentile_interpolates_within_the_bucket - percentiles of known
 * samples (the exact ones by nearest rank computed here) come out within
 * the bucket bound, and interpolation moves them inside one bucket
 */
static void hist_percentile_interpolates_within_the_bucket(struct kunit *test)
{
	u64 *bucket = kunit_kcalloc(test, TEEPROBE_HIST_BUCKETS,
				    sizeof(*bucket), GFP_KERNEL);
	u64 count = 0, max = 0, p25, p75;

	KUNIT_ASSERT_NOT_NULL(test, bucket);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_buckets_percentile(bucket, 0, 0, 50), 0ULL);

	/* 1000, 1001, ..., 10999: by nearest rank p50 = 5999, p99 = 10899 */
	hist_fill(bucket, &count, &max, 1000, 1, 10000);
	KUNIT_EXPECT_TRUE(test, hist_within(teeprobe_hist_buckets_percentile(bucket, count, max, 50), 5999));
	KUNIT_EXPECT_TRUE(test, hist_within(teeprobe_hist_buckets_percentile(bucket, count, max, 99), 10899));
	KUNIT_EXPECT_EQ(test, teeprobe_hist_buckets_percentile(bucket, count, max, 100), 10999ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_buckets_percentile(bucket, count, max, 1000), 10999ULL);

	/* 100 values in [4096, 4608): p25 and p75 differ, both inside it */
	memset(bucket, 0, TEEPROBE_HIST_BUCKETS * sizeof(*bucket));
	count = 0;
	max = 0;
	hist_fill(bucket, &count, &max, 4096, 5, 100);
	KUNIT_ASSERT_EQ(test, teeprobe_hist_bucket(4096), teeprobe_hist_bucket(4591));
	p25 = teeprobe_hist_buckets_percentile(bucket, count, max, 25);
	p75 = teeprobe_hist_buckets_percentile(bucket, count, max, 75);
	KUNIT_EXPECT_GE(test, p25, 4096ULL);
	KUNIT_EXPECT_LT(test, p25, p75);
	KUNIT_EXPECT_LE(test, p75, 4591ULL);
	/* the 25th of 100 spread evenly over [4096, 4607] (exact: 4216) */
	KUNIT_EXPECT_EQ(test, p25, 4096ULL + 511 * 25 / 100);

	/* one value: every percentile is that value (max caps) */
	memset(bucket, 0, TEEPROBE_HIST_BUCKETS * sizeof(*bucket));
	count = 0;
	max = 0;
	hist_fill(bucket, &count, &max, 3000, 0, 1);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_buckets_percentile(bucket, count, max, 1), 3000ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_buckets_percentile(bucket, count, max, 99), 3000ULL);
}

/*
 * hist_percentiles_of_distributions_20_percent_apart - scaled by 1.2,
 * p50 and p99 move by 20 % within the bucket bound, not by 0 or 100 %
 */
static void hist_percentiles_of_distributions_20_percent_apart(struct kunit *test)
{
	u64 *a = kunit_kcalloc(test, TEEPROBE_HIST_BUCKETS, sizeof(*a), GFP_KERNEL);
	u64 *b = kunit_kcalloc(test, TEEPROBE_HIST_BUCKETS, sizeof(*b), GFP_KERNEL);
	u64 na = 0, nb = 0, ma = 0, mb = 0;
	unsigned int pct[] = { 50, 99 }, i;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	/* 50 us .. 2.05 ms, and the same times 1.2 */
	hist_fill(a, &na, &ma, 50000, 200, 10000);
	hist_fill(b, &nb, &mb, 60000, 240, 10000);
	for (i = 0; i < ARRAY_SIZE(pct); i++) {
		u64 pa = teeprobe_hist_buckets_percentile(a, na, ma, pct[i]);
		u64 pb = teeprobe_hist_buckets_percentile(b, nb, mb, pct[i]);

		/* pb / pa within 1.2 * (1 -+ 1/8): 1.05 .. 1.35 */
		KUNIT_EXPECT_GE_MSG(test, pb * 100, pa * 105, "p%u %llu %llu", pct[i], pa, pb);
		KUNIT_EXPECT_LE_MSG(test, pb * 100, pa * 135, "p%u %llu %llu", pct[i], pa, pb);
	}
}

static struct kunit_case teeprobe_hist_cases[] = {
	KUNIT_CASE(hist_bucket_small_values_by_unit),
	KUNIT_CASE(hist_bucket_huge_values_land_in_last_bucket),
	KUNIT_CASE(hist_add_tracks_count_sum_max),
	KUNIT_CASE(hist_window_of_touched_buckets_is_the_diff),
	KUNIT_CASE(hist_merge_adds_buckets_and_keeps_largest_max),
	KUNIT_CASE(hist_diff_gives_what_came_since_a_copy),
	KUNIT_CASE(hist_percentile_interpolates_and_max_caps),
	KUNIT_CASE(hist_percentile_of_one_value_is_that_value),
	KUNIT_CASE(hist_every_value_lands_in_a_bucket_that_holds_it),
	KUNIT_CASE(hist_bucket_edges_rise_and_map_back),
	KUNIT_CASE(hist_percentile_interpolates_within_the_bucket),
	KUNIT_CASE(hist_percentiles_of_distributions_20_percent_apart),
	{}
};

static struct kunit_suite teeprobe_hist_suite = {
	.name = "teeprobe_hist",
	.test_cases = teeprobe_hist_cases,
};

kunit_test_suite(teeprobe_hist_suite);
