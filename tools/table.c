// SPDX-License-Identifier: GPL-2.0
/*
 * table.c - parse the module's debugfs tables (see table.h).
 */
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "utils.h"

/* split - the space-separated fields of @line (modified in place) */
static char **split(char *line, int *n)
{
	char **f = NULL, *tok, *save = NULL;
	int cap = 0;

	*n = 0;
	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			f = realloc(f, cap * sizeof(*f));
			if (!f)
				fatal("out of memory\n");
		}
		f[(*n)++] = xstrdup(tok);
	}
	return f;
}

/*
 * table_parse - the last '#' line before the first row names the columns
 * (tee_probes opens with "# preset tee" before its header); the other '#'
 * lines are comments; every other non-empty line is a row. Returns 0, or
 * -1 when there is no header.
 */
int table_parse(struct table *t, const char *text)
{
	char *copy, *line, *save = NULL;
	int n;

	memset(t, 0, sizeof(*t));
	if (!text)
		return -1;
	copy = xstrdup(text);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			if (!t->nrows) {
				for (n = 0; n < t->ncols; n++)
					free(t->cols[n]);
				free(t->cols);
				t->cols = split(line + 1, &t->ncols);
			}
			continue;
		}
		if (!t->cols)
			continue;
		t->rows = realloc(t->rows, (t->nrows + 1) * sizeof(*t->rows));
		t->nfields = realloc(t->nfields, (t->nrows + 1) * sizeof(int));
		if (!t->rows || !t->nfields)
			fatal("out of memory\n");
		t->rows[t->nrows] = split(line, &n);
		t->nfields[t->nrows++] = n;
	}
	free(copy);
	return t->cols ? 0 : -1;
}

/* table_free - release everything table_parse allocated */
void table_free(struct table *t)
{
	int i, j;

	for (i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < t->nfields[i]; j++)
			free(t->rows[i][j]);
		free(t->rows[i]);
	}
	free(t->cols);
	free(t->rows);
	free(t->nfields);
	memset(t, 0, sizeof(*t));
}

/* table_col - index of column @name, or -1 */
int table_col(const struct table *t, const char *name)
{
	int i;

	for (i = 0; i < t->ncols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	return -1;
}

/* table_find - the row whose first fields are @key0 (and @key1), or -1 */
int table_find(const struct table *t, const char *key0, const char *key1)
{
	int i;

	for (i = 0; i < t->nrows; i++) {
		if (t->nfields[i] < 1 || strcmp(t->rows[i][0], key0))
			continue;
		if (key1 && (t->nfields[i] < 2 || strcmp(t->rows[i][1], key1)))
			continue;
		return i;
	}
	return -1;
}

/* table_num - the field as a number; 0 when it is missing */
double table_num(const struct table *t, int row, int col)
{
	if (row < 0 || col < 0 || row >= t->nrows || col >= t->nfields[row])
		return 0;
	return strtod(t->rows[row][col], NULL);
}

/*
 * table_u64 - the field as an unsigned integer, exact beyond 2^53 (the
 * module's nanosecond sums); 0 when it is missing or not a number
 */
unsigned long long table_u64(const struct table *t, int row, int col)
{
	if (row < 0 || col < 0 || row >= t->nrows || col >= t->nfields[row])
		return 0;
	return strtoull(t->rows[row][col], NULL, 10);
}

/* table_get - the value of column @col in the row keyed @key0, @key1 */
double table_get(const struct table *t, const char *key0, const char *key1,
		 const char *col)
{
	return table_num(t, table_find(t, key0, key1), table_col(t, col));
}
