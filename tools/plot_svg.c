// SPDX-License-Identifier: GPL-2.0
/*
 * plot_svg.c - "teeprobe plot"'s two SVG pictures, the chain over time and
 * the latency histograms, drawn from the views on the ranges' axes
 * (plot_view.c); each panel and series carries data- attributes naming
 * it, for scripts and tests.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plot.h"
#include "session.h"
#include "teeprobe.h"
#include "utils.h"

/* The TEE commands' colours, by first appearance over the views */
static const char *const cmd_palette[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};

/* panel_meta - the panel's data ranges and pixels, for scripts and tests */
static void panel_meta(FILE *f, const char *picture, int p, const struct svg_panel *s)
{
	fprintf(f, "<g class=\"panel\" data-picture=\"%s\" data-panel=\"%s\" "
		"data-x0=\"%.9g\" data-x1=\"%.9g\" data-xlog=\"%d\" "
		"data-y0=\"%.9g\" data-y1=\"%.9g\" data-ylog=\"%d\" "
		"data-box=\"%g %g %g %g\"/>\n",
		picture, plot_panel_id[p], s->x0, s->x1, s->xlog, s->y0, s->y1, s->ylog,
		s->x, s->y, s->w, s->h);
}

/* series_open - a group around one series' drawing, naming it */
static void series_open(FILE *f, int p, const char *session, const char *name,
			double total)
{
	char esc[128];

	svg_escape(name, esc, sizeof(esc));
	fprintf(f, "<g class=\"series\" data-panel=\"%s\" data-session=\"%s\" "
		"data-series=\"%s\" data-total=\"%.9g\">\n", plot_panel_id[p], session,
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
		     struct plot_view *const *v, size_t nv, const char *detail)
{
	size_t j;

	if (title)
		svg_text(f, PLOT_WIDTH / 2, 20, "middle", 17, "font-weight=\"bold\"",
			 "%s: %s", title, what);
	else
		svg_text(f, PLOT_WIDTH / 2, 20, "middle", 17, "font-weight=\"bold\"",
			 "%s%s", nv > 1 ? "before vs after: " : "", what);
	if (nv == 1) {
		svg_text(f, PLOT_WIDTH / 2, 36, "middle", 12, "fill=\"#333\"", "%s", v[0]->desc);
		svg_text(f, PLOT_WIDTH / 2, 50, "middle", 11, "fill=\"#555\"", "%s", detail);
		return;
	}
	/* a timeline tells the sessions by colour, a histogram by dashes */
	for (j = 0; j < nv; j++) {
		char style[64];

		snprintf(style, sizeof(style), "fill=\"%s\"", detail ? "#333" : session_color(j));
		svg_text(f, PLOT_WIDTH / 2, 36 + 13 * j, "middle", 12, style, "%s%s: %s",
			 v[j]->label, !detail ? "" : j ? " (solid)" : " (dashed)", v[j]->desc);
	}
}

/* plot_svg_timeline - the chain, window by window, of @nv sessions on @g's axes */
int plot_svg_timeline(const char *path, struct plot_view *const *v, size_t nv,
		      const struct plot_ranges *g, const char *title)
{
	static const char *const panel_title[NR_PANELS] = {
		"TEE: threads inside TEE ioctls", "NET_RX: raise -> entry delay",
		"TCP: mean SYN -> accept (the server's TCP phases)",
	};
	const char *names[2 * NR_LINES], *colors[2 * NR_LINES];
	char detail[160], label[64];
	size_t i, j, nl;
	FILE *f;
	int p, k;

	f = plot_open_out(path);
	if (!f)
		return -1;
	svg_begin(f, PLOT_WIDTH, PLOT_HEIGHT);
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
				const char *color = nv > 1 ? session_color(j) : plot_lines[k].color;

				if (plot_lines[k].panel != p || !plot_line_drawn(k, nv))
					continue;
				series_open(f, p, v[j]->label, plot_lines[k].name, v[j]->s.n);
				if (svg_path(f, s, v[j]->x, v[j]->y[k], v[j]->s.n, color,
					     plot_lines[k].width, plot_lines[k].dash))
					any = true;
				fprintf(f, "</g>\n");
				names[nl] = nv > 1 ? v[j]->label : plot_lines[k].name;
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
			snprintf(label, sizeof(label), "TCP: mean SYN -> accept, server");
		else
			snprintf(label, sizeof(label), "%s", panel_title[p]);
		svg_text(f, s->x, s->y - 9, "start", 13, "font-weight=\"bold\"", "%s", label);
		legend(f, s, svg_text_width(label, 13) * 1.1, names, colors, nl);
		if (!any)
			no_data(f, s, p == P_TEE ? "no TEE calls" :
				p == P_NETRX ? "no NET_RX runs" : "no handshakes");
	}
	svg_text(f, PLOT_LEFT + g->tl[P_TCP].w / 2, g->tl[P_TCP].y + g->tl[P_TCP].h + 38,
		 "middle", 12, NULL, "time (s) since the first window");
	svg_end(f);
	return plot_close_out(f, path);
}

/* step_path - series @s of a histogram as a step outline on @p */
static void step_path(FILE *f, const struct svg_panel *p, const struct plot_hseries *s,
		      const char *color, const char *dash, bool fill)
{
	int b, lo = PLOT_BUCKETS, hi = -1;

	for (b = 0; b < PLOT_BUCKETS; b++)
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
static const char *hcolor(struct plot_view *const *v, size_t nv, int p, const char *name)
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
static void quantiles(FILE *f, const struct svg_panel *p,
		      const struct plot_hpanel *h)
{
	char buf[32], val[32];
	int g;

	for (g = 0; g < 2; g++) {
		double q = g ? h->p99_ns : h->p50_ns, px = svg_px(p, q);
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

/* plot_svg_hist - TEE calls per command, NET_RX delays, handshakes: of @nv
 * sessions on @g's axes (a compare draws BEFORE dashed, AFTER solid)
 */
int plot_svg_hist(const char *path, struct plot_view *const *v, size_t nv,
		  const struct plot_ranges *g, const char *title)
{
	static const char *const what[NR_PANELS] = {
		"TEE ioctls by command", "NET_RX raise -> entry delay",
		"TCP: SYN -> accept, per server connection",
	};
	static const char *const unit[NR_PANELS] = { "calls", "runs", "handshakes" };
	const char *names[PLOT_MAX_HSERIES * PLOT_MAX_VIEWS];
	const char *colors[PLOT_MAX_HSERIES * PLOT_MAX_VIEWS];
	char t[200], counts[120];
	size_t j, nl, len;
	FILE *f;
	int p, k, i;

	f = plot_open_out(path);
	if (!f)
		return -1;
	svg_begin(f, PLOT_WIDTH, PLOT_HEIGHT);
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
			struct plot_hpanel *h = &v[j]->hp[p];

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
	return plot_close_out(f, path);
}
