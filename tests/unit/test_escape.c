// SPDX-License-Identifier: GPL-2.0
/*
 * test_escape.c - unit tests for the strings teeprobe's JSON and text
 * output carry (file names, task names, interface names), whatever bytes
 * they hold: tools/json.c's strings and numbers through json-c, read back
 * by json-c's own strict parser, and its key tables (jset_fields());
 * utils.c's utf8_clean() and tstr().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/lib/include/json.h"
#include "../../tools/lib/include/utils.h"
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

/* cleaned - utf8_clean(@s) is @want */
static void cleaned(const char *s, const char *want, const char *what)
{
	char *c = utf8_clean(s);

	same(c, want, what);
	free(c);
}

/*
 * round_trip - {"name": @s} as jprint() writes it has no raw control byte,
 * and json-c's parser reads back utf8_clean(@s)
 */
static void round_trip(const char *s, const char *what)
{
	struct json_object *o = jnew(), *back, *v;
	const char *text;
	char *want = utf8_clean(s);
	bool raw = false;
	size_t i;

	jset_str(o, "name", s);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	for (i = 0; text[i]; i++)
		raw |= (unsigned char)text[i] < 0x20;
	back = json_tokener_parse(text);
	tap_ok(!raw && back && json_object_object_get_ex(back, "name", &v) &&
	       !strcmp(json_object_get_string(v), want), "%s", what);
	if (raw || !back)
		tap_diag("wrote %s", text);
	json_object_put(back);
	json_object_put(o);
	free(want);
}

/* Two numbers of a struct and one of an array in it, for jset_fields() */
struct pair {
	double first, q[3], second;
};

static const struct jfield pair_keys[] = {
	JFIELD("second", struct pair, second, 1),
	JFIELD("first", struct pair, first, 0),
	JFIELD("q_p99", struct pair, q[1], 2),
};

int main(void)
{
	struct pair pair = { 1.4, { 0, 2.0 / 3, 0 }, NAN };
	struct json_object *o;
	const char *text;

	cleaned("trace.dat", "trace.dat", "utf8_clean: ASCII kept");
	cleaned("caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac",
		"utf8_clean: UTF-8 kept as it is");
	cleaned("a\xff" "b\xc3", "a\xef\xbf\xbd" "b\xef\xbf\xbd",
		"utf8_clean: bytes that are not UTF-8 (a stray byte, a cut sequence) as U+FFFD");
	cleaned("\xc0\xaf\xed\xa0\x80",
		"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
		"utf8_clean: overlong and surrogate sequences refused byte by byte");
	round_trip("q\"uo\\te", "JSON: a quote and a backslash read back");
	round_trip("x\n# overflow 99", "JSON: a newline escaped, read back");
	round_trip("\t\x01\x1f\x7f", "JSON: every control byte escaped, read back");
	round_trip("a\xff" "b\xc3/\xe2\x82\xac", "JSON: not UTF-8 reads back as U+FFFD");
	o = jnew();
	jset_str(o, "none", NULL);
	jset_num(o, "nan", NAN, 2);
	jset_num(o, "inf", INFINITY, 2);
	jset_num(o, "two", 2.0 / 3, 2);
	jset_num(o, "zero", -0.0001, 0);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	same(text, "{\"none\":null,\"nan\":null,\"inf\":null,\"two\":0.67,\"zero\":0}",
	     "JSON: no string and no number are null; numbers keep their decimals");
	json_object_put(o);
	o = jnew();
	jset_fields(o, &pair, pair_keys, 3);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	same(text, "{\"second\":null,\"first\":1,\"q_p99\":0.67}",
	     "JSON: a key table's members in its order, with its decimals");
	json_object_put(o);
	same(tstr("my worker"), "my worker", "tstr: spaces kept");
	same(tstr("x\n# overflow 99"), "x\\x0a# overflow 99",
	     "tstr: a newline as \\x0a: no line of its own");
	same(tstr("a\\b\x1b[31m"), "a\\x5cb\\x1b[31m",
	     "tstr: the backslash and an escape sequence's ESC as \\xHH");
	same(tstr("\xc3\xa9"), "\\xc3\\xa9", "tstr: bytes beyond ASCII as \\xHH");
	return tap_done();
}
