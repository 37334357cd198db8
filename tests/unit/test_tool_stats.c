// SPDX-License-Identifier: GPL-2.0
/*
 * test_tool_stats.c - unit tests for the teeprobe command's statistics
 * (tools/stats.c) and the table lookups of modstats.c, and for the figures
 * derived from two snapshots (tools/derive.c): percentiles of samples and
 * of log2 histograms on known data, rates, shares, CPU shares, counter
 * and histogram differences, NIC and TCP counters.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/include/delta.h"
#include "../../tools/lib/include/snapshot.h"
#include "../../tools/lib/include/hist.h"
#include "../../tools/lib/include/table.h"
#include "fixture.h"
#include "tap.h"

/* test_pct_sorted - nearest rank on 1..100 and on small sets */
static void test_pct_sorted(void)
{
	unsigned long long v[100], one = 7, two[2] = { 10, 20 };
	int i;

	for (i = 0; i < 100; i++)
		v[i] = (i * 37) % 100 + 1;
	sort_u64(v, 100);
	tap_ok(v[0] == 1 && v[99] == 100, "sort_u64 sorts 1..100");
	tap_ok(pct_sorted(v, 100, 50) == 50, "p50 of 1..100 is 50");
	tap_ok(pct_sorted(v, 100, 99) == 99, "p99 of 1..100 is 99");
	tap_ok(pct_sorted(v, 100, 100) == 100, "p100 of 1..100 is 100");
	tap_ok(pct_sorted(&one, 1, 99) == 7, "p99 of one sample is it");
	tap_ok(pct_sorted(two, 2, 50) == 10 && pct_sorted(two, 2, 51) == 20,
	       "p50 of {10, 20} is 10, p51 is 20");
	tap_ok(pct_sorted(NULL, 0, 50) == 0, "percentile of nothing is 0");
}

/* test_hist_pct - the module's log2 buckets, upper bounds */
static void test_hist_pct(void)
{
	double b[HIST_BUCKETS] = { 0 };

	tap_ok(hist_bucket_of(0) == 0 && hist_bucket_of(1) == 0 &&
	       hist_bucket_of(1024) == 10 && hist_bucket_of(1ULL << 40) == 31,
	       "bucket_low_ns maps to the module's bucket index");
	tap_ok(hist_pct(b, 0, 50) == 0, "an empty histogram's p50 is 0");
	b[10] = 98;	/* 1024..2047 */
	b[12] = 1;	/* 4096..8191 */
	b[16] = 1;	/* 65536..131071 */
	tap_ok(hist_pct(b, 0, 50) == 2047, "p50 is the top of bucket 10 (2047)");
	tap_ok(hist_pct(b, 0, 99) == 8191, "p99 is the top of bucket 12 (8191)");
	tap_ok(hist_pct(b, 70000, 100) == 70000, "p100 is capped by the max");
	tap_ok(hist_pct(b, 1500, 50) == 1500, "a max below the bucket's top caps it");
}

/* test_rate_share - division guarded against zero */
static void test_rate_share(void)
{
	tap_ok(rate(300, 2) == 150, "300 in 2 s is 150/s");
	tap_ok(rate(300, 0) == 0, "a rate over no time is 0");
	tap_ok(share(1, 4) == 0.25, "1 of 4 is 0.25");
	tap_ok(share(1, 0) == 0, "a share of nothing is 0");
}

/* test_table - header, rows, comments, keys, missing values */
static void test_table(void)
{
	struct modstats t;
	char err[128];
	const char *text =
		"# cpu cmd calls total_ns\n"
		"0 INVOKE 3 300\n"
		"1 INVOKE 4 400\n"
		"all INVOKE 7 700\n"
		"all SHM_REGISTER 2 90\n"
		"# untracked 5\n";

	tap_ok(modstats_parse(&t, "tee_stats", text, err, sizeof(err)) == 0,
	       "a table with a header parses");
	tap_ok(t.ncols == 4 && t.nrows == 4, "4 columns, 4 rows, comments skipped");
	tap_ok(modstats_get(&t, "all", "INVOKE", "calls") == 7, "all INVOKE calls = 7");
	tap_ok(modstats_get(&t, "1", "INVOKE", "total_ns") == 400, "cpu 1 INVOKE total = 400");
	tap_ok(modstats_get(&t, "all", "SHM_REGISTER", "calls") == 2, "a second key");
	tap_ok(modstats_get(&t, "all", "OTHER", "calls") == 0, "a missing row reads 0");
	tap_ok(modstats_get(&t, "all", "INVOKE", "nope") == 0, "a missing column reads 0");
	modstats_free(&t);
	tap_ok(modstats_parse(&t, "tee_stats", "1 2 3\n", err, sizeof(err)) == -1,
	       "a table without a header is refused (%s)", err);
	tap_ok(modstats_parse(&t, "tee_stats", NULL, err, sizeof(err)) == -1,
	       "no text is refused");
	/* tee_probes: a comment line before the header (report once read
	 * "preset tee" as the header and never found nmissed) */
	tap_ok(!modstats_parse(&t, "tee_probes", "# preset tee\n# symbol role state error nmissed\n"
			       "tee_ioctl ioctl attached 0 45\n", err, sizeof(err)) &&
	       modstats_get(&t, "tee_ioctl", NULL, "nmissed") == 45,
	       "tee_probes' header after its '# preset' (nmissed 45)");
	modstats_free(&t);
}

