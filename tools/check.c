// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - "teeprobe check": is this host ready to trace?
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

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
		"version. Exit status 0 when ready, 1 otherwise.\n");
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
	printf("ready\n");
	free(version);
	return 0;
}
