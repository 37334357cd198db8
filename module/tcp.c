// SPDX-License-Identifier: GPL-2.0
/*
 * tcp.c - the third link of the chain: where does a TCP handshake's time go?
 *
 * The TCP part's common half: tcp_server.c times the server's phases (SYN
 * -> SYN/ACK -> final ACK -> accept), tcp_client.c the client's (SYN_SENT
 * -> ESTABLISHED, the connect() call); this file keeps what they count,
 * attaches their hooks, and shows it all in debugfs. Also counted: SYNs
 * answered by no SYN/ACK (syns less synacks and syncookies), listen-queue
 * overflows (at the SYN and at the final ACK), SYN/ACK retransmits
 * (tcp:tcp_retransmit_synack), syncookies, and request sockets freed
 * before they made a child. compat.h lists the probed symbols and why
 * they are stable.
 *
 * A handshake in flight is an entry of a bounded table (tcp_table.h) keyed
 * by its request socket, then by its child socket (client: its socket).
 * The table is allocated at load (tcp_table_size entries); when it has no
 * room a handshake is counted as untracked and nothing is allocated.
 *
 * Counters and histograms are per CPU and per port (the listening port on
 * the server, the remote port on the client), updated with interrupts
 * disabled; each CPU also keeps the counts of the current window (window.h)
 * and emits teeprobe_tcp_window when it closes, as netrx.c does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/ftrace.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <net/request_sock.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "hist.h"
#include "tcp_part.h"
#include "trace.h"
#include "window.h"

/* ---- parameters ------------------------------------------------------ */

#define TEEPROBE_TCP_TABLE_MIN	64
#define TEEPROBE_TCP_TABLE_MAX	(1U << 20)
#define TEEPROBE_TCP_TIMEOUT_MAX	3600

/*
 * 2048 handshakes in flight: a server holds its rate times its handshake
 * time (tens at 10,000 connections/s); under a SYN flood a listener's
 * half-open queue fills any size, and the rest is counted untracked. Its
 * 102 KiB keep teeprobe's fixed memory within 256 KiB per CPU on a 2-CPU
 * machine (Documentation/benchmarks.rst).
 */
static unsigned int tcp_table_size = 2048;
static unsigned int tcp_timeout_s = 120;

/* param_set_table_size - a power of two from 64 to 1048576 */
static int param_set_table_size(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || v < TEEPROBE_TCP_TABLE_MIN ||
	    v > TEEPROBE_TCP_TABLE_MAX || !teeprobe_tcp_table_size_valid(v)) {
		pr_err("tcp_table_size=%s: must be a power of two from %u to %u\n",
		       val, TEEPROBE_TCP_TABLE_MIN, TEEPROBE_TCP_TABLE_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

/* param_set_timeout - seconds, 1 to 3600 */
static int param_set_timeout(const char *val, const struct kernel_param *kp)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v) || !v || v > TEEPROBE_TCP_TIMEOUT_MAX) {
		pr_err("tcp_timeout_s=%s: must be a number from 1 to %u\n", val,
		       TEEPROBE_TCP_TIMEOUT_MAX);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = v;
	return 0;
}

static const struct kernel_param_ops table_size_ops = {
	.set = param_set_table_size,
	.get = param_get_uint,
};
static const struct kernel_param_ops timeout_ops = {
	.set = param_set_timeout,
	.get = param_get_uint,
};
module_param_cb(tcp_table_size, &table_size_ops, &tcp_table_size, 0444);
__MODULE_PARM_TYPE(tcp_table_size, "uint");
MODULE_PARM_DESC(tcp_table_size, "TCP handshakes followed at once, a power of two from 64 to 1048576 (default 2048)");
module_param_cb(tcp_timeout_s, &timeout_ops, &tcp_timeout_s, 0444);
__MODULE_PARM_TYPE(tcp_timeout_s, "uint");
MODULE_PARM_DESC(tcp_timeout_s, "seconds after which a handshake never seen to finish is forgotten, 1 to 3600 (default 120)");

/* ---- state ---------------------------------------------------------- */