/*
 * test_generations - counters of two loads of the module, or across a
 * reset, do not subtract: no figure, and the reason
 */
static void test_generations(void)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct tables tb;
	const char *why;

	snapshot_add_line(&a, "generation", "load 00000000deadbeef reset 0");
	snapshot_add_line(&a, "tee_stats", "# cpu cmd calls");
	snapshot_add_line(&a, "tee_stats", "all INVOKE 200");
	snapshot_add_line(&b, "generation", "load 00000000deadbeef reset 1");
	snapshot_add_line(&b, "tee_stats", "# cpu cmd calls");
	snapshot_add_line(&b, "tee_stats", "all INVOKE 800");
	tap_ok(!derive_same_counters(&a, &b, &why) && why &&
	       strstr(why, "reset"), "a reset in between: not comparable (%s)", why);
	tables_load(&tb, &a, &b, "tee_stats");
	tap_ok(!tb.ok && isnan(tables_delta(&tb, "all", "INVOKE", "calls")),
	       "... and the 800 - 200 calls are no count (NAN), though larger");
	snapshot_free(&b);
	snapshot_add_line(&b, "generation", "load 00000000cafef00d reset 0");
	tap_ok(!derive_same_counters(&a, &b, &why) && strstr(why, "reloaded"),
	       "another load: not comparable (%s)", why);
	snapshot_free(&b);
	snapshot_add_line(&b, "generation", "load 00000000deadbeef reset 0");
	snapshot_add_line(&b, "tee_stats", "# cpu cmd calls");
	snapshot_add_line(&b, "tee_stats", "all INVOKE 800");
	tables_load(&tb, &a, &b, "tee_stats");
	tap_ok(derive_same_counters(&a, &b, &why) && !why && tb.ok &&
	       tables_delta(&tb, "all", "INVOKE", "calls") == 600,
	       "the same load and reset: 600 calls");
	snapshot_free(&a);
	snapshot_free(&b);
	tap_ok(derive_same_counters(&a, &b, &why), "no generation file (teeprobe 0.1): as before");
}

/* snap - a snapshot from sources given as name, text pairs */
static void snap(struct snapshot *s, const char *time, const char *stat,
		 const char *dev, const char *tcp, const char *netrx,
		 const char *hist)
{
	const char *src[][2] = { { "time", time }, { "proc_stat", stat },
				 { "net_dev", dev }, { "snmp", tcp },
				 { "netrx_stats", netrx }, { "netrx_hist", hist } };
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < sizeof(src) / sizeof(src[0]); i++)
		fixture_add(s, src[i][0], src[i][1]);
}

