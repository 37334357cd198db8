// SPDX-License-Identifier: GPL-2.0
/*
 * test_quantile.c - unit tests for tools/lib/quantile.c: its p50, p99,
 * maximum, count and sum equal those of every value sorted (pct_sorted(),
 * an independent sort of a copy), whether the values stay in memory or go
 * to the spill file; and what it holds in memory while values come is
 * bounded by its keep and write buffer, not by their count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/include/hist.h"
#include "../../tools/lib/include/quantile.h"
#include "tap.h"

#define WRITE_BUF	8192	/* quantile.c's SPILL_BUF */

/* rnd - a fixed sequence (xorshift64), the same on every run */
static unsigned long long rnd(void)
{
	static unsigned long long x = 88172645463325252ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

/*
 * check - @n values from @gen through a quantile that keeps @keep, against
 * a sorted copy; true when every figure agrees and memory stayed bounded
 */
static void check(const char *what, size_t n, size_t keep,
		  unsigned long long (*gen)(size_t i))
{
	unsigned long long *all = malloc(n * sizeof(*all));
	struct quantile q = { 0 };
	size_t i, held = 0, bound = keep > WRITE_BUF ? keep : WRITE_BUF;
	unsigned __int128 exact = 0;
	double sum = 0;

	quantile_set_keep(keep);
	for (i = 0; i < n; i++) {
		all[i] = gen(i);
		quantile_add(&q, all[i]);
		if (q.cap > held)
			held = q.cap;
	}
	sort_u64(all, n);
	for (i = 0; i < n; i++) {
		sum += all[i];
		exact += all[i];
	}
	/* spilled, the sum is exact: past 2^53 the sorted sum of doubles is not */
	if (n > keep && exact >= (1ULL << 53))
		sum = (double)exact;
	quantile_finish(&q);
	tap_ok(q.n == n && q.max == all[n - 1], "%s: count and maximum", what);
	tap_ok(q.p50 == pct_sorted(all, n, 50) && q.p99 == pct_sorted(all, n, 99),
	       "%s: p50 %.0f and p99 %.0f as the sorted values' (%.0f, %.0f)",
	       what, q.p50, q.p99, pct_sorted(all, n, 50), pct_sorted(all, n, 99));
	tap_ok(q.sum == sum, "%s: the sum as in ascending order (exact if spilled)",
	       what);
	tap_ok(held <= bound, "%s: at most %zu values held in memory (held %zu)",
	       what, bound, held);
	tap_ok(!q.v && !q.cap && !q.spilled, "%s: nothing held once finished", what);
	free(all);
}

static unsigned long long gen_ns(size_t i)
{
	(void)i;
	return rnd() % 2000000 + 1000;		/* 1 us to 2 ms */
}

static unsigned long long gen_few(size_t i)
{
	return (i * 7919) % 5 * 1000;		/* five values, many times each */
}

static unsigned long long gen_same(size_t i)
{
	(void)i;
	return 42;
}

static unsigned long long gen_wide(size_t i)
{
	/* the whole 64-bit range, and 0 */
	return i % 17 ? rnd() : 0;
}

static unsigned long long gen_tail(size_t i)
{
	/* most alike, a long tail: p99 in the tail */
	return i % 50 ? 5000 + i % 3 : rnd() % 1000000000ULL;
}

int main(void)
{
	struct quantile q = { 0 };

	check("kept (fewer than keep)", 1000, QUANTILE_KEEP, gen_ns);
	check("spilled, ns", 200000, 1000, gen_ns);
	check("spilled, five values", 100000, 100, gen_few);
	check("spilled, one value", 50000, 10, gen_same);
	check("spilled, the 64-bit range", 100000, 1000, gen_wide);
	check("spilled, a tail", 300000, 4000, gen_tail);
	check("spilled, keep 1", 20000, 1, gen_ns);

	quantile_set_keep(10);
	quantile_add(&q, 7);
	quantile_finish(&q);
	tap_ok(q.n == 1 && q.p50 == 7 && q.p99 == 7 && q.sum == 7,
	       "one value: it is every percentile");
	memset(&q, 0, sizeof(q));
	quantile_finish(&q);
	tap_ok(!q.n && !q.p50 && !q.p99 && !q.sum, "no value: zeros");
	/* a spilled stream reads its file a bounded number of times */
	memset(&q, 0, sizeof(q));
	quantile_set_keep(16);
	for (unsigned long long i = 0; i < 100000; i++)
		quantile_add(&q, rnd());
	quantile_finish(&q);
	tap_ok(q.passes <= 2 * 7, "64-bit values: %u passes over the file (at most 14)",
	       q.passes);
	return tap_done();
}
