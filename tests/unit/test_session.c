// SPDX-License-Identifier: GPL-2.0
/*
 * test_session.c - unit tests for the session reader (tools/session.c,
 * tools/readguard.c) and what report prints of it: the session that the
 * reading child hands over through a pipe is the session this process
 * reads itself (printed, summarised, and event by event), on the recorded
 * trace.dat files of the fuzz corpus; a short or inconsistent hand-over is
 * refused; damaged files give no session and leave this process alive.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../tools/lib/include/delta.h"
#include "../../tools/lib/include/figures.h"
#include "../../tools/lib/readguard.h"
#include "../../tools/lib/zpages.h"
#include "../../tools/report.h"
#include "../../tools/lib/include/session.h"
#include "../../tools/lib/include/utils.h"
#include "tap.h"

#ifndef TEST_CORPUS
#define TEST_CORPUS "../fuzz/corpus/fuzz_trace"
#endif

/* slurp - what is in @fd from its start, NUL-terminated; its length */
static char *slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	char *buf = malloc(end + 1);

	if (!buf || end < 0 || pread(fd, buf, end, 0) != end)
		abort();
	buf[end] = '\0';
	*len = end;
	return buf;
}

/*
 * printed_as - what "teeprobe report" prints for @r (@json: --json), of a
 * file named @input; or (@r NULL) for the file @input read streaming, as
 * the command reads it
 */
static char *printed_as(const struct session *r, const char *input, bool json)
{
	struct report_opts o = { .input = input, .json = json,
				 .hist = true, .header = true };
	int fd = fileno(tmpfile()), saved = dup(1);
	size_t len;
	char *text;

	fflush(stdout);
	dup2(fd, 1);
	if (r)
		report_print(r, &o);
	else if (report_file(&o))
		printf("report_file() failed\n");
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	text = slurp(fd, &len);
	close(fd);
	return text;
}

/* printed - what "teeprobe report" prints for @r (@json: --json) */
static char *printed(const struct session *r, bool json)
{
	return printed_as(r, "x.dat", json);
}

/* handed_over - @r as session_put() writes it; its length in @len */
static char *handed_over(const struct session *r, size_t *len)
{
	int fd = fileno(tmpfile());
	char *buf;

	if (!session_put(fd, r))
		abort();
	buf = slurp(fd, len);
	close(fd);
	return buf;
}

/* take - session_take() on the first @len bytes of @buf; true if accepted */
static bool take(const char *buf, size_t len)
{
	struct session *r = xzalloc(sizeof(*r));
	int fd = fileno(tmpfile());
	bool ok;

	if (pwrite(fd, buf, len, 0) != (ssize_t)len)
		abort();
	lseek(fd, 0, SEEK_SET);
	ok = session_take(fd, r);
	close(fd);
	session_free(r);
	return ok;
}

/* same_tee, same_netrx, same_hs - one event, field by field (not padding) */
static bool same_tee(const struct tee_call *a, const struct tee_call *b)
{
	return a->end_ns == b->end_ns && a->dur_ns == b->dur_ns &&
	       a->offcpu_ns == b->offcpu_ns && a->runq_ns == b->runq_ns &&
	       a->queue_wait_ns == b->queue_wait_ns && a->ret == b->ret &&
	       a->cmd == b->cmd && a->cpu == b->cpu && a->tid == b->tid &&
	       a->setup == b->setup && a->setup_once == b->setup_once &&
	       a->invoke == b->invoke;
}

static bool same_netrx(const struct netrx_win *a, const struct netrx_win *b)
{
	return a->cpu == b->cpu && a->start_ns == b->start_ns &&
	       a->len_ns == b->len_ns && a->raises == b->raises &&
	       a->runs == b->runs && a->ksoftirqd_runs == b->ksoftirqd_runs &&
	       a->run_ns == b->run_ns && a->packets == b->packets &&
	       a->reraises == b->reraises && a->inline_n == b->inline_n &&
	       a->inline_sum_ns == b->inline_sum_ns &&
	       a->inline_p99_ns == b->inline_p99_ns &&
	       a->ksoftirqd_n == b->ksoftirqd_n &&
	       a->ksoftirqd_sum_ns == b->ksoftirqd_sum_ns &&
	       a->ksoftirqd_p99_ns == b->ksoftirqd_p99_ns &&
	       a->late_ns == b->late_ns && a->late_known == b->late_known &&
	       a->tee_runs == b->tee_runs && a->tee_sum_ns == b->tee_sum_ns;
}

