// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - "teeprobe report": read a recorded session (libtracecmd and
 * libtraceevent) and print, per link of the chain, the numbers behind it.
 *
 * Two sources, both inside the trace.dat: the events (every TEE ioctl's
 * exit, the NET_RX window summaries) and the start and end snapshots that
 * "teeprobe record" writes as markers (the module's debugfs counters and
 * histograms, /proc/stat, /proc/softirqs, /proc/net/dev and the Tcp
 * counters). Totals and rates come from the snapshots when the file has
 * them; TEE latency percentiles from the events (exact) or else from the
 * histograms (upper bounds).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "derive.h"
#include "module.h"
#include "report.h"
#include "series.h"
#include "snapshot.h"
#include "stats.h"
#include "table.h"
#include "teeprobe.h"
#include "utils.h"

#define MAX_KINDS	64
#define MAX_CMDS	32
#define MAX_THREADS	1024
#define MAX_CPUS	256
#define TOP_THREADS	5

struct samples {
	unsigned long long *v;
	size_t n, cap;
};

struct cmd_events {
	unsigned int id;
	char name[32];
	struct samples duration;
	double total_ns, offcpu_ns, runq_ns, queue_wait_ns;
	unsigned long long errors;
};

struct thread_events {
	int tid;
	char comm[32];
	unsigned long long calls;
	double total_ns, offcpu_ns;
};

struct event_kind {
	int id;
	char name[64];
	unsigned long long count;
};

struct netrx_windows {
	unsigned long long windows;
	double runs, packets, raises, ksoftirqd_runs;
	double first_start, last_end;	/* seconds */
};

/* TCP handshake phases, from the teeprobe_tcp_handshake events */
enum {
	PH_SYN_SYNACK, PH_SYNACK_ACK, PH_ACK_ACCEPT, PH_CONNECT,
	PH_CONNECT_CALL, PH_SYN_WAIT, PH_ACK_WAIT, NR_PHASES
};
static const char *const phase_names[NR_PHASES] = {
	"syn_synack", "synack_ack", "ack_accept", "connect", "connect_call",
	"syn_wait", "ack_wait"
};
/* The order phases are shown in: a handshake's own, then the client's */
static const int phase_order[NR_PHASES] = {
	PH_SYN_WAIT, PH_SYN_SYNACK, PH_SYNACK_ACK, PH_ACK_WAIT, PH_ACK_ACCEPT,
	PH_CONNECT, PH_CONNECT_CALL
};
/* phase_server - whether phase @p is a server one */
static bool phase_server(int p)
{
	return p != PH_CONNECT && p != PH_CONNECT_CALL;
}

struct report {
	struct snapshot snap[2];		/* start, end */
	struct samples phase[NR_PHASES];
	unsigned long long handshakes[2];	/* server, client events */
	struct snap_source pending[2];		/* a line in pieces */
	struct event_kind kinds[MAX_KINDS];
	int nr_kinds;
	struct cmd_events cmds[MAX_CMDS];
	int nr_cmds;
	struct thread_events threads[MAX_THREADS];
	int nr_threads;
	unsigned long long threads_overflow;
	struct netrx_windows win[MAX_CPUS];
	unsigned long long teeprobe_events, other_events, missed_events;
	unsigned long long markers;
	unsigned long long first_ts, last_ts;
	struct session_events ev;	/* for analyze and plot */
	struct trace_seq seq;
};

struct report_opts {
	const char *input;
	bool json;
	bool hist;
	bool header;
};

/* report_usage - help for teeprobe report */
static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe report [-i FILE] [--json] [--no-hist] [--no-header] [-h]\n\n"
		"  -i, --input FILE   trace.dat to read (default: trace.dat)\n"
		"      --json         one JSON object with the same numbers\n"
		"      --no-hist      leave out the histograms\n"
		"      --no-header    histograms without their header lines\n\n"
		"Prints, from a session recorded with 'teeprobe record': the CPU\n"
		"context (%%system, %%softirq), TEE ioctls by command (calls,\n"
		"latency percentiles, blocked share, top threads), NET_RX per CPU\n"
		"(runs/s against packets/s, raise->entry delay percentiles,\n"
		"ksoftirqd share, re-raises), TCP handshake phases per port and\n"
		"the kernel's TCP counters, lost events, and the\n"
		"delay histograms with one column per CPU. A trace.dat recorded\n"
		"with 'trace-cmd record -e teeprobe' gives what its events hold.\n");
}

/* samples_add - append one value */
static void samples_add(struct samples *s, unsigned long long v)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			fatal("out of memory\n");
	}
	s->v[s->n++] = v;
}

/* grow - room for one more element in an array that doubles */
static void *grow(void *v, size_t n, size_t *cap, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 1024;
	v = realloc(v, *cap * size);
	if (!v)
		fatal("out of memory\n");
	return v;
}

/*
 * The numeric fields on_record() reads, looked up by name once per event
 * format rather than on every record (the lookup compares names: it was a
 * tenth of a report's time). fields_reset() forgets the formats before
 * each buffer is read: a format freed with its file may have a successor
 * at the same address.
 */
#define MAX_FIELDS	20

struct event_fields {
	const char *const *names;
	int n;
	const struct tep_event *event;		/* the format looked up */
	struct tep_format_field *f[MAX_FIELDS];	/* NULL: not in it */
};

enum {
	TEE_CMD, TEE_DURATION, TEE_OFFCPU, TEE_RUNQ, TEE_QUEUE_WAIT, TEE_RET,
	NR_TEE_FIELDS
};
static const char *const tee_names[NR_TEE_FIELDS] = {
	"cmd", "duration_ns", "offcpu_ns", "runq_ns", "queue_wait_ns", "ret"
};

/* the side and ports, then the phases in the order of phase_names */
enum { HS_SIDE, HS_SPORT, HS_DPORT, HS_PHASE, NR_HS_FIELDS = HS_PHASE + NR_PHASES };
static const char *const hs_names[NR_HS_FIELDS] = {
	"side", "sport", "dport", "syn_to_synack_ns", "synack_to_ack_ns",
	"ack_to_accept_ns", "connect_ns", "connect_call_ns", "syn_wait_ns",
	"ack_wait_ns"
};

enum { ACC_TID, ACC_STATE, NR_ACC_FIELDS };
static const char *const acc_names[NR_ACC_FIELDS] = { "tid", "state" };

enum {
	NW_CPU, NW_START, NW_LEN, NW_RAISES, NW_RUNS, NW_KSOFTIRQD_RUNS,
	NW_RUN_NS, NW_PACKETS, NW_RERAISES, NW_INLINE_N, NW_INLINE_SUM,
	NW_INLINE_P99, NW_KSOFTIRQD_N, NW_KSOFTIRQD_SUM, NW_KSOFTIRQD_P99,
	NW_TEE_RUNS, NW_TEE_SUM, NR_NW_FIELDS
};
static const char *const nw_names[NR_NW_FIELDS] = {
	"cpu", "start_ns", "len_ns", "raises", "runs", "ksoftirqd_runs",
	"run_ns", "packets", "reraises", "inline_delay_count",
	"inline_delay_sum_ns", "inline_delay_p99_ns", "ksoftirqd_delay_count",
	"ksoftirqd_delay_sum_ns", "ksoftirqd_delay_p99_ns", "tee_runs",
	"tee_delay_sum_ns"
};

static struct event_fields tee_fields = { .names = tee_names, .n = NR_TEE_FIELDS };
static struct event_fields hs_fields = { .names = hs_names, .n = NR_HS_FIELDS };
static struct event_fields nw_fields = { .names = nw_names, .n = NR_NW_FIELDS };
static struct event_fields acc_fields = { .names = acc_names, .n = NR_ACC_FIELDS };

/* fields_reset - forget the formats looked up */
static void fields_reset(void)
{
	tee_fields.event = hs_fields.event = nw_fields.event = NULL;
	acc_fields.event = NULL;
}

/* fields_of - @ef, looked up in @event's format if not already */
static const struct event_fields *fields_of(struct event_fields *ef,
					    const struct tep_event *event)
{
	int i;

	if (ef->event != event) {
		for (i = 0; i < ef->n; i++)
			ef->f[i] = tep_find_field((struct tep_event *)event,
						  ef->names[i]);
		ef->event = event;
	}
	return ef;
}

/* fval - field @i of @record, 0 when the format lacks it or the record ends first */
static unsigned long long fval(const struct event_fields *ef, int i,
			       const struct tep_record *record)
{
	struct tep_format_field *f = ef->f[i];
	unsigned long long v;

	if (!f || f->offset < 0 || f->size > record->size - f->offset ||
	    tep_read_number_field(f, record->data, &v))
		return 0;
	return v;
}

/* cmd_name - the command's name as the event prints it ("cmd=INVOKE") */
static void cmd_name(struct report *r, struct tep_event *event,
		     struct tep_record *record, char *name, size_t len)
{
	const char *p;
	size_t n;

