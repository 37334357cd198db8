// SPDX-License-Identifier: GPL-2.0
/*
 * test_prometheus.c - unit tests for "teeprobe stat --prometheus"'s
 * formatter (tools/prometheus.c), without a kernel: the debugfs files
 * recorded in a 6.1 guest after a lab run (tests/tools/debugfs/), and
 * small made-up files for the edge cases. Expected values are read off
 * the recorded files by hand, or come from another file than the one the
 * formatter used (a histogram's count against the stats file's calls).
 * The fleet's default (coarse buckets, no per-CPU series) is checked
 * against the --fine-buckets exposition and against the hist files' rows,
 * its series counted on the recorded run widened to 64 and 128 CPUs.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/prometheus.h"
#include "../../tools/prometheus_format.h"
#include "../../tools/lib/include/snapshot.h"
#include "../../tools/lib/include/hist.h"
#include "fixture.h"
#include "tap.h"

#ifndef TEST_DEBUGFS
#error "TEST_DEBUGFS: the directory of recorded debugfs files"
#endif

/* Every option on: the exposition as it was before the fleet's default */
static const struct prom_opts every = { .per_cpu = true, .fine_buckets = true };
static const struct prom_opts fine = { .fine_buckets = true };
static const struct prom_opts per_cpu = { .per_cpu = true };

/*
 * format - prom_write of @s with @opts (NULL: the default) into a string
 * (the caller frees it)
 */
static char *format(const struct snapshot *s, const struct prom_opts *opts)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	prom_write(f, s, "9.9.9", opts);
	fclose(f);
	return text;
}

/* has_line - does @text hold the line @line, whole? */
static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
		p++;
	}
	return false;
}

