// SPDX-License-Identifier: GPL-2.0
/*
 * watch_ring.c - the tracefs instances of "teeprobe watch" (see watch.c):
 * the ring, in overwrite mode, with every teeprobe event record takes by
 * default; the window events' instance; the markers'. Each CPU's ring read
 * for what it holds and lost, and grown to hold --ring seconds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "module.h"
#include "utils.h"
#include "watch.h"

/* ---- the instances -------------------------------------------------------- */

/* instance_new - a tracefs instance @name on the mono clock, @kb per CPU */
static struct tracefs_instance *instance_new(const char *name, size_t kb)
{
	struct tracefs_instance *inst;

	if (tracefs_instance_exists(name)) {
		err_msg("watch: a tracefs instance %s already exists\n", name);
		return NULL;
	}
	inst = tracefs_instance_create(name);
	if (!inst) {
		err_msg("watch: cannot create the tracefs instance %s: %s\n", name,
			strerror(errno));
		return NULL;
	}
	if (tracefs_instance_file_write(inst, "trace_clock", "mono") < 0 ||
	    tracefs_instance_set_buffer_size(inst, kb, -1) < 0) {
		err_msg("watch: cannot set up the tracefs instance %s (clock, %zu KiB a CPU): %s\n",
			name, kb, strerror(errno));
		tracefs_instance_destroy(inst);
		tracefs_instance_free(inst);
		return NULL;
	}
	return inst;
}

/* instance_gone - @inst removed and released */
static void instance_gone(struct tracefs_instance **inst)
{
	if (!*inst)
		return;
	tracefs_trace_off(*inst);
	if (tracefs_instance_destroy(*inst))
		err_msg("watch: cannot remove the tracefs instance %s: %s\n",
			tracefs_instance_get_name(*inst), strerror(errno));
	tracefs_instance_free(*inst);
	*inst = NULL;
}

/* ring_stats - CPU @cpu's ring statistics: one field, or 0 */
static double cpu_stat(const char *text, const char *field)
{
	const char *p = text ? strstr(text, field) : NULL;
	double v = 0;

	if (p)
		sscanf(p + strlen(field), " %lf", &v);
	return v;
}

/*
 * ring_read - each CPU's ring now: whether it overwrote events since the
 * restart and its oldest event (into @cpus), and the bytes it holds, the
 * events it overwrote and dropped since the restart (summed)
 */
void ring_read(const struct rings *r, struct watch_cpu_ring *cpus,
		      double *bytes, double *overwritten, double *dropped,
		      double *span_s)
{
	char file[64], *text;
	double over, drop, oldest, now;
	int cpu;

	*bytes = *overwritten = *dropped = 0;
	*span_s = INFINITY;
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(r->ring, file, NULL);
		over = cpu_stat(text, "overrun:") - r->overrun0[cpu];
		drop = cpu_stat(text, "dropped events:") - r->dropped0[cpu];
		oldest = cpu_stat(text, "oldest event ts:");
		now = cpu_stat(text, "now ts:");
		cpus[cpu].overwrote = over > 0;
		cpus[cpu].oldest_ns = oldest * 1e9;
		*bytes += cpu_stat(text, "bytes:");
		*overwritten += over > 0 ? over : 0;
		*dropped += drop > 0 ? drop : 0;
		if (over > 0 && now - oldest < *span_s)
			*span_s = now - oldest;
		free(text);
	}
}

/* ring_wrapped - whether a CPU's ring overwrote events since the restart */
bool ring_wrapped(const struct rings *r)
{
	char file[64], *text;
	bool wrapped = false;
	int cpu;

	for (cpu = 0; cpu < r->ncpus && !wrapped; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(r->ring, file, NULL);
		wrapped = cpu_stat(text, "overrun:") > r->overrun0[cpu];
		free(text);
	}
	return wrapped;
}

/* ring_baseline - the counters the next capture's losses start from */
void ring_baseline(struct rings *r)
{
	char file[64], *text;
	int cpu;

	for (cpu = 0; cpu < r->ncpus; cpu++) {
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		text = tracefs_instance_file_read(r->ring, file, NULL);
		r->overrun0[cpu] = cpu_stat(text, "overrun:");
		r->dropped0[cpu] = cpu_stat(text, "dropped events:");
		free(text);
	}
	r->restart_ns = now_ns();
}

/*
 * rings_up - the ring (every teeprobe event record takes by default), the
 * window events' instance and the markers' one, recording
 */
