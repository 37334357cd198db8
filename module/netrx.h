/* SPDX-License-Identifier: GPL-2.0 */
/*
 * netrx.h - the NET_RX counters teeprobe keeps per CPU, per session (since
 * load or reset) and per time window; shared by netrx.c and the trace
 * events.
 */
#ifndef TEEPROBE_NETRX_H
#define TEEPROBE_NETRX_H

#include <linux/types.h>

struct teeprobe_netrx_counts {
	u64 raises;		/* irq:softirq_raise of NET_RX */
	u64 runs;		/* irq:softirq_entry of NET_RX (= /proc/softirqs) */
	u64 ksoftirqd_runs;	/* of those, run by ksoftirqd */
	u64 run_ns;		/* time in net_rx_action */
	u64 run_max_ns;
	u64 packets;		/* napi:napi_poll work, summed */
	u64 polls;		/* napi:napi_poll calls */
	u64 budget_full;	/* polls that used their whole budget */
	u64 reraises;		/* runs that left work and raised NET_RX again */
	u64 tee_runs;		/* runs whose wait a TEE call's thread held up */
	u64 tee_delay_ns;	/* the part of their waits it held the CPU */
};

#endif /* TEEPROBE_NETRX_H */
