// SPDX-License-Identifier: GPL-2.0
/*
 * teeprobe_kunit.c - KUnit suites for teeprobe's pure logic.
 *
 * Loaded as a module on the lab kernel; the results are read from
 * /sys/kernel/debug/kunit/<suite>/results and parsed by kunit.py.
 */
#include <kunit/test.h>

#include "hist.h"
#include "offcpu.h"
#include "tee_cmd.h"
#include "window.h"
#include "tcp_table.h"

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
	KUNIT_CASE(hist_merge_adds_buckets_and_keeps_largest_max),
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

/* tee_decode_mainline_commands - every TEE_IOC_* maps to its name */
static void tee_decode_mainline_commands(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_VERSION), TEEPROBE_TEE_VERSION);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_INVOKE), TEEPROBE_TEE_INVOKE);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_SHM_REGISTER),
			TEEPROBE_TEE_SHM_REGISTER);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_SHM_ALLOC),
			TEEPROBE_TEE_SHM_ALLOC);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_OPEN_SESSION),
			TEEPROBE_TEE_OPEN_SESSION);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(TEE_IOC_CLOSE_SESSION),
			TEEPROBE_TEE_CLOSE_SESSION);
	KUNIT_EXPECT_STREQ(test, teeprobe_tee_cmd_name(TEEPROBE_TEE_INVOKE), "INVOKE");
}

/* tee_decode_wrong_size_is_other - same number, other size: not INVOKE */
static void tee_decode_wrong_size_is_other(struct kunit *test)
{
	unsigned int bad = _IOR(TEE_IOC_MAGIC, TEE_IOC_BASE + 3, u32);

	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(bad), TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(0), TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IO('T', 1)), TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_STREQ(test, teeprobe_tee_cmd_name(TEEPROBE_TEE_CMDS + 7), "OTHER");
}

/* tee_decode_tzdriver_by_number - 't' commands whatever their size */
static void tee_decode_tzdriver_by_number(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOW('t', 1, u64[8])),
			TEEPROBE_TZ_SES_OPEN);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOWR('t', 3, u32)),
			TEEPROBE_TZ_SEND_CMD);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOWR('t', 9, u32)),
			TEEPROBE_TZ_LOAD_APP);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOWR('t', 0, u32)),
			TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_EQ(test, teeprobe_tee_decode(_IOWR('t', 10, u32)),
			TEEPROBE_TEE_CMD_OTHER);
	KUNIT_EXPECT_STREQ(test, teeprobe_tee_cmd_name(TEEPROBE_TZ_SEND_CMD),
			   "TZ_SEND_CMD");
}

static struct kunit_case teeprobe_tee_cmd_cases[] = {
	KUNIT_CASE(tee_decode_mainline_commands),
	KUNIT_CASE(tee_decode_wrong_size_is_other),
	KUNIT_CASE(tee_decode_tzdriver_by_number),
	{}
};

static struct kunit_suite teeprobe_tee_cmd_suite = {
	.name = "teeprobe_tee_cmd",
	.test_cases = teeprobe_tee_cmd_cases,
};

/* offcpu_blocked_and_preempted_are_kept_apart - the two off-CPU kinds */
static void offcpu_blocked_and_preempted_are_kept_apart(struct kunit *test)
{
	struct teeprobe_offcpu o = {};

	teeprobe_offcpu_out(&o, 100, true);
	teeprobe_offcpu_in(&o, 150);
	teeprobe_offcpu_out(&o, 200, false);
	teeprobe_offcpu_in(&o, 230);
	teeprobe_offcpu_end(&o, 400);
	KUNIT_EXPECT_EQ(test, o.off_ns, 50ULL);
	KUNIT_EXPECT_EQ(test, o.runq_ns, 30ULL);
}