static bool same_hs(const struct hs_event *a, const struct hs_event *b)
{
	return a->ts == b->ts && a->tid == b->tid && a->client == b->client &&
	       a->syn_synack_ns == b->syn_synack_ns &&
	       a->synack_ack_ns == b->synack_ack_ns &&
	       a->ack_accept_ns == b->ack_accept_ns &&
	       a->connect_ns == b->connect_ns &&
	       a->connect_call_ns == b->connect_call_ns;
}

/* same_events - the two reports kept the same events for analyze/plot */
static bool same_events(const struct session_events *a,
			const struct session_events *b)
{
	size_t i;

	if (a->ntee != b->ntee || a->nnetrx != b->nnetrx || a->nhs != b->nhs)
		return false;
	for (i = 0; i < a->ntee; i++)
		if (!same_tee(&a->tee[i], &b->tee[i]))
			return false;
	for (i = 0; i < a->nnetrx; i++)
		if (!same_netrx(&a->netrx[i], &b->netrx[i]))
			return false;
	for (i = 0; i < a->nhs; i++)
		if (!same_hs(&a->hs[i], &b->hs[i]))
			return false;
	return true;
}

/* test_file - the hand-over of @name, against a read in this process */
static void test_file(const char *name)
{
	struct session_summary sa, sb;
	struct session *a, *b;
	char path[4096], *ta, *tb, *stream;
	size_t len, cut;
	bool ok;
	int json;

	snprintf(path, sizeof(path), "%s/%s", TEST_CORPUS, name);
	a = session_read(path);
	session_read_in_parent(true);
	b = session_read(path);
	session_read_in_parent(false);
	if (!tap_ok(a && b, "%s: read by the child and in this process", name)) {
		session_free(a);
		session_free(b);
		return;
	}
	tap_diag("%s: %llu teeprobe events, %zu TEE calls, %zu NET_RX windows, %zu handshakes",
		 name, a->teeprobe_events, a->ev.ntee, a->ev.nnetrx, a->ev.nhs);
	for (json = 0; json < 2; json++) {
		ta = printed(a, json);
		tb = printed(b, json);
		tap_ok(!strcmp(ta, tb) && strlen(ta) > 100,
		       "%s: the handed-over report prints the same%s (%zu bytes)",
		       name, json ? " as JSON" : "", strlen(ta));
		free(ta);
		free(tb);
	}
	/* the command streams: its tallies from the child, no event kept */
	for (json = 0; json < 2; json++) {
		ta = printed_as(a, path, json);
		tb = printed_as(NULL, path, json);
		tap_ok(!strcmp(ta, tb) && strlen(ta) > 100,
		       "%s: the streamed report prints the same%s as the kept events'",
		       name, json ? " as JSON" : "");
		free(ta);
		free(tb);
	}
	figures_summarize(a, &sa);
	figures_summarize(b, &sb);
	tap_ok(!memcmp(&sa, &sb, sizeof(sa)), "%s: the same summary", name);
	tap_ok(same_events(&a->ev, &b->ev) && a->ev.nnetrx && a->ev.nhs &&
	       (a->ev.ntee || !strstr(name, "tee")),
	       "%s: the same events for analyze and plot", name);

	stream = handed_over(a, &len);
	tap_ok(take(stream, len), "%s: a hand-over of %zu bytes is taken whole",
	       name, len);
	/* every length up to 256, around the struct's end, then a stride */
	ok = true;
	for (cut = 0; cut < len; cut += cut < 256 ? 1 : 4093)
		ok = ok && !take(stream, cut);
	for (cut = sizeof(*a) - 8; cut < sizeof(*a) + 256 && cut < len; cut++)
		ok = ok && !take(stream, cut);
	tap_ok(ok && !take(stream, len - 1),
	       "%s: shorter hand-overs are refused", name);
	free(stream);
	session_free(a);
	session_free(b);
}