/*
 * Ports get a slot on first sight, in order; slot 0 counts every port
 * beyond. Eleven ports and "other" keep a CPU's counters each. Their phase
 * histograms (10 KiB a port and CPU) are a per-CPU block a slot, allocated
 * ahead of need: TEEPROBE_TCP_SPARE slots past the last one taken always have
 * theirs, and taking a slot has a work allocate the next (tcp_grow_fn).
 * More new ports than that within the work's delay lose their first
 * phases, counted as phases_lost in tcp_phases.
 */
#define TEEPROBE_TCP_PORTS		12
#define TEEPROBE_TCP_SPARE		1
#define TEEPROBE_TCP_EXPIRE_NS	NSEC_PER_SEC	/* expiry pass at most this often */

struct teeprobe_tcp_cpu {
	u64 port[TEEPROBE_TCP_PORTS][TEEPROBE_TCP_COUNTERS];	/* since load/reset */
	u64 phases_lost;		/* phases of a slot without its block */
	struct teeprobe_window window;			/* the open window */
	struct teeprobe_tcp_window_counts win;		/* its counters */
};

/* A port's phase histograms on one CPU */
struct teeprobe_tcp_phases {
	struct teeprobe_hist phase[TEEPROBE_TCP_PHASES];
};

static struct teeprobe_tcp_cpu __percpu *tcp_cpu;
/* Each port's counters and phases on each CPU, since load or reset */
static struct teeprobe_tcp_phases __percpu *tcp_phases[TEEPROBE_TCP_PORTS];
static DEFINE_MUTEX(tcp_grow_lock);	/* serializes tcp_phases' growth */
static struct work_struct tcp_grow_work;
static struct irq_work tcp_grow_irq;
static u32 tcp_ports[TEEPROBE_TCP_PORTS];
/* The handshakes in flight (tcp_table.h) */
struct teeprobe_tcp_table teeprobe_tcp_handshakes;
static struct teeprobe_tcp_bucket *tcp_buckets;
static u64 tcp_last_expire_ns;

/*
 * teeprobe_tcp_port_slot - the counters slot of @port: its own, or 0 when
 * all are taken
 */
unsigned int teeprobe_tcp_port_slot(u16 port)
{
	bool taken;
	unsigned int slot = teeprobe_tcp_slot_of(tcp_ports, TEEPROBE_TCP_PORTS,
						 port, &taken);

	if (taken)	/* any context: an irq_work can be queued from NMI */
		irq_work_queue(&tcp_grow_irq);
	return slot;
}

/* ---- accounting --------------------------------------------------------- */

/*
 * fill_syn_drops - SYNs answered by no SYN/ACK, in @c: every SYN is
 * answered by its tcp_conn_request call on its own CPU, so the rest of the
 * SYNs counted on a CPU were dropped (a SYN being served right now counts
 * among them until its SYN/ACK leaves)
 */
static void fill_syn_drops(u64 *count)
{
	u64 answered = count[TEEPROBE_TCP_SYNACKS] +
		       count[TEEPROBE_TCP_SYNCOOKIES];

	count[TEEPROBE_TCP_SYN_DROPS] = count[TEEPROBE_TCP_SYNS] > answered ?
		count[TEEPROBE_TCP_SYNS] - answered : 0;
}

/* tcp_window_close - emit the closed window @w of this CPU and start afresh */
static void tcp_window_close(struct teeprobe_tcp_cpu *st, const struct teeprobe_window *w)
{
	fill_syn_drops(st->win.count);
	trace_teeprobe_tcp_window(smp_processor_id(), w->start_ns, w->len_ns,
				  &st->win);
	memset(&st->win, 0, sizeof(st->win));
}

/* tcp_this_cpu - this CPU's state, its window rolled to @now; irqs off */
static struct teeprobe_tcp_cpu *tcp_this_cpu(u64 now)
{
	struct teeprobe_tcp_cpu *st = this_cpu_ptr(tcp_cpu);
	struct teeprobe_window closed;

	if (teeprobe_window_roll(&st->window, now, teeprobe_window_len_ns(),
				 &closed))
		tcp_window_close(st, &closed);
	return st;
}

/*
 * teeprobe_tcp_account - count @counter for port @slot at @now (the caller's clock
 * reading: most have one) and add the phases of @phase_ns whose bit is set
 * in @phases
 */
