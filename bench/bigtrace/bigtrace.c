// SPDX-License-Identifier: GPL-2.0
/*
 * bigtrace - a large session made of a small recorded one, for the read
 * bench (bench/read) and tests/tools/bigtrace.sh: the events of SOURCE
 * replicated over N CPUs and repeated K times in time, written through
 * libtracecmd's own output functions, so that trace-cmd reads the file
 * and teeprobe takes it as one of its sessions.
 *
 *   bigtrace [--cpus N] [--repeat K | --size BYTES] [--compression NAME]
 *            SOURCE OUTPUT
 *
 * Each buffer of SOURCE (teeprobe record's instance, the top buffer) is
 * read into memory, its records per CPU. The output has N CPUs: CPU
 * c * S + s (S the source's CPUs, N a multiple of it) holds copy c of
 * source CPU s's records, once per repetition k, every timestamp moved by
 * k periods (the source's span, rounded up to whole windows), so that
 * each repetition follows the last on every CPU. Copies are made apart
 * where the events say who they are: the threads (common_pid, the
 * acceptor's tid) by c times a power of ten above the source's largest
 * id, a window's CPU by c * S, its start by the repetition's shift, a
 * handshake's ephemeral port (and its socket address's) by whole spans
 * of the source's ports within 32768-60999.
 *
 * The snapshots teeprobe record writes as markers (tools/lib/snapshot.c)
 * are kept once: the start snapshot where it was, the end snapshot after
 * the last repetition, its time moved by the repetitions' shift, its
 * nproc N, and every counter's rise over the session (module tables,
 * histograms, /proc's) multiplied by the copies times K, so the counters
 * and the events agree; maxima and percentiles stay the source's.
 *
 * The pages are packed per CPU as the kernel's ring buffer does (a page
 * header, 32-bit event headers, time extends), into temporary files
 * beside OUTPUT, which tracecmd_append_cpu_data() and
 * tracecmd_append_buffer_cpu_data() copy (and compress) into the file.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "snapshot.h"		/* SNAP_MARKER, SNAP_PIECE */
#include "tracecmd_output.h"

#define EPH_LO		32768	/* Linux's default ip_local_port_range */
#define EPH_HI		60999
#define PID_MAX		4194304	/* PID_MAX_LIMIT on 64-bit */
#define SMALL_DATA	112	/* RB_MAX_SMALL_DATA: longer, a length word */
#define TYPE_EXTEND	30	/* RINGBUF_TYPE_TIME_EXTEND */
#define DELTA_BITS	27
#define MISSED_EVENTS	(1ULL << 31)
#define MISSED_STORED	(1ULL << 30)
#define FILE_VERSION_SECTIONS	7

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("bigtrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		die("out of memory");
	return p;
}

/* What a record is to the copier */
enum rec_kind {
	R_PLAIN,	/* its common_pid moved, nothing else */
	R_ACCEPTOR,	/* teeprobe_acceptor_state: its tid too */
	R_WINDOW,	/* a window event: its cpu and start_ns */
	R_HANDSHAKE,	/* teeprobe_tcp_handshake: its ephemeral port */
	R_SNAP_START,	/* a marker of the start snapshot: copied once */
	R_SNAP_END,	/* of the end snapshot: written anew at the end */
};

struct src_rec {
	unsigned long long ts;
	size_t off;		/* in the buffer's blob */
	unsigned int size;
	int missed;		/* libtracecmd's missed_events */
	enum rec_kind kind;
};

struct src_cpu {
	struct src_rec *rec;
	size_t n, cap;
};

/* A field's place in a record; size 0: the format lacks it */
struct field {
	int offset, size;
};

struct src_buf {
	char *name;		/* NULL: the top buffer */
	int cpus;
	struct src_cpu *cpu;
	unsigned char *blob;
	size_t len, cap;
	unsigned long long nrec;
	struct field pid;	/* common_pid */
};

/* The fields the copies change, looked up by event id */
struct ev_fields {
	struct field tid;			/* acceptor_state */
	struct field cpu, start;		/* the window events */
	struct field side, sport, dport, saddr, daddr;	/* handshake */
};

#define MAX_IDS	(1 << 16)
static struct ev_fields *fields_by_id;

/* A snapshot as its markers hold it: sources of lines, in order */
struct snap_src {
	char *name;
	char **line;
	int n;
};

struct snap {
	struct snap_src src[SNAP_MAX_SOURCES];
	int n;
	char *pend;		/* a line in pieces */
	char pend_src[64];
};