/* count_prefix - lines of @text starting with @prefix */
static int count_prefix(const char *text, const char *prefix)
{
	const char *p = text;
	int n = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

/*
 * sample_value - the value of the sample named and labelled @series (the
 * line up to its value) in @text; -1 when @text has no such sample
 */
static long long sample_value(const char *text, const char *series)
{
	size_t n = strlen(series);
	const char *p = text;

	while ((p = strstr(p, series))) {
		if ((p == text || p[-1] == '\n') && p[n] == ' ')
			return strtoll(p + n + 1, NULL, 10);
		p++;
	}
	return -1;
}

/* read_fixture - the text of file @name of directory @dir (the caller frees it) */
static char *read_fixture(const char *dir, const char *name)
{
	char path[512], *text = NULL;
	size_t len = 0;
	FILE *f, *m;
	int c;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	m = open_memstream(&text, &len);
	if (!m)
		abort();
	while (f && (c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	if (f)
		fclose(f);
	return text;
}

/* rows_of - rows of @text (a debugfs table) whose first field is @first; NULL: any */
static int rows_of(const char *text, const char *first)
{
	const char *line;
	int n = 0;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		if (*line == '#' || *line == '\n')
			continue;
		if (!first || (!strncmp(line, first, strlen(first)) &&
			       line[strlen(first)] == ' '))
			n++;
	}
	return n;
}

/* samples_of - the samples of an exposition (its lines but HELP and TYPE) */
static int samples_of(const char *text)
{
	return count_prefix(text, "teeprobe_");
}

/* count_of - occurrences of @what in @text */
static int count_of(const char *text, const char *what)
{
	const char *p = text;
	int n = 0;

	while ((p = strstr(p, what))) {
		n++;
		p++;
	}
	return n;
}

/* last_field - the number a table row ends with (its "all" column) */
static unsigned long long last_field(const char *row)
{
	const char *end = row + strcspn(row, "\n");

	while (end > row && end[-1] != ' ')
		end--;
	return strtoull(end, NULL, 10);
}

/*
 * count_series - into @buf, the _count series of histogram bucket @series
 * (name_bucket{labels,le="+Inf"}: name_count{labels})
 */
static const char *count_series(char *buf, size_t len, const char *series)
{
	const char *b = strstr(series, "_bucket{"), *le = strstr(series, "le=\"");
	int labels = le - (b + 8);

	if (labels > 0)	/* a="x",le=...: without the comma */
		snprintf(buf, len, "%.*s_count{%.*s}", (int)(b - series), series,
			 labels - 1, b + 8);
	else
		snprintf(buf, len, "%.*s_count", (int)(b - series), series);
	return buf;
}

/* check_line - a tap check that @line is in @text, with the text on failure */
static void check_line(const char *text, const char *line, const char *why)
{
	if (!tap_ok(has_line(text, line), "%s", why))
		tap_diag("missing line: %s", line);
}

/*
 * test_recorded - the files of a real lab run, every option on: per-CPU
 * counters and the module's own buckets
 */
static void test_recorded(void)
{
	struct snapshot s = { 0 };
	char *out;

	snapshot_add_dir(&s, TEST_DEBUGFS "/6.1-hard-temp");
	tap_ok(snapshot_text(&s, "tee_stats") && snapshot_text(&s, "netrx_hist"),
	       "the recorded debugfs files load (%s)", TEST_DEBUGFS);
	tap_ok(prom_up(&s), "the module counts as up with its version file");
	out = format(&s, &every);

	check_line(out, "teeprobe_up 1", "teeprobe_up 1");
	check_line(out, "teeprobe_build_info{version=\"9.9.9\"} 1",
		   "build_info carries the command's version");
	check_line(out, "teeprobe_module_info{version=\"0.1.0\",kernel=\"6.1.0-57-amd64\"} 1",
		   "module_info carries the version file's version and kernel");
	check_line(out, "teeprobe_tee_pid_filter_pids 0",
		   "pid_filter \"all\" is 0 processes");

	/* tee_stats: per CPU and command, ns as seconds */
	check_line(out, "teeprobe_tee_ioctls_total{cpu=\"0\",cmd=\"INVOKE\"} 448",
		   "TEE INVOKE calls on CPU 0 (tee_stats row 0 INVOKE)");
	check_line(out, "teeprobe_tee_ioctl_blocked_seconds_total{cpu=\"1\",cmd=\"SHM_REGISTER\"} 6.52609386",
		   "offcpu_ns 6526093860 is 6.52609386 s of blocked time");
	check_line(out, "teeprobe_tee_ioctl_max_seconds{cpu=\"1\",cmd=\"VERSION\"} 0.00044757",
		   "max_ns is a gauge in seconds");
	tap_ok(!strstr(out, "cpu=\"all\""), "no series for the \"all\" rows");
	/* tee_hist against tee_stats: the count is the all row's calls */
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_count{cmd=\"INVOKE\"} 800",
		   "INVOKE histogram count = tee_stats' all INVOKE calls (800)");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_sum{cmd=\"INVOKE\"} 8.61110565",
		   "INVOKE histogram sum = tee_stats' all INVOKE total_ns");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"0.001048576\"} 0",
		   "no INVOKE below 2^20 ns");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"0.002097152\"} 477",
		   "INVOKE bucket 2^20 ns (477 calls) is below le 2^21 ns");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"0.004194304\"} 601",
		   "buckets are cumulative (477 + 124)");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"+Inf\"} 800",
		   "+Inf counts every INVOKE");
	tap_ok(count_prefix(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",") ==
	       HIST_LOG2_BUCKETS - 1 - PROM_FIRST_BUCKET + 1,
	       "a fixed bucket layout: le 2^10 .. 2^31 ns and +Inf");
	check_line(out, "teeprobe_tee_ioctl_untracked_total 0", "# untracked");
	check_line(out, "teeprobe_tee_threads_overflow_total 0",
		   "tee_threads' # overflow");
	tap_ok(!strstr(out, "hsbench") && !strstr(out, "tid="),
	       "nothing per thread (tee_threads) is exported");

	/* netrx_stats and netrx_hist */
	check_line(out, "teeprobe_netrx_runs_total{cpu=\"0\"} 1059", "NET_RX runs of CPU 0");
	check_line(out, "teeprobe_netrx_ksoftirqd_runs_total{cpu=\"1\"} 428",
		   "ksoftirqd runs of CPU 1");
	check_line(out, "teeprobe_netrx_delayed_runs_total{cpu=\"1\",context=\"ksoftirqd\"} 387",
		   "ksoftirqd_delay_count as delayed runs, context ksoftirqd");
	check_line(out, "teeprobe_netrx_delay_seconds_total{cpu=\"0\",context=\"inline\"} 0.06872342",
		   "inline_delay_sum_ns in seconds");
	check_line(out, "teeprobe_netrx_tee_delay_seconds_total{cpu=\"1\"} 0.11719033",
		   "tee_delay_sum_ns in seconds");
	check_line(out, "teeprobe_netrx_raise_to_entry_seconds_count{context=\"inline\"} 1165",
		   "inline delay histogram count = netrx_stats' all inline_delay_count");
	check_line(out, "teeprobe_netrx_raise_to_entry_seconds_sum{context=\"ksoftirqd\"} 0.7610941",
		   "ksoftirqd delay histogram sum = all ksoftirqd_delay_sum_ns");
	check_line(out, "teeprobe_netrx_raise_to_entry_seconds_bucket{context=\"inline\",le=\"0.000004096\"} 2",
		   "inline bucket 2048 ns (2) is below le 4096 ns");
	check_line(out, "teeprobe_netrx_run_duration_seconds_bucket{le=\"0.000002048\"} 22",
		   "run bucket 1024 ns (22) is below le 2048 ns");
	check_line(out, "teeprobe_netrx_run_duration_seconds_count 1979",
		   "run histogram count = netrx_stats' all runs");

	/* tcp_stats and tcp_hist: all CPUs, by port */
	check_line(out, "teeprobe_tcp_accepted_total{port=\"7000\"} 200", "accepted on port 7000");
	tap_ok(!strstr(out, "teeprobe_tcp_accepted_total{cpu="),
	       "TCP counters are not split by CPU");
	check_line(out, "teeprobe_tcp_handshake_phase_seconds_count{port=\"7000\",phase=\"ack_accept\"} 200",
		   "ack_accept histogram count = tcp_stats' phase count");
	check_line(out, "teeprobe_tcp_handshake_phase_seconds_sum{port=\"7000\",phase=\"syn_synack\"} 0.02149439",
		   "syn_synack histogram sum = tcp_stats' phase sum_ns");
	check_line(out, "teeprobe_tcp_handshake_phase_seconds_bucket{port=\"7000\",phase=\"connect\",le=\"0.134217728\"} 200",
		   "connect's last bucket (2^26 ns) is below le 2^27 ns");
	check_line(out, "teeprobe_tcp_handshake_phase_max_seconds{port=\"7000\",phase=\"synack_ack\"} 0.03959485",
		   "phase max_ns as a gauge in seconds");
	check_line(out, "teeprobe_tcp_table_size 4096", "# table size");
	check_line(out, "teeprobe_tcp_table_full_total 0", "# table full");
	check_line(out, "teeprobe_tcp_table_expired_total 0", "# table expired");

	/* probes */
	check_line(out, "teeprobe_probe_attached{part=\"tee\",symbol=\"tee_ioctl\"} 1",
		   "an attached TEE probe");
	check_line(out, "teeprobe_probe_attached{part=\"tee\",symbol=\"optee_cq_wait_for_completion\"} 0",
		   "a not-found TEE probe is 0");
	check_line(out, "teeprobe_probe_missed_total{part=\"tcp\",symbol=\"tcp_conn_request\"} 0",
		   "a TCP probe's nmissed");
	tap_ok(!strstr(out, "symbol=\"preset\""), "tee_probes' # preset line is no probe");

	tap_ok(count_prefix(out, "# TYPE teeprobe_tee_ioctls_total ") == 1 &&
	       count_prefix(out, "# HELP teeprobe_tee_ioctls_total ") == 1,
	       "a family's HELP and TYPE come once");
	free(out);
	snapshot_free(&s);
}