void teeprobe_tcp_account(u64 now, unsigned int slot,
		       enum teeprobe_tcp_counter counter, const u64 *phase_ns,
		       unsigned long phases)
{
	struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(tcp_phases[slot]);
	struct teeprobe_tcp_phases *port = NULL;
	struct teeprobe_tcp_cpu *st;
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	st = tcp_this_cpu(now);
	st->port[slot][counter]++;
	st->win.count[counter]++;
	if (phases) {
		if (blk)
			port = this_cpu_ptr(blk);
		else
			st->phases_lost++;
	}
	for_each_set_bit(i, &phases, TEEPROBE_TCP_PHASES) {
		if (port)
			teeprobe_hist_add(&port->phase[i], phase_ns[i]);
		if (i < TEEPROBE_TCP_WINDOW_PHASES)
			teeprobe_hist_add(&st->win.phase[i], phase_ns[i]);
	}
	local_irq_restore(flags);
}
NOKPROBE_SYMBOL(teeprobe_tcp_account);

/* teeprobe_tcp_count_at - count one @counter for port @slot at @now */
void teeprobe_tcp_count_at(u64 now, unsigned int slot,
			enum teeprobe_tcp_counter counter)
{
	teeprobe_tcp_account(now, slot, counter, NULL, 0);
}

/* teeprobe_tcp_count - count one @counter for port @slot, now */
void teeprobe_tcp_count(unsigned int slot, enum teeprobe_tcp_counter counter)
{
	teeprobe_tcp_count_at(teeprobe_now_ns(), slot, counter);
}

/*
 * teeprobe_tcp_addrs_of - the endpoints of @sk, stored as
 * sock:inet_sock_set_state does
 */
void teeprobe_tcp_addrs_of(const struct sock *sk, struct teeprobe_tcp_addrs *a)
{
	struct in6_addr v6;

	memset(a, 0, sizeof(*a));
	a->family = sk->sk_family;
	a->sport = sk->sk_num;
	a->dport = ntohs(sk->sk_dport);
	memcpy(a->saddr, &sk->sk_rcv_saddr, sizeof(a->saddr));
	memcpy(a->daddr, &sk->sk_daddr, sizeof(a->daddr));
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		memcpy(a->saddr_v6, &sk->sk_v6_rcv_saddr, sizeof(a->saddr_v6));
		memcpy(a->daddr_v6, &sk->sk_v6_daddr, sizeof(a->daddr_v6));
		return;
	}
#endif
	ipv6_addr_set_v4mapped(sk->sk_rcv_saddr, &v6);
	memcpy(a->saddr_v6, &v6, sizeof(a->saddr_v6));
	ipv6_addr_set_v4mapped(sk->sk_daddr, &v6);
	memcpy(a->daddr_v6, &v6, sizeof(a->daddr_v6));
}

/* ---- the hooks and the kretprobes ------------------------------------------ */

/* Each side's tracepoints, function hooks and kretprobes, the server first */
static struct teeprobe_tcp_probes *const tcp_sides[] = {
	&teeprobe_tcp_server,
	&teeprobe_tcp_client,
};

/* tcp_tracepoints_detach - detach the kernel tracepoints' probes */
static void tcp_tracepoints_detach(void)
{
	unsigned int s;

	for (s = ARRAY_SIZE(tcp_sides); s--; )
		teeprobe_hooks_detach(tcp_sides[s]->hooks,
				      tcp_sides[s]->nr_hooks);
}

/* tcp_tracepoints_attach - attach every side's tracepoint probes, or none */
static int tcp_tracepoints_attach(void)
{
	unsigned int s;
	int ret;

	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++) {
		ret = teeprobe_hooks_attach("tcp", tcp_sides[s]->hooks,
					    tcp_sides[s]->nr_hooks);
		if (ret)
			goto out_detach;
	}
	return 0;

out_detach:
	while (s--)
		teeprobe_hooks_detach(tcp_sides[s]->hooks,
				      tcp_sides[s]->nr_hooks);
	/* as teeprobe_hooks_attach does: the caller frees what they used */
	tracepoint_synchronize_unregister();
	return ret;
}