	trace_seq_reset(&r->seq);
	tep_print_event(event->tep, &r->seq, record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&r->seq);
	p = strstr(r->seq.buffer, "cmd=");
	if (!p) {
		snprintf(name, len, "OTHER");
		return;
	}
	p += 4;
	n = strcspn(p, " ");
	snprintf(name, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

/* on_tee_exit - one TEE ioctl ended */
static void on_tee_exit(struct report *r, struct tep_event *event,
			struct tep_record *record)
{
	const struct event_fields *ef = fields_of(&tee_fields, event);
	unsigned int id = fval(ef, TEE_CMD, record);
	unsigned long long d = fval(ef, TEE_DURATION, record);
	unsigned long long off = fval(ef, TEE_OFFCPU, record);
	struct cmd_events *c = NULL;
	struct thread_events *t = NULL;
	struct tee_call *call;
	long long ret;
	int i, tid;

	r->ev.tee = grow(r->ev.tee, r->ev.ntee, &r->ev.cap_tee, sizeof(*r->ev.tee));
	call = &r->ev.tee[r->ev.ntee++];
	call->end_ns = record->ts;
	call->dur_ns = d;
	call->offcpu_ns = off;
	call->runq_ns = fval(ef, TEE_RUNQ, record);
	call->queue_wait_ns = fval(ef, TEE_QUEUE_WAIT, record);
	call->cpu = record->cpu;
	call->tid = tep_data_pid(event->tep, record);
	for (i = 0; i < r->nr_cmds; i++)
		if (r->cmds[i].id == id)
			c = &r->cmds[i];
	if (!c && r->nr_cmds < MAX_CMDS) {
		c = &r->cmds[r->nr_cmds++];
		c->id = id;
		cmd_name(r, event, record, c->name, sizeof(c->name));
	}
	if (c) {
		call->setup = !strcmp(c->name, "SHM_REGISTER") ||
			      !strcmp(c->name, "SHM_ALLOC");
		samples_add(&c->duration, d);
		c->total_ns += d;
		c->offcpu_ns += off;
		c->runq_ns += call->runq_ns;
		c->queue_wait_ns += fval(ef, TEE_QUEUE_WAIT, record);
		ret = (long long)fval(ef, TEE_RET, record);
		c->errors += ret < 0;
	}
	tid = tep_data_pid(event->tep, record);
	for (i = 0; i < r->nr_threads; i++)
		if (r->threads[i].tid == tid)
			t = &r->threads[i];
	if (!t && r->nr_threads < MAX_THREADS) {
		t = &r->threads[r->nr_threads++];
		t->tid = tid;
		snprintf(t->comm, sizeof(t->comm), "%s",
			 tep_data_comm_from_pid(event->tep, tid));
	}
	if (!t) {
		r->threads_overflow++;
		return;
	}
	t->calls++;
	t->total_ns += d;
	t->offcpu_ns += off;
}

/* on_tcp_handshake - one handshake finished, server or client side */
static void on_tcp_handshake(struct report *r, struct tep_event *event,
			     struct tep_record *record)
{
	const struct event_fields *ef = fields_of(&hs_fields, event);
	bool client = fval(ef, HS_SIDE, record) != 0;
	struct hs_event *h;
	unsigned long long v;
	int p;

	r->ev.hs = grow(r->ev.hs, r->ev.nhs, &r->ev.cap_hs, sizeof(*r->ev.hs));
	h = &r->ev.hs[r->ev.nhs++];
	h->ts = record->ts;
	h->tid = tep_data_pid(event->tep, record);
	h->client = client;
	h->port = fval(ef, client ? HS_DPORT : HS_SPORT, record);
	h->syn_synack_ns = fval(ef, HS_PHASE + PH_SYN_SYNACK, record);
	h->synack_ack_ns = fval(ef, HS_PHASE + PH_SYNACK_ACK, record);
	h->ack_accept_ns = fval(ef, HS_PHASE + PH_ACK_ACCEPT, record);
	h->connect_ns = fval(ef, HS_PHASE + PH_CONNECT, record);
	/* Files of teeprobe 0.1 have no waits per handshake. */
	h->has_waits = !client && ef->f[HS_PHASE + PH_SYN_WAIT] &&
		       ef->f[HS_PHASE + PH_ACK_WAIT];
	h->syn_wait_ns = fval(ef, HS_PHASE + PH_SYN_WAIT, record);
	h->ack_wait_ns = fval(ef, HS_PHASE + PH_ACK_WAIT, record);
	r->handshakes[client]++;
	for (p = 0; p < NR_PHASES; p++) {
		if (phase_server(p) == client)
			continue;
		if ((p == PH_SYN_WAIT || p == PH_ACK_WAIT) && !h->has_waits)
			continue;
		v = fval(ef, HS_PHASE + p, record);
		/* connect_call is 0 when connect() did not wait */
		if (v || p != PH_CONNECT_CALL)
			samples_add(&r->phase[p], v);
	}
}

/* on_acceptor_state - an accepting thread changed state */
static void on_acceptor_state(struct report *r, struct tep_event *event,
			      struct tep_record *record)
{
	const struct event_fields *ef = fields_of(&acc_fields, event);
	unsigned long long state = fval(ef, ACC_STATE, record);
	struct acc_event *a;

	r->ev.acc = grow(r->ev.acc, r->ev.nacc, &r->ev.cap_acc, sizeof(*r->ev.acc));
	a = &r->ev.acc[r->ev.nacc++];
	a->ts = record->ts;
	a->tid = fval(ef, ACC_TID, record);
	a->state = state <= ACC_ASLEEP ? (enum acc_state)state : ACC_UNKNOWN;
}

/* on_netrx_window - one CPU's NET_RX window */
static void on_netrx_window(struct report *r, struct tep_event *event,
			    struct tep_record *record)
{
	const struct event_fields *ef = fields_of(&nw_fields, event);
	unsigned int cpu = fval(ef, NW_CPU, record);
	struct netrx_windows *w;
	struct netrx_win *nw;
	double start, end;

	if (cpu >= MAX_CPUS)
		return;
	r->ev.netrx = grow(r->ev.netrx, r->ev.nnetrx, &r->ev.cap_netrx,
			   sizeof(*r->ev.netrx));
	nw = &r->ev.netrx[r->ev.nnetrx++];
	nw->cpu = cpu;
	nw->start_ns = fval(ef, NW_START, record);
	nw->len_ns = fval(ef, NW_LEN, record);
	nw->raises = fval(ef, NW_RAISES, record);
	nw->runs = fval(ef, NW_RUNS, record);
	nw->ksoftirqd_runs = fval(ef, NW_KSOFTIRQD_RUNS, record);
	nw->run_ns = fval(ef, NW_RUN_NS, record);
	nw->packets = fval(ef, NW_PACKETS, record);
	nw->reraises = fval(ef, NW_RERAISES, record);
	nw->inline_n = fval(ef, NW_INLINE_N, record);
	nw->inline_sum_ns = fval(ef, NW_INLINE_SUM, record);
	nw->inline_p99_ns = fval(ef, NW_INLINE_P99, record);
	nw->ksoftirqd_n = fval(ef, NW_KSOFTIRQD_N, record);
	nw->ksoftirqd_sum_ns = fval(ef, NW_KSOFTIRQD_SUM, record);
	nw->ksoftirqd_p99_ns = fval(ef, NW_KSOFTIRQD_P99, record);
	nw->tee_runs = fval(ef, NW_TEE_RUNS, record);
	nw->tee_sum_ns = fval(ef, NW_TEE_SUM, record);
	w = &r->win[cpu];
	start = nw->start_ns / 1e9;
	end = start + nw->len_ns / 1e9;
	if (!w->windows || start < w->first_start)
		w->first_start = start;
	if (end > w->last_end)
		w->last_end = end;
	w->windows++;
	w->runs += nw->runs;
	w->raises += nw->raises;
	w->packets += nw->packets;
	w->ksoftirqd_runs += nw->ksoftirqd_runs;
}

/* on_marker - a print event: maybe one line of a snapshot */
static void on_marker(struct report *r, struct tep_event *event,
		      struct tep_record *record)
{
	char phase[16], source[64], *text;
	const char *buf, *line;
	struct snap_source *pend;
	struct tep_format_field *f;
	bool more;
	int len, p;

	f = tep_find_field(event, "buf");
	if (!f || f->offset >= record->size)
		return;
	/* "char buf[]": the string runs to the end of the record. */
	buf = (const char *)record->data + f->offset;
	len = strnlen(buf, record->size - f->offset);
	if (!len)
		return;
	text = strndup(buf, len);
	if (!text)
		fatal("out of memory\n");
	if (snapshot_parse_marker(text, phase, sizeof(phase), source,
				  sizeof(source), &line))
		goto out;
	more = phase[strlen(phase) - 1] == '+';
	if (more)
		phase[strlen(phase) - 1] = '\0';
	if (!strcmp(phase, "start"))
		p = 0;
	else if (!strcmp(phase, "end"))
		p = 1;
	else
		goto out;
	r->markers++;
	pend = &r->pending[p];
	if (pend->name && strcmp(pend->name, source)) {
		free(pend->name);	/* pieces of another line: drop them */
		pend->name = NULL;
		pend->len = 0;
	}
	if (more || pend->name) {
		size_t n = strcspn(line, "\n");

		if (!pend->name)
			pend->name = xstrdup(source);
		if (pend->len + n + 1 > pend->cap) {
			pend->cap = (pend->len + n + 1) * 2;
			pend->text = realloc(pend->text, pend->cap);
			if (!pend->text)
				fatal("out of memory\n");
		}
		memcpy(pend->text + pend->len, line, n);
		pend->len += n;
		pend->text[pend->len] = '\0';
		if (more)
			goto out;
		snapshot_add_line(&r->snap[p], source, pend->text);
		free(pend->name);
		pend->name = NULL;
		pend->len = 0;
		goto out;
	}
	snapshot_add_line(&r->snap[p], source, line);
out:
	free(text);
}

/* on_record - callback for every record of every buffer of the file */
static int on_record(struct tracecmd_input *handle, struct tep_record *record,
		     int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct report *r = data;
	struct tep_event *event;
	int i, id;

	(void)cpu;
	if (record->missed_events > 0)
		r->missed_events += record->missed_events;
	id = tep_data_type(tep, record);
	event = tep_find_event(tep, id);
	if (event && event->system && !strcmp(event->system, "ftrace") &&
	    !strcmp(event->name, "print")) {
		on_marker(r, event, record);
		return 0;
	}
	if (!event || !event->system || strcmp(event->system, TEEPROBE_SYSTEM)) {
		r->other_events++;
		return 0;
	}
	if (!r->teeprobe_events || record->ts < r->first_ts)
		r->first_ts = record->ts;
	if (record->ts > r->last_ts)
		r->last_ts = r->ev.end_ns = record->ts;
	r->teeprobe_events++;
	if (!strcmp(event->name, "teeprobe_tee_ioctl_exit"))
		on_tee_exit(r, event, record);
	else if (!strcmp(event->name, "teeprobe_netrx_window"))
		on_netrx_window(r, event, record);
	else if (!strcmp(event->name, "teeprobe_tcp_handshake"))
		on_tcp_handshake(r, event, record);
	else if (!strcmp(event->name, "teeprobe_acceptor_state"))
		on_acceptor_state(r, event, record);
	for (i = 0; i < r->nr_kinds; i++) {
		if (r->kinds[i].id == id) {
			r->kinds[i].count++;
			return 0;
		}
	}
	if (r->nr_kinds < MAX_KINDS) {
		r->kinds[r->nr_kinds].id = id;
		snprintf(r->kinds[r->nr_kinds].name,
			 sizeof(r->kinds[r->nr_kinds].name), "%s", event->name);
		r->kinds[r->nr_kinds].count = 1;
		r->nr_kinds++;
	}
	return 0;
}

/* report_has_snapshots - whether the start and the end snapshot are there */
bool report_has_snapshots(const struct report *r)
{
	return snapshot_text(&r->snap[0], "time") && snapshot_text(&r->snap[1], "time");
}

/*
 * report_counters_note - why the module's counters of the start and end
 * snapshots do not subtract (a reload or a reset during the session), or
 * NULL when they do. Every figure from them is then left out (NAN), and
 * what the events hold stands alone.
 */
const char *report_counters_note(const struct report *r)
{
	const char *why;

	if (!report_has_snapshots(r) ||
	    derive_same_counters(&r->snap[0], &r->snap[1], &why))
		return NULL;
	return why;
}

/* report_seconds - from the snapshots, else from the events */
static double report_seconds(const struct report *r)
{
	double s = derive_seconds(&r->snap[0], &r->snap[1]);

	return s > 0 ? s : (r->last_ts - r->first_ts) / 1e9;
}

/* snap_value - the number a one-line snapshot source holds */
static double snap_value(const struct snapshot *s, const char *source)
{
	const char *t = snapshot_text(s, source);

	return t ? strtod(t, NULL) : 0;
}

/* ---- output ---------------------------------------------------------------- */

/* json_sep - a comma between members */
static const char *json_sep(bool *first)
{
	if (*first) {
		*first = false;
		return "";
	}
	return ",";
}

/* print_context - the CPU context, per CPU and all */
static void print_context(const struct report *r, const struct report_opts *o,
			  int ncpus)
{
	double pct[5];
	char name[16];
	bool first = true;
	int cpu;

	if (!derive_cpu(&r->snap[0], &r->snap[1], "cpu", pct)) {
		if (o->json)
			printf(",\"cpu\":null");
		else
			printf("CPU context: not in this file (record with teeprobe record)\n\n");
		return;
	}
	if (o->json) {
		printf(",\"cpu\":{\"all\":{\"user\":%.2f,\"system\":%.2f,\"softirq\":%.2f,\"irq\":%.2f,\"idle\":%.2f},\"per_cpu\":[",
		       pct[0], pct[1], pct[2], pct[3], pct[4]);
		for (cpu = 0; cpu < ncpus; cpu++) {
			snprintf(name, sizeof(name), "cpu%d", cpu);
			if (!derive_cpu(&r->snap[0], &r->snap[1], name, pct))
				continue;
			printf("%s{\"cpu\":%d,\"user\":%.2f,\"system\":%.2f,\"softirq\":%.2f,\"irq\":%.2f,\"idle\":%.2f}",
			       json_sep(&first), cpu, pct[0], pct[1], pct[2],
			       pct[3], pct[4]);
		}
		printf("]}");
		return;
	}
	printf("CPU context (%% of CPU time)\n");
	printf("  %-5s %8s %8s %8s %8s %8s\n", "cpu", "%user", "%system",
	       "%softirq", "%irq", "%idle");
	printf("  %-5s %8.2f %8.2f %8.2f %8.2f %8.2f\n", "all", pct[0], pct[1],
	       pct[2], pct[3], pct[4]);
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(name, sizeof(name), "cpu%d", cpu);
		if (derive_cpu(&r->snap[0], &r->snap[1], name, pct))
			printf("  %-5d %8.2f %8.2f %8.2f %8.2f %8.2f\n", cpu,
			       pct[0], pct[1], pct[2], pct[3], pct[4]);
	}
	printf("\n");
}

/* cmp_thread - longest total time first */
static int cmp_thread(const void *a, const void *b)
{
	const struct thread_events *x = a, *y = b;

	return x->total_ns < y->total_ns ? 1 : x->total_ns > y->total_ns ? -1 : 0;
}

/* print_tee - TEE ioctls by command, then the top threads */
static void print_tee(struct report *r, const struct report_opts *o,
		      double seconds)
{
	struct tables tb = { 0 };
	bool first = true, from_snap;
	double calls, total, off, runq, qw, errors, p50, p99, max;
	double sec_n, sec_ns;
	double bucket[HIST_BUCKETS];
	char secure[1024] = "";
	size_t secure_len = 0;
	struct cmd_events *c;
	int i, row, n;

	tables_load(&tb, &r->snap[0], &r->snap[1], "tee_stats");
	from_snap = tb.ok;
	if (o->json)
		printf(",\"tee\":{\"source\":\"%s\",\"commands\":[",
		       from_snap ? "snapshots" : "events");
	else
		printf("TEE ioctls by command (%s; percentiles from %s)\n"
		       "  %-14s %8s %9s %6s %10s %10s %10s %10s %8s %6s %8s %6s\n",
		       from_snap ? "counts from the module's counters" :
				   "counts from the events",
		       r->nr_cmds ? "every call's event" : "histograms, upper bounds",
		       "cmd", "calls", "calls/s", "errors", "mean_us", "p50_us",
		       "p99_us", "max_us", "blocked%", "runq%", "on-cpu%",
		       "wait%");
	n = from_snap ? tb.t[1].nrows : r->nr_cmds;
	for (i = 0; i < n; i++) {
		const char *name;

		c = NULL;
		if (from_snap) {
			row = i;
			if (tb.t[1].nfields[row] < 2 ||
			    strcmp(tb.t[1].rows[row][0], "all"))
				continue;
			name = tb.t[1].rows[row][1];
			calls = tables_delta(&tb, "all", name, "calls");
			errors = tables_delta(&tb, "all", name, "errors");
			total = tables_delta(&tb, "all", name, "total_ns");
			off = tables_delta(&tb, "all", name, "offcpu_ns");
			runq = tables_delta(&tb, "all", name, "runq_ns");
			qw = tables_delta(&tb, "all", name, "queue_wait_ns");
			/* a module before the secure split has no such columns */
			sec_n = fmax(tables_delta(&tb, "all", name, "secure_entries"), 0);
			sec_ns = fmax(tables_delta(&tb, "all", name, "secure_ns"), 0);
			for (row = 0; row < r->nr_cmds; row++)
				if (!strcmp(r->cmds[row].name, name))
					c = &r->cmds[row];
		} else {
			c = &r->cmds[i];
			name = c->name;
			calls = c->duration.n;
			errors = c->errors;
			total = c->total_ns;
			off = c->offcpu_ns;
			runq = c->runq_ns;
			qw = c->queue_wait_ns;
			sec_n = sec_ns = 0;
		}
		if (calls <= 0)
			continue;
		if (c && c->duration.n) {
			sort_u64(c->duration.v, c->duration.n);
			p50 = pct_sorted(c->duration.v, c->duration.n, 50);
			p99 = pct_sorted(c->duration.v, c->duration.n, 99);
			max = c->duration.v[c->duration.n - 1];
		} else {
			struct tables th = { 0 };

			tables_load(&th, &r->snap[0], &r->snap[1], "tee_hist");
			max = tables_delta(&tb, "all", name, "max_ns");
			if (max < 0)
				max = table_get(&tb.t[1], "all", name, "max_ns");
			tables_hist_delta(&th, name, "all", bucket);
			p50 = hist_pct(bucket, max, 50);
			p99 = hist_pct(bucket, max, 99);
			tables_free(&th);
		}
		if (o->json) {
			printf("%s{\"cmd\":%s,\"calls\":%.0f,\"calls_per_s\":%.2f,\"errors\":%.0f,\"total_ns\":%.0f,\"offcpu_ns\":%.0f,\"runq_ns\":%.0f,\"queue_wait_ns\":%.0f,\"secure_entries\":%.0f,\"secure_ns\":%.0f,\"mean_ns\":%.0f,\"p50_ns\":%.0f,\"p99_ns\":%.0f,\"max_ns\":%.0f,\"blocked_share\":%.4f}",
			       json_sep(&first), jstr(name), calls, rate(calls, seconds),
			       errors, total, off, runq, qw, sec_n, sec_ns,
			       total / calls, p50, p99, max, share(off, total));
		} else {
			printf("  %-14s %8.0f %9.1f %6.0f %10.1f %10.1f %10.1f %10.1f %8.1f %6.1f %8.1f %6.1f\n",
			       name, calls, rate(calls, seconds), errors,
			       total / calls / 1e3, p50 / 1e3, p99 / 1e3,
			       max / 1e3, 100 * share(off, total),
			       100 * share(runq, total),
			       100 * share(total - off - runq, total),
			       100 * share(qw, total));
			if (sec_n > 0 && secure_len < sizeof(secure))
				secure_len += snprintf(secure + secure_len,
						       sizeof(secure) - secure_len,
						       "  %-14s %8.0f %9.2f %10.1f %8.1f %8.1f\n",
						       name, sec_n, sec_n / calls,
						       sec_ns / sec_n / 1e3,
						       100 * share(sec_ns, total),
						       100 * share(total - off - runq - sec_ns, total));
		}
	}
	if (!o->json && first && !n)
		printf("  (no TEE ioctls)\n");
	if (!o->json && secure_len)
		printf("  in the secure world (entries timed by the driver's SMC probes)\n"
		       "  %-14s %8s %9s %10s %8s %8s\n%s",
		       "cmd", "entries", "per_call", "mean_us", "secure%",
		       "normal%", secure);
	qsort(r->threads, r->nr_threads, sizeof(r->threads[0]), cmp_thread);
	if (o->json) {
		printf("],\"threads\":[");
		first = true;
		for (i = 0; i < r->nr_threads && i < TOP_THREADS; i++)
			printf("%s{\"tid\":%d,\"comm\":%s,\"calls\":%llu,\"total_ns\":%.0f,\"offcpu_ns\":%.0f}",
			       json_sep(&first), r->threads[i].tid,
			       jstr(r->threads[i].comm), r->threads[i].calls,
			       r->threads[i].total_ns, r->threads[i].offcpu_ns);
		printf("],\"threads_overflow\":%llu}", r->threads_overflow);
	} else if (r->nr_threads) {
		printf("  top threads by time in TEE ioctls:\n"
		       "  %-8s %-16s %8s %12s %8s\n", "tid", "comm", "calls",
		       "total_ms", "blocked%");
		for (i = 0; i < r->nr_threads && i < TOP_THREADS; i++)
			printf("  %-8d %-16s %8llu %12.1f %8.1f\n",
			       r->threads[i].tid, tstr(r->threads[i].comm),
			       r->threads[i].calls, r->threads[i].total_ns / 1e6,
			       100 * share(r->threads[i].offcpu_ns,
					   r->threads[i].total_ns));
	}
	if (!o->json && r->threads_overflow)
		printf("  (%llu calls of threads beyond the %d this report keeps: in the\n"
		       "   totals above, not in the list)\n", r->threads_overflow,
		       MAX_THREADS);
	if (!o->json)
		printf("\n");
	tables_free(&tb);
}

/* netrx_row - the NET_RX figures of one CPU (or "all") */
struct netrx_row {
	double runs, raises, packets, ksoftirqd, reraises, budget_full;
	double inl[3], ksd[3];	/* p50, p99, max in ns */
};

/* netrx_compute - from the snapshots' netrx_stats and netrx_hist */
static void netrx_compute(const struct tables *st, const struct tables *hi,
			  const char *cpu, struct netrx_row *x)
{
	double bucket[HIST_BUCKETS];
	char col[16];

	x->runs = tables_delta(st, cpu, NULL, "runs");
	x->raises = tables_delta(st, cpu, NULL, "raises");
	x->packets = tables_delta(st, cpu, NULL, "packets");
	x->ksoftirqd = tables_delta(st, cpu, NULL, "ksoftirqd_runs");
	x->reraises = tables_delta(st, cpu, NULL, "reraises");
	x->budget_full = tables_delta(st, cpu, NULL, "budget_full");
	snprintf(col, sizeof(col), strcmp(cpu, "all") ? "cpu%s" : "%s", cpu);
	/* Maxima are not differences: the end's max bounds the session's. */
	x->inl[2] = table_get(&st->t[1], cpu, NULL, "inline_delay_max_ns");
	x->ksd[2] = table_get(&st->t[1], cpu, NULL, "ksoftirqd_delay_max_ns");
	tables_hist_delta(hi, "inline_delay", col, bucket);
	x->inl[0] = hist_pct(bucket, x->inl[2], 50);
	x->inl[1] = hist_pct(bucket, x->inl[2], 99);
	tables_hist_delta(hi, "ksoftirqd_delay", col, bucket);
	x->ksd[0] = hist_pct(bucket, x->ksd[2], 50);
	x->ksd[1] = hist_pct(bucket, x->ksd[2], 99);
}

/* print_netrx - NET_RX per CPU and the NICs' receive rates */
static void print_netrx(const struct report *r, const struct report_opts *o,
			double seconds, int ncpus)
{
	struct tables st = { 0 }, hi = { 0 };
	struct netrx_row x;
	bool first = true;
	char cpu[16];
	int i;

	tables_load(&st, &r->snap[0], &r->snap[1], "netrx_stats");
	tables_load(&hi, &r->snap[0], &r->snap[1], "netrx_hist");
	if (!st.ok) {
		/* A plain trace-cmd recording: the windows are all there is. */
		if (o->json)
			printf(",\"netrx\":{\"source\":\"windows\",\"per_cpu\":[");
		else
			printf("NET_RX per CPU (from the window summaries)\n"
			       "  %-5s %8s %10s %10s %10s\n", "cpu", "windows",
			       "runs/s", "packets/s", "ksoftirqd%");
		for (i = 0; i < MAX_CPUS; i++) {
			const struct netrx_windows *w = &r->win[i];
			double span = w->last_end - w->first_start;

			if (!w->windows)
				continue;
			if (o->json)
				printf("%s{\"cpu\":%d,\"windows\":%llu,\"runs\":%.0f,\"packets\":%.0f,\"runs_per_s\":%.2f,\"packets_per_s\":%.2f,\"ksoftirqd_share\":%.4f}",
				       json_sep(&first), i, w->windows, w->runs,
				       w->packets, rate(w->runs, span),
				       rate(w->packets, span),
				       share(w->ksoftirqd_runs, w->runs));
			else
				printf("  %-5d %8llu %10.1f %10.1f %10.1f\n", i,
				       w->windows, rate(w->runs, span),
				       rate(w->packets, span),
				       100 * share(w->ksoftirqd_runs, w->runs));
		}
		if (o->json)
			printf("]}");
		else
			printf("\n");
		goto out;
	}
	if (o->json)
		printf(",\"netrx\":{\"source\":\"snapshots\",\"per_cpu\":[");
	else
		printf("NET_RX per CPU (raise->entry delays in us: inline = at irq exit or bh enable,\n"
		       "ksoftirqd = deferred to ksoftirqd; percentiles are upper bounds)\n"
		       "  %-5s %9s %10s %10s %8s %10s %8s %8s %8s %8s %8s %8s %8s\n",
		       "cpu", "runs/s", "raises/s", "packets/s", "pkt/run",
		       "ksoftirqd%", "reraise", "inl_p50", "inl_p99", "inl_max",
		       "ksd_p50", "ksd_p99", "ksd_max");
	for (i = 0; i <= ncpus; i++) {
		if (i == ncpus)
			snprintf(cpu, sizeof(cpu), "all");
		else
			snprintf(cpu, sizeof(cpu), "%d", i);
		if (table_find(&st.t[1], cpu, NULL) < 0)
			continue;
		netrx_compute(&st, &hi, cpu, &x);
		if (o->json) {
			printf("%s{\"cpu\":%s,\"runs\":%.0f,\"raises\":%.0f,\"packets\":%.0f,\"ksoftirqd_runs\":%.0f,\"reraises\":%.0f,\"budget_full\":%.0f,\"runs_per_s\":%.2f,\"packets_per_s\":%.2f,\"inline_delay_p50_ns\":%.0f,\"inline_delay_p99_ns\":%.0f,\"inline_delay_max_ns\":%.0f,\"ksoftirqd_delay_p50_ns\":%.0f,\"ksoftirqd_delay_p99_ns\":%.0f,\"ksoftirqd_delay_max_ns\":%.0f}",
			       json_sep(&first), jstr(cpu), x.runs, x.raises,
			       x.packets, x.ksoftirqd, x.reraises,
			       x.budget_full, rate(x.runs, seconds),
			       rate(x.packets, seconds), x.inl[0], x.inl[1],
			       x.inl[2], x.ksd[0], x.ksd[1], x.ksd[2]);
		} else {
			printf("  %-5s %9.1f %10.1f %10.1f %8.2f %10.1f %8.0f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f\n",
			       cpu, rate(x.runs, seconds), rate(x.raises, seconds),
			       rate(x.packets, seconds), share(x.packets, x.runs),
			       100 * share(x.ksoftirqd, x.runs), x.reraises,
			       x.inl[0] / 1e3, x.inl[1] / 1e3, x.inl[2] / 1e3,
			       x.ksd[0] / 1e3, x.ksd[1] / 1e3, x.ksd[2] / 1e3);
		}
	}
	if (o->json)
		printf("]}");
	else
		printf("\n");
out:
	tables_free(&st);
	tables_free(&hi);
}

/* print_nics - receive rate of every interface that received packets */
static void print_nics(const struct report *r, const struct report_opts *o,
		       double seconds)
{
	const char *end = snapshot_text(&r->snap[1], "net_dev");
	char *copy, *line, *save = NULL, dev[64];
	bool first = true;
	double a, b;

	if (o->json)
		printf(",\"nics\":[");
	else if (end)
		printf("NIC receive (/proc/net/dev)\n");
	copy = xstrdup(end ? end : "");
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, " %63[^:]:", dev) != 1 || strchr(dev, '|'))
			continue;
		b = derive_nic_rx(&r->snap[0], &r->snap[1], dev);
		a = 0;
		if (b <= 0)
			continue;
		if (o->json)
			printf("%s{\"dev\":%s,\"rx_packets\":%.0f,\"rx_packets_per_s\":%.2f}",
			       json_sep(&first), jstr(dev), b - a, rate(b - a, seconds));
		else
			printf("  %-12s %10.0f packets %10.1f/s\n", tstr(dev), b - a,
			       rate(b - a, seconds));
	}
	free(copy);
	if (o->json)
		printf("]");
	else if (end)
		printf("\n");
}

