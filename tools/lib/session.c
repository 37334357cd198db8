// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - read a recorded session (see session.h): libtracecmd opens
 * the file in a guarded child (readguard.c), each record goes to the
 * handler of its event id, and the child hands the session over.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "delta.h"
#include "module.h"
#include "readguard.h"
#include "session.h"
#include "utils.h"
#include "zpages.h"

/*
 * The numeric fields the handlers read, looked up by name once per event
 * format rather than on every record (the lookup compares names: it was a
 * tenth of a report's time). ids_reset() forgets the formats before each
 * buffer is read: a format freed with its file may have a successor at the
 * same address.
 */
#define MAX_FIELDS	20

/* An event's fields by name, looked up once per format */
struct event_fields {
	const char *const *names;
	int n;
	const struct tep_event *event;		/* the format looked up */
	struct tep_format_field *f[MAX_FIELDS];	/* NULL: not in it */
};

enum {
	TEE_CMD, TEE_DURATION, TEE_OFFCPU, TEE_RUNQ, TEE_QUEUE_WAIT,
	TEE_SECURE, TEE_RET, TEE_COMM, NR_TEE_FIELDS
};
static const char *const tee_names[NR_TEE_FIELDS] = {
	"cmd", "duration_ns", "offcpu_ns", "runq_ns", "queue_wait_ns",
	"secure_ns", "ret", "comm"
};

enum {
	HS_SIDE, HS_SPORT, HS_DPORT, HS_SYN_SYNACK, HS_SYNACK_ACK,
	HS_ACK_ACCEPT, HS_CONNECT, HS_CONNECT_CALL, HS_SYN_WAIT, HS_ACK_WAIT,
	NR_HS_FIELDS
};
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
	NW_TEE_RUNS, NW_TEE_SUM, NW_LATE, NR_NW_FIELDS
};
static const char *const nw_names[NR_NW_FIELDS] = {
	"cpu", "start_ns", "len_ns", "raises", "runs", "ksoftirqd_runs",
	"run_ns", "packets", "reraises", "inline_delay_count",
	"inline_delay_sum_ns", "inline_delay_p99_ns", "ksoftirqd_delay_count",
	"ksoftirqd_delay_sum_ns", "ksoftirqd_delay_p99_ns", "tee_runs",
	"tee_delay_sum_ns", "late_ns"
};

