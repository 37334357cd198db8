// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu_kunit.c - KUnit suite teeprobe_offcpu: off-CPU time of a TEE call:
 * blocked and preempted (offcpu.h).
 */
#include <kunit/test.h>

#include "offcpu.h"

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

kunit_test_suite(teeprobe_offcpu_suite);