/* print_tcp - the kernel's own TCP counters over the session */
static void print_tcp(const struct report *r, const struct report_opts *o,
		      double seconds)
{
	static const struct { const char *src, *name; } c[] = {
		{ "snmp", "PassiveOpens" }, { "snmp", "ActiveOpens" },
		{ "snmp", "AttemptFails" }, { "snmp", "RetransSegs" },
		{ "netstat", "ListenOverflows" }, { "netstat", "ListenDrops" },
		{ "netstat", "TCPSynRetrans" }, { "netstat", "TCPReqQFullDrop" },
	};
	bool first = true;
	unsigned int i;

	if (!snapshot_text(&r->snap[1], "snmp")) {
		if (o->json)
			printf(",\"tcp\":null");
		return;
	}
	if (o->json)
		printf(",\"tcp\":{");
	else
		printf("TCP (the kernel's counters, all sockets)\n");
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		double d = derive_snmp(&r->snap[0], &r->snap[1], c[i].src, c[i].name);

		if (o->json)
			printf("%s%s:%.0f", json_sep(&first), jstr(c[i].name), d);
		else
			printf("  %-18s %10.0f %10.1f/s\n", c[i].name, d,
			       rate(d, seconds));
	}
	if (o->json)
		printf("}");
	else
		printf("\n");
}

