/* SPDX-License-Identifier: GPL-2.0 */
/*
 * svg.h - small helpers to write SVG pictures by hand, for "teeprobe plot":
 * round axis ticks, scaling of data into a panel, lines with gaps, bars,
 * and escaping of text. No dependencies besides libc and libm.
 */
#ifndef TEEPROBE_SVG_H
#define TEEPROBE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A plotting area: its pixels and the data range it shows */
struct svg_panel {
	double x, y, w, h;		/* pixels: left, top, width, height */
	double x0, x1;			/* data range on x */
	double y0, y1;			/* data range on y (exponents if ylog) */
	double ystep;			/* tick step on y (linear) */
	double xstep;			/* tick step on x (linear) */
	bool xlog, ylog;		/* log10 axes: x0..x1, y0..y1 are decades */
};

/* Pure helpers (tests/unit/test_svg.c) */
double svg_nice_step(double range, int max_ticks);
void svg_nice_range(double lo, double hi, int max_ticks, double *out_lo,
		    double *out_hi, double *step);
void svg_log_range(double lo, double hi, double *out_lo, double *out_hi);
int svg_log2_bucket(double v);
size_t svg_escape(const char *in, char *out, size_t size);
void svg_format_tick(double v, double step, char *buf, size_t size);
void svg_format_ns(double ns, char *buf, size_t size);
double svg_px(const struct svg_panel *p, double x);
double svg_py(const struct svg_panel *p, double y);
bool svg_wants_log(const double *v, size_t n);
double svg_text_width(const char *s, int size);

/* Writers */
void svg_begin(FILE *f, int width, int height);
void svg_end(FILE *f);
void svg_text(FILE *f, double x, double y, const char *anchor, int size,
	      const char *style, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void svg_axes(FILE *f, const struct svg_panel *p, bool xlabels, const char *ylabel);
void svg_right_axis(FILE *f, const struct svg_panel *p, double lo, double hi,
		    double step, const char *label, const char *color);
int svg_path(FILE *f, const struct svg_panel *p, const double *x,
	     const double *y, size_t n, const char *color, double width,
	     const char *dash);
void svg_legend(FILE *f, double right, double y, const char *const *names,
		const char *const *colors, size_t n);

#endif /* TEEPROBE_SVG_H */
