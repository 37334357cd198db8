// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_modstats.c - modstats_parse() on arbitrary text as each of the
 * module's files, then every lookup on what it parsed: a parse either
 * fails with a reason and keeps nothing, or every number it keeps is the
 * one its field spells.
 */
#include <math.h>

#include "fuzz.h"
#include "../../tools/lib/include/table.h"

static const char *const files[] = {
	"tee_probes", "tee_stats", "tee_hist", "tee_threads", "netrx_stats",
	"netrx_hist", "hooks", "tcp_probes", "tcp_stats", "tcp_phases",
	"tcp_hist",
};

/* same_number - @field spells @v: digits only, and strtoull agrees */
static bool same_number(const char *field, unsigned long long v)
{
	return field[0] >= '0' && field[0] <= '9' &&
	       strspn(field, "0123456789") == strlen(field) &&
	       strtoull(field, NULL, 10) == v;
}

/* lookups - every lookup, keyed by what the table holds and by misses */
static void lookups(const struct modstats *m)
{
	unsigned long long v;
	int i, j;

	fuzz_check(m->cols && m->ncols > 0);
	for (i = 0; i < m->ncols; i++)
		fuzz_check(modstats_col(m, m->cols[i]) >= 0);
	fuzz_check(modstats_col(m, "no such column\n") == -1);
	for (i = 0; i < m->nrows; i++) {
		for (j = 0; j < m->ncols; j++) {
			fuzz_check(m->rows[i].field[j] && *m->rows[i].field[j]);
			/* a number kept is the field's, a text column's 0 */
			fuzz_check(!m->rows[i].num[j] ||
				   same_number(m->rows[i].field[j], m->rows[i].num[j]));
			fuzz_check(modstats_u64(m, i, j) == m->rows[i].num[j]);
		}
		fuzz_check(modstats_u64(m, i, m->ncols) == 0);
		fuzz_check(modstats_find(m, m->rows[i].field[0], NULL) >= 0);
		if (m->ncols >= 2) {
			fuzz_check(modstats_find(m, m->rows[i].field[0],
						 m->rows[i].field[1]) >= 0);
			(void)modstats_get(m, m->rows[i].field[0],
					   m->rows[i].field[1], m->cols[m->ncols - 1]);
		}
	}
	fuzz_check(modstats_u64(m, -1, 0) == 0 && modstats_u64(m, m->nrows, 0) == 0);
	for (i = 0; i < m->nkv; i++) {
		fuzz_check(modstats_kv(m, m->kv[i].key) != NULL);
		if (modstats_kv_u64(m, m->kv[i].key, &v))
			fuzz_check(same_number(modstats_kv(m, m->kv[i].key), v));
	}
	for (i = 0; i < m->nphases; i++) {
		fuzz_check((unsigned int)m->phases[i].phase < TEEPROBE_TCP_PHASES);
		fuzz_check(strlen(m->phases[i].port) < sizeof(m->phases[i].port));
	}
	(void)modstats_get(m, "all", NULL, "calls");
}

/* LLVMFuzzerTestOneInput - one input as every file: parse, look up, free */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[256];
	struct modstats m;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		err[0] = '\0';
		if (!modstats_parse(&m, files[i], text, err, sizeof(err)))
			lookups(&m);
		else
			fuzz_check(err[0] && !m.cols && !m.rows && !m.kv && !m.phases);
		modstats_free(&m);
		fuzz_check(!m.cols && !m.rows && !m.nrows && !m.kv && !m.phases);
	}
	free(text);
	return 0;
}
