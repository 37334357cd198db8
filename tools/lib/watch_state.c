// SPDX-License-Identifier: GPL-2.0
/*
 * watch_state.c - a running watch's status file: its text, written and
 * read, and the sweep of what a watch that did not end left (see
 * watch_state.h).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "utils.h"
#include "watch_state.h"

/* watch_status_init - nothing measured, nothing captured */
void watch_status_init(struct watch_status *st)
{
	int m;

	memset(st, 0, sizeof(*st));
	for (m = 0; m < NR_WATCH_MEASURES; m++)
		st->value[m] = NAN;
}

/* watch_status_format - @st as the status file's lines */
void watch_status_format(FILE *out, const struct watch_status *st)
{
	int m;

	fprintf(out, "pid %d\nstarted %.3f\ndir %s\nwindow_ms %u\nrun_windows %d\n",
		st->pid, st->started, st->dir, st->window_ms, st->run_windows);
	fprintf(out, "ring_s %g\nafter_s %g\ncooldown_s %g\nkeep %d\nring_kb %lu\n",
		st->ring_s, st->after_s, st->cooldown_s, st->keep, st->ring_kb);
	for (m = 0; m < NR_WATCH_MEASURES; m++) {
		if (!st->set[m])
			continue;
		fprintf(out, "threshold %s %.9g\n", watch_measure_key(m), st->threshold[m]);
		if (!isnan(st->value[m]))
			fprintf(out, "value %s %.9g\n", watch_measure_key(m), st->value[m]);
		fprintf(out, "over %s %llu\nbreaches %s %llu\n", watch_measure_key(m),
			st->over[m], watch_measure_key(m), st->breaches[m]);
	}
	fprintf(out, "windows %llu\njudged_until_ns %.0f\nlate_events %llu\n",
		st->windows, st->judged_until_ns, st->late_events);
	fprintf(out, "captures %llu\nfailed %llu\n", st->captures, st->failed);
	fprintf(out, "skipped_cooldown %llu\nskipped_disk %llu\n",
		st->skipped_cooldown, st->skipped_disk);
	fprintf(out, "last_breach %.3f\nlast_capture %.3f\n", st->last_breach,
		st->last_capture);
	if (st->last_file[0])
		fprintf(out, "last_file %s\n", st->last_file);
	if (st->last_verdict[0])
		fprintf(out, "last_verdict %s\n", st->last_verdict);
}

/* per_measure - a "key measure value" line into @st; false when not one */
static bool per_measure(struct watch_status *st, const char *key, const char *rest)
{
	char name[32];
	double v;
	int m, n = 0;

	if (sscanf(rest, "%31s %lf%n", name, &v, &n) != 2 || rest[n] ||
	    !isfinite(v) || v < 0)
		return false;
	m = watch_measure_of(name);
	if (m < 0)
		return false;
	if (!strcmp(key, "threshold")) {
		st->set[m] = true;
		st->threshold[m] = v;
	} else if (!strcmp(key, "value")) {
		st->value[m] = v;
	} else if (!strcmp(key, "over")) {
		st->over[m] = v;
	} else if (!strcmp(key, "breaches")) {
		st->breaches[m] = v;
	} else {
		return false;
	}
	return true;
}

/* number - @rest as a finite, non-negative number into *@v */
static bool number(const char *rest, double *v)
{
	char *end;

	*v = strtod(rest, &end);
	return end != rest && !*end && isfinite(*v) && *v >= 0;
}

/*
 * watch_status_parse - the status file's @text into @st; false when a line
 * is not one of its (the file is someone else's, or damaged) or the pid is
 * missing. Unknown keys of a later teeprobe are skipped.
 */