static struct {
	int cpus, repeat, copies, src_cpus;
	unsigned long long size;
	const char *compression;
	unsigned long long first_ts, last_ts, period, window_ns;
	unsigned int pid_stride;
	int eph_lo, eph_hi;	/* the source's ephemeral ports */
	int page_size, long_size;
	struct snap snap[2];
	/* the end snapshot's first marker: where the new one is written */
	struct src_buf *end_buf;
	int end_cpu;
	size_t end_index;
	unsigned char end_head[64];	/* its common fields and ip */
	unsigned int end_text;		/* where its text starts */
	bool end_written;
	unsigned long long nrec_any;	/* records read */
	unsigned long long events;	/* records written */
	unsigned long long pages;	/* pages written */
} g = { .cpus = 64, .repeat = 1, .eph_lo = -1 };

/* ---- the source ---------------------------------------------------------- */

static struct field field_of(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = ev ? tep_find_any_field(ev, name) : NULL;
	struct field r = { 0, 0 };

	if (f) {
		r.offset = f->offset;
		r.size = f->size;
	}
	return r;
}

static unsigned long long get_field(const unsigned char *data,
				    unsigned int size, struct field f)
{
	unsigned long long v = 0;

	if (!f.size || f.size > 8 || f.offset + f.size > (int)size)
		return 0;
	memcpy(&v, data + f.offset, f.size);	/* little-endian files only */
	return v;
}

static void set_field(unsigned char *data, unsigned int size, struct field f,
		      unsigned long long v)
{
	if (!f.size || f.size > 8 || f.offset + f.size > (int)size)
		return;
	memcpy(data + f.offset, &v, f.size);
}

static struct tep_event *event_named(struct tep_handle *tep, const char *name)
{
	return tep_find_event_by_name(tep, "teeprobe", name);
}

/* snap_add - one marker's text into the snapshot of its phase */
static void snap_add(const char *text, enum rec_kind *kind)
{
	char phase[16], source[64];
	const char *line;
	struct snap *s;
	struct snap_src *src = NULL;
	size_t n, plen = strlen(SNAP_MARKER);
	bool more;
	char *whole;
	int i;

	if (strncmp(text, SNAP_MARKER " ", plen + 1) ||
	    sscanf(text + plen + 1, "%15s %63s", phase, source) != 2)
		return;
	more = phase[strlen(phase) - 1] == '+';
	if (more)
		phase[strlen(phase) - 1] = '\0';
	if (!strcmp(phase, "start"))
		s = &g.snap[0], *kind = R_SNAP_START;
	else if (!strcmp(phase, "end"))
		s = &g.snap[1], *kind = R_SNAP_END;
	else
		return;
	line = strstr(text + plen + 1 + strlen(phase) + (more ? 1 : 0) + 1,
		      source) + strlen(source);
	if (*line == ' ')
		line++;
	n = strcspn(line, "\n");
	if (s->pend && strcmp(s->pend_src, source)) {
		free(s->pend);
		s->pend = NULL;
	}
	whole = xrealloc(NULL, (s->pend ? strlen(s->pend) : 0) + n + 1);
	sprintf(whole, "%s%.*s", s->pend ? s->pend : "", (int)n, line);
	free(s->pend);
	s->pend = NULL;
	if (more) {
		s->pend = whole;
		snprintf(s->pend_src, sizeof(s->pend_src), "%s", source);
		return;
	}
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->src[i].name, source))
			src = &s->src[i];
	if (!src) {
		if (s->n == SNAP_MAX_SOURCES) {
			free(whole);
			return;
		}
		src = &s->src[s->n++];
		src->name = xstrdup(source);
	}
	src->line = xrealloc(src->line, (src->n + 1) * sizeof(*src->line));
	src->line[src->n++] = whole;
}

