// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_derive.c - the figures derived from two snapshots (derive.c) when
 * the snapshots hold arbitrary text. The input is the start snapshot, a
 * line "=\n" (or, without one, its middle), then the end snapshot; each
 * line is "SOURCE TEXT", as in the markers "teeprobe record" writes.
 */
#include "fuzz.h"
#include "../../tools/lib/include/delta.h"

static const char *const table_sources[] = {
	"netrx_stats", "netrx_hist", "tee_stats", "tee_hist", "tcp_stats",
	"tcp_phases", "tcp_hist",
};

/* load - the lines of @text into @s */
static void load(struct snapshot *s, char *text)
{
	char *line, *save = NULL, *sp;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		sp = strchr(line, ' ');
		if (!sp || sp == line)
			continue;
		*sp = '\0';
		snapshot_add_line(s, line, sp + 1);
	}
}

/* tables - every table lookup derive.h offers, on source @source */
static void tables(const struct snapshot *a, const struct snapshot *b,
		   const char *source)
{
	static const char *const keys[] = { "all", NULL, "0" };
	double bucket[HIST_BUCKETS];
	struct tables tb;
	int i;

	tables_load(&tb, a, b, source);
	(void)tables_delta(&tb, "all", NULL, "runs");
	for (i = 0; tb.ok && i < tb.t[1]->nrows; i++)
		if (tb.t[1]->ncols >= 2)
			(void)tables_delta(&tb, tb.t[1]->rows[i].field[0],
					   tb.t[1]->rows[i].field[1], "calls");
	(void)tables_hist_delta(&tb, "inline_delay", "all", bucket);
	(void)tables_hist_keyed_delta(&tb, keys, 3, "0", bucket);
	(void)tables_hist_keyed_delta(&tb, keys, 0, "all", bucket);
}

/* derive_all - every derive_* function on @a and @b */
static void derive_all(const struct snapshot *a, const struct snapshot *b)
{
	double pct[5];
	size_t i;

	for (i = 0; i < sizeof(table_sources) / sizeof(table_sources[0]); i++)
		tables(a, b, table_sources[i]);
	(void)derive_cpu(a, b, "cpu", pct);
	(void)derive_cpu(a, b, "cpu0", pct);
	(void)derive_snmp(a, b, "snmp", "ActiveOpens");
	(void)derive_snmp(a, b, "netstat", "ListenOverflows");
	(void)derive_nic_rx(a, b, NULL);
	(void)derive_nic_rx(a, b, "eth0");
	(void)derive_seconds(a, b);
	(void)modstats_phase(a, "7000", TEEPROBE_TCP_SYN_SYNACK);
	(void)modstats_phase(b, "other", TEEPROBE_TCP_CONNECT);
}

/* LLVMFuzzerTestOneInput - two snapshots from one input */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot a = { 0 }, b = { 0 };
	char *text = fuzz_text(data, size), *sep, *second;

	sep = strstr(text, "\n=\n");
	if (sep) {
		*sep = '\0';
		second = sep + 3;
	} else {
		second = fuzz_text(data + size / 2, size - size / 2);
		text[size / 2] = '\0';
	}
	load(&a, text);
	load(&b, second);
	derive_all(&a, &b);
	derive_all(&b, &a);
	snapshot_free(&a);
	snapshot_free(&b);
	if (!sep)
		free(second);
	free(text);
	return 0;
}
