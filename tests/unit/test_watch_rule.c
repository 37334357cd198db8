// SPDX-License-Identifier: GPL-2.0
/*
 * test_watch_rule.c - unit tests for tools/watch_rule.c, the decisions of
 * "teeprobe watch": thresholds parsed, per-CPU window events made into
 * host-wide windows (judged once complete, late ones left out), a breach
 * only after a run of windows over the threshold (one window never, an
 * empty window neither counting nor breaking the run, a sustained breach
 * held), the cooldown, the snapshot that starts a capture, the ring's
 * growth, and which old captures go.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "../../tools/lib/include/watch_rule.h"
#include "tap.h"

#define MS	1000000ULL
#define WIN	(1000 * MS)

/* tcp - a CPU's TCP window at @start with @n handshakes of p99 @p99 */
static void tcp(struct watch_windows *ws, int cpu, unsigned long long start,
		unsigned long long n, unsigned long long syn_p99,
		unsigned long long acc_p99)
{
	struct watch_tcp_event e = {
		.cpu = cpu, .start_ns = start, .len_ns = WIN,
		.syn_synack_count = n, .syn_synack_p99_ns = syn_p99,
		.ack_accept_count = n, .ack_accept_p99_ns = acc_p99,
	};

	watch_windows_add_tcp(ws, &e);
}

static void test_parse(void)
{
	double v = 0;

	tap_ok(!watch_parse_threshold(WATCH_HANDSHAKE_P99, "10ms", &v) && v == 10e6,
	       "--handshake-p99 10ms is 10,000,000 ns");
	tap_ok(!watch_parse_threshold(WATCH_NETRX_P99, "250us", &v) && v == 250e3,
	       "--netrx-p99 250us is 250,000 ns");
	tap_ok(!watch_parse_threshold(WATCH_HANDSHAKE_P99, "1.5s", &v) && v == 1.5e9,
	       "1.5s is 1.5e9 ns");
	tap_ok(watch_parse_threshold(WATCH_HANDSHAKE_P99, "10", &v) == -EINVAL,
	       "a duration without its unit is refused (10 what?)");
	tap_ok(watch_parse_threshold(WATCH_HANDSHAKE_P99, "-3ms", &v) == -EINVAL &&
	       watch_parse_threshold(WATCH_HANDSHAKE_P99, "0ms", &v) == -EINVAL &&
	       watch_parse_threshold(WATCH_HANDSHAKE_P99, "2h", &v) == -EINVAL &&
	       watch_parse_threshold(WATCH_HANDSHAKE_P99, "nanms", &v) == -EINVAL &&
	       watch_parse_threshold(WATCH_HANDSHAKE_P99, " 3ms", &v) == -EINVAL,
	       "negative, zero, unknown-unit, NaN and padded durations are refused");
	tap_ok(!watch_parse_threshold(WATCH_TEE_BLOCKED, "0.8", &v) && v == 0.8 &&
	       !watch_parse_threshold(WATCH_TEE_BLOCKED, "80%", &v) && v == 0.8,
	       "--tee-blocked takes 0.8 and 80%% alike");
	tap_ok(watch_parse_threshold(WATCH_TEE_BLOCKED, "1", &v) == -EINVAL &&
	       watch_parse_threshold(WATCH_TEE_BLOCKED, "0", &v) == -EINVAL &&
	       watch_parse_threshold(WATCH_TEE_BLOCKED, "120%", &v) == -EINVAL &&
	       watch_parse_threshold(WATCH_TEE_BLOCKED, "0.5ms", &v) == -EINVAL,
	       "a share must lie strictly between 0 and 1");
}