/* load_buffer - every record of @h, per CPU, into @b */
static void load_buffer(struct tracecmd_input *h, struct src_buf *b)
{
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *print = tep_find_event_by_name(tep, "ftrace", "print");
	struct tep_event *ev;
	struct tep_record *r;
	struct field buf = field_of(print, "buf");
	int id, cpu, acc, nw, tw, hs;

	ev = event_named(tep, "teeprobe_acceptor_state");
	acc = ev ? ev->id : -1;
	if (ev)
		fields_by_id[acc].tid = field_of(ev, "tid");
	ev = event_named(tep, "teeprobe_netrx_window");
	nw = ev ? ev->id : -1;
	if (ev) {
		fields_by_id[nw].cpu = field_of(ev, "cpu");
		fields_by_id[nw].start = field_of(ev, "start_ns");
	}
	ev = event_named(tep, "teeprobe_tcp_window");
	tw = ev ? ev->id : -1;
	if (ev) {
		fields_by_id[tw].cpu = field_of(ev, "cpu");
		fields_by_id[tw].start = field_of(ev, "start_ns");
	}
	ev = event_named(tep, "teeprobe_tcp_handshake");
	hs = ev ? ev->id : -1;
	if (ev) {
		struct ev_fields *f = &fields_by_id[hs];

		f->side = field_of(ev, "side");
		f->sport = field_of(ev, "sport");
		f->dport = field_of(ev, "dport");
		f->saddr = field_of(ev, "saddr_sa");
		f->daddr = field_of(ev, "daddr_sa");
	}
	ev = print ? print : event_named(tep, "teeprobe_tee_ioctl_exit");
	b->pid = field_of(ev, "common_pid");
	b->cpus = tracecmd_cpus(h);
	b->cpu = xrealloc(NULL, (b->cpus > 0 ? b->cpus : 1) * sizeof(*b->cpu));
	memset(b->cpu, 0, (b->cpus > 0 ? b->cpus : 1) * sizeof(*b->cpu));
	for (cpu = 0; cpu < b->cpus; cpu++) {
		struct src_cpu *c = &b->cpu[cpu];

		for (r = tracecmd_read_cpu_first(h, cpu); r;
		     r = tracecmd_read_data(h, cpu)) {
			struct src_rec *s;

			if (c->n == c->cap) {
				c->cap = c->cap ? 2 * c->cap : 4096;
				c->rec = xrealloc(c->rec, c->cap * sizeof(*c->rec));
			}
			if (b->len + r->size > b->cap) {
				b->cap = 2 * (b->len + r->size) + 65536;
				b->blob = xrealloc(b->blob, b->cap);
			}
			s = &c->rec[c->n++];
			s->ts = r->ts;
			s->off = b->len;
			s->size = r->size;
			s->missed = r->missed_events;
			s->kind = R_PLAIN;
			memcpy(b->blob + b->len, r->data, r->size);
			b->len += r->size;
			b->nrec++;
			if (!g.nrec_any || r->ts < g.first_ts)
				g.first_ts = r->ts;
			if (r->ts > g.last_ts)
				g.last_ts = r->ts;
			g.nrec_any++;
			id = tep_data_type(tep, r);
			if (id == acc) {
				s->kind = R_ACCEPTOR;
			} else if (id == nw || id == tw) {
				s->kind = R_WINDOW;
				if (!g.window_ns)
					g.window_ns = get_field(r->data, r->size,
								field_of(tep_find_event(tep, id),
									 "len_ns"));
			} else if (id == hs) {
				s->kind = R_HANDSHAKE;
			} else if (print && id == print->id && buf.size >= 0 &&
				   buf.offset < r->size) {
				char *text = strndup((const char *)r->data + buf.offset,
						     r->size - buf.offset);

				if (!text)
					die("out of memory");
				snap_add(text, &s->kind);
				free(text);
				if (s->kind == R_SNAP_END && !g.end_buf) {
					g.end_buf = b;
					g.end_cpu = cpu;
					g.end_index = c->n - 1;
					g.end_text = buf.offset;
					if ((size_t)buf.offset > sizeof(g.end_head))
						die("a print event's text at %d", buf.offset);
					memcpy(g.end_head, r->data, buf.offset);
				}
			}
			tracecmd_free_record(r);
		}
	}
}

/* scan_ids - the largest thread id and the ephemeral ports' span */
static void scan_ids(struct src_buf *b)
{
	unsigned long long maxpid = 0, v;
	int cpu, port;
	size_t i;

	for (cpu = 0; cpu < b->cpus; cpu++) {
		for (i = 0; i < b->cpu[cpu].n; i++) {
			const struct src_rec *r = &b->cpu[cpu].rec[i];
			const unsigned char *d = b->blob + r->off;
			const struct ev_fields *f;

			v = get_field(d, r->size, b->pid);
			if (v > maxpid && v < PID_MAX)
				maxpid = v;
			if (r->kind != R_ACCEPTOR && r->kind != R_HANDSHAKE)
				continue;
			f = &fields_by_id[get_field(d, r->size, (struct field){ 0, 2 })];
			if (r->kind == R_ACCEPTOR) {
				v = get_field(d, r->size, f->tid);
				if (v > maxpid && v < PID_MAX)
					maxpid = v;
				continue;
			}
			port = get_field(d, r->size,
					 get_field(d, r->size, f->side) ? f->sport : f->dport);
			if (port < EPH_LO || port > EPH_HI)
				continue;
			if (g.eph_lo < 0 || port < g.eph_lo)
				g.eph_lo = port;
			if (port > g.eph_hi)
				g.eph_hi = port;
		}
	}
	while (g.pid_stride <= maxpid)
		g.pid_stride *= 10;
}

/* ---- the end snapshot, its counters multiplied --------------------------- */

