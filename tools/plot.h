/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plot.h - the parts of "teeprobe plot": the views (what each session's
 * pictures show, computed once) and the ranges (the axes of the views
 * that share a picture) in plot_view.c; the writers, which only read
 * them, in plot_svg.c and plot_csv.c; the command in plot.c.
 */
#ifndef TEEPROBE_PLOT_H
#define TEEPROBE_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "series.h"
#include "svg.h"

#define PLOT_WIDTH	1000
#define PLOT_HEIGHT	800
#define PLOT_LEFT	85
#define PLOT_RIGHT	75
#define PLOT_BUCKETS	64	/* log2 buckets of ns */
#define PLOT_MAX_VIEWS	2
#define PLOT_MAX_HSERIES 12	/* series of one histogram panel */

/* Colours: blue, orange, green, red, grey (colour-blind friendly enough) */
#define C_BLUE		"#1f77b4"
#define C_ORANGE	"#ff7f0e"
#define C_GREEN		"#2ca02c"
#define C_RED		"#d62728"
#define C_GREY		"#999999"
#define C_BAR		"#c6dbef"

/* The panels of both pictures */
enum { P_TEE, P_NETRX, P_TCP, NR_PANELS };
extern const char *const plot_panel_id[NR_PANELS];

/* One timeline line: which panel, its name and its unit */
struct plot_line {
	int panel;
	const char *name, *unit, *color, *dash;
	double width;
	bool main;		/* drawn in a compare, one per panel */
};

/* The timeline lines of one session; L_RATE is bars, not a line */
enum {
	L_BUSY, L_ONCPU, L_P99, L_KSD, L_INLINE, L_DELAY, L_CONN, L_HS, L_RATE,
	NR_LINES
};
extern const struct plot_line plot_lines[NR_LINES];

/* One histogram series: counts in log2 buckets of ns */
struct plot_hseries {
	char name[32];
	double count[PLOT_BUCKETS];
	double total;
};

struct plot_wval;

/* One histogram panel of one session */
struct plot_hpanel {
	struct plot_hseries s[PLOT_MAX_HSERIES];
	int n;
	struct plot_wval *v;	/* every value, until p50 and p99 are taken */
	size_t nv;
	double total;
	double p50_ns, p99_ns;	/* of the values; NAN without any */
};

/* One session, read and cut into what the pictures show */
struct plot_view {
	const char *label;	/* "before", "after", or "session" */
	const char *input;
	char desc[200];		/* from the session, never its path */
	struct session *r;
	struct series s;
	double len_s;
	double *x, *y[NR_LINES];	/* [s.n] each */
	struct plot_hpanel hp[NR_PANELS];
};

/* The axes of one picture's panels */
struct plot_ranges {
	struct svg_panel tl[NR_PANELS], h[NR_PANELS];
	double rlo, rhi, rstep;		/* handshakes/s, right-hand axis */
};

/* plot_line_drawn - whether line @k is drawn when @nv sessions share a picture */
static inline bool plot_line_drawn(int k, size_t nv)
{
	return k != L_RATE && (nv == 1 || plot_lines[k].main);
}

/* plot_view.c */
int plot_view_build(struct plot_view *v);
void plot_view_free(struct plot_view *v);
void plot_ranges_build(struct plot_ranges *g, struct plot_view *const *v,
		       size_t nv, bool overlay);

/* plot_svg.c */
int plot_svg_timeline(const char *path, struct plot_view *const *v, size_t nv,
		      const struct plot_ranges *g, const char *title);
int plot_svg_hist(const char *path, struct plot_view *const *v, size_t nv,
		  const struct plot_ranges *g, const char *title);

/* plot_csv.c */
int plot_csv_write(const char *prefix, const char *kind,
		   struct plot_view *const *v, size_t nv);

/* plot.c: the writers' files */
FILE *plot_open_out(const char *path);
int plot_close_out(FILE *f, const char *path);

#endif /* TEEPROBE_PLOT_H */
