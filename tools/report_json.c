// SPDX-License-Identifier: GPL-2.0
/*
 * report_json.c - "teeprobe report --json": struct report (report.c
 * computes it) as one JSON object, through json-c (json.h).
 */
#include "json.h"
#include "report.h"
#include "utils.h"
#include "watch_rule.h"

/* The JSON's version: 2 since it goes through json-c (1 was printf's) */
#define REPORT_JSON_FORMAT	2

/*
 * The key tables of the objects that are a struct's numbers, in the order
 * they print; a key is its member's name unless given
 */
#define KEY(member, decimals) JFIELD(#member, KEY_STRUCT, member, decimals)

/* A TEE command */
#define KEY_STRUCT struct report_tee_cmd
static const struct jfield tee_cmd_keys[] = {
	KEY(calls, 0), KEY(calls_per_s, 2), KEY(errors, 0),
	KEY(total_ns, 0), KEY(offcpu_ns, 0), KEY(runq_ns, 0), KEY(queue_wait_ns, 0),
	KEY(secure_entries, 0), KEY(secure_ns, 0),
	KEY(mean_ns, 0), KEY(p50_ns, 0), KEY(p99_ns, 0), KEY(max_ns, 0),
	KEY(blocked_share, 4),
};
#undef KEY_STRUCT

/*
 * One CPU's NET_RX from the module's counters: every COUNT column of
 * netrx_stats (abi.h), then what the report derives
 */