/*
 * test_tcp_phases - the same counters as the module shows them now
 * (tcp_phases apart, "# table_size ..." lines) and as it did before (phase
 * rows and "# table size ..." in tcp_stats) give the same metrics, TCP
 * phase sums and maxima and the table's gauges included
 */
static void test_tcp_phases(void)
{
	struct snapshot old = { 0 }, cur = { 0 };
	char *a, *b;

	snapshot_add_dir(&old, TEST_DEBUGFS "/6.1-hard-temp");
	snapshot_add_dir(&cur, TEST_DEBUGFS "/6.1-hard-temp-split");
	tap_ok(!snapshot_text(&old, "tcp_phases") && snapshot_text(&cur, "tcp_phases") &&
	       !strstr(snapshot_text(&cur, "tcp_stats"), "phase"),
	       "two shapes: phases in tcp_stats, phases in tcp_phases");
	a = format(&old, NULL);
	b = format(&cur, NULL);
	tap_ok(!strcmp(a, b), "both shapes give the same metrics (%zu bytes)", strlen(a));
	check_line(b, "teeprobe_tcp_handshake_phase_max_seconds{port=\"7000\",phase=\"connect_call\"} 0.11786868",
		   "a phase's maximum from tcp_phases");
	check_line(b, "teeprobe_tcp_handshake_phase_seconds_sum{port=\"7000\",phase=\"synack_ack\"} 0.67199257",
		   "a phase's sum from tcp_phases");
	check_line(b, "teeprobe_tcp_table_size 4096", "the table's size from '# table_size'");
	free(a);
	free(b);
	snapshot_free(&old);
	snapshot_free(&cur);
}

/* test_down - no module: teeprobe_up 0 and nothing else but build info */
static void test_down(void)
{
	struct snapshot s = { 0 };
	char *out;

	snapshot_add_dir(&s, TEST_DEBUGFS "/no-such-directory");
	tap_ok(!prom_up(&s), "no files: the module is down");
	out = format(&s, NULL);
	check_line(out, "teeprobe_up 0", "teeprobe_up 0 without the module");
	check_line(out, "teeprobe_build_info{version=\"9.9.9\"} 1",
		   "build_info without the module");
	tap_ok(count_prefix(out, "teeprobe_") == 2,
	       "no other sample without the module");
	free(out);
	snapshot_free(&s);
}