/* tcp_phase_line - "phase PORT PHASE count sum max p50 p99" of a snapshot */
static bool tcp_phase_line(const struct snapshot *s, const char *port,
			   const char *phase, double v[5])
{
	const char *text = snapshot_text(s, "tcp_stats");
	char *copy, *line, *save = NULL, p1[32], p2[32];
	bool found = false;
	double t[5];

	/* A port or phase without a line is all zeros, not another line's. */
	memset(v, 0, 5 * sizeof(double));
	if (!text)
		return false;
	copy = xstrdup(text);
	for (line = strtok_r(copy, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "phase %31s %31s %lf %lf %lf %lf %lf", p1, p2,
			   &t[0], &t[1], &t[2], &t[3], &t[4]) == 7 &&
		    !strcmp(p1, port) && !strcmp(p2, phase)) {
			memcpy(v, t, sizeof(t));
			found = true;
		}
	free(copy);
	return found;
}

/* print_handshakes - TCP handshake phases per port, then from the events */
static void print_handshakes(struct report *r, const struct report_opts *o,
			     double seconds)
{
	static const char *const counters[] = {
		"syns", "synacks", "syn_drops", "listen_overflows",
		"synack_retrans", "req_drops", "accepted", "untracked",
		"connects", "connected", "connect_failed",
	};
	double bucket[HIST_BUCKETS], v[5], count, sum, p50, p99, max;
	struct tables tb = { 0 }, th = { 0 };
	const char *keys[2];
	bool first = true, firstp;
	unsigned int k;
	int i, p, q;

	tables_load(&tb, &r->snap[0], &r->snap[1], "tcp_stats");
	tables_load(&th, &r->snap[0], &r->snap[1], "tcp_hist");
	if (o->json)
		printf(",\"handshakes\":{\"ports\":[");
	else
		printf("TCP handshakes by port (module's counters; phase percentiles are upper bounds)\n");
	for (i = 0; tb.ok && i < tb.t[1].nrows; i++) {
		const char *port;

		if (tb.t[1].nfields[i] < 2 || strcmp(tb.t[1].rows[i][0], "all"))
			continue;
		port = tb.t[1].rows[i][1];
		if (o->json) {
			printf("%s{\"port\":%s", json_sep(&first), jstr(port));
			for (k = 0; k < ARRAY_SIZE(counters); k++)
				printf(",\"%s\":%.0f", counters[k],
				       tables_delta(&tb, "all", port, counters[k]));
			printf(",\"phases\":[");
		} else {
			printf("  port %s:", port);
			for (k = 0; k < ARRAY_SIZE(counters); k++)
				printf(" %s %.0f", counters[k],
				       tables_delta(&tb, "all", port, counters[k]));
			printf("\n  %-14s %8s %10s %10s %10s %10s %10s\n", "phase",
			       "count", "per_s", "mean_us", "p50_us", "p99_us",
			       "max_us");
		}
		firstp = true;
		for (q = 0; q < NR_PHASES; q++) {
			p = phase_order[q];
			tcp_phase_line(&r->snap[0], port, phase_names[p], v);
			count = -v[0];
			sum = -v[1];
			tcp_phase_line(&r->snap[1], port, phase_names[p], v);
			count += v[0];
			sum += v[1];
			max = v[2];
			if (count <= 0)
				continue;
			keys[0] = port;
			keys[1] = phase_names[p];
			tables_hist_keyed_delta(&th, keys, 2, "all", bucket);
			p50 = hist_pct(bucket, max, 50);
			p99 = hist_pct(bucket, max, 99);
			if (o->json)
				printf("%s{\"phase\":\"%s\",\"count\":%.0f,\"sum_ns\":%.0f,\"p50_ns\":%.0f,\"p99_ns\":%.0f,\"max_ns\":%.0f}",
				       json_sep(&firstp), phase_names[p], count,
				       sum, p50, p99, max);
			else
				printf("  %-14s %8.0f %10.1f %10.1f %10.1f %10.1f %10.1f\n",
				       phase_names[p], count, rate(count, seconds),
				       sum / count / 1e3, p50 / 1e3, p99 / 1e3,
				       max / 1e3);
		}
		printf(o->json ? "]}" : "");
	}
	tables_free(&tb);
	tables_free(&th);
	if (o->json)
		printf("],\"events\":{\"server\":%llu,\"client\":%llu,\"phases\":[",
		       r->handshakes[0], r->handshakes[1]);
	else if (r->handshakes[0] + r->handshakes[1])
		printf("  from %llu server and %llu client handshake events (exact):\n"
		       "  %-14s %8s %10s %10s %10s %10s\n", r->handshakes[0],
		       r->handshakes[1], "phase", "count", "mean_us", "p50_us",
		       "p99_us", "max_us");
	firstp = true;
	for (q = 0; q < NR_PHASES; q++) {
		struct samples *x = &r->phase[phase_order[q]];
		double total = 0;
		size_t j;

		p = phase_order[q];
		if (!x->n)
			continue;
		sort_u64(x->v, x->n);
		for (j = 0; j < x->n; j++)
			total += x->v[j];
		if (o->json)
			printf("%s{\"phase\":\"%s\",\"count\":%zu,\"mean_ns\":%.0f,\"p50_ns\":%.0f,\"p99_ns\":%.0f,\"max_ns\":%llu}",
			       json_sep(&firstp), phase_names[p], x->n,
			       total / x->n, pct_sorted(x->v, x->n, 50),
			       pct_sorted(x->v, x->n, 99), x->v[x->n - 1]);
		else
			printf("  %-14s %8zu %10.1f %10.1f %10.1f %10.1f\n",
			       phase_names[p], x->n, total / x->n / 1e3,
			       pct_sorted(x->v, x->n, 50) / 1e3,
			       pct_sorted(x->v, x->n, 99) / 1e3,
			       x->v[x->n - 1] / 1e3);
	}
	printf(o->json ? "]}}" : "\n");
}

