// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - hand-written SVG for "teeprobe plot" (see svg.h): the pure
 * helpers first (ticks, scaling, escaping, buckets), then the writers.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

#define FONT	"font-family=\"DejaVu Sans,Helvetica,Arial,sans-serif\""

/* svg_nice_step - a round step (1, 2 or 5 times a power of ten) cutting
 * @range into at most @max_ticks parts; 1 for an empty or bad range
 */
double svg_nice_step(double range, int max_ticks)
{
	static const double mult[] = { 1, 2, 5, 10 };
	double raw, mag;
	size_t i;

	if (!(range > 0) || isinf(range) || max_ticks < 1)
		return 1;
	raw = range / max_ticks;
	mag = pow(10, floor(log10(raw)));
	for (i = 0; i < sizeof(mult) / sizeof(mult[0]); i++)
		if (mult[i] * mag >= raw * (1 - 1e-9))
			return mult[i] * mag;
	return 10 * mag;
}

/* svg_nice_range - [@lo, @hi] widened to multiples of a nice step */
void svg_nice_range(double lo, double hi, int max_ticks, double *out_lo,
		    double *out_hi, double *step)
{
	double s;

	if (isnan(lo) || isnan(hi)) {
		lo = 0;
		hi = 1;
	}
	if (hi <= lo)
		hi = lo + (lo != 0 ? fabs(lo) : 1);
	s = svg_nice_step(hi - lo, max_ticks);
	*out_lo = floor(lo / s + 1e-9) * s;
	*out_hi = ceil(hi / s - 1e-9) * s;
	if (*out_hi <= *out_lo)
		*out_hi = *out_lo + s;
	*step = s;
}

/* svg_log_range - the decades (exponents of ten) holding [@lo, @hi] */
void svg_log_range(double lo, double hi, double *out_lo, double *out_hi)
{
	if (!(lo > 0) || isinf(lo))
		lo = hi > 0 && !isinf(hi) ? hi / 10 : 1;
	if (!(hi > 0) || isinf(hi) || hi < lo)
		hi = lo;
	*out_lo = floor(log10(lo) + 1e-9);
	*out_hi = ceil(log10(hi) - 1e-9);
	if (*out_hi <= *out_lo)
		*out_hi = *out_lo + 1;
}

/* svg_log2_bucket - b with 2^b <= v < 2^(b+1); 0 below 2, 63 at most */
int svg_log2_bucket(double v)
{
	int b = 0;

	if (!(v >= 2))
		return 0;
	while (b < 63 && v >= 2) {
		v /= 2;
		b++;
	}
	return b;
}

/* svg_escape - @in with &, <, >, " and ' as entities into @out (always
 * terminated); returns the length the full result needs, like snprintf
 */
size_t svg_escape(const char *in, char *out, size_t size)
{
	size_t len = 0, k;
	const char *rep;
	char one[2] = { 0, 0 };

	for (; *in; in++) {
		switch (*in) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&apos;";
			break;
		default:
			/* control characters are not allowed in XML 1.0 */
			one[0] = (unsigned char)*in < 0x20 ? ' ' : *in;
			rep = one;
		}
		for (k = 0; rep[k]; k++, len++)
			if (size && len < size - 1)
				out[len] = rep[k];
	}
	if (size)
		out[len < size ? len : size - 1] = '\0';
	return len;
}

/* svg_format_tick - @v with as many decimals as @step needs; k and M for
 * round thousands (when the step is) and round millions
 */
void svg_format_tick(double v, double step, char *buf, size_t size)
{
	int dec = 0;

	if (fabs(v) < step * 1e-6)
		v = 0;
	if (step > 0 && step < 1)
		dec = (int)ceil(-log10(step) - 1e-9);
	if (fabs(v) >= 1e6 && fmod(v, 1e6) == 0)
		snprintf(buf, size, "%.0fM", v / 1e6);
	else if (fabs(v) >= 1e3 && step >= 1e3 && fmod(v, 1e3) == 0)
		snprintf(buf, size, "%.0fk", v / 1e3);
	else
		snprintf(buf, size, "%.*f", dec, v);
}

