// SPDX-License-Identifier: GPL-2.0
/*
 * test_escape.c - unit tests for tools/utils.c's jstr() and tstr(): the
 * strings teeprobe's JSON and text output carry (file names, task names,
 * interface names) escaped whatever bytes they hold.
 */
#include <string.h>

#include "../../tools/utils.h"
#include "tap.h"

/* same - @got is @want, said on failure */
static int same(const char *got, const char *want, const char *what)
{
	int ok = !strcmp(got, want);

	tap_ok(ok, "%s", what);
	if (!ok)
		tap_diag("got %s, want %s", got, want);
	return ok;
}

int main(void)
{
	const char *a, *b;

	same(jstr("trace.dat"), "\"trace.dat\"", "jstr: a plain name, quoted");
	same(jstr("q\"uo\\te"), "\"q\\\"uo\\\\te\"", "jstr: a quote and a backslash escaped");
	same(jstr("x\n# overflow 99"), "\"x\\u000a# overflow 99\"",
	     "jstr: a newline as \\u000a");
	same(jstr("\t\x01\x1f\x7f"), "\"\\u0009\\u0001\\u001f\\u007f\"",
	     "jstr: every control byte escaped");
	same(jstr("caf\xc3\xa9 \xe2\x82\xac"), "\"caf\xc3\xa9 \xe2\x82\xac\"",
	     "jstr: UTF-8 kept as it is");
	same(jstr("a\xff" "b\xc3"), "\"a\\ufffdb\\ufffd\"",
	     "jstr: bytes that are not UTF-8 (a stray byte, a cut sequence) as U+FFFD");
	same(jstr("\xc0\xaf\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"",
	     "jstr: overlong and surrogate sequences refused byte by byte");
	same(jstr(NULL), "null", "jstr: no string is null");
	a = jstr("one");
	b = jstr("two");
	tap_ok(!strcmp(a, "\"one\"") && !strcmp(b, "\"two\""),
	       "jstr: two results live side by side (one printf)");
	same(tstr("my worker"), "my worker", "tstr: spaces kept");
	same(tstr("x\n# overflow 99"), "x\\x0a# overflow 99",
	     "tstr: a newline as \\x0a: no line of its own");
	same(tstr("a\\b\x1b[31m"), "a\\x5cb\\x1b[31m",
	     "tstr: the backslash and an escape sequence's ESC as \\xHH");
	same(tstr("\xc3\xa9"), "\\xc3\\xa9", "tstr: bytes beyond ASCII as \\xHH");
	return tap_done();
}