/* print_hist - one histogram set, rtla style: a column per CPU */
static void print_hist(const struct report *r, const struct report_opts *o,
		       const char *source, const char *key, const char *title,
		       int ncpus)
{
	double b[MAX_CPUS + 1][HIST_BUCKETS], total[MAX_CPUS + 1], row;
	struct tables tb = { 0 };
	char col[16];
	int c, i, ncol = ncpus + 1;

	if (ncol > MAX_CPUS + 1)
		ncol = MAX_CPUS + 1;
	tables_load(&tb, &r->snap[0], &r->snap[1], source);
	if (!tb.ok)
		goto out;
	for (c = 0; c < ncol; c++) {
		if (c == ncol - 1)
			snprintf(col, sizeof(col), "all");
		else
			snprintf(col, sizeof(col), "cpu%d", c);
		total[c] = tables_hist_delta(&tb, key, col, b[c]);
	}
	if (total[ncol - 1] <= 0)
		goto out;
	if (o->header) {
		printf("# %s\n# %-12s", title, "Index(us)");
		for (c = 0; c < ncol - 1; c++)
			printf(" %9s%03d", "CPU-", c);
		printf(" %12s\n", "all");
	}
	for (i = 0; i < HIST_BUCKETS; i++) {
		row = 0;
		for (c = 0; c < ncol; c++)
			row += b[c][i];
		if (row <= 0)
			continue;
		printf("  %-12.0f", i ? (double)(1ULL << i) / 1e3 : 0);
		for (c = 0; c < ncol; c++)
			printf(" %12.0f", b[c][i]);
		printf("\n");
	}
	if (o->header) {
		printf("  %-12s", "count:");
		for (c = 0; c < ncol; c++)
			printf(" %12.0f", total[c]);
		printf("\n");
	}
	printf("\n");
out:
	tables_free(&tb);
}

