// SPDX-License-Identifier: GPL-2.0
/*
 * teeprobe_kunit.c - KUnit suites for teeprobe's pure logic.
 *
 * Loaded as a module on the lab kernel; the results are read from
 * /sys/kernel/debug/kunit/<suite>/results and parsed by kunit.py.
 */
#include <kunit/test.h>

#include "hist.h"

/* hist_bucket_zero_and_one_share_bucket_zero - values below 2 */
static void hist_bucket_zero_and_one_share_bucket_zero(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(0), 0U);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(1), 0U);
}

/* hist_bucket_powers_of_two_start_buckets - 2^i opens bucket i */
static void hist_bucket_powers_of_two_start_buckets(struct kunit *test)
{
	unsigned int i;

	for (i = 1; i < TEEPROBE_HIST_BUCKETS - 1; i++) {
		KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(1ULL << i), i);
		KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket((2ULL << i) - 1), i);
		KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket_low(i), 1ULL << i);
	}
}

/* hist_bucket_huge_values_land_in_last_bucket - overflow bucket */
static void hist_bucket_huge_values_land_in_last_bucket(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(1ULL << 31),
			TEEPROBE_HIST_BUCKETS - 1);
	KUNIT_EXPECT_EQ(test, teeprobe_hist_bucket(U64_MAX),
			TEEPROBE_HIST_BUCKETS - 1);
}

/* hist_add_tracks_count_sum_max - the summary fields */
static void hist_add_tracks_count_sum_max(struct kunit *test)
{
	struct teeprobe_hist h = {};

	teeprobe_hist_add(&h, 1000);
	teeprobe_hist_add(&h, 3);
	teeprobe_hist_add(&h, 70000);
	KUNIT_EXPECT_EQ(test, h.count, 3ULL);
	KUNIT_EXPECT_EQ(test, h.sum, 71003ULL);
	KUNIT_EXPECT_EQ(test, h.max, 70000ULL);
	KUNIT_EXPECT_EQ(test, h.bucket[9], 1ULL);	/* 512..1023 */
	KUNIT_EXPECT_EQ(test, h.bucket[1], 1ULL);	/* 2..3 */
	KUNIT_EXPECT_EQ(test, h.bucket[16], 1ULL);	/* 65536..131071 */
}

/* hist_merge_adds_buckets_and_keeps_largest_max - per-CPU folding */
static void hist_merge_adds_buckets_and_keeps_largest_max(struct kunit *test)
{
	struct teeprobe_hist a = {}, b = {};

	teeprobe_hist_add(&a, 5);
	teeprobe_hist_add(&b, 5);
	teeprobe_hist_add(&b, 900);
	teeprobe_hist_merge(&a, &b);
	KUNIT_EXPECT_EQ(test, a.count, 3ULL);
	KUNIT_EXPECT_EQ(test, a.sum, 910ULL);
	KUNIT_EXPECT_EQ(test, a.max, 900ULL);
	KUNIT_EXPECT_EQ(test, a.bucket[2], 2ULL);
	KUNIT_EXPECT_EQ(test, a.bucket[9], 1ULL);
}

static struct kunit_case teeprobe_hist_cases[] = {
	KUNIT_CASE(hist_bucket_zero_and_one_share_bucket_zero),
	KUNIT_CASE(hist_bucket_powers_of_two_start_buckets),
	KUNIT_CASE(hist_bucket_huge_values_land_in_last_bucket),
	KUNIT_CASE(hist_add_tracks_count_sum_max),
	KUNIT_CASE(hist_merge_adds_buckets_and_keeps_largest_max),
	{}
};

static struct kunit_suite teeprobe_hist_suite = {
	.name = "teeprobe_hist",
	.test_cases = teeprobe_hist_cases,
};

kunit_test_suites(&teeprobe_hist_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for teeprobe");
