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
#include <stdlib.h>
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
	bool duration;		/* in ns, printed by dur_str() */
};

/*
 * The JSON's version: 2 since its values are in the units their keys name
 * (ns, a share of 1, percent for _pct; format 1 had the text's us, ms and
 * percent shares under the same keys); 3 since the server's TCP phases are
 * syn_accept_ns (handshake_ns before), the client's handshake as the server
 * sees it client_handshake_ns, and packets_per_run napi's count per run
 * (the NICs' rate per run before)
 */
#define COMPARE_JSON_FORMAT	3

/* compare - the two sessions' summaries, what both renderers read */
struct compare {
	const char *file[2];			/* before, after */
	const char *label[2];	/* the files as the text names them */
	struct session_summary sum[2];
	const char *note[2];	/* why a session's counters are left out */
};

#define ROW(n, k, f, sc) { n, k, offsetof(struct session_summary, f), sc, false }
#define DUR(n, k, f) { n, k, offsetof(struct session_summary, f), 1, true }

static const struct row rows[] = {
	ROW("%system", "system_pct", system_pct, 1),
	ROW("%softirq", "softirq_pct", softirq_pct, 1),
	ROW("NET_RX softirqs/s", "netrx_per_s", netrx_per_s, 1),
	ROW("NIC rx packets/s", "rx_packets_per_s", rx_packets_per_s, 1),
	ROW("packets per NET_RX run", "packets_per_run", packets_per_run, 1),
	DUR("NET_RX inline p99", "inline_delay_p99_ns", inline_delay_p99_ns),
	ROW("NET_RX by ksoftirqd %", "ksoftirqd_share", ksoftirqd_share, 100),
	ROW("TEE calls/s", "tee_calls_per_s", tee_calls_per_s, 1),
	ROW("TEE blocked %", "tee_blocked_share", tee_blocked_share, 100),
	DUR("TEE call mean", "tee_mean_ns", tee_mean_ns),
	DUR("TEE time per handshake", "tee_per_hs_ns", tee_per_hs_ns),
	ROW("handshakes/s", "handshakes_per_s", handshakes_per_s, 1),
	/* the case's handshake (a client's), as far as the server sees it */
	DUR("client handshake, server part", "client_handshake_ns",
	    client_handshake_ns),
	/* the server's TCP phases alone: more connections per second queue longer */
	DUR("SYN->accept mean", "syn_accept_ns", syn_accept_ns),
	DUR("SYN->SYN/ACK mean", "syn_synack_ns", syn_synack_ns),
	DUR("SYN/ACK->ACK mean", "synack_ack_ns", synack_ack_ns),
	DUR("ACK->accept mean", "ack_accept_ns", ack_accept_ns),
	DUR("connect mean", "connect_ns", connect_ns),
};

/*
 * The parts whose per-second totals follow throughput: each also per
 * handshake, so that a run serving more handshakes per second does not
 * read as one that does worse. The summary holds a count's rate per
 * second, and a duration's mean per handshake.
 */
struct rate_row {
	const char *name;
	size_t offset;		/* in struct session_summary */
	bool duration;		/* a mean per handshake in ns; else a rate per s */
};

#define RATE(n, f, d) { n, offsetof(struct session_summary, f), d }

static const struct rate_row rate_rows[] = {
	RATE("NET_RX softirqs", netrx_per_s, false),
	RATE("NIC rx packets", rx_packets_per_s, false),
	RATE("TEE calls", tee_calls_per_s, false),
	RATE("TEE ioctl time", tee_per_hs_ns, true),
	RATE("SYN->accept time", syn_accept_ns, true),
	RATE("SYN->SYN/ACK", syn_synack_ns, true),
	RATE("SYN/ACK->ACK", synack_ack_ns, true),
	RATE("ACK->accept", ack_accept_ns, true),
};

/* throughput changed when handshakes/s moved by more than this factor */
#define THROUGHPUT_CHANGED	1.1

