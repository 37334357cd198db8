// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - take, store and replay snapshots of the host's and the
 * module's counters (see snapshot.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "table.h"
#include "module.h"
#include "snapshot.h"
#include "utils.h"

/* source_get - the source called @name, created when @create */
static struct snap_source *source_get(struct snapshot *s, const char *name,
				      bool create)
{
	int i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->src[i].name, name))
			return &s->src[i];
	if (!create || s->nr == SNAP_MAX_SOURCES)
		return NULL;
	s->src[s->nr].name = xstrdup(name);
	return &s->src[s->nr++];
}

/*
 * text_append - @line up to its newline at the end of @src's text, then a
 * newline when @newline; the text stays NUL-terminated
 */
static void text_append(struct snap_source *src, const char *line, bool newline)
{
	size_t n = strcspn(line, "\n");

	/* a parse of the text so far is not one of the text to be */
	modstats_cache_free(src->parsed);
	src->parsed = NULL;
	if (src->len + n + 2 > src->cap) {
		src->cap = (src->len + n + 2) * 2;
		src->text = realloc(src->text, src->cap);
		if (!src->text)
			fatal("out of memory\n");
	}
	memcpy(src->text + src->len, line, n);
	src->len += n;
	if (newline)
		src->text[src->len++] = '\n';
	src->text[src->len] = '\0';
}

/* snapshot_add_line - append one line (without its newline) to a source */
void snapshot_add_line(struct snapshot *s, const char *source, const char *line)
{
	struct snap_source *src = source_get(s, source, true);

	if (src)
		text_append(src, line, true);
}

/* snapshot_text - the lines of @source, or NULL when it was not taken */
const char *snapshot_text(const struct snapshot *s, const char *source)
{
	struct snap_source *src = source_get((struct snapshot *)s, source, false);

	return src ? src->text : NULL;
}

