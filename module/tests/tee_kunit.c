// SPDX-License-Identifier: GPL-2.0
/*
 * tee_kunit.c - KUnit suite teeprobe_tee: the TEE part's parsers in tee.c,
 * reached through VISIBLE_IF_KUNIT/EXPORT_SYMBOL_IF_KUNIT: the symbol
 * lists of ioctl_symbol= and wait_symbols=, and the pid_filter file's
 * input. teeprobe.ko is loaded before this module.
 */
#include <kunit/test.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/threads.h>

#include "teeprobe.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* symbols_one_name_or_a_list_within_the_limit - what the parameters take */
static void symbols_one_name_or_a_list_within_the_limit(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, teeprobe_symbol_list_valid("tee_ioctl", 1));
	KUNIT_EXPECT_TRUE(test, teeprobe_symbol_list_valid("tee_ioctl\n", 1));
	KUNIT_EXPECT_TRUE(test, teeprobe_symbol_list_valid("a,b,c", 10));
	KUNIT_EXPECT_TRUE(test, teeprobe_symbol_list_valid("optee_do_call.isra.0", 1));
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid("a,b", 1));
	KUNIT_EXPECT_TRUE(test, teeprobe_symbol_list_valid("a,b,c,d,e,f,g,h,i,j", 10));
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid("a,b,c,d,e,f,g,h,i,j,k", 10));
}

/* symbols_malformed_lists_are_refused - as t30-tee's bad parameters */
static void symbols_malformed_lists_are_refused(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid("bad-name", 1));
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid("a,,b", 10));
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid(",a", 10));
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid("a,", 10));
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid("a b", 10));
}

/* symbols_a_name_listed_twice_is_refused - the same probe twice */
static void symbols_a_name_listed_twice_is_refused(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid("a,b,a", 10));
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid("ab,ab", 10));
	KUNIT_EXPECT_TRUE(test, teeprobe_symbol_list_valid("ab,abc", 10));
}

/* symbols_longer_than_a_kernel_symbol_are_refused - KSYM_NAME_LEN */
static void symbols_longer_than_a_kernel_symbol_are_refused(struct kunit *test)
{
	char *name = kunit_kzalloc(test, KSYM_NAME_LEN + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, name);
	memset(name, 'a', KSYM_NAME_LEN - 1);
	KUNIT_EXPECT_TRUE(test, teeprobe_symbol_list_valid(name, 1));
	name[KSYM_NAME_LEN - 1] = 'a';
	KUNIT_EXPECT_FALSE(test, teeprobe_symbol_list_valid(name, 1));
}

/* parse_pids - teeprobe_tee_parse_pids() of a copy of @input */
static int parse_pids(struct kunit *test, const char *input, pid_t *pids,
		      unsigned int *n)
{
	char *buf = kunit_kzalloc(test, strlen(input) + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strcpy(buf, input);
	return teeprobe_tee_parse_pids(buf, pids, n);
}

/* pids_are_read_in_order_whatever_the_spaces - up to TEEPROBE_MAX_PIDS */
static void pids_are_read_in_order_whatever_the_spaces(struct kunit *test)
{
	pid_t pids[TEEPROBE_MAX_PIDS];
	unsigned int n;

	KUNIT_ASSERT_EQ(test, parse_pids(test, " 12\t7  99\n", pids, &n), 0);
	KUNIT_ASSERT_EQ(test, n, 3U);
	KUNIT_EXPECT_EQ(test, pids[0], 12);
	KUNIT_EXPECT_EQ(test, pids[1], 7);
	KUNIT_EXPECT_EQ(test, pids[2], 99);
	KUNIT_EXPECT_EQ(test, parse_pids(test, "1 2 3 4 5 6 7 8", pids, &n), 0);
	KUNIT_EXPECT_EQ(test, n, 8U);
	KUNIT_EXPECT_EQ(test, parse_pids(test, "1 2 3 4 5 6 7 8 9", pids, &n),
			-EINVAL);
}

/* pids_zero_alone_means_every_process - and only alone */
static void pids_zero_alone_means_every_process(struct kunit *test)
{
	pid_t pids[TEEPROBE_MAX_PIDS];
	unsigned int n = 5;

	KUNIT_EXPECT_EQ(test, parse_pids(test, "0\n", pids, &n), 0);
	KUNIT_EXPECT_EQ(test, n, 0U);
	KUNIT_EXPECT_EQ(test, parse_pids(test, "0 1", pids, &n), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse_pids(test, "1 0", pids, &n), -EINVAL);
}

/* pids_out_of_range_or_not_numbers_are_refused - as t30-tee writes them */
static void pids_out_of_range_or_not_numbers_are_refused(struct kunit *test)
{
	static const char * const bad[] = { "", " ", "\n", "-1", "abc", "1x",
					    "99999999999" };
	char too_large[16];
	pid_t pids[TEEPROBE_MAX_PIDS];
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse_pids(test, bad[i], pids, &n),
				    -EINVAL, "input '%s'", bad[i]);
	snprintf(too_large, sizeof(too_large), "%d", (int)PID_MAX_LIMIT);
	KUNIT_EXPECT_EQ(test, parse_pids(test, too_large, pids, &n), -EINVAL);
	snprintf(too_large, sizeof(too_large), "%d", (int)PID_MAX_LIMIT - 1);
	KUNIT_EXPECT_EQ(test, parse_pids(test, too_large, pids, &n), 0);
}

static struct kunit_case teeprobe_tee_cases[] = {
	KUNIT_CASE(symbols_one_name_or_a_list_within_the_limit),
	KUNIT_CASE(symbols_malformed_lists_are_refused),
	KUNIT_CASE(symbols_a_name_listed_twice_is_refused),
	KUNIT_CASE(symbols_longer_than_a_kernel_symbol_are_refused),
	KUNIT_CASE(pids_are_read_in_order_whatever_the_spaces),
	KUNIT_CASE(pids_zero_alone_means_every_process),
	KUNIT_CASE(pids_out_of_range_or_not_numbers_are_refused),
	{}
};

static struct kunit_suite teeprobe_tee_suite = {
	.name = "teeprobe_tee",
	.test_cases = teeprobe_tee_cases,
};

kunit_test_suite(teeprobe_tee_suite);
