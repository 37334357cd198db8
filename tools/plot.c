// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - "teeprobe plot": recorded sessions as SVG pictures, the chain
 * over time (TEE -> NET_RX -> TCP handshakes, one panel each on a shared
 * time axis) and the latency histograms of each link (TEE per command).
 *
 * One session gives its own pictures; two (BEFORE AFTER) give a compare
 * with both overlaid on the same axes, or, with --separate, each its own
 * pictures, on the same axes when --same-axes asks. Every series can also
 * go to CSV (--csv). The work is in three steps: views (each session's
 * series, computed once), ranges (over the views that share axes), then
 * the renderers (SVG and CSV), which only read them.
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "session.h"
#include "series.h"
#include "svg.h"
#include "teeprobe.h"
#include "utils.h"

#define WIDTH		1000
#define HEIGHT		800
#define LEFT		85
#define RIGHT		75
#define BUCKETS		64
#define MAX_VIEWS	2
#define MAX_HSERIES	12	/* series of one histogram panel */
#define NR_LINES	9	/* timeline lines of one session */

/* Colours: blue, orange, green, red, grey (colour-blind friendly enough) */
#define C_BLUE		"#1f77b4"
#define C_ORANGE	"#ff7f0e"
#define C_GREEN		"#2ca02c"
#define C_RED		"#d62728"
#define C_GREY		"#999999"
#define C_BAR		"#c6dbef"

/* The TEE commands' colours, by first appearance over the views */
static const char *const cmd_palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/* The panels of both pictures */
enum { P_TEE, P_NETRX, P_TCP, NR_PANELS };
static const char *const panel_id[NR_PANELS] = { "tee", "netrx", "tcp" };

/* One timeline line: which panel, its name and its unit */
struct line_def {
	int panel;
	const char *name, *unit, *color, *dash;
	double width;
	bool main;		/* drawn in a compare, one per panel */
};

enum { L_BUSY, L_ONCPU, L_P99, L_KSD, L_INLINE, L_DELAY, L_CONN, L_HS, L_RATE };
static const struct line_def lines[NR_LINES] = {
	[L_BUSY] = { P_TEE, "in TEE ioctls", "threads", C_BLUE, NULL, 1.6, true },
	[L_ONCPU] = { P_TEE, "of which on CPU", "threads", C_ORANGE, NULL, 1.6, false },
	[L_P99] = { P_NETRX, "p99 (upper bound)", "us", C_GREY, "4 3", 1.0, false },
	[L_KSD] = { P_NETRX, "ksoftirqd", "us", C_RED, NULL, 1.2, false },
	[L_INLINE] = { P_NETRX, "inline", "us", C_GREEN, NULL, 1.2, false },
	[L_DELAY] = { P_NETRX, "mean", "us", C_BLUE, NULL, 1.8, true },
	[L_CONN] = { P_TCP, "client connect", "ms", C_ORANGE, NULL, 1.4, false },
	[L_HS] = { P_TCP, "server handshake", "ms", C_BLUE, NULL, 1.8, true },
	/* bars on the right-hand axis, not a line */
	[L_RATE] = { P_TCP, "handshakes/s", "1/s", C_BAR, NULL, 0, false },
};

/* A weighted value, for percentiles */
struct wval {
	double v, w;
};

/* One histogram series: counts in log2 buckets of ns */
struct hseries {
	char name[32];
	double count[BUCKETS];
	double total;
};

struct hpanel {
	struct hseries s[MAX_HSERIES];
	int n;
	struct wval *v;		/* every value, for p50 and p99 */
	size_t nv;
	double total;
};

/* One session, read and cut into what the pictures show */
struct view {
	const char *label;	/* "before", "after", or "session" */
	const char *input;
	char desc[200];		/* from the session, never its path */
	struct session *r;
	struct series s;
	double len_s;
	double *x, *y[NR_LINES];	/* [s.n] each */
	struct hpanel hp[NR_PANELS];
};

/* The axes of one picture's panels */
struct ranges {
	struct svg_panel tl[NR_PANELS], h[NR_PANELS];
	double rlo, rhi, rstep;		/* handshakes/s, right-hand axis */
};

struct plot_opts {
	const char *prefix, *title;
	bool csv, separate, same_axes;
};