/* offcpu_switch_in_without_out_is_ignored - tracing began mid-call */
static void offcpu_switch_in_without_out_is_ignored(struct kunit *test)
{
	struct teeprobe_offcpu o = {};

	teeprobe_offcpu_in(&o, 500);
	teeprobe_offcpu_end(&o, 600);
	KUNIT_EXPECT_EQ(test, o.off_ns + o.runq_ns, 0ULL);
}

/* offcpu_double_out_keeps_first - a second switch-out changes nothing */
static void offcpu_double_out_keeps_first(struct kunit *test)
{
	struct teeprobe_offcpu o = {};

	teeprobe_offcpu_out(&o, 100, true);
	teeprobe_offcpu_out(&o, 180, false);
	teeprobe_offcpu_in(&o, 200);
	KUNIT_EXPECT_EQ(test, o.off_ns, 100ULL);
	KUNIT_EXPECT_EQ(test, o.runq_ns, 0ULL);
}

/* offcpu_open_interval_closes_at_end - a call can end while switched out */
static void offcpu_open_interval_closes_at_end(struct kunit *test)
{
	struct teeprobe_offcpu o = {};

	teeprobe_offcpu_out(&o, 1000, true);
	teeprobe_offcpu_end(&o, 1600);
	KUNIT_EXPECT_EQ(test, o.off_ns, 600ULL);
	KUNIT_EXPECT_EQ(test, o.off_since, 0ULL);
}

/* offcpu_time_never_runs_backwards - clocks of two CPUs disagree */
static void offcpu_time_never_runs_backwards(struct kunit *test)
{
	struct teeprobe_offcpu o = {};

	teeprobe_offcpu_out(&o, 1000, true);
	teeprobe_offcpu_in(&o, 900);
	KUNIT_EXPECT_EQ(test, o.off_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, o.off_since, 0ULL);
}

static struct kunit_case teeprobe_offcpu_cases[] = {
	KUNIT_CASE(offcpu_blocked_and_preempted_are_kept_apart),
	KUNIT_CASE(offcpu_switch_in_without_out_is_ignored),
	KUNIT_CASE(offcpu_double_out_keeps_first),
	KUNIT_CASE(offcpu_open_interval_closes_at_end),
	KUNIT_CASE(offcpu_time_never_runs_backwards),
	{}
};

static struct kunit_suite teeprobe_offcpu_suite = {
	.name = "teeprobe_offcpu",
	.test_cases = teeprobe_offcpu_cases,
};

#define MS 1000000ULL

/* window_first_event_opens_aligned_window - no close, start aligned */
static void window_first_event_opens_aligned_window(struct kunit *test)
{
	struct teeprobe_window w = {}, closed = {};

	KUNIT_EXPECT_FALSE(test, teeprobe_window_roll(&w, 1234 * MS + 5, 100 * MS, &closed));
	KUNIT_EXPECT_TRUE(test, w.open);
	KUNIT_EXPECT_EQ(test, w.start_ns, 1200 * MS);
	KUNIT_EXPECT_EQ(test, w.len_ns, 100 * MS);
}

/* window_events_inside_do_not_roll - up to the last nanosecond */
static void window_events_inside_do_not_roll(struct kunit *test)
{
	struct teeprobe_window w = {}, closed = {};

	teeprobe_window_roll(&w, 1200 * MS, 100 * MS, &closed);
	KUNIT_EXPECT_FALSE(test, teeprobe_window_roll(&w, 1250 * MS, 100 * MS, &closed));
	KUNIT_EXPECT_FALSE(test, teeprobe_window_roll(&w, 1300 * MS - 1, 100 * MS, &closed));
	KUNIT_EXPECT_EQ(test, w.start_ns, 1200 * MS);
}

/* window_boundary_closes_previous - the closed window is reported */
static void window_boundary_closes_previous(struct kunit *test)
{
	struct teeprobe_window w = {}, closed = {};

	teeprobe_window_roll(&w, 1210 * MS, 100 * MS, &closed);
	KUNIT_EXPECT_TRUE(test, teeprobe_window_roll(&w, 1300 * MS, 100 * MS, &closed));
	KUNIT_EXPECT_EQ(test, closed.start_ns, 1200 * MS);
	KUNIT_EXPECT_EQ(test, closed.len_ns, 100 * MS);
	KUNIT_EXPECT_EQ(test, w.start_ns, 1300 * MS);
}

