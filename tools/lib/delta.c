// SPDX-License-Identifier: GPL-2.0
/*
 * derive.c - figures derived from two snapshots (see derive.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delta.h"
#include "utils.h"

/*
 * derive_same_counters - whether the module's counters of @a and @b
 * subtract: the same load of the module, no reset in between (its
 * "generation" file). NULL, or the reason they do not, into @why.
 * Snapshots of a module without the file (an earlier one) are taken as
 * comparable, as they were.
 */
bool derive_same_counters(const struct snapshot *a, const struct snapshot *b,
			  const char **why)
{
	const char *ga = snapshot_text(a, "generation");
	const char *gb = snapshot_text(b, "generation");
	struct modstats_generation x, y;

	if (why)
		*why = NULL;
	if (!ga && !gb)
		return true;
	if (!modstats_generation(ga, &x) || !modstats_generation(gb, &y)) {
		if (why)
			*why = "the module was loaded or unloaded in between";
		return false;
	}
	if (strcmp(x.load, y.load)) {
		if (why)
			*why = "the module was reloaded in between";
		return false;
	}
	if (x.reset != y.reset) {
		if (why)
			*why = "the module's counters were reset in between";
		return false;
	}
	return true;
}

/*
 * tables_load - @source of both snapshots, parsed (once per snapshot:
 * modstats_of keeps the parse). Not ok when either is missing or does not
 * parse, or when the counters do not subtract (derive_same_counters): a
 * difference across a reload or a reset is no count at all. A histogram
 * file's bucket layout is kept in @tb->layout.
 */
void tables_load(struct tables *tb, const struct snapshot *a,
		 const struct snapshot *b, const char *source)
{
	tb->t[0] = modstats_of(a, source);
	tb->t[1] = modstats_of(b, source);
	tb->ok = tb->t[0] && tb->t[1] && derive_same_counters(a, b, NULL);
	/* one load of the module: one layout; two would not subtract */
	tb->layout = tb->t[1] ? tb->t[1]->hist_layout : HIST_LOG2;
	if (tb->ok && tb->t[0]->hist_layout != tb->t[1]->hist_layout)
		tb->ok = false;
}

/* tables_delta - end minus start of one value; NAN when they do not subtract */
double tables_delta(const struct tables *tb, const char *k0, const char *k1,
		    const char *col)
{
	if (!tb->ok)
		return NAN;
	return modstats_get(tb->t[1], k0, k1, col) -
	       modstats_get(tb->t[0], k0, k1, col);
}

/*
 * tables_hist_keyed_delta - histogram rows whose first @nkeys fields are
 * @keys (a NULL key matches any value) and whose next field is
 * bucket_low_ns, CPU column @col, end minus start, summed into the
 * module's buckets (in @tb->layout). Returns the total count.
 */
double tables_hist_keyed_delta(const struct tables *tb, const char *const *keys,
			       int nkeys, const char *col,
			       double bucket[HIST_BUCKETS])
{
	double total = 0, v;
	int p, i, k, c;

	memset(bucket, 0, HIST_BUCKETS * sizeof(double));
	for (p = 0; tb->ok && p < 2; p++) {
		const struct modstats *t = tb->t[p];

		c = modstats_col(t, col);
		for (i = 0; c >= 0 && nkeys < t->ncols && i < t->nrows; i++) {
			for (k = 0; k < nkeys; k++)
				if (keys[k] && strcmp(t->rows[i].field[k], keys[k]))
					break;
			if (k < nkeys)
				continue;
			v = modstats_num(t, i, c);
			bucket[hist_bucket_in(tb->layout, t->rows[i].num[nkeys])] +=
				p ? v : -v;
		}
	}
	for (i = 0; i < HIST_BUCKETS; i++)
		total += bucket[i];
	return total;
}

/*
 * tables_hist_delta - the rows of histogram @key (first column @key,
 * second bucket_low_ns), CPU column @col, end minus start.
 */
double tables_hist_delta(const struct tables *tb, const char *key,
			 const char *col, double bucket[HIST_BUCKETS])
{
	return tables_hist_keyed_delta(tb, &key, 1, col, bucket);
}

/*
 * tables_hist_pct - the @pct-th percentile of @bucket, a histogram in
 * @tb's layout (hist_pct_in): interpolated in log-linear buckets, the
 * bucket's top in the log2 ones of older modules
 */
double tables_hist_pct(const struct tables *tb, const double *bucket,
		       double max, double pct)
{
	return hist_pct_in(tb->layout, bucket, max, pct);
}

/* derive_seconds - time between the snapshots, 0 when unknown */
double derive_seconds(const struct snapshot *a, const struct snapshot *b)
{
	const char *x = snapshot_text(a, "time");
	const char *y = snapshot_text(b, "time");

	return x && y ? strtod(y, NULL) - strtod(x, NULL) : 0;
}