/* plot_usage - help for teeprobe plot */
static void plot_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe plot [-o PREFIX] [-t TEXT] [--csv] [--separate] [--same-axes]\n"
		"                     [-i FILE | FILE | -i BEFORE -i AFTER | BEFORE AFTER]\n\n"
		"Writes two SVG pictures of sessions recorded with 'teeprobe record':\n"
		"  PREFIX-timeline.svg  threads in TEE ioctls, the NET_RX raise->entry\n"
		"                       delay and the TCP handshake time, per window,\n"
		"                       on one time axis\n"
		"  PREFIX-hist.svg      histograms of the TEE ioctl durations per\n"
		"                       command, of the NET_RX delays and of the server\n"
		"                       handshake times\n"
		"Of two sessions: a compare, BEFORE and AFTER overlaid on the same axes.\n\n"
		"  -i, --input FILE    a recorded session (default trace.dat); or FILE;\n"
		"                      twice, or two FILEs, for BEFORE and AFTER\n"
		"  -o, --output PREFIX the pictures' prefix (default FILE without .dat;\n"
		"                      of two sessions AFTER without .dat, then -compare)\n"
		"  -t, --title TEXT    a title above the pictures\n"
		"      --csv           also PREFIX-timeline.csv and PREFIX-hist.csv, every\n"
		"                      series drawn, one row per point\n"
		"      --separate      of two sessions: each its own pictures, not a compare\n"
		"      --same-axes     with --separate: both on the same axis ranges\n");
}

/* cmp_wval - order weighted values by value */
static int cmp_wval(const void *a, const void *b)
{
	double x = ((const struct wval *)a)->v, y = ((const struct wval *)b)->v;

	return x < y ? -1 : x > y;
}

/* percentile - the smallest value with at least @q of the weight at or
 * below it; @v is sorted here; NAN when there is no weight
 */
static double percentile(struct wval *v, size_t n, double q)
{
	double total = 0, acc = 0;
	size_t i;

	qsort(v, n, sizeof(*v), cmp_wval);
	for (i = 0; i < n; i++)
		total += v[i].w;
	if (!(total > 0))
		return NAN;
	for (i = 0; i < n; i++) {
		acc += v[i].w;
		if (acc >= q * total * (1 - 1e-12))
			return v[i].v;
	}
	return v[n - 1].v;
}

/* hseries_get - panel @h's series called @name, added when new; the last
 * one ("other") takes the rest when the panel is full
 */
static struct hseries *hseries_get(struct hpanel *h, const char *name)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->s[i].name, name))
			return &h->s[i];
	if (h->n == MAX_HSERIES - 1 && strcmp(name, "other"))
		return hseries_get(h, "other");
	snprintf(h->s[h->n].name, sizeof(h->s[h->n].name), "%s", name);
	return &h->s[h->n++];
}

/* hpanel_add - @w values of @ns into series @name of @h */
static void hpanel_add(struct hpanel *h, const char *name, double ns, double w)
{
	struct hseries *s = hseries_get(h, name);

	s->count[svg_log2_bucket(ns)] += w;
	s->total += w;
	h->total += w;
	h->v[h->nv++] = (struct wval){ ns, w };
}

/* view_desc - what the session was: the command that called the TEE most,
 * its length, the kernel and the CPUs (the recording host's, from its
 * snapshots; a guest's paths never)
 */
static void view_desc(struct view *v)
{
	const struct session *r = v->r;
	const char *uname = snapshot_text(&r->snap[1], "uname");
	const char *nproc = snapshot_text(&r->snap[1], "nproc");
	struct { const char *comm; size_t n; } seen[16];
	const char *comm = NULL;
	size_t i, j, nseen = 0, best = 0, len;
	char dur[32];

	/* the comm with the most TEE calls (few distinct ones: a short list) */
	for (i = 0; i < r->ev.ntee; i++) {
		const char *c = session_comm(r, r->ev.tee[i].tid);

		if (!c || !*c)
			continue;
		for (j = 0; j < nseen && strcmp(seen[j].comm, c); j++)
			;
		if (j == nseen && nseen < ARRAY_SIZE(seen))
			seen[nseen++] = (typeof(seen[0])){ c, 0 };
		if (j == nseen)
			continue;
		if (++seen[j].n > best) {
			best = seen[j].n;
			comm = c;
		}
	}
	svg_format_ns(session_seconds(r) * 1e9, dur, sizeof(dur));
	len = snprintf(v->desc, sizeof(v->desc), "%s%s%s", comm ? comm : "",
		       comm ? ", " : "", dur);
	if (uname && len < sizeof(v->desc))
		len += snprintf(v->desc + len, sizeof(v->desc) - len, ", %.*s",
				(int)strcspn(uname, "\n"), uname);
	if (nproc && len < sizeof(v->desc))
		snprintf(v->desc + len, sizeof(v->desc) - len, ", %d CPUs", atoi(nproc));
}

/* view_build - read @v->input and compute everything its pictures show;
 * -1 after a message when it cannot
 */
