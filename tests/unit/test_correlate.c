// SPDX-License-Identifier: GPL-2.0
/*
 * test_correlate.c - unit tests for tools/correlate.c on series with known
 * answers: perfect, inverse, monotone but not linear, ties, constant,
 * too short, and a series that follows another two windows later.
 */
#include <math.h>

#include "../../tools/lib/include/correlate.h"
#include "tap.h"

#define N 20

/* near - equal within 1e-9 */
static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(void)
{
	double x[N], y[N], z[N], c[N], sq[N], lagged[N];
	double tx[] = { 1, 2, 2, 3 }, ty[] = { 10, 20, 20, 30 };
	double ax[] = { 1, 2, 3, 4, 5 }, ay[] = { 2, 1, 4, 3, 5 };
	struct lagged l;
	int i;

	for (i = 0; i < N; i++) {
		x[i] = i;
		y[i] = 3 * i + 7;
		z[i] = -2 * i;
		c[i] = 5;
		sq[i] = (double)i * i * i;
		/* x's pattern, 2 windows later (a cause and its effect) */
		lagged[i] = i >= 2 ? ((i - 2) % 5 == 0 ? 10 : 1) : 1;
	}
	tap_ok(near(pearson(x, y, N), 1), "pearson of a line against itself is 1");
	tap_ok(near(pearson(x, z, N), -1), "pearson of a falling line is -1");
	tap_ok(pearson(x, sq, N) < 1 && pearson(x, sq, N) > 0.9,
	       "pearson of x against x^3 is below 1 (%.4f)", pearson(x, sq, N));
	tap_ok(near(spearman(x, sq, N), 1), "spearman of any rising series is 1");
	tap_ok(near(spearman(tx, ty, 4), 1), "ties share their rank: spearman 1");
	/* known value: ranks 1..5 against 2 1 4 3 5, d^2 sum 4, rho = 0.8 */
	tap_ok(near(spearman(ax, ay, 5), 0.8), "spearman of a textbook case is 0.8 (%.4f)",
	       spearman(ax, ay, 5));
	tap_ok(near(pearson(ax, ay, 5), 0.8), "pearson of the same is 0.8");
	tap_ok(isnan(pearson(x, c, N)), "a constant series has no correlation");
	tap_ok(isnan(spearman(x, c, N)), "... by rank neither");
	tap_ok(isnan(pearson(x, y, 2)), "two pairs are too few");
	for (i = 0; i < N; i++)
		x[i] = i % 5 == 0 ? 10 : 1;
	l = best_lag(x, lagged, N, 3);
	tap_ok(l.lag == 2 && near(l.r, 1), "a series following another 2 windows later: lag %d, r %.3f",
	       l.lag, l.r);
	l = best_lag(x, x, N, 3);
	tap_ok(l.lag == 0 && near(l.r, 1), "a series against itself: lag 0");
	l = best_lag(x, c, N, 3);
	tap_ok(l.lag == 0 && isnan(l.r), "against a constant: no lag, no r");
	return tap_done();
}