/* test_edges - escaping, huge sums, an older module, an empty histogram */
static void test_edges(void)
{
	struct snapshot s = { 0 };
	char *out;

	fixture_add(&s, "version", "teeprobe 0.0.1 kernel 6.12.9+deb12-amd64");
	fixture_add(&s, "pid_filter", "147 300");
	/* an older netrx_stats, without the tee_* columns */
	fixture_add(&s, "netrx_stats",
		    "# cpu raises runs ksoftirqd_runs run_ns run_max_ns packets polls budget_full reraises inline_delay_count inline_delay_sum_ns inline_delay_max_ns ksoftirqd_delay_count ksoftirqd_delay_sum_ns ksoftirqd_delay_max_ns\n"
		    "0 5 4 1 18446744073709551615 7 8 9 0 1 3 2048 1024 1 4096 4096\n"
		    "all 5 4 1 18446744073709551615 7 8 9 0 1 3 2048 1024 1 4096 4096\n"
		    "# window_ms 100\n");
	/* right after a reset: a header and no rows */
	fixture_add(&s, "netrx_hist", "# hist bucket_low_ns cpu0 all\n");
	fixture_add(&s, "tee_probes",
		    "# preset custom\n"
		    "# symbol role state error nmissed calls total_ns max_ns\n"
		    "my\"wait\\fn wait attached 0 3 0 0 0\n");
	/* a TEE command whose calls are all above 2^31 ns */
	fixture_add(&s, "tee_stats",
		    "# cpu cmd calls errors total_ns offcpu_ns runq_ns queue_wait_ns max_ns\n"
		    "3 INVOKE 2 1 5000000000 0 0 0 3000000000\n"
		    "all INVOKE 2 1 5000000000 0 0 0 3000000000\n");
	fixture_add(&s, "tee_hist", "# cmd bucket_low_ns cpu3 all\nINVOKE 2147483648 2 2\n");
	out = format(&s, &every);

	check_line(out, "teeprobe_module_info{version=\"0.0.1\",kernel=\"6.12.9+deb12-amd64\"} 1",
		   "another module version");
	check_line(out, "teeprobe_tee_pid_filter_pids 2", "two followed processes");
	check_line(out, "teeprobe_netrx_run_seconds_total{cpu=\"0\"} 18446744073.709551615",
		   "a sum near 2^64 ns is exact in seconds");
	tap_ok(!strstr(out, "teeprobe_netrx_tee_runs_total"),
	       "an older module's missing column gives no family");
	check_line(out, "teeprobe_netrx_raise_to_entry_seconds_bucket{context=\"inline\",le=\"+Inf\"} 0",
		   "an empty histogram still has its series (+Inf 0)");
	check_line(out, "teeprobe_netrx_raise_to_entry_seconds_count{context=\"ksoftirqd\"} 0",
		   "... and its count 0");
	check_line(out, "teeprobe_netrx_raise_to_entry_seconds_sum{context=\"inline\"} 0.000002048",
		   "... and the sum of the stats file");
	check_line(out, "teeprobe_probe_missed_total{part=\"tee\",symbol=\"my\\\"wait\\\\fn\"} 3",
		   "a label value's quote and backslash are escaped");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"2.147483648\"} 0",
		   "the module's last bucket (from 2^31 ns) is above the last le");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"+Inf\"} 2",
		   "... and counts in +Inf");
	check_line(out, "teeprobe_tee_ioctl_errors_total{cpu=\"3\",cmd=\"INVOKE\"} 1",
		   "errors per CPU and command");
	check_line(out, "teeprobe_tee_ioctl_seconds_total{cpu=\"3\",cmd=\"INVOKE\"} 5",
		   "whole seconds have no decimal point");
	tap_ok(!strstr(out, "teeprobe_tcp_"), "no TCP file, no TCP family");
	free(out);
	snapshot_free(&s);
}

/*
 * test_loglin - a module with log-linear histograms: "le" follows its
 * buckets (the next bucket's low edge), from 1.024 us to 2^31 ns
 */
static void test_loglin(void)
{
	struct snapshot s = { 0 };
	char *out;

	fixture_add(&s, "version", "teeprobe 0.2.0 kernel 6.12.9+deb12-amd64");
	fixture_add(&s, "tee_stats",
		    "# cpu cmd calls errors total_ns offcpu_ns runq_ns queue_wait_ns max_ns\n"
		    "0 INVOKE 3 0 3100 0 0 0 1100\n"
		    "all INVOKE 3 0 3100 0 0 0 1100\n");
	/* 960 ns: bucket [896, 1024); 1000 too; 1100 ns: [1024, 1152) */
	fixture_add(&s, "tee_hist", "# cmd bucket_low_ns cpu0 all\nINVOKE 896 2 2\nINVOKE 1024 1 1\n"
		    "# hist_sub_bits 3\n# hist_unit_shift 7\n");
	out = format(&s, &fine);
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"0.000001024\"} 2",
		   "log-linear: le 1024 ns counts the bucket [896, 1024)");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"0.000001152\"} 3",
		   "... le 1152 ns, 1/8 of 1024 above, the bucket [1024, 1152)");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"2.147483648\"} 3",
		   "... up to le 2^31 ns");
	tap_ok(count_prefix(out, "teeprobe_tee_ioctl_duration_seconds_bucket{") == 21 * 8 + 1 + 1,
	       "... 8 le a power of two, 1.024 us to 2^31 ns both in, and +Inf");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_count{cmd=\"INVOKE\"} 3",
		   "... and its count");
	free(out);
	snapshot_free(&s);
}