static int view_build(struct view *v)
{
	const struct session_events *ev;
	size_t i, k, cap;

	v->r = session_read(v->input);
	if (!v->r)
		return -1;
	ev = &v->r->ev;
	if (series_build(ev, &v->s) || !v->s.n) {
		err_msg("plot: %s has no windows to plot\n", v->input);
		return -1;
	}
	view_desc(v);
	v->len_s = v->s.len_ns / 1e9;
	v->x = xzalloc(v->s.n * sizeof(*v->x) * (NR_LINES + 1));
	for (k = 0; k < NR_LINES; k++)
		v->y[k] = v->x + (k + 1) * v->s.n;
	for (i = 0; i < v->s.n; i++) {
		const struct win_point *w = &v->s.all[i];
		double len_ns = v->s.len_ns;

		v->x[i] = (i + 0.5) * v->len_s;
		v->y[L_BUSY][i] = ev->ntee ? w->tee_busy_ns / len_ns : NAN;
		v->y[L_ONCPU][i] = ev->ntee ? w->tee_oncpu_ns / len_ns : NAN;
		v->y[L_DELAY][i] = point_netrx_delay_ns(w) / 1e3;
		v->y[L_INLINE][i] = w->inline_n > 0 ?
				    w->inline_sum_ns / w->inline_n / 1e3 : NAN;
		v->y[L_KSD][i] = w->ksoftirqd_n > 0 ?
				 w->ksoftirqd_sum_ns / w->ksoftirqd_n / 1e3 : NAN;
		v->y[L_P99][i] = w->inline_n + w->ksoftirqd_n > 0 && w->delay_p99_ns > 0 ?
				 w->delay_p99_ns / 1e3 : NAN;
		v->y[L_HS][i] = point_handshake_ns(w) / 1e6;
		v->y[L_CONN][i] = w->connects > 0 ? w->connect_ns / w->connects / 1e6 : NAN;
		v->y[L_RATE][i] = w->hs / v->len_s;
	}

	cap = ev->ntee + 2 * ev->nnetrx + ev->nhs + 1;
	for (k = 0; k < NR_PANELS; k++)
		v->hp[k].v = xzalloc(cap * sizeof(*v->hp[k].v));
	/* the TEE calls by command, in the order the session names them */
	for (i = 0; i < ev->ntee; i++) {
		const char *name = session_cmd_name(v->r, ev->tee[i].cmd);
		char unknown[32];

		if (!name) {
			snprintf(unknown, sizeof(unknown), "cmd %u", ev->tee[i].cmd);
			name = unknown;
		}
		hpanel_add(&v->hp[P_TEE], name, (double)ev->tee[i].dur_ns, 1);
	}
	/* Per-run delays are not in the file: each run counts at the mean of
	 * its CPU window, inline and ksoftirqd apart.
	 */
	for (i = 0; i < ev->nnetrx; i++) {
		const struct netrx_win *w = &ev->netrx[i];

		if (w->inline_n > 0)
			hpanel_add(&v->hp[P_NETRX], "inline",
				   w->inline_sum_ns / w->inline_n, w->inline_n);
		if (w->ksoftirqd_n > 0)
			hpanel_add(&v->hp[P_NETRX], "ksoftirqd",
				   w->ksoftirqd_sum_ns / w->ksoftirqd_n, w->ksoftirqd_n);
	}
	for (i = 0; i < ev->nhs; i++) {
		const struct hs_event *h = &ev->hs[i];

		if (!h->client)
			hpanel_add(&v->hp[P_TCP], "server handshakes",
				   (double)(h->syn_synack_ns + h->synack_ack_ns +
					    h->ack_accept_ns), 1);
	}
	return 0;
}

/* view_free - what view_build() made */
static void view_free(struct view *v)
{
	int k;

	for (k = 0; k < NR_PANELS; k++)
		free(v->hp[k].v);
	if (v->x)
		series_free(&v->s);
	free(v->x);
	if (v->r)
		session_free(v->r);
}

/* drawn - whether line @k is drawn when @nv sessions share a picture */
static bool drawn(int k, size_t nv)
{
	return k != L_RATE && (nv == 1 || lines[k].main);
}

/* ranges_build - axes holding every drawn series of the @nv views in @v;
 * for a compare (@overlay) only the lines the compare draws count
 */
