/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.h - the host's and the module's counters at one instant: every
 * readable file of /sys/kernel/debug/teeprobe/, the CPU lines of
 * /proc/stat, /proc/softirqs, /proc/net/dev, the Tcp lines of
 * /proc/net/snmp and /proc/net/netstat, the kernel release and CPU count.
 *
 * "teeprobe record" writes a snapshot into the trace at the start and at
 * the end of a session, as trace_marker lines
 *     teeprobe-snap PHASE SOURCE TEXT-OF-ONE-LINE
 * (a line longer than SNAP_PIECE goes in pieces, all but the last with
 * PHASE+ as their phase)
 * so the recording is one self-contained trace.dat that trace-cmd also
 * reads; the session's reader (session.c) rebuilds the two snapshots from
 * those lines with snapshot_read_marker(), and "teeprobe stat" takes
 * snapshots live. Both halves of that protocol are here.
 */
#ifndef TEEPROBE_SNAPSHOT_H
#define TEEPROBE_SNAPSHOT_H

#include <stdbool.h>

#define SNAP_MARKER	"teeprobe-snap"
#define SNAP_MAX_SOURCES 32
#define SNAP_PIECE	768	/* longest part of a line in one marker */

struct tracefs_instance;

struct snap_source {
	char *name;
	char *text;		/* lines, each ending in '\n' */
	size_t len, cap;
	void *parsed;		/* modstats_of()'s parse of the text */
};

struct snapshot {
	double time;		/* CLOCK_MONOTONIC seconds when taken */
	struct snap_source src[SNAP_MAX_SOURCES];
	int nr;
};

void snapshot_take(struct snapshot *s);
void snapshot_add_dir(struct snapshot *s, const char *dir);
void snapshot_free(struct snapshot *s);
void snapshot_add_line(struct snapshot *s, const char *source, const char *line);
const char *snapshot_text(const struct snapshot *s, const char *source);
int snapshot_write_markers(struct tracefs_instance *instance,
			   const char *phase, const struct snapshot *s);
int snapshot_parse_marker(const char *marker, char *phase, size_t phase_len,
			  char *source, size_t source_len, const char **line);
int snapshot_read_marker(struct snapshot snap[2], struct snap_source pending[2],
			 const char *text);
void snapshot_pending_free(struct snap_source pending[2]);

#endif /* TEEPROBE_SNAPSHOT_H */
