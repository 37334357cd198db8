/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stat.h - one line of "teeprobe stat": an interval's figures (figures.c
 * computes them) or why the interval has none; stat.c fills it, the text
 * (stat_text.c) and JSON (stat_json.c) renderers only read it.
 */
#ifndef TEEPROBE_STAT_H
#define TEEPROBE_STAT_H

#include <stdbool.h>

struct figures;

struct stat_line {
	const char *time;		/* the wall clock's HH:MM:SS */
	const struct figures *f;	/* NULL: the interval was skipped */
	const char *skipped;		/* why its counters do not subtract */
	bool header;			/* text: the column names above it */
};

void stat_text(const struct stat_line *l);
void stat_json(const struct stat_line *l);

#endif /* TEEPROBE_STAT_H */