static void ranges_build(struct ranges *g, struct view *const *v, size_t nv,
			 bool overlay)
{
	double xmax = 0, rmax = 0, *all;
	double ylo[NR_PANELS], yhi[NR_PANELS], hlo[NR_PANELS], hhi[NR_PANELS];
	double htop[NR_PANELS] = { 0 };
	size_t i, j, m[NR_PANELS] = { 0 }, total = 0;
	int k, p, b;

	for (j = 0; j < nv; j++)
		total += v[j]->s.n * NR_LINES;
	all = xzalloc((total + 1) * NR_PANELS * sizeof(*all));
	for (p = 0; p < NR_PANELS; p++) {
		ylo[p] = hlo[p] = INFINITY;
		yhi[p] = hhi[p] = 0;
	}
	for (j = 0; j < nv; j++) {
		xmax = fmax(xmax, v[j]->s.n * v[j]->len_s);
		for (k = 0; k < NR_LINES; k++) {
			p = lines[k].panel;
			for (i = 0; i < v[j]->s.n; i++) {
				double y = v[j]->y[k][i];

				if (isnan(y) || isinf(y))
					continue;
				if (k == L_RATE) {
					rmax = fmax(rmax, y);
					continue;
				}
				if (!drawn(k, overlay ? nv : 1))
					continue;
				all[p * (total + 1) + m[p]++] = y;
				if (y > 0)
					ylo[p] = fmin(ylo[p], y);
				yhi[p] = fmax(yhi[p], y);
			}
		}
		for (p = 0; p < NR_PANELS; p++) {
			const struct hpanel *h = &v[j]->hp[p];

			for (k = 0; k < h->n; k++)
				for (b = 0; b < BUCKETS; b++) {
					if (!(h->s[k].count[b] > 0))
						continue;
					hlo[p] = fmin(hlo[p], ldexp(1, b));
					hhi[p] = fmax(hhi[p], ldexp(1, b + 1));
					htop[p] = fmax(htop[p], h->s[k].count[b]);
				}
		}
	}
	for (p = 0; p < NR_PANELS; p++) {
		struct svg_panel *t = &g->tl[p], *h = &g->h[p];

		*t = (struct svg_panel){
			.x = LEFT, .y = 75 + p * 240, .w = WIDTH - LEFT - RIGHT, .h = 175,
		};
		svg_nice_range(0, xmax, 12, &t->x0, &t->x1, &t->xstep);
		t->x0 = 0;
		/* TEE threads stay linear: 0 threads is the news */
		t->ylog = p != P_TEE && svg_wants_log(all + p * (total + 1), m[p]);
		if (t->ylog)
			svg_log_range(ylo[p], yhi[p], &t->y0, &t->y1);
		else
			svg_nice_range(0, yhi[p] > 0 ? yhi[p] : 1, 5, &t->y0, &t->y1,
				       &t->ystep);

		*h = (struct svg_panel){
			.x = LEFT, .y = 80 + p * 240, .w = WIDTH - LEFT - RIGHT, .h = 170,
			.xlog = true,
		};
		if (isinf(hlo[p])) {
			hlo[p] = 1e3;	/* an empty panel shows 1 us .. 1 ms */
			hhi[p] = 1e6;
		}
		svg_log_range(hlo[p], hhi[p], &h->x0, &h->x1);
		svg_nice_range(0, htop[p] > 0 ? htop[p] : 1, 4, &h->y0, &h->y1, &h->ystep);
	}
	svg_nice_range(0, rmax > 0 ? rmax : 1, 5, &g->rlo, &g->rhi, &g->rstep);
	free(all);
}

/* panel_meta - the panel's data ranges and pixels, for scripts and tests */
static void panel_meta(FILE *f, const char *picture, int p, const struct svg_panel *s)
{
	fprintf(f, "<g class=\"panel\" data-picture=\"%s\" data-panel=\"%s\" "
		"data-x0=\"%.9g\" data-x1=\"%.9g\" data-xlog=\"%d\" "
		"data-y0=\"%.9g\" data-y1=\"%.9g\" data-ylog=\"%d\" "
		"data-box=\"%g %g %g %g\"/>\n",
		picture, panel_id[p], s->x0, s->x1, s->xlog, s->y0, s->y1, s->ylog,
		s->x, s->y, s->w, s->h);
}

/* series_open - a group around one series' drawing, naming it */
static void series_open(FILE *f, int p, const char *session, const char *name,
			double total)
{
	char esc[128];

	svg_escape(name, esc, sizeof(esc));
	fprintf(f, "<g class=\"series\" data-panel=\"%s\" data-session=\"%s\" "
		"data-series=\"%s\" data-total=\"%.9g\">\n", panel_id[p], session,
		esc, total);
}

/* legend - @p's legend right of its title (@title_w pixels wide), or in
 * the panel's top right corner when both do not fit on the line
 */
static void legend(FILE *f, const struct svg_panel *p, double title_w,
		   const char *const *names, const char *const *colors, size_t n)
{
	double w = 0;
	size_t i;

	for (i = 0; i < n; i++)
		w += svg_text_width(names[i], 11) + 22;
	svg_legend(f, p->x + p->w - (title_w + w > p->w ? 6 : 0),
		   title_w + w > p->w ? p->y + 16 : p->y - 9, names, colors, n);
}

/* no_data - a note in the middle of an empty panel */
static void no_data(FILE *f, const struct svg_panel *p, const char *what)
{
	svg_text(f, p->x + p->w / 2, p->y + p->h / 2, "middle", 13,
		 "fill=\"#888\"", "%s", what);
}

/* open_out - create @path for writing, with a message when it cannot */
static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		err_msg("plot: cannot write %s: %m\n", path);
	return f;
}

