// SPDX-License-Identifier: GPL-2.0
/*
 * stat.c - "teeprobe stat": the chain's rates live, one line per interval,
 * like sar or mpstat, from the module's debugfs counters and /proc (the
 * figures from figures.c, printed by stat_text.c or stat_json.c); or,
 * with --prometheus, the module's counters for node_exporter's textfile
 * collector (prometheus.c formats them).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "delta.h"
#include "figures.h"
#include "module.h"
#include "prometheus.h"
#include "snapshot.h"
#include "stat.h"
#include "hist.h"
#include "teeprobe.h"
#include "utils.h"
#include "watch_state.h"

static volatile sig_atomic_t stop_requested;

/* on_signal - Ctrl-C: finish after the current line */
static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* stat_usage - help for teeprobe stat */
static void stat_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe stat [-I SECONDS] [-c COUNT] [--json] [-h]\n"
		"       teeprobe stat --prometheus [-o FILE] [-I SECONDS] [-c COUNT]\n"
		"                     [--per-cpu] [--fine-buckets] [--debugfs DIR]\n\n"
		"  -I, --interval SEC  seconds between lines (default 1); -i, its\n"
		"                      earlier name, is taken with a warning\n"
		"  -c, --count N       stop after N lines (default: until Ctrl-C)\n"
		"      --json          one JSON object per line\n"
		"      --prometheus    the module's counters in the Prometheus text\n"
		"                      format, once; with -I or -c every interval\n"
		"  -o, --output FILE   with --prometheus: write FILE atomically\n"
		"                      (FILE.tmp.PID, then rename), for\n"
		"                      node_exporter's textfile collector\n"
		"      --per-cpu       with --prometheus: the NET_RX and TEE\n"
		"                      counters of each CPU (a cpu label) instead\n"
		"                      of summed over the CPUs\n"
		"      --fine-buckets  with --prometheus: histograms in the module's\n"
		"                      own buckets (170) instead of 19 (le a power\n"
		"                      of two from 8.192 us to 1.07 s)\n"
		"      --debugfs DIR   with --prometheus: read a saved copy of\n"
		"                      /sys/kernel/debug/teeprobe instead\n\n"
		"Prints, per interval: %%system and %%softirq of all CPUs, NET_RX\n"
		"runs/s against packets/s received by the NICs (without lo),\n"
		"packets per run, the p99 of inline NET_RX raise->entry delays\n"
		"and the share of runs by ksoftirqd, TEE ioctls/s with their\n"
		"blocked share and p99, TCP connections accepted per second,\n"
		"and the p99 of the server's SYN -> SYN/ACK and final ACK ->\n"
		"accept() phases (from the module's TCP histograms).\n\n"
		"--prometheus writes counters (Prometheus takes the rates),\n"
		"gauges and histograms in seconds; teeprobe_up is 0 and the\n"
		"exit status 1 when the module is not loaded. See\n"
		"Documentation/teeprobe-stat.rst for the metrics.\n");
}

/* now_hms - the wall clock's HH:MM:SS, what each line starts with */
static const char *now_hms(void)
{
	static char when[16];
	time_t now = time(NULL);

	strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
	return when;
}

/* prom_down_reason - why the module's files could not be read */
static const char *prom_down_reason(const char *saved_dir)
{
	struct stat st;

	if (saved_dir)
		return "no teeprobe files (no version file) in that directory";
	if (stat("/sys/module/teeprobe", &st) < 0)
		return "the teeprobe module is not loaded";
	return "teeprobe is loaded but its debugfs files are missing (is debugfs mounted at /sys/kernel/debug?)";
}

