// SPDX-License-Identifier: GPL-2.0
/*
 * test_watch_state.c - unit tests for tools/watch_state.c, the status file
 * a running watch keeps for "teeprobe stat --prometheus" and the sweep:
 * what is written reads back the same, and a file that is not a watch's
 * (a stray line, a negative or non-numeric count, no pid) is refused.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/include/watch_state.h"
#include "tap.h"

/* format - watch_status_format of @st into a string (the caller frees it) */
static char *format(const struct watch_status *st)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	watch_status_format(f, st);
	fclose(f);
	return text;
}

static void test_round_trip(void)
{
	struct watch_status st, back;
	char *text;

	watch_status_init(&st);
	st.pid = 4242;
	st.started = 1796496698.638;
	snprintf(st.dir, sizeof(st.dir), "/var/lib/teeprobe/watch");
	st.window_ms = 1000;
	st.run_windows = 3;
	st.ring_s = 30;
	st.after_s = 10;
	st.cooldown_s = 600;
	st.keep = 10;
	st.ring_kb = 4096;
	st.set[WATCH_HANDSHAKE_P99] = true;
	st.threshold[WATCH_HANDSHAKE_P99] = 10e6;
	st.value[WATCH_HANDSHAKE_P99] = 250054646;
	st.over[WATCH_HANDSHAKE_P99] = 34;
	st.breaches[WATCH_HANDSHAKE_P99] = 2;
	st.set[WATCH_TEE_BLOCKED] = true;
	st.threshold[WATCH_TEE_BLOCKED] = 0.9;
	st.windows = 35;
	st.captures = 1;
	st.skipped_cooldown = 1;
	st.last_breach = 1796496737.526;
	snprintf(st.last_file, sizeof(st.last_file), "/var/lib/teeprobe/watch/a b.dat");
	snprintf(st.last_verdict, sizeof(st.last_verdict), "tee-blocking");
	text = format(&st);
	tap_ok(watch_status_parse(text, &back), "a status written parses");
	tap_ok(back.pid == 4242 && back.window_ms == 1000 && back.run_windows == 3 &&
	       back.keep == 10 && back.ring_kb == 4096 && back.cooldown_s == 600,
	       "... its settings read back");
	tap_ok(back.set[WATCH_HANDSHAKE_P99] && back.threshold[WATCH_HANDSHAKE_P99] == 10e6 &&
	       back.value[WATCH_HANDSHAKE_P99] == 250054646 &&
	       back.over[WATCH_HANDSHAKE_P99] == 34 && back.breaches[WATCH_HANDSHAKE_P99] == 2,
	       "... the handshake threshold, last value and counts");
	tap_ok(back.set[WATCH_TEE_BLOCKED] && back.threshold[WATCH_TEE_BLOCKED] == 0.9 &&
	       isnan(back.value[WATCH_TEE_BLOCKED]) && !back.set[WATCH_NETRX_P99],
	       "... a threshold without a value yet, and none where none was set");
	tap_ok(back.windows == 35 && back.captures == 1 && back.skipped_cooldown == 1 &&
	       fabs(back.last_breach - 1796496737.526) < 1e-3,
	       "... the counters and the last breach");
	tap_ok(!strcmp(back.last_file, "/var/lib/teeprobe/watch/a b.dat") &&
	       !strcmp(back.last_verdict, "tee-blocking") &&
	       !strcmp(back.dir, "/var/lib/teeprobe/watch"),
	       "... the file (a space in it), the verdict and the directory");
	free(text);
}

static void test_refused(void)
{
	struct watch_status st;

	tap_ok(!watch_status_parse("pid 12\nwindows\n", &st), "a line without a value is refused");
	tap_ok(!watch_status_parse("pid 12\ncaptures -1\n", &st), "a negative count is refused");
	tap_ok(!watch_status_parse("pid 12\ncaptures many\n", &st), "a word for a count is refused");
	tap_ok(!watch_status_parse("windows 3\n", &st), "a status without its pid is refused");
	tap_ok(!watch_status_parse("pid 12\nthreshold nosuch 3\n", &st),
	       "a threshold of an unknown measure is refused");
	tap_ok(watch_status_parse("pid 12\nfuture_key 7\n", &st) && st.pid == 12,
	       "an unknown key with a number (a later teeprobe's) is skipped");
}

int main(void)
{
	test_round_trip();
	test_refused();
	return tap_done();
}