/* close_out - finish @f; 0, or -1 after a message when writing failed */
static int close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (fclose(f) || bad) {
		err_msg("plot: cannot write %s\n", path);
		return -1;
	}
	printf("teeprobe plot: wrote %s\n", path);
	return 0;
}

/* session_color - a session's colour in a compare */
static const char *session_color(size_t j)
{
	return j ? C_ORANGE : C_BLUE;
}

/* headline - the picture's title and, below it, what each session was:
 * with @detail under one session; in a compare the sessions are named in
 * their colours when @detail is NULL (timeline), else with their dashes
 */
static void headline(FILE *f, const char *title, const char *what,
		     struct view *const *v, size_t nv, const char *detail)
{
	size_t j;

	if (title)
		svg_text(f, WIDTH / 2, 20, "middle", 17, "font-weight=\"bold\"",
			 "%s: %s", title, what);
	else
		svg_text(f, WIDTH / 2, 20, "middle", 17, "font-weight=\"bold\"",
			 "%s%s", nv > 1 ? "before vs after: " : "", what);
	if (nv == 1) {
		svg_text(f, WIDTH / 2, 36, "middle", 12, "fill=\"#333\"", "%s", v[0]->desc);
		svg_text(f, WIDTH / 2, 50, "middle", 11, "fill=\"#555\"", "%s", detail);
		return;
	}
	/* a timeline tells the sessions by colour, a histogram by dashes */
	for (j = 0; j < nv; j++) {
		char style[64];

		snprintf(style, sizeof(style), "fill=\"%s\"", detail ? "#333" : session_color(j));
		svg_text(f, WIDTH / 2, 36 + 13 * j, "middle", 12, style, "%s%s: %s",
			 v[j]->label, !detail ? "" : j ? " (solid)" : " (dashed)", v[j]->desc);
	}
}

/* timeline - the chain, window by window, of @nv sessions on @g's axes */
static int timeline(const char *path, struct view *const *v, size_t nv,
		    const struct ranges *g, const char *title)
{
	static const char *const panel_title[NR_PANELS] = {
		"TEE: threads inside TEE ioctls", "NET_RX: raise -> entry delay",
		"TCP: mean handshake time",
	};
	const char *names[2 * NR_LINES], *colors[2 * NR_LINES];
	char detail[160], label[64];
	size_t i, j, nl;
	FILE *f;
	int p, k;

	f = open_out(path);
	if (!f)
		return -1;
	svg_begin(f, WIDTH, HEIGHT);
	snprintf(detail, sizeof(detail), "%zu windows of %g ms, %zu TEE calls, %zu handshake events",
		 v[0]->s.n, v[0]->s.len_ns / 1e6, v[0]->r->ev.ntee, v[0]->r->ev.nhs);
	headline(f, title, "the chain over time", v, nv, nv > 1 ? NULL : detail);

	for (p = 0; p < NR_PANELS; p++) {
		const struct svg_panel *s = &g->tl[p];
		const char *unit = p == P_TEE ? "threads (average)" : p == P_NETRX ? "us" : "ms";
		bool any = false;

		snprintf(label, sizeof(label), "%s%s", unit, s->ylog ? " (log scale)" : "");
		svg_axes(f, s, true, label);
		panel_meta(f, "timeline", p, s);
		/* handshakes/s as light bars behind, on the right-hand axis */
		if (p == P_TCP && nv == 1) {
			for (i = 0; i < v[0]->s.n; i++) {
				double r = v[0]->y[L_RATE][i], len = v[0]->len_s;
				double h = r / g->rhi * s->h, x0 = svg_px(s, i * len);
				double bw = svg_px(s, (i + 1) * len) - x0;

				if (r > 0)
					fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
						"height=\"%.1f\" fill=\"%s\"/>\n", x0,
						s->y + s->h - h, bw > 1.5 ? bw - 0.5 : bw, h, C_BAR);
			}
			svg_right_axis(f, s, g->rlo, g->rhi, g->rstep, "handshakes/s",
				       "#4a7fb0");
		}
		nl = 0;
		for (j = 0; j < nv; j++) {
			for (k = 0; k < NR_LINES; k++) {
				const char *color = nv > 1 ? session_color(j) : lines[k].color;

				if (lines[k].panel != p || !drawn(k, nv))
					continue;
				series_open(f, p, v[j]->label, lines[k].name, v[j]->s.n);
				if (svg_path(f, s, v[j]->x, v[j]->y[k], v[j]->s.n, color,
					     lines[k].width, lines[k].dash))
					any = true;
				fprintf(f, "</g>\n");
				names[nl] = nv > 1 ? v[j]->label : lines[k].name;
				colors[nl++] = color;
			}
		}
		if (p == P_TCP && nv == 1) {
			names[nl] = "handshakes/s";
			colors[nl++] = C_BAR;
		}
		if (nv > 1 && p == P_NETRX)
			snprintf(label, sizeof(label), "%s, mean", panel_title[p]);
		else if (nv > 1 && p == P_TCP)
			snprintf(label, sizeof(label), "TCP: mean server handshake time");
		else
			snprintf(label, sizeof(label), "%s", panel_title[p]);
		svg_text(f, s->x, s->y - 9, "start", 13, "font-weight=\"bold\"", "%s", label);
		legend(f, s, svg_text_width(label, 13) * 1.1, names, colors, nl);
		if (!any)
			no_data(f, s, p == P_TEE ? "no TEE calls" :
				p == P_NETRX ? "no NET_RX runs" : "no handshakes");
	}
	svg_text(f, LEFT + g->tl[P_TCP].w / 2, g->tl[P_TCP].y + g->tl[P_TCP].h + 38,
		 "middle", 12, NULL, "time (s) since the first window");
	svg_end(f);
	return close_out(f, path);
}