/*
 * test_recorded_loglin - the files of a module with log-linear histograms
 * (6.1-loglin: a guest's lab run of 200 hard-temp handshakes)
 */
static void test_recorded_loglin(void)
{
	struct snapshot s = { 0 };
	char *out;

	snapshot_add_dir(&s, TEST_DEBUGFS "/6.1-loglin");
	tap_ok(snapshot_text(&s, "tee_hist") && snapshot_text(&s, "tcp_phases"),
	       "the recorded log-linear debugfs files load");
	out = format(&s, &fine);
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_count{cmd=\"INVOKE\"} 800",
		   "log-linear tee_hist: INVOKE's count = tee_stats' 800 calls");
	check_line(out, "teeprobe_tee_ioctl_duration_seconds_count{cmd=\"SHM_REGISTER\"} 800",
		   "... SHM_REGISTER's too");
	check_line(out, "teeprobe_tcp_handshake_phase_seconds_count{port=\"7000\",phase=\"ack_accept\"} 200",
		   "log-linear tcp_hist: ack_accept's count = the 200 handshakes");
	check_line(out, "teeprobe_tcp_phases_lost_total 0",
		   "tcp_phases' \"# phases_lost\" is a counter");
	tap_ok(count_prefix(out, "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\"") ==
	       21 * 8 + 1 + 1,
	       "INVOKE's le follow the log-linear layout (8 a power of two, and +Inf)");
	free(out);
	snapshot_free(&s);
}

/*
 * test_watch - a running watch's status file (the "watch" source): its
 * thresholds and last values in the threshold's unit, counters, the last
 * verdict; none of it without a status
 */
static void test_watch(void)
{
	static const char *const lines[] = {
		"pid 4242", "started 1796496698.638", "dir /var/lib/teeprobe/watch",
		"window_ms 1000", "run_windows 3", "ring_s 30", "after_s 10",
		"cooldown_s 600", "keep 10", "ring_kb 4096",
		"threshold handshake_p99 10000000", "value handshake_p99 250054646",
		"over handshake_p99 34", "breaches handshake_p99 2",
		"threshold tee_blocked 0.9", "over tee_blocked 0", "breaches tee_blocked 0",
		"windows 35", "late_events 8", "captures 1", "failed 0",
		"skipped_cooldown 1", "skipped_disk 0", "last_breach 1796496737.526",
		"last_capture 1796496723.485",
		"last_file /var/lib/teeprobe/watch/teeprobe-watch-20261205T185143Z.dat",
		"last_verdict tee-blocking", "running 1",
	};
	struct snapshot s = { 0 };
	char *out;
	size_t i;

	snapshot_add_dir(&s, TEST_DEBUGFS "/6.1-hard-temp");
	out = format(&s, NULL);
	tap_ok(!strstr(out, "teeprobe_watch_"), "no watch status: no teeprobe_watch_ series");
	free(out);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		snapshot_add_line(&s, "watch", lines[i]);
	out = format(&s, NULL);
	check_line(out, "teeprobe_watch_running 1", "the watch runs");
	check_line(out, "teeprobe_watch_threshold{measure=\"handshake_p99\"} 0.01",
		   "a time threshold in seconds (10 ms)");
	check_line(out, "teeprobe_watch_threshold{measure=\"tee_blocked\"} 0.9",
		   "a share threshold as the share");
	check_line(out, "teeprobe_watch_value{measure=\"handshake_p99\"} 0.250054646",
		   "the last window's handshake p99 in seconds");
	tap_ok(!strstr(out, "teeprobe_watch_value{measure=\"tee_blocked\"}"),
	       "no value before a window measured it");
	check_line(out, "teeprobe_watch_windows_over_total{measure=\"handshake_p99\"} 34",
		   "windows over, by measure");
	check_line(out, "teeprobe_watch_breaches_total{measure=\"handshake_p99\"} 2",
		   "breaches, by measure");
	check_line(out, "teeprobe_watch_captures_total 1", "captures");
	check_line(out, "teeprobe_watch_captures_skipped_total{reason=\"cooldown\"} 1",
		   "a breach the cooldown held back");
	check_line(out, "teeprobe_watch_last_breach_timestamp_seconds 1796496737.526",
		   "the last breach as Unix time");
	check_line(out, "teeprobe_watch_last_verdict_info{verdict=\"tee-blocking\"} 1",
		   "the last capture's verdict key");
	tap_ok(!strstr(out, "teeprobe-watch-2026"), "no file name in any label");
	tap_ok(!strstr(out, "teeprobe_watch_windows_over_total{measure=\"netrx_p99\"}"),
	       "a measure without a threshold has no series");
	free(out);
	snapshot_free(&s);
}

