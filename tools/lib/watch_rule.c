// SPDX-License-Identifier: GPL-2.0
/*
 * watch_rule.c - the decisions of "teeprobe watch" (see watch_rule.h).
 *
 * A window's figure is the largest of its CPUs' (their p99s do not add up
 * to the host's; the largest is an upper bound of it, so that a threshold
 * met by every CPU is met by the host). A breach is a run of windows over
 * the threshold: one window (a stall that one handshake or one softirq
 * run went through) never fires. A window that measured nothing (no
 * handshake finished: the server idle, or stopped) neither counts nor
 * breaks a run.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils.h"	/* ARRAY_SIZE */
#include "watch_rule.h"

static const char *const keys[NR_WATCH_MEASURES] = {
	[WATCH_HANDSHAKE_P99] = "handshake_p99",
	[WATCH_NETRX_P99] = "netrx_p99",
	[WATCH_TEE_BLOCKED] = "tee_blocked",
};

static const char *const names[NR_WATCH_MEASURES] = {
	[WATCH_HANDSHAKE_P99] = "handshake p99",
	[WATCH_NETRX_P99] = "NET_RX delay p99",
	[WATCH_TEE_BLOCKED] = "TEE blocked share",
};

/* watch_measure_key - the measure's name in files and Prometheus labels */
const char *watch_measure_key(enum watch_measure m)
{
	return m < NR_WATCH_MEASURES ? keys[m] : "?";
}

/* watch_measure_name - the measure's name for people */
const char *watch_measure_name(enum watch_measure m)
{
	return m < NR_WATCH_MEASURES ? names[m] : "?";
}

/* watch_measure_of - the measure keyed @key, or -1 */
int watch_measure_of(const char *key)
{
	int m;

	for (m = 0; m < NR_WATCH_MEASURES; m++)
		if (!strcmp(key, keys[m]))
			return m;
	return -1;
}

/* watch_measure_is_time - whether the measure is a time (else a share) */
bool watch_measure_is_time(enum watch_measure m)
{
	return m != WATCH_TEE_BLOCKED;
}

/*
 * watch_parse_duration_ns - "10ms", "500us", "1.5s", "250000ns" into
 * nanoseconds; the unit is required (a bare number is ambiguous). 0 on
 * success, -EINVAL otherwise (zero, negative, beyond an hour).
 */
int watch_parse_duration_ns(const char *arg, double *ns)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };
	double v;
	char *end;
	size_t i;

	if (!arg || !*arg || isspace((unsigned char)*arg))
		return -EINVAL;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || !isfinite(v))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].scale;
		if (!(v >= 1) || v > 3600e9)
			return -EINVAL;
		*ns = v;
		return 0;
	}
	return -EINVAL;
}

/*
 * watch_parse_threshold - a threshold for @m: a duration for a time, a
 * share for a share ("0.5" or "50%", above 0 and below 1: a share of 1 is
 * never exceeded). 0 on success, -EINVAL otherwise.
 */
int watch_parse_threshold(enum watch_measure m, const char *arg, double *value)
{
	double v;
	char *end;

	if (m >= NR_WATCH_MEASURES)
		return -EINVAL;
	if (watch_measure_is_time(m))
		return watch_parse_duration_ns(arg, value);
	if (!arg || !*arg || isspace((unsigned char)*arg))
		return -EINVAL;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || !isfinite(v))
		return -EINVAL;
	if (!strcmp(end, "%"))
		v /= 100;
	else if (*end)
		return -EINVAL;
	if (!(v > 0) || !(v < 1))
		return -EINVAL;
	*value = v;
	return 0;
}

/* watch_value_str - @value of @m for people ("12.3 ms", "87 %") in @buf */
const char *watch_value_str(enum watch_measure m, double value, char *buf,
			    size_t len)
{
	if (isnan(value))
		snprintf(buf, len, "-");
	else if (!watch_measure_is_time(m))
		snprintf(buf, len, "%.0f %%", value * 100);
	else if (value >= 1e9)
		snprintf(buf, len, "%.2f s", value / 1e9);
	else if (value >= 1e6)
		snprintf(buf, len, "%.1f ms", value / 1e6);
	else
		snprintf(buf, len, "%.0f us", value / 1e3);
	return buf;
}

