// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - "teeprobe plot": a recorded session as two SVG pictures, the
 * chain over time (TEE -> NET_RX -> TCP handshakes, one panel each on a
 * shared time axis) and the latency histograms of each link.
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
#define MAX_LINES	4
#define BUCKETS		64

/* Colours: blue, orange, green, red, grey (colour-blind friendly enough) */
#define C_BLUE		"#1f77b4"
#define C_ORANGE	"#ff7f0e"
#define C_GREEN		"#2ca02c"
#define C_RED		"#d62728"
#define C_GREY		"#999999"
#define C_BAR		"#c6dbef"

/* One line of a timeline panel */
struct line {
	const char *name, *color, *dash;
	double width;
	double *y;
};

/* A weighted value, for percentiles */
struct wval {
	double v, w;
};

/* plot_usage - help for teeprobe plot */
static void plot_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe plot [-o PREFIX] [--title TEXT] [-i FILE | FILE]\n\n"
		"Writes two SVG pictures of a session recorded with 'teeprobe record':\n"
		"  PREFIX-timeline.svg  threads in TEE ioctls, the NET_RX raise->entry\n"
		"                       delay and the TCP handshake time, per window,\n"
		"                       on one time axis\n"
		"  PREFIX-hist.svg      histograms of the TEE ioctl durations, of the\n"
		"                       NET_RX delays and of the server handshake times\n\n"
		"  -i, --input FILE    the recorded session (default trace.dat); or FILE\n"
		"  -o, --output PREFIX the pictures' prefix (default FILE without .dat)\n"
		"  -t, --title TEXT    a title above both pictures\n");
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

/* y_range - set @p's y axis to hold the lines' values: log10 decades when
 * they span two decades or more, else linear from 0
 */
