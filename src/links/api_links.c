/*
 * api_links.c -- /api/v1/links: create, list, get, delete (spec 4,
 * DESIGN 3.2).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "ctx.h"
#include "link.h"
#include "linkops.h"
#include "query.h"
#include "resp.h"
#include "store/links.h"
#include "util.h"

#define LIST_MAX	100
#define LIST_DEFAULT	20

void
api_links_create(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	struct lz_verr		 e;
	struct link		 l;
	json_t			*body, *j;
	char			*short_url;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (linkops_create(body, lr->account_id, lr->plan, r->now_ms, &l,
	    &e) == -1) {
		json_decref(body);
		lz_resp_verr(r, &e);
		return;
	}
	json_decref(body);
	short_url = link_short_url(links.conf->base_url, l.slug);
	j = json_pack("{s:b, s:I, s:s, s:s}", "ok", 1, "id", (json_int_t)l.id,
	    "slug", l.slug, "short_url", short_url);
	lz_resp_header(r, "Location", "/api/v1/links/%lld", (long long)l.id);
	lz_resp_json(r, 201, j);
	free(short_url);
	link_free(&l);
}

/* The list cursor: the base64url form of the last id shown. */
static void
cursor_encode(int64_t id, char *out, size_t len)
{
	char	 num[24];

	snprintf(num, sizeof(num), "%lld", (long long)id);
	sodium_bin2base64(out, len, (const unsigned char *)num, strlen(num),
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
}

static int
cursor_decode(const char *s, int64_t *id)
{
	unsigned char	 num[24];
	size_t		 n;
	long long	 v;

	if (strlen(s) > 32 || sodium_base642bin(num, sizeof(num) - 1, s,
	    strlen(s), NULL, &n, NULL,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
		return -1;
	num[n] = '\0';
	if (lz_parse_ll((char *)num, 1, INT64_MAX, &v) == -1)
		return -1;
	*id = v;
	return 0;
}

struct list_acc {
	json_t	*arr;
	long	 limit;
	int64_t	 last_id;
	int	 more;
	int64_t	 now;
};

static void
list_one(struct link *l, void *arg)
{
	struct list_acc	*acc = arg;

	if ((long)json_array_size(acc->arr) == acc->limit) {
		acc->more = 1;		/* the extra row: another page */
		return;
	}
	json_array_append_new(acc->arr, link_json(l, links.conf->base_url,
	    acc->now));
	acc->last_id = l->id;
}

void
api_links_list(struct lz_req *r)
{
	enum { P_LIMIT, P_CURSOR, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_LIMIT] =	{ "limit", LZ_PT_INT, 1, LIST_MAX,
				  LIST_DEFAULT, NULL, 0 },
		[P_CURSOR] =	{ "cursor", LZ_PT_STR, 1, 64, 0, NULL, 0 },
	};
	struct links_req	*lr = r->app;
	struct lz_pval		 v[P__MAX];
	struct list_acc		 acc;
	int64_t			 before = 0;
	char			 cur[48];
	json_t			*j;

	if (lz_req_params(r, params, P__MAX, v) == -1)
		return;
	if (v[P_CURSOR].set && cursor_decode(v[P_CURSOR].s, &before) == -1) {
		lz_resp_error(r, 400, "invalid_parameter", "cursor", "'cursor' "
		    "is not a cursor this API returned.");
		return;
	}
	memset(&acc, 0, sizeof(acc));
	acc.arr = json_array();
	acc.limit = (long)v[P_LIMIT].i;
	acc.now = r->now_ms;
	if (store_link_list(&links.db, lr->account_id, before, acc.limit + 1,
	    list_one, &acc) < 0) {
		json_decref(acc.arr);
		lz_resp_error(r, 500, "internal_error", NULL, "The links could "
		    "not be read.");
		return;
	}
	j = json_object();
	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "links", acc.arr);
	if (acc.more) {
		cursor_encode(acc.last_id, cur, sizeof(cur));
		json_object_set_new(j, "next_cursor", json_string(cur));
	} else
		json_object_set_new(j, "next_cursor", json_null());
	lz_resp_json(r, 200, j);
}

int
api_links_path_id(struct lz_req *r, int64_t *id)
{
	long long	 v;

	if (r->nargs < 1 || lz_parse_ll(r->args[0], 1, INT64_MAX, &v) == -1 ||
	    r->args[0][0] == '0') {
		lz_resp_error(r, 404, "not_found", "id", "There is no link "
		    "with this id.");
		return -1;
	}
	*id = v;
	return 0;
}

void
api_links_get(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	struct link		 l;
	int64_t			 id;
	int			 rc;

	if (api_links_path_id(r, &id) == -1 || lz_req_params(r, NULL, 0,
	    NULL) == -1)
		return;
	rc = store_link_get(&links.db, id, lr->account_id, &l);
	if (rc == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The link could "
		    "not be read.");
		return;
	}
	if (rc == 0) {
		lz_resp_error(r, 404, "not_found", "id", "There is no link "
		    "with this id.");
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:o}", "ok", 1, "link",
	    link_json(&l, links.conf->base_url, r->now_ms)));
	link_free(&l);
}

void
api_links_delete(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	int64_t			 id;
	int			 rc;

	if (api_links_path_id(r, &id) == -1 || lz_req_params(r, NULL, 0,
	    NULL) == -1)
		return;
	rc = linkops_delete(id, lr->account_id, r->now_ms);
	if (rc == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The link could "
		    "not be deleted.");
		return;
	}
	if (rc == 0) {
		lz_resp_error(r, 404, "not_found", "id", "There is no link "
		    "with this id.");
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:I, s:b}", "ok", 1, "id",
	    (json_int_t)id, "deleted", 1));
}
