// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_table.c - table_parse() on arbitrary text, then every lookup on
 * what it parsed.
 */
#include <math.h>

#include "fuzz.h"
#include "../../tools/table.h"

/* lookups - every lookup, keyed by what the table holds and by misses */
static void lookups(const struct table *t)
{
	int i, j;
	double v;

	for (i = 0; i < t->ncols; i++)
		fuzz_check(table_col(t, t->cols[i]) >= 0);
	fuzz_check(table_col(t, "no such column\n") == -1);
	for (i = 0; i < t->nrows; i++) {
		fuzz_check(t->nfields[i] >= 0);
		for (j = 0; j <= t->nfields[i]; j++) {
			v = table_num(t, i, j);
			fuzz_check(j < t->nfields[i] || v == 0);
		}
		if (t->nfields[i] >= 1)
			fuzz_check(table_find(t, t->rows[i][0], NULL) >= 0);
		if (t->nfields[i] >= 2) {
			fuzz_check(table_find(t, t->rows[i][0], t->rows[i][1]) >= 0);
			if (t->ncols)
				(void)table_get(t, t->rows[i][0], t->rows[i][1],
						t->cols[t->ncols - 1]);
		}
	}
	fuzz_check(table_num(t, -1, 0) == 0 && table_num(t, t->nrows, 0) == 0);
	(void)table_get(t, "all", NULL, "calls");
}

/* LLVMFuzzerTestOneInput - one input: parse, look up, free */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct table t;

	if (!table_parse(&t, text)) {
		fuzz_check(t.cols && t.ncols > 0);
		lookups(&t);
	}
	table_free(&t);
	fuzz_check(!t.cols && !t.rows && !t.nrows);
	free(text);
	return 0;
}