/* test_inconsistent - counts that do not fit what was sent are refused */
static void test_inconsistent(void)
{
	char path[4096], *stream;
	struct session *r, *h;
	size_t len;

	snprintf(path, sizeof(path), "%s/stall-small.dat", TEST_CORPUS);
	r = session_read(path);
	if (!tap_ok(r != NULL, "stall-small.dat read for the hand-over tests"))
		return;
	stream = handed_over(r, &len);
	h = (struct session *)stream;	/* the struct comes first, as it is */

	h->nr_cmds = SESSION_MAX_CMDS + 1;
	tap_ok(!take(stream, len), "a command count past SESSION_MAX_CMDS is refused");
	h->nr_cmds = r->nr_cmds;
	h->nr_threads = SESSION_MAX_THREADS + 1;
	tap_ok(!take(stream, len), "a thread count past SESSION_MAX_THREADS is refused");
	h->nr_threads = r->nr_threads;
	h->nr_kinds = -1;
	tap_ok(!take(stream, len), "a negative kind count is refused");
	h->nr_kinds = r->nr_kinds;
	h->nr_cmds = r->nr_cmds;
	h->snap[1].nr = SNAP_MAX_SOURCES + 1;
	tap_ok(!take(stream, len), "a snapshot source count past the array is refused");
	h->snap[1].nr = r->snap[1].nr;
	h->ev.ntee = SIZE_MAX / 8;
	tap_ok(!take(stream, len), "an event count whose size overflows is refused");
	h->ev.ntee = 1ULL << 40;
	tap_ok(!take(stream, len), "an event count of 2^40 (more than the memory) is refused");
	h->ev.ntee = r->ev.ntee;
	h->ev.nhs = r->ev.nhs + 1;
	tap_ok(!take(stream, len), "one event more than was sent is refused");
	h->ev.nhs = r->ev.nhs;
	tap_ok(take(stream, len), "... and restored, the hand-over is taken");
	stream = realloc(stream, len + 1);
	tap_ok(!take(stream, len + 1), "a byte past the end is refused");
	free(stream);
	session_free(r);
}

/* test_damaged - files the libraries crash or loop on give no report */
static void test_damaged(void)
{
	static const char *const names[] = {
		"regress-kbuffer-crash.dat", "regress-endless-page.dat",
		"regress-libtraceevent-crash.dat", "regress-damaged-instance.dat",
		"magic-garbage.dat", "light-trunc-4k.dat",
		"regress-double-free.dat", "regress-many-cpus.dat",
		"regress-open-loop.dat",
	};
	char path[4096];
	size_t i;
	int mode;

	for (mode = 0; mode < 2; mode++) {
		session_read_in_parent(mode);
		for (i = 0; i < ARRAY_SIZE(names); i++) {
			snprintf(path, sizeof(path), "%s/%s", TEST_CORPUS, names[i]);
			tap_ok(!session_read(path), "%s: no report%s, and no crash",
			       names[i], mode ? " (read again in this process)" : "");
		}
	}
	session_read_in_parent(false);
}

/* test_last_child - what the reading child ended with, as the fuzzer sees it */
static void test_last_child(void)
{
	char path[4096];
	struct session *r;
	int status = -1;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", TEST_CORPUS, "tee-small.dat");
	r = session_read(path);
	pid = readguard_last_child(&status);
	tap_ok(r && pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status),
	       "tee-small.dat: its reading child %d exited 0", (int)pid);
	session_free(r);
	snprintf(path, sizeof(path), "%s/%s", TEST_CORPUS, "regress-kbuffer-crash.dat");
	r = session_read(path);
	pid = readguard_last_child(&status);
	tap_ok(!r && pid > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	       "regress-kbuffer-crash.dat: its reading child %d died of SIGSEGV (status %#x)",
	       (int)pid, status);
	snprintf(path, sizeof(path), "%s/%s", TEST_CORPUS, "no-such-file.dat");
	r = session_read(path);
	pid = readguard_last_child(&status);
	tap_ok(!r && !pid, "a missing file: no reading child");
}