static void test_windows(void)
{
	struct watch_windows ws;
	struct watch_window w;
	struct watch_netrx_event nr = {
		.cpu = 1, .start_ns = 10 * WIN, .len_ns = WIN,
		.inline_count = 5, .inline_p99_ns = 300000,
		.ksoftirqd_count = 1, .ksoftirqd_p99_ns = 2000000,
	};

	watch_windows_init(&ws);
	tcp(&ws, 0, 10 * WIN, 40, 1 * MS, 3 * MS);
	tcp(&ws, 1, 10 * WIN, 2, 5 * MS, 2 * MS);
	watch_windows_add_netrx(&ws, &nr);
	tcp(&ws, 0, 11 * WIN, 10, 1 * MS, 1 * MS);
	tap_ok(!watch_windows_next_due(&ws, 11 * WIN + WIN / 2 - 1, WIN / 2, &w),
	       "a window is not judged before its grace has passed");
	tap_ok(watch_windows_next_due(&ws, 11 * WIN + WIN / 2, WIN / 2, &w) &&
	       w.start_ns == 10 * WIN, "... and then it is, the oldest first");
	tap_ok(w.cpus == 3 && w.handshakes == 42,
	       "both CPUs' events are in it (42 handshakes, 3 events)");
	tap_ok(w.value[WATCH_HANDSHAKE_P99] == 5 * MS,
	       "its handshake p99 is the largest phase p99 of any CPU (5 ms)");
	tap_ok(w.value[WATCH_NETRX_P99] == 2 * MS,
	       "its NET_RX p99 is the larger of inline and ksoftirqd's (2 ms)");
	tap_ok(isnan(w.value[WATCH_TEE_BLOCKED]),
	       "the TEE share is not the window events' (NAN until set)");
	tcp(&ws, 1, 10 * WIN, 5, 50 * MS, 50 * MS);
	tap_ok(ws.late == 1, "an event for a window already judged is late, and left out");
	tap_ok(!watch_windows_next_due(&ws, 12 * WIN, WIN / 2, &w),
	       "the next window waits for its own grace");
	tap_ok(watch_windows_next_due(&ws, 13 * WIN, WIN / 2, &w) &&
	       w.start_ns == 11 * WIN && w.value[WATCH_HANDSHAKE_P99] == 1 * MS,
	       "... and comes next, unchanged by the late event");
	watch_windows_close_until(&ws, 20 * WIN + WIN / 2, WIN / 2, WIN);
	tcp(&ws, 0, 19 * WIN, 5, 50 * MS, 50 * MS);
	tap_ok(ws.judged_until_ns == 20 * WIN && ws.late == 2,
	       "windows without events close with time: an event for one is late");
	tcp(&ws, 0, 20 * WIN, 5, 50 * MS, 50 * MS);
	tap_ok(ws.nr_open == 1, "... and the next window opens");
}

/* window - a window at @i with handshake p99 @p99 (NAN: none) */
static struct watch_window window(int i, double p99)
{
	struct watch_window w = { .start_ns = i * WIN, .len_ns = WIN };
	int m;

	for (m = 0; m < NR_WATCH_MEASURES; m++)
		w.value[m] = NAN;
	w.value[WATCH_HANDSHAKE_P99] = p99;
	w.handshakes = isnan(p99) ? 0 : 100;
	return w;
}

/* feed - windows of handshake p99s (0: empty); returns the breaches seen */
static int feed(struct watch_judge *j, const struct watch_rule *r,
		const double *p99, int n, int *first_breach)
{
	enum watch_state st[NR_WATCH_MEASURES];
	struct watch_window w;
	int i, breaches = 0;

	*first_breach = -1;
	for (i = 0; i < n; i++) {
		w = window(i, p99[i] ? p99[i] : NAN);
		if (watch_judge_window(j, r, &w, st) == WATCH_HANDSHAKE_P99) {
			if (*first_breach < 0)
				*first_breach = i;
			breaches++;
		}
	}
	return breaches;
}

static void test_runs(void)
{
	struct watch_rule r = { .run_windows = 3 };
	struct watch_judge j;
	int first;
	/* ms: a single outlier, then empty windows inside a run */
	const double single[] = { 4e6, 4e6, 30e6, 4e6, 4e6, 4e6 };
	const double stall[] = { 4e6, 0, 0, 30e6, 0, 4e6, 30e6, 30e6, 4e6 };
	const double slow[] = { 4e6, 4e6, 30e6, 30e6, 0, 30e6, 30e6, 30e6, 4e6 };
	const double at[] = { 10e6, 10e6, 10e6, 10e6 };

	r.set[WATCH_HANDSHAKE_P99] = true;
	r.threshold[WATCH_HANDSHAKE_P99] = 10e6;
	watch_judge_init(&j);
	tap_ok(!feed(&j, &r, single, 6, &first) && j.over[WATCH_HANDSHAKE_P99] == 1,
	       "one window over the threshold: counted over, no breach");
	watch_judge_init(&j);
	tap_ok(!feed(&j, &r, stall, 9, &first) && j.over[WATCH_HANDSHAKE_P99] == 3,
	       "a stall (empty windows, then one over) and a two-window run: no breach");
	watch_judge_init(&j);
	tap_ok(feed(&j, &r, slow, 9, &first) == 3 && first == 5,
	       "three windows over in a row, an empty one between: a breach at the third");
	tap_ok(j.breaches[WATCH_HANDSHAKE_P99] == 1 && j.run[WATCH_HANDSHAKE_P99] == 0,
	       "... one breach for the whole run, ended by the window under");
	tap_ok(j.run_start_ns[WATCH_HANDSHAKE_P99] == 2 * WIN,
	       "... and the run started at its first window over");
	watch_judge_init(&j);
	tap_ok(!feed(&j, &r, at, 4, &first), "a p99 equal to the threshold is not over it");
	r.run_windows = 1;
	watch_judge_init(&j);
	tap_ok(feed(&j, &r, single, 6, &first) == 1 && first == 2,
	       "--windows 1: the single window breaches");
	r.set[WATCH_HANDSHAKE_P99] = false;
	watch_judge_init(&j);
	tap_ok(!feed(&j, &r, slow, 9, &first) && !j.over[WATCH_HANDSHAKE_P99],
	       "a measure without a threshold is not judged");
}

