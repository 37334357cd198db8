// SPDX-License-Identifier: GPL-2.0
/*
 * tcp_stats.c - the TCP part's counters in debugfs: tcp_stats (the
 * counters per CPU and port, then per port, then the table's "# key
 * value" lines), tcp_phases (each port's phases: count, sum, max, p50,
 * p99) and tcp_hist (their histograms, a column per CPU); their columns
 * are abi.h's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hist.h"
#include "tcp_part.h"

/* show_port - the port of slot @slot as text; false for an unused slot */
static bool show_port(unsigned int slot, char *buf, size_t len)
{
	u32 port = READ_ONCE(teeprobe_tcp_ports[slot]);

	if (!slot) {
		strscpy(buf, TEEPROBE_TCP_OTHER_PORT, len);
		return true;
	}
	snprintf(buf, len, "%u", port);
	return port != 0;
}

/* counts_empty - whether nothing was counted in @count */
static bool counts_empty(const u64 *count)
{
	unsigned int i;

	for (i = 0; i < TEEPROBE_TCP_COUNTERS; i++)
		if (count[i])
			return false;
	return true;
}

/* show_counts_line - one counters line of tcp_stats */
static void show_counts_line(struct seq_file *m, const char *cpu,
			     const char *port, const u64 *count)
{
	u64 c[TEEPROBE_TCP_COUNTERS];
	unsigned int i;

	memcpy(c, count, sizeof(c));
	teeprobe_tcp_fill_syn_drops(c);
	seq_printf(m, "%s %s", cpu, port);
	for (i = 0; i < TEEPROBE_TCP_COUNTERS; i++)
		seq_printf(m, " %llu", c[i]);
	seq_putc(m, '\n');
}

/*
 * tcp_sums - each port's counters and phase histograms with every CPU
 * added (kvfree() it), each CPU's counters line printed to @m on the way
 * when @per_cpu; NULL, said in @m, when out of memory
 */
static struct teeprobe_tcp_counts *tcp_sums(struct seq_file *m, bool per_cpu)
{
	struct teeprobe_tcp_counts *sum;
	char cpu_name[16], port[16];
	unsigned int slot, i;
	int cpu;

	sum = teeprobe_should_fail("tcp_sums") ? NULL :
	      kvcalloc(TEEPROBE_TCP_PORTS, sizeof(*sum), GFP_KERNEL);
	if (!sum) {
		seq_puts(m, "# error ENOMEM\n");
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		const struct teeprobe_tcp_cpu *st = per_cpu_ptr(teeprobe_tcp_percpu, cpu);

		snprintf(cpu_name, sizeof(cpu_name), "%d", cpu);
		for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
			struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(teeprobe_tcp_port_phases[slot]);

			if (!show_port(slot, port, sizeof(port)) ||
			    counts_empty(st->port[slot]))
				continue;
			if (per_cpu)
				show_counts_line(m, cpu_name, port, st->port[slot]);
			for (i = 0; i < TEEPROBE_TCP_COUNTERS; i++)
				sum[slot].count[i] += st->port[slot][i];
			for (i = 0; blk && i < TEEPROBE_TCP_PHASES; i++)
				teeprobe_hist_merge(&sum[slot].phase[i],
						    &per_cpu_ptr(blk, cpu)->phase[i]);
		}
	}
	return sum;
}

/*
 * teeprobe_tcp_show_stats - tcp_stats: counters per CPU and port, then per
 * port for all CPUs, then the table's "# key value" lines (the phases are
 * teeprobe_tcp_port_phases)
 */
void teeprobe_tcp_show_stats(struct seq_file *m)
{
	struct teeprobe_tcp_counts *sum;
	struct teeprobe_tcp_table_stats ts;
	unsigned int slot;
	char port[16];

	seq_puts(m, TEEPROBE_HEADER(TEEPROBE_TCP_STATS_KEYS,
				    TEEPROBE_TCP_COUNTER_LIST));
	sum = tcp_sums(m, true);
	if (!sum)
		return;
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++)
		if (show_port(slot, port, sizeof(port)) &&
		    !counts_empty(sum[slot].count))
			show_counts_line(m, TEEPROBE_ALL, port, sum[slot].count);
	kvfree(sum);
	teeprobe_tcp_table_stats(&teeprobe_tcp_handshakes, &ts);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_TABLE_SIZE, teeprobe_tcp_table_size);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_TABLE_IN_USE, ts.in_use);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_TABLE_EXPIRED, ts.expired);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_TABLE_FULL, ts.full);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_TIMEOUT_S, teeprobe_tcp_timeout_s);
}

/*
 * teeprobe_tcp_show_phases - teeprobe_tcp_port_phases: each port's phases for all CPUs,
 * count, sum, max, p50 and p99 (interpolated within their bucket), in ns
 */
void teeprobe_tcp_show_phases(struct seq_file *m)
{
	struct teeprobe_tcp_counts *sum;
	unsigned int slot, i;
	u64 lost = 0;
	char port[16];
	int cpu;

	seq_puts(m, TEEPROBE_HEADER(TEEPROBE_NONE, TEEPROBE_TCP_PHASES_COLS));
	sum = tcp_sums(m, false);
	if (!sum)
		return;
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		if (!show_port(slot, port, sizeof(port)))
			continue;
		for (i = 0; i < TEEPROBE_TCP_PHASES; i++) {
			const struct teeprobe_hist *h = &sum[slot].phase[i];

			if (!h->count)
				continue;
			seq_printf(m, "%s %s %llu %llu %llu %llu %llu\n",
				   port, teeprobe_tcp_phase_name(i), h->count, h->sum,
				   h->max, teeprobe_hist_percentile(h, 50),
				   teeprobe_hist_percentile(h, 99));
		}
	}
	kvfree(sum);
	for_each_possible_cpu(cpu)
		lost += per_cpu_ptr(teeprobe_tcp_percpu, cpu)->phases_lost;
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_PHASES_LOST, lost);
	teeprobe_seq_key_u64(m, TEEPROBE_KEY_BLOCKS_MISSING,
			     teeprobe_tcp_blocks_missing());
}

/* teeprobe_tcp_show_hist - tcp_hist: per port and phase, a column per CPU */
void teeprobe_tcp_show_hist(struct seq_file *m)
{
	unsigned int slot, phase;
	char label[48], port[16];

	teeprobe_seq_hist_header(m, TEEPROBE_COLS_STR(TEEPROBE_TCP_HIST_KEYS));
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(teeprobe_tcp_port_phases[slot]);

		if (!blk || !show_port(slot, port, sizeof(port)))
			continue;
		for (phase = 0; phase < TEEPROBE_TCP_PHASES; phase++) {
			snprintf(label, sizeof(label), "%s %s", port,
				 teeprobe_tcp_phase_name(phase));
			teeprobe_seq_hist_rows(m, label, blk,
					       offsetof(struct teeprobe_tcp_phases, phase) +
					       phase * sizeof(struct teeprobe_hist));
		}
	}
	teeprobe_seq_hist_trailer(m);
}