static struct event_fields tee_fields = { .names = tee_names, .n = NR_TEE_FIELDS };
static struct event_fields hs_fields = { .names = hs_names, .n = NR_HS_FIELDS };
static struct event_fields nw_fields = { .names = nw_names, .n = NR_NW_FIELDS };
static struct event_fields acc_fields = { .names = acc_names, .n = NR_ACC_FIELDS };

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
 * What the reader keeps while it reads: the session, a print buffer, and
 * the client that takes each event as it comes (NULL: kept in the
 * session's arrays)
 */
struct reader {
	struct session *s;
	struct trace_seq seq;
	const struct session_visitor *v;
	void *acc;
	struct zpages *zpages;	/* the child's: decompressed pages given back */
};

/*
 * EVENT_SLOT - where the next event goes: @one, when a client takes each
 * event as it comes (session_stream()), else the end of the array @arr
 * of @n events and room for @cap
 */
#define EVENT_SLOT(rd, one, arr, n, cap)				\
	((rd)->v ? (one) :						\
	 ((arr) = grow((arr), (n), &(cap), sizeof(*(arr))), &(arr)[(n)++]))

/* cmd_name - the command's name as the event prints it ("cmd=INVOKE") */
static void cmd_name(struct reader *rd, struct tep_event *event,
		     struct tep_record *record, char *name, size_t len)
{
	const char *p;
	size_t n;

	trace_seq_reset(&rd->seq);
	tep_print_event(event->tep, &rd->seq, record, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&rd->seq);
	p = strstr(rd->seq.buffer, "cmd=");
	if (!p) {
		snprintf(name, len, "OTHER");
		return;
	}
	p += 4;
	n = strcspn(p, " ");
	snprintf(name, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

/* on_tee_exit - one TEE ioctl ended */
static void on_tee_exit(struct reader *rd, struct tep_event *event,
			struct tep_record *record)
{
	const struct event_fields *ef = fields_of(&tee_fields, event);
	struct session *s = rd->s;
	const char *name = NULL;
	struct tee_call *call, one;
	int i;

	call = EVENT_SLOT(rd, &one, s->ev.tee, s->ev.ntee, s->ev.cap_tee);
	call->end_ns = record->ts;
	call->cmd = fval(ef, TEE_CMD, record);
	call->dur_ns = fval(ef, TEE_DURATION, record);
	call->offcpu_ns = fval(ef, TEE_OFFCPU, record);
	call->runq_ns = fval(ef, TEE_RUNQ, record);
	call->queue_wait_ns = fval(ef, TEE_QUEUE_WAIT, record);
	call->secure_ns = fval(ef, TEE_SECURE, record);
	call->secure_known = ef->f[TEE_SECURE];
	call->ret = (long long)fval(ef, TEE_RET, record);
	call->cpu = record->cpu;
	call->tid = tep_data_pid(event->tep, record);
	name = session_cmd_name(s, call->cmd);
	if (!name && s->nr_cmds < SESSION_MAX_CMDS) {
		struct session_cmd *c = &s->cmds[s->nr_cmds++];

		c->id = call->cmd;
		cmd_name(rd, event, record, c->name, sizeof(c->name));
		name = c->name;
	}
	call->setup = name && (!strcmp(name, "SHM_REGISTER") ||
			       !strcmp(name, "SHM_ALLOC"));
	call->invoke = name && (!strcmp(name, "INVOKE") ||
				!strcmp(name, "TZ_SEND_CMD"));
	call->setup_once = false;
	for (i = 0; i < s->nr_threads; i++)
		if (s->threads[i].tid == call->tid)
			break;
	if (i == s->nr_threads && s->nr_threads < SESSION_MAX_THREADS) {
		struct session_thread *t = &s->threads[s->nr_threads++];
		const struct tep_format_field *f = ef->f[TEE_COMM];

		t->tid = call->tid;
		/*
		 * The event's own comm (a module that carries it);
		 * else trace-cmd's saved_cmdlines, which may have lost it
		 */
		if (f && f->offset >= 0 && f->size > 0 && f->size <= 64 &&
		    f->offset + f->size <= record->size &&
		    ((const char *)record->data)[f->offset])
			snprintf(t->comm, sizeof(t->comm), "%.*s",
				 (int)strnlen((const char *)record->data + f->offset,
					      f->size),
				 (const char *)record->data + f->offset);
		else
			snprintf(t->comm, sizeof(t->comm), "%s",
				 tep_data_comm_from_pid(event->tep, call->tid));
	}
	/* the visitor sees the call's command and thread in the session */
	if (rd->v && rd->v->tee)
		rd->v->tee(rd->acc, s, call);
}

/* on_tcp_handshake - one handshake finished, server or client side */
static void on_tcp_handshake(struct reader *rd, struct tep_event *event,
			     struct tep_record *record)
{
	const struct event_fields *ef = fields_of(&hs_fields, event);
	struct session *s = rd->s;
	bool client = fval(ef, HS_SIDE, record) != 0;
	struct hs_event *h, one;

	h = EVENT_SLOT(rd, &one, s->ev.hs, s->ev.nhs, s->ev.cap_hs);
	h->ts = record->ts;
	h->tid = tep_data_pid(event->tep, record);
	h->client = client;
	h->port = fval(ef, client ? HS_DPORT : HS_SPORT, record);
	h->syn_synack_ns = fval(ef, HS_SYN_SYNACK, record);
	h->synack_ack_ns = fval(ef, HS_SYNACK_ACK, record);
	h->ack_accept_ns = fval(ef, HS_ACK_ACCEPT, record);
	h->connect_ns = fval(ef, HS_CONNECT, record);
	h->connect_call_ns = fval(ef, HS_CONNECT_CALL, record);
	/* Files of an earlier module have no waits per handshake. */
	h->has_waits = !client && ef->f[HS_SYN_WAIT] && ef->f[HS_ACK_WAIT];
	h->syn_wait_ns = fval(ef, HS_SYN_WAIT, record);
	h->ack_wait_ns = fval(ef, HS_ACK_WAIT, record);
	if (rd->v && rd->v->hs)
		rd->v->hs(rd->acc, h);
}

/* on_acceptor_state - an accepting thread changed state */
static void on_acceptor_state(struct reader *rd, struct tep_event *event,
			      struct tep_record *record)
{
	const struct event_fields *ef = fields_of(&acc_fields, event);
	unsigned long long state = fval(ef, ACC_STATE, record);
	struct session *s = rd->s;
	struct acc_event *a, one;

	a = EVENT_SLOT(rd, &one, s->ev.acc, s->ev.nacc, s->ev.cap_acc);
	a->ts = record->ts;
	a->tid = fval(ef, ACC_TID, record);
	a->state = state <= ACC_ASLEEP ? (enum acc_state)state : ACC_UNKNOWN;
	if (rd->v && rd->v->acc)
		rd->v->acc(rd->acc, a);
}

/* on_netrx_window - one CPU's NET_RX window */
static void on_netrx_window(struct reader *rd, struct tep_event *event,
			    struct tep_record *record)
{
	const struct event_fields *ef = fields_of(&nw_fields, event);
	unsigned int cpu = fval(ef, NW_CPU, record);
	struct session *s = rd->s;
	struct netrx_win *nw, one;

	if (cpu >= SESSION_MAX_CPUS)
		return;
	nw = EVENT_SLOT(rd, &one, s->ev.netrx, s->ev.nnetrx, s->ev.cap_netrx);
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
	nw->late_ns = fval(ef, NW_LATE, record);
	nw->late_known = ef->f[NW_LATE];
	if (rd->v && rd->v->netrx)
		rd->v->netrx(rd->acc, nw);
}

/*
 * capture_from_ns - where a capture's session starts: the "from_ns" line
 * of its start snapshot's "capture" source, or 0 (not a capture). The
 * capture's writer puts its markers in a buffer read before its ring's.
 */
static unsigned long long capture_from_ns(const struct snapshot *start)
{
	const char *text = snapshot_text(start, "capture"), *p;
	unsigned long long v = 0;

	p = text ? strstr(text, "from_ns ") : NULL;
	if (p && (p == text || p[-1] == '\n') && sscanf(p + 8, "%llu", &v) != 1)
		v = 0;
	return v;
}

/* on_marker - a print event: maybe one line of a snapshot */
static void on_marker(struct reader *rd, struct tep_event *event,
		      struct tep_record *record)
{
	struct tep_format_field *f;
	const char *buf;
	char *text;
	int len;

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
	rd->s->markers += snapshot_read_marker(rd->s->snap, rd->s->pending, text);
	free(text);
	if (!rd->s->from_ns)
		rd->s->from_ns = capture_from_ns(&rd->s->snap[0]);
}

typedef void (*event_handler)(struct reader *rd, struct tep_event *event,
			      struct tep_record *record);

/* The events the session keeps, by name: each found once per buffer */
static const struct {
	const char *system, *name;
	event_handler handler;
} handlers[] = {
	{ "ftrace", "print", on_marker },
	{ TEEPROBE_SYSTEM, "teeprobe_tee_ioctl_exit", on_tee_exit },
	{ TEEPROBE_SYSTEM, "teeprobe_netrx_window", on_netrx_window },
	{ TEEPROBE_SYSTEM, "teeprobe_tcp_handshake", on_tcp_handshake },
	{ TEEPROBE_SYSTEM, "teeprobe_acceptor_state", on_acceptor_state },
};

/*
 * What an event id means in the buffer being read: looked up once per id
 * (its event, whether it is teeprobe's, its handler, its kind), then found
 * by the id alone. Ids are the kernel's 16-bit trace event types.
 */
#define ID_SLOTS	(1 << 16)
struct id_info {
	struct tep_event *event;
	event_handler handler;
	short kind;		/* index in the session's kinds; -1: none */
	bool known, teeprobe;
};
static struct id_info *ids;

/* ids_reset - a new buffer: its ids are looked up again */
static void ids_reset(void)
{
	if (!ids)
		ids = xzalloc(ID_SLOTS * sizeof(*ids));
	else
		memset(ids, 0, ID_SLOTS * sizeof(*ids));
	tee_fields.event = hs_fields.event = nw_fields.event = NULL;
	acc_fields.event = NULL;
}

/* id_lookup - what @id means in @tep, looked up the first time */
static const struct id_info *id_lookup(struct session *s,
				       struct tep_handle *tep, int id)
{
	static struct id_info none;
	struct id_info *info;
	unsigned int i;

	if (id < 0 || id >= ID_SLOTS)
		return &none;
	info = &ids[id];
	if (info->known)
		return info;
	info->known = true;
	info->kind = -1;
	info->event = tep_find_event(tep, id);
	if (!info->event || !info->event->system || !info->event->name)
		return info;
	info->teeprobe = !strcmp(info->event->system, TEEPROBE_SYSTEM);
	for (i = 0; i < ARRAY_SIZE(handlers); i++)
		if (!strcmp(info->event->system, handlers[i].system) &&
		    !strcmp(info->event->name, handlers[i].name))
			info->handler = handlers[i].handler;
	if (!info->teeprobe)
		return info;
	for (i = 0; i < (unsigned int)s->nr_kinds; i++)
		if (s->kinds[i].id == id)
			info->kind = i;
	if (info->kind < 0 && s->nr_kinds < SESSION_MAX_KINDS) {
		struct session_kind *k = &s->kinds[s->nr_kinds];

		k->id = id;
		snprintf(k->name, sizeof(k->name), "%s", info->event->name);
		info->kind = s->nr_kinds++;
	}
	return info;
}

/* on_record - callback for every record of every buffer of the file */
static int on_record(struct tracecmd_input *handle, struct tep_record *record,
		     int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct reader *rd = data;
	struct session *s = rd->s;
	const struct id_info *info;

	(void)cpu;
	info = id_lookup(s, tep, tep_data_type(tep, record));
	if (info->teeprobe && record->ts < s->from_ns) {
		/* a capture's ring before its start: losses there too */
		s->before_start++;
		return 0;
	}
	if (record->missed_events > 0)
		s->missed_events += record->missed_events;
	if (!info->teeprobe) {
		if (info->handler)		/* a marker */
			info->handler(rd, info->event, record);
		else
			s->other_events++;
		return 0;
	}
	if (!s->teeprobe_events || record->ts < s->first_ts)
		s->first_ts = record->ts;
	if (record->ts > s->last_ts)
		s->last_ts = s->ev.end_ns = record->ts;
	s->teeprobe_events++;
	if (info->handler)
		info->handler(rd, info->event, record);
	if (info->kind >= 0)
		s->kinds[info->kind].count++;
	return 0;
}

/* The most CPUs a trace.dat may say it was recorded on */
#define READ_MAX_CPUS	8192

typedef bool (*read_buffer)(struct tracecmd_input *buf, void *data);

/*
 * read_buffers - open every instance buffer of @handle (teeprobe record
 * writes into its own instance), then call @read on the top buffer and on
 * each instance; 0, or -1 at the first failure. The reading child and the
 * reads in this process both go through here.
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

/* read_record - a record read, then the pages behind it given back */
static int read_record(struct tracecmd_input *handle,
		       struct tep_record *record, int cpu, void *data)
{
	struct reader *rd = data;
	int ret = on_record(handle, record, cpu, data);

	zpages_record(rd->zpages, record, cpu);
	return ret;
}

/* guarded_record - tracecmd_iterate_events callback of the reading child */
static int guarded_record(struct tracecmd_input *handle,
			  struct tep_record *record, int cpu, void *data)
{
	readguard_record(record, cpu);
	return read_record(handle, record, cpu, data);
}

/*
 * each_cpu - every record of @buf to @callback, each CPU's in turn (a
 * client that takes them in any order: libtracecmd's merge by time looks
 * at every CPU for every record); -1 on failure, as
 * tracecmd_iterate_events()
 */
static int each_cpu(struct tracecmd_input *buf, struct reader *rd,
		    int (*callback)(struct tracecmd_input *, struct tep_record *,
				    int, void *))
{
	int cpu, cpus = tep_get_cpus(tracecmd_get_tep(buf)), ret = 0;
	struct tep_record *record;

	for (cpu = 0; cpu < cpus && !ret; cpu++) {
		while (!ret && (record = tracecmd_read_data(buf, cpu))) {
			ret = callback(buf, record, cpu, rd);
			tracecmd_free_record(record);
		}
	}
	return ret < 0 ? -1 : 0;
}

/* iterate - every record of buffer @buf to @callback; false on failure */
static bool iterate(struct tracecmd_input *buf, struct reader *rd,
		    int (*callback)(struct tracecmd_input *, struct tep_record *,
				    int, void *))
{
	bool ok;

	ids_reset();
	rd->zpages = zpages_start(buf);
	if (rd->v && rd->v->any_order)
		ok = each_cpu(buf, rd, callback) >= 0;
	else
		ok = tracecmd_iterate_events(buf, NULL, 0, callback, rd) >= 0;
	zpages_end(rd->zpages);
	rd->zpages = NULL;
	return ok;
}

/* guarded_records - every record of one buffer, guarded; false on failure */
static bool guarded_records(struct tracecmd_input *buf, void *data)
{
	readguard_buffer();
	return iterate(buf, data, guarded_record);
}

/* read_records - every record of one buffer, in this process */
static bool read_records(struct tracecmd_input *buf, void *data)
{
	return iterate(buf, data, read_record);
}

/* What is read, by whom: the child's and the parent's (fork copies it) */
struct read_job {
	struct session *s;
	const struct session_visitor *v;	/* NULL: the events kept */
	void *acc;
};

/* child_read - the reading child's work: every buffer of @input */
static int child_read(const char *input, void *arg)
{
	struct read_job *job = arg;
	struct reader rd = { .s = job->s, .v = job->v, .acc = job->acc };
	struct tracecmd_input *handle;
	int ret;

	trace_seq_init(&rd.seq);
	handle = tracecmd_open(input, TRACECMD_FL_LOAD_NO_PLUGINS);
	ret = handle ? read_buffers(handle, guarded_records, &rd) : -1;
	if (!ret && job->v && job->v->finish)
		job->v->finish(job->acc, job->s);
	/* the child exits next: what the libraries hold goes with it */
	return ret;
}

/* put_child - readguard's put: the child's session, then its client's */
static bool put_child(int fd, const void *arg)
{
	const struct read_job *job = arg;

	if (!job->v)
		return session_put(fd, job->s);
	return session_put(fd, job->s) &&
	       readguard_put(fd, job->acc, job->v->size);
}

/* take_parent - readguard's take: into the parent's session and client */
static bool take_parent(int fd, void *arg)
{
	struct read_job *job = arg;

	if (!job->v)
		return session_take(fd, job->s);
	return session_take_part(fd, job->s) &&
	       readguard_get(fd, job->acc, job->v->size) &&
	       job->v->taken(job->acc) && readguard_get_end(fd);
}

static const struct readguard_ops session_ops = {
	.read = child_read,
	.put = put_child,
	.take = take_parent,
};

static bool read_in_parent;

/*
 * session_read_in_parent - after the child's read succeeds, read the file
 * again in this process instead of taking the child's session: for
 * test_session, which checks that the two give the same session.
 */
void session_read_in_parent(bool yes)
{
	read_in_parent = yes;
}

/*
 * read_file - every buffer of @input into @s; 0, or -1 with a message.
 * The libraries read the file in a child (readguard_run()), which hands
 * the session over; only if no child can be started does this process
 * read it unguarded.
 */
static int read_file(const char *input, struct read_job *job)
{
	struct reader rd = { .s = job->s, .v = job->v, .acc = job->acc };
	struct tracecmd_input *handle;
	struct stat st;
	int ret, status;

	readguard_forget_child();
	if (stat(input, &st) < 0) {
		err_msg("%s: cannot open %s: %s\n", command_name, input, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		err_msg("%s: %s is not a regular file\n", command_name, input);
		return -1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	ret = readguard_run(input, st.st_size, &session_ops, job, job,
			    !read_in_parent);
	if (ret == 1 && !read_in_parent)
		return 0;
	readguard_last_child(&status);
	if (!ret && WIFSIGNALED(status) && WTERMSIG(status) == SIGPROF) {
		err_msg("%s: reading %s was stopped, it made no progress in "
			"its CPU time (%g s to open the file, %g s between records): "
			"a damaged trace.dat?\n", command_name, input,
			readguard_open_ms() / 1000.0,
			readguard_stall_ms() / 1000.0);
		return -1;
	}
	handle = ret ? tracecmd_open(input, TRACECMD_FL_LOAD_NO_PLUGINS) : NULL;
	if (!handle) {
		err_msg("%s: %s is not a readable trace.dat (truncated, "
			"damaged, or not written by trace-cmd)\n", command_name, input);
		return -1;
	}
	trace_seq_init(&rd.seq);
	ret = read_buffers(handle, read_records, &rd);
	trace_seq_destroy(&rd.seq);
	tracecmd_close(handle);
	if (!ret && job->v && job->v->finish)
		job->v->finish(job->acc, job->s);
	if (ret)
		err_msg("%s: %s is damaged: its events cannot all be read\n", command_name,
			input);
	return ret;
}

/* session_events_free - release the events */
void session_events_free(struct session_events *ev)
{
	free(ev->tee);
	free(ev->netrx);
	free(ev->hs);
	free(ev->acc);
	memset(ev, 0, sizeof(*ev));
}

/* session_free - release what session_read() returned */
void session_free(struct session *s)
{
	if (!s)
		return;
	snapshot_free(&s->snap[0]);
	snapshot_free(&s->snap[1]);
	snapshot_pending_free(s->pending);
	session_events_free(&s->ev);
	free(s);
}

struct first_invoke {
	int tid;
	unsigned long long start;
};

/* cmp_invoke_tid - by thread alone; cmp_first_invoke - then by start */
static int cmp_invoke_tid(const void *a, const void *b)
{
	const struct first_invoke *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int cmp_first_invoke(const void *a, const void *b)
{
	const struct first_invoke *x = a, *y = b;

	if (x->tid != y->tid)
		return cmp_invoke_tid(a, b);
	return (x->start > y->start) - (x->start < y->start);
}

/*
 * session_mark_setup_once - which set-up calls are made once, not per call:
 * those a thread makes before its first call into a TA in the session, and
 * all of a thread that makes none. A server that registers its
 * memory once does so as its threads start (OPEN_SESSION, SHM_REGISTER,
 * then INVOKE after INVOKE); one that sets up per call does so before each
 * INVOKE, and only the first of its thread's is counted once.
 */
void session_mark_setup_once(struct session_events *ev)
{
	struct first_invoke *f = xzalloc((ev->ntee + 1) * sizeof(*f));
	size_t i, n = 0, k = 0;

	for (i = 0; i < ev->ntee; i++) {
		const struct tee_call *c = &ev->tee[i];

		if (!c->invoke)
			continue;
		f[n].tid = c->tid;
		f[n++].start = c->end_ns - c->dur_ns;
	}
	qsort(f, n, sizeof(*f), cmp_first_invoke);
	/* each thread's earliest: the first of its run */
	for (i = 0; i < n; i++)
		if (!k || f[k - 1].tid != f[i].tid)
			f[k++] = f[i];
	for (i = 0; i < ev->ntee; i++) {
		struct tee_call *c = &ev->tee[i];
		struct first_invoke key = { .tid = c->tid };
		const struct first_invoke *t;

		if (!c->setup)
			continue;
		/* the kept entries have one thread each */
		t = bsearch(&key, f, k, sizeof(*f), cmp_invoke_tid);
		c->setup_once = !t || c->end_ns - c->dur_ns < t->start;
	}
	free(f);
}

/* read_session - @input read for @v's client @acc, or kept (@v NULL) */
static struct session *read_session(const char *input,
				    const struct session_visitor *v, void *acc)
{
	struct session *s = xzalloc(sizeof(*s));
	struct read_job job = { .s = s, .v = v, .acc = acc };

	if (read_file(input, &job)) {
		session_free(s);
		return NULL;
	}
	if (!v)
		session_mark_setup_once(&s->ev);
	if (!s->teeprobe_events && !s->markers) {
		err_msg("%s holds no teeprobe events (%llu other events); "
			"record with 'teeprobe record' or 'trace-cmd record -e teeprobe'\n",
			input, s->other_events);
		session_free(s);
		return NULL;
	}
	return s;
}

/*
 * session_read - read @input, every event kept; NULL (after a message)
 * when it cannot be read or holds nothing of teeprobe's
 */
struct session *session_read(const char *input)
{
	return read_session(input, NULL, NULL);
}

/*
 * session_stream - read @input, each event given to @v's callbacks in the
 * reading child as it comes, none kept; the child hands the session (its
 * snapshots, commands, threads, kinds, counts) and @v's figures in @acc
 * over. NULL (after a message) as session_read().
 */
struct session *session_stream(const char *input,
			       const struct session_visitor *v, void *acc)
{
	return read_session(input, v, acc);
}

/* session_has_snapshots - whether the start and the end snapshot are there */
bool session_has_snapshots(const struct session *s)
{
	return snapshot_text(&s->snap[0], "time") && snapshot_text(&s->snap[1], "time");
}

/*
 * session_counters_note - why the module's counters of the start and end
 * snapshots do not subtract (a reload or a reset during the session), or
 * NULL when they do. Every figure from them is then left out (NAN), and
 * what the events hold stands alone.
 */
const char *session_counters_note(const struct session *s)
{
	const char *why;

	if (!session_has_snapshots(s) ||
	    derive_same_counters(&s->snap[0], &s->snap[1], &why))
		return NULL;
	return why;
}

/* session_seconds - from the snapshots, else from the events */
double session_seconds(const struct session *s)
{
	double sec = derive_seconds(&s->snap[0], &s->snap[1]);

	return sec > 0 ? sec : (s->last_ts - s->first_ts) / 1e9;
}

/* session_cmd_name - the name of TEE command @id, NULL if not kept */
const char *session_cmd_name(const struct session *s, unsigned int id)
{
	int i;

	for (i = 0; i < s->nr_cmds; i++)
		if (s->cmds[i].id == id)
			return s->cmds[i].name;
	return NULL;
}

/* session_comm - the name of thread @tid, NULL if not kept */
const char *session_comm(const struct session *s, int tid)
{
	int i;

	for (i = 0; i < s->nr_threads; i++)
		if (s->threads[i].tid == tid)
			return s->threads[i].comm;
	return NULL;
}