/* compare_usage - help for teeprobe compare */
static void compare_usage(FILE *out)
{
	fprintf(out,
		"usage: teeprobe compare [--json] BEFORE AFTER | -i BEFORE -i AFTER\n\n"
		"Prints the case's before/after table from two sessions recorded\n"
		"with 'teeprobe record': %%system, %%softirq, NET_RX softirqs/s,\n"
		"NIC rx packets/s, packets per NET_RX run, the NET_RX delay, TEE\n"
		"calls/s, their blocked share and mean, handshakes/s, a client's\n"
		"handshake as far as the server sees it (its SYN's NET_RX wait,\n"
		"SYN->accept and the TEE time per handshake) and the mean of each\n"
		"of the server's TCP phases, each with the change (after - before)\n"
		"and the ratio\n"
		"(after / before). '-' marks a figure a session does not have.\n"
		"Then the parts that follow throughput (NET_RX, TEE, the TCP\n"
		"phases) per handshake and per second side by side, and why a\n"
		"part moved when the handshakes per second changed. Durations\n"
		"are in ms from 10 ms, in us below; --json keeps ns.\n");
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

/* ratio_str - "1.23x", or "-" where there is no ratio */
static const char *ratio_str(double a, double b, char *buf, size_t len)
{
	if (isnan(a) || isnan(b) || a == 0)
		return "-";
	snprintf(buf, len, "%.2fx", b / a);
	return buf;
}

/* compare_rows - the before/after table, values as printed, "-" where one is missing */
static void compare_rows(const struct compare *cmp)
{
	double a, b;
	size_t i;

	printf("%-30s %14s %14s %14s %9s\n", "", "before", "after", "change",
	       "ratio");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		a = value(&cmp->sum[0], &rows[i]);
		b = value(&cmp->sum[1], &rows[i]);
		printf("%-30s", rows[i].name);
		if (rows[i].duration) {
			printf(" %14s %14s %14s", dur_str(a, 0), dur_str(b, 0),
			       dur_str(b - a, DUR_SIGN));
		} else {
			if (isnan(a))
				printf(" %14s", "-");
			else
				printf(" %14.2f", a);
			if (isnan(b))
				printf(" %14s", "-");
			else
				printf(" %14.2f", b);
			if (isnan(a) || isnan(b))
				printf(" %14s", "-");
			else
				printf(" %+14.2f", b - a);
		}
		a = raw(&cmp->sum[0], &rows[i]);
		b = raw(&cmp->sum[1], &rows[i]);
		if (isnan(a) || isnan(b) || a == 0)
			printf(" %9s\n", "-");
		else
			printf(" %8.2fx\n", b / a);
	}
}

/* rate_str - a per-handshake or per-second figure of a rate row */
static const char *rate_str(const struct rate_row *r, double v, bool per_s)
{
	static char buf[4][32];
	static int next;
	char *out;

	if (r->duration)
		return dur_str(v, per_s ? DUR_PER_S : 0);
	if (isnan(v))
		return "-";
	out = buf[next];
	next = (next + 1) % 4;
	snprintf(out, sizeof(buf[0]), "%.2f", v);
	return out;
}

/*
 * compare_throughput - the parts that follow throughput per handshake and
 * per second, and why they moved when the handshakes per second changed
 */