/* child_cpu_s - the CPU time (user + system) of this process's waited-for children */
static double child_cpu_s(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru))
		abort();
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/*
 * test_stall - the reading child's guard ends a child that loops without a
 * record after the CPU time readguard_set_stall() gives it: SIGPROF, well
 * before the default READGUARD_STALL_S s
 */
static void test_stall(void)
{
	char path[4096];
	struct session *r;
	char said[512];
	int status = -1, saved;
	double cpu;
	FILE *msg;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", TEST_CORPUS, "regress-open-loop.dat");
	msg = tmpfile();
	saved = dup(STDERR_FILENO);
	if (!msg || saved < 0)
		abort();
	fflush(stderr);
	dup2(fileno(msg), STDERR_FILENO);
	readguard_set_stall(200);
	cpu = child_cpu_s();
	r = session_read(path);
	cpu = child_cpu_s() - cpu;
	pid = readguard_last_child(&status);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(msg);
	said[fread(said, 1, sizeof(said) - 1, msg)] = 0;
	fclose(msg);
	tap_ok(!r && pid > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGPROF,
	       "regress-open-loop.dat: its reading child died of SIGPROF (status %#x)",
	       status);
	tap_ok(strstr(said, "was stopped, it made no progress in its CPU time (0.2 s to open the file, 0.2 s between records)") != NULL,
	       "... and the message says the guard stopped it, with its times");
	readguard_set_stall(0);
	tap_ok(cpu < READGUARD_STALL_S / 2.0,
	       "... after %.2f s of CPU with a 200 ms guard (the default: %d s)",
	       cpu, READGUARD_STALL_S);
	tap_ok(readguard_stall_ms() == READGUARD_STALL_S * 1000 &&
	       readguard_open_budget(1800 * 1024) != readguard_open_budget(0),
	       "readguard_set_stall(0) restores %d s (and the size-scaled open)",
	       READGUARD_STALL_S);
	/* opening: READGUARD_STALL_S, and READGUARD_OPEN_S_PER_MB more per MB, capped */
	tap_ok(readguard_open_budget(0) == READGUARD_STALL_S * 1000,
	       "opening an empty file may take %d s", READGUARD_STALL_S);
	tap_ok(readguard_open_budget(1800 * 1024) == 22578,
	       "... a 1.8 MB one (7.2's kallsyms inside) 22578 ms: %u",
	       readguard_open_budget(1800 * 1024));
	tap_ok(readguard_open_budget(1ULL << 40) == READGUARD_OPEN_S * 1000,
	       "... a 1 TB one at most %d s", READGUARD_OPEN_S);
}

/*
 * test_phase_line - a port's phase that tcp_stats has no line for has no
 * phase (report reads it as zeros): the numbers of the line read before it
 * (a phantom connect_call row in report when the module counted no
 * connect() call) are not kept
 */
static void test_phase_line(void)
{
	const struct modstats_phase *p;
	struct snapshot s = { 0 };

	snapshot_add_line(&s, "tcp_stats", "# cpu port syns");
	snapshot_add_line(&s, "tcp_stats", "all 7000 20");
	snapshot_add_line(&s, "tcp_stats", "# port phase count sum_ns max_ns p50_ns p99_ns");
	snapshot_add_line(&s, "tcp_stats", "phase 7000 syn_synack 20 4000 500 128 511");
	snapshot_add_line(&s, "tcp_stats", "phase 7000 ack_accept 10 9000 2000 1024 2047");
	tap_ok(!modstats_phase(&s, "7000", TEEPROBE_TCP_CONNECT_CALL),
	       "phase line: a phase without a line has none");
	tap_ok(!modstats_phase(&s, "7001", TEEPROBE_TCP_SYN_SYNACK),
	       "phase line: a port without a line has none");
	p = modstats_phase(&s, "7000", TEEPROBE_TCP_SYN_SYNACK);
	tap_ok(p && p->count == 20 && p->sum_ns == 4000 && p->max_ns == 500,
	       "phase line: a present phase reads its own numbers");
	snapshot_free(&s);
}

