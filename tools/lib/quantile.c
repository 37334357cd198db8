// SPDX-License-Identifier: GPL-2.0
/*
 * quantile.c - exact percentiles of a stream in bounded memory (see
 * quantile.h): values kept, or spilled to a file and found by narrowing.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hist.h"
#include "quantile.h"
#include "readguard.h"
#include "utils.h"

#define SPILL_BUF	8192	/* values written or read at once */

static size_t keep = QUANTILE_KEEP;

/* quantile_keep - how many values a stream keeps in memory */
size_t quantile_keep(void)
{
	return keep;
}

/* quantile_set_keep - keep @n values (at least 1) before spilling: tests */
void quantile_set_keep(size_t n)
{
	keep = n ? n : 1;
}

/* room - one more value in @q->v, which doubles up to @limit */
static void room(struct quantile *q, size_t limit)
{
	if (q->nv < q->cap)
		return;
	q->cap = q->cap ? 2 * q->cap : 1024;
	if (q->cap > limit && q->nv < limit)
		q->cap = limit;
	q->v = realloc(q->v, q->cap * sizeof(*q->v));
	if (!q->v)
		fatal("out of memory\n");
}

/* spill_open - an unlinked file in $TMPDIR (or /tmp); -1 if none */
static int spill_open(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	if (snprintf(path, sizeof(path), "%s/teeprobe-quantile-XXXXXX", dir) >=
	    (int)sizeof(path))
		return -1;
	fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* spill_write - @n values of @v to the end of @q's file; false on failure */
static bool spill_write(struct quantile *q, const unsigned long long *v, size_t n)
{
	return readguard_put(q->fd, v, n * sizeof(*v));
}

/*
 * spill_start - move the kept values to a file, the buffer becomes its
 * write buffer; false (the values stay kept) when there is no file
 */
static bool spill_start(struct quantile *q)
{
	q->fd = spill_open();
	if (q->fd < 0)
		return false;
	if (!spill_write(q, q->v, q->nv)) {
		close(q->fd);
		return false;
	}
	q->spilled = true;
	q->nv = 0;
	if (q->cap > SPILL_BUF) {
		q->cap = SPILL_BUF;
		q->v = realloc(q->v, q->cap * sizeof(*q->v));
		if (!q->v)
			fatal("out of memory\n");
	}
	return true;
}

/* spill_flush - the write buffer to the file; fatal when the disk refuses */
static void spill_flush(struct quantile *q)
{
	if (q->nv && !spill_write(q, q->v, q->nv))
		fatal("cannot write the percentiles' values to $TMPDIR: %s\n",
		      strerror(errno));
	q->nv = 0;
}

/* quantile_add - one more value */
void quantile_add(struct quantile *q, unsigned long long v)
{
	if (!q->n || v > q->max)
		q->max = v;
	q->n++;
	q->total += v;
	/* no file: keep them all, as before streaming */
	if (!q->spilled && !q->no_file && q->nv >= keep && !spill_start(q))
		q->no_file = true;
	room(q, q->spilled ? SPILL_BUF : q->no_file ? (size_t)-1 : keep);
	q->v[q->nv++] = v;
	if (q->spilled && q->nv == q->cap)
		spill_flush(q);
}

/*
 * spill_pass - every spilled value in [@lo, @hi]: counted into @counts by
 * its part of width @width, or (@counts NULL) appended to @q->v
 */
static void spill_pass(struct quantile *q, unsigned long long lo,
		       unsigned long long hi, unsigned long long width,
		       unsigned long long *counts)
{
	unsigned long long buf[SPILL_BUF];
	off_t off = 0;
	ssize_t r;
	size_t i, n;

	q->passes++;
	for (;;) {
		r = pread(q->fd, buf, sizeof(buf), off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			fatal("cannot read the percentiles' values back: %s\n",
			      strerror(errno));
		if (!r)
			break;
		off += r;
		n = r / sizeof(*buf);
		for (i = 0; i < n; i++) {
			if (buf[i] < lo || buf[i] > hi)
				continue;
			if (counts) {
				counts[(buf[i] - lo) / width]++;
			} else {
				room(q, (size_t)-1);
				q->v[q->nv++] = buf[i];
			}
		}
	}
}

/* spill_rank - the @rank-th smallest (1-based) of the spilled values */
static unsigned long long spill_rank(struct quantile *q, unsigned long long rank)
{
	unsigned long long lo = 0, hi = q->max, count = q->n, width, below, v;
	unsigned long long *counts = xzalloc(QUANTILE_SPLIT * sizeof(*counts));
	unsigned int k;

	while (count > keep && lo < hi) {
		width = (hi - lo) / QUANTILE_SPLIT + 1;
		memset(counts, 0, QUANTILE_SPLIT * sizeof(*counts));
		spill_pass(q, lo, hi, width, counts);
		for (k = 0, below = 0; below + counts[k] < rank; k++)
			below += counts[k];
		rank -= below;
		count = counts[k];
		lo += k * width;
		if (hi - lo > width - 1)
			hi = lo + width - 1;
	}
	free(counts);
	if (lo == hi)
		return lo;
	q->nv = 0;
	spill_pass(q, lo, hi, 0, NULL);
	sort_u64(q->v, q->nv);
	v = q->v[rank - 1];
	q->nv = 0;
	return v;
}

/* nearest_rank - pct_sorted()'s rank of @pct in @n values */
static unsigned long long nearest_rank(unsigned long long n, double pct)
{
	unsigned long long rank = (unsigned long long)ceil(pct / 100.0 * n);

	return rank < 1 ? 1 : rank > n ? n : rank;
}

/*
 * quantile_finish - the sum, p50 and p99 of every value added; what was
 * held for them (memory, file) is released, the figures stay
 */
void quantile_finish(struct quantile *q)
{
	size_t i;

	q->sum = 0;
	q->p50 = q->p99 = 0;
	if (q->spilled && q->n) {
		spill_flush(q);
		/* exact; the same as the sorted sum below unless past 2^53 */
		q->sum = (double)q->total;
		q->p50 = spill_rank(q, nearest_rank(q->n, 50));
		q->p99 = spill_rank(q, nearest_rank(q->n, 99));
	} else if (q->n) {
		sort_u64(q->v, q->nv);
		/* in ascending order, as the report always summed them */
		for (i = 0; i < q->nv; i++)
			q->sum += q->v[i];
		q->p50 = pct_sorted(q->v, q->nv, 50);
		q->p99 = pct_sorted(q->v, q->nv, 99);
	}
	quantile_release(q);
}

/* quantile_release - the memory and file of @q; its figures stay */
void quantile_release(struct quantile *q)
{
	if (q->spilled)
		close(q->fd);
	q->spilled = false;
	q->fd = -1;
	free(q->v);
	q->v = NULL;
	q->nv = q->cap = 0;
}