/* tcp_probe_attach - register @p; a missing symbol is reported, not fatal */
static void tcp_probe_attach(struct teeprobe_tcp_probe *p)
{
	unsigned int cpus = num_possible_cpus();
	int ret;

	memset(&p->rp, 0, sizeof(p->rp));
	p->rp.kp.symbol_name = p->symbol;
	p->rp.entry_handler = p->entry;
	p->rp.handler = p->ret;
	p->rp.data_size = p->data_size;
	/* accept() and connect() sleep in every waiting thread. */
	p->rp.maxactive = max(256U, 16 * cpus);
	ret = register_kretprobe(&p->rp);
	p->error = ret;
	p->attached = !ret;
	if (ret)
		pr_warn("tcp: cannot probe %s: error %d\n", p->symbol, ret);
}

/* tcp_probe_detach - unregister @p if it is attached */
static void tcp_probe_detach(struct teeprobe_tcp_probe *p)
{
	if (!p->attached)
		return;
	unregister_kretprobe(&p->rp);
	p->attached = false;
}

/* tcp_probe_show - a kretprobe's line of tcp_probes */
static void tcp_probe_show(struct seq_file *m,
			   const struct teeprobe_tcp_probe *p)
{
	seq_printf(m, "%s kretprobe %s %d %lu\n", p->symbol,
		   p->attached ? "attached" :
		   p->error == -ENOENT ? "not-found" : "failed",
		   p->error, p->attached ?
		   p->rp.nmissed + p->rp.kp.nmissed : 0UL);
}

/* tcp_show_probes - tcp_probes: each hook, its state, nmissed */
static void tcp_show_probes(struct seq_file *m)
{
	unsigned int s, i;

	seq_puts(m, "# symbol type state error nmissed\n");
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_fhooks; i++)
			teeprobe_fhook_show(m, &tcp_sides[s]->fhooks[i]);
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_probes; i++)
			tcp_probe_show(m, &tcp_sides[s]->probes[i]);
}

/* ---- window flush and table expiry ------------------------------------- */

/*
 * tcp_flush - close this CPU's window if it ended with windows of @len
 * (window.c's work, by IPI; at unload @len is 0)
 */
static void tcp_flush(u64 len)
{
	struct teeprobe_tcp_cpu *st = this_cpu_ptr(tcp_cpu);
	struct teeprobe_window closed;

	if (teeprobe_window_flush(&st->window, teeprobe_now_ns(), len, &closed))
		tcp_window_close(st, &closed);
}

/* tcp_window_of - @cpu's window, for the flush */
static struct teeprobe_window *tcp_window_of(int cpu)
{
	return &per_cpu_ptr(tcp_cpu, cpu)->window;
}

/*
 * tcp_tick - window.c's work, every window: forget stale handshakes, at
 * most once a second
 */
static void tcp_tick(u64 now)
{
	if (teeprobe_ns_delta(tcp_last_expire_ns, now) >= TEEPROBE_TCP_EXPIRE_NS) {
		teeprobe_tcp_table_expire(&teeprobe_tcp_handshakes, now);
		tcp_last_expire_ns = now;
	}
}

/* ---- reset and debugfs ---------------------------------------------------- */

/* tcp_reset_cpu - zero a CPU's totals (on it by IPI, or offline) */
static void tcp_reset_cpu(int cpu)
{
	struct teeprobe_tcp_cpu *st = per_cpu_ptr(tcp_cpu, cpu);
	unsigned int slot;

	memset(st->port, 0, sizeof(st->port));
	st->phases_lost = 0;
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(tcp_phases[slot]);

		if (blk)
			memset(per_cpu_ptr(blk, cpu), 0, sizeof(*blk));
	}
}

/*
 * tcp_reset_counts - after each CPU's tcp_reset_cpu: zero the table's counters.
 * Handshakes in flight stay followed, ports keep their slots, windows go on.
 */
static void tcp_reset_counts(void)
{
	teeprobe_tcp_table_reset_counts(&teeprobe_tcp_handshakes);
}

static const char * const tcp_counter_names[] = { TEEPROBE_TCP_COUNTER_NAMES };
static const char * const tcp_phase_names[] = { TEEPROBE_TCP_PHASE_NAMES };