/* watch_windows_init - no window open, none judged */
void watch_windows_init(struct watch_windows *ws)
{
	memset(ws, 0, sizeof(*ws));
}

/* window_init - an empty window at @start_ns */
static void window_init(struct watch_window *w, unsigned long long start_ns,
			unsigned long long len_ns)
{
	int m;

	memset(w, 0, sizeof(*w));
	w->start_ns = start_ns;
	w->len_ns = len_ns;
	for (m = 0; m < NR_WATCH_MEASURES; m++)
		w->value[m] = NAN;
}

/*
 * window_of - the open window starting at @start_ns, opened if need be;
 * NULL for a window already judged (a late event) or no room left
 */
static struct watch_window *window_of(struct watch_windows *ws,
				      unsigned long long start_ns,
				      unsigned long long len_ns)
{
	struct watch_window *w = watch_windows_get(ws, start_ns, len_ns);

	if (!w) {
		if (start_ns < ws->judged_until_ns)
			ws->late++;
		else
			ws->overflow++;
	}
	return w;
}

/*
 * watch_windows_get - the open window starting at @start_ns, opened if
 * need be (a figure that comes from elsewhere than the window events, the
 * TEE share); NULL for a window already judged, or no room left
 */
struct watch_window *watch_windows_get(struct watch_windows *ws,
				       unsigned long long start_ns,
				       unsigned long long len_ns)
{
	struct watch_window *w;
	int i;

	if (!len_ns || start_ns < ws->judged_until_ns)
		return NULL;
	for (i = 0; i < ws->nr_open; i++)
		if (ws->open[i].start_ns == start_ns)
			return &ws->open[i];
	if (ws->nr_open == WATCH_OPEN_WINDOWS)
		return NULL;
	w = &ws->open[ws->nr_open++];
	window_init(w, start_ns, len_ns);
	return w;
}

/* max_value - @w's figure @m raised to @v (NAN: not yet measured) */
static void max_value(struct watch_window *w, enum watch_measure m, double v)
{
	if (isnan(w->value[m]) || v > w->value[m])
		w->value[m] = v;
}

/* watch_windows_add_tcp - one CPU's teeprobe_tcp_window event */
void watch_windows_add_tcp(struct watch_windows *ws, const struct watch_tcp_event *e)
{
	struct watch_window *w = window_of(ws, e->start_ns, e->len_ns);

	if (!w)
		return;
	w->cpus++;
	/* every timed server handshake has both phases */
	w->handshakes += e->ack_accept_count;
	if (e->syn_synack_count)
		max_value(w, WATCH_HANDSHAKE_P99, e->syn_synack_p99_ns);
	if (e->ack_accept_count)
		max_value(w, WATCH_HANDSHAKE_P99, e->ack_accept_p99_ns);
}

/* watch_windows_add_netrx - one CPU's teeprobe_netrx_window event */
void watch_windows_add_netrx(struct watch_windows *ws,
			     const struct watch_netrx_event *e)
{
	struct watch_window *w = window_of(ws, e->start_ns, e->len_ns);

	if (!w)
		return;
	w->cpus++;
	w->netrx_waits += e->inline_count + e->ksoftirqd_count;
	if (e->inline_count)
		max_value(w, WATCH_NETRX_P99, e->inline_p99_ns);
	if (e->ksoftirqd_count)
		max_value(w, WATCH_NETRX_P99, e->ksoftirqd_p99_ns);
}

/*
 * watch_windows_next_due - the oldest open window that ended @grace_ns or
 * more before @now_ns, into *@out and out of the open ones; false when none
 * is due. Windows are handed out in order of their start.
 */
