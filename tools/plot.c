// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - "teeprobe plot": recorded sessions as SVG pictures, the chain
 * over time (TEE -> NET_RX -> TCP handshakes, one panel each on a shared
 * time axis) and the latency histograms of each link (TEE per command).
 *
 * One session gives its own pictures; two (BEFORE AFTER) give a compare
 * with both overlaid on the same axes, or, with --separate, each its own
 * pictures, on the same axes when --same-axes asks. Every series can also
 * go to CSV (--csv). The work is in three steps: views (each session's
 * series, computed once), ranges (over the views that share axes), both
 * in plot_view.c, then the renderers, which only read them: plot_svg.c
 * and plot_csv.c. This file is the command line and the files.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "teeprobe.h"
#include "utils.h"

struct plot_opts {
	const char *prefix, *title;
	bool csv, separate, same_axes;
};

/* plot_usage - help for teeprobe plot */
static void plot_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe plot [-o PREFIX] [-t TEXT] [--csv] [--separate] [--same-axes]\n"
		"                     [-i FILE | FILE | -i BEFORE -i AFTER | BEFORE AFTER]\n\n"
		"Writes two SVG pictures of sessions recorded with 'teeprobe record':\n"
		"  PREFIX-timeline.svg  threads in TEE ioctls, the NET_RX raise->entry\n"
		"                       delay and the TCP handshake time, per window,\n"
		"                       on one time axis\n"
		"  PREFIX-hist.svg      histograms of the TEE ioctl durations per\n"
		"                       command, of the NET_RX delays and of the server\n"
		"                       handshake times\n"
		"Of two sessions: a compare, BEFORE and AFTER overlaid on the same axes.\n\n"
		"  -i, --input FILE    a recorded session (default trace.dat); or FILE;\n"
		"                      twice, or two FILEs, for BEFORE and AFTER\n"
		"  -o, --output PREFIX the pictures' prefix (default FILE without .dat;\n"
		"                      of two sessions AFTER without .dat, then -compare)\n"
		"  -t, --title TEXT    a title above the pictures\n"
		"      --csv           also PREFIX-timeline.csv and PREFIX-hist.csv, every\n"
		"                      series drawn, one row per point\n"
		"      --separate      of two sessions: each its own pictures, not a compare\n"
		"      --same-axes     with --separate: both on the same axis ranges\n");
}

/* plot_open_out - create @path for writing, with a message when it cannot */
FILE *plot_open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		err_msg("plot: cannot write %s: %m\n", path);
	return f;
}

/* plot_close_out - finish @f; 0, or -1 after a message when writing failed */
int plot_close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	if (fclose(f) || bad) {
		err_msg("plot: cannot write %s\n", path);
		return -1;
	}
	printf("teeprobe plot: wrote %s\n", path);
	return 0;
}

/* pictures - PREFIX-timeline.svg and PREFIX-hist.svg (and their CSV) of
 * @nv sessions in one picture each, on @g's axes; 0 or -1
 */
static int pictures(const char *prefix, struct plot_view *const *v, size_t nv,
		    const struct plot_ranges *g, const struct plot_opts *o)
{
	char *path = xzalloc(strlen(prefix) + sizeof("-timeline.svg"));
	int rc = 0;

	sprintf(path, "%s-timeline.svg", prefix);
	rc |= plot_svg_timeline(path, v, nv, g, o->title);
	sprintf(path, "%s-hist.svg", prefix);
	rc |= plot_svg_hist(path, v, nv, g, o->title);
	if (o->csv) {
		rc |= plot_csv_write(prefix, "timeline", v, nv);
		rc |= plot_csv_write(prefix, "hist", v, nv);
	}
	free(path);
	return rc ? -1 : 0;
}

/* default_prefix - @input without .dat, then @tail */
static char *default_prefix(const char *input, const char *tail)
{
	size_t len = strlen(input);
	char *s = xzalloc(len + strlen(tail) + 1);

	memcpy(s, input, len);
	if (len > 4 && !strcmp(s + len - 4, ".dat"))
		s[len - 4] = '\0';
	strcat(s, tail);
	return s;
}

