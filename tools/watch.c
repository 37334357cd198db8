// SPDX-License-Identifier: GPL-2.0
/*
 * watch.c - "teeprobe watch": an always-on flight recorder.
 *
 * The teeprobe events go into a tracefs instance of the watch's own in
 * overwrite mode (the ring), sized to hold the last --ring seconds; nobody
 * reads it until a breach, so the events cost what the module's own
 * tracepoints cost and no reader wakes up for them. A second, small
 * instance gets the module's per-CPU window events only
 * (teeprobe_tcp_window, teeprobe_netrx_window), which the watch reads every
 * window and judges against the user's thresholds (watch_rule.c); the TEE
 * calls' blocked share comes from tee_stats, read once a window.
 *
 * On a breach (a run of --windows windows over a threshold) and after
 * --after seconds more, the ring is stopped and written as a trace.dat the
 * way "teeprobe record" writes one (record.c: trace-cmd, the host's
 * counters as snapshot markers at both ends, read back and verified): the
 * start snapshot is one the watch took when the ring was already whole on
 * every CPU, the end one is taken then; both go into a third instance
 * (markers only), which the file lists before the ring, and the session's
 * reader leaves out the ring's events from before the start snapshot
 * (session.c), so that counters and events cover the same time. The
 * capture is analysed (analyze.c) and one line says the breach, the file
 * and the verdict. Then the ring starts again.
 *
 * One watch per host and none beside a recording session (lock.c); what a
 * killed watch leaves, the sweep of the next session or of "teeprobe
 * check" cleans up (its instances by their names, its settings from the
 * lock file, its status and a half-written capture from the status file).
 *
 * Here: the command line, the windows judged, the snapshots kept, the
 * loop; the instances are watch_ring.c's, a capture watch_capture.c's, the
 * decisions lib/watch_rule.c's (pure), the status lib/watch_state.c's.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "lock.h"
#include "module.h"
#include "table.h"
#include "teeprobe.h"
#include "utils.h"
#include "watch.h"

#define DEFAULT_DIR		"/var/lib/teeprobe/watch"

volatile sig_atomic_t watch_stop;

/* on_signal - SIGTERM or Ctrl-C: end cleanly */
static void on_signal(int sig)
{
	(void)sig;
	watch_stop = 1;
}

/* watch_usage - help for teeprobe watch */
static void watch_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe watch [--handshake-p99 TIME] [--netrx-p99 TIME]\n"
		"                      [--tee-blocked SHARE] [--windows N] [-w MS]\n"
		"                      [--ring SEC] [--ring-max MIB] [--after SEC]\n"
		"                      [--cooldown SEC] [--keep N] [-o DIR] [-p PID]...\n"
		"                      [--states] [--target-us US] [-d SEC] [-h]\n\n"
		"An always-on flight recorder: keeps the last --ring seconds of the\n"
		"teeprobe events in a ring buffer, judges every window of the module\n"
		"against the thresholds, and on a breach writes the ring as a\n"
		"trace.dat (as 'teeprobe record' writes one), analyses it, and logs\n"
		"one line with the verdict and the file. At least one threshold:\n\n"
		"      --handshake-p99 TIME  SYN -> SYN/ACK or ACK -> accept() p99 of\n"
		"                            the server's handshakes (10ms, 500us)\n"
		"      --netrx-p99 TIME      NET_RX raise -> entry delay p99\n"
		"      --tee-blocked SHARE   the TEE calls' time spent asleep (0.9, 90%%),\n"
		"                            in windows of %d calls or more\n"
		"      --windows N           a breach is N windows over in a row\n"
		"                            (default 3; windows with nothing measured\n"
		"                            are skipped)\n"
		"  -w, --window MS           the module's window length while the\n"
		"                            watch runs (10..60000; default 1000)\n"
		"      --ring SEC            time the ring holds (default 30)\n"
		"      --ring-max MIB        its largest size, all CPUs (default 256)\n"
		"      --after SEC           keep recording this long after a breach\n"
		"                            (default 10)\n"
		"      --cooldown SEC        at most one capture per SEC (default 600)\n"
		"      --keep N              keep the last N captures (default 10)\n"
		"  -o, --output DIR          where captures go (default %s)\n"
		"  -p, --pid PID             only the TEE calls of process PID\n"
		"      --states              also the accepting threads' scheduler\n"
		"                            states (a hook on every context switch:\n"
		"                            the verdict tells waits for a CPU apart)\n"
		"      --target-us US        the verdict's target (see analyze)\n"
		"  -d, --duration SEC        stop after SEC (default: until SIGTERM)\n\n"
		"Times take a unit (ns, us, ms, s); SEC a number with s, m or h.\n"
		"One watch per host, and no 'teeprobe record' beside it.\n",
		MIN_TEE_CALLS, DEFAULT_DIR);
}