bool watch_windows_next_due(struct watch_windows *ws, unsigned long long now_ns,
			    unsigned long long grace_ns, struct watch_window *out)
{
	int i, oldest = -1;

	for (i = 0; i < ws->nr_open; i++)
		if (oldest < 0 || ws->open[i].start_ns < ws->open[oldest].start_ns)
			oldest = i;
	if (oldest < 0 ||
	    ws->open[oldest].start_ns + ws->open[oldest].len_ns + grace_ns > now_ns)
		return false;
	*out = ws->open[oldest];
	ws->open[oldest] = ws->open[--ws->nr_open];
	ws->judged_until_ns = out->start_ns + out->len_ns;
	return true;
}

/*
 * watch_windows_close_until - every window of @len_ns that ended @grace_ns
 * or more before @now_ns is closed, with or without events (call it once
 * the due ones are judged): a late event for one is left out
 */
void watch_windows_close_until(struct watch_windows *ws, unsigned long long now_ns,
			       unsigned long long grace_ns, unsigned long long len_ns)
{
	unsigned long long until;

	if (!len_ns || now_ns < grace_ns)
		return;
	until = (now_ns - grace_ns) / len_ns * len_ns;
	if (until > ws->judged_until_ns)
		ws->judged_until_ns = until;
}

/* watch_judge_init - no run, no breach, no capture yet */
void watch_judge_init(struct watch_judge *j)
{
	int m;

	memset(j, 0, sizeof(*j));
	for (m = 0; m < NR_WATCH_MEASURES; m++)
		j->last_value[m] = NAN;
}

/*
 * watch_judge_window - judge window @w against rule @r: each measure's
 * state into @state (EMPTY for a measure without a threshold). Returns the
 * measure in breach whose run is the longest over its threshold, or -1
 * when none is: the caller starts a capture if the cooldown allows.
 */
int watch_judge_window(struct watch_judge *j, const struct watch_rule *r,
		       const struct watch_window *w,
		       enum watch_state state[NR_WATCH_MEASURES])
{
	int m, worst = -1, need = r->run_windows > 0 ? r->run_windows : 1;
	double v;

	j->windows++;
	for (m = 0; m < NR_WATCH_MEASURES; m++) {
		state[m] = WATCH_EMPTY;
		v = w->value[m];
		if (m == WATCH_TEE_BLOCKED && w->tee_calls < r->min_tee_calls)
			v = NAN;
		if (!r->set[m] || isnan(v))
			continue;
		j->last_value[m] = v;
		if (v <= r->threshold[m]) {
			j->run[m] = 0;
			state[m] = WATCH_UNDER;
			continue;
		}
		j->over[m]++;
		if (!j->run[m]++)
			j->run_start_ns[m] = w->start_ns;
		if (j->run[m] < need) {
			state[m] = WATCH_OVER;
			continue;
		}
		state[m] = WATCH_BREACH;
		if (j->run[m] == need)
			j->breaches[m]++;
		if (worst < 0 || j->run[m] > j->run[worst])
			worst = m;
	}
	return worst;
}

/* watch_cooldown_over - whether a capture may start at @now_ns */
bool watch_cooldown_over(const struct watch_judge *j, double now_ns,
			 double cooldown_ns)
{
	return !j->captured || now_ns - j->last_capture_ns >= cooldown_ns;
}

/* watch_judge_captured - a capture started at @now_ns */
void watch_judge_captured(struct watch_judge *j, double now_ns)
{
	j->captured = true;
	j->last_capture_ns = now_ns;
}

/*
 * watch_whole_from - from when on every CPU's ring holds every event: the
 * restart, or a later oldest event on a CPU that overwrote some since
 */
double watch_whole_from(const struct watch_cpu_ring *cpus, int ncpus,
			double restart_ns)
{
	double from = restart_ns;
	int i;

	for (i = 0; i < ncpus; i++)
		if (cpus[i].overwrote && cpus[i].oldest_ns > from)
			from = cpus[i].oldest_ns;
	return from;
}

/*
 * watch_pick_start - the snapshot that starts a capture: the oldest taken
 * at or after @from_ns (the events after it are whole), of @n taken at
 * @snap_ns; -1 when every one is older
 */
