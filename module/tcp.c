// SPDX-License-Identifier: GPL-2.0
/*
 * tcp.c - the third link of the chain: where does a TCP handshake's time go?
 *
 * The TCP part's common half: tcp_server.c times the server's phases (SYN
 * -> SYN/ACK -> final ACK -> accept), tcp_client.c the client's (SYN_SENT
 * -> ESTABLISHED, the connect() call); this file keeps what they count
 * and attaches their hooks; tcp_stats.c shows it all in debugfs. Also
 * counted: SYNs answered by no SYN/ACK (syns less synacks and
 * syncookies), listen-queue overflows (at the SYN and at the final ACK),
 * SYN/ACK retransmits (tcp:tcp_retransmit_synack), syncookies, and
 * request sockets freed before they made a child. compat.h lists the probed symbols and why
 * they are stable.
 *
 * This file attaches every side's hooks (kernel tracepoints, function
 * hooks, kretprobes), refuses to load where one the phases need is
 * missing, shows them in tcp_probes, and registers the part: its state
 * and accounting are tcp_state.c's, its other files tcp_stats.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/minmax.h>
#include <linux/seq_file.h>
#include <linux/tracepoint.h>

#include "kretprobe.h"
#include "tcp_part.h"

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

/* The kretprobes of both sides, in the registrar (kretprobe.c) */
static struct teeprobe_kretprobes tcp_kretprobes;

/* tcp_probe_show - a kretprobe's line of tcp_probes */
static void tcp_probe_show(struct seq_file *m,
			   const struct teeprobe_kretprobe *p)
{
	struct teeprobe_kretprobe_status st;

	teeprobe_kretprobe_status(p, &st);
	seq_printf(m, "%s kretprobe %s %d %lu\n", p->symbol,
		   teeprobe_probe_state_name(st.state), st.error, st.nmissed);
}

/* tcp_show_probes - tcp_probes: each hook, its state, nmissed */
static void tcp_show_probes(struct seq_file *m)
{
	unsigned int s, i;

	seq_puts(m, TEEPROBE_HEADER(TEEPROBE_NONE, TEEPROBE_TCP_PROBES_COLS));
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_fhooks; i++)
			teeprobe_fhook_show(m, &tcp_sides[s]->fhooks[i]);
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_probes; i++)
			tcp_probe_show(m, &tcp_sides[s]->probes[i]);
}

/* ---- init and exit -------------------------------------------------------- */

static struct teeprobe_file tcp_files[] = {
	{ .id = TEEPROBE_FILE_TCP_PROBES, .show = tcp_show_probes },
	{ .id = TEEPROBE_FILE_TCP_STATS, .show = teeprobe_tcp_show_stats,
	  .window_ms = true },
	{ .id = TEEPROBE_FILE_TCP_PHASES, .show = teeprobe_tcp_show_phases },
	{ .id = TEEPROBE_FILE_TCP_HIST, .show = teeprobe_tcp_show_hist },
};

static struct teeprobe_part tcp_part = {
	.name = "tcp",
	.window_of = teeprobe_tcp_window_of,
	.flush = teeprobe_tcp_flush,
	.tick = teeprobe_tcp_tick,
	.reset_cpu = teeprobe_tcp_reset_cpu,
	.reset = teeprobe_tcp_reset_counts,
	.files = tcp_files,
	.nr_files = ARRAY_SIZE(tcp_files),
};

/* tcp_detach_all - unregister every hook and probe, then forget the SYNs */
static void tcp_detach_all(void)
{
	unsigned int s, i;

	teeprobe_kretprobes_detach(&tcp_kretprobes);
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
static int tcp_probe_required(const struct teeprobe_kretprobe *p)
{
	struct teeprobe_kretprobe_status st;

	teeprobe_kretprobe_status(p, &st);
	if (st.state == TEEPROBE_PROBE_ATTACHED)
		return 0;
	pr_err("tcp: cannot probe %s (error %d): the handshake's phases need it\n",
	       p->symbol, st.error);
	return st.error ?: -ENOENT;
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

/* teeprobe_tcp_init - allocate the table, attach probes and tracepoints */
int teeprobe_tcp_init(void)
{
	unsigned int s, i;
	int ret;

	ret = teeprobe_tcp_state_alloc() ?: tcp_tracepoints_attach();
	if (ret)
		goto out_free;
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_fhooks; i++)
			teeprobe_fhook_attach(&tcp_sides[s]->fhooks[i]);
	/* accept() and connect() sleep in every waiting thread. */
	teeprobe_kretprobes_prepare(&tcp_kretprobes, "tcp: ", false);
	for (s = 0; s < ARRAY_SIZE(tcp_sides); s++)
		for (i = 0; i < tcp_sides[s]->nr_probes; i++) {
			struct teeprobe_kretprobe *p = &tcp_sides[s]->probes[i];

			p->maxactive = max(256U, 16 * num_possible_cpus());
			teeprobe_kretprobe_add(&tcp_kretprobes, p);
		}
	teeprobe_kretprobes_attach(&tcp_kretprobes);
	ret = tcp_hooks_required();
	if (ret)
		goto out_detach;
	teeprobe_part_register(&tcp_part);
	return 0;

out_detach:
	tcp_detach_all();
	tcp_tracepoints_detach();
	tracepoint_synchronize_unregister();
out_free:
	teeprobe_tcp_state_free();
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
	teeprobe_tcp_state_free();
}