static void y_range(struct svg_panel *p, const struct line *l, size_t nl, size_t n,
		    bool allow_log)
{
	double lo = INFINITY, hi = 0, *all;
	size_t i, k, m = 0;

	all = xzalloc(nl * n * sizeof(*all));
	for (k = 0; k < nl; k++)
		for (i = 0; i < n; i++) {
			double v = l[k].y[i];

			if (isnan(v) || isinf(v))
				continue;
			all[m++] = v;
			if (v > 0)
				lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	p->ylog = allow_log && svg_wants_log(all, m);
	free(all);
	if (p->ylog)
		svg_log_range(lo, hi, &p->y0, &p->y1);
	else
		svg_nice_range(0, hi > 0 ? hi : 1, 5, &p->y0, &p->y1, &p->ystep);
}

/* panel_head - a panel's title on the left above it, its legend on the right */
static void panel_head(FILE *f, const struct svg_panel *p, const char *title,
		       const struct line *l, size_t nl, const char *extra,
		       const char *extra_color)
{
	const char *names[MAX_LINES + 1], *colors[MAX_LINES + 1];
	size_t k;

	svg_text(f, p->x, p->y - 9, "start", 13, "font-weight=\"bold\"", "%s", title);
	for (k = 0; k < nl; k++) {
		names[k] = l[k].name;
		colors[k] = l[k].color;
	}
	if (extra) {
		names[nl] = extra;
		colors[nl++] = extra_color;
	}
	svg_legend(f, p->x + p->w, p->y - 9, names, colors, nl);
}

/* no_data - a note in the middle of an empty panel */
static void no_data(FILE *f, const struct svg_panel *p, const char *what)
{
	svg_text(f, p->x + p->w / 2, p->y + p->h / 2, "middle", 13,
		 "fill=\"#888\"", "%s", what);
}

/* draw_lines - every line of a panel, in order */
static int draw_lines(FILE *f, const struct svg_panel *p, const double *x,
		      const struct line *l, size_t nl, size_t n)
{
	int pieces = 0;
	size_t k;

	for (k = 0; k < nl; k++)
		pieces += svg_path(f, p, x, l[k].y, n, l[k].color, l[k].width, l[k].dash);
	return pieces;
}

/* open_svg - create @path for writing, with a message when it cannot */
static FILE *open_svg(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		err_msg("plot: cannot write %s: %m\n", path);
	return f;
}

/* close_svg - finish @f; 0, or -1 after a message when writing failed */
static int close_svg(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (fclose(f) || bad) {
		err_msg("plot: cannot write %s\n", path);
		return -1;
	}
	printf("teeprobe plot: wrote %s\n", path);
	return 0;
}

/* headline - the picture's title and its second line */
static void headline(FILE *f, const char *title, const char *input, const char *what,
		     const char *detail)
{
	if (title)
		svg_text(f, WIDTH / 2, 24, "middle", 17, "font-weight=\"bold\"",
			 "%s: %s (%s)", title, what, input);
	else
		svg_text(f, WIDTH / 2, 24, "middle", 17, "font-weight=\"bold\"",
			 "%s: %s", input, what);
	svg_text(f, WIDTH / 2, 42, "middle", 12, "fill=\"#555\"", "%s", detail);
}

/* timeline - PREFIX-timeline.svg: the chain, window by window */
static int timeline(const char *path, const struct series *s,
		    const struct session_events *ev, const char *input,
		    const char *title)
{
	double len_s = s->len_ns / 1e9, *x, *busy, *oncpu, *delay, *inl, *ksd;
	double *p99, *hs, *conn, *rate, rlo, rhi, rstep, rmax = 0;
	struct svg_panel p[3];
	bool any_tee = ev->ntee > 0, any_net = false, any_hs = false;
	char detail[160];
	FILE *f;
	size_t i;
	int k;

	x = xzalloc(s->n * sizeof(*x) * 10);
	busy = x + s->n;
	oncpu = busy + s->n;
	delay = oncpu + s->n;
	inl = delay + s->n;
	ksd = inl + s->n;
	p99 = ksd + s->n;
	hs = p99 + s->n;
	conn = hs + s->n;
	rate = conn + s->n;
	for (i = 0; i < s->n; i++) {
		const struct win_point *w = &s->all[i];

		x[i] = (i + 0.5) * len_s;
		busy[i] = any_tee ? w->tee_busy_ns / s->len_ns : NAN;
		oncpu[i] = any_tee ? w->tee_oncpu_ns / s->len_ns : NAN;
		delay[i] = point_netrx_delay_ns(w) / 1e3;
		inl[i] = w->inline_n > 0 ? w->inline_sum_ns / w->inline_n / 1e3 : NAN;
		ksd[i] = w->ksoftirqd_n > 0 ? w->ksoftirqd_sum_ns / w->ksoftirqd_n / 1e3 : NAN;
		p99[i] = w->inline_n + w->ksoftirqd_n > 0 && w->delay_p99_ns > 0 ?
			 w->delay_p99_ns / 1e3 : NAN;
		hs[i] = point_handshake_ns(w) / 1e6;
		conn[i] = w->connects > 0 ? w->connect_ns / w->connects / 1e6 : NAN;
		rate[i] = w->hs / len_s;
		rmax = fmax(rmax, rate[i]);
		any_net |= !isnan(delay[i]);
		any_hs |= !isnan(hs[i]) || !isnan(conn[i]);
	}

	struct line tee[] = {
		{ "in TEE ioctls", C_BLUE, NULL, 1.6, busy },
		{ "of which on CPU", C_ORANGE, NULL, 1.6, oncpu },
	};
	struct line net[] = {
		{ "p99 (upper bound)", C_GREY, "4 3", 1.0, p99 },
		{ "ksoftirqd", C_RED, NULL, 1.2, ksd },
		{ "inline", C_GREEN, NULL, 1.2, inl },
		{ "mean", C_BLUE, NULL, 1.8, delay },
	};
	struct line tcp[] = {
		{ "client connect", C_ORANGE, NULL, 1.4, conn },
		{ "server handshake", C_BLUE, NULL, 1.8, hs },
	};

	for (k = 0; k < 3; k++) {
		p[k] = (struct svg_panel){
			.x = LEFT, .y = 75 + k * 240, .w = WIDTH - LEFT - RIGHT, .h = 175,
			.x0 = 0, .x1 = s->n * len_s,
		};
		svg_nice_range(0, s->n * len_s, 12, &p[k].x0, &p[k].x1, &p[k].xstep);
		p[k].x0 = 0;
	}
	y_range(&p[0], tee, 2, s->n, false);
	y_range(&p[1], net, 4, s->n, true);
	y_range(&p[2], tcp, 2, s->n, true);
	svg_nice_range(0, rmax > 0 ? rmax : 1, 5, &rlo, &rhi, &rstep);

	f = open_svg(path);
	if (!f) {
		free(x);
		return -1;
	}
	svg_begin(f, WIDTH, HEIGHT);
	snprintf(detail, sizeof(detail), "%zu windows of %g ms, %d CPUs, %zu TEE calls, %zu handshake events",
		 s->n, s->len_ns / 1e6, s->ncpus, ev->ntee, ev->nhs);
	headline(f, title, input, "the chain over time", detail);

	/* (a) TEE */
	svg_axes(f, &p[0], true, "threads (average)");
	panel_head(f, &p[0], "TEE: threads inside TEE ioctls", tee, 2, NULL, NULL);
	if (!any_tee)
		no_data(f, &p[0], "no TEE calls in this session");
	draw_lines(f, &p[0], x, tee, 2, s->n);

	/* (b) NET_RX */
	svg_axes(f, &p[1], true, p[1].ylog ? "us (log scale)" : "us");
	panel_head(f, &p[1], "NET_RX: raise -> entry delay", net, 4, NULL, NULL);
	if (!any_net)
		no_data(f, &p[1], "no NET_RX runs in this session");
	draw_lines(f, &p[1], x, net, 4, s->n);

	/* (c) TCP: handshakes/s as light bars behind, on the right axis */
	svg_axes(f, &p[2], true, p[2].ylog ? "ms (log scale)" : "ms");
	for (i = 0; i < s->n; i++) {
		double h = rate[i] / rhi * p[2].h, x0 = svg_px(&p[2], i * len_s);
		double bw = svg_px(&p[2], (i + 1) * len_s) - x0;

		if (rate[i] > 0)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\"/>\n",
				x0, p[2].y + p[2].h - h, bw > 1.5 ? bw - 0.5 : bw, h, C_BAR);
	}
	svg_right_axis(f, &p[2], rlo, rhi, rstep, "handshakes/s", "#4a7fb0");
	panel_head(f, &p[2], "TCP: mean handshake time", tcp, 2, "handshakes/s", C_BAR);
	if (!any_hs)
		no_data(f, &p[2], "no handshakes in this session");
	draw_lines(f, &p[2], x, tcp, 2, s->n);

	svg_text(f, LEFT + p[2].w / 2, p[2].y + p[2].h + 38, "middle", 12, NULL,
		 "time (s) since the first window");
	svg_end(f);
	free(x);
	return close_svg(f, path);
}