/* plot_main - entry point of teeprobe plot */
int plot_main(int argc, char **argv)
{
	enum { OPT_CSV = 256, OPT_SEPARATE, OPT_SAME_AXES };
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "output", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "separate", no_argument, NULL, OPT_SEPARATE },
		{ "same-axes", no_argument, NULL, OPT_SAME_AXES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct plot_view views[PLOT_MAX_VIEWS] = { { 0 } }, *v[PLOT_MAX_VIEWS];
	const char *in_opt[PLOT_MAX_VIEWS + 1] = { NULL };
	struct plot_opts o = { 0 };
	struct plot_ranges g;
	size_t nv = 0, nr_opt = 0, j;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, "i:o:t:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (nr_opt == PLOT_MAX_VIEWS) {
				err_msg("plot: -i %s is a third session; plot takes one, or BEFORE and AFTER\n",
					optarg);
				return usage_error("plot", plot_usage);
			}
			in_opt[nr_opt++] = optarg;
			break;
		case 'o':
			o.prefix = optarg;
			break;
		case 't':
			o.title = optarg;
			break;
		case OPT_CSV:
			o.csv = true;
			break;
		case OPT_SEPARATE:
			o.separate = true;
			break;
		case OPT_SAME_AXES:
			o.same_axes = true;
			break;
		case 'h':
			plot_usage(stdout);
			return 0;
		default:
			return usage_error("plot", plot_usage);
		}
	}
	if (nr_opt == 2 || argc - optind == 2) {
		if (nr_opt && optind < argc) {
			err_msg("plot: give the sessions as -i BEFORE -i AFTER or as BEFORE AFTER, not both\n");
			return usage_error("plot", plot_usage);
		}
		views[0].input = nr_opt ? in_opt[0] : argv[optind];
		views[1].input = nr_opt ? in_opt[1] : argv[optind + 1];
		views[0].label = "before";
		views[1].label = "after";
		nv = 2;
	} else {
		views[0].input = "trace.dat";
		if (input_arg("plot", in_opt[0], argc, argv, optind, &views[0].input))
			return usage_error("plot", plot_usage);
		views[0].label = "session";
		nv = 1;
	}
	if ((o.separate || o.same_axes) && nv == 1) {
		err_msg("plot: --separate and --same-axes are for two sessions, BEFORE AFTER\n");
		return usage_error("plot", plot_usage);
	}
	if (o.same_axes && !o.separate) {
		err_msg("plot: --same-axes goes with --separate (a compare always has them)\n");
		return usage_error("plot", plot_usage);
	}
	if (o.prefix && !*o.prefix) {
		err_msg("plot: the output prefix is empty\n");
		return 2;
	}
	for (j = 0; j < nv; j++) {
		v[j] = &views[j];
		if (plot_view_build(v[j])) {
			rc = 1;
			goto out;
		}
	}

	if (nv == 1 || !o.separate) {
		char *prefix = o.prefix ? xstrdup(o.prefix) :
			       default_prefix(v[nv - 1]->input, nv > 1 ? "-compare" : "");

		plot_ranges_build(&g, v, nv, true);
		rc = pictures(prefix, v, nv, &g, &o) ? 1 : 0;
		free(prefix);
		goto out;
	}
	if (o.same_axes)
		plot_ranges_build(&g, v, nv, false);
	for (j = 0; j < nv; j++) {
		char *prefix;

		if (o.prefix) {
			prefix = xzalloc(strlen(o.prefix) + 8);
			sprintf(prefix, "%s-%s", o.prefix, v[j]->label);
		} else {
			prefix = default_prefix(v[j]->input, "");
		}
		if (!o.same_axes)
			plot_ranges_build(&g, &v[j], 1, true);
		if (pictures(prefix, &v[j], 1, &g, &o))
			rc = 1;
		free(prefix);
	}
out:
	for (j = 0; j < nv; j++)
		plot_view_free(&views[j]);
	return rc;
}
