// SPDX-License-Identifier: GPL-2.0
/*
 * prometheus.c - the module's counters as one Prometheus exposition (text
 * format 0.0.4), see prometheus.h and Documentation/teeprobe-stat.rst.
 *
 * Counters are the module's running totals, not rates: Prometheus takes
 * rates itself, and sees the module's reset (or a reload) as the counter
 * reset it already handles. Times are in seconds, the Prometheus base
 * unit, written as exact decimals of the module's nanoseconds.
 *
 * Series are bounded by the host, never by its traffic, and by default
 * not by its CPUs either, so a fleet of large hosts can afford them: every
 * counter and histogram is summed over the CPUs (the files' "all" rows
 * and column), a cmd label from the fixed list of TEE commands, a port
 * label from the module's 15 ports and "other", histograms in the coarse
 * buckets of prometheus.h. The per-CPU NET_RX and TEE counters (which CPU
 * starves) and the module's fine buckets are opt-in (struct prom_opts).
 * Nothing per thread or per connection is exported.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "prometheus.h"
#include "prometheus_format.h"
#include "hist.h"
#include "utils.h"
#include "watch_state.h"


/* is_number - digits only: a CPU number (not "all"), a process id */
static bool is_number(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* ---- counters and gauges of a table's columns ------------------------- */

/*
 * metric - a column's samples in family @fam (NULL: the column has none),
 * with a "context" label when @context. A family may take several
 * columns (a DELAY's): it is written whole where it first appears.
 */
struct metric {
	const struct family *fam;
	bool ns;			/* the column is in ns: seconds */
	const char *col;
	const char *context;		/* value of a context label, or NULL */
};

/*
 * METRIC(name, kind, ...) - the entries of a column of abi.h's lists: a
 * COUNT a counter, an NS a counter in seconds, a MAX a gauge in seconds,
 * each a family of its own, of the column's metric and help (none when
 * the metric is ""); a DELAY three, in the NET_RX delays' families
 * (METRIC_DELAY, beside netrx_metrics)
 */
#define METRIC(name, kind, ...) METRIC_##kind(name, __VA_ARGS__)
#define METRIC_COUNT(name, metric, help, ...) \
	METRIC_FAMILY(name, metric, help, "counter", false)
#define METRIC_NS(name, metric, help, ...) \
	METRIC_FAMILY(name, metric, help, "counter", true)
#define METRIC_MAX(name, metric, help, ...) \
	METRIC_FAMILY(name, metric, help, "gauge", true)
/* sizeof("") is 1: a column whose metric is "" has no family */
#define METRIC_FAMILY(name, metric, help, type, in_ns) \
	{ .fam = sizeof(metric) == 1 ? NULL : \
		 &(const struct family){ "teeprobe_" metric, type, help }, \
	  .ns = in_ns, .col = #name },

/* seen_before - does an entry before @m[@i] have its family? */
static bool seen_before(const struct metric *m, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (m[j].fam == m[i].fam)
			return true;
	return false;
}

/*
 * column_metrics - the samples of column @m of table @t: with @per_cpu
 * the rows whose first field is a CPU number, labelled cpu, otherwise the
 * "all" rows; labelled @names from the second field on. Rows too short
 * for a column (an older module) are skipped.
 */
static void column_metrics(struct prom *p, const struct modstats *t,
			   const struct metric *m, bool per_cpu,
			   const char *const *names, int nnames)
{
	struct label l[MAX_LABELS];
	int col = modstats_col(t, m->col), r, k, nl;

	for (r = 0; col >= 0 && r < t->nrows; r++) {
		const char *const *f = (const char *const *)t->rows[r].field;

		if (t->ncols < 1 + nnames)
			continue;
		if (per_cpu ? !is_number(f[0]) : strcmp(f[0], "all"))
			continue;
		nl = 0;
		if (per_cpu)
			l[nl++] = (struct label){ "cpu", f[0] };
		for (k = 0; k < nnames; k++)
			l[nl++] = (struct label){ names[k], f[1 + k] };
		if (m->context)
			l[nl++] = (struct label){ "context", m->context };
		prom_sample_u64(p, m->fam, "", l, nl, modstats_u64(t, r, col), m->ns);
	}
}

/*
 * table_metrics - the families of the @nm entries @m of table @t, in the
 * order they first appear, each with all its columns; @per_cpu, @names
 * and @nnames as column_metrics()'
 */
static void table_metrics(struct prom *p, const struct modstats *t,
			  const struct metric *m, int nm, bool per_cpu,
			  const char *const *names, int nnames)
{
	int i, j;

	for (i = 0; i < nm; i++) {
		if (!m[i].fam || seen_before(m, i))
			continue;
		for (j = i; j < nm; j++)
			if (m[j].fam == m[i].fam)
				column_metrics(p, t, &m[j], per_cpu, names, nnames);
	}
}

/* ---- histograms --------------------------------------------------------- */

struct hset {
	struct hseries *s;
	int n, nkeys;
	enum hist_layout layout;	/* of every series: one file's */
};

/* hset_get - the series keyed @key, appended (empty) when new */
static struct hseries *hset_get(struct hset *h, const char *const *key)
{
	int i, k;

	for (i = 0; i < h->n; i++) {
		for (k = 0; k < h->nkeys; k++)
			if (strcmp(h->s[i].key[k], key[k]))
				break;
		if (k == h->nkeys)
			return &h->s[i];
	}
	h->s = realloc(h->s, (h->n + 1) * sizeof(*h->s));
	if (!h->s)
		fatal("out of memory\n");
	memset(&h->s[h->n], 0, sizeof(*h->s));
	h->s[h->n].layout = h->layout;
	for (k = 0; k < h->nkeys; k++)
		h->s[h->n].key[k] = key[k];
	return &h->s[h->n++];
}

/*
 * hset_load - the rows of a histogram file (@nkeys key fields, then
 * bucket_low_ns, a column per CPU and "all"), from the "all" column, in
 * the file's bucket layout
 */
static void hset_load(struct hset *h, const struct modstats *t, int nkeys)
{
	int all = modstats_col(t, "all"), r;

	h->nkeys = nkeys;
	h->layout = t ? t->hist_layout : HIST_LOG2;
	for (r = 0; all >= 0 && nkeys < t->ncols && r < t->nrows; r++) {
		struct hseries *s;

		s = hset_get(h, (const char *const *)t->rows[r].field);
		s->bucket[hist_bucket_in(t->hist_layout, t->rows[r].num[nkeys])] +=
			modstats_u64(t, r, all);
	}
}

/* ---- the module's files --------------------------------------------------- */

static const struct family fam_up = {
	"teeprobe_up", "gauge",
	"1 when teeprobe.ko's debugfs files were read, 0 when the module is not loaded (then no other teeprobe_ metric but build_info)."
};
static const struct family fam_build = {
	"teeprobe_build_info", "gauge",
	"The teeprobe command that wrote these metrics, by version; always 1."
};
static const struct family fam_module = {
	"teeprobe_module_info", "gauge",
	"The loaded teeprobe.ko, by version and the kernel release it was built for; always 1."
};
static const struct family fam_generation = {
	"teeprobe_counters_generation", "gauge",
	"Resets of the module's counters since it was loaded, labelled with the load (a random id drawn at load): a change means every teeprobe counter restarted from zero. Prometheus sees a restart only when a counter goes down: alert on changes() of this."
};
static const struct family fam_pid_filter = {
	"teeprobe_tee_pid_filter_pids", "gauge",
	"Processes the TEE counters are limited to (debugfs pid_filter); 0 when every process is followed."
};

/* write_info - teeprobe_up, build and module info, the pid filter */
static void write_info(struct prom *p, const struct snapshot *s,
		       const char *tool_version)
{
	const char *version = snapshot_text(s, "version");
	const char *filter = snapshot_text(s, "pid_filter");
	struct modstats_generation gen;
	char mod[64], kernel[128];
	struct label l[2];
	unsigned long long pids = 0;
	char *copy, *tok, *save = NULL;

	prom_sample(p, &fam_up, "", NULL, 0, version ? "1" : "0");
	l[0] = (struct label){ "version", tool_version };
	prom_sample(p, &fam_build, "", l, 1, "1");
	if (version && sscanf(version, "teeprobe %63s kernel %127s", mod, kernel) == 2) {
		l[0] = (struct label){ "version", mod };
		l[1] = (struct label){ "kernel", kernel };
		prom_sample(p, &fam_module, "", l, 2, "1");
	}
	if (modstats_generation(snapshot_text(s, "generation"), &gen)) {
		l[0] = (struct label){ "load", gen.load };
		prom_sample_u64(p, &fam_generation, "", l, 1, gen.reset, false);
	}
	if (filter) {
		copy = xstrdup(filter);
		for (tok = strtok_r(copy, "\n ", &save); tok;
		     tok = strtok_r(NULL, "\n ", &save))
			pids += is_number(tok);	/* a number: a process id */
		free(copy);
		prom_sample_u64(p, &fam_pid_filter, "", NULL, 0, pids, false);
	}
}

static const struct metric tee_metrics[] = {
	TEEPROBE_TEE_STATS_COLS(METRIC)
};

static const struct family fam_tee_hist = {
	"teeprobe_tee_ioctl_duration_seconds", "histogram",
	"Duration of TEE ioctls by command, all CPUs."
};
static const struct family fam_tee_untracked = {
	"teeprobe_tee_ioctl_untracked_total", "counter",
	"TEE ioctls timed without their off-CPU split (more calls in flight than maxactive)."
};
static const struct family fam_tee_overflow = {
	"teeprobe_tee_threads_overflow_total", "counter",
	"TEE ioctls of threads beyond the 256 that tee_threads follows (table overflow)."
};

/* write_tee - tee_stats and tee_hist */
static void write_tee(struct prom *p, const struct snapshot *s)
{
	static const char *const cmd[] = { "cmd" };
	const struct modstats *st = modstats_of(s, "tee_stats");
	const struct modstats *hi = modstats_of(s, "tee_hist");
	struct hset h = { .nkeys = 1 };	/* cmd */
	struct label l;
	unsigned long long v;
	int i, r, calls, total;

	if (st)
		table_metrics(p, st, tee_metrics, ARRAY_SIZE(tee_metrics),
			      p->opts.per_cpu, cmd, 1);
	if (hi)
		hset_load(&h, hi, 1);
	/* A command with calls has a histogram, even when it is empty. */
	calls = modstats_col(st, "calls");
	total = modstats_col(st, "total_ns");
	for (r = 0; calls >= 0 && st->ncols >= 2 && r < st->nrows; r++) {
		struct hseries *one;

		if (strcmp(st->rows[r].field[0], "all"))
			continue;
		one = hset_get(&h, (const char *const *)&st->rows[r].field[1]);
		if (total >= 0) {
			one->sum_ns = modstats_u64(st, r, total);
			one->has_sum = true;
		}
	}
	for (i = 0; i < h.n; i++) {
		l = (struct label){ "cmd", h.s[i].key[0] };
		prom_hist_samples(p, &fam_tee_hist, &l, 1, &h.s[i]);
	}
	if (modstats_kv_u64(st, "untracked", &v))
		prom_sample_u64(p, &fam_tee_untracked, "", NULL, 0, v, false);
	if (modstats_kv_u64(modstats_of(s, "tee_threads"), "overflow", &v))
		prom_sample_u64(p, &fam_tee_overflow, "", NULL, 0, v, false);
	free(h.s);
}

static const struct family fam_netrx_delayed_runs = {
	"teeprobe_netrx_delayed_runs_total", "counter",
	"NET_RX runs with a raise before them (their raise->entry delay is measured), by context."
};
static const struct family fam_netrx_delay_sum = {
	"teeprobe_netrx_delay_seconds_total", "counter",
	"Raise->entry delays of NET_RX runs summed, by context (inline or ksoftirqd)."
};
static const struct family fam_netrx_delay_max = {
	"teeprobe_netrx_delay_max_seconds", "gauge",
	"Longest raise->entry delay since the module was loaded or reset."
};

/*
 * A DELAY column's count, sum and maximum, in the three families of the
 * NET_RX delays, labelled with its context
 */
#define METRIC_DELAY(name, ctx) \
	METRIC_DELAY_COL(&fam_netrx_delayed_runs, false, #name "_count", #ctx) \
	METRIC_DELAY_COL(&fam_netrx_delay_sum, true, #name "_sum_ns", #ctx) \
	METRIC_DELAY_COL(&fam_netrx_delay_max, true, #name "_max_ns", #ctx)
#define METRIC_DELAY_COL(family, in_ns, column, ctx) \
	{ .fam = family, .ns = in_ns, .col = column, .context = ctx },

static const struct metric netrx_metrics[] = {
	TEEPROBE_NETRX_STATS_COLS(METRIC)
};

static const struct family fam_netrx_delay = {
	"teeprobe_netrx_raise_to_entry_seconds", "histogram",
	"NET_RX raise->entry delay by context (inline: irq exit or bh enable; ksoftirqd), all CPUs."
};
static const struct family fam_netrx_run = {
	"teeprobe_netrx_run_duration_seconds", "histogram",
	"Duration of NET_RX runs (net_rx_action), all CPUs."
};

/* write_netrx - netrx_stats and netrx_hist */
static void write_netrx(struct prom *p, const struct snapshot *s)
{
	static const struct {
		const char *hist, *sum, *context;
		const struct family *fam;
	} hists[] = {
		{ "inline_delay", "inline_delay_sum_ns", "inline", &fam_netrx_delay },
		{ "ksoftirqd_delay", "ksoftirqd_delay_sum_ns", "ksoftirqd", &fam_netrx_delay },
		{ "run", "run_ns", NULL, &fam_netrx_run },
	};
	const struct modstats *st = modstats_of(s, "netrx_stats");
	const struct modstats *hi = modstats_of(s, "netrx_hist");
	struct hset h = { 0 };
	struct label l;
	size_t i;
	int all;

	if (st)
		table_metrics(p, st, netrx_metrics, ARRAY_SIZE(netrx_metrics),
			      p->opts.per_cpu, NULL, 0);
	/* The module's three histograms always, so the series stay. */
	if (st && hi) {
		hset_load(&h, hi, 1);
		all = modstats_find(st, "all", NULL);
		for (i = 0; i < ARRAY_SIZE(hists); i++) {
			struct hseries *one = hset_get(&h, &hists[i].hist);
			int col = modstats_col(st, hists[i].sum);

			if (all >= 0 && col >= 0) {
				one->sum_ns = modstats_u64(st, all, col);
				one->has_sum = true;
			}
			l = (struct label){ "context", hists[i].context };
			prom_hist_samples(p, hists[i].fam, &l, hists[i].context ? 1 : 0,
				     one);
		}
		free(h.s);
	}
}

static const struct metric tcp_metrics[] = {
	TEEPROBE_TCP_COUNTER_LIST(METRIC)
};

static const struct family fam_tcp_hist = {
	"teeprobe_tcp_handshake_phase_seconds", "histogram",
	"Duration of TCP handshake phases by port and phase (syn_wait, syn_synack, synack_ack, ack_wait, ack_accept, connect, connect_call), all CPUs."
};
static const struct family fam_tcp_max = {
	"teeprobe_tcp_handshake_phase_max_seconds", "gauge",
	"Longest TCP handshake phase since the module was loaded or reset."
};
static const struct family fam_table_size = {
	"teeprobe_tcp_table_size", "gauge",
	"Entries of the table of handshakes in flight (tcp_table_size)."
};
static const struct family fam_table_in_use = {
	"teeprobe_tcp_table_in_use", "gauge",
	"Entries of the handshake table in use."
};
static const struct family fam_table_expired = {
	"teeprobe_tcp_table_expired_total", "counter",
	"Handshake table entries reclaimed after tcp_timeout_s without being seen to finish."
};
static const struct family fam_table_full = {
	"teeprobe_tcp_table_full_total", "counter",
	"Handshakes not followed because the handshake table was full (overflow)."
};
static const struct family fam_phases_lost = {
	"teeprobe_tcp_phases_lost_total", "counter",
	"Handshake steps whose phases were not kept: their port's histograms were not allocated yet (tcp_phases)."
};

/* write_tcp - tcp_stats, tcp_phases (or the older tcp_stats' phases), tcp_hist */
static void write_tcp(struct prom *p, const struct snapshot *s)
{
	static const char *const port[] = { "port" };
	const struct modstats *st = modstats_of(s, "tcp_stats");
	const struct modstats *hi = modstats_of(s, "tcp_hist");
	const struct modstats_phase *ph;
	struct hset h = { .nkeys = 2 };	/* port, phase */
	struct label l[2];
	unsigned long long v;
	int i, nph;

	if (st)
		table_metrics(p, st, tcp_metrics, ARRAY_SIZE(tcp_metrics),
			      false, port, 1);
	if (hi)
		hset_load(&h, hi, 2);
	nph = modstats_phases(s, &ph);
	for (i = 0; i < nph; i++) {
		const char *key[] = { ph[i].port, modstats_phase_name(ph[i].phase) };
		struct hseries *one = hset_get(&h, key);

		one->sum_ns = ph[i].sum_ns;
		one->has_sum = true;
	}
	for (i = 0; i < h.n; i++) {
		l[0] = (struct label){ "port", h.s[i].key[0] };
		l[1] = (struct label){ "phase", h.s[i].key[1] };
		prom_hist_samples(p, &fam_tcp_hist, l, 2, &h.s[i]);
	}
	for (i = 0; i < nph; i++) {
		l[0] = (struct label){ "port", ph[i].port };
		l[1] = (struct label){ "phase", modstats_phase_name(ph[i].phase) };
		prom_sample_u64(p, &fam_tcp_max, "", l, 2, ph[i].max_ns, true);
	}
	if (modstats_kv_u64(st, "table_size", &v))
		prom_sample_u64(p, &fam_table_size, "", NULL, 0, v, false);
	if (modstats_kv_u64(st, "table_in_use", &v))
		prom_sample_u64(p, &fam_table_in_use, "", NULL, 0, v, false);
	if (modstats_kv_u64(st, "table_expired", &v))
		prom_sample_u64(p, &fam_table_expired, "", NULL, 0, v, false);
	if (modstats_kv_u64(st, "table_full", &v))
		prom_sample_u64(p, &fam_table_full, "", NULL, 0, v, false);
	if (modstats_kv_u64(modstats_of(s, "tcp_phases"), "phases_lost", &v))
		prom_sample_u64(p, &fam_phases_lost, "", NULL, 0, v, false);
	free(h.s);
}

static const struct family fam_attached = {
	"teeprobe_probe_attached", "gauge",
	"1 when a probe of the TEE or TCP part is attached, 0 when its symbol is not found or it failed (tee_probes, tcp_probes)."
};
static const struct family fam_missed = {
	"teeprobe_probe_missed_total", "counter",
	"Hits a probe missed (a kretprobe with no free instance, a kprobe hit inside another handler)."
};

/* write_probes - each probe's state and misses */
static void write_probes(struct prom *p, const struct snapshot *s)
{
	static const char *const parts[] = { "tee", "tcp" };
	static const char *const files[] = { "tee_probes", "tcp_probes" };
	const struct modstats *t[2];
	struct label l[2];
	int i, r, state, missed;

	for (i = 0; i < 2; i++)
		t[i] = modstats_of(s, files[i]);
	for (i = 0; i < 2; i++) {
		state = modstats_col(t[i], "state");
		for (r = 0; state >= 0 && r < t[i]->nrows; r++) {
			l[0] = (struct label){ "part", parts[i] };
			l[1] = (struct label){ "symbol", t[i]->rows[r].field[0] };
			prom_sample(p, &fam_attached, "", l, 2,
			       strcmp(t[i]->rows[r].field[state], "attached") ? "0" : "1");
		}
	}
	for (i = 0; i < 2; i++) {
		missed = modstats_col(t[i], "nmissed");
		for (r = 0; missed >= 0 && r < t[i]->nrows; r++) {
			l[0] = (struct label){ "part", parts[i] };
			l[1] = (struct label){ "symbol", t[i]->rows[r].field[0] };
			prom_sample_u64(p, &fam_missed, "", l, 2,
				   modstats_u64(t[i], r, missed), false);
		}
	}
}

/* ---- teeprobe watch ------------------------------------------------------- */

static const struct family fam_watch_running = {
	"teeprobe_watch_running", "gauge",
	"1 while the teeprobe watch that wrote the status runs; 0 when it ended without cleaning up (killed: teeprobe check sweeps it). No teeprobe_watch_ series when no watch runs."
};
static const struct family fam_watch_threshold = {
	"teeprobe_watch_threshold", "gauge",
	"The watch's thresholds by measure: seconds for handshake_p99 and netrx_p99, a share (0..1) for tee_blocked."
};
static const struct family fam_watch_value = {
	"teeprobe_watch_value", "gauge",
	"The last window's figure of each measure the watch holds against its threshold, in the threshold's unit."
};
static const struct family fam_watch_windows = {
	"teeprobe_watch_windows_total", "counter",
	"Windows of the module the watch judged (windows with something measured)."
};
static const struct family fam_watch_over = {
	"teeprobe_watch_windows_over_total", "counter",
	"Windows over the threshold, by measure: the single ones do not make a breach."
};
static const struct family fam_watch_breaches = {
	"teeprobe_watch_breaches_total", "counter",
	"Breaches by measure: runs of windows over the threshold as long as the watch's --windows."
};
static const struct family fam_watch_captures = {
	"teeprobe_watch_captures_total", "counter",
	"Captures written: the ring as a trace.dat, analysed."
};
static const struct family fam_watch_failed = {
	"teeprobe_watch_capture_failures_total", "counter",
	"Captures that could not be written (trace-cmd failed, the file did not read back)."
};
static const struct family fam_watch_skipped = {
	"teeprobe_watch_captures_skipped_total", "counter",
	"Breaches not captured: within the cooldown of the last capture, or too little room on the disk."
};
static const struct family fam_watch_last_breach = {
	"teeprobe_watch_last_breach_timestamp_seconds", "gauge",
	"When the last breach was judged (Unix time); 0 before the first."
};
static const struct family fam_watch_last_capture = {
	"teeprobe_watch_last_capture_timestamp_seconds", "gauge",
	"When the last capture was written (Unix time); 0 before the first."
};
static const struct family fam_watch_verdict = {
	"teeprobe_watch_last_verdict_info", "gauge",
	"The verdict of the last capture's analysis (teeprobe analyze's key); always 1."
};

/* watch_number - @v as a sample value ("0.5", "1733420123.5") */
static const char *watch_number(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.9g", v);
	return buf;
}

/*
 * write_watch - the running watch's status (the "watch" source: the
 * status file's lines, and "running 0" or "1"), when there is one
 */
static void write_watch(struct prom *p, const struct snapshot *s)
{
	const char *text = snapshot_text(s, "watch");
	struct watch_status st;
	struct label l;
	char buf[64];
	int m;

	if (!text || !watch_status_parse(text, &st))
		return;
	prom_sample(p, &fam_watch_running, "", NULL, 0,
		    strstr(text, "\nrunning 1\n") ? "1" : "0");
	for (m = 0; m < NR_WATCH_MEASURES; m++) {
		if (!st.set[m])
			continue;
		l = (struct label){ "measure", watch_measure_key(m) };
		prom_sample(p, &fam_watch_threshold, "", &l, 1,
			    watch_number(buf, sizeof(buf), watch_measure_is_time(m) ?
					 st.threshold[m] / 1e9 : st.threshold[m]));
	}
	for (m = 0; m < NR_WATCH_MEASURES; m++) {
		if (!st.set[m] || isnan(st.value[m]))
			continue;
		l = (struct label){ "measure", watch_measure_key(m) };
		prom_sample(p, &fam_watch_value, "", &l, 1,
			    watch_number(buf, sizeof(buf), watch_measure_is_time(m) ?
					 st.value[m] / 1e9 : st.value[m]));
	}
	prom_sample_u64(p, &fam_watch_windows, "", NULL, 0, st.windows, false);
	for (m = 0; m < NR_WATCH_MEASURES; m++) {
		l = (struct label){ "measure", watch_measure_key(m) };
		if (st.set[m])
			prom_sample_u64(p, &fam_watch_over, "", &l, 1, st.over[m], false);
	}
	for (m = 0; m < NR_WATCH_MEASURES; m++) {
		l = (struct label){ "measure", watch_measure_key(m) };
		if (st.set[m])
			prom_sample_u64(p, &fam_watch_breaches, "", &l, 1,
					st.breaches[m], false);
	}
	prom_sample_u64(p, &fam_watch_captures, "", NULL, 0, st.captures, false);
	prom_sample_u64(p, &fam_watch_failed, "", NULL, 0, st.failed, false);
	l = (struct label){ "reason", "cooldown" };
	prom_sample_u64(p, &fam_watch_skipped, "", &l, 1, st.skipped_cooldown, false);
	l = (struct label){ "reason", "disk" };
	prom_sample_u64(p, &fam_watch_skipped, "", &l, 1, st.skipped_disk, false);
	snprintf(buf, sizeof(buf), "%.3f", st.last_breach);
	prom_sample(p, &fam_watch_last_breach, "", NULL, 0, buf);
	snprintf(buf, sizeof(buf), "%.3f", st.last_capture);
	prom_sample(p, &fam_watch_last_capture, "", NULL, 0, buf);
	if (st.last_verdict[0]) {
		l = (struct label){ "verdict", st.last_verdict };
		prom_sample(p, &fam_watch_verdict, "", &l, 1, "1");
	}
}

/*
 * prom_unshown - the first of @s's files that says "# error" (the module
 * could not show it, or it could not be read), or NULL
 */
const char *prom_unshown(const struct snapshot *s)
{
	int i;

	for (i = 0; i < s->nr; i++) {
		const char *t = s->src[i].text;

		if (t && (!strncmp(t, "# error ", 8) || strstr(t, "\n# error ")))
			return s->src[i].name;
	}
	return NULL;
}

/* prom_up - were the module's files read (its version file is there)? */
bool prom_up(const struct snapshot *s)
{
	return snapshot_text(s, "version") != NULL;
}

/*
 * prom_write - one exposition of snapshot @s, whose sources are the
 * module's debugfs files by name, with what @opts adds (NULL: a fleet's
 * default). Without the files (no module) only teeprobe_up 0 and
 * teeprobe_build_info.
 */
void prom_write(FILE *out, const struct snapshot *s, const char *tool_version,
		const struct prom_opts *opts)
{
	struct prom p = { .out = out };

	if (opts)
		p.opts = *opts;

	write_info(&p, s, tool_version);
	write_watch(&p, s);
	if (!prom_up(s))
		return;
	write_tee(&p, s);
	write_netrx(&p, s);
	write_tcp(&p, s);
	write_probes(&p, s);
}