/* test_derive - two snapshots ten seconds apart */
static void test_derive(void)
{
	struct snapshot a, b;
	struct tables tb;
	double pct[5], bucket[HIST_BUCKETS];

	snap(&a, "100.0",
	     "cpu 100 0 50 800 0 0 50 0 0 0\ncpu0 50 0 25 400 0 0 25 0 0 0",
	     "Inter-|   Receive\n face |bytes packets\n  eth0: 1000 10 0 0\n    lo: 50 5 0 0",
	     "Tcp: RtoAlgorithm PassiveOpens\nTcp: 1 40",
	     "# cpu raises runs ksoftirqd_runs\n0 10 8 1\nall 10 8 1",
	     "# hist bucket_low_ns cpu0 all\ninline_delay 1024 5 5");
	snap(&b, "110.0",
	     "cpu 200 0 250 1400 0 0 150 0 0 0\ncpu0 100 0 125 700 0 0 75 0 0 0",
	     "Inter-|   Receive\n face |bytes packets\n  eth0: 9000 510 0 0\n    lo: 90 9 0 0",
	     "Tcp: RtoAlgorithm PassiveOpens\nTcp: 1 140",
	     "# cpu raises runs ksoftirqd_runs\n0 110 108 21\nall 110 108 21",
	     "# hist bucket_low_ns cpu0 all\ninline_delay 1024 95 95\ninline_delay 1048576 10 10");
	tap_ok(derive_seconds(&a, &b) == 10, "the snapshots are 10 s apart");
	tap_ok(derive_cpu(&a, &b, "cpu", pct), "the cpu line is found");
	tap_ok(fabs(pct[1] - 20) < 1e-9 && fabs(pct[2] - 10) < 1e-9 &&
	       fabs(pct[0] - 10) < 1e-9 && fabs(pct[4] - 60) < 1e-9,
	       "%%user 10, %%system 20, %%softirq 10, %%idle 60 (got %g %g %g %g)",
	       pct[0], pct[1], pct[2], pct[4]);
	tap_ok(derive_cpu(&a, &b, "cpu0", pct) && fabs(pct[1] - 20) < 1e-9,
	       "cpu0's own line");
	tap_ok(!derive_cpu(&a, &b, "cpu7", pct), "a CPU that is not there");
	tap_ok(derive_nic_rx(&a, &b, "eth0") == 500, "eth0 received 500 packets");
	tap_ok(derive_nic_rx(&a, &b, NULL) == 500, "all NICs but lo: 500 packets");
	tap_ok(derive_snmp(&a, &b, "snmp", "PassiveOpens") == 100,
	       "100 passive opens");
	tables_load(&tb, &a, &b, "netrx_stats");
	tap_ok(tb.ok && tables_delta(&tb, "all", NULL, "runs") == 100 &&
	       tables_delta(&tb, "0", NULL, "ksoftirqd_runs") == 20,
	       "NET_RX: 100 runs, 20 by ksoftirqd on cpu 0");
	tables_load(&tb, &a, &b, "netrx_hist");
	tap_ok(tables_hist_delta(&tb, "inline_delay", "cpu0", bucket) == 100 &&
	       bucket[10] == 90 && bucket[20] == 10,
	       "histogram difference: 90 at 1 us, 10 at 1 ms");
	tap_ok(hist_pct(bucket, 0, 95) == (1 << 21) - 1,
	       "its p95 is in the 1 ms bucket");
	snapshot_free(&a);
	snapshot_free(&b);
}

/*
 * test_tables_missing - a source missing from the start snapshot (a trace
 * recorded by trace-cmd has no snapshots): both sides are set, the missing
 * one to nothing (found by tests/fuzz/fuzz_derive when they were freed).
 */
static void test_tables_missing(void)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct tables tb;

	memset(&tb, 0xa5, sizeof(tb));	/* what an uninitialised stack holds */
	snapshot_add_line(&b, "tee_stats", "# cpu cmd calls");
	snapshot_add_line(&b, "tee_stats", "all OPEN 3");
	tables_load(&tb, &a, &b, "tee_stats");
	tap_ok(!tb.ok && !tb.t[0] && tb.t[1] && tb.t[1]->nrows == 1,
	       "tables_load: a source missing at the start leaves both tables set");
	snapshot_free(&b);
}

/* check_loglin_value - @v's log-linear bucket holds it, 12.5 % wide at most */
static bool check_loglin_value(unsigned long long v)
{
	unsigned int b = hist_bucket_in(HIST_LOGLIN, v);
	unsigned long long low = hist_low_in(HIST_LOGLIN, b), next;

	if (b >= HIST_LL_BUCKETS || low > v)
		return false;
	if (b == HIST_LL_BUCKETS - 1)
		return v >= 1ULL << TEEPROBE_HIST_TOP_SHIFT;
	next = hist_low_in(HIST_LOGLIN, b + 1);
	if (v >= next)
		return false;
	/* below 1024 ns a unit (128 ns) wide, above 1/8 of the low edge */
	return low < TEEPROBE_HIST_SUB << TEEPROBE_HIST_UNIT_SHIFT ?
	       next - low == 1ULL << TEEPROBE_HIST_UNIT_SHIFT :
	       (next - low) * TEEPROBE_HIST_SUB <= low;
}

/* near - |@got - @want| within @want / 8, the log-linear bound */
static bool near(double got, double want)
{
	return fabs(got - want) <= want / TEEPROBE_HIST_SUB;
}

