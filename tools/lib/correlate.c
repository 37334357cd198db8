// SPDX-License-Identifier: GPL-2.0
/*
 * correlate.c - Pearson, Spearman and lagged correlation (see correlate.h).
 * NAN marks a correlation that does not exist: fewer than three pairs, or a
 * series that never changes.
 */
#include <math.h>
#include <stdlib.h>

#include "correlate.h"
#include "utils.h"

/* pearson - Pearson's r of @n pairs; NAN when undefined */
double pearson(const double *x, const double *y, size_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
	size_t i;

	if (n < 3)
		return NAN;
	for (i = 0; i < n; i++) {
		mx += x[i];
		my += y[i];
	}
	mx /= n;
	my /= n;
	for (i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	if (sxx <= 0 || syy <= 0)
		return NAN;
	return sxy / sqrt(sxx * syy);
}

struct ranked {
	double v;
	size_t i;
};

/* cmp_ranked - by value */
static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->v < y->v ? -1 : x->v > y->v;
}

/* ranks - 1-based ranks of @v, ties sharing their mean rank */
static void ranks(const double *v, size_t n, double *out)
{
	struct ranked *r = xzalloc(n * sizeof(*r));
	size_t i, j, k;

	for (i = 0; i < n; i++)
		r[i] = (struct ranked){ v[i], i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		for (k = i; k < j; k++)
			out[r[k].i] = (i + 1 + j) / 2.0;	/* mean of i+1..j */
	}
	free(r);
}

/* spearman - Pearson's r of the ranks; NAN when undefined */
double spearman(const double *x, const double *y, size_t n)
{
	double *rx, *ry, r;

	if (n < 3)
		return NAN;
	rx = xzalloc(n * sizeof(*rx));
	ry = xzalloc(n * sizeof(*ry));
	ranks(x, n, rx);
	ranks(y, n, ry);
	r = pearson(rx, ry, n);
	free(rx);
	free(ry);
	return r;
}

/*
 * best_lag - the lag in -@max_lag..@max_lag (y[i + lag] against x[i]) with
 * the largest Pearson's r; lag 0 wins ties, then the smallest |lag|.
 */
struct lagged best_lag(const double *x, const double *y, size_t n,
		       int max_lag)
{
	struct lagged best = { 0, NAN, 0 };
	double r;
	int lag, l;
	size_t m;

	for (l = 0; l <= 2 * max_lag; l++) {
		/* 0, 1, -1, 2, -2 ...: smaller shifts first */
		lag = (l + 1) / 2 * (l % 2 ? 1 : -1);
		if ((size_t)abs(lag) >= n)
			continue;
		m = n - abs(lag);
		r = lag >= 0 ? pearson(x, y + lag, m) : pearson(x - lag, y, m);
		if (!isnan(r) && (isnan(best.r) || r > best.r + 1e-12)) {
			best.lag = lag;
			best.r = r;
			best.n = m;
		}
	}
	return best;
}