/* add_file - the lines of @path starting with @prefix (all when NULL) */
static void add_file(struct snapshot *s, const char *source, const char *path,
		     const char *prefix)
{
	char *text, *line, *save = NULL;
	int err = 0;

	text = read_text_file(path, 1 << 20, &err);
	if (!text) {
		char line[64];

		debug_msg("snapshot: %s: %s\n", path, strerror(err));
		/*
		 * A file there that could not be read (ENOMEM from the
		 * module's read, say) says so as the module's own error line
		 * does: its readers refuse it rather than take it as absent.
		 */
		if (err && err != ENOENT) {
			snprintf(line, sizeof(line), "# error %s",
				 strerrorname_np(err) ?: "EIO");
			snapshot_add_line(s, source, line);
		}
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (!prefix || !strncmp(line, prefix, strlen(prefix)))
			snapshot_add_line(s, source, line);
	free(text);
}

/*
 * snapshot_add_dir - every readable regular file of @dir as a source named
 * after the file (teeprobe's debugfs directory, or a copy of it)
 */
void snapshot_add_dir(struct snapshot *s, const char *dir)
{
	struct dirent **names;
	char path[4096];
	struct stat st;
	int i, n;

	n = scandir(dir, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && !stat(path, &st) &&
		    S_ISREG(st.st_mode) && (st.st_mode & S_IRUSR))
			add_file(s, names[i]->d_name, path, NULL);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

/* add_debugfs - every readable file of teeprobe's debugfs directory */
static void add_debugfs(struct snapshot *s)
{
	char *dir = teeprobe_debugfs_path("");

	if (!dir)
		return;
	snapshot_add_dir(s, dir);
	free(dir);
}

/* snapshot_take - read every source now */
void snapshot_take(struct snapshot *s)
{
	struct timespec ts;
	struct utsname u;
	char line[512];

	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->time = ts.tv_sec + ts.tv_nsec / 1e9;
	snprintf(line, sizeof(line), "%.9f", s->time);
	snapshot_add_line(s, "time", line);
	if (!uname(&u)) {
		snprintf(line, sizeof(line), "%s %s %s", u.sysname, u.release,
			 u.machine);
		snapshot_add_line(s, "uname", line);
	}
	snprintf(line, sizeof(line), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	snapshot_add_line(s, "nproc", line);
	add_file(s, "proc_stat", "/proc/stat", "cpu");
	add_file(s, "proc_softirqs", "/proc/softirqs", NULL);
	add_file(s, "net_dev", "/proc/net/dev", NULL);
	add_file(s, "snmp", "/proc/net/snmp", "Tcp:");
	add_file(s, "netstat", "/proc/net/netstat", "TcpExt:");
	add_debugfs(s);
}

/* snapshot_free - release the sources */
void snapshot_free(struct snapshot *s)
{
	int i;

	for (i = 0; i < s->nr; i++) {
		free(s->src[i].name);
		free(s->src[i].text);
		modstats_cache_free(s->src[i].parsed);
	}
	memset(s, 0, sizeof(*s));
}

/*
 * write_line - one line as one or more markers. The kernel cuts a marker
 * at 1 KiB (TRACE_BUF_SIZE in 6.1), so longer lines go in pieces; every
 * piece but the last has its phase marked with a '+' (to be continued).
 */
static int write_line(struct tracefs_instance *instance, const char *phase,
		      const char *source, const char *line)
{
	size_t len = strlen(line), n;

	do {
		n = len > SNAP_PIECE ? SNAP_PIECE : len;
		if (tracefs_printf(instance, SNAP_MARKER " %s%s %s %.*s\n", phase,
				   n < len ? "+" : "", source, (int)n, line) < 0) {
			err_msg("cannot write a marker for %s: %s\n", source,
				strerror(errno));
			return -1;
		}
		line += n;
		len -= n;
	} while (len);
	return 0;
}

/*
 * snapshot_write_markers - write @s into @instance's ring buffer, a marker
 * per line. Returns 0, or -1 when a marker could not be written.
 */
int snapshot_write_markers(struct tracefs_instance *instance,
			   const char *phase, const struct snapshot *s)
{
	char *line, *save = NULL, *copy;
	int i, ret = 0;

	if (tracefs_print_init(instance) < 0)
		return -1;
	for (i = 0; i < s->nr && !ret; i++) {
		copy = xstrdup(s->src[i].text ? s->src[i].text : "");
		for (line = strtok_r(copy, "\n", &save); line && !ret;
		     line = strtok_r(NULL, "\n", &save))
			ret = write_line(instance, phase, s->src[i].name, line);
		free(copy);
	}
	tracefs_print_close(instance);
	return ret;
}

/*
 * snapshot_parse_marker - split a marker written by snapshot_write_markers.
 * Returns 0 and sets @phase, @source and *@line (the rest, without its
 * newline left to the caller), or -1 when @marker is not one of ours.
 */
int snapshot_parse_marker(const char *marker, char *phase, size_t phase_len,
			  char *source, size_t source_len, const char **line)
{
	const char *p = marker, *end;
	size_t n = strlen(SNAP_MARKER);

	if (strncmp(p, SNAP_MARKER " ", n + 1))
		return -1;
	p += n + 1;
	end = strchr(p, ' ');
	if (!end || (size_t)(end - p) >= phase_len)
		return -1;
	memcpy(phase, p, end - p);
	phase[end - p] = '\0';
	p = end + 1;
	end = strchr(p, ' ');
	if (!end || (size_t)(end - p) >= source_len || end == p)
		return -1;
	memcpy(source, p, end - p);
	source[end - p] = '\0';
	*line = end + 1;
	return 0;
}

/*
 * snapshot_read_marker - one marker's @text, as the session's reader meets
 * it, into the start (@snap[0]) or end (@snap[1]) snapshot: a whole line,
 * or a piece kept in @pending (per phase) until its line's last piece comes.
 * Returns 1 when @text was a line (or piece) of a snapshot, 0 when it was
 * some other marker.
 */
int snapshot_read_marker(struct snapshot snap[2], struct snap_source pending[2],
			 const char *text)
{
	char phase[16], source[64];
	struct snap_source *pend;
	const char *line;
	bool more;
	int p;

	if (snapshot_parse_marker(text, phase, sizeof(phase), source,
				  sizeof(source), &line))
		return 0;
	more = phase[strlen(phase) - 1] == '+';
	if (more)
		phase[strlen(phase) - 1] = '\0';
	if (!strcmp(phase, "start"))
		p = 0;
	else if (!strcmp(phase, "end"))
		p = 1;
	else
		return 0;
	pend = &pending[p];
	if (pend->name && strcmp(pend->name, source)) {
		free(pend->name);	/* pieces of another line: drop them */
		pend->name = NULL;
		pend->len = 0;
	}
	if (!more && !pend->name) {
		snapshot_add_line(&snap[p], source, line);
		return 1;
	}
	if (!pend->name)
		pend->name = xstrdup(source);
	text_append(pend, line, false);
	if (more)
		return 1;
	snapshot_add_line(&snap[p], source, pend->text);
	free(pend->name);
	pend->name = NULL;
	pend->len = 0;
	return 1;
}

/* snapshot_pending_free - release the pieces snapshot_read_marker() kept */
void snapshot_pending_free(struct snap_source pending[2])
{
	int p;

	for (p = 0; p < 2; p++) {
		free(pending[p].name);
		free(pending[p].text);
		memset(&pending[p], 0, sizeof(pending[p]));
	}
}