/* snap_seconds - the time between the snapshots, 0 if unknown */
static double snap_seconds(void)
{
	double t[2] = { 0, 0 };
	int p, i;

	for (p = 0; p < 2; p++)
		for (i = 0; i < g.snap[p].n; i++)
			if (!strcmp(g.snap[p].src[i].name, "time") && g.snap[p].src[i].n)
				t[p] = strtod(g.snap[p].src[i].line[0], NULL);
	return t[0] > 0 && t[1] > t[0] ? t[1] - t[0] : 0;
}

static bool is_int(const char *t, size_t n)
{
	size_t i = *t == '-';

	if (i == n)
		return false;
	for (; i < n; i++)
		if (t[i] < '0' || t[i] > '9')
			return false;
	return true;
}

struct tokens {
	const char *p[256];
	size_t n[256];
	int nr;
};

static void tokenize(const char *line, struct tokens *t)
{
	const char *p = line;

	t->nr = 0;
	while (*p && t->nr < 256) {
		p += strspn(p, " \t");
		if (!*p)
			break;
		t->p[t->nr] = p;
		t->n[t->nr] = strcspn(p, " \t");
		p += t->n[t->nr++];
	}
}

/* header - a table's header line: the "# ..." line with the most words */
static int header(const struct snap_src *src, struct tokens *h)
{
	struct tokens t;
	int i, best = -1;

	h->nr = 0;
	for (i = 0; i < src->n; i++) {
		if (src->line[i][0] != '#')
			continue;
		tokenize(src->line[i] + 1, &t);
		if (t.nr > h->nr) {
			*h = t;
			best = i;
		}
	}
	return best;
}

/* What a column holds, by the name the header gives it */
enum col { C_COUNT, C_KEY, C_KEEP };

static enum col column(const struct tokens *h, int i, int nr)
{
	static const char *const keys[] = {
		"cpu", "port", "tgid", "tid", "pid", "bucket_low_ns"
	};
	char name[64];
	unsigned int k;

	if (h->nr != nr)
		return i ? C_COUNT : C_KEY;	/* no header: the first names it */
	snprintf(name, sizeof(name), "%.*s", (int)h->n[i], h->p[i]);
	for (k = 0; k < sizeof(keys) / sizeof(*keys); k++)
		if (!strcmp(name, keys[k]))
			return C_KEY;
	if (strstr(name, "max") || !strncmp(name, "p50", 3) ||
	    !strncmp(name, "p99", 3) || strstr(name, "_p50") ||
	    strstr(name, "_p99") || !strcmp(name, "error"))
		return C_KEEP;
	return C_COUNT;
}

/* row_key - the words that name a row: its text and its key columns */
static void row_key(const struct tokens *t, const struct tokens *h,
		    char *key, size_t len)
{
	size_t at = 0;
	int i;

	key[0] = '\0';
	for (i = 0; i < t->nr && at < len; i++)
		if (!is_int(t->p[i], t->n[i]) || column(h, i, t->nr) == C_KEY)
			at += snprintf(key + at, len - at, "%.*s ", (int)t->n[i],
				       t->p[i]);
}

/* scale_line - @line of the end snapshot with its counters' rise times @f */
static char *scale_line(const char *line, const struct snap_src *start,
			const struct tokens *h, const struct tokens *sh,
			unsigned long long f)
{
	struct tokens t, s;
	char key[1024], skey[1024], *out;
	const char *from = NULL, *p = line;
	size_t at = 0, cap = strlen(line) * 2 + 64;
	int i;

	if (line[0] == '#')
		return xstrdup(line);
	tokenize(line, &t);
	row_key(&t, h, key, sizeof(key));
	for (i = 0; start && i < start->n && !from; i++) {
		if (start->line[i][0] == '#')
			continue;
		tokenize(start->line[i], &s);
		row_key(&s, sh, skey, sizeof(skey));
		if (s.nr == t.nr && !strcmp(key, skey))
			from = start->line[i];
	}
	if (from)
		tokenize(from, &s);
	out = xrealloc(NULL, cap);
	for (i = 0; i < t.nr; i++) {
		long long e, b = 0;

		/* the spaces before the word, as they were */
		at += snprintf(out + at, cap - at, "%.*s",
			       (int)(t.p[i] - p), p);
		p = t.p[i] + t.n[i];
		if (!is_int(t.p[i], t.n[i]) || column(h, i, t.nr) != C_COUNT) {
			at += snprintf(out + at, cap - at, "%.*s", (int)t.n[i], t.p[i]);
			continue;
		}
		e = strtoll(t.p[i], NULL, 10);
		if (from)
			b = strtoll(s.p[i], NULL, 10);
		if (e > b)
			e = b + (e - b) * (long long)f;
		at += snprintf(out + at, cap - at, "%lld", e);
	}
	snprintf(out + at, cap - at, "%s", p);
	return out;
}

