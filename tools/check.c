// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - "teeprobe check": is this host ready to trace?
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "module.h"
#include "teeprobe.h"
#include "utils.h"

/* check_usage - help for teeprobe check */
static void check_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe check [-h]\n\n"
		"Checks that teeprobe.ko is loaded, its debugfs files are\n"
		"readable and its events are in tracefs; prints the module\n"
		"version, the state of each TEE probe (attached, or\n"
		"not-found until a module with the symbol loads) and the\n"
		"kernel tracepoints it is attached to. Mounts\n"
		"debugfs and tracefs if they are not mounted, as trace-cmd\n"
		"does.\n"
		"Exit status 0 when ready, 1 otherwise.\n");
}

/* print_tee_probes - each TEE probe's symbol and state, from debugfs */
static void print_tee_probes(void)
{
	char *path = teeprobe_debugfs_path("tee_probes");
	char *text, *line, *save = NULL;
	char symbol[128], role[16], state[16];
	int err = 0;

	text = path ? read_text_file(path, 64 * 1024, &err) : NULL;
	free(path);
	if (!text) {
		printf("tee probes: unreadable (%s)\n", strerror(err));
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "# preset ", 9))
			printf("tee preset: %s\n", line + 9);
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%127s %15s %15s", symbol, role, state) == 3)
			printf("tee probe: %s (%s) %s\n", symbol, role, state);
	}
	free(text);
}

/* print_hooks - the kernel tracepoints the module is attached to */
static void print_hooks(void)
{
	char *path = teeprobe_debugfs_path("hooks");
	char *text, *line, *save = NULL;
	char part[32], name[64];
	int err = 0;

	text = path ? read_text_file(path, 64 * 1024, &err) : NULL;
	free(path);
	if (!text) {
		printf("kernel hooks: unreadable (%s)\n", strerror(err));
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '#' &&
		    sscanf(line, "%31s %63s", part, name) == 2)
			printf("kernel hook: %s (%s) attached\n", name, part);
	}
	free(text);
}

/* check_main - entry point of teeprobe check */
int check_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char *version;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			check_usage(stdout);
			return 0;
		default:
			check_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		err_msg("check: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (teeprobe_require_module())
		return 1;
	version = teeprobe_module_version();
	printf("module: %s\n", version);
	printf("tracefs: %s\n", teeprobe_tracing_dir());
	print_tee_probes();
	print_hooks();
	printf("ready\n");
	free(version);
	return 0;
}