/* window_gap_skips_empty_windows - idle windows are not reported */
static void window_gap_skips_empty_windows(struct kunit *test)
{
	struct teeprobe_window w = {}, closed = {};

	teeprobe_window_roll(&w, 1210 * MS, 100 * MS, &closed);
	KUNIT_EXPECT_TRUE(test, teeprobe_window_roll(&w, 5555 * MS, 100 * MS, &closed));
	KUNIT_EXPECT_EQ(test, closed.start_ns, 1200 * MS);
	KUNIT_EXPECT_EQ(test, w.start_ns, 5500 * MS);
}

/* window_length_change_closes_early - the old window ends with its length */
static void window_length_change_closes_early(struct kunit *test)
{
	struct teeprobe_window w = {}, closed = {};

	teeprobe_window_roll(&w, 1210 * MS, 100 * MS, &closed);
	KUNIT_EXPECT_TRUE(test, teeprobe_window_roll(&w, 1220 * MS, 1000 * MS, &closed));
	KUNIT_EXPECT_EQ(test, closed.len_ns, 100 * MS);
	KUNIT_EXPECT_EQ(test, w.start_ns, 1000 * MS);
	KUNIT_EXPECT_EQ(test, w.len_ns, 1000 * MS);
}

/* window_older_event_stays_in_open_window - clocks of CPUs disagree */
static void window_older_event_stays_in_open_window(struct kunit *test)
{
	struct teeprobe_window w = {}, closed = {};

	teeprobe_window_roll(&w, 1300 * MS, 100 * MS, &closed);
	KUNIT_EXPECT_FALSE(test, teeprobe_window_roll(&w, 1299 * MS, 100 * MS, &closed));
	KUNIT_EXPECT_EQ(test, w.start_ns, 1300 * MS);
}

/* window_flush_closes_only_ended_windows - a quiet CPU's last window */
static void window_flush_closes_only_ended_windows(struct kunit *test)
{
	struct teeprobe_window w = {}, closed = {};

	KUNIT_EXPECT_FALSE(test, teeprobe_window_flush(&w, 9999 * MS, 100 * MS, &closed));
	teeprobe_window_roll(&w, 1210 * MS, 100 * MS, &closed);
	KUNIT_EXPECT_FALSE(test, teeprobe_window_flush(&w, 1299 * MS, 100 * MS, &closed));
	KUNIT_EXPECT_TRUE(test, w.open);
	KUNIT_EXPECT_TRUE(test, teeprobe_window_flush(&w, 1300 * MS, 100 * MS, &closed));
	KUNIT_EXPECT_EQ(test, closed.start_ns, 1200 * MS);
	KUNIT_EXPECT_FALSE(test, w.open);
	/* Closed once: a second flush and the next event report nothing more. */
	KUNIT_EXPECT_FALSE(test, teeprobe_window_flush(&w, 1400 * MS, 100 * MS, &closed));
	KUNIT_EXPECT_FALSE(test, teeprobe_window_roll(&w, 1400 * MS, 100 * MS, &closed));
	KUNIT_EXPECT_EQ(test, w.start_ns, 1400 * MS);
}

/* window_flush_with_zero_length_closes_any_open - unload path */
static void window_flush_with_zero_length_closes_any_open(struct kunit *test)
{
	struct teeprobe_window w = {}, closed = {};

	teeprobe_window_roll(&w, 1210 * MS, 100 * MS, &closed);
	KUNIT_EXPECT_TRUE(test, teeprobe_window_flush(&w, 1211 * MS, 0, &closed));
	KUNIT_EXPECT_EQ(test, closed.start_ns, 1200 * MS);
}