int rings_up(struct rings *r, const struct watch_opts *o)
{
	static const char *const systems[] = { TEEPROBE_SYSTEM, NULL };
	char **events;
	struct tep_event *ev;
	int i, pid = getpid();

	r->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (r->ncpus < 1)
		r->ncpus = 1;
	r->overrun0 = xzalloc(r->ncpus * sizeof(*r->overrun0));
	r->dropped0 = xzalloc(r->ncpus * sizeof(*r->dropped0));
	/* the sweep finds them by these names (lock.c) */
	snprintf(r->ring_name, sizeof(r->ring_name), "teeprobe-watch-%d", pid);
	snprintf(r->win_name, sizeof(r->win_name), "teeprobe-watch-%d-win", pid);
	snprintf(r->mark_name, sizeof(r->mark_name), "teeprobe-watch-%d-mark", pid);
	r->ring_kb = 1024;
	if (r->ring_kb * r->ncpus > o->ring_max_kb)
		r->ring_kb = o->ring_max_kb / r->ncpus > 4 ? o->ring_max_kb / r->ncpus : 4;
	r->ring = instance_new(r->ring_name, r->ring_kb);
	r->win = r->ring ? instance_new(r->win_name, WIN_KB) : NULL;
	r->mark = r->win ? instance_new(r->mark_name, MARK_KB) : NULL;
	if (!r->mark)
		return -1;
	/* nothing in them until everything is enabled */
	tracefs_trace_off(r->ring);
	tracefs_trace_off(r->win);
	r->tep = tracefs_local_events_system(NULL, systems);
	events = tracefs_system_events(NULL, TEEPROBE_SYSTEM);
	if (!r->tep || !events) {
		err_msg("watch: cannot read the teeprobe events' formats\n");
		tracefs_list_free(events);
		return -1;
	}
	for (i = 0; events[i]; i++) {
		if (record_raw_event(events[i]))
			continue;
		/*
		 * The accepting threads' states come from a hook on every
		 * context switch, which the event turns on: most of what the
		 * ring would cost per handshake, left to --states
		 */
		if (!o->states && !strcmp(events[i], "teeprobe_acceptor_state"))
			continue;
		if (tracefs_event_enable(r->ring, TEEPROBE_SYSTEM, events[i])) {
			err_msg("watch: cannot enable %s in the ring\n", events[i]);
			tracefs_list_free(events);
			return -1;
		}
	}
	tracefs_list_free(events);
	if (tracefs_event_enable(r->win, TEEPROBE_SYSTEM, "teeprobe_tcp_window") ||
	    tracefs_event_enable(r->win, TEEPROBE_SYSTEM, "teeprobe_netrx_window")) {
		err_msg("watch: cannot enable the window events\n");
		return -1;
	}
	ev = tep_find_event_by_name(r->tep, TEEPROBE_SYSTEM, "teeprobe_tcp_window");
	r->tcp_id = ev ? ev->id : -1;
	ev = tep_find_event_by_name(r->tep, TEEPROBE_SYSTEM, "teeprobe_netrx_window");
	r->netrx_id = ev ? ev->id : -1;
	ring_baseline(r);
	if (tracefs_trace_on(r->ring) || tracefs_trace_on(r->win)) {
		err_msg("watch: cannot turn the instances on\n");
		return -1;
	}
	return 0;
}

/* rings_down - every instance removed */
void rings_down(struct rings *r)
{
	instance_gone(&r->ring);
	instance_gone(&r->win);
	instance_gone(&r->mark);
	tep_free(r->tep);
	r->tep = NULL;
	free(r->overrun0);
	free(r->dropped0);
	r->overrun0 = r->dropped0 = NULL;
}

/* ---- the ring's size ------------------------------------------------------------ */

/*
 * ring_size - grown when a CPU's ring overwrote events and holds less than
 * --ring seconds (never shrunk: a busy hour comes back), within --ring-max
 */
void ring_size(struct watch *w)
{
	struct rings *r = &w->r;
	struct watch_cpu_ring *cpus = xzalloc(r->ncpus * sizeof(*cpus));
	double bytes, over, drop, span;
	unsigned long kb, max_kb = w->o->ring_max_kb / r->ncpus;
	int cpu;
	bool overwrote = false;

	ring_read(r, cpus, &bytes, &over, &drop, &span);
	for (cpu = 0; cpu < r->ncpus; cpu++)
		overwrote |= cpus[cpu].overwrote;
	free(cpus);
	w->last_sizing_ns = now_ns();
	kb = watch_ring_kb(r->ring_kb, span, w->o->ring_s, overwrote,
			   max_kb > 4 ? max_kb : 4);
	if (kb == r->ring_kb)
		return;
	if (tracefs_instance_set_buffer_size(r->ring, kb, -1) < 0) {
		say(w, 4, "cannot grow the ring to %lu KiB a CPU (%s): it holds %.1f s\n",
		    kb, strerror(errno), span);
		/* tried once per size */
		r->ring_kb = kb;
		return;
	}
	debug_msg("watch: the ring held %.1f s: %lu KiB a CPU now\n", span, kb);
	r->ring_kb = kb;
	w->st.ring_kb = kb;
}