/* print_report - every section, text or JSON */
static void print_report(struct report *r, const struct report_opts *o)
{
	double seconds = report_seconds(r);
	int ncpus = (int)snap_value(&r->snap[1], "nproc");
	double tee_missed = 0, untracked = 0, tcp_missed = 0;
	struct tables tp = { 0 }, ts = { 0 };
	const char *uname = snapshot_text(&r->snap[1], "uname");
	double ring = snap_value(&r->snap[1], "ring_losses");
	const char *note = report_counters_note(r);
	bool first = true;
	int i;

	if (ncpus <= 0) {
		for (i = 0; i < MAX_CPUS; i++)
			if (r->win[i].windows)
				ncpus = i + 1;
	}
	tables_load(&tp, &r->snap[0], &r->snap[1], "tee_probes");
	for (i = 0; tp.ok && i < tp.t[1].nrows; i++)
		if (tp.t[1].nfields[i] > 0)
			tee_missed += tables_delta(&tp, tp.t[1].rows[i][0], NULL, "nmissed");
	tables_free(&tp);
	tables_load(&tp, &r->snap[0], &r->snap[1], "tcp_probes");
	for (i = 0; tp.ok && i < tp.t[1].nrows; i++)
		if (tp.t[1].nfields[i] > 0)
			tcp_missed += tables_delta(&tp, tp.t[1].rows[i][0], NULL, "nmissed");
	tables_free(&tp);
	tables_load(&ts, &r->snap[0], &r->snap[1], "tee_stats");
	if (ts.ok) {
		const char *a = strstr(snapshot_text(&r->snap[0], "tee_stats"), "# untracked ");
		const char *b = strstr(snapshot_text(&r->snap[1], "tee_stats"), "# untracked ");

		if (a && b)
			untracked = strtod(b + 12, NULL) - strtod(a + 12, NULL);
	}
	tables_free(&ts);

	if (o->json) {
		printf("{\"file\":%s,\"seconds\":%.3f,\"cpus\":%d,\"snapshots\":%s,\"events\":{",
		       jstr(o->input), seconds, ncpus,
		       snapshot_text(&r->snap[1], "time") ? "true" : "false");
		for (i = 0; i < r->nr_kinds; i++)
			printf("%s%s:%llu", json_sep(&first),
			       jstr(r->kinds[i].name), r->kinds[i].count);
		printf("},\"other_events\":%llu,\"lost\":{\"ring_buffer\":%.0f,\"missed_events\":%llu,\"tee_kretprobe_missed\":%.0f,\"tee_untracked\":%.0f,\"tcp_probe_missed\":%.0f}",
		       r->other_events, ring, r->missed_events, tee_missed,
		       untracked, tcp_missed);
		printf(",\"counters\":{\"comparable\":%s", note ? "false" : "true");
		if (note)
			printf(",\"why\":%s", jstr(note));
		printf("}");
	} else {
		printf("teeprobe report: %s\n", tstr(o->input));
		printf("  %.*s%s%d CPUs, %.3f s\n",
		       uname ? (int)strcspn(uname, "\n") : 0, uname ? uname : "",
		       uname ? ", " : "", ncpus, seconds);
		printf("  events:");
		for (i = 0; i < r->nr_kinds; i++)
			printf(" %s %llu", r->kinds[i].name, r->kinds[i].count);
		printf("; %llu others\n", r->other_events);
		printf("  lost: %.0f in the ring buffer, %llu missed while reading, %.0f TEE calls the kretprobes missed, %.0f untracked, %.0f TCP probe hits missed\n",
		       ring, r->missed_events, tee_missed, untracked, tcp_missed);
		if (note)
			printf("  counters: %s: the module's counters of the start and end\n"
			       "  snapshots do not subtract and are left out; what follows\n"
			       "  comes from the events\n", note);
		printf("\n");
	}
	print_context(r, o, ncpus);
	print_tee(r, o, seconds);
	print_netrx(r, o, seconds, ncpus);
	print_nics(r, o, seconds);
	print_handshakes(r, o, seconds);
	print_tcp(r, o, seconds);
	if (o->json) {
		printf("}\n");
		return;
	}
	if (o->hist) {
		print_hist(r, o, "netrx_hist", "inline_delay",
			   "NET_RX raise->entry delay, inline runs: runs per bucket",
			   ncpus);
		print_hist(r, o, "netrx_hist", "ksoftirqd_delay",
			   "NET_RX raise->entry delay, ksoftirqd runs: runs per bucket",
			   ncpus);
	}
}

/* read_buffer - what read_buffers() does with one buffer; false on failure */
typedef bool (*read_buffer)(struct tracecmd_input *buf, void *data);

/* The most CPUs a trace.dat may say it was recorded on */
#define READ_MAX_CPUS	8192

/*
 * read_buffers - open every instance buffer of @handle (teeprobe record
 * writes into its own instance), then call @read on the top buffer and on
 * each instance; 0, or -1 at the first failure. The reading child of
 * read_isolated() and the reads in this process both go through here.
 */
static int read_buffers(struct tracecmd_input *handle, read_buffer read,
			void *data)
{
	struct tracecmd_input **inst = NULL;
	int i, n, ret = 0;

	/*
	 * A damaged CPU count (half a billion, in a 37 KiB file the fuzzer
	 * made) has libtracecmd 3.1.6 allocate 8 bytes per CPU and peek at
	 * every CPU for every record: 4 GB and tens of seconds before it
	 * gives up. No kernel has more than 8192 CPUs (CONFIG_NR_CPUS).
	 */
	n = tep_get_cpus(tracecmd_get_tep(handle));
	if (n < 1 || n > READ_MAX_CPUS)
		return -1;
	n = tracecmd_buffer_instances(handle);
	if (n > 0)
		inst = xzalloc(n * sizeof(*inst));
	for (i = 0; i < n && !ret; i++) {
		inst[i] = tracecmd_buffer_instance_handle(handle, i);
		if (!inst[i])
			ret = -1;
	}
	if (!ret && !read(handle, data))
		ret = -1;
	for (i = 0; i < n && inst[i]; i++) {
		if (!ret && !read(inst[i], data))
			ret = -1;
		tracecmd_close(inst[i]);
	}
	free(inst);
	return ret;
}

/* The reading child's guard: per CPU, the offset of the last record */
struct guard {
	unsigned long long *last;
	int ncpus;
	unsigned long records;
};

/* Seconds of CPU time the child may spend without a record in between */
#define READ_STALL_S	5
/*
 * ... and opening the file, before the first record: its headers hold the
 * kernel's kallsyms (9 MB on Debian's 7.2, in a 1.8 MB compressed file),
 * which libtraceevent parses. In a QEMU guest that took 1.7 s of CPU, and
 * 6.3 s under a SCHED_FIFO hog on the other vCPU (single-threaded TCG runs
 * one vCPU at a time and the guest charges the wait to the task on the
 * other): READ_STALL_S alone failed one read in six there. So opening gets
 * READ_STALL_S plus READ_OPEN_S_PER_MB for each MB of the file (23 s for
 * that one), at most READ_OPEN_S: a small damaged file on which
 * libtracecmd loops is still stopped within about READ_STALL_S.
 */
#define READ_OPEN_S_PER_MB	10
#define READ_OPEN_S	60

static unsigned int stall_ms = READ_STALL_S * 1000;
/* 0: by the file's size (open_budget()); else what report_read_stall() set */
static unsigned int open_fixed_ms;
/* the budget of the last open, for the message */
static unsigned int open_ms = READ_STALL_S * 1000;

/*
 * report_read_stall - the reading child's CPU time without a record, and
 * to open the file, in ms, instead of READ_STALL_S s and the size-scaled
 * budget (0: those again). For the fuzzer, whose inputs are small and
 * which makes the libraries loop often: each loop cost it READ_STALL_S s
 * of CPU.
 */
void report_read_stall(unsigned int ms)
{
	stall_ms = ms ? ms : READ_STALL_S * 1000;
	open_fixed_ms = ms;
}

/* open_budget - the ms of CPU time the child may take to open @size bytes */
static unsigned int open_budget(unsigned long long size)
{
	unsigned long long ms;

	if (open_fixed_ms)
		return open_fixed_ms;
	ms = READ_STALL_S * 1000ULL +
	     size * READ_OPEN_S_PER_MB * 1000 / (1024 * 1024);
	return ms < READ_OPEN_S * 1000 ? ms : READ_OPEN_S * 1000;
}

/* stall_arm - (re)start the reading child's guard: @ms of CPU time */
static void stall_arm(unsigned int ms)
{
	struct itimerval stall = {
		.it_value.tv_sec = ms / 1000,
		.it_value.tv_usec = ms % 1000 * 1000,
	};

	setitimer(ITIMER_PROF, &stall, NULL);
}

/*
 * guard_record - end the reading child at the first record that shows the
 * library going round in circles. On a page whose event length is damaged
 * (negative), libtracecmd 3.1.6 walks back to an earlier event and yields
 * the same records for ever (trace-cmd report prints them until the disk
 * is full), and it ignores the callback's return value. In a sound file
 * each CPU's records come at increasing offsets.
 */
static void guard_record(struct guard *g, struct tep_record *record, int cpu)
{
	if (cpu < 0 || record->size < 0)
		_exit(1);
	if (cpu >= g->ncpus) {
		int n = cpu + 1;

		g->last = realloc(g->last, n * sizeof(*g->last));
		if (!g->last)
			_exit(1);
		memset(g->last + g->ncpus, 0,
		       (n - g->ncpus) * sizeof(*g->last));
		g->ncpus = n;
	}
	if (g->last[cpu] && record->offset <= g->last[cpu])
		_exit(1);
	g->last[cpu] = record->offset;
	if (!(++g->records % 4096))
		stall_arm(stall_ms);
}

/* What the reading child reads into */
struct child_read {
	struct report *r;
	struct guard g;
};

/* child_record - tracecmd_iterate_events callback of the reading child */
static int child_record(struct tracecmd_input *handle,
			struct tep_record *record, int cpu, void *data)
{
	struct child_read *c = data;