/* show_port - the port of slot @slot as text; false for an unused slot */
static bool show_port(unsigned int slot, char *buf, size_t len)
{
	u32 port = READ_ONCE(tcp_ports[slot]);

	if (!slot) {
		strscpy(buf, "other", len);
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
	fill_syn_drops(c);
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

	sum = kvcalloc(TEEPROBE_TCP_PORTS, sizeof(*sum), GFP_KERNEL);
	if (!sum) {
		seq_puts(m, "# error ENOMEM\n");
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		const struct teeprobe_tcp_cpu *st = per_cpu_ptr(tcp_cpu, cpu);

		snprintf(cpu_name, sizeof(cpu_name), "%d", cpu);
		for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
			struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(tcp_phases[slot]);

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
 * tcp_show_stats - tcp_stats: counters per CPU and port, then per
 * port for all CPUs, then the table's and the acceptors' "# key value"
 * lines (the phases are tcp_phases)
 */
static void tcp_show_stats(struct seq_file *m)
{
	struct teeprobe_tcp_counts *sum;
	struct teeprobe_tcp_table_stats ts;
	unsigned int slot, i;
	char port[16];

	seq_puts(m, "# cpu port");
	for (i = 0; i < TEEPROBE_TCP_COUNTERS; i++)
		seq_printf(m, " %s", tcp_counter_names[i]);
	seq_putc(m, '\n');
	sum = tcp_sums(m, true);
	if (!sum)
		return;
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++)
		if (show_port(slot, port, sizeof(port)) &&
		    !counts_empty(sum[slot].count))
			show_counts_line(m, "all", port, sum[slot].count);
	kvfree(sum);
	teeprobe_tcp_table_stats(&teeprobe_tcp_handshakes, &ts);
	seq_printf(m, "# table_size %u\n", tcp_table_size);
	seq_printf(m, "# table_in_use %llu\n", ts.in_use);
	seq_printf(m, "# table_expired %llu\n", ts.expired);
	seq_printf(m, "# table_full %llu\n", ts.full);
	seq_printf(m, "# timeout_s %u\n", tcp_timeout_s);
	teeprobe_acceptors_show(m);
	seq_printf(m, "# window_ms %llu\n",
		   div64_u64(teeprobe_window_len_ns(), NSEC_PER_MSEC));
}

/*
 * tcp_show_phases - tcp_phases: each port's phases for all CPUs,
 * count, sum, max, p50 and p99 (interpolated within their bucket), in ns
 */
static void tcp_show_phases(struct seq_file *m)
{
	struct teeprobe_tcp_counts *sum;
	unsigned int slot, i;
	u64 lost = 0;
	char port[16];
	int cpu;

	seq_puts(m, "# " TEEPROBE_TCP_PHASES_HEADER "\n");
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
				   port, tcp_phase_names[i], h->count, h->sum,
				   h->max, teeprobe_hist_percentile(h, 50),
				   teeprobe_hist_percentile(h, 99));
		}
	}
	kvfree(sum);
	for_each_possible_cpu(cpu)
		lost += per_cpu_ptr(tcp_cpu, cpu)->phases_lost;
	seq_printf(m, "# phases_lost %llu\n", lost);
}

/* tcp_show_hist - tcp_hist: per port and phase, a column per CPU */
static void tcp_show_hist(struct seq_file *m)
{
	unsigned int slot, phase;
	char label[48], port[16];

	teeprobe_seq_hist_header(m, "port phase");
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		struct teeprobe_tcp_phases __percpu *blk = READ_ONCE(tcp_phases[slot]);

		if (!blk || !show_port(slot, port, sizeof(port)))
			continue;
		for (phase = 0; phase < TEEPROBE_TCP_PHASES; phase++) {
			snprintf(label, sizeof(label), "%s %s", port,
				 tcp_phase_names[phase]);
			teeprobe_seq_hist_rows(m, label, blk,
					       offsetof(struct teeprobe_tcp_phases, phase) +
					       phase * sizeof(struct teeprobe_hist));
		}
	}
	teeprobe_seq_hist_trailer(m);
}