/* scale_end - the end snapshot as the big session's */
static void scale_end(void)
{
	unsigned long long f = (unsigned long long)g.copies * g.repeat;
	struct snap *end = &g.snap[1], *start = &g.snap[0];
	struct tokens h, sh;
	char **lines;
	int i, j, k;

	for (i = 0; i < end->n; i++) {
		struct snap_src *src = &end->src[i], *from = NULL;

		for (k = 0; k < start->n; k++)
			if (!strcmp(start->src[k].name, src->name))
				from = &start->src[k];
		if (!strcmp(src->name, "time") && src->n == 1) {
			double t = strtod(src->line[0], NULL) +
				(g.repeat - 1) * (g.period / 1e9);

			free(src->line[0]);
			src->line[0] = xrealloc(NULL, 32);
			snprintf(src->line[0], 32, "%.9f", t);
			continue;
		}
		if (!strcmp(src->name, "nproc") && src->n == 1) {
			free(src->line[0]);
			src->line[0] = xrealloc(NULL, 16);
			snprintf(src->line[0], 16, "%d", g.cpus);
			continue;
		}
		if (!strcmp(src->name, "uname") || !strcmp(src->name, "version") ||
		    !strcmp(src->name, "generation") || !strcmp(src->name, "memory"))
			continue;
		header(src, &h);
		sh.nr = 0;
		if (from)
			header(from, &sh);
		/* the header's words point into the lines: replaced after */
		lines = xrealloc(NULL, src->n * sizeof(*lines));
		for (j = 0; j < src->n; j++)
			lines[j] = scale_line(src->line[j], from, &h, &sh, f);
		for (j = 0; j < src->n; j++)
			free(src->line[j]);
		free(src->line);
		src->line = lines;
	}
}

/* ---- the pages ----------------------------------------------------------- */

/* A CPU's pages as the ring buffer packs them, written to a file */
struct pages {
	int fd;
	unsigned char *page;
	size_t used;		/* from the page's start, header included */
	unsigned long long last_ts;
	long long missed;	/* the page's first record's */
	bool open;
	unsigned long long nr;	/* pages written */
};

static void page_flush(struct pages *p)
{
	unsigned long long commit;
	size_t hdr = 8 + g.long_size;

	if (!p->open)
		return;
	commit = p->used - hdr;
	if (p->missed) {
		commit |= MISSED_EVENTS;
		if (p->missed > 0) {
			memcpy(p->page + p->used, &p->missed, 8);
			commit |= MISSED_STORED;
		}
	}
	memcpy(p->page + 8, &commit, g.long_size);
	if (p->fd >= 0 && write(p->fd, p->page, g.page_size) != g.page_size)
		die("writing pages: %s", strerror(errno));
	p->nr++;
	p->open = false;
}

static void put32(struct pages *p, unsigned int v)
{
	memcpy(p->page + p->used, &v, 4);
	p->used += 4;
}

/* page_add - one record at @ts, after those before it on the CPU */
static void page_add(struct pages *p, unsigned long long ts,
		     const unsigned char *data, unsigned int size, int missed)
{
	unsigned int len = (size + 3) & ~3U;
	size_t need = 4 + (len > SMALL_DATA ? 4 : 0) + len;
	unsigned long long delta = p->open && ts > p->last_ts ? ts - p->last_ts : 0;

	if (delta >> DELTA_BITS)
		need += 8;
	if (4 + 8 + need + 8 + 8 > (size_t)g.page_size)
		die("a record of %u bytes does not fit a page", size);
	if (!p->open || missed || p->used + need + (p->missed ? 8 : 0) >
	    (size_t)g.page_size) {
		page_flush(p);
		memset(p->page, 0, g.page_size);
		memcpy(p->page, &ts, 8);
		p->used = 8 + g.long_size;
		p->missed = missed;
		p->last_ts = ts;
		p->open = true;
		delta = 0;
	}
	if (delta >> DELTA_BITS) {
		put32(p, (unsigned int)((delta & ((1ULL << DELTA_BITS) - 1)) << 5) |
		      TYPE_EXTEND);
		put32(p, (unsigned int)(delta >> DELTA_BITS));
		delta = 0;
	}
	if (ts > p->last_ts)
		p->last_ts = ts;
	if (len > SMALL_DATA || !len) {
		put32(p, (unsigned int)(delta << 5));
		put32(p, len + 4);
	} else {
		put32(p, (unsigned int)(delta << 5) | (len / 4));
	}
	memcpy(p->page + p->used, data, size);
	memset(p->page + p->used + size, 0, len - size);
	p->used += len;
	g.events++;
}

/* ---- the copies ---------------------------------------------------------- */

static unsigned int eph_port(unsigned int port, unsigned long long idx)
{
	unsigned long long span = g.eph_hi - g.eph_lo + 1;
	unsigned long long range = EPH_HI - EPH_LO + 1;

	if (port < EPH_LO || port > EPH_HI || g.eph_lo < 0)
		return port;
	return EPH_LO + (port - EPH_LO + idx * span) % range;
}