	guard_record(&c->g, record, cpu);
	return on_record(handle, record, cpu, c->r);
}

/* child_records - every record of one buffer, guarded; false on failure */
static bool child_records(struct tracecmd_input *buf, void *data)
{
	struct child_read *c = data;

	if (c->g.ncpus)
		memset(c->g.last, 0, c->g.ncpus * sizeof(*c->g.last));
	fields_reset();
	stall_arm(stall_ms);
	return tracecmd_iterate_events(buf, NULL, 0, child_record, c) >= 0;
}

/* read_records - every record of one buffer into the report @data */
static bool read_records(struct tracecmd_input *buf, void *data)
{
	fields_reset();
	return tracecmd_iterate_events(buf, NULL, 0, on_record, data) >= 0;
}

/*
 * The reading child hands its report to the parent through a pipe: the
 * struct as it is (its pointers mean nothing to the parent), then what
 * each pointer points to, in the order of put_report() and get_report().
 */

/* put - write all of @len bytes; false on failure */
static bool put(int fd, const void *p, size_t len)
{
	const char *c = p;
	ssize_t n;

	while (len) {
		n = write(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		c += n;
		len -= n;
	}
	return true;
}

/* put_string - a string and its length (SIZE_MAX for none) */
static bool put_string(int fd, const char *s)
{
	size_t len = s ? strlen(s) : SIZE_MAX;

	return put(fd, &len, sizeof(len)) && (!s || put(fd, s, len));
}

/* put_report - @r down @fd; false on failure */
static bool put_report(int fd, const struct report *r)
{
	bool ok = put(fd, r, sizeof(*r));
	int i, p;

	for (p = 0; p < 2; p++)
		for (i = 0; i < r->snap[p].nr; i++)
			ok = ok && put_string(fd, r->snap[p].src[i].name) &&
			     put_string(fd, r->snap[p].src[i].text);
	for (p = 0; p < NR_PHASES; p++)
		ok = ok && put(fd, r->phase[p].v, r->phase[p].n * sizeof(*r->phase[p].v));
	for (i = 0; i < r->nr_cmds; i++)
		ok = ok && put(fd, r->cmds[i].duration.v,
			       r->cmds[i].duration.n * sizeof(*r->cmds[i].duration.v));
	return ok && put(fd, r->ev.tee, r->ev.ntee * sizeof(*r->ev.tee)) &&
	       put(fd, r->ev.netrx, r->ev.nnetrx * sizeof(*r->ev.netrx)) &&
	       put(fd, r->ev.hs, r->ev.nhs * sizeof(*r->ev.hs)) &&
	       put(fd, r->ev.acc, r->ev.nacc * sizeof(*r->ev.acc));
}

/* get - the next @len bytes from @fd into @p; false when the stream ends first */
static bool get(int fd, void *p, size_t len)
{
	char *c = p;
	ssize_t n;

	while (len) {
		n = read(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		c += n;
		len -= n;
	}
	return true;
}

/* Most that get_array() allocates ahead of what came */
#define GET_CHUNK	(1 << 20)

/*
 * get_array - @n elements of @size from @fd into a new array at @v. The
 * array grows with what comes, so a count larger than the stream costs
 * no more memory than the stream.
 */
static bool get_array(int fd, void *v, size_t n, size_t size)
{
	size_t total = n * size, have = 0, cap = 0, want;
	char *a = NULL, *b;

	if (n && total / n != size)
		return false;
	while (have < total) {
		want = total - have < GET_CHUNK ? total - have : GET_CHUNK;
		if (have + want > cap) {
			cap = 2 * cap > have + want ? 2 * cap : have + want;
			cap = cap < total ? cap : total;
			b = realloc(a, cap);
			if (!b)
				break;
			a = b;
		}
		if (!get(fd, a + have, want))
			break;
		have += want;
	}
	if (have < total) {
		free(a);
		return false;
	}
	*(void **)v = a;
	return true;
}

/* get_string - a string that put_string() wrote, into @str */
static bool get_string(int fd, char **str)
{
	size_t n;

	*str = NULL;
	if (!get(fd, &n, sizeof(n)))
		return false;
	if (n == SIZE_MAX)
		return true;
	if (!get_array(fd, str, n, 1))
		return false;
	*str = realloc(*str, n + 1);
	if (!*str)
		fatal("out of memory\n");
	(*str)[n] = '\0';
	return true;
}

/*
 * get_report - the report the child sent down @fd, into @r (zeroed, but
 * for its trace_seq, which it keeps); false when the stream is short,
 * longer, or does not add up. Whatever was allocated stays in @r for
 * report_free().
 */
static bool get_report(int fd, struct report *r)
{
	struct trace_seq seq = r->seq;
	struct snap_source *src;
	char extra;
	bool ok;
	int i, p;

	ok = get(fd, r, sizeof(*r));
	/* The pointers are the child's: none of them is the parent's. */
	for (p = 0; p < 2; p++) {
		for (i = 0; i < SNAP_MAX_SOURCES; i++) {
			r->snap[p].src[i].name = NULL;
			r->snap[p].src[i].text = NULL;
		}
		memset(&r->pending[p], 0, sizeof(r->pending[p]));
	}
	for (p = 0; p < NR_PHASES; p++)
		r->phase[p].v = NULL;
	for (i = 0; i < MAX_CMDS; i++)
		r->cmds[i].duration.v = NULL;
	r->ev.tee = NULL;
	r->ev.netrx = NULL;
	r->ev.hs = NULL;
	r->ev.acc = NULL;
	r->seq = seq;		/* this process's own */
	if (!ok || r->nr_cmds < 0 || r->nr_cmds > MAX_CMDS ||
	    r->nr_kinds < 0 || r->nr_kinds > MAX_KINDS ||
	    r->nr_threads < 0 || r->nr_threads > MAX_THREADS) {
		r->nr_cmds = 0;
		r->snap[0].nr = r->snap[1].nr = 0;
		return false;
	}
	for (p = 0; p < 2; p++) {
		if (r->snap[p].nr < 0 || r->snap[p].nr > SNAP_MAX_SOURCES) {
			r->snap[p].nr = 0;
			ok = false;
		}
		for (i = 0; ok && i < r->snap[p].nr; i++) {
			src = &r->snap[p].src[i];
			ok = get_string(fd, &src->name) &&
			     get_string(fd, &src->text);
			src->len = src->text ? strlen(src->text) : 0;
			src->cap = src->text ? src->len + 1 : 0;
		}
	}
	for (p = 0; p < NR_PHASES; p++) {
		ok = ok && get_array(fd, &r->phase[p].v, r->phase[p].n,
				     sizeof(*r->phase[p].v));
		r->phase[p].cap = r->phase[p].n;
	}
	for (i = 0; i < r->nr_cmds; i++) {
		ok = ok && get_array(fd, &r->cmds[i].duration.v,
				     r->cmds[i].duration.n,
				     sizeof(*r->cmds[i].duration.v));
		r->cmds[i].duration.cap = r->cmds[i].duration.n;
	}
	ok = ok && get_array(fd, &r->ev.tee, r->ev.ntee, sizeof(*r->ev.tee)) &&
	     get_array(fd, &r->ev.netrx, r->ev.nnetrx, sizeof(*r->ev.netrx)) &&
	     get_array(fd, &r->ev.hs, r->ev.nhs, sizeof(*r->ev.hs)) &&
	     get_array(fd, &r->ev.acc, r->ev.nacc, sizeof(*r->ev.acc));
	r->ev.cap_tee = r->ev.ntee;
	r->ev.cap_netrx = r->ev.nnetrx;
	r->ev.cap_hs = r->ev.nhs;
	r->ev.cap_acc = r->ev.nacc;
	/* and nothing after it */
	return ok && !get(fd, &extra, 1);
}

static bool read_in_parent;

/*
 * report_read_in_parent - after the child's read succeeds, read the file
 * again in this process instead of taking the child's report: for
 * test_report_read, which checks that the two give the same report.
 */
void report_read_in_parent(bool yes)
{
	read_in_parent = yes;
}

static pid_t last_child;
static int last_status;

/*
 * report_last_child - the pid and wait status of the child that read the
 * last file; 0 when none was started. For the fuzzer, which tells a child
 * the libraries killed from one its sanitizers stopped.
 */
pid_t report_last_child(int *status)
{
	*status = last_status;
	return last_child;
}

/*
 * child_read - read @input in a child, which sends its report to @fd;
 * does not return: exits 0 when the report went, 1 otherwise.
 */
static void child_read(const char *input, int fd)
{
	struct itimerval off = { 0 };
	struct tracecmd_input *handle;
	struct child_read c = { 0 };
	int null;

	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGPROF, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/*
	 * Nothing the child says is for the user: where the libraries fail,
	 * glibc's words ("free(): double free detected in tcache 2") would
	 * come before the parent's message. (The fuzzer's sanitizers write
	 * their reports to files: log_path.)
	 */
	null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, STDERR_FILENO);
		close(null);
	}
	c.r = xzalloc(sizeof(*c.r));
	trace_seq_init(&c.r->seq);
	/* libtracecmd can loop in its reads while it opens a damaged file */
	stall_arm(open_ms);
	handle = tracecmd_open(input, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle || read_buffers(handle, child_records, &c))
		_exit(1);
	setitimer(ITIMER_PROF, &off, NULL);
	if (!read_in_parent && !put_report(fd, c.r))
		_exit(1);
	_exit(0);
}

