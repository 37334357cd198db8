/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netrx.h - the NET_RX counters teeprobe keeps per CPU, per session (since
 * load or reset) and per time window, made from abi.h's list of
 * netrx_stats' columns; shared by netrx.c and the trace events.
 */
#ifndef TEEPROBE_NETRX_H
#define TEEPROBE_NETRX_H

#include <linux/bitops.h>
#include <linux/types.h>

#include "abi.h"
#include "hist.h"

/* A CPU's counters: each column of netrx_stats but the DELAY ones */
#define TEEPROBE_NETRX_FIELD(name, kind, ...) TEEPROBE_NETRX_FIELD_##kind(name)
#define TEEPROBE_NETRX_FIELD_COUNT(name) u64 name;
#define TEEPROBE_NETRX_FIELD_NS(name) u64 name;
#define TEEPROBE_NETRX_FIELD_MAX(name) u64 name;
#define TEEPROBE_NETRX_FIELD_DELAY(name)
struct teeprobe_netrx_counts {
	TEEPROBE_NETRX_STATS_COLS(TEEPROBE_NETRX_FIELD)
};

/*
 * TEEPROBE_NETRX_EACH_DELAY - TEEPROBE_NETRX_DELAY_DO(name) for each DELAY
 * column, in netrx_stats' order: the user defines TEEPROBE_NETRX_DELAY_DO
 * just before and undefines it after
 */
#define TEEPROBE_NETRX_ONLY_DELAY(name, kind, ...) TEEPROBE_NETRX_ONLY_DELAY_##kind(name)
#define TEEPROBE_NETRX_ONLY_DELAY_COUNT(name)
#define TEEPROBE_NETRX_ONLY_DELAY_NS(name)
#define TEEPROBE_NETRX_ONLY_DELAY_MAX(name)
#define TEEPROBE_NETRX_ONLY_DELAY_DELAY(name) TEEPROBE_NETRX_DELAY_DO(name)
#define TEEPROBE_NETRX_EACH_DELAY \
	TEEPROBE_NETRX_STATS_COLS(TEEPROBE_NETRX_ONLY_DELAY)

/* A CPU's raise -> entry delays: the DELAY columns' histograms */
struct teeprobe_netrx_delays {
#define TEEPROBE_NETRX_DELAY_DO(name) struct teeprobe_hist name;
	TEEPROBE_NETRX_EACH_DELAY
#undef TEEPROBE_NETRX_DELAY_DO
};

/* the buckets of each DELAY histogram counted in since a window opened */
struct teeprobe_netrx_touched {
#define TEEPROBE_NETRX_DELAY_DO(name) unsigned long name[BITS_TO_LONGS(TEEPROBE_HIST_BUCKETS)];
	TEEPROBE_NETRX_EACH_DELAY
#undef TEEPROBE_NETRX_DELAY_DO
};

#endif /* TEEPROBE_NETRX_H */
