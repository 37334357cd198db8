// SPDX-License-Identifier: GPL-2.0
/*
 * plot_csv.c - "teeprobe plot --csv": every series of the views, the
 * timeline's one row per window and the histograms' one row per
 * non-empty bucket, in the pictures' units.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "utils.h"

/* csv_timeline - every timeline series of @v, one row per window */
static void csv_timeline(FILE *f, struct plot_view *const *v, size_t nv)
{
	size_t i, j;
	int k;

	fprintf(f, "session,panel,series,x_lo,x_hi,x_unit,value,unit\n");
	for (j = 0; j < nv; j++)
		for (k = 0; k < NR_LINES; k++)
			for (i = 0; i < v[j]->s.n; i++) {
				double y = v[j]->y[k][i];

				fprintf(f, "%s,%s,%s,%.6f,%.6f,s,", v[j]->label,
					plot_panel_id[plot_lines[k].panel], plot_lines[k].name,
					i * v[j]->len_s, (i + 1) * v[j]->len_s);
				if (!isnan(y) && !isinf(y))
					fprintf(f, "%.9g", y);
				fprintf(f, ",%s\n", plot_lines[k].unit);
			}
}

/* csv_hist - every histogram series of @v, one row per non-empty bucket */
static void csv_hist(FILE *f, struct plot_view *const *v, size_t nv)
{
	size_t j;
	int p, k, b;

	fprintf(f, "session,panel,series,x_lo,x_hi,x_unit,value,unit\n");
	for (j = 0; j < nv; j++)
		for (p = 0; p < NR_PANELS; p++)
			for (k = 0; k < v[j]->hp[p].n; k++)
				for (b = 0; b < PLOT_BUCKETS; b++) {
					const struct plot_hseries *s = &v[j]->hp[p].s[k];

					if (s->count[b] > 0)
						fprintf(f, "%s,%s,%s,%.0f,%.0f,ns,%.9g,count\n",
							v[j]->label, plot_panel_id[p], s->name,
							ldexp(1, b), ldexp(1, b + 1), s->count[b]);
				}
}

/* plot_csv_write - @kind's CSV of @v at PREFIX-@kind.csv */
int plot_csv_write(const char *prefix, const char *kind,
		   struct plot_view *const *v, size_t nv)
{
	char *path = xzalloc(strlen(prefix) + strlen(kind) + 6);
	FILE *f;
	int rc;

	sprintf(path, "%s-%s.csv", prefix, kind);
	f = plot_open_out(path);
	if (!f) {
		free(path);
		return -1;
	}
	if (!strcmp(kind, "timeline"))
		csv_timeline(f, v, nv);
	else
		csv_hist(f, v, nv);
	rc = plot_close_out(f, path);
	free(path);
	return rc;
}
