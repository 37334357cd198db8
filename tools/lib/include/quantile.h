/* SPDX-License-Identifier: GPL-2.0 */
/*
 * quantile.h - the count, sum, maximum and exact p50 and p99 (nearest
 * rank, as pct_sorted() gives them) of a stream of values, in bounded
 * memory: report's per-event percentiles over a session of any length.
 *
 * Up to quantile_keep() values are kept in memory and sorted at the end,
 * as before streaming. Beyond, every value goes to an unlinked file in
 * $TMPDIR (8 bytes a value, written once) and each percentile is found by
 * narrowing: a pass over the file counts the values of the range that
 * holds the wanted rank in QUANTILE_SPLIT equal parts, the part that holds
 * it becomes the range, until the range holds at most quantile_keep()
 * values (kept and sorted) or one value. A range shrinks QUANTILE_SPLIT
 * times a pass, so 64-bit values need at most 6 passes (nanoseconds up to
 * a second: 3). The figures are exact either way; memory is bounded by
 * quantile_keep() and QUANTILE_SPLIT, not by the values' count. Where no
 * file can be made, the values stay in memory (exact, unbounded).
 */
#ifndef TEEPROBE_QUANTILE_H
#define TEEPROBE_QUANTILE_H

#include <stdbool.h>
#include <stddef.h>

#ifndef QUANTILE_KEEP		/* -D for the tests of the spill path */
#define QUANTILE_KEEP	(1 << 16)	/* 512 KiB of values a stream */
#endif
#define QUANTILE_SPLIT	4096		/* parts of a range, per pass */

struct quantile {
	unsigned long long n, max;
	unsigned __int128 total;	/* exact, for the sum of a spilled stream */
	/* while reading: kept values, or the spill file's write buffer */
	unsigned long long *v;
	size_t nv, cap;
	bool spilled;
	bool no_file;			/* none could be made: all kept */
	int fd;				/* the spill file, when spilled */
	/* quantile_finish()'s figures; then no pointer or file is held */
	double sum, p50, p99;
	unsigned int passes;		/* over the spill file, for the tests */
};

void quantile_add(struct quantile *q, unsigned long long v);
void quantile_finish(struct quantile *q);
void quantile_release(struct quantile *q);

size_t quantile_keep(void);
void quantile_set_keep(size_t n);

#endif /* TEEPROBE_QUANTILE_H */
