// SPDX-License-Identifier: GPL-2.0
/*
 * plot_view.c - what "teeprobe plot" shows: each session's views (the
 * timeline's series per window, the histograms' series per panel and
 * their p50 and p99), computed once from the session, and the ranges, the
 * axes that hold every series of the views sharing a picture. The
 * writers (plot_svg.c, plot_csv.c) only read them.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "session.h"
#include "teeprobe.h"
#include "utils.h"

const char *const plot_panel_id[NR_PANELS] = { "tee", "netrx", "tcp" };

/* The timeline lines: what each shows, and how it is drawn */
const struct plot_line plot_lines[NR_LINES] = {
	[L_BUSY] = { P_TEE, "in TEE ioctls", "threads", C_BLUE, NULL, 1.6, true },
	[L_ONCPU] = { P_TEE, "of which on CPU", "threads", C_ORANGE, NULL, 1.6, false },
	[L_P99] = { P_NETRX, "p99 (within 12.5 %)", "us", C_GREY, "4 3", 1.0, false },
	[L_KSD] = { P_NETRX, "ksoftirqd", "us", C_RED, NULL, 1.2, false },
	[L_INLINE] = { P_NETRX, "inline", "us", C_GREEN, NULL, 1.2, false },
	[L_DELAY] = { P_NETRX, "mean", "us", C_BLUE, NULL, 1.8, true },
	[L_CONN] = { P_TCP, "client connect", "ms", C_ORANGE, NULL, 1.4, false },
	[L_HS] = { P_TCP, "SYN -> accept", "ms", C_BLUE, NULL, 1.8, true },
	/* bars on the right-hand axis, not a line */
	[L_RATE] = { P_TCP, "handshakes/s", "1/s", C_BAR, NULL, 0, false },
};

/* A weighted value, for percentiles */
struct plot_wval {
	double v, w;
};

/* cmp_wval - order weighted values by value */
static int cmp_wval(const void *a, const void *b)
{
	const struct plot_wval *x = a, *y = b;

	return x->v < y->v ? -1 : x->v > y->v;
}

/* percentile - the smallest value with at least @q of the weight at or
 * below it; @v is sorted here; NAN when there is no weight
 */
static double percentile(struct plot_wval *v, size_t n, double q)
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
static struct plot_hseries *hseries_get(struct plot_hpanel *h, const char *name)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->s[i].name, name))
			return &h->s[i];
	if (h->n == PLOT_MAX_HSERIES - 1 && strcmp(name, "other"))
		return hseries_get(h, "other");
	snprintf(h->s[h->n].name, sizeof(h->s[h->n].name), "%s", name);
	return &h->s[h->n++];
}

/* hpanel_add - @w values of @ns into series @name of @h */
static void hpanel_add(struct plot_hpanel *h, const char *name, double ns, double w)
{
	struct plot_hseries *s = hseries_get(h, name);

	s->count[svg_log2_bucket(ns)] += w;
	s->total += w;
	h->total += w;
	h->v[h->nv++] = (struct plot_wval){ ns, w };
}

/* view_desc - what the session was: the command that called the TEE most,
 * its length, the kernel and the CPUs (the recording host's, from its
 * snapshots; a guest's paths never)
 */
static void view_desc(struct plot_view *v)
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

/* plot_view_build - read @v->input and compute everything its pictures show;
 * -1 after a message when it cannot
 */
int plot_view_build(struct plot_view *v)
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
	/* the values only give the quantiles: p50 first, then p99 */
	for (k = 0; k < NR_PANELS; k++) {
		struct plot_hpanel *h = &v->hp[k];

		h->p50_ns = percentile(h->v, h->nv, 0.50);
		h->p99_ns = percentile(h->v, h->nv, 0.99);
		free(h->v);
		h->v = NULL;
	}
	return 0;
}

/* plot_view_free - what plot_view_build() made */
void plot_view_free(struct plot_view *v)
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

/* plot_ranges_build - axes holding every drawn series of the @nv views in @v;
 * for a compare (@overlay) only the lines the compare draws count
 */
void plot_ranges_build(struct plot_ranges *g, struct plot_view *const *v,
		       size_t nv, bool overlay)
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
			p = plot_lines[k].panel;
			for (i = 0; i < v[j]->s.n; i++) {
				double y = v[j]->y[k][i];

				if (isnan(y) || isinf(y))
					continue;
				if (k == L_RATE) {
					rmax = fmax(rmax, y);
					continue;
				}
				if (!plot_line_drawn(k, overlay ? nv : 1))
					continue;
				all[p * (total + 1) + m[p]++] = y;
				if (y > 0)
					ylo[p] = fmin(ylo[p], y);
				yhi[p] = fmax(yhi[p], y);
			}
		}
		for (p = 0; p < NR_PANELS; p++) {
			const struct plot_hpanel *h = &v[j]->hp[p];

			for (k = 0; k < h->n; k++)
				for (b = 0; b < PLOT_BUCKETS; b++) {
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
			.x = PLOT_LEFT, .y = 75 + p * 240,
			.w = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT, .h = 175,
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
			.x = PLOT_LEFT, .y = 80 + p * 240,
			.w = PLOT_WIDTH - PLOT_LEFT - PLOT_RIGHT, .h = 170,
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
