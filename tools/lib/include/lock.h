/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lock.h - one recording session at a time per host, and the sweep of what
 * a session that did not end left behind.
 *
 * A session changes settings of the module that every session shares (the
 * window length, the pid filter) and runs trace-cmd in a tracefs instance
 * of its own. The owner holds an flock on TEEPROBE_RUN_DIR/session, which
 * the kernel releases however the owner ends (SIGKILL too); the file says
 * who the owner is and what the settings were before it. A second session
 * is refused, naming the first. A session finding the lock free but the
 * file filled in knows its owner died: it puts the settings back, removes
 * that session's tracefs instance and stops its trace-cmd, and says so.
 */
#ifndef TEEPROBE_LOCK_H
#define TEEPROBE_LOCK_H

#include <stdbool.h>

#define TEEPROBE_RUN_DIR	"/run/teeprobe"

/* The module settings a session changes, as text ("all" or pids; ms) */
struct module_config {
	char *pid_filter;
	char *window_ms;
};

struct session_lock {
	int fd;
};

void module_config_read(struct module_config *c);
void module_config_put_back(const struct module_config *c);
void module_config_free(struct module_config *c);

/* @who names the command in messages ("record", "check") */
int session_lock_take(struct session_lock *l, const char *who);
int session_lock_note(struct session_lock *l, const char *output,
		      const struct module_config *saved);
void session_lock_release(struct session_lock *l);
int session_sweep(const char *who);

#endif /* TEEPROBE_LOCK_H */