/* step_path - series @s of a histogram as a step outline on @p */
static void step_path(FILE *f, const struct svg_panel *p, const struct hseries *s,
		      const char *color, const char *dash, bool fill)
{
	int b, lo = BUCKETS, hi = -1;

	for (b = 0; b < BUCKETS; b++)
		if (s->count[b] > 0) {
			lo = b < lo ? b : lo;
			hi = b;
		}
	if (hi < 0)
		return;
	fprintf(f, "<path fill=\"%s\" fill-opacity=\"0.15\" stroke=\"%s\" "
		"stroke-width=\"1.6\"%s%s%s d=\"M%.1f %.1f", fill ? color : "none",
		color, dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
		dash ? "\"" : "", svg_px(p, ldexp(1, lo)), svg_py(p, 0));
	for (b = lo; b <= hi; b++)
		fprintf(f, "V%.1fH%.1f", svg_py(p, s->count[b]), svg_px(p, ldexp(1, b + 1)));
	fprintf(f, "V%.1f\"/>\n", svg_py(p, 0));
}

/* hcolor - the colour of histogram series @name of panel @p, the same in
 * every session of the picture: by its first appearance over @v
 */
static const char *hcolor(struct view *const *v, size_t nv, int p, const char *name)
{
	static const char *const net[] = { C_GREEN, C_RED };
	size_t j, n = 0;
	int k, i;

	if (p == P_TCP)
		return C_ORANGE;
	for (j = 0; j < nv; j++)
		for (k = 0; k < v[j]->hp[p].n; k++) {
			const char *s = v[j]->hp[p].s[k].name;
			bool seen = false;

			for (i = 0; i < k && !seen; i++)
				seen = !strcmp(v[j]->hp[p].s[i].name, s);
			for (size_t jj = 0; jj < j && !seen; jj++)
				for (i = 0; i < v[jj]->hp[p].n && !seen; i++)
					seen = !strcmp(v[jj]->hp[p].s[i].name, s);
			if (!strcmp(s, name))
				return p == P_NETRX ? net[n % 2] :
				       cmd_palette[n % ARRAY_SIZE(cmd_palette)];
			n += !seen;
		}
	return C_GREY;
}

/* quantiles - dashed p50 and p99 lines of one session's values */
static void quantiles(FILE *f, const struct svg_panel *p, struct hpanel *h)
{
	char buf[32], val[32];
	int g;

	for (g = 0; g < 2; g++) {
		double q = percentile(h->v, h->nv, g ? 0.99 : 0.50), px = svg_px(p, q);
		const char *c = g ? C_RED : "#333";

		if (isnan(px))
			continue;
		svg_format_ns(q, val, sizeof(val));
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n",
			px, p->y, px, p->y + p->h, c);
		snprintf(buf, sizeof(buf), "fill=\"%s\"", c);
		/* near the right edge the label goes left of its line */
		svg_text(f, px > p->x + p->w - 90 ? px - 4 : px + 4, p->y + 14 + 14 * g,
			 px > p->x + p->w - 90 ? "end" : "start", 11, buf, "%s %s",
			 g ? "p99" : "p50", val);
	}
}

/* histograms - TEE calls per command, NET_RX delays, handshakes: of @nv
 * sessions on @g's axes (a compare draws BEFORE dashed, AFTER solid)
 */
