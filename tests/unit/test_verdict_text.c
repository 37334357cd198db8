// SPDX-License-Identifier: GPL-2.0
/*
 * test_verdict_text.c - every cause of "teeprobe analyze" as a person
 * reads it: an analysis made up for each cause is printed by
 * tools/analyze_text.c, and tests/integration/verdictcheck.py (the checker
 * the integration tests run on every analyze output) must find its title
 * and why in agreement with the evidence printed beside them. Copies with
 * one number of the title or why changed must fail it: the checker can
 * fail.
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../tools/analyze.h"
#include "tap.h"

#define US	1e3
#define MS	1e6
#define N_MADE(a)	(sizeof(a) / sizeof((a)[0]))

#ifndef VERDICTCHECK
#define VERDICTCHECK "../integration/verdictcheck.py"
#endif

/* One made-up session: what the acceptors did, and the evidence */
struct made {
	const char *name;
	enum verdict_cause cause;
	struct evidence e;
	double aq[NR_AQ_PARTS];		/* acceptors' time while connections waited */
	double r_tee_netrx;
};

/* split_of - where TEE time went (struct tee_split): NAN secure, not timed */
static struct tee_split split_of(double setup, double asleep, double oncpu,
			    double queue, double secure, double driver)
{
	double work = isnan(setup) ? NAN : 1 - setup - queue;

	return (struct tee_split){
		.setup = setup, .setup_asleep = asleep, .setup_oncpu = oncpu,
		.queue = queue, .work = work, .secure = secure,
		.driver = isnan(secure) ? NAN : driver,
	};
}

/* base - 1000 handshakes of about 1 ms, nothing wrong */
static struct evidence base(void)
{
	return (struct evidence){
		.handshakes = 1000,
		.netrx_wait_ns = 50 * US,
		.syn_synack_ns = 100 * US,
		.synack_ack_ns = 500 * US,
		.ack_accept_ns = 300 * US,
		.syn_wait_ns = 40 * US,
		.ack_wait_ns = 60 * US,
		.tee_per_hs_ns = 0,
		.tee_blocked_share = NAN,
		.tee = split_of(NAN, NAN, NAN, NAN, NAN, NAN),
		.tee_oncpu_share = 0.01,
		.ksoftirqd_share = 0.1,
		.tee_wait_share = 0.02,
		.r_tee_netrx = NAN,
	};
}

/* render - @m's analysis as text into @path; false if it cannot */
static bool render(struct made *m, const char *path)
{
	static struct cpu_row cpus[2] = {
		{ .runs_share = 0.5, .packets = 4000, .wait_mean_ns = 300 * US,
		  .tee_oncpu_share = 0.1, .r = 0.12 },
		/* a CPU without packets: "-", never "nan" */
		{ .runs_share = NAN, .packets = 0, .wait_mean_ns = NAN,
		  .tee_oncpu_share = NAN, .r = NAN },
	};
	struct analyze_opts o = { .input = "made-up.dat" };
	struct analysis a = { 0 };
	struct accept_evidence *x = &a.e.acc;
	double tee;
	int p, fd, out;

	verdict_default_opts(&o.v);
	a.e = m->e;
	/* the accept queue's split, and the shares the verdict reads from it */
	a.q.thread_ns = 1e9;
	a.q.acceptors = 2;
	a.q.states = true;
	for (p = 0; p < NR_AQ_PARTS; p++) {
		a.q.part_ns[p] = m->aq[p] * 1e9;
		a.aq_share[p] = m->aq[p];
	}
	tee = m->aq[AQ_TEE_ONCPU] + m->aq[AQ_TEE_RUNNABLE] + m->aq[AQ_TEE_ASLEEP];
	x->tee = tee;
	x->tee_asleep = tee > 0 ? m->aq[AQ_TEE_ASLEEP] / tee : NAN;
	x->runnable = m->aq[AQ_RUNNABLE] + m->aq[AQ_TEE_RUNNABLE];
	x->running = m->aq[AQ_RUNNING];
	x->asleep = m->aq[AQ_ASLEEP];
	x->unknown = m->aq[AQ_UNKNOWN];
	if (!(tee > 0))
		x->split = split_of(NAN, NAN, NAN, NAN, NAN, NAN);
	a.e.r_tee_netrx = m->r_tee_netrx;
	a.links[LINK_TEE_NETRX] = (struct link){
		.name = "TEE on-CPU time -> NET_RX delay (same CPU)",
		.best = { .r = m->r_tee_netrx, .lag = 0, .n = 40 },
		.rank = m->r_tee_netrx };
	a.links[LINK_NETRX_HS] = (struct link){
		.name = "NET_RX delay -> SYN->accept time",
		.best = { .r = NAN, .n = 3 }, .rank = NAN };
	a.links[LINK_TEE_HS] = (struct link){
		.name = "TEE ioctl time -> SYN->accept time",
		.best = { .r = 0.5, .lag = 1, .n = 40 }, .rank = 0.4 };
	a.cpus = cpus;
	a.s.ncpus = 2;
	a.s.n = 40;
	a.s.len_ns = 100 * MS;
	a.seconds = 4;
	a.sum.seconds = 4.123;
	a.sum.tee_calls = 4000;
	a.sum.netrx_per_s = 500;
	a.sum.rx_packets_per_s = 900;
	a.sum.handshakes_per_s = 250;
	a.sum.untracked = 0;
	a.acceptors = 2;
	a.acceptor_calls = 3900;
	a.tee_wait_runs = 120;
	a.secure_timed = !isnan(a.e.tee.secure);
	verdict_decide(&a.e, &o.v, &a.v);
	for (p = 0; p < NR_PARTS; p++)
		a.part_share[p] = a.v.total_ns > 0 ? a.v.part_ns[p] / a.v.total_ns : 0;

	fflush(stdout);
	out = dup(1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || fd < 0)
		return false;
	dup2(fd, 1);
	close(fd);
	analyze_text(&a, &o);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	m->cause = a.v.cause;
	return true;
}