static void test_tee_and_cooldown(void)
{
	enum watch_state st[NR_WATCH_MEASURES];
	struct watch_rule r = { .run_windows = 1, .min_tee_calls = 10 };
	struct watch_window w = window(1, NAN);
	struct watch_judge j;

	r.set[WATCH_TEE_BLOCKED] = true;
	r.threshold[WATCH_TEE_BLOCKED] = 0.5;
	watch_judge_init(&j);
	w.value[WATCH_TEE_BLOCKED] = 0.9;
	w.tee_calls = 3;
	tap_ok(watch_judge_window(&j, &r, &w, st) < 0 && st[WATCH_TEE_BLOCKED] == WATCH_EMPTY,
	       "a TEE share of 3 calls (fewer than the minimum) is not judged");
	w.tee_calls = 30;
	tap_ok(watch_judge_window(&j, &r, &w, st) == WATCH_TEE_BLOCKED,
	       "90 %% of 30 calls asleep over a 50 %% threshold breaches");
	tap_ok(watch_cooldown_over(&j, 0, 60e9), "no capture yet: the cooldown does not hold");
	watch_judge_captured(&j, 100e9);
	tap_ok(!watch_cooldown_over(&j, 159.9e9, 60e9) && watch_cooldown_over(&j, 160e9, 60e9),
	       "after a capture at 100 s, none before 160 s with a 60 s cooldown");
}

static void test_capture_start(void)
{
	struct watch_cpu_ring cpus[3] = {
		{ .overwrote = true, .oldest_ns = 20e9 },
		{ .overwrote = false, .oldest_ns = 50e9 },	/* quiet: all held */
		{ .overwrote = true, .oldest_ns = 25e9 },
	};
	const double snaps[] = { 10e9, 17.5e9, 25e9, 32.5e9, 40e9 };
	double from = watch_whole_from(cpus, 3, 5e9);

	tap_ok(from == 25e9, "whole from the latest oldest event of a CPU that overwrote (25 s)");
	tap_ok(watch_whole_from(cpus + 1, 1, 5e9) == 5e9,
	       "a CPU that overwrote nothing holds everything since the restart");
	tap_ok(watch_pick_start(snaps, 5, from) == 2,
	       "the capture starts at the oldest snapshot from then on (25 s)");
	tap_ok(watch_pick_start(snaps, 5, 41e9) == -1, "none when every snapshot is older");
}

static void test_ring(void)
{
	tap_ok(watch_ring_kb(1024, 10, 30, true, 65536) == 3840,
	       "10 s held of 30: 1 MiB grows to 3.75 MiB (a quarter to spare)");
	tap_ok(watch_ring_kb(1024, 10, 30, false, 65536) == 1024,
	       "a ring that overwrote nothing keeps its size");
	tap_ok(watch_ring_kb(1024, 40, 30, true, 65536) == 1024,
	       "a ring that holds the time asked keeps its size");
	tap_ok(watch_ring_kb(32768, 1, 30, true, 65536) == 65536,
	       "never beyond the largest size");
	tap_ok(watch_ring_kb(1000, 10, 11, true, 65536) % 4 == 0,
	       "in whole pages");
}

static void test_prune(void)
{
	const char *names[] = {
		"teeprobe-watch-20261205T120000Z.dat",
		"teeprobe-watch-20261205T120000Z-1.dat",
		"teeprobe-watch-20261205T110000Z.dat",
		"notes.txt",
		"teeprobe-watch-20261205T130000Z.dat",
		"teeprobe-watch-2026120T130000Z.dat",
		"teeprobe-watch-20261205T130000Z.dat.tmp",
	};
	bool rm[7];

	tap_ok(watch_prune(names, 7, 2, rm) == 2 && rm[0] && rm[2] && !rm[1] && !rm[4],
	       "keep 2: the two newest stay (13:00, then 12:00's second), the others go");
	tap_ok(!rm[3] && !rm[5] && !rm[6], "files that are not captures' never go");
	tap_ok(watch_prune(names, 7, 10, rm) == 0, "keep 10 of 4: none goes");
	tap_ok(watch_disk_has_room(2 * 8e6 + 4e6, 8e6, 4e6) &&
	       !watch_disk_has_room(2 * 8e6 + 4e6 - 1, 8e6, 4e6),
	       "room for a capture: twice the ring, and what any session needs beside");
}

int main(void)
{
	test_parse();
	test_windows();
	test_runs();
	test_tee_and_cooldown();
	test_capture_start();
	test_ring();
	test_prune();
	return tap_done();
}