/* sa_port - a sockaddr's port (big-endian, after its family) */
static void sa_port(unsigned char *d, unsigned int size, struct field sa,
		    unsigned int from, unsigned int to)
{
	unsigned int family;

	if (sa.size < 4 || sa.offset + 4 > (int)size)
		return;
	family = d[sa.offset] | d[sa.offset + 1] << 8;
	if ((family != 2 && family != 10) ||
	    (unsigned int)(d[sa.offset + 2] << 8 | d[sa.offset + 3]) != from)
		return;
	d[sa.offset + 2] = to >> 8;
	d[sa.offset + 3] = to & 0xff;
}

/* copy_record - @r as copy @c in repetition @k, into @d */
static void copy_record(const struct src_buf *b, const struct src_rec *r,
			unsigned char *d, int c, int k)
{
	const struct ev_fields *f;
	unsigned long long v, shift = (unsigned long long)k * g.period;
	unsigned long long idx = (unsigned long long)k * g.copies + c;
	unsigned int port, to;
	bool client;

	memcpy(d, b->blob + r->off, r->size);
	v = get_field(d, r->size, b->pid);
	if (c && v && g.pid_stride)
		set_field(d, r->size, b->pid, v + (unsigned long long)c * g.pid_stride);
	if (r->kind == R_PLAIN)
		return;
	f = &fields_by_id[get_field(d, r->size, (struct field){ 0, 2 })];
	switch (r->kind) {
	case R_ACCEPTOR:
		v = get_field(d, r->size, f->tid);
		if (c && v && g.pid_stride)
			set_field(d, r->size, f->tid,
				  v + (unsigned long long)c * g.pid_stride);
		break;
	case R_WINDOW:
		v = get_field(d, r->size, f->cpu);
		if (v < (unsigned long long)g.src_cpus)
			set_field(d, r->size, f->cpu, v + (unsigned long long)c * g.src_cpus);
		v = get_field(d, r->size, f->start);
		if (v)
			set_field(d, r->size, f->start, v + shift);
		break;
	case R_HANDSHAKE:
		if (!idx)
			break;
		client = get_field(d, r->size, f->side);
		port = get_field(d, r->size, client ? f->sport : f->dport);
		to = eph_port(port, idx);
		if (to == port)
			break;
		set_field(d, r->size, client ? f->sport : f->dport, to);
		sa_port(d, r->size, f->saddr, port, to);
		sa_port(d, r->size, f->daddr, port, to);
		break;
	default:
		break;
	}
}

/* write_end - the end snapshot's markers, at @ts on this CPU's pages */
static void write_end(struct pages *p, unsigned long long ts)
{
	const struct snap *s = &g.snap[1];
	size_t cap = g.end_text + SNAP_PIECE + 128;
	unsigned char *d = xrealloc(NULL, cap);
	int i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->src[i].n; j++) {
			const char *line = s->src[i].line[j];
			size_t len = strlen(line), n;

			do {
				int w;

				n = len > SNAP_PIECE ? SNAP_PIECE : len;
				memset(d, 0, cap);
				memcpy(d, g.end_head, g.end_text);
				w = snprintf((char *)d + g.end_text, cap - g.end_text,
					     SNAP_MARKER " end%s %s %.*s\n",
					     n < len ? "+" : "", s->src[i].name,
					     (int)n, line);
				page_add(p, ts, d, g.end_text + w + 1, 0);
				line += n;
				len -= n;
			} while (len);
		}
	}
	free(d);
}

/* write_cpu - target CPU @cpu of buffer @b into @p: its copies and repetitions */
static void write_cpu(const struct src_buf *b, int cpu, struct pages *p)
{
	int c = cpu / g.src_cpus, s = cpu % g.src_cpus, k;
	const struct src_cpu *sc = &b->cpu[s];
	unsigned char *d = NULL;
	unsigned int cap = 0;
	size_t i;

	for (k = 0; k < g.repeat; k++) {
		unsigned long long shift = (unsigned long long)k * g.period;

		for (i = 0; i < sc->n; i++) {
			const struct src_rec *r = &sc->rec[i];

			if (r->kind == R_SNAP_START && (c || k))
				continue;
			if (r->kind == R_SNAP_END) {
				if (!c && k == g.repeat - 1 && b == g.end_buf &&
				    s == g.end_cpu && i == g.end_index && !g.end_written) {
					write_end(p, r->ts + shift);
					g.end_written = true;
				}
				continue;
			}
			if (r->size > cap) {
				cap = r->size;
				d = xrealloc(d, cap);
			}
			copy_record(b, r, d, c, k);
			page_add(p, r->ts + shift, d, r->size, r->missed);
		}
	}
	page_flush(p);
	free(d);
}

