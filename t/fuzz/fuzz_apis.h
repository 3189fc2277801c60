/*
 * fuzz_apis.h -- what the harnesses of the APIs' parsers
 * (src/links/import/apis.h: fuzz_shlink.c, fuzz_kutt.c, fuzz_bitly.c)
 * hold every item to: an id always; a create body, an object with a
 * target_url and only the fields an import maps, each of its type, a
 * title lz takes (at most 500 characters, no control character); or
 * else a code and a message saying why not.
 */
#ifndef FUZZ_APIS_H
#define FUZZ_APIS_H

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "import/import.h"

static const char *const fuzz_api_fields[] = { "target_url", "title",
    "tags", "domain", "expires_at", "max_clicks", "archived", NULL };

static void
fuzz_api_item(struct import_item *it, const char *code, const char *msg,
    void *arg)
{
	const char	*key, *p;
	json_t		*v, *t;
	size_t		 i, k, chars = 0;

	(*(long *)arg)++;
	if (it->id == NULL || it->total_clicks < -1 || it->created_at < 0)
		abort();
	if (it->body == NULL) {
		if (code == NULL || msg == NULL)
			abort();
		return;
	}
	if (!json_is_object(it->body) || !json_is_string(json_object_get(
	    it->body, "target_url")))
		abort();
	json_object_foreach(it->body, key, v) {
		for (i = 0; fuzz_api_fields[i] != NULL; i++)
			if (strcmp(key, fuzz_api_fields[i]) == 0)
				break;
		if (fuzz_api_fields[i] == NULL)
			abort();
		if (strcmp(key, "tags") == 0) {
			if (!json_is_array(v) || json_array_size(v) == 0)
				abort();
			json_array_foreach(v, k, t)
				if (!json_is_string(t))
					abort();
		} else if (strcmp(key, "max_clicks") == 0) {
			if (!json_is_integer(v) || json_integer_value(v) <= 0)
				abort();
		} else if (strcmp(key, "archived") == 0) {
			if (!json_is_true(v))
				abort();
		} else if (!json_is_string(v))
			abort();
	}
	if ((p = json_string_value(json_object_get(it->body, "title"))) !=
	    NULL) {
		if (*p == '\0' || *p == ' ')
			abort();
		for (; *p != '\0'; p++) {
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				abort();
			chars += ((unsigned char)*p & 0xc0) != 0x80;
		}
		if (chars > 500)
			abort();
	}
}

#endif