/*
 * test_threads_overflow - calls of threads beyond those the report keeps
 * are said, in text and JSON, never dropped silently: the calls of
 * tee-small.dat, then one call of each of as many new threads as fill the
 * report's table and 7 more
 */
static void test_threads_overflow(void)
{
	char path[4096], *text, *json;
	struct session *r;
	int seen = 0, extra, tid, i;
	size_t e, j;

	snprintf(path, sizeof(path), "%s/%s", TEST_CORPUS, "tee-small.dat");
	r = session_read(path);
	if (!tap_ok(r != NULL && r->ev.ntee, "threads overflow: tee-small.dat read"))
		return;
	/* the threads the file's calls come from */
	for (e = 0; e < r->ev.ntee; e++) {
		for (j = 0; j < e; j++)
			if (r->ev.tee[j].tid == r->ev.tee[e].tid)
				break;
		seen += j == e;
	}
	extra = SESSION_MAX_THREADS - seen + 7;
	r->ev.tee = realloc(r->ev.tee, (r->ev.ntee + extra) * sizeof(*r->ev.tee));
	if (!r->ev.tee)
		abort();
	for (i = 0, tid = 1000000; i < extra; i++, tid++) {
		r->ev.tee[r->ev.ntee] = r->ev.tee[0];
		r->ev.tee[r->ev.ntee++].tid = tid;
	}
	r->ev.cap_tee = r->ev.ntee;
	text = printed(r, false);
	json = printed(r, true);
	tap_ok(strstr(text, "(7 calls of threads beyond the 1024 this report keeps") != NULL,
	       "threads overflow: the text says how many calls were beyond the table");
	tap_ok(strstr(json, "\"threads_overflow\":7") != NULL,
	       "threads overflow: so does the JSON");
	free(text);
	free(json);
	session_free(r);
}

/*
 * test_late_windows - the NET_RX windows a module says it closed late
 * (late_ns over a quarter of the window) are counted and said; a file whose
 * events have no late_ns says nothing of it
 */
static void test_late_windows(void)
{
	char path[4096], *text, *json, want[128];
	unsigned long long late = 0;
	struct session *r;
	size_t e;

	snprintf(path, sizeof(path), "%s/%s", TEST_CORPUS, "stall-small.dat");
	r = session_read(path);
	if (!tap_ok(r != NULL && r->ev.nnetrx > 3, "late windows: stall-small.dat read"))
		return;
	text = printed(r, false);
	json = printed(r, true);
	tap_ok(!strstr(text, "closed late") && !strstr(json, "windows_late"),
	       "late windows: an earlier module's events say nothing of them");
	free(text);
	free(json);
	/* every third window late, by 30 % of its length; one by a quarter only */
	for (e = 0; e < r->ev.nnetrx; e++) {
		struct netrx_win *w = &r->ev.netrx[e];

		w->late_known = true;
		w->late_ns = e == 1 ? w->len_ns / 4 : e % 3 ? 0 : w->len_ns * 3 / 10;
		late += w->late_ns > w->len_ns / 4;
	}
	text = printed(r, false);
	json = printed(r, true);
	snprintf(want, sizeof(want), "%llu of %zu NET_RX windows closed late", late,
		 r->ev.nnetrx);
	tap_ok(strstr(text, want) != NULL, "late windows: the text says '%s'", want);
	snprintf(want, sizeof(want), "\"windows_late\":%llu", late);
	tap_ok(strstr(json, want) != NULL, "late windows: the JSON says %s", want);
	free(text);
	free(json);
	session_free(r);
}

