// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_teeprobe_tee.c - KernelShark 2 plugin: teeprobe's TEE calls as
 * boxes, each from its start to its teeprobe_tee_ioctl_exit
 * (Documentation/teeprobe-record.rst).
 *
 * The calls are found in the data KernelShark loaded (the model's array of
 * every entry), not in event handlers run while it loads: KernelShark
 * reloads the data without re-initialising its plugins when an advanced
 * filter is applied, and a plugin that kept the entries its handlers saw
 * would then keep freed ones. They are found again whenever that array
 * changes, and copied: nothing here points into KernelShark's data.
 *
 * Every exit carries its call's duration_ns (teeprobe record's default
 * sessions hold exits only): the call began that long before it. Where
 * enters were recorded too (record --raw), per task (pid), in time order,
 * an enter and the next event of the task, an exit, make a call, and the
 * call starts on the enter's CPU. An enter that is the task's last event
 * had not ended when the trace did: drawn open at its end. An enter
 * followed by another enter lost its exit to the ring buffer: skipped. An
 * exit whose duration cannot be read, with no enter before it, is drawn
 * open at the trace's start when it is the task's first event, else
 * skipped.
 *
 * TEEPROBE_KS_DEBUG=1 prints what was found to stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_teeprobe_tee.h"

#define TEE_ENTER_NAME	"teeprobe/teeprobe_tee_ioctl_enter"
#define TEE_EXIT_NAME	"teeprobe/teeprobe_tee_ioctl_exit"

static void tee_free_context(struct plugin_tee_context *ctx)
{
	if (!ctx)
		return;
	free(ctx->calls);
	free(ctx);
}

/* __init(), __get_context(), __close(): one context per stream */
KS_DEFINE_PLUGIN_CONTEXT(struct plugin_tee_context, tee_free_context);

static bool tee_debug(void)
{
	const char *v = getenv("TEEPROBE_KS_DEBUG");

	return v && *v && strcmp(v, "0") != 0;
}

/* One enter or exit, copied out of KernelShark's entry */
struct tee_event {
	int64_t		ts;
	size_t		order;
	int32_t		pid;
	int16_t		cpu;
	bool		exit;
	/* an exit's duration_ns, -1 if it could not be read */
	int64_t		dur;
};

static int tee_event_cmp(const void *a, const void *b)
{
	const struct tee_event *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	/* equal times: the order KernelShark loaded them in */
	return x->order < y->order ? -1 : x->order > y->order;
}