/*
 * test_coarse_edges - the default "le" edges: 10 to 20 buckets from about
 * 10 us to about 1 s, each a bucket edge of both of the module's layouts
 * (so summing its buckets up to an edge is exact), one between 4 ms and
 * 20 ms (the case's handshakes)
 */
static void test_coarse_edges(void)
{
	unsigned long long edge, lowest = 0, highest = 0;
	int n = 0, log2_edges = 0, loglin_edges = 0, between = 0;
	unsigned int i;

	for (edge = 1; edge && edge <= 1ULL << 40; edge <<= 1) {
		if (!prom_le_is_coarse(edge))
			continue;
		n++;
		lowest = lowest ? lowest : edge;
		highest = edge;
		between += edge > 4000000 && edge <= 20000000;
		for (i = 0; i < hist_buckets_in(HIST_LOG2); i++)
			log2_edges += hist_low_in(HIST_LOG2, i) == edge;
		for (i = 0; i < hist_buckets_in(HIST_LOGLIN); i++)
			loglin_edges += hist_low_in(HIST_LOGLIN, i) == edge;
	}
	tap_ok(n + 1 == PROM_LE_BUCKETS && PROM_LE_BUCKETS >= 10 && PROM_LE_BUCKETS <= 20,
	       "%d le edges and +Inf: %d buckets, 10 to 20", n, PROM_LE_BUCKETS);
	tap_ok(lowest >= 5000 && lowest <= 20000 && highest >= 500000000 &&
	       highest <= 2000000000, "from %llu ns (about 10 us) to %llu ns (about 1 s)",
	       lowest, highest);
	tap_ok(log2_edges == n && loglin_edges == n,
	       "every edge is a module bucket's low edge: log2 %d/%d, log-linear %d/%d",
	       log2_edges, n, loglin_edges, n);
	tap_ok(!prom_le_is_coarse(3 << 20) && !prom_le_is_coarse(1ULL << 31) &&
	       !prom_le_is_coarse(1ULL << 12), "no edge but those: 3 * 2^20, 2^31, 2^12 are none");
	tap_ok(between >= 1, "%d edges between 4 ms and 20 ms", between);
}

/*
 * test_case_handshakes - the case's handshakes through the formatter: a
 * 4 ms and a 20 ms accept wait land in different default buckets
 */
static void test_case_handshakes(void)
{
	struct snapshot s = { 0 };
	char *out;

	fixture_add(&s, "version", "teeprobe 0.2.0 kernel 6.1.0-57-amd64");
	/* 4,000,000 ns: bucket [3932160, 4194304); 20,000,000: [18874368, 20971520) */
	fixture_add(&s, "tcp_hist", "# port phase bucket_low_ns cpu0 all\n"
		    "7000 ack_accept 3932160 1 1\n7000 ack_accept 18874368 1 1\n"
		    "# hist_sub_bits 3\n# hist_unit_shift 7\n");
	out = format(&s, NULL);
	check_line(out, "teeprobe_tcp_handshake_phase_seconds_bucket{port=\"7000\",phase=\"ack_accept\",le=\"0.002097152\"} 0",
		   "case: nothing under 2^21 ns");
	check_line(out, "teeprobe_tcp_handshake_phase_seconds_bucket{port=\"7000\",phase=\"ack_accept\",le=\"0.004194304\"} 1",
		   "case: the 4 ms handshake under le 2^22 ns (4.19 ms)");
	check_line(out, "teeprobe_tcp_handshake_phase_seconds_bucket{port=\"7000\",phase=\"ack_accept\",le=\"0.016777216\"} 1",
		   "case: ... the 20 ms one not under le 2^24 ns (16.8 ms)");
	check_line(out, "teeprobe_tcp_handshake_phase_seconds_bucket{port=\"7000\",phase=\"ack_accept\",le=\"0.033554432\"} 2",
		   "case: ... but under le 2^25 ns (33.6 ms)");
	free(out);
	snapshot_free(&s);
}

/*
 * check_rebucketed - the default exposition @coarse of fixture @dir
 * against its --fine-buckets one @fine and the fixture's tee_hist: every
 * coarse bucket is a fine one with the same cumulative count, +Inf is
 * _count, and INVOKE's counts are the sums of tee_hist's "all" column
 * below each edge (read here, not by the formatter)
 */