/* fill_loglin - @n values @first, @first + @step, ... into @b */
static void fill_loglin(double *b, unsigned long long first,
			unsigned long long step, int n)
{
	int i;

	memset(b, 0, HIST_BUCKETS * sizeof(*b));
	for (i = 0; i < n; i++)
		b[hist_bucket_in(HIST_LOGLIN, first + i * step)]++;
}

/*
 * test_hist_loglin - the module's log-linear buckets (hist.h's mapping,
 * here from abi.h alone), interpolated percentiles on known samples
 */
static void test_hist_loglin(void)
{
	static double b[HIST_BUCKETS], c[HIST_BUCKETS];
	unsigned long long v, bad = 0;
	unsigned int e, k;

	for (v = 0; v <= 1 << 16; v++)
		bad += !check_loglin_value(v);
	for (e = 16; e < 64; e++)
		for (k = 0; k < 64; k++)
			bad += !check_loglin_value((1ULL << e) + k) +
			       !check_loglin_value((1ULL << e) - 1 - k) +
			       !check_loglin_value((1ULL << e) + (k << (e - 6)));
	tap_ok(bad == 0, "every value lands in a log-linear bucket that holds it, 128 ns or at most 12.5 %% wide (%llu wrong)",
	       bad);
	tap_ok(hist_bucket_in(HIST_LOGLIN, 1000) == 7 &&
	       hist_low_in(HIST_LOGLIN, 7) == 896 &&
	       hist_low_in(HIST_LOGLIN, 8) == 1024 &&
	       hist_bucket_in(HIST_LOGLIN, 1100) == 8 &&
	       hist_low_in(HIST_LOGLIN, 9) == 1152,
	       "1000 ns is in bucket 7, [896, 1024); 1100 ns in bucket 8, [1024, 1152)");
	tap_ok(hist_buckets_in(HIST_LOGLIN) == 177 && hist_buckets_in(HIST_LOG2) == 32 &&
	       hist_low_in(HIST_LOGLIN, 176) == 1ULL << 31,
	       "177 log-linear buckets, the last from 2^31 ns; 32 log2 ones");
	tap_ok(hist_bucket_in(HIST_LOG2, 1024) == 10 && hist_low_in(HIST_LOG2, 10) == 1024,
	       "the log2 layout of older modules is still known");

	memset(b, 0, sizeof(b));
	tap_ok(hist_pct_in(HIST_LOGLIN, b, 0, 50) == 0, "an empty histogram's p50 is 0");
	/* 1000 .. 10999: by nearest rank p50 = 5999, p99 = 10899 */
	fill_loglin(b, 1000, 1, 10000);
	tap_ok(near(hist_pct_in(HIST_LOGLIN, b, 10999, 50), 5999) &&
	       near(hist_pct_in(HIST_LOGLIN, b, 10999, 99), 10899),
	       "p50 and p99 of 1000..10999 within 12.5 %% of 5999 and 10899 (%g %g)",
	       hist_pct_in(HIST_LOGLIN, b, 10999, 50), hist_pct_in(HIST_LOGLIN, b, 10999, 99));
	tap_ok(hist_pct_in(HIST_LOGLIN, b, 10999, 100) == 10999, "p100 is the max");
	/* 100 values in [4096, 4608): interpolation moves p25 below p75 */
	fill_loglin(b, 4096, 5, 100);
	tap_ok(hist_pct_in(HIST_LOGLIN, b, 0, 25) >= 4096 &&
	       hist_pct_in(HIST_LOGLIN, b, 0, 25) < hist_pct_in(HIST_LOGLIN, b, 0, 75) &&
	       hist_pct_in(HIST_LOGLIN, b, 0, 75) <= 4607,
	       "p25 < p75 inside one bucket [4096, 4607] (%g %g)",
	       hist_pct_in(HIST_LOGLIN, b, 0, 25), hist_pct_in(HIST_LOGLIN, b, 0, 75));
	/* two distributions 20 % apart: p50 and p99 differ by 20 % +- 12.5 % */
	fill_loglin(b, 50000, 200, 10000);
	fill_loglin(c, 60000, 240, 10000);
	for (k = 50; k <= 99; k += 49) {
		double ratio = hist_pct_in(HIST_LOGLIN, c, 0, k) /
			       hist_pct_in(HIST_LOGLIN, b, 0, k);

		tap_ok(ratio >= 1.05 && ratio <= 1.35,
		       "p%u of a distribution 20 %% slower is 1.2 times within the bound (%.3f)",
		       k, ratio);
	}
	fill_loglin(b, 1500, 0, 40);
	tap_ok(hist_pct_in(HIST_LOG2, b, 0, 50) == hist_pct(b, 0, 50),
	       "hist_pct_in for the log2 layout is hist_pct");
}