static struct kunit_case teeprobe_window_cases[] = {
	KUNIT_CASE(window_first_event_opens_aligned_window),
	KUNIT_CASE(window_events_inside_do_not_roll),
	KUNIT_CASE(window_boundary_closes_previous),
	KUNIT_CASE(window_gap_skips_empty_windows),
	KUNIT_CASE(window_length_change_closes_early),
	KUNIT_CASE(window_older_event_stays_in_open_window),
	KUNIT_CASE(window_flush_closes_only_ended_windows),
	KUNIT_CASE(window_flush_with_zero_length_closes_any_open),
	{}
};

static struct kunit_suite teeprobe_window_suite = {
	.name = "teeprobe_window",
	.test_cases = teeprobe_window_cases,
};

/* ---- teeprobe_tcp_table: the bounded table of handshakes in flight ---- */

#define TCP_TEST_BUCKETS	4
#define TCP_TEST_TIMEOUT	1000

/* tcp_test_table - a table of 4 buckets (32 entries), KUnit-managed memory */
static struct teeprobe_tcp_table *tcp_test_table(struct kunit *test)
{
	struct teeprobe_tcp_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct teeprobe_tcp_bucket *b;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	b = kunit_kcalloc(test, TCP_TEST_BUCKETS, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	teeprobe_tcp_table_init(t, b, TCP_TEST_BUCKETS, TCP_TEST_TIMEOUT);
	return t;
}

/* tcp_fill_bucket - insert keys until one bucket is full; returns its key */
static unsigned long tcp_fill_bucket(struct kunit *test,
				     struct teeprobe_tcp_table *t, u64 now)
{
	struct teeprobe_tcp_hs hs = {};
	struct teeprobe_tcp_bucket *target = tcp_table_bucket(t, 8);
	unsigned long key;
	unsigned int n = 0;

	for (key = 8; n < TEEPROBE_TCP_BUCKET_SLOTS; key += 8) {
		if (tcp_table_bucket(t, key) != target)
			continue;
		KUNIT_ASSERT_EQ(test, teeprobe_tcp_table_insert(t, key, now, &hs),
				TEEPROBE_TCP_INSERTED);
		n++;
	}
	/* the next key of the same bucket */
	while (tcp_table_bucket(t, key) != target)
		key += 8;
	return key;
}

/* tcp_table_sizes_must_be_powers_of_two_of_a_bucket_or_more */
static void tcp_table_sizes_must_be_powers_of_two_of_a_bucket_or_more(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_size_valid(64));
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_size_valid(TEEPROBE_TCP_BUCKET_SLOTS));
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_size_valid(100));
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_size_valid(TEEPROBE_TCP_BUCKET_SLOTS / 2));
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_size_valid(0));
	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_buckets(4096), 4096U / TEEPROBE_TCP_BUCKET_SLOTS);
}

/* tcp_table_insert_then_take_returns_the_entry_once */
static void tcp_table_insert_then_take_returns_the_entry_once(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = { .syn_ns = 10, .synack_ns = 20, .port = 7000 };
	struct teeprobe_tcp_hs got = {};
	struct teeprobe_tcp_table_stats st;

	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_insert(t, 0x1000, 20, &hs),
			TEEPROBE_TCP_INSERTED);
	teeprobe_tcp_table_stats(t, &st);
	KUNIT_EXPECT_EQ(test, st.in_use, 1ULL);
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_contains(t, 0x1000));
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_take(t, 0x1000, &got));
	KUNIT_EXPECT_EQ(test, got.syn_ns, 10ULL);
	KUNIT_EXPECT_EQ(test, got.synack_ns, 20ULL);
	KUNIT_EXPECT_EQ(test, got.port, (u16)7000);
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_take(t, 0x1000, &got));
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_contains(t, 0x1000));
	teeprobe_tcp_table_stats(t, &st);
	KUNIT_EXPECT_EQ(test, st.in_use, 0ULL);
}

