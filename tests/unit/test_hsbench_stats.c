// SPDX-License-Identifier: GPL-2.0
/*
 * test_hsbench_stats.c - unit tests for lab/hsbench/stats.c: mean and
 * nearest-rank percentiles on known data, one sample, and an empty set.
 */
#include <stdint.h>
#include <string.h>

#include "../../lab/hsbench/stats.h"
#include "tap.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* test_one_to_hundred - 1..100 given in a scrambled order */
static void test_one_to_hundred(void)
{
	uint64_t samples[100];
	struct stats_summary s;
	size_t i;

	/* 37 is coprime with 100: i * 37 % 100 visits every residue once */
	for (i = 0; i < ARRAY_SIZE(samples); i++)
		samples[i] = (i * 37) % 100 + 1;
	stats_summarize(samples, ARRAY_SIZE(samples), &s);
	tap_ok(s.count == 100, "1..100: count %zu == 100", s.count);
	tap_ok(s.mean == 50.5, "1..100: mean %g == 50.5", s.mean);
	tap_ok(s.min == 1, "1..100: min %llu == 1", (unsigned long long)s.min);
	tap_ok(s.p50 == 50, "1..100: p50 %llu == 50", (unsigned long long)s.p50);
	tap_ok(s.p90 == 90, "1..100: p90 %llu == 90", (unsigned long long)s.p90);
	tap_ok(s.p99 == 99, "1..100: p99 %llu == 99", (unsigned long long)s.p99);
	tap_ok(s.max == 100, "1..100: max %llu == 100", (unsigned long long)s.max);
	for (i = 1; i < ARRAY_SIZE(samples); i++)
		if (samples[i - 1] > samples[i])
			break;
	tap_ok(i == ARRAY_SIZE(samples), "1..100: samples sorted in place");
}

/* test_nearest_rank - ranks round up: ceil(p * n / 100) */
static void test_nearest_rank(void)
{
	static const uint64_t ten[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const uint64_t four[] = { 10, 20, 30, 40 };

	tap_ok(stats_percentile_sorted(ten, 10, 50) == 5, "1..10: p50 is 5");
	tap_ok(stats_percentile_sorted(ten, 10, 90) == 9, "1..10: p90 is 9");
	tap_ok(stats_percentile_sorted(ten, 10, 99) == 10, "1..10: p99 is 10");
	tap_ok(stats_percentile_sorted(ten, 10, 100) == 10, "1..10: p100 is 10");
	tap_ok(stats_percentile_sorted(ten, 10, 1) == 1, "1..10: p1 is 1");
	tap_ok(stats_percentile_sorted(ten, 10, 0) == 1, "1..10: p0 is the minimum");
	tap_ok(stats_percentile_sorted(four, 4, 50) == 20, "4 samples: p50 is the 2nd");
	tap_ok(stats_percentile_sorted(four, 4, 51) == 30, "4 samples: p51 is the 3rd");
	tap_ok(stats_percentile_sorted(four, 4, 90) == 40, "4 samples: p90 is the 4th");
}

/* test_one_thousand - 1000..1 descending: p90 900, p99 990 */
static void test_one_thousand(void)
{
	static uint64_t samples[1000];
	struct stats_summary s;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(samples); i++)
		samples[i] = ARRAY_SIZE(samples) - i;
	stats_summarize(samples, ARRAY_SIZE(samples), &s);
	tap_ok(s.p50 == 500 && s.p90 == 900 && s.p99 == 990 && s.max == 1000,
	       "1..1000: p50 %llu p90 %llu p99 %llu max %llu",
	       (unsigned long long)s.p50, (unsigned long long)s.p90,
	       (unsigned long long)s.p99, (unsigned long long)s.max);
	tap_ok(s.mean == 500.5, "1..1000: mean %g == 500.5", s.mean);
}

/* test_duplicates - equal samples are ranked like any others */
static void test_duplicates(void)
{
	uint64_t samples[] = { 5, 1, 5, 5 };
	struct stats_summary s;

	stats_summarize(samples, ARRAY_SIZE(samples), &s);
	tap_ok(s.min == 1 && s.p50 == 5 && s.max == 5 && s.mean == 4.0,
	       "{5,1,5,5}: min 1, p50 5, max 5, mean 4");
}

/* test_single - one sample is every statistic */
static void test_single(void)
{
	uint64_t sample = 1234567;
	struct stats_summary s;

	stats_summarize(&sample, 1, &s);
	tap_ok(s.count == 1, "single: count 1");
	tap_ok(s.mean == 1234567.0, "single: mean %g", s.mean);
	tap_ok(s.min == sample && s.p50 == sample && s.p90 == sample &&
	       s.p99 == sample && s.max == sample,
	       "single: min, p50, p90, p99, max all equal the sample");
}

/* test_empty - no samples: an all-zero summary, no access to the array */
static void test_empty(void)
{
	struct stats_summary s;

	memset(&s, 0xff, sizeof(s));
	stats_summarize(NULL, 0, &s);
	tap_ok(s.count == 0 && s.mean == 0 && s.min == 0 && s.p50 == 0 &&
	       s.p90 == 0 && s.p99 == 0 && s.max == 0,
	       "empty: count 0 and every statistic 0");
	tap_ok(stats_percentile_sorted(NULL, 0, 50) == 0, "empty: p50 is 0");
}

int main(void)
{
	test_one_to_hundred();
	test_nearest_rank();
	test_one_thousand();
	test_duplicates();
	test_single();
	test_empty();
	return tap_done();
}