static int tee_call_cmp(const void *a, const void *b)
{
	const struct tee_call *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

struct tee_counts {
	size_t paired, from_dur, open_start, open_end, skipped;
};

/* tee_exit_call - @e's call from its duration; false without one */
static bool tee_exit_call(const struct tee_event *e, struct tee_call *c)
{
	/* ts - dur must not wrap (ts - INT64_MIN does not, for ts < 0) */
	if (e->dur < 0 || (e->ts < 0 && e->dur > e->ts - INT64_MIN))
		return false;
	*c = (struct tee_call){ .start = e->ts - e->dur, .end = e->ts,
		.pid = e->pid, .cpu_enter = e->cpu, .cpu_exit = e->cpu };
	return true;
}

/* tee_pair - the calls of @n events sorted by task and time */
static size_t tee_pair(const struct tee_event *ev, size_t n,
		       struct tee_call *calls, struct tee_counts *cnt)
{
	const struct tee_event *pending = NULL;
	size_t i, nc = 0;
	bool first = true;

	for (i = 0; i < n; i++) {
		const struct tee_event *e = &ev[i];

		if (i > 0 && e->pid != ev[i - 1].pid) {
			if (pending) {
				calls[nc++] = (struct tee_call){
					.start = pending->ts, .end = INT64_MAX,
					.pid = pending->pid,
					.cpu_enter = pending->cpu,
					.cpu_exit = pending->cpu,
					.flags = TEE_CALL_OPEN_END };
				cnt->open_end++;
			}
			pending = NULL;
			first = true;
		}
		if (!e->exit) {
			if (pending)
				cnt->skipped++;	/* its exit was lost */
			pending = e;
		} else if (pending) {
			calls[nc++] = (struct tee_call){
				.start = pending->ts, .end = e->ts,
				.pid = e->pid, .cpu_enter = pending->cpu,
				.cpu_exit = e->cpu };
			cnt->paired++;
			pending = NULL;
		} else if (tee_exit_call(e, &calls[nc])) {
			nc++;
			cnt->from_dur++;
		} else if (first) {
			calls[nc++] = (struct tee_call){
				.start = INT64_MIN, .end = e->ts, .pid = e->pid,
				.cpu_enter = e->cpu, .cpu_exit = e->cpu,
				.flags = TEE_CALL_OPEN_START };
			cnt->open_start++;
		} else {
			cnt->skipped++;		/* nothing tells its start */
		}
		first = false;
	}
	if (pending) {
		calls[nc++] = (struct tee_call){
			.start = pending->ts, .end = INT64_MAX,
			.pid = pending->pid, .cpu_enter = pending->cpu,
			.cpu_exit = pending->cpu, .flags = TEE_CALL_OPEN_END };
		cnt->open_end++;
	}
	return nc;
}

/* tee_is_enter - @e is an enter (a session without them: none is) */
static bool tee_is_enter(const struct plugin_tee_context *ctx,
			 const struct kshark_entry *e)
{
	return ctx->enter_id >= 0 && e->event_id == ctx->enter_id;
}

/**
 * plugin_tee_update - find stream @sd's calls in @histo's data, unless they
 * were found in that same data already. On no memory there are no calls.
 */
__hidden void plugin_tee_update(struct plugin_tee_context *ctx, int sd,
				const struct kshark_trace_histo *histo)
{
	struct tee_counts cnt = { 0 };
	struct tee_event *ev = NULL;
	struct tee_call *calls = NULL;
	size_t i, n = 0, nc = 0;

	if (!histo)
		return;
	if (ctx->built && ctx->data == histo->data &&
	    ctx->data_size == histo->data_size)
		return;

	free(ctx->calls);
	ctx->calls = NULL;
	ctx->n_calls = 0;
	ctx->data = histo->data;
	ctx->data_size = histo->data_size;
	ctx->built = true;

	for (i = 0; histo->data && i < histo->data_size; i++) {
		const struct kshark_entry *e = histo->data[i];

		if (e && e->stream_id == sd &&
		    (tee_is_enter(ctx, e) || e->event_id == ctx->exit_id))
			n++;
	}
	if (n) {
		ev = calloc(n, sizeof(*ev));
		calls = calloc(n, sizeof(*calls));
	}
	if (n && (!ev || !calls)) {
		fprintf(stderr, "teeprobe_tee: stream %d: no memory for %zu TEE events\n",
			sd, n);
		free(ev);
		free(calls);
		return;
	}

	n = 0;
	for (i = 0; histo->data && i < histo->data_size; i++) {
		const struct kshark_entry *e = histo->data[i];

		if (!e || e->stream_id != sd ||
		    (!tee_is_enter(ctx, e) && e->event_id != ctx->exit_id))
			continue;
		ev[n] = (struct tee_event){ .ts = e->ts, .order = n,
			.pid = e->pid, .cpu = e->cpu,
			.exit = e->event_id == ctx->exit_id, .dur = -1 };
		if (ev[n].exit &&
		    kshark_read_event_field_int(e, "duration_ns", &ev[n].dur))
			ev[n].dur = -1;
		n++;
	}
	if (n) {
		qsort(ev, n, sizeof(*ev), tee_event_cmp);
		nc = tee_pair(ev, n, calls, &cnt);
		qsort(calls, nc, sizeof(*calls), tee_call_cmp);
	}
	free(ev);
	ctx->calls = calls;
	ctx->n_calls = nc;

	if (tee_debug()) {
		int64_t total = 0;

		for (i = 0; i < nc; i++)
			if (!calls[i].flags)
				total += calls[i].end - calls[i].start;
		fprintf(stderr,
			"teeprobe_tee: stream %d: %zu intervals: %zu paired, %zu from their exit's duration, %zu open at the start, %zu open at the end; %zu events skipped; %lld ns in closed calls\n",
			sd, nc, cnt.paired, cnt.from_dur, cnt.open_start,
			cnt.open_end, cnt.skipped, (long long)total);
	}
}

/** Load the plugin for @stream: a no-op without teeprobe's TEE exits. */
int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct plugin_tee_context *ctx;
	int enter_id, exit_id;

	if (!stream)
		return 0;
	enter_id = kshark_find_event_id(stream, TEE_ENTER_NAME);
	exit_id = kshark_find_event_id(stream, TEE_EXIT_NAME);
	if (exit_id < 0) {
		if (tee_debug())
			fprintf(stderr,
				"teeprobe_tee: stream %d: no teeprobe_tee_ioctl_exit events: nothing to draw\n",
				stream->stream_id);
		return 0;
	}

	/* __init() asserts the stream has no context yet: drop a stale one */
	if (__get_context(stream->stream_id)) {
		kshark_unregister_draw_handler(stream, plugin_tee_draw);
		__close(stream->stream_id);
	}
	ctx = __init(stream->stream_id);
	if (!ctx) {
		__close(stream->stream_id);
		return 0;
	}
	ctx->enter_id = enter_id;
	ctx->exit_id = exit_id;

	kshark_register_draw_handler(stream, plugin_tee_draw);
	return 1;
}

/** Unload the plugin for @stream. */
int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	int ret = 0;

	if (!stream)
		return 0;
	if (__get_context(stream->stream_id)) {
		kshark_unregister_draw_handler(stream, plugin_tee_draw);
		ret = 1;
	}
	__close(stream->stream_id);
	return ret;
}
