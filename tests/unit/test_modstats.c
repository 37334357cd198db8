// SPDX-License-Identifier: GPL-2.0
/*
 * test_modstats.c - the debugfs text parser (tools/modstats.c): the
 * module's current files and the older tcp_stats (phase rows inside it,
 * "# table size ..." and "# acceptors N of M ..." lines) give the same
 * numbers; truncated and garbled text is an error that names its line,
 * never a table with a wrong number.
 */
#include <string.h>

#include "../../tools/lib/include/table.h"
#include "../../tools/lib/include/snapshot.h"
#include "fixture.h"
#include "tap.h"

#define COUNTERS "# cpu port syns synacks syncookies syn_drops listen_overflows " \
	"synack_retrans req_drops children accepted untracked connects connected " \
	"connect_failed connect_untracked connect_calls\n"

/* the module's tcp_stats today: one table, "# key value" lines */
static const char new_stats[] =
	COUNTERS
	"0 7000 0 0 0 0 0 0 0 0 104 0 67 182 0 0 72\n"
	"1 7000 200 200 0 0 0 0 0 200 96 0 133 18 0 0 128\n"
	"all 7000 200 200 0 0 0 0 0 200 200 0 200 200 0 0 200\n"
	"# table_size 4096\n"
	"# table_in_use 3\n"
	"# table_expired 1\n"
	"# table_full 0\n"
	"# timeout_s 120\n"
	"# acceptors 10\n"
	"# acceptors_max 256\n"
	"# acceptors_overflow 2\n"
	"# window_ms 100\n";

static const char new_phases[] =
	"# port phase count sum_ns max_ns p50_ns p99_ns\n"
	"7000 syn_synack 200 21494390 2328510 131071 1048575\n"
	"7000 ack_accept 200 357954630 16263870 2097151 16263870\n"
	"other connect_call 5 18446744073709551615 9 7 8\n";

/* the same numbers as the module printed them before tcp_phases */
static const char old_stats[] =
	COUNTERS
	"0 7000 0 0 0 0 0 0 0 0 104 0 67 182 0 0 72\n"
	"1 7000 200 200 0 0 0 0 0 200 96 0 133 18 0 0 128\n"
	"all 7000 200 200 0 0 0 0 0 200 200 0 200 200 0 0 200\n"
	"# port phase count sum_ns max_ns p50_ns p99_ns\n"
	"phase 7000 syn_synack 200 21494390 2328510 131071 1048575\n"
	"phase 7000 ack_accept 200 357954630 16263870 2097151 16263870\n"
	"phase other connect_call 5 18446744073709551615 9 7 8\n"
	"# table size 4096 in_use 3 expired 1 full 0 timeout_s 120\n"
	"# acceptors 10 of 256 overflow 2\n"
	"# window_ms 100\n";

/* kv_is - "# @key" holds @want */
static bool kv_is(const struct modstats *m, const char *key,
		  unsigned long long want)
{
	unsigned long long v;

	return modstats_kv_u64(m, key, &v) && v == want;
}

/* check_stats - what both shapes of tcp_stats hold, said with @shape */
static void check_stats(const struct modstats *m, const char *shape)
{
	tap_ok(m->ncols == 2 + TEEPROBE_TCP_COUNTERS && m->nrows == 3,
	       "%s tcp_stats: %d columns (2 keys and the counters), 3 rows, no phase row (%d %d)",
	       shape, 2 + TEEPROBE_TCP_COUNTERS, m->ncols, m->nrows);
	tap_ok(modstats_get(m, "all", "7000", "accepted") == 200 &&
	       modstats_get(m, "0", "7000", "connected") == 182 &&
	       modstats_get(m, "1", "7000", "connect_calls") == 128,
	       "%s tcp_stats: counters by cpu, port and name", shape);
	tap_ok(kv_is(m, "table_size", 4096) && kv_is(m, "table_in_use", 3) &&
	       kv_is(m, "table_expired", 1) && kv_is(m, "table_full", 0) &&
	       kv_is(m, "timeout_s", 120),
	       "%s tcp_stats: the table's size 4096, in_use 3, expired 1, full 0, timeout_s 120",
	       shape);
	tap_ok(kv_is(m, "acceptors", 10) && kv_is(m, "acceptors_max", 256) &&
	       kv_is(m, "acceptors_overflow", 2) && kv_is(m, "window_ms", 100),
	       "%s tcp_stats: acceptors 10 of 256, overflow 2, window_ms 100", shape);
}