/*
 * test_setup_once - which set-up calls are one-time: a thread's before its
 * first INVOKE, and all of a thread without one. Calls out of time order,
 * as the per-CPU buffers give them.
 */
static void test_setup_once(void)
{
	/* tid 1 registers once (hard-reg); tid 2 before each call (hard-temp) */
	struct tee_call c[] = {
		{ .tid = 1, .end_ns = 300, .dur_ns = 50, .invoke = true },
		{ .tid = 2, .end_ns = 120, .dur_ns = 10, .setup = true },
		{ .tid = 1, .end_ns = 100, .dur_ns = 20, .setup = true },
		{ .tid = 2, .end_ns = 150, .dur_ns = 20, .invoke = true },
		{ .tid = 2, .end_ns = 170, .dur_ns = 10, .setup = true },
		{ .tid = 2, .end_ns = 200, .dur_ns = 20, .invoke = true },
		{ .tid = 1, .end_ns = 400, .dur_ns = 50, .invoke = true },
		{ .tid = 3, .end_ns = 500, .dur_ns = 10, .setup = true },
		{ .tid = 2, .end_ns = 600, .dur_ns = 10, .setup = true },
		/* an INVOKE starts where the set-up ended: still before it */
		{ .tid = 4, .end_ns = 700, .dur_ns = 10, .setup = true },
		{ .tid = 4, .end_ns = 750, .dur_ns = 50, .invoke = true },
	};
	static const bool once[] = {
		false, true, true, false, false, false, false, true, false,
		true, false,
	};
	struct session_events ev = { .tee = c, .ntee = sizeof(c) / sizeof(c[0]) };
	size_t i;
	bool ok = true;

	session_mark_setup_once(&ev);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		if (c[i].setup_once != once[i]) {
			tap_diag("call %zu (tid %d, end %llu): once %d, wanted %d", i,
				 c[i].tid, c[i].end_ns, c[i].setup_once, once[i]);
			ok = false;
		}
	tap_ok(ok, "set-up before a thread's first INVOKE, or of a thread with none, is one-time; after it, per call");
}

/*
 * test_zpages - a compressed session read with its decompressed pages
 * given back as they are read (zpages.c) gives the same events as read
 * with them kept; where the library keeps them (libtracecmd 1.3, 1.4),
 * all but one memory page where two of its 10-page buffers meet goes back
 */
static void test_zpages(void)
{
	unsigned long long back, read;
	struct session *a, *b;

	session_read_in_parent(true);
	zpages_set_enabled(false);
	a = session_read(TEST_BENCH_SESSION);
	zpages_set_enabled(true);
	back = zpages_given_back();
	read = zpages_read();
	b = session_read(TEST_BENCH_SESSION);
	back = zpages_given_back() - back;
	read = zpages_read() - read;
	session_read_in_parent(false);
	tap_ok(a && b && a->ev.nacc > 100000 && same_events(&a->ev, &b->ev),
	       "lab-hard-temp-1000.dat: the same %zu events with its pages given back",
	       a ? a->ev.nacc + a->ev.ntee + a->ev.nhs + a->ev.nnetrx : 0);
	if (zpages_library_keeps())
		tap_ok(read > (1 << 20) && back >= read / 10 * 8,
		       "... %llu of the %llu bytes of pages read given back (at least 80 %%)",
		       back, read);
	else
		tap_ok(!back, "... none given back: this libtracecmd frees its own");
	session_free(a);
	session_free(b);
}

int main(void)
{
	/* the messages of the damaged files are not this test's output */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	test_zpages();
	test_file("stall-small.dat");
	test_file("light-small.dat");
	test_file("light-small-v6.dat");
	test_file("tee-small.dat");
	test_inconsistent();
	test_damaged();
	test_last_child();
	test_stall();
	test_phase_line();
	test_threads_overflow();
	test_late_windows();
	test_setup_once();
	return tap_done();
}