/* cpu_times - one "cpuN ..." line of /proc/stat (ticks by kind) */
struct cpu_times {
	double user, nice, system, idle, iowait, irq, softirq, steal;
};

/* parse_cpu_line - @name's line of a proc_stat snapshot */
static bool parse_cpu_line(const char *text, const char *name,
			   struct cpu_times *c)
{
	char key[32], *copy, *line, *save = NULL;
	bool found = false;

	if (!text)
		return false;
	copy = xstrdup(text);
	for (line = strtok_r(copy, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		memset(c, 0, sizeof(*c));
		if (sscanf(line, "%31s %lf %lf %lf %lf %lf %lf %lf %lf", key,
			   &c->user, &c->nice, &c->system, &c->idle, &c->iowait,
			   &c->irq, &c->softirq, &c->steal) >= 8 &&
		    !strcmp(key, name))
			found = true;
	}
	free(copy);
	return found;
}

/* ticks - every kind summed */
static double ticks(const struct cpu_times *c)
{
	return c->user + c->nice + c->system + c->idle + c->iowait + c->irq +
	       c->softirq + c->steal;
}

/*
 * derive_cpu - %user (with nice), %system, %softirq, %irq and %idle (with
 * iowait) of CPU line @name ("cpu" for all) between the snapshots.
 */
bool derive_cpu(const struct snapshot *a, const struct snapshot *b,
		const char *name, double pct[5])
{
	struct cpu_times x, y;
	double total;

	if (!parse_cpu_line(snapshot_text(a, "proc_stat"), name, &x) ||
	    !parse_cpu_line(snapshot_text(b, "proc_stat"), name, &y))
		return false;
	total = ticks(&y) - ticks(&x);
	pct[0] = 100 * share(y.user + y.nice - x.user - x.nice, total);
	pct[1] = 100 * share(y.system - x.system, total);
	pct[2] = 100 * share(y.softirq - x.softirq, total);
	pct[3] = 100 * share(y.irq - x.irq, total);
	pct[4] = 100 * share(y.idle + y.iowait - x.idle - x.iowait, total);
	return true;
}

/* nic_rx - rx packets of @dev in a net_dev snapshot, -1 when absent */
static double nic_rx(const char *text, const char *dev)
{
	char *copy, *line, *save = NULL, *colon;
	double v = -1, bytes;
	size_t n = strlen(dev);

	if (!text)
		return -1;
	copy = xstrdup(text);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " ");
		colon = strchr(line, ':');
		if (colon && (size_t)(colon - line) == n &&
		    !strncmp(line, dev, n)) {
			if (sscanf(colon + 1, "%lf %lf", &bytes, &v) != 2)
				v = -1;
			break;
		}
	}
	free(copy);
	return v;
}

/*
 * derive_nic_rx - packets received by @dev between the snapshots, or by
 * every interface but lo when @dev is NULL; 0 when unknown.
 */
double derive_nic_rx(const struct snapshot *a, const struct snapshot *b,
		     const char *dev)
{
	const char *end = snapshot_text(b, "net_dev");
	char *copy, *line, *save = NULL, name[64];
	double x, y, sum = 0;

	if (dev) {
		x = nic_rx(snapshot_text(a, "net_dev"), dev);
		y = nic_rx(end, dev);
		return x >= 0 && y >= x ? y - x : 0;
	}
	copy = xstrdup(end ? end : "");
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, " %63[^:]:", name) == 1 && !strchr(name, '|') &&
		    strcmp(name, "lo"))
			sum += derive_nic_rx(a, b, name);
	free(copy);
	return sum;
}

/* snmp_value - a counter of a "Tcp:" style pair of lines (names, values) */
static double snmp_value(const char *text, const char *name)
{
	char *copy, *hdr, *val, *save = NULL, *hs = NULL, *vs = NULL, *h, *x;
	double v = 0;

	if (!text)
		return 0;
	copy = xstrdup(text);
	hdr = strtok_r(copy, "\n", &save);
	val = strtok_r(NULL, "\n", &save);
	if (hdr && val) {
		h = strtok_r(hdr, " ", &hs);
		x = strtok_r(val, " ", &vs);
		while (h && x) {
			if (!strcmp(h, name))
				v = strtod(x, NULL);
			h = strtok_r(NULL, " ", &hs);
			x = strtok_r(NULL, " ", &vs);
		}
	}
	free(copy);
	return v;
}

/* derive_snmp - a Tcp (snmp) or TcpExt (netstat) counter's difference */
double derive_snmp(const struct snapshot *a, const struct snapshot *b,
		   const char *source, const char *name)
{
	return snmp_value(snapshot_text(b, source), name) -
	       snmp_value(snapshot_text(a, source), name);
}
