// SPDX-License-Identifier: GPL-2.0
/*
 * test_svg.c - unit tests for the pure helpers of tools/svg.c: nice tick
 * steps and ranges with known answers, tick labels, escaping, log2
 * buckets, scaling into a panel, lines broken at missing values, and the
 * text width estimate that places legends.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/svg.h"
#include "tap.h"

/* near - equal within a millionth, relative */
static int near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(1, fabs(b));
}

/* pieces_of - how many pieces svg_path draws of @y, and its text */
static int pieces_of(const struct svg_panel *p, const double *x, const double *y,
		     size_t n, char **text)
{
	size_t len;
	FILE *f = open_memstream(text, &len);
	int k;

	k = svg_path(f, p, x, y, n, "black", 1, NULL);
	fclose(f);
	return k;
}

int main(void)
{
	static const struct { double range; int ticks; double step; } steps[] = {
		{ 10, 5, 2 }, { 1, 5, 0.2 }, { 7.3, 5, 2 }, { 100, 5, 20 },
		{ 0.037, 4, 0.01 }, { 19.2, 12, 2 }, { 3, 10, 0.5 }, { 150, 5, 50 },
		{ 8, 8, 1 }, { 12345, 5, 5000 },
	};
	struct svg_panel p = { .x = 100, .y = 50, .w = 400, .h = 200,
			       .x0 = 0, .x1 = 10, .y0 = 0, .y1 = 100 };
	double x[6] = { 0, 1, 2, 3, 4, 5 };
	double y[6] = { 1, 2, NAN, 4, 5, 6 };
	double lo, hi, step;
	char buf[64], *text;
	size_t i, n;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		tap_ok(near(svg_nice_step(steps[i].range, steps[i].ticks), steps[i].step),
		       "nice step of %g in %d ticks is %g (%g)", steps[i].range,
		       steps[i].ticks, steps[i].step,
		       svg_nice_step(steps[i].range, steps[i].ticks));
	tap_ok(svg_nice_step(0, 5) == 1 && svg_nice_step(NAN, 5) == 1,
	       "an empty or NAN range gets step 1");
	svg_nice_range(0, 8.6, 5, &lo, &hi, &step);
	tap_ok(near(lo, 0) && near(hi, 10) && near(step, 2), "0..8.6 becomes 0..10 by 2");
	svg_nice_range(3, 3, 5, &lo, &hi, &step);
	tap_ok(hi > lo && lo <= 3 && hi >= 3, "a single value gets a range around it");
	svg_log_range(15, 23000, &lo, &hi);
	tap_ok(lo == 1 && hi == 5, "15..23000 spans decades 1..5 (%g..%g)", lo, hi);
	svg_log_range(INFINITY, 0, &lo, &hi);
	tap_ok(lo == 0 && hi == 1, "no values at all give decade 0..1");
	svg_log_range(100, 100, &lo, &hi);
	tap_ok(lo == 2 && hi == 3, "a single power of ten gets one decade");

	svg_format_tick(0.4, 0.2, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "0.4"), "tick 0.4 by 0.2 is '0.4' (%s)", buf);
	svg_format_tick(1500, 500, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "1500"), "tick 1500 by 500 is '1500' (%s)", buf);
	svg_format_tick(10000, 10000, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "10k"), "tick 10000 by 10000 is '10k' (%s)", buf);
	svg_format_tick(1e-17, 0.5, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "0.0"), "rounding noise at zero prints 0 (%s)", buf);
	svg_format_ns(1e6, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "1 ms"), "1e6 ns is '1 ms' (%s)", buf);
	svg_format_ns(2650000, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "2.65 ms"), "2650000 ns is '2.65 ms' (%s)", buf);

	n = svg_escape("a<b & \"c\" > 'd'", buf, sizeof(buf));
	tap_ok(!strcmp(buf, "a&lt;b &amp; &quot;c&quot; &gt; &apos;d&apos;"),
	       "escaping & < > \" ' (%s)", buf);
	tap_ok(n == strlen(buf), "escape returns the length");
	n = svg_escape("<<<<", buf, 6);
	tap_ok(n == 16 && !strcmp(buf, "&lt;&"),
	       "escape truncates to the buffer and still says the full length");
	svg_escape("tab\there", buf, sizeof(buf));
	tap_ok(!strcmp(buf, "tab here"), "control characters become spaces");

	tap_ok(svg_log2_bucket(0) == 0 && svg_log2_bucket(1) == 0 &&
	       svg_log2_bucket(-5) == 0 && svg_log2_bucket(NAN) == 0,
	       "values below 2 go to bucket 0");
	tap_ok(svg_log2_bucket(2) == 1 && svg_log2_bucket(3) == 1 &&
	       svg_log2_bucket(4) == 2, "2 and 3 in bucket 1, 4 in 2");
	tap_ok(svg_log2_bucket(1023) == 9 && svg_log2_bucket(1024) == 10,
	       "1023 in bucket 9, 1024 in 10");
	tap_ok(svg_log2_bucket(1e9) == 29, "1 s in ns is in bucket 29");
	tap_ok(svg_log2_bucket(1e300) == 63, "huge values stop at bucket 63");

	tap_ok(near(svg_px(&p, 0), 100) && near(svg_px(&p, 10), 500) &&
	       near(svg_px(&p, 5), 300), "x scales onto the panel's width");
	tap_ok(near(svg_py(&p, 0), 250) && near(svg_py(&p, 100), 50),
	       "y scales upwards onto the panel's height");
	p.ylog = true;
	p.y0 = 1;
	p.y1 = 3;
	tap_ok(near(svg_py(&p, 100), 150) && isnan(svg_py(&p, 0)),
	       "on a log axis 100 is mid-way between 10 and 1000; 0 has no place");
	p.ylog = false;
	tap_ok(svg_wants_log((double[]){ 15, 2000, NAN, 0 }, 4), "15..2000 wants a log axis");
	tap_ok(!svg_wants_log((double[]){ 15, 200, NAN }, 3), "15..200 does not");

	tap_ok(pieces_of(&p, x, y, 6, &text) == 2, "a NAN breaks a line in two");
	tap_ok(strstr(text, "M") && strchr(strchr(text, 'M') + 1, 'M'),
	       "... with two move-tos");
	free(text);
	y[2] = 3;
	tap_ok(pieces_of(&p, x, y, 6, &text) == 1, "without NAN the line is one piece");
	free(text);
	for (i = 0; i < 6; i++)
		y[i] = NAN;
	tap_ok(pieces_of(&p, x, y, 6, &text) == 0 && !strlen(text),
	       "an all-NAN line writes nothing");
	free(text);
	y[3] = 50;
	tap_ok(pieces_of(&p, x, y, 6, &text) == 1 && strstr(text, "h1.5"),
	       "a lone point still shows");
	free(text);
	/* widths are estimates; what matters is their order and scale */
	tap_ok(svg_text_width("SHM_REGISTER", 11) > svg_text_width("shm_register", 11),
	       "capitals are wider than lower case");
	tap_ok(near(svg_text_width("ab", 22), 2 * svg_text_width("ab", 11)) &&
	       svg_text_width("", 11) == 0, "width grows with the font size; empty is 0");
	tap_ok(svg_text_width("CLOSE_SESSION", 11) > 6.5 * 13,
	       "a command's name is wider than 6.5 px a character at 11 px");
	return tap_done();
}
