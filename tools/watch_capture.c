// SPDX-License-Identifier: GPL-2.0
/*
 * watch_capture.c - a capture of "teeprobe watch" (see watch.c): the ring
 * stopped, the start snapshot chosen where every CPU's events are whole,
 * both snapshots as markers, trace-cmd extract in record's child, the file
 * read back and analysed, one line said, the old captures pruned, and the
 * ring started again.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "analyze.h"
#include "session.h"
#include "utils.h"
#include "watch.h"

/* clock_str - Unix time @t as HH:MM:SS local time, in @buf */
static const char *clock_str(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (!localtime_r(&s, &tm) || !strftime(buf, len, "%H:%M:%S", &tm))
		snprintf(buf, len, "?");
	return buf;
}

/* ---- captures ------------------------------------------------------------------ */

/* capture_start - a breach of @m: the ring is written --after from now */
void capture_start(struct watch *w, enum watch_measure m, double now)
{
	struct pending *c = &w->cap;

	c->on = true;
	c->at_ns = now + w->o->after_s * 1e9;
	c->measure = m;
	c->value = w->judge.last_value[m];
	c->run = w->judge.run[m];
	c->run_start_ns = w->judge.run_start_ns[m];
	c->breach_ns = now;
	c->breach_wall = wall_s();
	watch_judge_captured(&w->judge, now);
	/* a start for the capture from the breach on, whatever the ring holds */
	snap_take(w);
}

/* capture_name - a new capture's file in the directory, for breach time @t */
static void capture_name(const struct watch *w, double t, char *path, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;
	char stamp[32];
	int n;

	gmtime_r(&s, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(path, len, "%s/teeprobe-watch-%s.dat", w->o->dir, stamp);
	for (n = 1; !access(path, F_OK) && n < 1000; n++)
		snprintf(path, len, "%s/teeprobe-watch-%s-%d.dat", w->o->dir, stamp, n);
}

/* prune - the captures beyond --keep, oldest first */
static void prune(struct watch *w)
{
	struct dirent **names;
	const char **list;
	bool *rm;
	char path[8192];
	int i, n = scandir(w->o->dir, &names, NULL, alphasort);

	if (n < 0)
		return;
	list = xzalloc((n + 1) * sizeof(*list));
	rm = xzalloc((n + 1) * sizeof(*rm));
	for (i = 0; i < n; i++)
		list[i] = names[i]->d_name;
	watch_prune(list, n, w->o->keep, rm);
	for (i = 0; i < n; i++) {
		if (rm[i]) {
			snprintf(path, sizeof(path), "%s/%s", w->o->dir, list[i]);
			if (unlink(path))
				say(w, 4, "cannot remove the old capture %s: %s\n", path,
				    strerror(errno));
		}
		free(names[i]);
	}
	free(names);
	free(list);
	free(rm);
}

/* ring_restart - the ring and the markers emptied, recording again */
static void ring_restart(struct watch *w)
{
	struct rings *r = &w->r;

	tracefs_instance_file_clear(r->ring, "trace");
	tracefs_instance_file_clear(r->mark, "trace");
	tracefs_instance_set_buffer_size(r->mark, MARK_KB, -1);
	ring_baseline(r);
	snaps_clear(w);
	tracefs_trace_on(r->ring);
	snap_take(w);
}

/* capture_source - the start snapshot's "capture" lines: what started it */
static void capture_source(struct watch *w, struct snapshot *start)
{
	const struct pending *c = &w->cap;
	char line[128];

	snapshot_add_line(start, "capture", "by teeprobe-watch");
	/* where the session starts: session.c leaves out what is older */
	snprintf(line, sizeof(line), "from_ns %.0f", ceil(start->time * 1e9));
	snapshot_add_line(start, "capture", line);
	snprintf(line, sizeof(line), "measure %s", watch_measure_key(c->measure));
	snapshot_add_line(start, "capture", line);
	snprintf(line, sizeof(line), "threshold %.9g", w->o->rule.threshold[c->measure]);
	snapshot_add_line(start, "capture", line);
	snprintf(line, sizeof(line), "value %.9g", c->value);
	snapshot_add_line(start, "capture", line);
	snprintf(line, sizeof(line), "run_windows %d", c->run);
	snapshot_add_line(start, "capture", line);
	snprintf(line, sizeof(line), "run_start_ns %.0f", c->run_start_ns);
	snapshot_add_line(start, "capture", line);
	snprintf(line, sizeof(line), "breach_ns %.0f", c->breach_ns);
	snapshot_add_line(start, "capture", line);
	snprintf(line, sizeof(line), "window_ms %u", w->o->rec.window_ms);
	snapshot_add_line(start, "capture", line);
}

/* markers_kb - room for @a's and @b's markers in one CPU's buffer, in KiB */
static size_t markers_kb(const struct snapshot *a, const struct snapshot *b)
{
	size_t bytes = 0;
	int i;

	for (i = 0; i < a->nr; i++)
		bytes += a->src[i].len * 2 + 4096;
	for (i = 0; i < b->nr; i++)
		bytes += b->src[i].len * 2 + 4096;
	return bytes / 1024 + 64;
}

/* last_line - the last line written into @fd (a memfd), for a message */
static const char *last_line(int fd)
{
	static char buf[512];
	char *nl;
	off_t end = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
	ssize_t n;

	buf[0] = '\0';
	if (end <= 0)
		return "(it said nothing)";
	n = pread(fd, buf, sizeof(buf) - 1, end > (off_t)sizeof(buf) - 1 ?
		  end - (off_t)(sizeof(buf) - 1) : 0);
	buf[n > 0 ? n : 0] = '\0';
	while ((nl = strrchr(buf, '\n')) && !nl[1])
		*nl = '\0';
	nl = strrchr(buf, '\n');
	return tstr(nl ? nl + 1 : buf);
}

/*
 * write_markers - @start's and @end's markers into the markers' instance:
 * from one CPU (this thread pinned to it meanwhile), whose buffer alone is
 * grown to hold them (a snapshot is some hundred KiB: on every CPU of a
 * large host that would be much). 0, or -1.
 */
static int write_markers(struct watch *w, const struct snapshot *start,
			 const struct snapshot *end)
{
	cpu_set_t was, one;
	int cpu = sched_getcpu(), ret, pinned;

	pinned = cpu >= 0 && !sched_getaffinity(0, sizeof(was), &was);
	if (pinned) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pinned = !sched_setaffinity(0, sizeof(one), &one);
	}
	/* unpinned (no affinity to be had), every CPU's buffer takes them */
	tracefs_instance_set_buffer_size(w->r.mark, markers_kb(start, end),
					 pinned ? cpu : -1);
	ret = snapshot_write_markers(w->r.mark, "start", start) < 0 ||
	      snapshot_write_markers(w->r.mark, "end", end) < 0 ? -1 : 0;
	if (pinned)
		sched_setaffinity(0, sizeof(was), &was);
	return ret;
}