/* check - the checker's verdict on @path: true when it finds it agrees */
static bool check(const char *path)
{
	char cmd[512];
	int rc;

	snprintf(cmd, sizeof(cmd), "python3 %s %s >%s.check 2>&1", VERDICTCHECK,
		 path, path);
	rc = system(cmd);
	return rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0;
}

/* show - the checker's messages on @path, as TAP diagnostics */
static void show(const char *path)
{
	char name[300], line[512];
	FILE *f;

	snprintf(name, sizeof(name), "%s.check", path);
	f = fopen(name, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		tap_diag("%s", line);
	}
	if (f)
		fclose(f);
}

/*
 * tamper - a copy of @path at @copy with the first number after @marker
 * on the Verdict line or the why below it moved by @by; false when there
 * is no such number
 */
static bool tamper(const char *path, const char *copy, const char *marker,
		   int by)
{
	char buf[65536], *p, *v, *end;
	size_t n;
	FILE *f = fopen(path, "r");
	long num;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	v = strstr(buf, "\nVerdict: ");
	p = v ? strstr(v, marker) : NULL;
	if (!p)
		return false;
	p += strlen(marker);
	p += strcspn(p, "0123456789");
	num = strtol(p, &end, 10);
	if (end == p)
		return false;
	f = fopen(copy, "w");
	if (!f)
		return false;
	fprintf(f, "%.*s%ld%s", (int)(p - buf), buf, num + by, end);
	fclose(f);
	return true;
}

/*
 * tamper_str - a copy of @path at @copy with the first @from after the
 * Verdict line's start replaced by @to; false when there is none
 */
static bool tamper_str(const char *path, const char *copy, const char *from,
		       const char *to)
{
	char buf[65536], *v, *p;
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	v = strstr(buf, "\nVerdict: ");
	p = v ? strstr(v, from) : NULL;
	if (!p)
		return false;
	f = fopen(copy, "w");
	if (!f)
		return false;
	fprintf(f, "%.*s%s%s", (int)(p - buf), buf, to, p + strlen(from));
	fclose(f);
	return true;
}

