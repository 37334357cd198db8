// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - "teeprobe compare": the case's before/after table from two
 * recorded sessions, with the change and the ratio of every figure.
 */
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "json.h"
#include "session.h"
#include "teeprobe.h"
#include "utils.h"

struct row {
	const char *name;	/* printed */
	const char *key;	/* JSON */
	size_t offset;		/* in struct session_summary */
	double scale;		/* printed value = value * scale; JSON: value */
};

/*
 * The JSON's version: 2 since its values are in the units their keys name
 * (ns, a share of 1, percent for _pct; format 1 had the text's us, ms and
 * percent shares under the same keys)
 */
#define COMPARE_JSON_FORMAT	2

/* compare - the two sessions' summaries, what both renderers read */
struct compare {
	const char *file[2];			/* before, after */
	struct session_summary sum[2];
	const char *note[2];	/* why a session's counters are left out */
};

#define ROW(n, k, f, sc) { n, k, offsetof(struct session_summary, f), sc }

static const struct row rows[] = {
	ROW("%system", "system_pct", system_pct, 1),
	ROW("%softirq", "softirq_pct", softirq_pct, 1),
	ROW("NET_RX softirqs/s", "netrx_per_s", netrx_per_s, 1),
	ROW("NIC rx packets/s", "rx_packets_per_s", rx_packets_per_s, 1),
	ROW("rx packets per NET_RX", "packets_per_run", packets_per_run, 1),
	ROW("NET_RX inline p99 us", "inline_delay_p99_ns", inline_delay_p99_ns, 1e-3),
	ROW("NET_RX by ksoftirqd %", "ksoftirqd_share", ksoftirqd_share, 100),
	ROW("TEE calls/s", "tee_calls_per_s", tee_calls_per_s, 1),
	ROW("TEE blocked %", "tee_blocked_share", tee_blocked_share, 100),
	ROW("TEE call mean us", "tee_mean_ns", tee_mean_ns, 1e-3),
	ROW("TEE ms per handshake", "tee_per_hs_ns", tee_per_hs_ns, 1e-6),
	ROW("handshakes/s", "handshakes_per_s", handshakes_per_s, 1),
	ROW("server handshake mean us", "handshake_ns", handshake_ns, 1e-3),
	ROW("SYN->SYN/ACK mean us", "syn_synack_ns", syn_synack_ns, 1e-3),
	ROW("SYN/ACK->ACK mean us", "synack_ack_ns", synack_ack_ns, 1e-3),
	ROW("ACK->accept mean us", "ack_accept_ns", ack_accept_ns, 1e-3),
	ROW("connect mean us", "connect_ns", connect_ns, 1e-3),
};

/* compare_usage - help for teeprobe compare */
static void compare_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe compare [--json] BEFORE AFTER | -i BEFORE -i AFTER\n\n"
		"Prints the case's before/after table from two sessions recorded\n"
		"with 'teeprobe record': %%system, %%softirq, NET_RX softirqs/s,\n"
		"NIC rx packets/s, the NET_RX delay, TEE calls/s, their blocked\n"
		"share and mean, handshakes/s and the mean of each handshake\n"
		"phase, each with the change (after - before) and the ratio\n"
		"(after / before). '-' marks a figure a session does not have.\n");
}

/* raw - a row's value in a summary, in the unit its key names */
static double raw(const struct session_summary *s, const struct row *r)
{
	return *(const double *)((const char *)s + r->offset);
}

/* value - a row's printed value in a summary */
static double value(const struct session_summary *s, const struct row *r)
{
	return raw(s, r) * r->scale;
}

/* compare_json - the table as one JSON object, the values in their units */
static void compare_json(const struct compare *cmp)
{
	struct json_object *out = jnew(), *list = jnew_array(), *row, *cc;
	double a, b;
	size_t i;

	jset_int(out, "format", COMPARE_JSON_FORMAT);
	jset_str(out, "before", cmp->file[0]);
	jset_str(out, "after", cmp->file[1]);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		a = raw(&cmp->sum[0], &rows[i]);
		b = raw(&cmp->sum[1], &rows[i]);
		row = jnew();
		jset_str(row, "metric", rows[i].key);
		jset_num(row, "before", a, 4);
		jset_num(row, "after", b, 4);
		jset_num(row, "change", b - a, 4);
		jset_num(row, "ratio", a != 0 ? b / a : NAN, 4);
		jappend(list, row);
	}
	jset(out, "rows", list);
	cc = jnew();
	jset_bool(cc, "before", !cmp->note[0]);
	jset_bool(cc, "after", !cmp->note[1]);
	jset(out, "counters_comparable", cc);
	jprint(out);
}

/* compare_text - the table, values as printed, "-" where one is missing */
static void compare_text(const struct compare *cmp)
{
	double a, b;
	size_t i;
	int c;

	printf("%-24s %14s %14s %14s %9s\n", "", "before", "after", "change",
	       "ratio");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		a = value(&cmp->sum[0], &rows[i]);
		b = value(&cmp->sum[1], &rows[i]);
		printf("%-24s", rows[i].name);
		if (isnan(a))
			printf(" %14s", "-");
		else
			printf(" %14.2f", a);
		if (isnan(b))
			printf(" %14s", "-");
		else
			printf(" %14.2f", b);
		if (isnan(a) || isnan(b))
			printf(" %14s %9s\n", "-", "-");
		else if (a == 0)
			printf(" %+14.2f %9s\n", b - a, "-");
		else
			printf(" %+14.2f %8.2fx\n", b - a, b / a);
	}
	printf("(before: %s, %.1f s; after: %s, %.1f s)\n", tstr(cmp->file[0]),
	       cmp->sum[0].seconds, tstr(cmp->file[1]), cmp->sum[1].seconds);
	for (c = 0; c < 2; c++)
		if (cmp->note[c])
			printf("(%s: %s: its module counters are left out, \"-\")\n",
			       c ? "after" : "before", cmp->note[c]);
}

/* compare_main - entry point of teeprobe compare */
int compare_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "input", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct compare cmp = { 0 };
	int nr_opt = 0;
	struct session *r;
	bool json = false;
	int c;

	while ((c = getopt_long(argc, argv, "i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (nr_opt == 2) {
				err_msg("compare: -i comes twice, BEFORE then AFTER: '%s' is a third\n",
					optarg);
				return usage_error("compare", compare_usage);
			}
			cmp.file[nr_opt++] = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			compare_usage(stdout);
			return 0;
		default:
			return usage_error("compare", compare_usage);
		}
	}
	if (nr_opt && optind < argc) {
		err_msg("compare: give the sessions as -i BEFORE -i AFTER or as BEFORE AFTER, not both\n");
		return usage_error("compare", compare_usage);
	}
	if (!nr_opt && argc - optind == 2) {
		cmp.file[0] = argv[optind];
		cmp.file[1] = argv[optind + 1];
	} else if (nr_opt != 2) {
		err_msg("compare: give two recorded sessions, BEFORE and AFTER\n");
		return usage_error("compare", compare_usage);
	}
	for (c = 0; c < 2; c++) {
		r = session_read(cmp.file[c]);
		if (!r)
			return 1;
		figures_summarize(r, &cmp.sum[c]);
		cmp.note[c] = session_counters_note(r);
		session_free(r);
	}
	if (json)
		compare_json(&cmp);
	else
		compare_text(&cmp);
	return 0;
}
