// SPDX-License-Identifier: GPL-2.0
/*
 * test_figures.c - unit tests for tools/figures.c, the headline figures of
 * stat, report, compare and analyze: on a recorded module's files as the
 * start and on the same files with known counts added as the end, each
 * figure is the difference this test puts in, over the time between them;
 * a part the snapshots lack is NAN, never 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/include/figures.h"
#include "../../tools/lib/include/snapshot.h"
#include "tap.h"

#ifndef TEST_DEBUGFS
#define TEST_DEBUGFS "../tools/debugfs"
#endif

/* near - @a within a millionth of @b */
static bool near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(1, fabs(b));
}

/* bump - add @add to column @col of row @row of @s's source @src */
static void bump(struct snapshot *s, const char *src, const char *row,
		 int col, double add)
{
	const char *text = snapshot_text(s, src);
	char *copy, *line, *save = NULL, out[4096], *f[64];
	struct snapshot t = { 0 };
	int n, i;

	copy = strdup(text);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *l2 = strdup(line), *sv = NULL, *tok;

		n = 0;
		for (tok = strtok_r(l2, " ", &sv); tok && n < 64;
		     tok = strtok_r(NULL, " ", &sv))
			f[n++] = tok;
		if (n > col && !strcmp(f[0], row)) {
			size_t len = 0;

			for (i = 0; i < n; i++) {
				char num[64];

				if (i == col)
					snprintf(num, sizeof(num), "%.0f",
						 strtod(f[i], NULL) + add);
				len += snprintf(out + len, sizeof(out) - len,
						"%s%s", i ? " " : "",
						i == col ? num : f[i]);
			}
			snapshot_add_line(&t, src, out);
		} else {
			snapshot_add_line(&t, src, line);
		}
		free(l2);
	}
	free(copy);
	/* replace the source's text by the bumped one */
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->src[i].name, src)) {
			free(s->src[i].text);
			s->src[i].text = strdup(t.src[0].text);
			s->src[i].len = strlen(s->src[i].text);
			s->src[i].cap = s->src[i].len + 1;
		}
	snapshot_free(&t);
}

int main(void)
{
	struct snapshot a = { 0 }, b = { 0 }, none = { 0 };
	struct figures f;

	snapshot_add_dir(&a, TEST_DEBUGFS "/6.1-hard-temp");
	snapshot_add_dir(&b, TEST_DEBUGFS "/6.1-hard-temp");
	if (!tap_ok(snapshot_text(&a, "netrx_stats") && snapshot_text(&a, "tee_stats") &&
		    snapshot_text(&a, "tcp_stats"), "the recorded module files load"))
		return tap_done();
	/* netrx_stats: runs is column 2, ksoftirqd_runs 3 (its header) */
	bump(&b, "netrx_stats", "all", 2, 500);
	bump(&b, "netrx_stats", "all", 3, 125);
	/* packets is column 6: napi's packets per run, not the NICs' rate */
	bump(&b, "netrx_stats", "all", 6, 1000);
	figures_compute(&a, &b, 2.0, &f);
	tap_ok(near(f.netrx_runs, 500) && near(f.netrx_per_s, 250),
	       "NET_RX: 500 more runs in 2 s are 250/s (got %g, %g)",
	       f.netrx_runs, f.netrx_per_s);
	tap_ok(near(f.ksoftirqd_share, 0.25),
	       "NET_RX: 125 of them by ksoftirqd are a share of 0.25 (got %g)",
	       f.ksoftirqd_share);
	tap_ok(isnan(f.system_pct) && isnan(f.rx_packets_per_s) &&
	       isnan(f.passive_opens_per_s),
	       "no /proc/stat, /proc/net/dev or snmp in the snapshots: those figures are NAN, not 0");
	tap_ok(near(f.tee_calls_per_s, 0) && near(f.handshakes_per_s, 0),
	       "TEE calls and handshakes unchanged: 0/s (got %g, %g)",
	       f.tee_calls_per_s, f.handshakes_per_s);
	/*
	 * each of the 5 commands 100 more calls of 10 ms; tee-supplicant
	 * waits 60 s for work (tee_stats is parsed anew: lines were added)
	 */
	bump(&b, "tee_stats", "all", 2, 100);
	bump(&b, "tee_stats", "all", 4, 1e9);
	snapshot_add_line(&a, "tee_stats",
			  "all SUPPL_RECV 1 0 1000000000 1000000000 0 0 1000000000");
	snapshot_add_line(&b, "tee_stats",
			  "all SUPPL_RECV 7 0 61000000000 61000000000 0 0 60000000000");
	figures_compute(&a, &b, 2.0, &f);
	tap_ok(near(f.packets_per_run, 2),
	       "NET_RX: 1000 packets napi handed over in 500 runs: 2 a run (got %g)",
	       f.packets_per_run);
	tap_ok(near(f.tee_calls_per_s, 250) && near(f.tee_mean_ns, 1e7),
	       "TEE: 500 calls of 10 ms in 2 s, tee-supplicant's 60 s wait for work left out: "
	       "250/s, 10 ms each (got %g, %g)", f.tee_calls_per_s, f.tee_mean_ns);
	figures_compute(&none, &none, 2.0, &f);
	tap_ok(isnan(f.netrx_per_s) && isnan(f.tee_calls_per_s) &&
	       isnan(f.tee_blocked_share) && isnan(f.handshakes_per_s) &&
	       isnan(f.inline_delay_p99_ns) && isnan(f.tee_p99_ns) &&
	       isnan(f.syn_synack_p99_ns) && isnan(f.tcp_missed),
	       "no module files at all: every module figure is NAN, none 0");
	snapshot_free(&a);
	snapshot_free(&b);
	return tap_done();
}