/* now_ns - CLOCK_MONOTONIC, the module's window clock */
double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* wall_s - the time of day, as Unix time */
double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * journal_stderr - whether stderr is systemd's journal ($JOURNAL_STREAM
 * names its device and inode): lines then carry their priority
 */
static bool journal_stderr(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	return js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 &&
	       !fstat(STDERR_FILENO, &st) && st.st_dev == dev && st.st_ino == ino;
}

/*
 * say - one line of the watch's log on stderr; into the journal with
 * @prio (syslog's: 3 error, 4 warning, 6 info) as its priority
 */
void say(const struct watch *w, int prio, const char *fmt, ...)
{
	va_list ap;

	if (w->journal)
		fprintf(stderr, "<%d>", prio);
	fprintf(stderr, "teeprobe: watch: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

/* ---- options ------------------------------------------------------------ */

enum {
	OPT_HANDSHAKE = 256, OPT_NETRX, OPT_TEE, OPT_WINDOWS, OPT_RING,
	OPT_RING_MAX, OPT_AFTER, OPT_COOLDOWN, OPT_KEEP, OPT_TARGET, OPT_STATES,
};

/* seconds_opt - a --ring/--after/--cooldown/-d value into *@v */
static int seconds_opt(const char *opt, const char *arg, double *v, bool zero_ok)
{
	if (zero_ok && !strcmp(arg, "0")) {
		*v = 0;
		return 0;
	}
	if (parse_seconds(arg, v)) {
		err_msg("watch: %s '%s': give a duration (30, 30s, 2m)\n", opt, arg);
		return 2;
	}
	return 0;
}

/* count_opt - a --windows/--keep/--ring-max value from @lo to @hi */
static int count_opt(const char *opt, const char *arg, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || *v < lo || *v > hi) {
		err_msg("watch: %s '%s': a number from %ld to %ld\n", opt, arg, lo, hi);
		return 2;
	}
	return 0;
}

/* threshold_opt - one of the threshold options */
static int threshold_opt(struct watch_opts *o, enum watch_measure m,
			 const char *opt, const char *arg)
{
	if (watch_parse_threshold(m, arg, &o->rule.threshold[m])) {
		err_msg(watch_measure_is_time(m) ?
			"watch: %s '%s': a time with its unit (10ms, 500us, 1.5s)\n" :
			"watch: %s '%s': a share above 0 and below 1 (0.9, or 90%%)\n",
			opt, arg);
		return 2;
	}
	o->rule.set[m] = true;
	return 0;
}

/* parse_opts - the command line into @o; 0, or the exit status */
static int parse_opts(int argc, char **argv, struct watch_opts *o)
{
	static const struct option opts[] = {
		{ "handshake-p99", required_argument, NULL, OPT_HANDSHAKE },
		{ "netrx-p99", required_argument, NULL, OPT_NETRX },
		{ "tee-blocked", required_argument, NULL, OPT_TEE },
		{ "windows", required_argument, NULL, OPT_WINDOWS },
		{ "window", required_argument, NULL, 'w' },
		{ "ring", required_argument, NULL, OPT_RING },
		{ "ring-max", required_argument, NULL, OPT_RING_MAX },
		{ "after", required_argument, NULL, OPT_AFTER },
		{ "cooldown", required_argument, NULL, OPT_COOLDOWN },
		{ "keep", required_argument, NULL, OPT_KEEP },
		{ "output", required_argument, NULL, 'o' },
		{ "pid", required_argument, NULL, 'p' },
		{ "target-us", required_argument, NULL, OPT_TARGET },
		{ "states", no_argument, NULL, OPT_STATES },
		{ "duration", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	long v;
	char *end;
	double t;
	int c, m, ret = 0;

	while (!ret && (c = getopt_long(argc, argv, "w:o:p:d:h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_HANDSHAKE:
			ret = threshold_opt(o, WATCH_HANDSHAKE_P99, "--handshake-p99", optarg);
			break;
		case OPT_NETRX:
			ret = threshold_opt(o, WATCH_NETRX_P99, "--netrx-p99", optarg);
			break;
		case OPT_TEE:
			ret = threshold_opt(o, WATCH_TEE_BLOCKED, "--tee-blocked", optarg);
			break;
		case OPT_WINDOWS:
			ret = count_opt("--windows", optarg, 1, 100, &v);
			o->rule.run_windows = v;
			break;
		case 'w':
		case 'p':
			ret = record_option(&o->rec, c, optarg);
			break;
		case OPT_RING:
			ret = seconds_opt("--ring", optarg, &o->ring_s, false);
			break;
		case OPT_RING_MAX:
			ret = count_opt("--ring-max", optarg, 1, 1 << 20, &v);
			o->ring_max_kb = v * 1024UL;
			break;
		case OPT_AFTER:
			ret = seconds_opt("--after", optarg, &o->after_s, true);
			break;
		case OPT_COOLDOWN:
			ret = seconds_opt("--cooldown", optarg, &o->cooldown_s, true);
			break;
		case OPT_KEEP:
			ret = count_opt("--keep", optarg, 1, 100000, &v);
			o->keep = v;
			break;
		case 'o':
			o->dir = optarg;
			break;
		case OPT_TARGET:
			t = strtod(optarg, &end);
			if (end == optarg || *end || !(t > 0) || t > 1e9) {
				err_msg("watch: --target-us: not a time in us: '%s'\n", optarg);
				ret = 2;
			}
			o->verdict.target_ns = t * 1e3;
			break;
		case 'd':
			ret = seconds_opt("-d", optarg, &o->duration_s, false);
			break;
		case OPT_STATES:
			o->states = true;
			break;
		case 'h':
			watch_usage(stdout);
			return -1;
		default:
			return usage_error("watch", watch_usage);
		}
	}
	if (ret)
		return ret;
	if (optind < argc) {
		err_msg("watch: unexpected argument '%s'\n", argv[optind]);
		return usage_error("watch", watch_usage);
	}
	for (m = 0; m < NR_WATCH_MEASURES && !o->rule.set[m]; m++)
		;
	if (m == NR_WATCH_MEASURES) {
		err_msg("watch: give a threshold: --handshake-p99, --netrx-p99 or --tee-blocked\n");
		return 2;
	}
	if (o->after_s >= o->ring_s) {
		err_msg("watch: --after %g s is not shorter than --ring %g s: the ring would no longer hold the breach\n",
			o->after_s, o->ring_s);
		return 2;
	}
	if (!*o->dir || strchr(o->dir, '\n') || strlen(o->dir) > 3000) {
		err_msg("watch: -o '%s': give a directory (no newline in it)\n", o->dir);
		return 2;
	}
	return 0;
}

/* ---- the windows ------------------------------------------------------------ */

/* field - numeric field @name of @record, 0 when absent */
static unsigned long long field(struct tep_event *event, struct tep_record *record,
				const char *name)
{
	unsigned long long v = 0;

	if (tep_get_field_val(NULL, event, name, record, &v, 0))
		return 0;
	return v;
}

/* on_window_event - one window event of the window instance */
static int on_window_event(struct tep_event *event, struct tep_record *record,
			   int cpu, void *arg)
{
	struct watch *w = arg;

	(void)cpu;
	if (event->id == w->r.tcp_id) {
		struct watch_tcp_event e = {
			.cpu = field(event, record, "cpu"),
			.start_ns = field(event, record, "start_ns"),
			.len_ns = field(event, record, "len_ns"),
			.syn_synack_count = field(event, record, "syn_synack_count"),
			.syn_synack_p99_ns = field(event, record, "syn_synack_p99_ns"),
			.ack_accept_count = field(event, record, "ack_accept_count"),
			.ack_accept_p99_ns = field(event, record, "ack_accept_p99_ns"),
		};

		watch_windows_add_tcp(&w->ws, &e);
	} else if (event->id == w->r.netrx_id) {
		struct watch_netrx_event e = {
			.cpu = field(event, record, "cpu"),
			.start_ns = field(event, record, "start_ns"),
			.len_ns = field(event, record, "len_ns"),
			.inline_count = field(event, record, "inline_delay_count"),
			.inline_p99_ns = field(event, record, "inline_delay_p99_ns"),
			.ksoftirqd_count = field(event, record, "ksoftirqd_delay_count"),
			.ksoftirqd_p99_ns = field(event, record, "ksoftirqd_delay_p99_ns"),
		};

		watch_windows_add_netrx(&w->ws, &e);
	}
	return 0;
}

/*
 * tee_interval - the TEE calls' blocked share since the last reading of
 * tee_stats (its "all" rows), and their number; false at the first
 * reading, across a reset, or when the file cannot be read
 */
static bool tee_interval(struct watch *w, double *share, double *calls)
{
	char *path = teeprobe_debugfs_path("tee_stats"), *text, why[128];
	double total = 0, off = 0, n = 0, dt, doff, dn;
	struct modstats m = { 0 };
	int r, c_total, c_off, c_calls, err;
	bool ok = false;

	text = path ? read_text_file(path, 1 << 20, &err) : NULL;
	free(path);
	if (!text || modstats_parse(&m, "tee_stats", text, why, sizeof(why))) {
		free(text);
		w->tee_read = false;
		return false;
	}
	c_total = modstats_col(&m, "total_ns");
	c_off = modstats_col(&m, "offcpu_ns");
	c_calls = modstats_col(&m, "calls");
	for (r = 0; c_total >= 0 && c_off >= 0 && c_calls >= 0 && r < m.nrows; r++) {
		if (strcmp(m.rows[r].field[0], "all"))
			continue;
		total += modstats_num(&m, r, c_total);
		off += modstats_num(&m, r, c_off);
		n += modstats_num(&m, r, c_calls);
	}
	modstats_free(&m);
	free(text);
	dt = total - w->tee_total_ns;
	doff = off - w->tee_off_ns;
	dn = n - w->tee_calls;
	/* a reset in between: counters below the last reading */
	if (w->tee_read && dt >= 0 && doff >= 0 && dn >= 0) {
		*share = dt > 0 ? doff / dt : NAN;
		*calls = dn;
		ok = true;
	}
	w->tee_total_ns = total;
	w->tee_off_ns = off;
	w->tee_calls = n;
	w->tee_read = true;
	return ok;
}

/* window_len_ns - the module's window length now */
static double window_len_ns(const struct watch_opts *o)
{
	return o->rec.window_ms * 1e6;
}

/* state_name - a window's state for a measure, for --debug */
static const char *state_name(enum watch_state s)
{
	static const char *const names[] = {
		[WATCH_EMPTY] = "-", [WATCH_UNDER] = "under",
		[WATCH_OVER] = "over", [WATCH_BREACH] = "breach",
	};

	return names[s];
}

/*
 * judge_due - every window that is due: its verdict per measure, the
 * status, and a capture started on a breach the cooldown lets through
 */
static void judge_due(struct watch *w, double now)
{
	const struct watch_opts *o = w->o;
	enum watch_state state[NR_WATCH_MEASURES];
	/*
	 * A window is judged a whole window after its end: a CPU whose
	 * NET_RX is held off (the very thing watched) emits its window
	 * events late, and an event for a judged window is left out
	 */
	double len = window_len_ns(o), grace = len;
	struct watch_window win;
	int worst, m;

	while (watch_windows_next_due(&w->ws, now, grace, &win)) {
		unsigned long long before[NR_WATCH_MEASURES];

		for (m = 0; m < NR_WATCH_MEASURES; m++)
			before[m] = w->judge.breaches[m];
		worst = watch_judge_window(&w->judge, &o->rule, &win, state);
		if (config_debug) {
			char v[NR_WATCH_MEASURES][32];

			for (m = 0; m < NR_WATCH_MEASURES; m++)
				watch_value_str(m, win.value[m], v[m], sizeof(v[m]));
			debug_msg("watch: window %.3f s: %g handshakes, handshake p99 %s (%s), NET_RX p99 %s (%s), TEE blocked %s of %g calls (%s)\n",
				  win.start_ns / 1e9, win.handshakes,
				  v[0], state_name(state[0]), v[1], state_name(state[1]),
				  v[2], win.tee_calls, state_name(state[2]));
		}
		for (m = 0; m < NR_WATCH_MEASURES; m++) {
			w->st.value[m] = w->judge.last_value[m];
			w->st.over[m] = w->judge.over[m];
			w->st.breaches[m] = w->judge.breaches[m];
			if (w->judge.breaches[m] != before[m]) {
				w->st.last_breach = wall_s() - (now - win.start_ns - win.len_ns) / 1e9;
				w->status_due = true;
			}
		}
		w->st.windows = w->judge.windows;
		if (worst < 0 || w->cap.on || w->part[0])
			continue;
		if (watch_cooldown_over(&w->judge, now, o->cooldown_s * 1e9)) {
			capture_start(w, worst, now);
			continue;
		}
		/* a new breach the cooldown holds back: said once a cooldown */
		if (w->judge.breaches[worst] != before[worst]) {
			w->st.skipped_cooldown++;
			if (now - w->cooldown_said_ns >= o->cooldown_s * 1e9) {
				char v[32], t[32];

				say(w, 4, "%s %s over %s: no capture, %.0f s of the cooldown left\n",
				    watch_measure_name(worst),
				    watch_value_str(worst, w->judge.last_value[worst], v, sizeof(v)),
				    watch_value_str(worst, o->rule.threshold[worst], t, sizeof(t)),
				    (w->judge.last_capture_ns + o->cooldown_s * 1e9 - now) / 1e9);
				w->cooldown_said_ns = now;
			}
		}
	}
	/* the windows without events are over too */
	watch_windows_close_until(&w->ws, now, grace, len);
	w->st.judged_until_ns = w->ws.judged_until_ns;
}

/*
 * poll_windows - the window events since the last poll, the TEE share of
 * the interval (given to the window that ends now), and every window due
 */
void poll_windows(struct watch *w)
{
	const struct watch_opts *o = w->o;
	double now = now_ns(), len = window_len_ns(o), share, calls;
	unsigned long long start;
	struct watch_window *win;

	tracefs_iterate_raw_events(w->r.tep, w->r.win, NULL, 0, on_window_event, w);
	w->st.late_events = w->ws.late + w->ws.overflow;
	if (o->rule.set[WATCH_TEE_BLOCKED] && tee_interval(w, &share, &calls)) {
		/*
		 * The interval since the last poll (half a window after the
		 * last boundary) lies half in the window that ended then:
		 * that window gets it, made if it had no events
		 */
		start = (unsigned long long)(now / len) * (unsigned long long)len;
		start -= (unsigned long long)len;
		win = watch_windows_get(&w->ws, start, len);
		if (win) {
			win->value[WATCH_TEE_BLOCKED] = share;
			win->tee_calls = calls;
		}
	}
	judge_due(w, now);
}

/* ---- snapshots ---------------------------------------------------------------- */

/* snaps_clear - every snapshot forgotten (the ring restarted) */
void snaps_clear(struct watch *w)
{
	int i;

	for (i = 0; i < w->nsnaps; i++)
		snapshot_free(&w->snaps[i]);
	w->nsnaps = 0;
}

/*
 * snap_take - a snapshot of the counters now, kept for a capture's start;
 * the oldest goes when there are MAX_SNAPS
 */
void snap_take(struct watch *w)
{
	double t0;

	if (w->nsnaps == MAX_SNAPS) {
		snapshot_free(&w->snaps[0]);
		memmove(&w->snaps[0], &w->snaps[1], (MAX_SNAPS - 1) * sizeof(w->snaps[0]));
		memset(&w->snaps[MAX_SNAPS - 1], 0, sizeof(w->snaps[0]));
		w->nsnaps--;
	}
	t0 = now_ns();
	snapshot_take(&w->snaps[w->nsnaps++]);
	w->last_snap_ns = now_ns();
	debug_msg("watch: a snapshot of the counters: %.1f ms\n", (w->last_snap_ns - t0) / 1e6);
}

/* snap_every_ns - how often: four a ring, at least a second apart */
static double snap_every_ns(const struct watch_opts *o)
{
	return fmax(o->ring_s / 4, 1) * 1e9;
}

/* ---- the watch ------------------------------------------------------------------ */

/* next_wake_ns - the next poll: half a window after a window's end */
static double next_wake_ns(const struct watch *w, double now)
{
	double len = window_len_ns(w->o), next;

	next = (floor((now - len / 2) / len) + 1) * len + len / 2;
	if (w->cap.on && w->cap.at_ns < next)
		next = w->cap.at_ns;
	if (w->last_snap_ns + snap_every_ns(w->o) < next)
		next = w->last_snap_ns + snap_every_ns(w->o);
	return next;
}

/* run - watch until stopped or @until_ns (0: never) */
static void run(struct watch *w, double until_ns)
{
	double now, next;
	struct timespec ts;

	while (!watch_stop) {
		now = now_ns();
		if (until_ns && now >= until_ns)
			break;
		next = next_wake_ns(w, now);
		if (until_ns && next > until_ns)
			next = until_ns;
		if (next > now) {
			ts.tv_sec = (time_t)((next - now) / 1e9);
			ts.tv_nsec = (long)fmod(next - now, 1e9);
			nanosleep(&ts, NULL);	/* a signal ends it early */
			continue;
		}
		poll_windows(w);
		now = now_ns();
		if (w->cap.on && now >= w->cap.at_ns)
			capture(w);
		/*
		 * A snapshot is some thousands of lines read: only while the
		 * ring overwrites events does the capture's start move on
		 * and need a newer one (else the ring's first holds)
		 */
		if (now - w->last_snap_ns >= snap_every_ns(w->o)) {
			if (ring_wrapped(&w->r))
				snap_take(w);
			else
				w->last_snap_ns = now;
		}
		if (now - w->last_sizing_ns >= 5e9)
			ring_size(w);
		/* for Prometheus's scrapes, seconds apart; breaches at once */
		if (w->status_due || now - w->last_status_ns >= 5e9) {
			watch_status_write(&w->st);
			w->last_status_ns = now;
			w->status_due = false;
		}
	}
}

/* status_init - what the status file says from the start */
static void status_init(struct watch *w)
{
	const struct watch_opts *o = w->o;
	struct watch_status *st = &w->st;
	int m;

	watch_status_init(st);
	st->pid = getpid();
	st->started = wall_s();
	snprintf(st->dir, sizeof(st->dir), "%s", o->dir);
	st->window_ms = o->rec.window_ms;
	st->run_windows = o->rule.run_windows;
	st->ring_s = o->ring_s;
	st->after_s = o->after_s;
	st->cooldown_s = o->cooldown_s;
	st->keep = o->keep;
	st->ring_kb = w->r.ring_kb;
	for (m = 0; m < NR_WATCH_MEASURES; m++) {
		st->set[m] = o->rule.set[m];
		st->threshold[m] = o->rule.threshold[m];
	}
}

/* dir_ready - the captures' directory, made if need be, writable, with room */
static int dir_ready(const char *dir)
{
	char opt[4200];
	struct stat st;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		err_msg("watch: -o %s: cannot create it: %s\n", dir, strerror(errno));
		return -1;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		err_msg("watch: -o %s: not a directory\n", dir);
		return -1;
	}
	snprintf(opt, sizeof(opt), "-o %s", dir);
	return record_dir_usable(opt, dir);
}

/* watch_main - entry point of teeprobe watch */
int watch_main(int argc, char **argv)
{
	struct watch_opts o = {
		.rule = { .run_windows = 3, .min_tee_calls = MIN_TEE_CALLS },
		.rec = { .window_ms = 1000, .quiet = true },
		.ring_s = 30, .after_s = 10, .cooldown_s = 600,
		.ring_max_kb = 256 * 1024, .keep = 10, .dir = DEFAULT_DIR,
	};
	struct sigaction sa = { .sa_handler = on_signal };
	struct module_config saved = { 0 };
	struct session_lock lock = { .fd = -1 };
	struct watch *w;
	int ret, pin;

	verdict_default_opts(&o.verdict);
	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (teeprobe_require_module() || dir_ready(o.dir))
		return 1;
	if (session_lock_take(&lock, "watch"))
		return 1;
	module_config_read(&saved);
	if (session_lock_note(&lock, o.dir, &saved)) {
		session_lock_release(&lock);
		module_config_free(&saved);
		return 1;
	}
	pin = module_pin();
	if (pin < 0) {
		session_lock_release(&lock);
		module_config_free(&saved);
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	w = xzalloc(sizeof(*w));
	w->o = &o;
	w->journal = journal_stderr();
	watch_windows_init(&w->ws);
	watch_judge_init(&w->judge);
	ret = record_config_apply(&o.rec) || rings_up(&w->r, &o) ? 1 : 0;
	if (!ret) {
		status_init(w);
		snap_take(w);
		w->last_sizing_ns = now_ns();
		if (watch_status_write(&w->st))
			say(w, 4, "cannot write %s: %s (stat --prometheus will not see the watch)\n",
			    WATCH_STATE_FILE, strerror(errno));
		say(w, 6, "watching: %d windows in a row over a threshold of %u ms windows; ring %g s, capture %g s after a breach into %s, at most one per %g s, the last %d kept\n",
		    o.rule.run_windows, o.rec.window_ms, o.ring_s, o.after_s, o.dir,
		    o.cooldown_s, o.keep);
		run(w, o.duration_s > 0 ? now_ns() + o.duration_s * 1e9 : 0);
		if (w->cap.on && watch_stop)
			say(w, 4, "stopped with a capture pending: not written\n");
	}
	part_gone(w);
	rings_down(&w->r);
	snaps_clear(w);
	module_config_put_back(&saved);
	unlink(WATCH_STATE_FILE);
	close(pin);
	session_lock_release(&lock);
	module_config_free(&saved);
	if (!ret)
		say(w, 6, "stopped: %llu windows, %llu captures\n", w->st.windows,
		    w->st.captures);
	free(w);
	return ret;
}