/*
 * extract - trace-cmd writes the ring and the markers into w->part,
 * judging windows meanwhile; 0, or -1 after a message (or when stopped)
 */
static int extract(struct watch *w)
{
	/*
	 * -k: keep the instances as they are (without it trace-cmd 3.1
	 * disables their events and removes them). The markers' instance
	 * last: the file lists it first (session.c).
	 */
	char *argv[] = {
		"trace-cmd", "extract", "-k", "-B", w->r.ring_name, "-B",
		w->r.mark_name, "-o", w->part, NULL
	};
	double t0 = now_ns();
	int status, err_fd;
	pid_t child;

	/* its per-CPU progress lines are noise in a log; its errors are said */
	err_fd = memfd_create("trace-cmd-stderr", MFD_CLOEXEC);
	child = record_tracecmd_start(argv, false, SIGKILL, err_fd);
	if (child < 0) {
		close(err_fd);
		return -1;
	}
	while (waitpid(child, &status, WNOHANG) == 0) {
		if (watch_stop || now_ns() - t0 > EXTRACT_TIMEOUT_S * 1e9) {
			kill(child, SIGKILL);
			waitpid(child, &status, 0);
			if (!watch_stop)
				say(w, 3, "trace-cmd extract took over %d s: stopped\n",
				    EXTRACT_TIMEOUT_S);
			close(err_fd);
			return -1;
		}
		usleep(100000);
		poll_windows(w);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		say(w, 3, "trace-cmd extract failed (status %d): %s\n",
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1, last_line(err_fd));
		close(err_fd);
		return -1;
	}
	close(err_fd);
	return 0;
}

/* part_gone - the capture being written, and trace-cmd's files, removed */
void part_gone(struct watch *w)
{
	if (!w->part[0])
		return;
	unlink(w->part);
	record_remove_temp_files(w->part, w->r.ring_name);
	record_remove_temp_files(w->part, w->r.mark_name);
	w->part[0] = '\0';
}

/*
 * capture_write - the ring into a trace.dat: the end snapshot, the ring
 * stopped, the start snapshot chosen where every CPU's events are whole,
 * both written as markers, trace-cmd extract, the file read back. The
 * session read back, or NULL (said, and counted).
 */
