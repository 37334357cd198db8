// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - "teeprobe report": summarise a trace.dat recorded with the
 * teeprobe events, read with libtracecmd and libtraceevent.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "module.h"
#include "teeprobe.h"
#include "utils.h"

#define MAX_EVENT_KINDS 64

struct event_count {
	int id;
	const char *name;
	unsigned long long count;
};

struct report {
	struct event_count kinds[MAX_EVENT_KINDS];
	int nr_kinds;
	unsigned long long teeprobe_events;
	unsigned long long other_events;
	unsigned long long missed_events;
	unsigned long long first_ts, last_ts;
};

/* report_usage - help for teeprobe report */
static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe report [-i FILE] [-h]\n\n"
		"  -i, --input FILE   trace.dat to read (default: trace.dat)\n\n"
		"Counts the teeprobe events of a recording per event, with the\n"
		"time span and the events the ring buffer lost.\n");
}

/* count_record - callback for every record of the file */
static int count_record(struct tracecmd_input *handle, struct tep_record *record,
			int cpu, void *data)
{
	struct tep_handle *tep = tracecmd_get_tep(handle);
	struct report *r = data;
	struct tep_event *event;
	int i, id;

	(void)cpu;
	if (record->missed_events > 0)
		r->missed_events += record->missed_events;
	id = tep_data_type(tep, record);
	event = tep_find_event(tep, id);
	if (!event || !event->system || strcmp(event->system, TEEPROBE_SYSTEM)) {
		r->other_events++;
		return 0;
	}
	if (!r->teeprobe_events || record->ts < r->first_ts)
		r->first_ts = record->ts;
	if (record->ts > r->last_ts)
		r->last_ts = record->ts;
	r->teeprobe_events++;
	for (i = 0; i < r->nr_kinds; i++) {
		if (r->kinds[i].id == id) {
			r->kinds[i].count++;
			return 0;
		}
	}
	if (r->nr_kinds < MAX_EVENT_KINDS) {
		r->kinds[r->nr_kinds].id = id;
		r->kinds[r->nr_kinds].name = event->name;
		r->kinds[r->nr_kinds].count = 1;
		r->nr_kinds++;
	}
	return 0;
}

/* report_main - entry point of teeprobe report */
int report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *input = "trace.dat";
	struct tracecmd_input *handle;
	struct report *r;
	struct stat st;
	int c, i;

	while ((c = getopt_long(argc, argv, "i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'h':
			report_usage(stdout);
			return 0;
		default:
			report_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		err_msg("report: unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (stat(input, &st) < 0) {
		err_msg("report: cannot open %s: %s\n", input, strerror(errno));
		return 1;
	}
	if (!S_ISREG(st.st_mode)) {
		err_msg("report: %s is not a regular file\n", input);
		return 1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	handle = tracecmd_open(input, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle) {
		err_msg("report: %s is not a readable trace.dat (truncated, or "
			"not written by trace-cmd)\n", input);
		return 1;
	}
	r = xzalloc(sizeof(*r));
	if (tracecmd_iterate_events(handle, NULL, 0, count_record, r) < 0) {
		err_msg("report: error while reading the events of %s\n", input);
		tracecmd_close(handle);
		free(r);
		return 1;
	}
	if (!r->teeprobe_events) {
		err_msg("report: %s holds no teeprobe events (%llu other events); "
			"record with 'trace-cmd record -e teeprobe'\n",
			input, r->other_events);
		tracecmd_close(handle);
		free(r);
		return 1;
	}
	printf("file: %s\n", input);
	printf("teeprobe events: %llu over %.6f s\n", r->teeprobe_events,
	       (r->last_ts - r->first_ts) / 1e9);
	for (i = 0; i < r->nr_kinds; i++)
		printf("  %-32s %llu\n", r->kinds[i].name, r->kinds[i].count);
	printf("other events: %llu\n", r->other_events);
	printf("lost events: %llu\n", r->missed_events);
	tracecmd_close(handle);
	free(r);
	return 0;
}