int main(void)
{
	/* words of a verdict changed against its evidence: each must fail */
	static const struct {
		const char *name, *from, *to, *what;
	} words[] = {
		{ "tee-blocking-asleep", "mostly asleep", "mostly on a CPU",
		  "\"mostly on a CPU\" for a set-up 97 % asleep" },
		{ "tee-blocking-neither", "45 % of it asleep",
		  "mostly asleep (45 % of it)", "\"mostly\" of 45 %" },
		{ "tee-blocking-oncpu", "the secure world 40 %",
		  "the secure world 41 %", "a why's split that is not the accept queue's" },
		{ "tee-queue", ", not per-call set-up (1 %)", ", not per-call set-up (12 %)",
		  "\"not per-call set-up\" of 12 %" },
		{ "softirq-cpu-hog", "87 % of it softirqs", "47 % of it softirqs",
		  "ksoftirqd's share not the evidence's" },
		{ "tee-starves-netrx", "and 45 % of it", "and 25 % of it",
		  "a share behind TEE calls under the threshold" },
		{ "tee-work-once", "one-time set-up 35 %", "one-time set-up 5 %",
		  "a why's one-time set-up that is not the evidence's" },
	};
	static struct made m[] = {
		{ .name = "tee-blocking-asleep", .cause = CAUSE_TEE_BLOCKING },
		{ .name = "tee-blocking-oncpu", .cause = CAUSE_TEE_BLOCKING },
		{ .name = "tee-blocking-neither", .cause = CAUSE_TEE_BLOCKING },
		{ .name = "tee-queue", .cause = CAUSE_TEE_QUEUE },
		{ .name = "tee-work", .cause = CAUSE_TEE_WORK },
		{ .name = "tee-work-unsplit", .cause = CAUSE_TEE_WORK },
		{ .name = "tee-driver", .cause = CAUSE_TEE_DRIVER },
		{ .name = "tee-starves-netrx", .cause = CAUSE_TEE_NETRX },
		{ .name = "tee-starves-netrx-r", .cause = CAUSE_TEE_NETRX },
		{ .name = "softirq-cpu-hog", .cause = CAUSE_SOFTIRQ_SCHED },
		{ .name = "softirq-bh-off", .cause = CAUSE_SOFTIRQ_BH },
		{ .name = "network", .cause = CAUSE_NETWORK },
		{ .name = "slow-accept", .cause = CAUSE_ACCEPT },
		{ .name = "accept-cpu-starved", .cause = CAUSE_ACCEPT_CPU },
		{ .name = "kernel-syn", .cause = CAUSE_KERNEL },
		{ .name = "no-problem", .cause = CAUSE_NONE },
		{ .name = "weak-evidence", .cause = CAUSE_WEAK },
		{ .name = "tee-work-once", .cause = CAUSE_TEE_WORK },
	};
	/* an idle acceptor pool: 90 % asleep waiting for work */
	static const double idle[NR_AQ_PARTS] = {
		[AQ_RUNNING] = 0.05, [AQ_RUNNABLE] = 0.05, [AQ_ASLEEP] = 0.9 };
	char dir[] = "/tmp/test_verdict_text.XXXXXX", path[128], copy[160];
	bool seen[NR_CAUSES] = { false };
	enum verdict_cause want;
	size_t i;
	int c, all;

	/* the case: TEE time the largest part, set-up asleep (teesim) */
	m[0].e = base();
	m[0].e.tee_per_hs_ns = 80 * MS;
	m[0].e.tee_blocked_share = 0.94;
	m[0].e.tee = split_of(0.62, 0.97, 0.02, 0.2, 0.12, 0.06);
	/* OP-TEE, 2 workers for 8 clients: the accept queue, set-up on a CPU */
	m[1].e = base();
	m[1].e.ack_accept_ns = 3480 * MS;
	m[1].e.tee_per_hs_ns = 949 * MS;
	m[1].e.tee_blocked_share = 0;
	m[1].e.tee = split_of(0.53, 0, 0.97, 0, 0.41, 0.06);
	m[1].e.acc.split = split_of(0.53, 0, 0.97, 0, 0.40, 0.07);
	m[1].aq[AQ_TEE_ONCPU] = 0.70;
	m[1].aq[AQ_TEE_RUNNABLE] = 0.06;
	m[1].aq[AQ_RUNNING] = 0.14;
	m[1].aq[AQ_ASLEEP] = 0.10;
	/* set-up half asleep, half on a CPU */
	m[2].e = m[0].e;
	m[2].e.tee = split_of(0.62, 0.45, 0.45, 0.2, 0.12, 0.06);
	/* few secure threads: the calls queue */
	m[3].e = base();
	m[3].e.tee_per_hs_ns = 40 * MS;
	m[3].e.tee_blocked_share = 0.8;
	m[3].e.tee = split_of(0.01, 0.5, 0.5, 0.71, 0.2, 0.08);
	/* the fix, a long secure world: through the accept queue */
	m[4].e = m[1].e;
	m[4].e.tee = split_of(0.004, 0.2, 0.8, 0.05, 0.85, 0.096);
	m[4].e.acc.split = split_of(0.004, 0.2, 0.8, 0.05, 0.85, 0.096);
	memcpy(m[4].aq, m[1].aq, sizeof(m[4].aq));
	/* no probe on the secure world's entries */
	m[5].e = m[0].e;
	m[5].e.tee = split_of(0.2, 0.9, 0.1, 0.1, NAN, NAN);
	/* the driver's work */
	m[6].e = m[0].e;
	m[6].e.tee = split_of(0.02, 0.5, 0.5, 0.03, 0.3, 0.65);
	/* NET_RX held back by TEE calls, measured */
	m[7].e = base();
	m[7].e.netrx_wait_ns = 10 * MS;
	m[7].e.syn_wait_ns = 10 * MS;
	m[7].e.ack_wait_ns = 9 * MS;
	m[7].e.synack_ack_ns = 10 * MS;
	m[7].e.tee_wait_share = 0.45;
	m[7].e.ksoftirqd_share = 0.2;
	/* ... by correlation */
	m[8].e = m[7].e;
	m[8].e.tee_wait_share = 0.1;
	m[8].e.tee_oncpu_share = 0.234;
	m[8].r_tee_netrx = 0.62;
	/* ksoftirqd waits for a CPU */
	m[9].e = m[7].e;
	m[9].e.tee_wait_share = 0.05;
	m[9].e.ksoftirqd_share = 0.87;
	/* held off at irq exit, not by the TEE */
	m[10].e = m[7].e;
	m[10].e.tee_wait_share = 0.12;
	m[10].e.ksoftirqd_share = 0.05;
	/* the round trip */
	m[11].e = base();
	m[11].e.synack_ack_ns = 25 * MS;
	/* accepting late: the acceptors run their own code */
	m[12].e = base();
	m[12].e.ack_accept_ns = 40 * MS;
	m[12].e.acc.split = split_of(0.3, 0.5, 0.5, 0.1, 0.5, 0.1);
	m[12].aq[AQ_TEE_ONCPU] = 0.2;
	m[12].aq[AQ_RUNNING] = 0.7;
	m[12].aq[AQ_RUNNABLE] = 0.1;
	/* acceptors waiting for a CPU, a third of their states not known */
	m[13].e = base();
	m[13].e.ack_accept_ns = 40 * MS;
	m[13].aq[AQ_RUNNABLE] = 0.463;
	m[13].aq[AQ_RUNNING] = 0.202;
	m[13].aq[AQ_ASLEEP] = 0.001;
	m[13].aq[AQ_UNKNOWN] = 0.334;
	/* the kernel */
	m[14].e = base();
	m[14].e.syn_synack_ns = 30 * MS;
	/* nothing wrong */
	m[15].e = base();
	/* too few handshakes */
	m[16].e = base();
	m[16].e.handshakes = 5;
	m[16].e.ack_accept_ns = 40 * MS;
	/*
	 * OP-TEE's hard-reg, 8 workers for 4 threads: the registrations as
	 * the workers start hold 35 % of the acceptors' TEE time
	 */
	m[17].e = m[4].e;
	m[17].e.tee.setup = 0;
	m[17].e.tee.setup_once = 0.35;
	m[17].e.tee.secure = 0.45;
	m[17].e.tee.driver = 0.15;
	m[17].e.tee.work = 0.60;
	m[17].e.acc.split = m[17].e.tee;
	memcpy(m[17].aq, m[1].aq, sizeof(m[17].aq));
	for (i = 0; i < N_MADE(m); i++) {
		if (m[i].name == m[1].name || m[i].name == m[17].name || m[i].name == m[4].name ||
		    m[i].name == m[12].name || m[i].name == m[13].name)
			continue;
		memcpy(m[i].aq, idle, sizeof(idle));
	}

	if (!mkdtemp(dir)) {
		tap_ok(0, "a directory for the outputs");
		return tap_done();
	}
	for (i = 0; i < N_MADE(m); i++) {
		want = m[i].cause;
		snprintf(path, sizeof(path), "%s/%s.txt", dir, m[i].name);
		if (!tap_ok(render(&m[i], path) && m[i].cause == want,
			    "%s: the made-up session is judged %s (%s)", m[i].name,
			    verdict_key(want), verdict_key(m[i].cause)))
			continue;
		seen[m[i].cause] = true;
		if (!tap_ok(check(path), "%s: the checker finds the title and why agree with the evidence",
			    m[i].name))
			show(path);
		/* the checker can fail: one number of the verdict moved */
		snprintf(copy, sizeof(copy), "%s/%s-tampered.txt", dir, m[i].name);
		if (tamper(path, copy, "Verdict: ", 1) ||
		    tamper(path, copy, "\n  ", 1))
			tap_ok(!check(copy), "%s: ... and not with a number of the verdict moved by 1",
			       m[i].name);
	}
	for (i = 0; i < N_MADE(words); i++) {
		snprintf(path, sizeof(path), "%s/%s.txt", dir, words[i].name);
		snprintf(copy, sizeof(copy), "%s/%s-words.txt", dir, words[i].name);
		if (tap_ok(tamper_str(path, copy, words[i].from, words[i].to),
			   "%s: \"%s\" is in its verdict", words[i].name, words[i].from))
			tap_ok(!check(copy), "%s: the checker refuses %s", words[i].name,
			       words[i].what);
	}
	all = 1;
	for (c = 0; c < NR_CAUSES; c++)
		all &= seen[c];
	tap_ok(all, "every cause was rendered and checked");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (getenv("KEEP_OUTPUTS"))
		tap_diag("outputs kept in %s", dir);
	else if (system(path))
		tap_diag("could not remove %s", dir);
	return tap_done();
}
