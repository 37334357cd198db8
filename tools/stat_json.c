// SPDX-License-Identifier: GPL-2.0
/*
 * stat_json.c - "teeprobe stat --json": one JSON object per interval,
 * through json-c (json.h): its figures, or why it was skipped.
 */
#include "figures.h"
#include "json.h"
#include "stat.h"
#include "utils.h"

/* An interval's figures, in the order they print */
static const struct jfield figures_keys[] = {
	JFIELD("system_pct", struct figures, system_pct, 2),
	JFIELD("softirq_pct", struct figures, softirq_pct, 2),
	JFIELD("netrx_runs_per_s", struct figures, netrx_per_s, 1),
	JFIELD("rx_packets_per_s", struct figures, rx_packets_per_s, 1),
	JFIELD("packets_per_run", struct figures, packets_per_run, 2),
	JFIELD("inline_delay_p99_ns", struct figures, inline_delay_p99_ns, 0),
	JFIELD("ksoftirqd_share", struct figures, ksoftirqd_share, 4),
	JFIELD("tee_calls_per_s", struct figures, tee_calls_per_s, 1),
	JFIELD("tee_blocked_share", struct figures, tee_blocked_share, 4),
	JFIELD("tee_p99_ns", struct figures, tee_p99_ns, 0),
	JFIELD("accepts_per_s", struct figures, passive_opens_per_s, 1),
	JFIELD("handshakes_per_s", struct figures, handshakes_per_s, 1),
	JFIELD("syn_synack_p99_ns", struct figures, syn_synack_p99_ns, 0),
	JFIELD("ack_accept_p99_ns", struct figures, ack_accept_p99_ns, 0),
};

/* stat_json - line @l as one JSON object */
void stat_json(const struct stat_line *l)
{
	struct json_object *o = jnew();

	jset_str(o, "time", l->time);
	if (l->f)
		jset_fields(o, l->f, figures_keys, ARRAY_SIZE(figures_keys));
	else
		jset_str(o, "skipped", l->skipped);
	jprint(o);
}
