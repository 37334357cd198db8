// SPDX-License-Identifier: GPL-2.0
/*
 * lock.c - one recording session at a time per host, and the sweep of what
 * a session that did not end left behind (see lock.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "lock.h"
#include "module.h"
#include "utils.h"
#include "watch_state.h"

#define LOCK_FILE	TEEPROBE_RUN_DIR "/session"
#define WINDOW_PARAM	"/sys/module/teeprobe/parameters/window_ms"

/* The tracefs instances of sessions: PREFIX + the owner's pid [+ -part] */
static const char *const instance_prefixes[] = {
	"teeprobe-record-", "teeprobe-watch-",
};

/* chomp - @s without its trailing newline */
static char *chomp(char *s)
{
	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

/* module_config_read - the module's window length and pid filter now */
void module_config_read(struct module_config *c)
{
	char *path = teeprobe_debugfs_path("pid_filter");
	int err;

	c->pid_filter = chomp(path ? read_text_file(path, 256, &err) : NULL);
	c->window_ms = chomp(read_text_file(WINDOW_PARAM, 64, &err));
	free(path);
}

/* module_config_put_back - set what module_config_read read */
void module_config_put_back(const struct module_config *c)
{
	char *path = teeprobe_debugfs_path("pid_filter");

	if (path && c->pid_filter)
		write_value("", path, !strncmp(c->pid_filter, "all", 3) ?
			    "0" : c->pid_filter);
	if (c->window_ms)
		write_value("", WINDOW_PARAM, c->window_ms);
	free(path);
}

void module_config_free(struct module_config *c)
{
	free(c->pid_filter);
	free(c->window_ms);
	memset(c, 0, sizeof(*c));
}

/* The lock file's contents */
struct owner {
	int pid;
	char command[16];	/* "record", "watch"; "record" before it was said */
	char output[4096];
	struct module_config saved;
};

/* owner_parse - the lock file's text into @o; false when it is empty */
static bool owner_parse(char *text, struct owner *o)
{
	char *line, *save = NULL;

	memset(o, 0, sizeof(*o));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "pid ", 4))
			o->pid = atoi(line + 4);
		else if (!strncmp(line, "window_ms ", 10))
			o->saved.window_ms = xstrdup(line + 10);
		else if (!strncmp(line, "pid_filter ", 11))
			o->saved.pid_filter = xstrdup(line + 11);
		else if (!strncmp(line, "output ", 7))
			snprintf(o->output, sizeof(o->output), "%s", line + 7);
		else if (!strncmp(line, "command ", 8))
			snprintf(o->command, sizeof(o->command), "%s", line + 8);
	}
	if (!o->command[0])
		snprintf(o->command, sizeof(o->command), "record");
	return o->pid > 0;
}

/* owner_read - the owner @fd's file names; false when there is none */
static bool owner_read(int fd, struct owner *o)
{
	char text[8192];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);

	if (n <= 0) {
		memset(o, 0, sizeof(*o));
		return false;
	}
	text[n] = '\0';
	return owner_parse(text, o);
}

/* lock_open - the lock file, created (its directory too) if needed */
static int lock_open(void)
{
	int fd;

	if (mkdir(TEEPROBE_RUN_DIR, 0700) && errno != EEXIST) {
		err_msg("cannot create %s: %s\n", TEEPROBE_RUN_DIR, strerror(errno));
		return -1;
	}
	fd = open(LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		err_msg("cannot open %s: %s\n", LOCK_FILE, strerror(errno));
	return fd;
}

/*
 * stop_tracecmd - the trace-cmd processes recording into instance @name
 * (their command line holds "-B NAME"): stopped as Ctrl-C stops them, then
 * killed if they do not go. Returns how many there were.
 */
static int stop_tracecmd(const char *name)
{
	int pids[64], n = 0, i, tries;
	struct dirent *d;
	DIR *proc = opendir("/proc");

	while (proc && (d = readdir(proc)) && n < 64) {
		char path[64], buf[4096];
		ssize_t len;
		int fd, pid = atoi(d->d_name);
		const char *p;

		if (pid <= 0 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		if (!strstr(buf, "trace-cmd"))
			continue;
		/* the arguments, NUL-separated: "-B" then the name */
		for (p = buf; p < buf + len; p += strlen(p) + 1)
			if (!strcmp(p, "-B") && p + 3 < buf + len &&
			    !strcmp(p + 3, name))
				pids[n++] = pid;
	}
	if (proc)
		closedir(proc);
	for (i = 0; i < n; i++)
		kill(pids[i], SIGINT);
	for (tries = 0; tries < 40; tries++) {
		bool alive = false;

		for (i = 0; i < n; i++)
			alive |= !kill(pids[i], 0);
		if (!alive)
			break;
		usleep(50000);
	}
	for (i = 0; i < n; i++)
		kill(pids[i], SIGKILL);
	return n;
}

/*
 * sweep_instances - remove the tracefs instances of teeprobe sessions
 * whose owner is gone (teeprobe-record-PID, teeprobe-watch-PID and its
 * -win and -mark, PID no teeprobe process), after
 * stopping the trace-cmd that may still record there; says what it did.
 * Returns how many it removed.
 */
/* instance_owner - the pid in a session's instance name, 0 if not one */
static int instance_owner(const char *name)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(instance_prefixes); i++) {
		n = strlen(instance_prefixes[i]);
		if (!strncmp(name, instance_prefixes[i], n))
			return atoi(name + n);
	}
	return 0;
}

