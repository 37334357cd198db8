// SPDX-License-Identifier: GPL-2.0
/*
 * window_kunit.c - KUnit suite teeprobe_window: the time windows summary
 * events are counted in (window.h).
 */
#include <kunit/test.h>

#include "window.h"

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

/*
 * window_current_is_no_roll - the probes' inline test agrees with the roll
 * at every edge: none open, inside, the last ns, the boundary, older, a
 * new length
 */
static void window_current_is_no_roll(struct kunit *test)
{
	static const u64 at[] = { 1210, 1250, 1300, 1299, 1400, 5555, 5556 };
	static const u64 len[] = { 100, 100, 100, 100, 100, 100, 1000 };
	struct teeprobe_window w = {}, closed;
	bool was_open, now_in, closes;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(at); i++) {
		was_open = w.open;
		now_in = teeprobe_window_current(&w, at[i] * MS, len[i] * MS);
		closes = teeprobe_window_roll(&w, at[i] * MS, len[i] * MS,
					      &closed);
		KUNIT_EXPECT_EQ(test, now_in, was_open && !closes);
		KUNIT_EXPECT_TRUE(test, teeprobe_window_current(&w, at[i] * MS,
								len[i] * MS));
	}
	KUNIT_EXPECT_TRUE(test, teeprobe_window_current(&w, 5999 * MS, 1000 * MS));
	KUNIT_EXPECT_FALSE(test, teeprobe_window_current(&w, 6000 * MS, 1000 * MS));
}

/*
 * window_late_from_its_end - how long after its end a window closed: 0
 * before it (a new length, an unload), then the time since
 */
static void window_late_from_its_end(struct kunit *test)
{
	struct teeprobe_window w = {}, closed;

	teeprobe_window_roll(&w, 1210 * MS, 100 * MS, &closed);
	KUNIT_EXPECT_EQ(test, teeprobe_window_late(&w, 1250 * MS), 0ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_window_late(&w, 1300 * MS), 0ULL);
	KUNIT_EXPECT_EQ(test, teeprobe_window_late(&w, 1312 * MS), 12 * MS);
	KUNIT_ASSERT_TRUE(test, teeprobe_window_roll(&w, 2250 * MS, 100 * MS,
						     &closed));
	KUNIT_EXPECT_EQ(test, teeprobe_window_late(&closed, 2250 * MS), 950 * MS);
}

static struct kunit_case teeprobe_window_cases[] = {
	KUNIT_CASE(window_current_is_no_roll),
	KUNIT_CASE(window_late_from_its_end),
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

kunit_test_suite(teeprobe_window_suite);