/* histogram - one panel of PREFIX-hist.svg: log2 buckets of @v (ns, with
 * weights), stacked by @group (0 or 1) when @names[1] is set
 */
static void histogram(FILE *f, struct svg_panel *p, const char *title,
		      struct wval *v, const int *group, size_t n,
		      const char *const *names, const char *const *colors)
{
	double count[2][BUCKETS] = { { 0 } }, top = 0, lo = INFINITY, hi = 0;
	double p50, p99, total = 0;
	char buf[32], b50[32], b99[32];
	size_t i;
	int b, g;

	for (i = 0; i < n; i++) {
		b = svg_log2_bucket(v[i].v);
		g = group ? group[i] : 0;
		count[g][b] += v[i].w;
		total += v[i].w;
		if (v[i].w > 0) {
			lo = fmin(lo, ldexp(1, b));
			hi = fmax(hi, ldexp(1, b + 1));
		}
	}
	for (b = 0; b < BUCKETS; b++)
		top = fmax(top, count[0][b] + count[1][b]);
	if (!(total > 0)) {
		lo = 1e3;	/* an empty panel shows 1 us .. 1 ms */
		hi = 1e6;
	}
	svg_log_range(lo, hi, &p->x0, &p->x1);
	svg_nice_range(0, top > 0 ? top : 1, 4, &p->y0, &p->y1, &p->ystep);
	p->xlog = true;
	svg_axes(f, p, true, "count");
	svg_text(f, p->x, p->y - 9, "start", 13, "font-weight=\"bold\"", "%s", title);
	svg_legend(f, p->x + p->w, p->y - 9, names, colors, names[1] ? 2 : 1);
	if (!(total > 0)) {
		no_data(f, p, "nothing recorded");
		return;
	}
	for (b = 0; b < BUCKETS; b++) {
		double x0 = svg_px(p, ldexp(1, b)), x1 = svg_px(p, ldexp(1, b + 1));
		double base = 0;

		for (g = 0; g < 2; g++) {
			double y0, y1;

			if (!(count[g][b] > 0))
				continue;
			y0 = svg_py(p, base);
			y1 = svg_py(p, base + count[g][b]);
			/* a bucket of a few values still shows */
			if (y0 - y1 < 1.5)
				y1 = y0 - 1.5;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"%s\" stroke=\"white\" stroke-width=\"0.5\"/>\n",
				x0, y1, x1 - x0, y0 - y1, colors[g]);
			base += count[g][b];
		}
	}
	p50 = percentile(v, n, 0.50);
	p99 = percentile(v, n, 0.99);
	svg_format_ns(p50, b50, sizeof(b50));
	svg_format_ns(p99, b99, sizeof(b99));
	for (g = 0; g < 2; g++) {
		double q = g ? p99 : p50, px = svg_px(p, q);
		const char *c = g ? C_RED : "#333";

		if (isnan(px))
			continue;
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n",
			px, p->y, px, p->y + p->h, c);
		snprintf(buf, sizeof(buf), "fill=\"%s\"", c);
		/* near the right edge the label goes left of its line */
		if (px > p->x + p->w - 90)
			svg_text(f, px - 4, p->y + 14 + 14 * g, "end", 11, buf, "%s %s",
				 g ? "p99" : "p50", g ? b99 : b50);
		else
			svg_text(f, px + 4, p->y + 14 + 14 * g, "start", 11, buf, "%s %s",
				 g ? "p99" : "p50", g ? b99 : b50);
	}
}