static int sweep_instances(const char *who)
{
	char **names = tracefs_instances(NULL);
	int i, removed = 0;

	for (i = 0; names && names[i]; i++) {
		struct tracefs_instance *inst;
		int pid, stopped;

		pid = instance_owner(names[i]);
		if (pid <= 0 || process_is_teeprobe(pid))
			continue;
		stopped = stop_tracecmd(names[i]);
		inst = tracefs_instance_alloc(NULL, names[i]);
		if (inst && tracefs_instance_exists(names[i]) &&
		    tracefs_instance_destroy(inst)) {
			err_msg("%s: cannot remove the tracefs instance %s of a session that did not end: %s\n",
				who, names[i], strerror(errno));
		} else {
			fprintf(stderr, "teeprobe: %s: removed the tracefs instance %s of a session that did not end%s\n",
				who, names[i], stopped ? " (and stopped its trace-cmd)" : "");
			removed++;
		}
		tracefs_instance_free(inst);
	}
	tracefs_list_free(names);
	return removed;
}

/* put_back_stale - a dead owner's settings and instance, cleaned up */
static void put_back_stale(const char *who, struct owner *o)
{
	struct module_config now = { 0 };

	module_config_read(&now);
	fprintf(stderr, "teeprobe: %s: a session that did not end (%s%spid %d, writing %s) left the module's settings: window_ms %s, pid_filter %s; put back to %s and %s\n",
		who, strcmp(o->command, "record") ? o->command : "",
		strcmp(o->command, "record") ? ", " : "", o->pid, o->output,
		now.window_ms ? now.window_ms : "?",
		now.pid_filter ? now.pid_filter : "?",
		o->saved.window_ms ? o->saved.window_ms : "?",
		o->saved.pid_filter ? o->saved.pid_filter : "?");
	module_config_put_back(&o->saved);
	module_config_free(&now);
	module_config_free(&o->saved);
}

/*
 * session_lock_take - own the module's settings: refused (-1, after a
 * message naming the owner) while another session runs; what a session
 * that did not end left is cleaned up first
 */
int session_lock_take(struct session_lock *l, const char *who)
{
	struct owner o = { 0 };
	int err;

	l->fd = lock_open();
	if (l->fd < 0)
		return -1;
	if (flock(l->fd, LOCK_EX | LOCK_NB)) {
		err = errno;
		if (err == EWOULDBLOCK && owner_read(l->fd, &o) &&
		    !strcmp(o.command, "watch"))
			err_msg("%s: a watch runs (pid %d, capturing into %s): one session at a time shares the module's settings\n",
				who, o.pid, o.output);
		else if (err == EWOULDBLOCK && o.pid > 0)
			err_msg("%s: another session records (pid %d, writing %s): one session at a time shares the module's settings\n",
				who, o.pid, o.output);
		else
			err_msg("%s: another session records (%s): one session at a time\n",
				who, strerror(err));
		module_config_free(&o.saved);
		close(l->fd);
		l->fd = -1;
		return -1;
	}
	if (owner_read(l->fd, &o))
		put_back_stale(who, &o);
	else
		module_config_free(&o.saved);
	sweep_instances(who);
	watch_state_sweep(who);
	return 0;
}

/*
 * session_lock_note - say who owns the settings, and what they were: the
 * next session puts them back if this one does not end
 */
int session_lock_note(struct session_lock *l, const char *output,
		      const struct module_config *saved)
{
	char text[8192];
	int n;

	n = snprintf(text, sizeof(text), "pid %d\ncommand %s\nwindow_ms %s\npid_filter %s\noutput %s\n",
		     (int)getpid(), command_name, saved->window_ms ? saved->window_ms : "",
		     saved->pid_filter ? saved->pid_filter : "", output);
	if (n >= (int)sizeof(text) || ftruncate(l->fd, 0) ||
	    pwrite(l->fd, text, n, 0) != n) {
		err_msg("cannot write %s: %s\n", LOCK_FILE, strerror(errno));
		return -1;
	}
	return 0;
}

/* session_lock_release - the session ended: an empty file, the lock free */
void session_lock_release(struct session_lock *l)
{
	if (l->fd < 0)
		return;
	if (ftruncate(l->fd, 0))
		err_msg("cannot empty %s: %s\n", LOCK_FILE, strerror(errno));
	flock(l->fd, LOCK_UN);
	close(l->fd);
	l->fd = -1;
}

/*
 * session_sweep - for "teeprobe check": what sessions that did not end
 * left, cleaned up, unless a session is recording now. Returns the pid of
 * that session, or 0.
 */
int session_sweep(const char *who)
{
	struct owner o = { 0 };
	int fd = lock_open(), pid = 0;

	if (fd < 0)
		return 0;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (owner_read(fd, &o)) {
			pid = o.pid;
			module_config_free(&o.saved);
		}
		close(fd);
		return pid ? pid : -1;
	}
	if (owner_read(fd, &o)) {
		put_back_stale(who, &o);
		if (ftruncate(fd, 0))
			err_msg("cannot empty %s: %s\n", LOCK_FILE, strerror(errno));
	} else {
		module_config_free(&o.saved);
	}
	sweep_instances(who);
	watch_state_sweep(who);
	flock(fd, LOCK_UN);
	close(fd);
	return 0;
}
