// SPDX-License-Identifier: GPL-2.0
/*
 * teeprobe.c - the teeprobe command: dispatch to a subcommand, trace-cmd
 * style ("teeprobe record", "teeprobe report", ...).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "teeprobe.h"
#include "utils.h"

struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "analyze", analyze_main, "the diagnosis: which link of the chain is to blame" },
	{ "check",  check_main,  "check that the module, debugfs and tracefs are ready" },
	{ "compare", compare_main, "the before/after table of two recorded sessions" },
	{ "plot",   plot_main,   "SVG timeline and histograms of a recorded session" },
	{ "record", record_main, "record a session into a trace.dat (with trace-cmd)" },
	{ "report", report_main, "summarise a recorded trace.dat" },
	{ "stat",   stat_main,   "the chain's rates live, a line per interval" },
	{ NULL, NULL, NULL }
};

/* usage - the top-level help */
static void usage(FILE *out)
{
	const struct subcommand *sc;

	fprintf(out,
		"usage: teeprobe [--debug] COMMAND [OPTIONS]\n"
		"       teeprobe --help | --version\n\n"
		"Measures the chain TEE ioctl blocking -> NET_RX softirq\n"
		"starvation -> slow TCP handshakes, with teeprobe.ko loaded.\n\n"
		"commands:\n");
	for (sc = subcommands; sc->name; sc++)
		fprintf(out, "  %-8s %s\n", sc->name, sc->summary);
	fprintf(out, "\n'teeprobe COMMAND --help' describes each command.\n");
}

/* main - parse global options, then run the named subcommand */
int main(int argc, char **argv)
{
	const struct subcommand *sc;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			printf("teeprobe %s\n", TEEPROBE_VERSION);
			return 0;
		}
		if (!strcmp(argv[i], "--debug")) {
			config_debug = true;
			continue;
		}
		err_msg("unknown option '%s'\n", argv[i]);
		usage(stderr);
		return 2;
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	for (sc = subcommands; sc->name; sc++)
		if (!strcmp(argv[i], sc->name))
			return sc->main(argc - i, argv + i);
	err_msg("unknown command '%s' (see teeprobe --help)\n", argv[i]);
	return 2;
}