/* check_phases - the three phases of both shapes */
static void check_phases(const struct modstats_phase *p, int n,
			 const char *shape)
{
	tap_ok(n == 3, "%s: 3 phases (%d)", shape, n);
	if (n != 3)
		return;
	tap_ok(!strcmp(p[0].port, "7000") && p[0].phase == TEEPROBE_TCP_SYN_SYNACK &&
	       p[0].count == 200 && p[0].sum_ns == 21494390 &&
	       p[0].max_ns == 2328510 && p[0].p50_ns == 131071 &&
	       p[0].p99_ns == 1048575,
	       "%s: 7000 syn_synack 200 21494390 2328510 131071 1048575", shape);
	tap_ok(p[1].phase == TEEPROBE_TCP_ACK_ACCEPT && p[1].sum_ns == 357954630,
	       "%s: 7000 ack_accept's sum", shape);
	tap_ok(!strcmp(p[2].port, "other") && p[2].phase == TEEPROBE_TCP_CONNECT_CALL &&
	       p[2].sum_ns == 18446744073709551615ULL,
	       "%s: a sum of 2^64 - 1 ns read exactly, not through a double", shape);
}

/* test_shapes - tcp_stats and tcp_phases now, tcp_stats before */
static void test_shapes(void)
{
	struct modstats m;
	char err[256];

	tap_ok(!modstats_parse(&m, "tcp_stats", new_stats, err, sizeof(err)),
	       "new tcp_stats parses");
	check_stats(&m, "new");
	tap_ok(m.nphases == 0, "new tcp_stats holds no phase");
	modstats_free(&m);
	tap_ok(!modstats_parse(&m, "tcp_phases", new_phases, err, sizeof(err)),
	       "tcp_phases parses");
	check_phases(m.phases, m.nphases, "tcp_phases");
	tap_ok(m.nrows == 3 && modstats_get(&m, "7000", "ack_accept", "max_ns") == 16263870,
	       "tcp_phases is a table too (port, phase keys)");
	modstats_free(&m);
	tap_ok(!modstats_parse(&m, "tcp_stats", old_stats, err, sizeof(err)),
	       "old tcp_stats parses");
	check_stats(&m, "old");
	check_phases(m.phases, m.nphases, "old tcp_stats' phase rows");
	modstats_free(&m);
}

/*
 * test_snapshots - through a snapshot, the phases come from tcp_phases or
 * from an old tcp_stats alike; each file is parsed once, again when its
 * text grows
 */
static void test_snapshots(void)
{
	struct snapshot old = { 0 }, cur = { 0 };
	const struct modstats_phase *p;
	const struct modstats *a, *b;
	int n;

	fixture_add(&old, "tcp_stats", old_stats);
	fixture_add(&cur, "tcp_stats", new_stats);
	fixture_add(&cur, "tcp_phases", new_phases);
	n = modstats_phases(&old, &p);
	check_phases(p, n, "an old snapshot");
	n = modstats_phases(&cur, &p);
	check_phases(p, n, "a new snapshot");
	a = modstats_of(&cur, "tcp_stats");
	b = modstats_of(&cur, "tcp_stats");
	tap_ok(a && a == b, "a snapshot's file is parsed once");
	tap_ok(modstats_phase(&cur, "7000", TEEPROBE_TCP_ACK_ACCEPT) &&
	       !modstats_phase(&cur, "7000", TEEPROBE_TCP_CONNECT) &&
	       !modstats_phase(&cur, "7001", TEEPROBE_TCP_SYN_SYNACK),
	       "modstats_phase finds a port's phase, and none where there is no line");
	snapshot_add_line(&cur, "tcp_phases", "7001 syn_synack 1 2 3 4 5");
	tap_ok(!!modstats_phase(&cur, "7001", TEEPROBE_TCP_SYN_SYNACK),
	       "a line added after a parse is seen (the parse is redone)");
	snapshot_add_line(&cur, "tcp_phases", "7001 syn_synack 1 2");
	tap_ok(modstats_phases(&cur, &p) == -1 && !p,
	       "a snapshot's garbled file gives no phases, not some");
	tap_ok(!modstats_of(&cur, "uname"), "a source that is no table of the module: none");
	snapshot_free(&old);
	snapshot_free(&cur);
}

/* refused - @text of @file is an error whose message holds @why */
static void refused(const char *file, const char *text, const char *why,
		    const char *what)
{
	struct modstats m;
	char err[256] = "";
	int ret;

	ret = modstats_parse(&m, file, text, err, sizeof(err));
	tap_ok(ret == -1 && strstr(err, why) && !m.nrows && !m.rows && !m.cols &&
	       !m.nphases && !m.nkv,
	       "%s: refused, nothing kept (%s)", what, err);
}