static struct session *capture_write(struct watch *w, const char *final,
				     double *held_s)
{
	struct rings *r = &w->r;
	struct watch_cpu_ring *cpus = xzalloc(r->ncpus * sizeof(*cpus));
	struct snapshot end = { 0 }, *start;
	double bytes, over, drop, span, from, times[MAX_SNAPS];
	struct statvfs fs;
	struct session *s = NULL;
	char line[64];
	int i, pick;

	snapshot_take(&end);
	tracefs_trace_off(r->ring);
	ring_read(r, cpus, &bytes, &over, &drop, &span);
	from = watch_whole_from(cpus, r->ncpus, r->restart_ns);
	free(cpus);
	for (i = 0; i < w->nsnaps; i++)
		times[i] = w->snaps[i].time * 1e9;
	pick = watch_pick_start(times, w->nsnaps, from);
	if (pick < 0) {
		/*
		 * The ring no longer holds the breach's snapshot: --after
		 * outran it. The oldest one starts the capture, and every
		 * event the ring overwrote since it counts as lost.
		 */
		say(w, 4, "the ring held %.1f s, less than --after: grow --ring-max\n",
		    (end.time * 1e9 - from) / 1e9);
		pick = 0;
		drop += over;
	}
	start = &w->snaps[pick];
	*held_s = end.time - start->time;
	snprintf(line, sizeof(line), "%.0f", drop);
	snapshot_add_line(&end, "ring_losses", line);
	capture_source(w, start);
	if (statvfs(w->o->dir, &fs) ||
	    !watch_disk_has_room((double)fs.f_bavail * fs.f_frsize, bytes,
				 RECORD_MIN_FREE_BYTES)) {
		say(w, 4, "%s has %.0f MiB free, a capture of this ring needs %.0f: none written\n",
		    w->o->dir, (double)fs.f_bavail * fs.f_frsize / (1 << 20),
		    (2 * bytes + RECORD_MIN_FREE_BYTES) / (1 << 20));
		w->st.skipped_disk++;
		snapshot_free(&end);
		return NULL;
	}
	if (write_markers(w, start, &end)) {
		say(w, 3, "cannot write the snapshots into the capture\n");
		w->st.failed++;
		snapshot_free(&end);
		return NULL;
	}
	snapshot_free(&end);
	snprintf(w->part, sizeof(w->part), "%s/%s%d.part", w->o->dir,
		 WATCH_PART_PREFIX, (int)getpid());
	if (!extract(w))
		s = record_output_read(w->part);
	if (s && rename(w->part, final)) {
		say(w, 3, "cannot rename %s to %s: %s\n", w->part, final, strerror(errno));
		session_free(s);
		s = NULL;
	}
	if (!s) {
		if (!watch_stop)
			w->st.failed++;
		part_gone(w);
		return NULL;
	}
	record_remove_temp_files(w->part, r->ring_name);
	record_remove_temp_files(w->part, r->mark_name);
	w->part[0] = '\0';
	return s;
}

/* capture - the pending capture written, analysed, said; the ring restarted */
void capture(struct watch *w)
{
	const struct pending *c = &w->cap;
	struct analysis a;
	struct session *s;
	char path[4096], v[32], t[32], at[32];
	double held;

	capture_name(w, c->breach_wall, path, sizeof(path));
	s = capture_write(w, path, &held);
	w->cap.on = false;
	if (watch_stop) {
		session_free(s);
		return;
	}
	ring_restart(w);
	if (!s) {
		watch_status_write(&w->st);
		return;
	}
	watch_value_str(c->measure, c->value, v, sizeof(v));
	watch_value_str(c->measure, w->o->rule.threshold[c->measure], t, sizeof(t));
	clock_str(c->breach_wall - (c->breach_ns - c->run_start_ns) / 1e9, at, sizeof(at));
	if (analysis_of(s, &w->o->verdict, &a)) {
		say(w, 4, "%s %s over %s in %d windows from %s: captured %s (%.1f s); no verdict: its windows do not line up\n",
		    watch_measure_name(c->measure), v, t, c->run, at, path, held);
		snprintf(w->st.last_verdict, sizeof(w->st.last_verdict), "none");
	} else {
		say(w, 4, "%s %s over %s in %d windows from %s: captured %s (%.1f s): verdict %s: %s\n",
		    watch_measure_name(c->measure), v, t, c->run, at, path, held,
		    verdict_key(a.v.cause), a.v.title);
		snprintf(w->st.last_verdict, sizeof(w->st.last_verdict), "%s",
			 verdict_key(a.v.cause));
	}
	analysis_free(&a);
	session_free(s);
	w->st.captures++;
	w->st.last_capture = wall_s();
	snprintf(w->st.last_file, sizeof(w->st.last_file), "%s", path);
	prune(w);
	watch_status_write(&w->st);
}