/* write_buffer - buffer @b's N CPUs as temporary files; returns their names */
static char **write_buffer(const struct src_buf *b, const char *output)
{
	char **files = xrealloc(NULL, g.cpus * sizeof(*files));
	struct pages p = { .page = xrealloc(NULL, g.page_size) };
	int cpu;

	for (cpu = 0; cpu < g.cpus; cpu++) {
		if (asprintf(&files[cpu], "%s.bigtrace.%s.cpu%d", output,
			     b->name ? b->name : "top", cpu) < 0)
			die("out of memory");
		p.fd = open(files[cpu], O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (p.fd < 0)
			die("cannot create %s: %s", files[cpu], strerror(errno));
		if (b->nrec)
			write_cpu(b, cpu, &p);
		if (close(p.fd))
			die("writing %s: %s", files[cpu], strerror(errno));
	}
	g.pages += p.nr;
	free(p.page);
	return files;
}

static void remove_files(char **files)
{
	int cpu;

	for (cpu = 0; cpu < g.cpus; cpu++) {
		unlink(files[cpu]);
		free(files[cpu]);
	}
	free(files);
}

/* rep_bytes - the pages of one copy of one repetition, all buffers */
static unsigned long long rep_bytes(struct src_buf *bufs, int nbufs)
{
	struct pages p = { .fd = -1, .page = xrealloc(NULL, g.page_size) };
	unsigned long long events = g.events;
	int i, cpu;
	size_t r;

	for (i = 0; i < nbufs; i++) {
		for (cpu = 0; cpu < bufs[i].cpus && bufs[i].nrec; cpu++) {
			const struct src_cpu *sc = &bufs[i].cpu[cpu];

			for (r = 0; r < sc->n; r++)
				page_add(&p, sc->rec[r].ts,
					 bufs[i].blob + sc->rec[r].off,
					 sc->rec[r].size, sc->rec[r].missed);
			page_flush(&p);
		}
	}
	free(p.page);
	g.events = events;
	return p.nr * g.page_size;
}

/* ---- the file ------------------------------------------------------------ */

static void help(FILE *f)
{
	fprintf(f,
		"usage: %s [--cpus N] [--repeat K | --size BYTES] [--compression NAME] SOURCE OUTPUT\n\n"
		"  --cpus N          CPUs of the output, a multiple of SOURCE's (default 64)\n"
		"  --repeat K        SOURCE's span K times, one after the other (default 1)\n"
		"  --size BYTES      as many repetitions as give about BYTES of trace\n"
		"                    data before compression (suffixes K, M, G)\n"
		"  --compression NAME  none, zstd, zlib (default: SOURCE's)\n\n"
		"Writes OUTPUT: SOURCE's events on N CPUs, K times.\n", "bigtrace");
}

static unsigned long long parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	switch (*end) {
	case 'G':
		v <<= 10;
		fallthrough;
	case 'M':
		v <<= 10;
		fallthrough;
	case 'K':
		v <<= 10;
		end++;
		break;
	default:
		break;
	}
	if (*end || !v)
		die("--size: a positive number of bytes (K, M, G)");
	return v;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 's' },
		{ "compression", required_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct tracecmd_input *in, *inst;
	struct tracecmd_output *out;
	struct src_buf *bufs;
	const char *src, *output, *str;
	char **files, clock[64];
	unsigned long long per_rep;
	struct stat st;
	int opt, i, n, nbufs;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			g.cpus = atoi(optarg);
			break;
		case 'r':
			g.repeat = atoi(optarg);
			break;
		case 's':
			g.size = parse_size(optarg);
			break;
		case 'z':
			g.compression = optarg;
			break;
		case 'h':
			help(stdout);
			return 0;
		default:
			help(stderr);
			return 2;
		}
	}
	if (argc - optind != 2 || g.cpus < 1 || g.repeat < 1) {
		help(stderr);
		return 2;
	}
	src = argv[optind];
	output = argv[optind + 1];
	tracecmd_set_loglevel(TEP_LOG_NONE);
	in = tracecmd_open(src, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!in)
		die("%s: not a trace.dat libtracecmd reads", src);
	if (tracecmd_get_in_file_version(in) < FILE_VERSION_SECTIONS)
		die("%s: file version %lu; this writer needs 7 (trace-cmd convert)",
		    src, tracecmd_get_in_file_version(in));
	if (tep_is_file_bigendian(tracecmd_get_tep(in)) ||
	    tep_is_local_bigendian(tracecmd_get_tep(in)))
		die("%s: big-endian (a file or a host): not written here", src);
	g.page_size = tracecmd_page_size(in);
	g.long_size = tracecmd_long_size(in);
	if (g.long_size != 8 && g.long_size != 4)
		die("%s: longs of %d bytes", src, g.long_size);
	fields_by_id = xrealloc(NULL, MAX_IDS * sizeof(*fields_by_id));
	memset(fields_by_id, 0, MAX_IDS * sizeof(*fields_by_id));

	/* every buffer's records: the top one, then the instances */
	n = tracecmd_buffer_instances(in);
	nbufs = n + 1;
	bufs = xrealloc(NULL, nbufs * sizeof(*bufs));
	memset(bufs, 0, nbufs * sizeof(*bufs));
	load_buffer(in, &bufs[0]);
	for (i = 0; i < n; i++) {
		bufs[i + 1].name = xstrdup(tracecmd_buffer_instance_name(in, i));
		inst = tracecmd_buffer_instance_handle(in, i);
		if (!inst)
			die("%s: its buffer %s cannot be read", src, bufs[i + 1].name);
		load_buffer(inst, &bufs[i + 1]);
		tracecmd_close(inst);
	}
	if (!g.nrec_any)
		die("%s: no events", src);
	for (i = 0; i < nbufs; i++) {
		if (!bufs[i].nrec)
			continue;
		if (g.src_cpus && bufs[i].cpus != g.src_cpus)
			die("%s: buffers of %d and %d CPUs", src, g.src_cpus, bufs[i].cpus);
		g.src_cpus = bufs[i].cpus;
	}
	if (g.cpus % g.src_cpus)
		die("--cpus %d: not a multiple of %s's %d CPUs", g.cpus, src, g.src_cpus);
	g.copies = g.cpus / g.src_cpus;

	/*
	 * a repetition's shift: the events' span or the snapshots' (taken
	 * before their markers are written), and a window, in whole windows
	 */
	g.period = g.last_ts - g.first_ts;
	if (snap_seconds() * 1e9 > g.period)
		g.period = snap_seconds() * 1e9;
	g.period += g.window_ns ? g.window_ns : 1000;
	if (g.window_ns)
		g.period = (g.period + g.window_ns - 1) / g.window_ns * g.window_ns;
	g.pid_stride = 1000;
	for (i = 0; i < nbufs; i++)
		scan_ids(&bufs[i]);
	if ((unsigned long long)(g.copies - 1) * g.pid_stride * 2 >= PID_MAX) {
		fprintf(stderr, "bigtrace: %d copies of threads up to %u do not fit in pids: the copies keep the source's\n",
			g.copies, g.pid_stride);
		g.pid_stride = 0;
	}
	per_rep = rep_bytes(bufs, nbufs);
	if (g.size)
		g.repeat = (g.size + per_rep * g.copies / 2) / (per_rep * g.copies) ?: 1;
	scale_end();

	/* the headers as the source has them, then the data */
	unlink(output);
	out = tracecmd_copy(in, output, TRACECMD_FILE_CMD_LINES, 0, g.compression);
	if (!out)
		die("cannot write %s (compression %s)", output,
		    g.compression ? g.compression : "SOURCE's");
	tracecmd_set_quiet(out, true);
	str = tracecmd_get_trace_clock(in);
	if (str) {
		tracecmd_set_out_clock(out, str);
		snprintf(clock, sizeof(clock), "[%s]", str);
		tracecmd_add_option(out, TRACECMD_OPTION_TRACECLOCK,
				    strlen(clock) + 1, clock);
	}
	str = tracecmd_get_uname(in);
	if (str)
		tracecmd_add_option(out, TRACECMD_OPTION_UNAME, strlen(str) + 1, str);
	str = tracecmd_get_version(in);
	if (str)
		tracecmd_add_option(out, TRACECMD_OPTION_VERSION, strlen(str) + 1, str);
	files = write_buffer(&bufs[0], output);
	if (tracecmd_append_cpu_data(out, g.cpus, files) < 0)
		die("%s: writing the top buffer failed", output);
	remove_files(files);
	for (i = 1; i < nbufs; i++) {
		files = write_buffer(&bufs[i], output);
		if (tracecmd_append_buffer_cpu_data(out, bufs[i].name, g.cpus, files) < 0)
			die("%s: writing buffer %s failed", output, bufs[i].name);
		remove_files(files);
	}
	tracecmd_output_close(out);
	tracecmd_close(in);
	if (stat(output, &st))
		die("%s: %s", output, strerror(errno));
	printf("bigtrace: %s: %d CPUs (%d copies of %d) x %d repetitions of %s (every %.3f s): %llu events, %llu bytes of pages, %lld bytes\n",
	       output, g.cpus, g.copies, g.src_cpus, g.repeat, src, g.period / 1e9,
	       g.events, g.pages * g.page_size, (long long)st.st_size);
	return 0;
}
