/* SPDX-License-Identifier: GPL-2.0 */
/*
 * correlate.h - correlation of two time series of the module's windows:
 * Pearson's r, Spearman's rank correlation (ties get their mean rank), and
 * the lag at which they agree best. Pure functions, unit-tested.
 */
#ifndef TEEPROBE_CORRELATE_H
#define TEEPROBE_CORRELATE_H

#include <stddef.h>

double pearson(const double *x, const double *y, size_t n);
double spearman(const double *x, const double *y, size_t n);

struct lagged {
	int lag;	/* y is compared with x shifted by lag windows */
	double r;	/* Pearson's r at that lag */
	size_t n;	/* pairs used */
};

struct lagged best_lag(const double *x, const double *y, size_t n,
		       int max_lag);

#endif /* TEEPROBE_CORRELATE_H */