/* svg_format_ns - a duration in the unit that suits it: ns, us, ms or s */
void svg_format_ns(double ns, char *buf, size_t size)
{
	static const struct { double div; const char *unit; } u[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i;
	double v;

	for (i = 0; i < 3 && fabs(ns) < u[i].div; i++)
		;
	v = ns / u[i].div;
	snprintf(buf, size, "%.*f %s", fabs(v) >= 100 || v == floor(v) ? 0 :
		 fabs(v) >= 10 ? 1 : 2, v, u[i].unit);
}

/* svg_scale - @v from [@d0, @d1] onto [@p0, @p1] */
static double svg_scale(double v, double d0, double d1, double p0, double p1)
{
	if (d1 == d0)
		return p0;
	return p0 + (v - d0) / (d1 - d0) * (p1 - p0);
}

/* svg_px - the pixel column of data value @x in panel @p (NAN if none) */
double svg_px(const struct svg_panel *p, double x)
{
	if (p->xlog)
		x = x > 0 ? log10(x) : NAN;
	return svg_scale(x, p->x0, p->x1, p->x, p->x + p->w);
}

/* svg_py - the pixel row of data value @y in panel @p (NAN if none) */
double svg_py(const struct svg_panel *p, double y)
{
	if (p->ylog)
		y = y > 0 ? log10(y) : NAN;
	return svg_scale(y, p->y0, p->y1, p->y + p->h, p->y);
}

/* svg_wants_log - whether the positive values of @v span two decades */
bool svg_wants_log(const double *v, size_t n)
{
	double lo = INFINITY, hi = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!(v[i] > 0) || isinf(v[i]))
			continue;
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return hi > 0 && hi / lo >= 100;
}

/* svg_text_width - about how wide @s is at @size px in a sans-serif font:
 * capitals (the TEE commands' names) are wider than the rest
 */
double svg_text_width(const char *s, int size)
{
	double w = 0;

	for (; *s; s++)
		w += (*s >= 'A' && *s <= 'Z') ? 0.72 : *s == '_' ? 0.55 : 0.59;
	return w * size;
}

/* svg_begin - the document's head and a white background */
void svg_begin(FILE *f, int width, int height)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" " FONT ">\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		width, height, width, height, width, height);
}

/* svg_end - the document's tail */
void svg_end(FILE *f)
{
	fprintf(f, "</svg>\n");
}

/* svg_text - a line of text, escaped; @style is extra attributes or NULL */
void svg_text(FILE *f, double x, double y, const char *anchor, int size,
	      const char *style, const char *fmt, ...)
{
	char raw[512], esc[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	svg_escape(raw, esc, sizeof(esc));
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\"%s%s>",
		x, y, anchor, size, style ? " " : "", style ? style : "");
	fprintf(f, "%s</text>\n", esc);
}

/* grid_line - a thin line of colour @c from (@x1, @y1) to (@x2, @y2) */
static void grid_line(FILE *f, double x1, double y1, double x2, double y2, const char *c)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
		x1, y1, x2, y2, c);
}

