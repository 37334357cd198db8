// SPDX-License-Identifier: GPL-2.0
/*
 * test_text.c - unit tests for the text outputs' shared helpers in
 * tools/utils.c: dur_str() (a duration in the unit that reads: ms from
 * 10 ms, us below) and print_wrapped() (lines within TEXT_COLS columns).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/lib/include/utils.h"
#include "tap.h"

/* same - @got is @want, said on failure */
static int same(const char *got, const char *want, const char *what)
{
	int ok = !strcmp(got, want);

	tap_ok(ok, "%s", what);
	if (!ok)
		tap_diag("got '%s', want '%s'", got, want);
	return ok;
}

/* wrapped - what print_wrapped(@text, @indent) prints, to free */
static char *wrapped(const char *text, int indent)
{
	FILE *f = tmpfile();
	int saved;
	char *out;
	long len;

	if (!f)
		abort();
	fflush(stdout);
	saved = dup(1);
	dup2(fileno(f), 1);
	print_wrapped(text, indent);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	len = lseek(fileno(f), 0, SEEK_END);
	out = calloc(1, len + 1);
	if (!out || pread(fileno(f), out, len, 0) != len)
		abort();
	fclose(f);
	return out;
}

/* longest - the longest line of @s, in columns (ASCII) */
static size_t longest(const char *s)
{
	size_t max = 0, n;

	while (*s) {
		n = strcspn(s, "\n");
		if (n > max)
			max = n;
		s += n;
		if (*s)
			s++;
	}
	return max;
}

static void test_dur_str(void)
{
	same(dur_str(265017777, 0), "265.018 ms", "265017777 ns reads 265.018 ms, not 265017.777 us");
	same(dur_str(10e6, 0), "10.000 ms", "10 ms exactly is in ms");
	same(dur_str(9999900, 0), "9999.9 us", "just under 10 ms stays in us");
	same(dur_str(9999960, 0), "10.000 ms", "what would round to 10000.0 us is in ms");
	same(dur_str(1595400, 0), "1595.4 us", "1.6 ms is in us");
	same(dur_str(82, 0), "0.1 us", "82 ns is 0.1 us");
	same(dur_str(0, 0), "0.0 us", "zero is 0.0 us");
	same(dur_str(NAN, 0), "-", "NAN is '-'");
	same(dur_str(-5493670000.0, 0), "-5493.670 ms", "a negative value keeps its sign and its unit by size");
	same(dur_str(-22800, DUR_SIGN), "-22.8 us", "DUR_SIGN: a fall");
	same(dur_str(83670000, DUR_SIGN), "+83.670 ms", "DUR_SIGN: a rise, in ms from 10 ms");
	same(dur_str(199700000, DUR_PER_S), "199.700 ms/s", "DUR_PER_S: time per second");
	/* a ring of buffers: several in one printf */
	{
		const char *a = dur_str(1e3, 0), *b = dur_str(20e6, 0);

		same(a, "1.0 us", "the first of two results is still whole");
		same(b, "20.000 ms", "and the second");
	}
}

static void test_print_wrapped(void)
{
	static const char long_text[] =
		"  TEE ioctls     8021 calls, on-CPU 15.5 % of CPU time; by the 10 threads that "
		"accepted the connections: 8020 calls, 123.675 ms per handshake, 94 % asleep, "
		"63 % in shared-memory set-up";
	char word[160], *out;

	out = wrapped("  short line", 4);
	same(out, "  short line\n", "a line that fits is printed as it is");
	free(out);

	out = wrapped(long_text, 17);
	tap_ok(longest(out) <= TEXT_COLS, "a long paragraph fits %d columns (longest %zu)",
	       TEXT_COLS, longest(out));
	tap_ok(!strncmp(out, "  TEE ioctls     8021 calls,", 28),
	       "its own spacing is kept on the first line");
	tap_ok(strstr(out, "\n                 ") != NULL,
	       "the lines after the first are indented");
	free(out);

	memset(word, 'x', sizeof(word) - 1);
	word[sizeof(word) - 1] = '\0';
	out = wrapped(word, 2);
	tap_ok(strlen(out) == sizeof(word) && out[sizeof(word) - 1] == '\n',
	       "a word longer than a line stays whole");
	free(out);

	/* "45.118 ms" would end at column 101: it moves to the next line whole */
	out = wrapped("  TEE ioctls are the largest part, but not for shared-memory set-up: TEE ioctls 40.009 ms of 45.118 ms (89 %)", 2);
	tap_ok(strstr(out, "\n  ms") == NULL && strstr(out, "\n  45.118 ms (89 %)\n") != NULL,
	       "a number and its unit stay on one line");
	free(out);

	/* "46 %" would break after column 100's "46": it moves whole */
	out = wrapped("  connections wait longest in the accept queue while the threads that accept them wait for a CPU 46 % of that time", 2);
	tap_ok(strstr(out, "\n  % of") == NULL && strstr(out, "\n  46 % of that time\n") != NULL,
	       "a number and its percent sign stay on one line");
	free(out);

	out = wrapped("a\nb", 3);
	same(out, "a\n   b\n", "a newline in the text starts an indented line");
	free(out);
}

/* test_num_str - a number, or "-" for one not measured (never "nan") */
static void test_num_str(void)
{
	same(num_str(0.123, 2), "0.12", "0.123 with 2 decimals");
	same(num_str(NAN, 2), "-", "NAN is \"-\"");
	same(num_str(-NAN, 1), "-", "-NAN too");
}

int main(void)
{
	test_dur_str();
	test_num_str();
	test_print_wrapped();
	return tap_done();
}