/* test_bad_input - truncated and garbled files */
static void test_bad_input(void)
{
	char cut[sizeof(old_stats)];
	const char *p;

	refused("tcp_stats", COUNTERS "all 7000 200 200 0\n", "line 2: 5 fields",
		"a row cut short");
	refused("tcp_stats", COUNTERS "all 7000 200 2x0 0 0 0 0 0 200 200 0 200 200 0 0 200\n",
		"line 2: synacks: '2x0'", "a number with a letter in it");
	refused("tee_stats", "# cpu cmd calls\nall INVOKE -1\n", "'-1' is not a number",
		"a negative count");
	refused("tee_stats", "# cpu cmd calls\nall INVOKE 18446744073709551616\n",
		"not a number", "a count beyond 64 bits");
	refused("tee_stats", "all INVOKE 1\n# cpu cmd calls\n", "line 1: a row before the header",
		"a row before the header");
	refused("tee_stats", "# untracked 0\n", "no header", "a file without its header");
	refused("tee_stats", "# cpu cmd calls\n# cpu cmd calls\n", "a second header",
		"two headers");
	refused("tee_stats", "# cpu cmd calls\nall INVOKE 1\n# untracked 0 1\n",
		"line 3: a '#' line that is neither", "a '#' line of three words");
	refused("tee_stats", "# cpu cmd calls\n# error ENOMEM\n", "ENOMEM",
		"the module's '# error ENOMEM'");
	refused("tee_stats", "# out of memory\n", "ENOMEM",
		"the older module's '# out of memory'");
	refused("tcp_stats", COUNTERS "# table size 4096 in_use x expired 0 full 0 timeout_s 1\n",
		"table_in_use: 'x'", "an old '# table' line with a word for a number");
	refused("tcp_phases", "# port phase count sum_ns max_ns p50_ns p99_ns\n7000 syn_synack 1 2 3\n",
		"5 fields", "a phase row cut short");
	refused("tcp_stats", COUNTERS "# port phase count sum_ns max_ns p50_ns p99_ns\nphase 7000 syn_synack 1 2 3 4\n",
		"line 3: a phase row of 6 fields", "an old phase row cut short");
	refused("tcp_stats", COUNTERS "# port phase count sum_ns max_ns p50_ns p99_ns\nall 7000 1\n",
		"no phase", "a counter row among the old phase rows");
	refused("tcp_stats", COUNTERS "phase 7000 syn_synack 1 2 3 4 z\n",
		"'z' is not a number", "an old phase row with a word for a number");
	refused("version", "teeprobe 0.1.0 kernel 6.1\n", "not a file", "a file that has no table");
	refused("tee_stats", "# cpu cmd calls\nall INVOKE 20", "cut short",
		"a last line without its end (200 cut to 20)");
	/*
	 * every cut of the old tcp_stats is refused or parses to a prefix of
	 * its lines, never to a changed number
	 */
	for (p = old_stats + 1; *p; p++) {
		struct modstats m;
		char err[256];
		size_t len = p - old_stats;
		int ret;

		memcpy(cut, old_stats, len);
		cut[len] = '\0';
		ret = modstats_parse(&m, "tcp_stats", cut, err, sizeof(err));
		if (p[-1] != '\n' ? !ret :
		    !ret && ((modstats_find(&m, "all", "7000") >= 0 &&
			      modstats_get(&m, "all", "7000", "accepted") != 200) ||
			     (m.nphases && m.phases[0].count != 200))) {
			tap_ok(0, "a cut at %zu: %s", len, ret ? err : "a wrong number");
			modstats_free(&m);
			return;
		}
		modstats_free(&m);
	}
	tap_ok(1, "every cut of old tcp_stats: refused or a prefix of its rows");
}

/* test_generation - "load ID reset N", and nothing else */
static void test_generation(void)
{
	struct modstats_generation g;

	tap_ok(modstats_generation("load 00000000deadbeef reset 3\n", &g) &&
	       !strcmp(g.load, "00000000deadbeef") && g.reset == 3,
	       "generation: load 00000000deadbeef, reset 3");
	tap_ok(!modstats_generation("load 00000000deadbeef reset 3 4\n", &g) &&
	       !g.load[0] && !g.reset, "generation: a word after the count is refused");
	tap_ok(!modstats_generation("load 0000DEADBEEF reset 3\n", &g),
	       "generation: a load that is not lower-case hex is refused");
	tap_ok(!modstats_generation("load 00000000deadbeef\n", &g),
	       "generation: a line cut before its reset count is refused");
	tap_ok(!modstats_generation(NULL, &g), "generation: no file");
}

int main(void)
{
	test_generation();
	test_shapes();
	test_snapshots();
	test_bad_input();
	return tap_done();
}
