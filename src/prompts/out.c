/*
 * out.c -- the pieces every prompt library response shares: parameter
 * errors, paging fields, localised text, site URLs, and the 200 with its
 * ETag (or the 304).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "lztime.h"
#include "prompts.h"
#include "pstore.h"
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

#define CTYPE	"application/json; charset=utf-8"
#define CCONTROL "public, max-age=60"

void
out_body(struct lz_req *r, const char *body, size_t len)
{
	char	 etag[LZ_ETAG_SIZE];

	if (!prompts.ckey_pending) {
		lz_resp_cached(r, CTYPE, body, len, CCONTROL);
		return;
	}
	prompts.ckey_pending = 0;
	lz_resp_etag(body, len, etag);
	cache_put(prompts.ckey.p, prompts.ckey.len, body, len, etag);
	lz_resp_tagged(r, CTYPE, body, len, CCONTROL, etag);
}

void
out_uncache(void)
{
	cache_clear();
	prompts.visible_from = prompts.visible_until = 0;
}

/* Clears the cache when the visible prompts may differ from those of
 * the cached answers: a scheduled prompt became visible since (or the
 * clock went back).  -1 when that cannot be known. */
static int
visible_same(int64_t now)
{
	int64_t	 next;

	if (now >= prompts.visible_from && now < prompts.visible_until)
		return 0;
	if ((next = pstore_next_visible(&prompts.db, now)) < 0)
		return -1;
	/* Without a window (a worker's first request, out_uncache) there
	 * is nothing cached to drop. */
	if (prompts.visible_until != 0)
		cache_clear();
	prompts.visible_from = now;
	prompts.visible_until = next;
	return 0;
}

int
out_cached(struct lz_req *r, const struct lz_param *params, size_t n,
    const struct lz_pval *v, int variant)
{
	struct lz_buf		*k = &prompts.ckey;
	struct cache_hit	 hit;
	size_t			 i;

	if (prompts.conf->prompts_cache_bytes == 0 ||
	    visible_same(r->now_ms) == -1)
		return 0;
	/* The path (no NUL: lz_req_begin refuses %00), then each value:
	 * strings by length, numbers and enum indexes in decimal (the
	 * default when absent), "-" for what is absent and has none. */
	lz_buf_reset(k);
	lz_buf_printf(k, "%zu:%s%d", strlen(r->path), r->path, variant);
	for (i = 0; i < n; i++) {
		if (!v[i].set && (params[i].type == LZ_PT_STR ||
		    (params[i].flags & LZ_PF_ANY)))
			lz_buf_puts(k, ";-");
		else if (params[i].type == LZ_PT_STR)
			lz_buf_printf(k, ";%zu:%s", strlen(v[i].s), v[i].s);
		else
			lz_buf_printf(k, ";%lld", v[i].i);
	}
	if (cache_get(k->p, k->len, &hit)) {
		lz_resp_tagged(r, CTYPE, hit.body, hit.len, CCONTROL,
		    hit.etag);
		return 1;
	}
	prompts.ckey_pending = 1;
	return 0;
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
