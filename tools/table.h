/* SPDX-License-Identifier: GPL-2.0 */
/*
 * table.h - the module's debugfs tables ("# col col ..." header, then rows
 * of space-separated fields), parsed once and looked up by key and column.
 */
#ifndef TEEPROBE_TABLE_H
#define TEEPROBE_TABLE_H

#include <stdbool.h>

struct table {
	char **cols;		/* column names from the header */
	int ncols;
	char ***rows;		/* fields of each row */
	int *nfields;
	int nrows;
};

int table_parse(struct table *t, const char *text);
void table_free(struct table *t);
int table_col(const struct table *t, const char *name);
int table_find(const struct table *t, const char *key0, const char *key1);
double table_num(const struct table *t, int row, int col);
unsigned long long table_u64(const struct table *t, int row, int col);
double table_get(const struct table *t, const char *key0, const char *key1,
		 const char *col);

#endif /* TEEPROBE_TABLE_H */
