/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analyze.h - "teeprobe analyze": the diagnosis of a session, computed once
 * into struct analysis (analyze.c), then shown as text (analyze_text.c) or
 * JSON (analyze_json.c).
 */
#ifndef TEEPROBE_ANALYZE_H
#define TEEPROBE_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>

#include "acceptq.h"
#include "correlate.h"
#include "figures.h"
#include "record.h"
#include "series.h"
#include "verdict.h"

struct analyze_opts {
	const char *input;
	struct record_opts rec;		/* live (-d): the session to record */
	bool record_args;		/* -p or -w given */
	bool json;
	bool windows;
	struct verdict_opts v;
};

/* A correlation between two links, over the session's windows */
struct link {
	const char *name, *key;
	struct lagged best;
	double rank;		/* Spearman at lag 0 */
};

enum { LINK_TEE_NETRX, LINK_NETRX_HS, LINK_TEE_HS, NR_LINKS };

struct cpu_row {
	double runs, packets, wait_ns, waits, tee_oncpu_ns, r;
	size_t pairs;
	double runs_share;		/* of the host's NET_RX runs */
	double wait_mean_ns;		/* NAN: no wait */
	double tee_oncpu_share;		/* of the session's time */
};

/* A part's distribution over the handshakes that carry their own waits */
struct part_dist {
	double mean, p50, p99;
	size_t n;
};

/*
 * The per-handshake rows: the verdict's parts but TEE, the TCP total, and
 * the same from the SYN's processing on (timestamps of the server's own
 * events only, without the SYN's NET_RX wait)
 */
enum { HP_NETRX, HP_KERNEL, HP_NETWORK, HP_ACCEPT, HP_TCP, HP_STACK, NR_HP };

struct analysis {
	struct session_summary sum;
	struct series s;
	struct evidence e;
	struct verdict v;
	struct link links[NR_LINKS];
	struct cpu_row *cpus;
	double seconds, client_handshakes, busy_windows, tee_wait_runs;
	double acceptors, acceptor_calls;	/* threads, their TEE calls */
	bool secure_timed;		/* the secure world's entries timed */
	struct acceptq q;
	struct part_dist hp[NR_HP];
	double untracked, probe_misses;		/* handshakes not timed */
	const char *counters_note;	/* counters that do not subtract: why */
	double part_share[NR_PARTS];	/* of the verdict's handshake time */
	double aq_share[NR_AQ_PARTS];	/* of the acceptors' time */
};

/* us - nanoseconds as microseconds, for printing */
static inline double us(double ns)
{
	return ns / 1e3;
}

/*
 * analysis_part_dist - verdict part @p's per-handshake distribution, or
 * NULL (the TEE part has none: it is a mean per handshake)
 */
static inline const struct part_dist *analysis_part_dist(const struct analysis *a,
							 int p)
{
	static const int hp_of[NR_PARTS] = {
		[PART_NETRX] = HP_NETRX, [PART_KERNEL] = HP_KERNEL,
		[PART_NETWORK] = HP_NETWORK, [PART_ACCEPT] = HP_ACCEPT,
		[PART_TEE] = -1,
	};

	if (hp_of[p] < 0 || !a->hp[hp_of[p]].n)
		return NULL;
	return &a->hp[hp_of[p]];
}

struct session;

int analysis_of(const struct session *r, const struct verdict_opts *vo,
		struct analysis *a);
int analysis_read(const char *input, const struct verdict_opts *vo,
		  struct analysis *a, struct session **rp);
void analysis_free(struct analysis *a);
void analyze_text(const struct analysis *a, const struct analyze_opts *o);
void analyze_json(const struct analysis *a, const struct analyze_opts *o);

#endif /* TEEPROBE_ANALYZE_H */
