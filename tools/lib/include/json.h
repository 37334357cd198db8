/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - the commands' JSON through json-c: objects and arrays built,
 * then printed once. Strings go in as valid UTF-8 (bytes that are not are
 * U+FFFD), so json-c's escaping makes strict JSON of any file or thread
 * name; a number that is not one (NAN, an infinity) is null, never "nan".
 * Numbers keep the decimals each figure is shown with.
 */
#ifndef TEEPROBE_JSON_H
#define TEEPROBE_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/*
 * A key table: the double members of a struct that go into an object as
 * numbers, each with its key and decimals, in the order they print
 */
struct jfield {
	const char *key;
	size_t offset;		/* of the double in the struct */
	int decimals;
};

#define JFIELD(key, type, member, decimals) \
	{ (key), offsetof(type, member), (decimals) }

struct json_object *jnew(void);
struct json_object *jnew_array(void);
struct json_object *jnumber(double v, int decimals);
struct json_object *jstring(const char *s);
void jset(struct json_object *o, const char *key, struct json_object *v);
void jset_num(struct json_object *o, const char *key, double v, int decimals);
void jset_sig(struct json_object *o, const char *key, double v, int digits);
void jset_int(struct json_object *o, const char *key, long long v);
void jset_str(struct json_object *o, const char *key, const char *s);
void jset_bool(struct json_object *o, const char *key, bool v);
void jset_fields(struct json_object *o, const void *base,
		 const struct jfield *fields, size_t n);
void jappend(struct json_object *array, struct json_object *v);
void jprint(struct json_object *o);

#endif /* TEEPROBE_JSON_H */