/* tcp_table_keys_of_other_kinds_do_not_match - req and child keys differ */
static void tcp_table_keys_of_other_kinds_do_not_match(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = { .syn_ns = 1 }, got;

	teeprobe_tcp_table_insert(t, 0x1000 | 1, 5, &hs);
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_take(t, 0x1000 | 2, &got));
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_take(t, 0x1000 | 1, &got));
}

/* tcp_table_insert_of_a_present_key_keeps_the_first_entry */
static void tcp_table_insert_of_a_present_key_keeps_the_first_entry(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs first = { .syn_ns = 1 }, second = { .syn_ns = 2 }, got;

	teeprobe_tcp_table_insert(t, 0x2000, 5, &first);
	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_insert(t, 0x2000, 6, &second),
			TEEPROBE_TCP_EXISTS);
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_take(t, 0x2000, &got));
	KUNIT_EXPECT_EQ(test, got.syn_ns, 1ULL);
}

/* tcp_table_full_bucket_refuses_and_counts_without_allocating */
static void tcp_table_full_bucket_refuses_and_counts_without_allocating(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = {};
	struct teeprobe_tcp_table_stats st;
	unsigned long next = tcp_fill_bucket(test, t, 100);

	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_insert(t, next, 100, &hs),
			TEEPROBE_TCP_FULL);
	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_insert(t, next, 101, &hs),
			TEEPROBE_TCP_FULL);
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_contains(t, next));
	teeprobe_tcp_table_stats(t, &st);
	KUNIT_EXPECT_EQ(test, st.full, 2ULL);
	KUNIT_EXPECT_EQ(test, st.in_use, (u64)TEEPROBE_TCP_BUCKET_SLOTS);
}

/* tcp_table_take_frees_a_slot_of_a_full_bucket */
static void tcp_table_take_frees_a_slot_of_a_full_bucket(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = {}, got;
	unsigned long next = tcp_fill_bucket(test, t, 100);

	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_take(t, 8, &got));
	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_insert(t, next, 100, &hs),
			TEEPROBE_TCP_INSERTED);
}

/* tcp_table_expired_entry_is_reclaimed_when_its_bucket_is_full */
static void tcp_table_expired_entry_is_reclaimed_when_its_bucket_is_full(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = {};
	struct teeprobe_tcp_table_stats st;
	unsigned long next = tcp_fill_bucket(test, t, 100);

	/* At the timeout exactly nothing is old enough yet. */
	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_insert(t, next, 100 + TCP_TEST_TIMEOUT, &hs),
			TEEPROBE_TCP_FULL);
	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_insert(t, next, 101 + TCP_TEST_TIMEOUT, &hs),
			TEEPROBE_TCP_INSERTED);
	teeprobe_tcp_table_stats(t, &st);
	KUNIT_EXPECT_EQ(test, st.expired, 1ULL);
	KUNIT_EXPECT_EQ(test, st.in_use, (u64)TEEPROBE_TCP_BUCKET_SLOTS);
}

/* tcp_table_expire_pass_reclaims_only_old_entries */
static void tcp_table_expire_pass_reclaims_only_old_entries(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = {};
	struct teeprobe_tcp_table_stats st;

	teeprobe_tcp_table_insert(t, 0x100, 100, &hs);
	teeprobe_tcp_table_insert(t, 0x200, 100, &hs);
	teeprobe_tcp_table_insert(t, 0x300, 900, &hs);
	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_expire(t, 1500), 2U);
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_contains(t, 0x100));
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_contains(t, 0x300));
	teeprobe_tcp_table_stats(t, &st);
	KUNIT_EXPECT_EQ(test, st.expired, 2ULL);
	KUNIT_EXPECT_EQ(test, st.in_use, 1ULL);
	/* a clock read earlier on another CPU expires nothing */
	KUNIT_EXPECT_EQ(test, teeprobe_tcp_table_expire(t, 50), 0U);
}