int watch_pick_start(const double *snap_ns, int n, double from_ns)
{
	int i, best = -1;

	for (i = 0; i < n; i++)
		if (snap_ns[i] >= from_ns && (best < 0 || snap_ns[i] < snap_ns[best]))
			best = i;
	return best;
}

/*
 * watch_ring_kb - the ring's size per CPU for @want_s seconds: when a CPU
 * overwrote events and its ring spans @span_s < @want_s, grown in
 * proportion with a quarter to spare, in whole pages, at most @max_kb;
 * else @cur_kb
 */
unsigned long watch_ring_kb(unsigned long cur_kb, double span_s, double want_s,
			    bool overwrote, unsigned long max_kb)
{
	double kb;

	if (!overwrote || span_s >= want_s || cur_kb >= max_kb)
		return cur_kb;
	kb = span_s > 0 ? cur_kb * (want_s / span_s) * 1.25 : (double)max_kb;
	if (kb > max_kb)
		kb = max_kb;
	kb = ceil(kb / 4) * 4;
	return kb > cur_kb ? (unsigned long)kb : cur_kb;
}

/*
 * A capture's file name: teeprobe-watch-YYYYMMDDTHHMMSSZ.dat, and
 * -N before ".dat" for the Nth more in the same second
 */
#define CAPTURE_PREFIX	"teeprobe-watch-"
#define CAPTURE_STAMP	16	/* YYYYMMDDTHHMMSSZ */

/* capture_seq - the N of "-N.dat", 0 for none; -1 when not a capture's */
static long capture_seq(const char *name)
{
	const char *p = name + strlen(CAPTURE_PREFIX) + CAPTURE_STAMP;
	char *end;
	long n;

	if (!strcmp(p, ".dat"))
		return 0;
	if (*p != '-' || !isdigit((unsigned char)p[1]))
		return -1;
	n = strtol(p + 1, &end, 10);
	return strcmp(end, ".dat") || n <= 0 ? -1 : n;
}

/* watch_capture_name_ok - whether @name is a capture's file name */
bool watch_capture_name_ok(const char *name)
{
	const char *s = name + strlen(CAPTURE_PREFIX);
	int i;

	if (strncmp(name, CAPTURE_PREFIX, strlen(CAPTURE_PREFIX)) ||
	    strlen(s) < CAPTURE_STAMP)
		return false;
	for (i = 0; i < CAPTURE_STAMP; i++)
		if (i == 8 ? s[i] != 'T' : i == 15 ? s[i] != 'Z' :
		    !isdigit((unsigned char)s[i]))
			return false;
	return capture_seq(name) >= 0;
}

/* watch_capture_cmp - qsort order of capture names (char *): oldest first */
int watch_capture_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int c = strncmp(x, y, strlen(CAPTURE_PREFIX) + CAPTURE_STAMP);
	long sx, sy;

	if (c)
		return c;
	sx = capture_seq(x);
	sy = capture_seq(y);
	return (sx > sy) - (sx < sy);
}

/*
 * watch_prune - which of the @n names to remove so that the newest @keep
 * captures stay: @remove[i] set for those, names that are not captures'
 * never. Returns how many.
 */
int watch_prune(const char *const *names, int n, int keep, bool *remove)
{
	int i, j, newer, removed = 0;

	for (i = 0; i < n; i++) {
		remove[i] = false;
		if (!watch_capture_name_ok(names[i]))
			continue;
		newer = 0;
		for (j = 0; j < n; j++)
			if (j != i && watch_capture_name_ok(names[j]) &&
			    watch_capture_cmp(&names[j], &names[i]) > 0)
				newer++;
		if (newer >= keep) {
			remove[i] = true;
			removed++;
		}
	}
	return removed;
}

/*
 * watch_disk_has_room - whether @free_bytes take a capture of a ring of
 * @ring_bytes: trace-cmd writes each CPU's data to a file of its own, then
 * merges them into the trace.dat, so twice the ring at the most, and the
 * room any session asks for (@min_free_bytes, record's) beside it
 */
bool watch_disk_has_room(double free_bytes, double ring_bytes,
			 double min_free_bytes)
{
	return free_bytes >= 2 * ring_bytes + min_free_bytes;
}
