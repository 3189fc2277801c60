/*
 * out.c -- the pieces every prompt library response shares: parameter
 * errors, paging fields, localised text, site URLs, and the 200 with its
 * ETag (or the 304).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lztime.h"
#include "prompts.h"
#include "resp.h"
#include "util.h"

const char *const lang_names[] = { "zh", "en", NULL };

json_t *
out_obj(void)
{
	json_t	*j = json_object();

	json_object_set_new(j, "ok", json_true());
	return j;
}

void
out_body(struct lz_req *r, const char *body, size_t len)
{
	lz_resp_cached(r, "application/json; charset=utf-8", body, len,
	    "public, max-age=60");
}

void
out_ok(struct lz_req *r, json_t *j)
{
	const char	*body;
	size_t		 len;

	body = lz_json_text(j, &len);
	out_body(r, body, len);
	json_decref(j);
}

void
out_dberr(struct lz_req *r)
{
	lz_resp_error(r, 500, "internal_error", NULL,
	    "The prompt library could not be read.");
}

void
out_notfound(struct lz_req *r, const char *what)
{
	lz_resp_error(r, 404, "not_found", NULL,
	    "No published %s has this slug; take a current one from the "
	    "list.", what);
}

void
out_paging(json_t *j, long long limit, long long offset, long long total)
{
	json_object_set_new(j, "limit", json_integer(limit));
	json_object_set_new(j, "offset", json_integer(offset));
	if (offset + limit < total)
		json_object_set_new(j, "next_offset",
		    json_integer(offset + limit));
	else
		json_object_set_new(j, "next_offset", json_null());
}

/* A page under name: {ok, total and showing (or count), paging}. */
static void
page(struct lz_req *r, const char *name, json_t *arr, long long total,
    long long limit, long long offset, int counted)
{
	json_t	*j;

	if (total < 0) {
		json_decref(arr);
		out_dberr(r);
		return;
	}
	j = out_obj();
	if (counted)
		json_object_set_new(j, "count", json_integer(total));
	else {
		json_object_set_new(j, "total", json_integer(total));
		json_object_set_new(j, "showing", json_integer((json_int_t)
		    json_array_size(arr)));
	}
	out_paging(j, limit, offset, total);
	json_object_set_new(j, name, arr);
	out_ok(r, j);
}

void
out_page(struct lz_req *r, const char *name, json_t *arr, long long total,
    long long limit, long long offset)
{
	page(r, name, arr, total, limit, offset, 0);
}

void
out_counted(struct lz_req *r, const char *name, json_t *arr,
    long long count, long long limit, long long offset)
{
	page(r, name, arr, count, limit, offset, 1);
}

void
out_item(struct lz_req *r, int rc, const char *name, json_t *obj)
{
	json_t	*j;

	if (rc < 0)
		out_dberr(r);
	else if (rc == 0)
		out_notfound(r, name);
	else {
		j = out_obj();
		json_object_set_new(j, name, obj);
		out_ok(r, j);
		return;
	}
	json_decref(obj);
}

const char *
out_text(enum lang lang, const char *zh, const char *en)
{
	if (lang == LANG_EN && en != NULL && *en != '\0')
		return en;
	return zh ? zh : "";
}

json_t *
out_url(enum lang lang, const char *section, const char *slug)
{
	char	*s;
	json_t	*j;

	s = xasprintf("%s%s/%s/%s", prompts.conf->prompts_base_url,
	    lang == LANG_EN ? "/en" : "", section, slug);
	j = json_string(s);
	free(s);
	return j;
}

json_t *
out_time(int64_t ms)
{
	char	 buf[32];

	lz_time_fmt_iso(ms, buf, sizeof(buf), 0);
	return json_string(buf);
}

json_t *
out_json_array(const char *stored)
{
	json_t	*j;

	j = stored ? json_loads(stored, 0, NULL) : NULL;
	if (!json_is_array(j)) {
		json_decref(j);
		j = json_array();
	}
	return j;
}
