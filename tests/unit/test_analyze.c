// SPDX-License-Identifier: GPL-2.0
/*
 * test_analyze.c - unit tests for "teeprobe analyze"'s reading
 * (tools/analyze.c): the analysis of a session read twice with none of
 * its events kept (analysis_read()) is the analysis of the session read
 * with every event kept (analysis_of()), to the bit: its windows, the
 * accept queue's split, the per-handshake parts, and what the text and
 * the JSON print, on the recorded sessions of the fuzz corpus and the
 * bench's.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/analyze.h"
#include "../../tools/lib/include/session.h"
#include "tap.h"

#ifndef TEST_CORPUS
#define TEST_CORPUS "../fuzz/corpus/fuzz_trace"
#endif
#ifndef TEST_BENCH_SESSION
#define TEST_BENCH_SESSION "../../bench/sessions/lab-hard-temp-1000.dat"
#endif

/* printed - what @a prints (JSON or text), NUL-terminated */
static char *printed(const struct analysis *a, const char *input, bool json)
{
	struct analyze_opts o = { .input = input, .json = json, .windows = true };
	FILE *f = tmpfile();
	int saved = dup(1);
	char *buf;
	long end;

	if (!f || saved < 0)
		abort();
	fflush(stdout);
	dup2(fileno(f), 1);
	if (json)
		analyze_json(a, &o);
	else
		analyze_text(a, &o);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	end = ftell(f) > 0 ? ftell(f) : lseek(fileno(f), 0, SEEK_END);
	buf = calloc(1, end + 1);
	if (!buf || pread(fileno(f), buf, end, 0) != end)
		abort();
	fclose(f);
	return buf;
}

/* same_points - @x's windows and @y's, bit for bit */
static bool same_points(const struct series *x, const struct series *y)
{
	size_t cpus = x->ncpus ? x->ncpus : 1;

	return x->t0_ns == y->t0_ns && x->len_ns == y->len_ns &&
	       x->n == y->n && x->ncpus == y->ncpus &&
	       !memcmp(x->all, y->all, x->n * sizeof(*x->all)) &&
	       !memcmp(x->cpu, y->cpu, cpus * x->n * sizeof(*x->cpu));
}

static void test_file(const char *path, const char *name)
{
	struct verdict_opts vo;
	struct analysis kept, streamed;
	struct session *r, *k;
	char *a, *b;
	int p;
	bool same = true;

	verdict_default_opts(&vo);
	if (analysis_read(path, &vo, &streamed, &r)) {
		tap_ok(0, "%s: read twice", name);
		analysis_free(&streamed);
		session_free(r);
		return;
	}
	k = session_read(path);
	if (!k || analysis_of(k, &vo, &kept)) {
		tap_ok(0, "%s: read with every event kept", name);
		return;
	}
#ifdef TEST_FALLBACK
	tap_ok(r->ev.ntee == k->ev.ntee && r->ev.nacc == k->ev.nacc &&
	       r->ev.nhs == k->ev.nhs && r->ev.nnetrx == k->ev.nnetrx &&
	       k->ev.ntee + k->ev.nacc + k->ev.nhs > 0,
	       "%s: the first read's tables ran out: read again, all %zu calls, %zu states and %zu handshakes kept",
	       name, k->ev.ntee, k->ev.nacc, k->ev.nhs);
#else
	tap_ok(r->ev.ntee == 0 && r->ev.nacc == 0 && r->ev.nhs == 0 &&
	       r->ev.nnetrx == 0 && k->ev.ntee + k->ev.nacc + k->ev.nhs > 0,
	       "%s: read twice, none of its %zu calls, %zu states and %zu handshakes kept",
	       name, k->ev.ntee, k->ev.nacc, k->ev.nhs);
#endif
	tap_ok(same_points(&kept.s, &streamed.s),
	       "%s: the same %zu windows on %d CPUs", name, kept.s.n,
	       kept.s.ncpus);
	for (p = 0; p < NR_HP; p++)
		same = same && !memcmp(&kept.hp[p], &streamed.hp[p],
				       sizeof(kept.hp[p]));
	tap_ok(same && !memcmp(&kept.q, &streamed.q,
			       offsetof(struct acceptq, states)) &&
	       kept.q.states == streamed.q.states,
	       "%s: the same accept-queue split (%.17g ns of the threads') and parts per handshake",
	       name, kept.q.thread_ns);
	tap_ok(!memcmp(&kept.e, &streamed.e, sizeof(kept.e)) &&
	       !memcmp(&kept.sum, &streamed.sum, sizeof(kept.sum)),
	       "%s: the same evidence and summary", name);
	a = printed(&kept, path, false);
	b = printed(&streamed, path, false);
	tap_ok(!strcmp(a, b), "%s: the same text (%zu bytes)", name, strlen(a));
	free(a);
	free(b);
	a = printed(&kept, path, true);
	b = printed(&streamed, path, true);
	tap_ok(!strcmp(a, b), "%s: the same JSON (%zu bytes)", name, strlen(a));
	free(a);
	free(b);
	analysis_free(&kept);
	analysis_free(&streamed);
	session_free(k);
	session_free(r);
}

int main(void)
{
	/* the readers' messages are not this test's output */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	test_file(TEST_CORPUS "/tee-small.dat", "tee-small.dat");
	test_file(TEST_CORPUS "/light-small.dat", "light-small.dat");
	test_file(TEST_BENCH_SESSION, "lab-hard-temp-1000.dat");
	return tap_done();
}
