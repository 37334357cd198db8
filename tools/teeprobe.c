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
	{ "watch",  watch_main,  "a flight recorder: capture and analyse when handshakes go slow" },
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
	fprintf(out, "\n'teeprobe help COMMAND' (or 'teeprobe COMMAND --help') describes each\ncommand.\n");
}

/* find - the subcommand called @name, NULL if none */
static const struct subcommand *find(const char *name)
{
	const struct subcommand *sc;

	for (sc = subcommands; sc->name; sc++)
		if (!strcmp(name, sc->name))
			return sc;
	return NULL;
}

/* help - "teeprobe help [COMMAND]": the command's --help, or the overview */
static int help(int argc, char **argv)
{
	char *args[] = { NULL, "--help", NULL };
	const struct subcommand *sc;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	sc = find(argv[1]);
	if (!sc || argc > 2) {
		err_msg("help: %s '%s' (see teeprobe --help)\n",
			sc ? "unexpected argument" : "no such command",
			argv[sc ? 2 : 1]);
		return 2;
	}
	args[0] = argv[1];
	return sc->main(2, args);
}

/* main - parse global options, then run the named subcommand */
int main(int argc, char **argv)
{
	static char name[64];
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
	if (!strcmp(argv[i], "help"))
		return help(argc - i, argv + i);
	sc = find(argv[i]);
	if (sc) {
		/* getopt's messages then say "teeprobe report: ..." */
		snprintf(name, sizeof(name), "teeprobe %s", sc->name);
		command_name = sc->name;
		argv[i] = name;
		return sc->main(argc - i, argv + i);
	}
	err_msg("unknown command '%s' (see teeprobe --help)\n", argv[i]);
	return 2;
}