static int histograms(const char *path, struct view *const *v, size_t nv,
		      const struct ranges *g, const char *title)
{
	static const char *const what[NR_PANELS] = {
		"TEE ioctls by command", "NET_RX raise -> entry delay",
		"TCP server handshake, SYN -> accept",
	};
	static const char *const unit[NR_PANELS] = { "calls", "runs", "handshakes" };
	const char *names[MAX_HSERIES * MAX_VIEWS], *colors[MAX_HSERIES * MAX_VIEWS];
	char t[200], counts[120];
	size_t j, nl, len;
	FILE *f;
	int p, k, i;

	f = open_out(path);
	if (!f)
		return -1;
	svg_begin(f, WIDTH, HEIGHT);
	headline(f, title, "latency histograms", v, nv,
		 "log2 buckets; dashed lines: p50 and p99 of the values");
	for (p = 0; p < NR_PANELS; p++) {
		const struct svg_panel *s = &g->h[p];

		svg_axes(f, s, true, "count");
		panel_meta(f, "hist", p, s);
		nl = 0;
		len = 0;
		counts[0] = '\0';
		for (j = 0; j < nv; j++) {
			struct hpanel *h = &v[j]->hp[p];

			for (k = 0; k < h->n; k++) {
				const char *c = hcolor(v, nv, p, h->s[k].name);
				bool seen = false;

				series_open(f, p, v[j]->label, h->s[k].name, h->s[k].total);
				step_path(f, s, &h->s[k], c, nv > 1 && j == 0 ? "5 3" : NULL,
					  nv == 1);
				fprintf(f, "</g>\n");
				for (i = 0; i < (int)nl && !seen; i++)
					seen = !strcmp(names[i], h->s[k].name);
				if (!seen) {
					names[nl] = h->s[k].name;
					colors[nl++] = c;
				}
			}
			if (len < sizeof(counts))
				len += snprintf(counts + len, sizeof(counts) - len, "%s%.0f",
						j ? " vs " : "", h->total);
			if (nv == 1)
				quantiles(f, s, h);
		}
		snprintf(t, sizeof(t), "%s (%s %s%s)", what[p], counts, unit[p],
			 p == P_NETRX ? ", each at its CPU window's mean" : "");
		svg_text(f, s->x, s->y - 9, "start", 13, "font-weight=\"bold\"", "%s", t);
		legend(f, s, svg_text_width(t, 13) * 1.1, names, colors, nl);
		for (j = 0; j < nv && v[j]->hp[p].total == 0; j++)
			;
		if (j == nv)
			no_data(f, s, "nothing recorded");
	}
	svg_end(f);
	return close_out(f, path);
}

/* csv_timeline - every timeline series of @v, one row per window */
static void csv_timeline(FILE *f, struct view *const *v, size_t nv)
{
	size_t i, j;
	int k;

	fprintf(f, "session,panel,series,x_lo,x_hi,x_unit,value,unit\n");
	for (j = 0; j < nv; j++)
		for (k = 0; k < NR_LINES; k++)
			for (i = 0; i < v[j]->s.n; i++) {
				double y = v[j]->y[k][i];

				fprintf(f, "%s,%s,%s,%.6f,%.6f,s,", v[j]->label,
					panel_id[lines[k].panel], lines[k].name,
					i * v[j]->len_s, (i + 1) * v[j]->len_s);
				if (!isnan(y) && !isinf(y))
					fprintf(f, "%.9g", y);
				fprintf(f, ",%s\n", lines[k].unit);
			}
}

/* csv_hist - every histogram series of @v, one row per non-empty bucket */
static void csv_hist(FILE *f, struct view *const *v, size_t nv)
{
	size_t j;
	int p, k, b;

	fprintf(f, "session,panel,series,x_lo,x_hi,x_unit,value,unit\n");
	for (j = 0; j < nv; j++)
		for (p = 0; p < NR_PANELS; p++)
			for (k = 0; k < v[j]->hp[p].n; k++)
				for (b = 0; b < BUCKETS; b++) {
					const struct hseries *s = &v[j]->hp[p].s[k];

					if (s->count[b] > 0)
						fprintf(f, "%s,%s,%s,%.0f,%.0f,ns,%.9g,count\n",
							v[j]->label, panel_id[p], s->name,
							ldexp(1, b), ldexp(1, b + 1), s->count[b]);
				}
}

/* write_csv - @kind's CSV of @v at PREFIX-@kind.csv */
static int write_csv(const char *prefix, const char *kind, struct view *const *v,
		     size_t nv)
{
	char *path = xzalloc(strlen(prefix) + strlen(kind) + 6);
	FILE *f;
	int rc;

	sprintf(path, "%s-%s.csv", prefix, kind);
	f = open_out(path);
	if (!f) {
		free(path);
		return -1;
	}
	if (!strcmp(kind, "timeline"))
		csv_timeline(f, v, nv);
	else
		csv_hist(f, v, nv);
	rc = close_out(f, path);
	free(path);
	return rc;
}

/* pictures - PREFIX-timeline.svg and PREFIX-hist.svg (and their CSV) of
 * @nv sessions in one picture each, on @g's axes; 0 or -1
 */