#define KEY_STRUCT struct report_netrx_cpu
#define NETRX_KEY(name, kind, ...) NETRX_KEY_##kind(name)
#define NETRX_KEY_COUNT(name) \
	JFIELD(#name, KEY_STRUCT, count[REPORT_NETRX_##name], 0),
#define NETRX_KEY_NS(name)
#define NETRX_KEY_MAX(name)
#define NETRX_KEY_DELAY(name)
static const struct jfield netrx_cpu_keys[] = {
	TEEPROBE_NETRX_STATS_COLS(NETRX_KEY)
	KEY(runs_per_s, 2), KEY(packets_per_s, 2),
	JFIELD("inline_delay_p50_ns", KEY_STRUCT, inline_ns[0], 0),
	JFIELD("inline_delay_p99_ns", KEY_STRUCT, inline_ns[1], 0),
	JFIELD("inline_delay_max_ns", KEY_STRUCT, inline_ns[2], 0),
	JFIELD("ksoftirqd_delay_p50_ns", KEY_STRUCT, ksoftirqd_ns[0], 0),
	JFIELD("ksoftirqd_delay_p99_ns", KEY_STRUCT, ksoftirqd_ns[1], 0),
	JFIELD("ksoftirqd_delay_max_ns", KEY_STRUCT, ksoftirqd_ns[2], 0),
};
#undef KEY_STRUCT

/* One CPU's NET_RX from the windows (a plain trace-cmd file) */
#define KEY_STRUCT struct report_netrx_windows
static const struct jfield netrx_windows_keys[] = {
	KEY(runs, 0), KEY(packets, 0),
	KEY(runs_per_s, 2), KEY(packets_per_s, 2), KEY(ksoftirqd_share, 4),
};
#undef KEY_STRUCT

/* One handshake phase of a port, from the module's counters */
#define KEY_STRUCT struct report_port_phase
static const struct jfield port_phase_keys[] = {
	KEY(count, 0), KEY(sum_ns, 0), KEY(p50_ns, 0), KEY(p99_ns, 0), KEY(max_ns, 0),
};
#undef KEY_STRUCT
#undef KEY

/* json_session - the file, its size, its events and what was lost */
static void json_session(struct json_object *j, const struct report *r,
			 const struct report_opts *o)
{
	struct json_object *x;
	int i;

	jset_int(j, "format", REPORT_JSON_FORMAT);
	jset_str(j, "file", o->input);
	jset_num(j, "seconds", r->seconds, 3);
	jset_int(j, "cpus", r->ncpus);
	jset_bool(j, "snapshots", r->snapshots);
	x = jnew();
	for (i = 0; i < r->nr_kinds; i++)
		jset_int(x, r->kinds[i].name, r->kinds[i].count);
	jset(j, "events", x);
	jset_int(j, "other_events", r->other_events);
	x = jnew();
	jset_num(x, "ring_buffer", r->ring_losses, 0);
	jset_int(x, "missed_events", r->missed_events);
	jset_num(x, "tee_kretprobe_missed", r->tee_missed, 0);
	jset_num(x, "tee_untracked", r->tee_untracked, 0);
	jset_num(x, "tcp_probe_missed", r->tcp_missed, 0);
	jset_num(x, "tcp_phases_lost", r->tcp_phases_lost, 0);
	jset(j, "lost", x);
	if (r->capture) {
		struct report_capture c;

		report_capture_of(r, &c);
		x = jnew();
		if (c.measure >= 0) {
			jset_str(x, "measure", watch_measure_key(c.measure));
			/* seconds for the times, the share for a share */
			jset_num(x, "value", watch_measure_is_time(c.measure) ?
				 c.value / 1e9 : c.value, 6);
			jset_num(x, "threshold", watch_measure_is_time(c.measure) ?
				 c.threshold / 1e9 : c.threshold, 6);
			jset_int(x, "run_windows", c.run_windows);
		}
		jset_int(x, "events_before_start", r->before_start);
		jset(j, "capture", x);
	}
	x = jnew();
	jset_bool(x, "comparable", !r->counters_note);
	if (r->counters_note)
		jset_str(x, "why", r->counters_note);
	jset(j, "counters", x);
}

/* cpu_pct - the five shares of CPU time @pct into @o */
static void cpu_pct(struct json_object *o, const double pct[5])
{
	static const char *const keys[5] = {
		"user", "system", "softirq", "irq", "idle"
	};
	int i;

	for (i = 0; i < 5; i++)
		jset_num(o, keys[i], pct[i], 2);
}

/* json_context - the CPU context, all CPUs and each */
static void json_context(struct json_object *j, const struct report *r)
{
	struct json_object *all, *list, *row;
	int i;

	if (!r->cpu_ok) {
		jset(j, "cpu", NULL);
		return;
	}
	all = jnew();
	cpu_pct(all, r->cpu_all);
	list = jnew_array();
	for (i = 0; i < r->nr_cpus; i++) {
		row = jnew();
		jset_int(row, "cpu", r->cpus[i].cpu);
		cpu_pct(row, r->cpus[i].pct);
		jappend(list, row);
	}
	row = jnew();
	jset(row, "all", all);
	jset(row, "per_cpu", list);
	jset(j, "cpu", row);
}

/* json_tee - TEE ioctls by command, then the top threads */
static void json_tee(struct json_object *j, const struct report *r)
{
	struct json_object *tee = jnew(), *cmds = jnew_array();
	struct json_object *threads = jnew_array(), *x;
	int i;

	jset_str(tee, "source", r->tee_from_snapshots ? "snapshots" : "events");
	for (i = 0; i < r->nr_tee_cmds; i++) {
		const struct report_tee_cmd *c = &r->tee_cmds[i];

		x = jnew();
		jset_str(x, "cmd", c->name);
		jset_fields(x, c, tee_cmd_keys, ARRAY_SIZE(tee_cmd_keys));
		jappend(cmds, x);
	}
	for (i = 0; i < r->nr_threads; i++) {
		x = jnew();
		jset_int(x, "tid", r->threads[i].tid);
		jset_str(x, "comm", r->threads[i].comm);
		jset_int(x, "calls", r->threads[i].calls);
		jset_num(x, "total_ns", r->threads[i].total_ns, 0);
		jset_num(x, "offcpu_ns", r->threads[i].offcpu_ns, 0);
		jappend(threads, x);
	}
	jset(tee, "commands", cmds);
	jset(tee, "threads", threads);
	jset_int(tee, "threads_overflow", r->threads_overflow);
	jset(j, "tee", tee);
}

/* json_netrx - NET_RX per CPU, from the module's counters or the windows */
static void json_netrx(struct json_object *j, const struct report *r)
{
	struct json_object *list = jnew_array(), *row;
	int i;

	for (i = 0; i < r->nr_netrx_windows; i++) {
		const struct report_netrx_windows *w = &r->netrx_windows[i];

		row = jnew();
		jset_int(row, "cpu", w->cpu);
		jset_int(row, "windows", w->windows);
		jset_fields(row, w, netrx_windows_keys,
			    ARRAY_SIZE(netrx_windows_keys));
		jappend(list, row);
	}
	for (i = 0; i < r->nr_netrx_cpus; i++) {
		const struct report_netrx_cpu *x = &r->netrx_cpus[i];

		row = jnew();
		jset_str(row, "cpu", x->cpu);
		jset_fields(row, x, netrx_cpu_keys, ARRAY_SIZE(netrx_cpu_keys));
		jappend(list, row);
	}
	row = jnew();
	jset_str(row, "source", r->netrx_from_snapshots ? "snapshots" : "windows");
	jset_int(row, "windows", r->netrx_windows_seen);
	if (r->netrx_late_known) {
		jset_int(row, "windows_late", r->netrx_windows_late);
		jset_int(row, "windows_late_max_ns", r->netrx_windows_late_max_ns);
	}
	jset(row, "per_cpu", list);
	jset(j, "netrx", row);
}

/* json_nics - receive rate of every interface that received packets */
static void json_nics(struct json_object *j, const struct report *r)
{
	struct json_object *list = jnew_array(), *row;
	int i;

	for (i = 0; i < r->nr_nics; i++) {
		row = jnew();
		jset_str(row, "dev", r->nics[i].dev);
		jset_num(row, "rx_packets", r->nics[i].rx_packets, 0);
		jset_num(row, "rx_packets_per_s", r->nics[i].rx_packets_per_s, 2);
		jappend(list, row);
	}
	jset(j, "nics", list);
}

/* json_port - one port's counters and handshake phases */
static struct json_object *json_port(const struct report_port *port)
{
	struct json_object *o = jnew(), *phases = jnew_array(), *x;
	int k, q;

	jset_str(o, "port", port->port);
	for (k = 0; k < REPORT_PORT_COUNTERS; k++)
		jset_num(o, port->counters[k].name, port->counters[k].count, 0);
	for (q = 0; q < port->nr_phases; q++) {
		const struct report_port_phase *p = &port->phases[q];

		x = jnew();
		jset_str(x, "phase", p->name);
		jset_fields(x, p, port_phase_keys, ARRAY_SIZE(port_phase_keys));
		jappend(phases, x);
	}
	jset(o, "phases", phases);
	return o;
}

/* json_handshakes - TCP handshake phases per port, then from the events */
static void json_handshakes(struct json_object *j, const struct report *r)
{
	struct json_object *ports = jnew_array(), *phases = jnew_array();
	struct json_object *hs = jnew(), *ev = jnew(), *x;
	int i;

	for (i = 0; i < r->nr_ports; i++)
		jappend(ports, json_port(&r->ports[i]));
	for (i = 0; i < r->nr_event_phases; i++) {
		const struct report_event_phase *e = &r->event_phases[i];

		x = jnew();
		jset_str(x, "phase", e->name);
		jset_int(x, "count", e->count);
		jset_num(x, "mean_ns", e->mean_ns, 0);
		jset_num(x, "p50_ns", e->p50_ns, 0);
		jset_num(x, "p99_ns", e->p99_ns, 0);
		jset_int(x, "max_ns", e->max_ns);
		jappend(phases, x);
	}
	jset_int(ev, "server", r->handshakes[0]);
	jset_int(ev, "client", r->handshakes[1]);
	jset(ev, "phases", phases);
	jset(hs, "ports", ports);
	jset(hs, "events", ev);
	jset(j, "handshakes", hs);
}

/* json_tcp - the kernel's own TCP counters over the session */
static void json_tcp(struct json_object *j, const struct report *r)
{
	struct json_object *tcp;
	int i;

	if (!r->tcp_ok) {
		jset(j, "tcp", NULL);
		return;
	}
	tcp = jnew();
	for (i = 0; i < REPORT_TCP_COUNTERS; i++)
		jset_num(tcp, r->tcp[i].name, r->tcp[i].count, 0);
	jset(j, "tcp", tcp);
}

/* report_json - struct report as one JSON object (no histograms) */
void report_json(const struct report *r, const struct report_opts *o)
{
	struct json_object *j = jnew();

	json_session(j, r, o);
	json_context(j, r);
	json_tee(j, r);
	json_netrx(j, r);
	json_nics(j, r);
	json_handshakes(j, r);
	json_tcp(j, r);
	jprint(j);
}