/* ---- init and exit -------------------------------------------------------- */

static struct teeprobe_file tcp_files[] = {
	{ .name = "tcp_probes", .show = tcp_show_probes },
	{ .name = "tcp_stats", .show = tcp_show_stats },
	{ .name = "tcp_phases", .show = tcp_show_phases },
	{ .name = "tcp_hist", .show = tcp_show_hist },
};

static struct teeprobe_part tcp_part = {
	.name = "tcp",
	.window_of = tcp_window_of,
	.flush = tcp_flush,
	.tick = tcp_tick,
	.reset_cpu = tcp_reset_cpu,
	.reset = tcp_reset_counts,
	.files = tcp_files,
	.nr_files = ARRAY_SIZE(tcp_files),
};

/* tcp_detach_all - unregister every hook and probe, then forget the SYNs */
static void tcp_detach_all(void)
{
	unsigned int s, i;

	for (s = ARRAY_SIZE(tcp_sides); s--; )
		for (i = tcp_sides[s]->nr_probes; i--; )
			tcp_probe_detach(&tcp_sides[s]->probes[i]);
	/*
	 * In reverse: send_synack's hook reads the SYN that tcp_conn_request's
	 * publishes; it goes first.
	 */
	for (s = ARRAY_SIZE(tcp_sides); s--; )
		for (i = tcp_sides[s]->nr_fhooks; i--; )
			teeprobe_fhook_detach(&tcp_sides[s]->fhooks[i]);
	/* Unregistering waited for the callbacks: no one reads these. */
	teeprobe_tcp_server_forget();
}

/* tcp_fhook_required - 0 if @h is attached or may be missing, else why */
static int tcp_fhook_required(const struct teeprobe_fhook *h)
{
	if (h->attached || (h->optional && h->error == -ENOENT))
		return 0;
	pr_err("tcp: cannot hook %s (error %d)%s: the handshake's phases need it\n",
	       h->symbol, h->error,
	       h->error == -ENOENT ? ", not in this kernel or not traceable" : "");
	return h->error ?: -ENOENT;
}

/* tcp_probe_required - 0 if @p is attached, else why */
static int tcp_probe_required(const struct teeprobe_tcp_probe *p)
{
	if (p->attached)
		return 0;
	pr_err("tcp: cannot probe %s (error %d): the handshake's phases need it\n",
	       p->symbol, p->error);
	return p->error ?: -ENOENT;
}

/*
 * tcp_hooks_required - every function the handshake's phases are timed at
 * is hooked. A kernel without one (renamed, inlined, not traceable) would
 * give counts of zero that look like no traffic: the module refuses to
 * load instead, naming the function (compat.h says where each comes from).
 */
static int tcp_hooks_required(void)
{
	unsigned int s, i;
	int ret;

	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_fhooks; i++) {
			ret = tcp_fhook_required(&tcp_sides[s]->fhooks[i]);
			if (ret)
				return ret;
		}
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_probes; i++) {
			ret = tcp_probe_required(&tcp_sides[s]->probes[i]);
			if (ret)
				return ret;
		}
	return 0;
}

/*
 * tcp_slot_wanted - whether @slot needs its phase block now: it is taken,
 * or one of the TEEPROBE_TCP_SPARE slots taken next (slots are taken in order,
 * 1 to TEEPROBE_TCP_PORTS - 1, then "other", slot 0)
 */
static bool tcp_slot_wanted(unsigned int slot)
{
	unsigned int order = slot ? slot - 1 : TEEPROBE_TCP_PORTS - 1, taken = 0;

	while (taken < TEEPROBE_TCP_PORTS - 1 && READ_ONCE(tcp_ports[taken + 1]))
		taken++;
	/* "other" counts from the first SYN beyond the last slot */
	return order < taken + TEEPROBE_TCP_SPARE;
}