static int pictures(const char *prefix, struct view *const *v, size_t nv,
		    const struct ranges *g, const struct plot_opts *o)
{
	char *path = xzalloc(strlen(prefix) + sizeof("-timeline.svg"));
	int rc = 0;

	sprintf(path, "%s-timeline.svg", prefix);
	rc |= timeline(path, v, nv, g, o->title);
	sprintf(path, "%s-hist.svg", prefix);
	rc |= histograms(path, v, nv, g, o->title);
	if (o->csv) {
		rc |= write_csv(prefix, "timeline", v, nv);
		rc |= write_csv(prefix, "hist", v, nv);
	}
	free(path);
	return rc ? -1 : 0;
}

/* default_prefix - @input without .dat, then @tail */
static char *default_prefix(const char *input, const char *tail)
{
	size_t len = strlen(input);
	char *s = xzalloc(len + strlen(tail) + 1);

	memcpy(s, input, len);
	if (len > 4 && !strcmp(s + len - 4, ".dat"))
		s[len - 4] = '\0';
	strcat(s, tail);
	return s;
}

/* plot_main - entry point of teeprobe plot */
int plot_main(int argc, char **argv)
{
	enum { OPT_CSV = 256, OPT_SEPARATE, OPT_SAME_AXES };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "separate", no_argument, NULL, OPT_SEPARATE },
		{ "same-axes", no_argument, NULL, OPT_SAME_AXES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct view views[MAX_VIEWS] = { { 0 } }, *v[MAX_VIEWS];
	const char *in_opt[MAX_VIEWS + 1] = { NULL };
	struct plot_opts o = { 0 };
	struct ranges g;
	size_t nv = 0, nr_opt = 0, j;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, "i:o:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (nr_opt == MAX_VIEWS) {
				err_msg("plot: -i %s is a third session; plot takes one, or BEFORE and AFTER\n",
					optarg);
				return usage_error("plot", plot_usage);
			}
			in_opt[nr_opt++] = optarg;
			break;
		case 'o':
			o.prefix = optarg;
			break;
		case 't':
			o.title = optarg;
			break;
		case OPT_CSV:
			o.csv = true;
			break;
		case OPT_SEPARATE:
			o.separate = true;
			break;
		case OPT_SAME_AXES:
			o.same_axes = true;
			break;
		case 'h':
			plot_usage(stdout);
			return 0;
		default:
			return usage_error("plot", plot_usage);
		}
	}
	if (nr_opt == 2 || argc - optind == 2) {
		if (nr_opt && optind < argc) {
			err_msg("plot: give the sessions as -i BEFORE -i AFTER or as BEFORE AFTER, not both\n");
			return usage_error("plot", plot_usage);
		}
		views[0].input = nr_opt ? in_opt[0] : argv[optind];
		views[1].input = nr_opt ? in_opt[1] : argv[optind + 1];
		views[0].label = "before";
		views[1].label = "after";
		nv = 2;
	} else {
		views[0].input = "trace.dat";
		if (input_arg("plot", in_opt[0], argc, argv, optind, &views[0].input))
			return usage_error("plot", plot_usage);
		views[0].label = "session";
		nv = 1;
	}
	if ((o.separate || o.same_axes) && nv == 1) {
		err_msg("plot: --separate and --same-axes are for two sessions, BEFORE AFTER\n");
		return usage_error("plot", plot_usage);
	}
	if (o.same_axes && !o.separate) {
		err_msg("plot: --same-axes goes with --separate (a compare always has them)\n");
		return usage_error("plot", plot_usage);
	}
	if (o.prefix && !*o.prefix) {
		err_msg("plot: the output prefix is empty\n");
		return 2;
	}
	for (j = 0; j < nv; j++) {
		v[j] = &views[j];
		if (view_build(v[j])) {
			rc = 1;
			goto out;
		}
	}

	if (nv == 1 || !o.separate) {
		char *prefix = o.prefix ? xstrdup(o.prefix) :
			       default_prefix(v[nv - 1]->input, nv > 1 ? "-compare" : "");

		ranges_build(&g, v, nv, true);
		rc = pictures(prefix, v, nv, &g, &o) ? 1 : 0;
		free(prefix);
		goto out;
	}
	if (o.same_axes)
		ranges_build(&g, v, nv, false);
	for (j = 0; j < nv; j++) {
		char *prefix;

		if (o.prefix) {
			prefix = xzalloc(strlen(o.prefix) + 8);
			sprintf(prefix, "%s-%s", o.prefix, v[j]->label);
		} else {
			prefix = default_prefix(v[j]->input, "");
		}
		if (!o.same_axes)
			ranges_build(&g, &v[j], 1, true);
		if (pictures(prefix, &v[j], 1, &g, &o))
			rc = 1;
		free(prefix);
	}
out:
	for (j = 0; j < nv; j++)
		view_free(&views[j]);
	return rc;
}
