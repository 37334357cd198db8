// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_table_kunit.c - KUnit suite teeprobe_tcp_table: the bounded table of
 * TCP handshakes in flight (tcp_table.h) and the ports' slots (tcp_counts.h).
 */
#include <kunit/test.h>

#include "tcp_counts.h"
#include "tcp_table.h"

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

/* tcp_port_slots_are_taken_in_order_once - teeprobe_tcp_slot_of */
static void tcp_port_slots_are_taken_in_order_once(struct kunit *test)
{
	/* the ports seen, in order, and the slot and "taken" each gets */
	static const struct {
		u16 port;
		unsigned int slot;
		bool taken;
	} steps[] = {
		{ 0, 0, false },	/* port 0: "other" */
		{ 7000, 1, true },
		{ 7000, 1, false },
		{ 443, 2, true },
		{ 80, 3, true },
		{ 8443, 0, false },	/* all taken: "other", nothing taken */
		{ 443, 2, false },
	};
	u32 ports[4] = {};
	unsigned int i;
	bool taken;

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		KUNIT_EXPECT_EQ_MSG(test, teeprobe_tcp_slot_of(ports, 4, steps[i].port, &taken),
				    steps[i].slot, "step %u, port %u", i, steps[i].port);
		KUNIT_EXPECT_EQ_MSG(test, taken, steps[i].taken,
				    "step %u, port %u", i, steps[i].port);
	}
	KUNIT_EXPECT_EQ(test, ports[0], 0U);
	KUNIT_EXPECT_EQ(test, ports[1], 7000U);
	KUNIT_EXPECT_EQ(test, ports[3], 80U);
}

static struct kunit_case teeprobe_tcp_table_cases[] = {
	KUNIT_CASE(tcp_port_slots_are_taken_in_order_once),
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

kunit_test_suite(teeprobe_tcp_table_suite);