/* tcp_grow_fn - allocate the phase blocks the slots taken so far want */
static void tcp_grow_fn(struct work_struct *work)
{
	struct teeprobe_tcp_phases __percpu *blk;
	unsigned int slot;

	mutex_lock(&tcp_grow_lock);
	for (slot = 0; slot < TEEPROBE_TCP_PORTS; slot++) {
		if (tcp_phases[slot] || !tcp_slot_wanted(slot))
			continue;
		blk = teeprobe_alloc_percpu(sizeof(*blk), __alignof__(*blk));
		if (!blk)
			break;	/* the probes count phases_lost */
		/* zeroed memory, then the pointer the probes read */
		smp_store_release(&tcp_phases[slot], blk);
	}
	mutex_unlock(&tcp_grow_lock);
}

/* tcp_grow_kick - irq_work: a slot was taken; grow from process context */
static void tcp_grow_kick(struct irq_work *work)
{
	schedule_work(&tcp_grow_work);
}

/* tcp_free_percpu - free what teeprobe_tcp_init and the growth allocated */
static void tcp_free_percpu(void)
{
	teeprobe_free_percpu_n((void __percpu **)tcp_phases, TEEPROBE_TCP_PORTS,
			       sizeof(struct teeprobe_tcp_phases));
	teeprobe_free_percpu(tcp_cpu, sizeof(struct teeprobe_tcp_cpu));
	tcp_cpu = NULL;
}

/* teeprobe_tcp_init - allocate the table, attach probes and tracepoints */
int teeprobe_tcp_init(void)
{
	unsigned int nr_buckets, s, i;
	int ret;

	/* alloc_percpu's limit */
	BUILD_BUG_ON(sizeof(struct teeprobe_tcp_cpu) > PCPU_MIN_UNIT_SIZE);
	BUILD_BUG_ON(sizeof(struct teeprobe_tcp_phases) > PCPU_MIN_UNIT_SIZE);
	nr_buckets = teeprobe_tcp_table_buckets(tcp_table_size);
	/*
	 * vmalloc: whole pages (102 KiB by default: 256 buckets of 408
	 * bytes), where kmalloc would round up to a power of two (128 KiB).
	 */
	tcp_buckets = vcalloc(nr_buckets, sizeof(*tcp_buckets));
	if (!tcp_buckets)
		return -ENOMEM;
	teeprobe_tcp_table_init(&teeprobe_tcp_handshakes, tcp_buckets, nr_buckets,
				(u64)tcp_timeout_s * NSEC_PER_SEC);
	INIT_WORK(&tcp_grow_work, tcp_grow_fn);
	init_irq_work(&tcp_grow_irq, tcp_grow_kick);
	tcp_cpu = teeprobe_alloc_percpu(sizeof(struct teeprobe_tcp_cpu),
					__alignof__(struct teeprobe_tcp_cpu));
	if (!tcp_cpu) {
		ret = -ENOMEM;
		goto out_free_percpu;
	}
	tcp_grow_fn(NULL);	/* the first slots' blocks */
	if (!tcp_phases[1]) {
		ret = -ENOMEM;
		goto out_free_percpu;
	}
	ret = tcp_tracepoints_attach();
	if (ret)
		goto out_free_percpu;
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_fhooks; i++)
			teeprobe_fhook_attach(&tcp_sides[s]->fhooks[i]);
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_probes; i++)
			tcp_probe_attach(&tcp_sides[s]->probes[i]);
	ret = tcp_hooks_required();
	if (ret)
		goto out_detach;
	tcp_last_expire_ns = teeprobe_now_ns();
	teeprobe_part_register(&tcp_part);
	return 0;

out_detach:
	tcp_detach_all();
	tcp_tracepoints_detach();
	tracepoint_synchronize_unregister();
out_free_percpu:
	irq_work_sync(&tcp_grow_irq);
	cancel_work_sync(&tcp_grow_work);
	tcp_free_percpu();
	vfree(tcp_buckets);
	return ret;
}

/* teeprobe_tcp_exit - detach everything, emit the open windows, free */
void teeprobe_tcp_exit(void)
{
	tcp_detach_all();
	tcp_tracepoints_detach();
	tracepoint_synchronize_unregister();
	/* Nothing updates the windows any more: it closes them. */
	teeprobe_part_unregister(&tcp_part);
	/* no probe takes a slot any more: the last kick, then its work */
	irq_work_sync(&tcp_grow_irq);
	cancel_work_sync(&tcp_grow_work);
	tcp_free_percpu();
	vfree(tcp_buckets);
}