/* tcp_table_retransmits_are_counted_on_the_entry */
static void tcp_table_retransmits_are_counted_on_the_entry(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = {}, got;

	teeprobe_tcp_table_insert(t, 0x4000, 1, &hs);
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_count_retrans(t, 0x4000));
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_count_retrans(t, 0x4000));
	KUNIT_EXPECT_FALSE(test, teeprobe_tcp_table_count_retrans(t, 0x5000));
	teeprobe_tcp_table_take(t, 0x4000, &got);
	KUNIT_EXPECT_EQ(test, got.synack_retrans, 2U);
}

/* tcp_table_find_lock_lets_the_caller_update_in_place */
static void tcp_table_find_lock_lets_the_caller_update_in_place(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = { .in_call = true }, got;
	struct teeprobe_tcp_slot *s;
	unsigned long flags;

	KUNIT_EXPECT_NULL(test, teeprobe_tcp_table_find_lock(t, 0x6000, &flags));
	teeprobe_tcp_table_insert(t, 0x6000, 1, &hs);
	s = teeprobe_tcp_table_find_lock(t, 0x6000, &flags);
	KUNIT_ASSERT_NOT_NULL(test, s);
	s->hs.ack_ns = 42;
	teeprobe_tcp_table_unlock(t, 0x6000, flags);
	KUNIT_EXPECT_TRUE(test, teeprobe_tcp_table_take(t, 0x6000, &got));
	KUNIT_EXPECT_EQ(test, got.ack_ns, 42ULL);
	KUNIT_EXPECT_TRUE(test, got.in_call);
}

/* tcp_table_reset_zeroes_counters_and_keeps_entries */
static void tcp_table_reset_zeroes_counters_and_keeps_entries(struct kunit *test)
{
	struct teeprobe_tcp_table *t = tcp_test_table(test);
	struct teeprobe_tcp_hs hs = {};
	struct teeprobe_tcp_table_stats st;
	unsigned long next = tcp_fill_bucket(test, t, 100);

	teeprobe_tcp_table_insert(t, next, 100, &hs);
	teeprobe_tcp_table_reset_counts(t);
	teeprobe_tcp_table_stats(t, &st);
	KUNIT_EXPECT_EQ(test, st.full, 0ULL);
	KUNIT_EXPECT_EQ(test, st.in_use, (u64)TEEPROBE_TCP_BUCKET_SLOTS);
}

static struct kunit_case teeprobe_tcp_table_cases[] = {
	KUNIT_CASE(tcp_table_sizes_must_be_powers_of_two_of_a_bucket_or_more),
	KUNIT_CASE(tcp_table_insert_then_take_returns_the_entry_once),
	KUNIT_CASE(tcp_table_keys_of_other_kinds_do_not_match),
	KUNIT_CASE(tcp_table_insert_of_a_present_key_keeps_the_first_entry),
	KUNIT_CASE(tcp_table_full_bucket_refuses_and_counts_without_allocating),
	KUNIT_CASE(tcp_table_take_frees_a_slot_of_a_full_bucket),
	KUNIT_CASE(tcp_table_expired_entry_is_reclaimed_when_its_bucket_is_full),
	KUNIT_CASE(tcp_table_expire_pass_reclaims_only_old_entries),
	KUNIT_CASE(tcp_table_retransmits_are_counted_on_the_entry),
	KUNIT_CASE(tcp_table_find_lock_lets_the_caller_update_in_place),
	KUNIT_CASE(tcp_table_reset_zeroes_counters_and_keeps_entries),
	{}
};

static struct kunit_suite teeprobe_tcp_table_suite = {
	.name = "teeprobe_tcp_table",
	.test_cases = teeprobe_tcp_table_cases,
};

kunit_test_suites(&teeprobe_hist_suite, &teeprobe_tee_cmd_suite,
		  &teeprobe_offcpu_suite, &teeprobe_window_suite,
		  &teeprobe_tcp_table_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for teeprobe");