static void check_rebucketed(const char *dir, const char *coarse, const char *fine_out)
{
	char series[512], count[512], le[48], *tee_hist = read_fixture(dir, "tee_hist");
	int buckets = 0, same = 0, infs = 0, counts = 0, edges = 0, raw_same = 0;
	unsigned long long edge, low, raw;
	const char *line, *sp, *row;

	for (line = coarse; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		sp = strchr(line, ' ');
		if (line[0] == '#' || !sp || !strstr(line, "_bucket{") ||
		    strstr(line, "_bucket{") > sp)
			continue;
		snprintf(series, sizeof(series), "%.*s", (int)(sp - line), line);
		buckets++;
		same += sample_value(fine_out, series) == strtoll(sp + 1, NULL, 10);
		if (!strstr(series, "le=\"+Inf\""))
			continue;
		infs++;
		counts += sample_value(coarse, count_series(count, sizeof(count), series)) ==
			  strtoll(sp + 1, NULL, 10);
	}
	tap_ok(buckets > 0 && same == buckets,
	       "%s: each of %d coarse buckets is a fine bucket with the same cumulative count (%d)",
	       dir + strlen(TEST_DEBUGFS) + 1, buckets, same);
	tap_ok(infs > 0 && counts == infs, "%s: +Inf is _count in each of %d histograms (%d)",
	       dir + strlen(TEST_DEBUGFS) + 1, infs, counts);
	for (edge = 1ULL << PROM_LE_FIRST_SHIFT; edge <= 1ULL << PROM_LE_LAST_SHIFT; edge <<= 1) {
		raw = 0;
		for (row = tee_hist; row && *row; row = strchr(row, '\n'), row = row ? row + 1 : NULL)
			if (!strncmp(row, "INVOKE ", 7) && sscanf(row + 7, "%llu", &low) == 1 &&
			    low < edge)
				raw += last_field(row);
		snprintf(series, sizeof(series),
			 "teeprobe_tee_ioctl_duration_seconds_bucket{cmd=\"INVOKE\",le=\"%s\"}",
			 prom_fmt_seconds(le, sizeof(le), edge));
		edges++;
		raw_same += sample_value(coarse, series) == (long long)raw;
	}
	tap_ok(raw_same == edges, "%s: INVOKE's %d coarse counts = tee_hist's all column summed below each edge (%d)",
	       dir + strlen(TEST_DEBUGFS) + 1, edges, raw_same);
	free(tee_hist);
}

/*
 * most_buckets - the most _bucket samples of one histogram series in
 * @text (a series' buckets are consecutive lines)
 */
static int most_buckets(const char *text)
{
	char key[512] = "", cur[512];
	const char *line, *le;
	int n = 0, most = 0;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		le = strstr(line, "le=\"");
		if (line[0] == '#' || !strstr(line, "_bucket{") || !le ||
		    le > strchr(line, '\n'))
			continue;
		snprintf(cur, sizeof(cur), "%.*s", (int)(le - line), line);
		n = strcmp(cur, key) ? 1 : n + 1;
		strcpy(key, cur);
		most = n > most ? n : most;
	}
	return most;
}

/*
 * test_default - a fleet's default on both recorded runs: no per-CPU
 * series, at most 20 buckets a histogram, re-bucketed exactly; --per-cpu
 * brings back a series per CPU row of the files
 */
static void test_default(void)
{
	static const char *const dirs[] = { TEST_DEBUGFS "/6.1-hard-temp", TEST_DEBUGFS "/6.1-loglin" };
	char *coarse, *fine_out, *cpus, *tee, *netrx;
	size_t d;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		struct snapshot s = { 0 };
		const char *name = dirs[d] + strlen(TEST_DEBUGFS) + 1;
		int cpu_rows;

		snapshot_add_dir(&s, dirs[d]);
		coarse = format(&s, NULL);
		fine_out = format(&s, &fine);
		cpus = format(&s, &per_cpu);
		tap_ok(!strstr(coarse, "cpu=\""), "%s: the default has no cpu label", name);
		tap_ok(most_buckets(coarse) == PROM_LE_BUCKETS && PROM_LE_BUCKETS <= 20,
		       "%s: a histogram has %d buckets by default (at most 20)", name,
		       most_buckets(coarse));
		tap_ok(most_buckets(fine_out) > 20, "%s: --fine-buckets keeps the module's %d",
		       name, most_buckets(fine_out));
		check_rebucketed(dirs[d], coarse, fine_out);
		/* the all rows, as the files give them */
		tap_ok(sample_value(coarse, "teeprobe_tee_ioctls_total{cmd=\"INVOKE\"}") == 800,
		       "%s: INVOKE calls of all CPUs (tee_stats' all row: 800)", name);
		tee = read_fixture(dirs[d], "tee_stats");
		netrx = read_fixture(dirs[d], "netrx_stats");
		cpu_rows = 7 * (rows_of(tee, NULL) - rows_of(tee, "all")) +
			   17 * (rows_of(netrx, NULL) - rows_of(netrx, "all"));
		tap_ok(cpu_rows > 0 && count_of(cpus, "{cpu=\"") == cpu_rows,
		       "%s: --per-cpu: a series per CPU row and column (%d, the files: %d)",
		       name, count_of(cpus, "{cpu=\""), cpu_rows);
		tap_ok(samples_of(cpus) - samples_of(coarse) ==
		       cpu_rows - 7 * rows_of(tee, "all") - 17 * rows_of(netrx, "all"),
		       "%s: --per-cpu: the CPUs' series instead of the all rows' (%d -> %d)",
		       name, samples_of(coarse), samples_of(cpus));
		free(tee);
		free(netrx);
		free(coarse);
		free(fine_out);
		free(cpus);
		snapshot_free(&s);
	}
}