/* prom_to_stdout - the exposition on stdout; -1 when it cannot be written */
static int prom_to_stdout(const struct snapshot *s, const struct prom_opts *opts)
{
	prom_write(stdout, s, TEEPROBE_VERSION, opts);
	if (fflush(stdout) || ferror(stdout)) {
		err_msg("stat: cannot write the metrics: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * prom_to_file - the exposition into @path, atomically: written whole to
 * @path.tmp.PID in the same directory, then renamed over @path, so
 * node_exporter's textfile collector reads the old file or the new one,
 * never a part (it reads only *.prom files, so never the temporary one).
 */
static int prom_to_file(const char *path, const struct snapshot *s,
			const struct prom_opts *opts)
{
	char *tmp;
	FILE *f;
	int fd, ret = 0;

	if (asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0)
		fatal("out of memory\n");
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0644);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		err_msg("stat: cannot create %s: %s\n", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(tmp);
		return -1;
	}
	prom_write(f, s, TEEPROBE_VERSION, opts);
	if (fflush(f) || ferror(f)) {
		err_msg("stat: cannot write %s: %s\n", tmp, strerror(errno));
		ret = -1;
	}
	if (fclose(f) && !ret) {
		err_msg("stat: cannot write %s: %s\n", tmp, strerror(errno));
		ret = -1;
	}
	if (!ret && rename(tmp, path)) {
		err_msg("stat: cannot rename %s to %s: %s\n", tmp, path,
			strerror(errno));
		ret = -1;
	}
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

/*
 * prom_take_watch - a running watch's status as the "watch" source, and
 * whether it still runs ("running 1")
 */
static void prom_take_watch(struct snapshot *s)
{
	struct watch_status st;
	char *text, *line, *save = NULL;
	bool running;
	int err;

	if (!watch_status_read(&st, &running))
		return;
	text = read_text_file(WATCH_STATE_FILE, 1 << 16, &err);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save))
		snapshot_add_line(s, "watch", line);
	free(text);
	snapshot_add_line(s, "watch", running ? "running 1" : "running 0");
}

/* prom_take - the module's files now, from debugfs or from @saved_dir */
static void prom_take(struct snapshot *s, const char *saved_dir)
{
	char *dir;

	if (saved_dir) {
		snapshot_add_dir(s, saved_dir);
		return;
	}
	dir = teeprobe_debugfs_path("");
	if (dir)
		snapshot_add_dir(s, dir);
	free(dir);
	prom_take_watch(s);
}

/*
 * prom_main - one exposition (with what @opts adds to the default), or
 * one every @interval seconds when @repeat (@count times, 0: until
 * Ctrl-C or SIGTERM). Without the module the exposition says teeprobe_up
 * 0 (the counters go stale in Prometheus instead of staying at their last
 * values) and a message says why; a repeating run goes on, for the module
 * may be loaded again. Returns the exit status: 1 when the last
 * exposition had no module or a write failed (which stops a repeating
 * run).
 */
static int prom_main(const char *output, const char *saved_dir,
		     const struct prom_opts *opts, double interval, long count,
		     bool repeat)
{
	struct timespec next, now;
	int up, last_up = -1, last_unshown = 0;
	const char *unshown;
	long n;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (n = 0; !stop_requested && (repeat ? !count || n < count : n < 1); n++) {
		struct snapshot s = { 0 };
		int ret;

		if (n) {
			/* On a fixed schedule: a slow write does not drift it. */
			next.tv_sec += (time_t)interval;
			next.tv_nsec += (long)((interval - floor(interval)) * 1e9);
			if (next.tv_nsec >= 1000000000L) {
				next.tv_sec++;
				next.tv_nsec -= 1000000000L;
			}
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > next.tv_sec + 1)
				next = now;	/* fell behind: stopped, or a slow write */
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME,
					       &next, NULL) == EINTR &&
			       !stop_requested)
				;
			if (stop_requested)
				break;
		}
		prom_take(&s, saved_dir);
		up = prom_up(&s);
		/*
		 * A file the module could not show (out of memory) would drop
		 * its series from this exposition alone: none is written, the
		 * last one stays, and a repeating run tries again.
		 */
		unshown = up ? prom_unshown(&s) : NULL;
		if (unshown) {
			err_msg("stat: the module could not show %s: no exposition written\n",
				unshown);
			snapshot_free(&s);
			last_unshown = 1;
			continue;
		}
		last_unshown = 0;
		if (!up && last_up != 0)
			err_msg("stat: %s: teeprobe_up 0\n",
				prom_down_reason(saved_dir));
		else if (up && last_up == 0)
			err_msg("stat: the module's files are back: teeprobe_up 1\n");
		ret = output ? prom_to_file(output, &s, opts) : prom_to_stdout(&s, opts);
		snapshot_free(&s);
		if (ret)
			return 1;
		last_up = up;
	}
	return last_up == 0 || last_unshown;
}