/* svg_axes - frame, grid lines and ticks of @p; x labels when @xlabels */
void svg_axes(FILE *f, const struct svg_panel *p, bool xlabels, const char *ylabel)
{
	char buf[32];
	double v, px, py;
	int k;

	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"#fafafa\" stroke=\"#888\" stroke-width=\"1\"/>\n",
		p->x, p->y, p->w, p->h);
	/* y: decades (with 2 and 5 as fainter lines) or nice steps */
	if (p->ylog) {
		for (k = (int)p->y0; k <= (int)p->y1; k++) {
			v = pow(10, k);
			py = svg_py(p, v);
			grid_line(f, p->x, py, p->x + p->w, py, "#ccc");
			svg_format_tick(v, v, buf, sizeof(buf));
			svg_text(f, p->x - 5, py + 4, "end", 11, NULL, "%s", buf);
			if (k < (int)p->y1) {
				double m[] = { 2 * v, 5 * v };

				for (size_t j = 0; j < 2; j++) {
					py = svg_py(p, m[j]);
					grid_line(f, p->x, py, p->x + p->w, py, "#eee");
				}
			}
		}
	} else {
		for (v = p->y0; v <= p->y1 + p->ystep * 1e-6; v += p->ystep) {
			py = svg_py(p, v);
			grid_line(f, p->x, py, p->x + p->w, py, "#ddd");
			svg_format_tick(v, p->ystep, buf, sizeof(buf));
			svg_text(f, p->x - 5, py + 4, "end", 11, NULL, "%s", buf);
		}
	}
	/* x: decades labelled as durations (log) or nice steps */
	if (p->xlog) {
		for (k = (int)p->x0; k <= (int)p->x1; k++) {
			v = pow(10, k);
			px = svg_px(p, v);
			grid_line(f, px, p->y, px, p->y + p->h, "#ccc");
			if (xlabels) {
				svg_format_ns(v, buf, sizeof(buf));
				svg_text(f, px, p->y + p->h + 15, "middle", 11, NULL, "%s", buf);
			}
		}
	} else {
		for (v = p->x0; v <= p->x1 + p->xstep * 1e-6; v += p->xstep) {
			px = svg_px(p, v);
			grid_line(f, px, p->y, px, p->y + p->h, "#ddd");
			if (xlabels) {
				svg_format_tick(v, p->xstep, buf, sizeof(buf));
				svg_text(f, px, p->y + p->h + 15, "middle", 11, NULL, "%s", buf);
			}
		}
	}
	if (ylabel) {
		px = p->x - 52;
		py = p->y + p->h / 2;
		fprintf(f, "<g transform=\"translate(%.1f,%.1f) rotate(-90)\">\n", px, py);
		svg_text(f, 0, 0, "middle", 12, NULL, "%s", ylabel);
		fprintf(f, "</g>\n");
	}
}

/* svg_right_axis - ticks of a second, linear scale on the right of @p */
void svg_right_axis(FILE *f, const struct svg_panel *p, double lo, double hi,
		    double step, const char *label, const char *color)
{
	char buf[32], style[64];
	double v, py;

	snprintf(style, sizeof(style), "fill=\"%s\"", color);
	for (v = lo; v <= hi + step * 1e-6; v += step) {
		py = p->y + p->h - (v - lo) / (hi - lo) * p->h;
		svg_format_tick(v, step, buf, sizeof(buf));
		svg_text(f, p->x + p->w + 5, py + 4, "start", 11, style, "%s", buf);
	}
	fprintf(f, "<g transform=\"translate(%.1f,%.1f) rotate(90)\">\n",
		p->x + p->w + 48, p->y + p->h / 2);
	svg_text(f, 0, 0, "middle", 12, style, "%s", label);
	fprintf(f, "</g>\n");
}

/* svg_path - a line through (@x, @y), broken where a value is NAN (or not
 * positive on a log axis); returns the number of pieces drawn
 */
int svg_path(FILE *f, const struct svg_panel *p, const double *x,
	     const double *y, size_t n, const char *color, double width,
	     const char *dash)
{
	bool pen = false;
	int pieces = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double px = svg_px(p, x[i]), py = svg_py(p, y[i]);

		if (isnan(px) || isnan(py) || isinf(px) || isinf(py)) {
			pen = false;
			continue;
		}
		py = fmin(fmax(py, p->y), p->y + p->h);
		if (!pieces)
			fprintf(f, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\"%s%s%s "
				"stroke-linejoin=\"round\" d=\"", color, width,
				dash ? " stroke-dasharray=\"" : "", dash ? dash : "",
				dash ? "\"" : "");
		/* a lone point gets a short stroke so that it shows */
		if (!pen && (i + 1 >= n || isnan(svg_py(p, y[i + 1])) ||
			     isnan(svg_px(p, x[i + 1]))))
			fprintf(f, "M%.1f %.1fh1.5", px - 0.75, py);
		else
			fprintf(f, "%c%.1f %.1f", pen ? 'L' : 'M', px, py);
		if (!pen)
			pieces++;
		pen = true;
	}
	if (pieces)
		fprintf(f, "\"/>\n");
	return pieces;
}

/* svg_legend - a row of colour swatches and names ending at @right */
void svg_legend(FILE *f, double right, double y, const char *const *names,
		const char *const *colors, size_t n)
{
	double x = right, w;
	size_t i;

	for (i = n; i-- > 0;) {
		w = svg_text_width(names[i], 11) + 22;
		x -= w;
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"4\" fill=\"%s\"/>\n",
			x, y - 5, colors[i]);
		svg_text(f, x + 18, y, "start", 11, NULL, "%s", names[i]);
	}
}