static void compare_throughput(const struct compare *cmp)
{
	const char *moved[ARRAY_SIZE(rate_rows)];
	double hs[2], per_hs[2], per_s[2], hs_ratio, rh, rs;
	size_t i, k, nr_moved = 0;
	char r1[32], r2[32], *why;
	bool rose;
	FILE *f;
	size_t len;
	int c;

	for (c = 0; c < 2; c++)
		hs[c] = cmp->sum[c].handshakes_per_s;
	if (isnan(hs[0]) || isnan(hs[1]) || hs[0] <= 0 || hs[1] <= 0)
		return;
	hs_ratio = hs[1] / hs[0];
	printf("\nPer handshake and per second (handshakes/s: before %.2f, after %.2f, %.2fx)\n",
	       hs[0], hs[1], hs_ratio);
	printf("%-22s %12s %12s %7s %14s %14s %7s\n", "", "before/hs", "after/hs",
	       "ratio", "before/s", "after/s", "ratio");
	for (i = 0; i < ARRAY_SIZE(rate_rows); i++) {
		const struct rate_row *r = &rate_rows[i];

		for (c = 0; c < 2; c++) {
			double v = *(const double *)((const char *)&cmp->sum[c] +
						     r->offset);

			per_hs[c] = r->duration ? v : v / hs[c];
			per_s[c] = r->duration ? v * hs[c] : v;
		}
		printf("%-22s %12s %12s %7s %14s %14s %7s\n", r->name,
		       rate_str(r, per_hs[0], false), rate_str(r, per_hs[1], false),
		       ratio_str(per_hs[0], per_hs[1], r1, sizeof(r1)),
		       rate_str(r, per_s[0], true), rate_str(r, per_s[1], true),
		       ratio_str(per_s[0], per_s[1], r2, sizeof(r2)));
		rh = per_hs[1] / per_hs[0];
		rs = per_s[1] / per_s[0];
		/* moved one way per second and the other way per handshake */
		if (isfinite(rh) && isfinite(rs) && (rh - 1) * (rs - 1) < 0)
			moved[nr_moved++] = r->name;
	}
	rose = hs_ratio >= THROUGHPUT_CHANGED;
	if (!nr_moved || (!rose && hs_ratio > 1 / THROUGHPUT_CHANGED))
		return;
	why = NULL;
	f = open_memstream(&why, &len);
	if (!f)
		fatal("out of memory\n");
	fprintf(f, "(the after run serves %.2fx the handshakes per second of the before run: per second its ",
		hs_ratio);
	for (k = 0; k < nr_moved; k++)
		fprintf(f, "%s%s", k == 0 ? "" : k == nr_moved - 1 ? " and " : ", ",
			moved[k]);
	fprintf(f, " %s, while per handshake they %s)", rose ? "rise" : "fall",
		rose ? "fall" : "rise");
	fclose(f);
	print_wrapped(why, 1);
	free(why);
}

/* compare_text - the table, the per-handshake figures, the files */
static void compare_text(const struct compare *cmp)
{
	int c;

	compare_rows(cmp);
	compare_throughput(cmp);
	printf("(before: %s, %.1f s; after: %s, %.1f s)\n", tstr(cmp->label[0]),
	       cmp->sum[0].seconds, tstr(cmp->label[1]), cmp->sum[1].seconds);
	for (c = 0; c < 2; c++)
		if (cmp->note[c])
			printf("(%s: %s: its module counters are left out, \"-\")\n",
			       c ? "after" : "before", cmp->note[c]);
}

/*
 * compare_labels - the files as the text names them: their base names, or
 * with the directory above when the base names are the same (the lab's
 * runs are all trace.dat), never a host's or a guest's absolute path
 */
static void compare_labels(struct compare *cmp)
{
	const char *base[2], *p;
	int c, slashes;

	for (c = 0; c < 2; c++) {
		p = strrchr(cmp->file[c], '/');
		base[c] = p ? p + 1 : cmp->file[c];
	}
	for (c = 0; c < 2; c++) {
		cmp->label[c] = base[c];
		if (strcmp(base[0], base[1]) || base[c] == cmp->file[c])
			continue;
		/* back to the slash before the directory's name */
		p = base[c] - 1;
		slashes = 0;
		while (p > cmp->file[c] && slashes < 1) {
			p--;
			if (*p == '/')
				slashes++;
		}
		cmp->label[c] = *p == '/' ? p + 1 : p;
	}
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
	compare_labels(&cmp);
	if (json)
		compare_json(&cmp);
	else
		compare_text(&cmp);
	return 0;
}