/* histograms - PREFIX-hist.svg: TEE calls, NET_RX delays, handshakes */
static int histograms(const char *path, const struct session_events *ev,
		      const char *input, const char *title)
{
	static const char *const tee_names[] = { "TEE ioctls", NULL };
	static const char *const tee_colors[] = { C_BLUE, NULL };
	static const char *const net_names[] = { "inline", "ksoftirqd" };
	static const char *const net_colors[] = { C_GREEN, C_RED };
	static const char *const hs_names[] = { "server handshakes", NULL };
	static const char *const hs_colors[] = { C_ORANGE, NULL };
	size_t i, n, cap = ev->ntee;
	struct svg_panel p[3];
	char t[160], detail[160];
	struct wval *v;
	int *grp;
	double runs = 0;
	FILE *f;
	int k;

	if (2 * ev->nnetrx > cap)
		cap = 2 * ev->nnetrx;
	if (ev->nhs > cap)
		cap = ev->nhs;
	v = xzalloc((cap + 1) * sizeof(*v));
	grp = xzalloc((cap + 1) * sizeof(*grp));
	for (k = 0; k < 3; k++)
		p[k] = (struct svg_panel){
			.x = LEFT, .y = 80 + k * 240, .w = WIDTH - LEFT - RIGHT, .h = 170,
		};
	f = open_svg(path);
	if (!f) {
		free(v);
		free(grp);
		return -1;
	}
	svg_begin(f, WIDTH, HEIGHT);
	snprintf(detail, sizeof(detail), "log2 buckets; dashed lines: p50 and p99 of the values");
	headline(f, title, input, "latency histograms", detail);

	for (i = 0; i < ev->ntee; i++)
		v[i] = (struct wval){ (double)ev->tee[i].dur_ns, 1 };
	snprintf(t, sizeof(t), "TEE ioctl duration (%zu calls)", ev->ntee);
	histogram(f, &p[0], t, v, NULL, ev->ntee, tee_names, tee_colors);

	/* Per-run delays are not in the file: each run counts at the mean of
	 * its CPU window, inline and ksoftirqd apart.
	 */
	for (i = n = 0; i < ev->nnetrx; i++) {
		const struct netrx_win *w = &ev->netrx[i];

		if (w->inline_n > 0) {
			v[n] = (struct wval){ w->inline_sum_ns / w->inline_n, w->inline_n };
			grp[n++] = 0;
		}
		if (w->ksoftirqd_n > 0) {
			v[n] = (struct wval){ w->ksoftirqd_sum_ns / w->ksoftirqd_n,
					      w->ksoftirqd_n };
			grp[n++] = 1;
		}
		runs += w->inline_n + w->ksoftirqd_n;
	}
	snprintf(t, sizeof(t), "NET_RX raise -> entry delay (%.0f runs, each at its CPU window's mean)",
		 runs);
	histogram(f, &p[1], t, v, grp, n, net_names, net_colors);

	for (i = n = 0; i < ev->nhs; i++) {
		const struct hs_event *h = &ev->hs[i];

		if (h->client)
			continue;
		v[n++] = (struct wval){ (double)(h->syn_synack_ns + h->synack_ack_ns +
						 h->ack_accept_ns), 1 };
	}
	snprintf(t, sizeof(t), "TCP server handshake, SYN -> accept (%zu handshakes)", n);
	histogram(f, &p[2], t, v, NULL, n, hs_names, hs_colors);
	svg_end(f);
	free(v);
	free(grp);
	return close_svg(f, path);
}