/*
 * read_isolated - read @input in a child into @r, and say whether it
 * could: 1 when the child read it, 0 when it could not (it died, or its
 * guard stopped it: the caller gives the message), -1 when the child
 * could not be started. The child dies, quietly, where the libraries
 * would crash or loop on a damaged file: libtracecmd 3.1.6 in the error
 * path of tracecmd_buffer_instance_handle() (it closes a shallow copy of
 * the handle) and in tracecmd_alloc_fd() on a damaged version 7 header
 * (it frees a string twice: glibc aborts), libtraceevent 1.7.1 in
 * tracecmd_open() on a damaged event format and in
 * kbuffer_load_subbuffer() on a damaged page (in a compressed file the
 * page is only seen once decompressed, so it cannot be checked
 * beforehand); libtracecmd loops for ever on a page with a
 * negative event length (guard_record() ends it), and anything else that
 * spins without a record, or in its reads while it opens the file, is
 * ended by SIGPROF after READ_STALL_S s of CPU time between records, or
 * open_budget() to open the file (user and system: the loops are often in
 * read() or page faults; report_read_stall() changes the times).
 * trace-cmd report crashes or loops on all of them. Found by tests/fuzz.
 */
static int read_isolated(const char *input, struct report *r)
{
	int fds[2], status;
	bool ok = true, got;
	pid_t pid;

	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		close(fds[0]);
		child_read(input, fds[1]);
	}
	close(fds[1]);
	/* taken as it comes, and kept only if the child exits 0 */
	got = read_in_parent || get_report(fds[0], r);
	close(fds[0]);		/* a child still writing gets SIGPIPE */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ok = false;
			break;
		}
	if (ok) {
		last_child = pid;
		last_status = status;
	}
	ok = ok && WIFEXITED(status) && !WEXITSTATUS(status);
	if (ok && !got) {
		err_msg("report: the reading child's report of %s is incomplete\n",
			input);
		ok = false;
	}
	return ok;
}

/*
 * read_file - every buffer of @input into @r; 0, or -1 with a message.
 * The libraries read the file in a child (read_isolated()), which hands
 * the report over; only if no child can be started does this process read
 * it unguarded.
 */
static int read_file(const char *input, struct report *r)
{
	struct tracecmd_input *handle;
	struct stat st;
	int ret;

	last_child = 0;
	last_status = 0;
	if (stat(input, &st) < 0) {
		err_msg("report: cannot open %s: %s\n", input, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		err_msg("report: %s is not a regular file\n", input);
		return -1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	open_ms = open_budget(st.st_size);
	ret = read_isolated(input, r);
	if (ret == 1 && !read_in_parent)
		return 0;
	if (!ret && WIFSIGNALED(last_status) && WTERMSIG(last_status) == SIGPROF) {
		err_msg("report: reading %s was stopped, it made no progress in "
			"its CPU time (%g s to open the file, %g s between records): "
			"a damaged trace.dat?\n", input, open_ms / 1000.0,
			stall_ms / 1000.0);
		return -1;
	}
	handle = ret ? tracecmd_open(input, TRACECMD_FL_LOAD_NO_PLUGINS) : NULL;
	if (!handle) {
		err_msg("report: %s is not a readable trace.dat (truncated, "
			"damaged, or not written by trace-cmd)\n", input);
		return -1;
	}
	ret = read_buffers(handle, read_records, r);
	tracecmd_close(handle);
	if (ret)
		err_msg("report: %s is damaged: its events cannot all be read\n",
			input);
	return ret;
}

/* report_free - release what reading allocated */
static void report_free(struct report *r)
{
	int i;

	for (i = 0; i < r->nr_cmds; i++)
		free(r->cmds[i].duration.v);
	for (i = 0; i < NR_PHASES; i++)
		free(r->phase[i].v);
	for (i = 0; i < 2; i++) {
		snapshot_free(&r->snap[i]);
		free(r->pending[i].name);
		free(r->pending[i].text);
	}
	session_events_free(&r->ev);
	trace_seq_destroy(&r->seq);
	free(r);
}

/*
 * report_read - read @input; NULL (after a message) when it cannot be read
 * or holds nothing of teeprobe's
 */
struct report *report_read(const char *input)
{
	struct report *r = xzalloc(sizeof(*r));

	trace_seq_init(&r->seq);
	if (read_file(input, r)) {
		report_free(r);
		return NULL;
	}
	if (!r->teeprobe_events && !r->markers) {
		err_msg("%s holds no teeprobe events (%llu other events); "
			"record with 'teeprobe record' or 'trace-cmd record -e teeprobe'\n",
			input, r->other_events);
		report_free(r);
		return NULL;
	}
	return r;
}

/* report_events - the session's events, for analyze and plot */
const struct session_events *report_events(const struct report *r)
{
	return &r->ev;
}

/* report_release - free what report_read returned */
void report_release(struct report *r)
{
	report_free(r);
}

/* mean_of - mean of samples, NAN when there are none */
static double mean_of(const struct samples *x)
{
	double total = 0;
	size_t i;

	for (i = 0; i < x->n; i++)
		total += x->v[i];
	return x->n ? total / x->n : NAN;
}

/* report_summarize - the headline figures of a session */
void report_summarize(struct report *r, struct session_summary *s)
{
	const struct snapshot *a = &r->snap[0], *b = &r->snap[1];
	double pct[5], bucket[HIST_BUCKETS], runs, calls = 0, total = 0;
	double off = 0, accepted = 0;
	struct tables tb;
	int i;

	s->seconds = report_seconds(r);
	s->system_pct = s->softirq_pct = NAN;
	if (derive_cpu(a, b, "cpu", pct)) {
		s->system_pct = pct[1];
		s->softirq_pct = pct[2];
	}
	tables_load(&tb, a, b, "netrx_stats");
	runs = tb.ok ? tables_delta(&tb, "all", NULL, "runs") : NAN;
	s->ksoftirqd_share = share(tables_delta(&tb, "all", NULL,
						"ksoftirqd_runs"), runs);
	tables_free(&tb);
	tables_load(&tb, a, b, "netrx_hist");
	tables_hist_delta(&tb, "inline_delay", "all", bucket);
	s->inline_delay_p99_ns = tb.ok ? hist_pct(bucket, 0, 99) : NAN;
	tables_free(&tb);
	s->netrx_per_s = rate(runs, s->seconds);
	s->rx_packets_per_s = snapshot_text(b, "net_dev") ?
		rate(derive_nic_rx(a, b, NULL), s->seconds) : NAN;
	s->packets_per_run = share(s->rx_packets_per_s, s->netrx_per_s);
	tables_load(&tb, a, b, "tee_stats");
	for (i = 0; tb.ok && i < tb.t[1].nrows; i++) {
		if (tb.t[1].nfields[i] < 2 || strcmp(tb.t[1].rows[i][0], "all"))
			continue;
		calls += tables_delta(&tb, "all", tb.t[1].rows[i][1], "calls");
		total += tables_delta(&tb, "all", tb.t[1].rows[i][1], "total_ns");
		off += tables_delta(&tb, "all", tb.t[1].rows[i][1], "offcpu_ns");
	}
	s->tee_calls_per_s = tb.ok ? rate(calls, s->seconds) : NAN;
	s->tee_blocked_share = tb.ok ? share(off, total) : NAN;
	s->tee_mean_ns = calls > 0 ? total / calls : NAN;
	s->tee_calls = tb.ok ? calls : NAN;
	s->tee_total_ns = tb.ok ? total : NAN;
	tables_free(&tb);
	tables_load(&tb, a, b, "tcp_stats");
	s->untracked = 0;
	for (i = 0; tb.ok && i < tb.t[1].nrows; i++) {
		if (tb.t[1].nfields[i] < 2 || strcmp(tb.t[1].rows[i][0], "all"))
			continue;
		accepted += tables_delta(&tb, "all", tb.t[1].rows[i][1], "accepted");
		s->untracked += tables_delta(&tb, "all", tb.t[1].rows[i][1],
					     "untracked");
	}
	s->handshakes_per_s = tb.ok ? rate(accepted, s->seconds) : NAN;
	s->accepted = tb.ok ? accepted : NAN;
	if (!tb.ok)
		s->untracked = NAN;
	tables_free(&tb);
	tables_load(&tb, a, b, "tcp_probes");
	s->tcp_missed = tb.ok ? 0 : NAN;
	for (i = 0; tb.ok && i < tb.t[1].nrows; i++)
		if (tb.t[1].nfields[i] > 0)
			s->tcp_missed += tables_delta(&tb, tb.t[1].rows[i][0], NULL,
						      "nmissed");
	tables_free(&tb);
	s->syn_synack_ns = mean_of(&r->phase[PH_SYN_SYNACK]);
	s->synack_ack_ns = mean_of(&r->phase[PH_SYNACK_ACK]);
	s->ack_accept_ns = mean_of(&r->phase[PH_ACK_ACCEPT]);
	s->connect_ns = mean_of(&r->phase[PH_CONNECT]);
	s->handshake_ns = s->syn_synack_ns + s->synack_ack_ns + s->ack_accept_ns;
	s->tee_per_hs_ns = s->accepted > 0 ? s->tee_total_ns / s->accepted : NAN;
}

/* report_main - entry point of teeprobe report */
int report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-hist", no_argument, NULL, 'H' },
		{ "no-header", no_argument, NULL, 'N' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct report_opts o = { .input = "trace.dat", .hist = true,
				 .header = true };
	struct report *r;
	int c;

	while ((c = getopt_long(argc, argv, "i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case 'j':
			o.json = true;
			break;
		case 'H':
			o.hist = false;
			break;
		case 'N':
			o.header = false;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
		default:
			report_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		err_msg("report: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	r = report_read(o.input);
	if (!r)
		return 1;
	print_report(r, &o);
	report_free(r);
	return 0;
}