/* stat_main - entry point of teeprobe stat */
int stat_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'I' },
		{ "count", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "prometheus", no_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "debugfs", required_argument, NULL, 'D' },
		{ "per-cpu", no_argument, NULL, 'C' },
		{ "fine-buckets", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	struct snapshot snap[2] = { { 0 } };
	double interval = 1;
	long count = 0, n;
	struct stat_line line;
	struct figures f;
	struct timespec ts;
	struct prom_opts prom_opts = { 0 };
	bool json = false, prometheus = false, repeat = false, skipped = false;
	const char *why;
	const char *output = NULL, *saved_dir = NULL;
	char *end;
	int c, cur = 0;

	while ((c = getopt_long(argc, argv, "I:i:c:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			/* -I everywhere else is trace-cmd's and perf's -i, the input */
			err_msg("stat: -i is now -I (--interval); -i as the interval goes in a later release\n");
			/* fall through */
		case 'I':
			if (parse_seconds(optarg, &interval) || interval < 0.1 ||
			    interval > 3600) {
				err_msg("stat: -I '%s': an interval from 0.1 to 3600 seconds\n",
					optarg);
				return 2;
			}
			repeat = true;
			break;
		case 'c':
			errno = 0;
			count = strtol(optarg, &end, 10);
			if (errno || *end || count < 1) {
				err_msg("stat: -c '%s': a positive count\n", optarg);
				return 2;
			}
			repeat = true;
			break;
		case 'j':
			json = true;
			break;
		case 'P':
			prometheus = true;
			break;
		case 'o':
			output = optarg;
			break;
		case 'D':
			saved_dir = optarg;
			break;
		case 'C':
			prom_opts.per_cpu = true;
			break;
		case 'F':
			prom_opts.fine_buckets = true;
			break;
		case 'h':
			stat_usage(stdout);
			return 0;
		default:
			return usage_error("stat", stat_usage);
		}
	}
	if (optind < argc) {
		err_msg("stat: unexpected argument '%s'\n", argv[optind]);
		return usage_error("stat", stat_usage);
	}
	if (!prometheus && (output || saved_dir || prom_opts.per_cpu ||
			    prom_opts.fine_buckets)) {
		err_msg("stat: -o, --debugfs, --per-cpu and --fine-buckets go with --prometheus\n");
		return 2;
	}
	if (prometheus && json) {
		err_msg("stat: --json or --prometheus, not both\n");
		return 2;
	}
	if (output && !*output) {
		err_msg("stat: -o needs a file name\n");
		return 2;
	}
	/* SA_RESTART: no write is cut short; the sleeps still end (never restarted) */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (prometheus) {
		if (!saved_dir && geteuid() != 0) {
			err_msg("teeprobe needs root (debugfs is root-only)\n");
			return 1;
		}
		return prom_main(output, saved_dir, &prom_opts, interval, count,
				 repeat);
	}
	if (teeprobe_require_module())
		return 1;
	snapshot_take(&snap[cur]);
	for (n = 0; !stop_requested && (!count || n < count); n++) {
		ts.tv_sec = (time_t)interval;
		ts.tv_nsec = (long)((interval - floor(interval)) * 1e9);
		while (nanosleep(&ts, &ts) && errno == EINTR && !stop_requested)
			;
		if (stop_requested)
			break;
		snapshot_take(&snap[!cur]);
		line = (struct stat_line){ .time = now_hms() };
		if (derive_same_counters(&snap[cur], &snap[!cur], &why)) {
			figures_compute(&snap[cur], &snap[!cur],
					derive_seconds(&snap[cur], &snap[!cur]), &f);
			line.f = &f;
			line.header = n == 0 || skipped;
			skipped = false;
		} else {
			/* No rate across a reload or a reset: a line says so. */
			line.skipped = why;
			skipped = true;
		}
		if (json)
			stat_json(&line);
		else
			stat_text(&line);
		fflush(stdout);
		snapshot_free(&snap[cur]);
		cur = !cur;
	}
	snapshot_free(&snap[0]);
	snapshot_free(&snap[1]);
	return 0;
}
