/*
 * jbody.c -- JSON field tables.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jbody.h"
#include "lztime.h"
#include "utf8.h"
#include "util.h"
#include "verr.h"

const char *
lz_json_type_name(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT:	return "object";
	case JSON_ARRAY:	return "array";
	case JSON_STRING:	return "string";
	case JSON_INTEGER:	return "integer";
	case JSON_REAL:		return "number";
	case JSON_TRUE:
	case JSON_FALSE:	return "boolean";
	case JSON_NULL:		return "null";
	}
	return "value";
}

json_t *
lz_json_time(int64_t ms)
{
	char	 buf[32];

	if (ms == 0)
		return json_null();
	lz_time_fmt_iso(ms, buf, sizeof(buf), 0);
	return json_string(buf);
}

json_t *
lz_json_merge_patch(json_t *target, const json_t *patch)
{
	const char	*key;
	json_t		*v;

	if (!json_is_object(patch)) {
		json_decref(target);
		return json_deep_copy(patch);
	}
	if (!json_is_object(target)) {
		json_decref(target);
		target = json_object();
	}
	json_object_foreach((json_t *)(uintptr_t)patch, key, v) {
		if (json_is_null(v))
			json_object_del(target, key);
		else
			json_object_set_new(target, key, lz_json_merge_patch(
			    json_incref(json_object_get(target, key)), v));
	}
	return target;
}

static void
expected(unsigned types, char *buf, size_t len)
{
	static const struct lz_bitname	 tab[] = {
		{ LZ_JT_STRING, "a string" }, { LZ_JT_INTEGER, "an integer" },
		{ LZ_JT_REAL, "a number" }, { LZ_JT_BOOL, "a boolean" },
		{ LZ_JT_OBJECT, "an object" }, { LZ_JT_ARRAY, "an array" },
		{ LZ_JT_NULL, "null" },
	};

	/* An integer is a number: "an integer or a number" says less. */
	if (types & LZ_JT_INTEGER)
		types &= ~(unsigned)LZ_JT_REAL;
	lz_bits_str(types, tab, LZ_NELEM(tab), " or ", buf, len);
}

int
lz_json_fields(const json_t *obj, const struct lz_jfield *f, size_t n,
    const char *prefix, struct lz_verr *e)
{
	const char	*key;
	json_t		*v;
	char		 name[128], exp[96];
	size_t		 i;

	if (prefix == NULL)
		prefix = "";
	json_object_foreach((json_t *)(uintptr_t)obj, key, v) {
		for (i = 0; i < n; i++)
			if (strcmp(f[i].name, key) == 0)
				break;
		snprintf(name, sizeof(name), "%s%s", prefix, key);
		if (i == n) {
			lz_verr_set(e, 400, "unknown_field", name,
			    "Unknown field '%s'.", name);
			return -1;
		}
		if (!(f[i].types & (1u << json_typeof(v)))) {
			expected(f[i].types, exp, sizeof(exp));
			lz_verr_set(e, 400, "invalid_field", name,
			    "'%s' must be %s, not %s.", name, exp,
			    lz_json_type_name(v));
			return -1;
		}
	}
	for (i = 0; i < n; i++)
		if ((f[i].flags & LZ_JF_REQUIRED) &&
		    json_object_get(obj, f[i].name) == NULL) {
			snprintf(name, sizeof(name), "%s%s", prefix, f[i].name);
			lz_verr_set(e, 400, "missing_field", name,
			    "'%s' is required.", name);
			return -1;
		}
	return 0;
}

long
lz_json_chars(const struct lz_jfield *f, const char *s)
{
	char	*tmp, *p;
	long	 n;

	if (!(f->flags & LZ_JF_MULTILINE))
		return lz_utf8_count(s, strlen(s), LZ_UTF8_NOCTRL);
	tmp = xstrdup(s);
	for (p = tmp; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	n = lz_utf8_count(tmp, strlen(tmp), LZ_UTF8_NOCTRL);
	free(tmp);
	return n;
}