bool watch_status_parse(const char *text, struct watch_status *st)
{
	char *copy = xstrdup(text), *line, *save = NULL, *sp;
	bool ok = true;
	double v;

	watch_status_init(st);
	for (line = strtok_r(copy, "\n", &save); ok && line;
	     line = strtok_r(NULL, "\n", &save)) {
		sp = strchr(line, ' ');
		if (!sp) {
			ok = false;
			break;
		}
		*sp++ = '\0';
		if (!strcmp(line, "threshold") || !strcmp(line, "value") ||
		    !strcmp(line, "over") || !strcmp(line, "breaches")) {
			ok = per_measure(st, line, sp);
		} else if (!strcmp(line, "dir")) {
			snprintf(st->dir, sizeof(st->dir), "%s", sp);
		} else if (!strcmp(line, "last_file")) {
			snprintf(st->last_file, sizeof(st->last_file), "%s", sp);
		} else if (!strcmp(line, "last_verdict")) {
			snprintf(st->last_verdict, sizeof(st->last_verdict), "%s", sp);
		} else if (!number(sp, &v)) {
			ok = false;
		} else if (!strcmp(line, "pid")) {
			st->pid = v <= 4194304 ? (int)v : 0;
		} else if (!strcmp(line, "started")) {
			st->started = v;
		} else if (!strcmp(line, "window_ms")) {
			st->window_ms = v;
		} else if (!strcmp(line, "run_windows")) {
			st->run_windows = v;
		} else if (!strcmp(line, "ring_s")) {
			st->ring_s = v;
		} else if (!strcmp(line, "after_s")) {
			st->after_s = v;
		} else if (!strcmp(line, "cooldown_s")) {
			st->cooldown_s = v;
		} else if (!strcmp(line, "keep")) {
			st->keep = v;
		} else if (!strcmp(line, "ring_kb")) {
			st->ring_kb = v;
		} else if (!strcmp(line, "windows")) {
			st->windows = v;
		} else if (!strcmp(line, "judged_until_ns")) {
			st->judged_until_ns = v;
		} else if (!strcmp(line, "late_events")) {
			st->late_events = v;
		} else if (!strcmp(line, "captures")) {
			st->captures = v;
		} else if (!strcmp(line, "failed")) {
			st->failed = v;
		} else if (!strcmp(line, "skipped_cooldown")) {
			st->skipped_cooldown = v;
		} else if (!strcmp(line, "skipped_disk")) {
			st->skipped_disk = v;
		} else if (!strcmp(line, "last_breach")) {
			st->last_breach = v;
		} else if (!strcmp(line, "last_capture")) {
			st->last_capture = v;
		}
	}
	free(copy);
	return ok && st->pid > 0;
}

/*
 * watch_status_write - @st into WATCH_STATE_FILE, whole: written beside it,
 * then renamed over it, so a reader sees the old file or the new one
 */
int watch_status_write(const struct watch_status *st)
{
	char tmp[sizeof(WATCH_STATE_FILE) + 16];
	FILE *f;
	int ok;

	snprintf(tmp, sizeof(tmp), "%s.tmp", WATCH_STATE_FILE);
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	watch_status_format(f, st);
	ok = !ferror(f);
	ok = !fclose(f) && ok;
	if (!ok || rename(tmp, WATCH_STATE_FILE)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/*
 * watch_status_read - the status file into @st: false when there is none
 * (no watch ran, or it ended cleanly) or it is not one; *@running says
 * whether its watch is alive
 */
bool watch_status_read(struct watch_status *st, bool *running)
{
	char *text;
	bool ok;
	int err;

	text = read_text_file(WATCH_STATE_FILE, 1 << 16, &err);
	if (!text)
		return false;
	ok = watch_status_parse(text, st);
	free(text);
	*running = ok && process_is_teeprobe(st->pid);
	return ok;
}

/*
 * remove_parts - the capture a watch (@pid) was writing into @dir when it
 * ended, and trace-cmd's per-CPU files beside it; returns how many
 */
static int remove_parts(const char *dir, int pid)
{
	char prefix[64], path[8192];
	struct dirent *d;
	DIR *dh = opendir(dir);
	int n = 0;

	if (!dh)
		return 0;
	snprintf(prefix, sizeof(prefix), "%s%d.part", WATCH_PART_PREFIX, pid);
	while ((d = readdir(dh))) {
		if (strncmp(d->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		n += !unlink(path);
	}
	closedir(dh);
	return n;
}

/*
 * watch_state_sweep - what a watch that did not end left besides what
 * every session leaves (lock.c): the capture it was writing and its
 * status file; says what it removed
 */
void watch_state_sweep(const char *who)
{
	struct watch_status st;
	bool running;
	int parts;

	if (!watch_status_read(&st, &running)) {
		/* not a status file a watch wrote, or none: nothing of a watch */
		if (access(WATCH_STATE_FILE, F_OK))
			return;
		if (!unlink(WATCH_STATE_FILE))
			fprintf(stderr, "teeprobe: %s: removed %s, which no watch wrote whole\n",
				who, WATCH_STATE_FILE);
		return;
	}
	if (running)
		return;
	parts = st.dir[0] ? remove_parts(st.dir, st.pid) : 0;
	unlink(WATCH_STATE_FILE);
	fprintf(stderr, "teeprobe: %s: a watch that did not end (pid %d) left its status%s; removed\n",
		who, st.pid, parts ? " and a capture it was writing" : "");
}
