// SPDX-License-Identifier: GPL-2.0
/*
 * module.c - finding teeprobe.ko's debugfs files and trace events, with a
 * readable message for each way the host can be unready.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "module.h"
#include "utils.h"

/* teeprobe_tracing_dir - tracefs mount point, mounting it if needed */
const char *teeprobe_tracing_dir(void)
{
	const char *dir = NULL;

	if (tracefs_tracing_dir_is_mounted(true, &dir) < 0 || !dir) {
		err_msg("tracefs is not mounted and could not be mounted: "
			"mount -t tracefs nodev /sys/kernel/tracing\n");
		return NULL;
	}
	return dir;
}

/* teeprobe_debugfs_path - path of @file in teeprobe's debugfs directory */
char *teeprobe_debugfs_path(const char *file)
{
	const char *debugfs = tracefs_debug_dir();
	char *path;

	if (!debugfs)
		return NULL;
	if (asprintf(&path, "%s/%s/%s", debugfs, TEEPROBE_DEBUGFS, file) < 0)
		fatal("out of memory\n");
	return path;
}

/* teeprobe_module_version - the loaded module's version line, or NULL */
char *teeprobe_module_version(void)
{
	char *path = teeprobe_debugfs_path("version");
	char *text, *nl;
	int err = 0;

	if (!path)
		return NULL;
	text = read_text_file(path, 256, &err);
	free(path);
	if (!text)
		return NULL;
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	return text;
}

/*
 * teeprobe_require_module - check that teeprobe.ko is loaded, its debugfs
 * files are readable and its events are in tracefs. Prints what is missing
 * and how to fix it; returns 0 when everything is there, -1 otherwise.
 */
int teeprobe_require_module(void)
{
	struct stat st;
	char *version;

	if (geteuid() != 0) {
		err_msg("teeprobe needs root (debugfs and tracefs are root-only)\n");
		return -1;
	}
	if (stat("/sys/module/teeprobe", &st) < 0) {
		err_msg("the teeprobe module is not loaded: insmod teeprobe.ko "
			"(or modprobe teeprobe)\n");
		return -1;
	}
	if (!tracefs_debug_dir()) {
		err_msg("debugfs is not mounted: "
			"mount -t debugfs nodev /sys/kernel/debug\n");
		return -1;
	}
	version = teeprobe_module_version();
	if (!version) {
		err_msg("teeprobe is loaded but its debugfs files are missing "
			"(is debugfs mounted at /sys/kernel/debug?)\n");
		return -1;
	}
	free(version);
	if (!teeprobe_tracing_dir())
		return -1;
	if (!tracefs_event_file_exists(NULL, TEEPROBE_SYSTEM, "teeprobe_reset",
				       "format")) {
		err_msg("no teeprobe events in tracefs: is this module built "
			"for the running kernel?\n");
		return -1;
	}
	return 0;
}