/* test_hist_layout - the layout a histogram file states, or the old one */
static void test_hist_layout(void)
{
	struct modstats m;
	char err[160];

	tap_ok(modstats_parse(&m, "netrx_hist", "# hist bucket_low_ns cpu0 all\ninline_delay 1024 5 5\n",
			      err, sizeof(err)) == 0 && m.hist_layout == HIST_LOG2,
	       "no '# hist_sub_bits': the log2 layout of older modules");
	modstats_free(&m);
	tap_ok(modstats_parse(&m, "netrx_hist", "# hist bucket_low_ns cpu0 all\ninline_delay 896 5 5\n"
			      "# hist_sub_bits 3\n# hist_unit_shift 7\n",
			      err, sizeof(err)) == 0 && m.hist_layout == HIST_LOGLIN,
	       "'# hist_sub_bits 3' and '# hist_unit_shift 7': the log-linear layout");
	modstats_free(&m);
	tap_ok(modstats_parse(&m, "netrx_hist", "# hist bucket_low_ns cpu0 all\n# hist_sub_bits 3\n",
			      err, sizeof(err)) == -1 && strstr(err, "hist_unit_shift"),
	       "'# hist_sub_bits 3' alone: refused (%s)", err);
	tap_ok(modstats_parse(&m, "netrx_hist", "# hist bucket_low_ns cpu0 all\n# hist_sub_bits 3\n# hist_unit_shift 0\n",
			      err, sizeof(err)) == -1 && strstr(err, "hist_unit_shift 0"),
	       "'# hist_unit_shift 0': refused, this teeprobe reads 7 (%s)", err);
	tap_ok(modstats_parse(&m, "tcp_hist", "# port phase bucket_low_ns cpu0 all\n# hist_sub_bits 4\n# hist_unit_shift 7\n",
			      err, sizeof(err)) == -1 && strstr(err, "hist_sub_bits 4"),
	       "'# hist_sub_bits 4': refused, this teeprobe reads 3 (%s)", err);
	tap_ok(modstats_parse(&m, "tee_hist", "# cmd bucket_low_ns cpu0 all\n# hist_sub_bits x\n# hist_unit_shift 7\n",
			      err, sizeof(err)) == -1,
	       "'# hist_sub_bits x': refused (%s)", err);
}

/* test_derive_loglin - a log-linear netrx_hist's difference and percentile */
static void test_derive_loglin(void)
{
	struct snapshot a, b;
	struct tables tb;
	double bucket[HIST_BUCKETS];

	snap(&a, "100.0", "cpu 1 0 0 0 0 0 0 0 0 0", "", "",
	     "# cpu raises runs ksoftirqd_runs\nall 10 8 1",
	     "# hist bucket_low_ns cpu0 all\ninline_delay 896 5 5\n# hist_sub_bits 3\n# hist_unit_shift 7");
	snap(&b, "110.0", "cpu 1 0 0 0 0 0 0 0 0 0", "", "",
	     "# cpu raises runs ksoftirqd_runs\nall 110 108 21",
	     "# hist bucket_low_ns cpu0 all\ninline_delay 896 95 95\ninline_delay 1792 10 10\n"
	     "# hist_sub_bits 3\n# hist_unit_shift 7");
	tables_load(&tb, &a, &b, "netrx_hist");
	tap_ok(tb.ok && tb.layout == HIST_LOGLIN &&
	       tables_hist_delta(&tb, "inline_delay", "cpu0", bucket) == 100 &&
	       bucket[7] == 90 && bucket[hist_bucket_in(HIST_LOGLIN, 1792)] == 10,
	       "log-linear histogram difference: 90 at 896 ns, 10 at 1792 ns");
	tap_ok(tables_hist_pct(&tb, bucket, 0, 50) >= 896 &&
	       tables_hist_pct(&tb, bucket, 0, 50) < 1024 &&
	       tables_hist_pct(&tb, bucket, 0, 95) >= 1792 &&
	       tables_hist_pct(&tb, bucket, 0, 95) < 2048,
	       "its p50 is inside [896, 1024), its p95 inside [1792, 2048)");
	snapshot_free(&a);
	snapshot_free(&b);
}

int main(void)
{
	test_pct_sorted();
	test_hist_pct();
	test_rate_share();
	test_table();
	test_derive();
	test_tables_missing();
	test_generations();
	test_hist_loglin();
	test_hist_layout();
	test_derive_loglin();
	return tap_done();
}
