/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prometheus_format.h - the Prometheus text format (0.0.4) that
 * prometheus.c writes the module's counters in: a family's HELP and TYPE
 * before its first sample, label values escaped, nanoseconds as exact
 * decimal seconds, a histogram as cumulative "le" buckets.
 */
#ifndef TEEPROBE_PROMETHEUS_FORMAT_H
#define TEEPROBE_PROMETHEUS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "hist.h"
#include "prometheus.h"

#define NSEC_PER_SEC	1000000000ULL
#define MAX_LABELS	4
#define MAX_KEYS	2

struct family {
	const char *name;
	const char *type;	/* counter, gauge or histogram */
	const char *help;
};

struct label {
	const char *name;
	const char *value;
};

struct prom {
	FILE *out;
	const struct family *open;	/* whose HELP and TYPE are printed */
	struct prom_opts opts;
};

/* hseries - one histogram, summed over the CPUs; keys borrowed from a table */
struct hseries {
	const char *key[MAX_KEYS];
	enum hist_layout layout;	/* of the module that counted it */
	unsigned long long bucket[HIST_BUCKETS];
	unsigned long long sum_ns;
	bool has_sum;
};

void prom_sample(struct prom *p, const struct family *f, const char *suffix,
	    const struct label *l, int nl, const char *value);
const char *prom_fmt_seconds(char *buf, size_t len, unsigned long long ns);
void prom_sample_u64(struct prom *p, const struct family *f, const char *suffix,
		const struct label *l, int nl, unsigned long long v, bool ns);
void prom_hist_samples(struct prom *p, const struct family *f,
		  const struct label *labels, int nl, const struct hseries *s);

#endif /* TEEPROBE_PROMETHEUS_FORMAT_H */
