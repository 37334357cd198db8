// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the commands' JSON through json-c (see json.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "utils.h"

/* jcheck - a json-c object, or the end: json-c returns NULL when out of memory */
static struct json_object *jcheck(struct json_object *o)
{
	if (!o)
		fatal("out of memory\n");
	return o;
}

/* jnew - an empty object */
struct json_object *jnew(void)
{
	return jcheck(json_object_new_object());
}

/* jnew_array - an empty array */
struct json_object *jnew_array(void)
{
	return jcheck(json_object_new_array());
}

/* jnumber - @v with @decimals decimals, or null (NULL) when not a number */
struct json_object *jnumber(double v, int decimals)
{
	char text[64];

	if (isnan(v) || isinf(v))
		return NULL;
	snprintf(text, sizeof(text), "%.*f", decimals, v);
	/* "-0" is a number, but reads as a mistake */
	if (!strcmp(text, "-0"))
		snprintf(text, sizeof(text), "0");
	return jcheck(json_object_new_double_s(v, text));
}

/* jnumber_sig - @v with @digits significant digits, or null when not a number */
static struct json_object *jnumber_sig(double v, int digits)
{
	char text[64];

	if (isnan(v) || isinf(v))
		return NULL;
	snprintf(text, sizeof(text), "%.*g", digits, v);
	return jcheck(json_object_new_double_s(v, text));
}

/* jstring - @s as a JSON string (valid UTF-8), or null for NULL */
struct json_object *jstring(const char *s)
{
	struct json_object *o;
	char *clean;

	if (!s)
		return NULL;
	clean = utf8_clean(s);
	o = jcheck(json_object_new_string(clean));
	free(clean);
	return o;
}

/* jset - member @key of @o is @v (NULL: null) */
void jset(struct json_object *o, const char *key, struct json_object *v)
{
	if (json_object_object_add(o, key, v))
		fatal("out of memory\n");
}

/* jset_num - member @key is @v with @decimals decimals, null when not a number */
void jset_num(struct json_object *o, const char *key, double v, int decimals)
{
	jset(o, key, jnumber(v, decimals));
}

/* jset_sig - member @key is @v with @digits significant digits, or null */
void jset_sig(struct json_object *o, const char *key, double v, int digits)
{
	jset(o, key, jnumber_sig(v, digits));
}

/* jset_int - member @key is the integer @v */
void jset_int(struct json_object *o, const char *key, long long v)
{
	jset(o, key, jcheck(json_object_new_int64(v)));
}

/* jset_str - member @key is the string @s (null for NULL) */
void jset_str(struct json_object *o, const char *key, const char *s)
{
	jset(o, key, jstring(s));
}

/* jset_bool - member @key is true or false */
void jset_bool(struct json_object *o, const char *key, bool v)
{
	jset(o, key, jcheck(json_object_new_boolean(v)));
}

/* jset_fields - the @n members of @base that key table @fields names, in its order */
void jset_fields(struct json_object *o, const void *base,
		 const struct jfield *fields, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		jset_num(o, fields[i].key,
			 *(const double *)((const char *)base + fields[i].offset),
			 fields[i].decimals);
}

/* jappend - @v (NULL: null) at the end of @array */
void jappend(struct json_object *array, struct json_object *v)
{
	if (json_object_array_add(array, v))
		fatal("out of memory\n");
}

/* jprint - @o on standard output, one line, then released */
void jprint(struct json_object *o)
{
	const char *text = json_object_to_json_string_ext(o,
		JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	if (!text)
		fatal("out of memory\n");
	printf("%s\n", text);
	json_object_put(o);
}