/*
 * widen - @text (a debugfs table) as on a host of @ncpus CPUs: each "all"
 * row after a copy of itself for every CPU, the recorded CPU rows left
 * out (the caller frees it)
 */
static char *widen(const char *text, int ncpus)
{
	char *out = NULL, *copy = strdup(text), *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int c;

	if (!f || !copy)
		abort();
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "all ", 4)) {
			for (c = 0; c < ncpus; c++)
				fprintf(f, "%d %s\n", c, line + 4);
			fprintf(f, "%s\n", line);
		} else if (line[0] == '#') {
			fprintf(f, "%s\n", line);
		}
	}
	fclose(f);
	free(copy);
	return out;
}

/*
 * host_of - the recorded log-linear run as on a host of @ncpus CPUs, every
 * CPU with calls of every TEE command (the most series --per-cpu writes)
 */
static void host_of(struct snapshot *s, int ncpus)
{
	static const char *const kept[] = {
		"version", "generation", "pid_filter", "tee_hist", "tee_probes",
		"tee_threads", "netrx_hist", "tcp_phases", "tcp_hist", "tcp_probes",
	};
	static const char *const widened[] = { "tee_stats", "netrx_stats", "tcp_stats" };
	const char *dir = TEST_DEBUGFS "/6.1-loglin";
	char *text, *wide;
	size_t i;

	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		text = read_fixture(dir, kept[i]);
		fixture_add(s, kept[i], text);
		free(text);
	}
	for (i = 0; i < sizeof(widened) / sizeof(widened[0]); i++) {
		text = read_fixture(dir, widened[i]);
		wide = widen(text, ncpus);
		fixture_add(s, widened[i], wide);
		free(wide);
		free(text);
	}
}

/*
 * test_series_per_host - series = a + b * ncpus: by default b = 0 and a is
 * the families' sum over the files' commands, ports, phases and probes;
 * under 600 at 64 CPUs. With --per-cpu b = 17 + 7 K (NET_RX's 17 columns,
 * the TEE's 7 for each of K commands).
 */
static void test_series_per_host(void)
{
	static const int ncpus[] = { 2, 64, 128 };
	const char *dir = TEST_DEBUGFS "/6.1-loglin";
	char *tee = read_fixture(dir, "tee_stats"), *tcp = read_fixture(dir, "tcp_stats");
	char *phases = read_fixture(dir, "tcp_phases"), *tee_probes = read_fixture(dir, "tee_probes");
	char *tcp_probes = read_fixture(dir, "tcp_probes");
	int k = rows_of(tee, "all"), ports = rows_of(tcp, "all"), pairs = rows_of(phases, NULL);
	int probes = rows_of(tee_probes, NULL) + rows_of(tcp_probes, NULL);
	int hist = PROM_LE_BUCKETS + 2;	/* its buckets, _sum and _count */
	/*
	 * up, build, module, generation, pid filter; TEE untracked and
	 * overflow; NET_RX's 17 counters and its 3 histograms; the TCP
	 * table's 4 and phases lost; per command 7 counters and a histogram;
	 * per port 15 counters; per (port, phase) a histogram and a maximum;
	 * per probe 2
	 */
	int a = 5 + 2 + 17 + 3 * hist + 5 + k * (7 + hist) + 15 * ports +
		pairs * (hist + 1) + 2 * probes;
	int b = 17 + 7 * k;
	size_t i;

	tap_ok(k == 5 && ports == 1 && pairs == 7 && probes == 18,
	       "the run: %d commands, %d port, %d phases, %d probes", k, ports, pairs, probes);
	for (i = 0; i < sizeof(ncpus) / sizeof(ncpus[0]); i++) {
		struct snapshot s = { 0 };
		char *def, *cpus;

		host_of(&s, ncpus[i]);
		def = format(&s, NULL);
		cpus = format(&s, &per_cpu);
		tap_ok(samples_of(def) == a, "%d CPUs: %d series by default, a = %d, b = 0",
		       ncpus[i], samples_of(def), a);
		tap_ok(samples_of(cpus) == a - b + b * ncpus[i],
		       "%d CPUs: %d series with --per-cpu, a - b + b * %d = %d (b = %d)",
		       ncpus[i], samples_of(cpus), ncpus[i], a - b + b * ncpus[i], b);
		if (ncpus[i] == 64)
			tap_ok(samples_of(def) < 600, "64 CPUs: under 600 series by default (%d)",
			       samples_of(def));
		free(def);
		free(cpus);
		snapshot_free(&s);
	}
	free(tee);
	free(tcp);
	free(phases);
	free(tee_probes);
	free(tcp_probes);
}

int main(void)
{
	test_watch();
	test_recorded_loglin();
	test_tcp_phases();
	test_recorded();
	test_down();
	test_edges();
	test_loglin();
	test_coarse_edges();
	test_case_handshakes();
	test_default();
	test_series_per_host();
	return tap_done();
}