/* plot_main - entry point of teeprobe plot */
int plot_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *input = "trace.dat", *prefix = NULL, *title = NULL;
	const char *in_opt = NULL;
	char *base, *path;
	struct session *r;
	struct series s;
	size_t len;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, "i:o:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			in_opt = optarg;
			break;
		case 'o':
			prefix = optarg;
			break;
		case 't':
			title = optarg;
			break;
		case 'h':
			plot_usage(stdout);
			return 0;
		default:
			return usage_error("plot", plot_usage);
		}
	}
	if (input_arg("plot", in_opt, argc, argv, optind, &input))
		return usage_error("plot", plot_usage);
	if (prefix && !*prefix) {
		err_msg("plot: the output prefix is empty\n");
		return 2;
	}
	base = xstrdup(prefix ? prefix : input);
	len = strlen(base);
	if (!prefix && len > 4 && !strcmp(base + len - 4, ".dat"))
		base[len - 4] = '\0';

	r = session_read(input);
	if (!r) {
		free(base);
		return 1;
	}
	if (series_build(&r->ev, &s) || !s.n) {
		err_msg("plot: %s has no windows to plot\n", input);
		session_free(r);
		free(base);
		return 1;
	}
	path = xzalloc(strlen(base) + sizeof("-timeline.svg"));
	sprintf(path, "%s-timeline.svg", base);
	if (timeline(path, &s, &r->ev, input, title))
		rc = 1;
	sprintf(path, "%s-hist.svg", base);
	if (histograms(path, &r->ev, input, title))
		rc = 1;
	free(path);
	free(base);
	series_free(&s);
	session_free(r);
	return rc;
}
