/*
 * api_links.c -- /api/v1/links: create, list (and search), get, edit,
 * delete (spec 4, DESIGN 3.2, 3.9).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "ctx.h"
#include "link/link.h"
#include "link/linkops.h"
#include "query.h"
#include "resp.h"
#include "serve.h"
#include "store/links.h"
#include "util.h"

#define LIST_MAX	100
#define LIST_DEFAULT	20
#define LINK_SEARCH_MAX	200	/* characters of q */

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

/* A cursor: the base64url form of "V0" or "V0.V1", the last item shown
 * (values 1 and up); null when no page follows. */
static json_t *
next_cursor(int more, const int64_t *v, size_t n)
{
	char	 text[48], out[API_CURSOR_MAX + 1];

	if (!more)
		return json_null();
	if (n == 1)
		snprintf(text, sizeof(text), "%lld", (long long)v[0]);
	else
		snprintf(text, sizeof(text), "%lld.%lld", (long long)v[0],
		    (long long)v[1]);
	sodium_bin2base64(out, sizeof(out), (const unsigned char *)text,
	    strlen(text), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	return json_string(out);
}

void
api_page(struct lz_req *r, long rc, const char *key, json_t *items,
    int more, const int64_t *last, size_t n, json_t *extra)
{
	if (rc < 0) {
		json_decref(items);
		json_decref(extra);
		lz_resp_error(r, 500, "internal_error", NULL, "The %s could "
		    "not be read.", key);
		return;
	}
	if (extra == NULL)
		extra = json_object();
	json_object_set_new(extra, "ok", json_true());
	json_object_set_new(extra, key, items);
	json_object_set_new(extra, "next_cursor", next_cursor(more, last, n));
	lz_resp_json(r, 200, extra);
}

int
api_cursor_decode(struct lz_req *r, const char *s, int64_t *v, size_t n)
{
	unsigned char	 text[48];
	char		*part[2], *dot;
	size_t		 len, i;
	long long	 x;

	if (strlen(s) > API_CURSOR_MAX || sodium_base642bin(text,
	    sizeof(text) - 1, s, strlen(s), NULL, &len, NULL,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
		goto bad;
	text[len] = '\0';
	part[0] = (char *)text;
	dot = strchr(part[0], '.');
	if ((dot != NULL) != (n == 2))
		goto bad;
	if (dot != NULL) {
		*dot = '\0';
		part[1] = dot + 1;
	}
	for (i = 0; i < n; i++) {
		if (lz_parse_ll(part[i], 1, INT64_MAX, &x) == -1)
			goto bad;
		v[i] = x;
	}
	return 0;
bad:
	lz_resp_error(r, 400, "invalid_parameter", "cursor", "'cursor' is not "
	    "a cursor this API returned.");
	return -1;
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
	enum { P_LIMIT, P_CURSOR, P_Q, P_STATUS, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_LIMIT] =	{ "limit", LZ_PT_INT, 1, LIST_MAX,
				  LIST_DEFAULT, NULL, 0 },
		[P_CURSOR] =	{ "cursor", LZ_PT_STR, 1, API_CURSOR_MAX, 0,
				  NULL, 0 },
		[P_Q] =		{ "q", LZ_PT_STR, 1, LINK_SEARCH_MAX, 0, NULL,
				  0 },
		[P_STATUS] =	{ "status", LZ_PT_ENUM, 0, 0, -1,
				  link_status_names, 0 },
	};
	struct links_req	*lr = r->app;
	struct lz_pval		 v[P__MAX];
	struct link_filter	 f;
	struct list_acc		 acc;
	int64_t			 before = 0;
	long			 n;

	if (lz_req_params(r, params, P__MAX, v) == -1)
		return;
	if (v[P_CURSOR].set && api_cursor_decode(r, v[P_CURSOR].s, &before,
	    1) == -1)
		return;
	f.q = v[P_Q].s;
	f.status = v[P_STATUS].set ? (int)v[P_STATUS].i : -1;
	f.now = r->now_ms;
	memset(&acc, 0, sizeof(acc));
	acc.arr = json_array();
	acc.limit = (long)v[P_LIMIT].i;
	acc.now = r->now_ms;
	n = store_link_list(&links.db, lr->account_id, before, acc.limit + 1,
	    &f, list_one, &acc);
	api_page(r, n, "links", acc.arr, acc.more, &acc.last_id, 1, NULL);
}

int
api_path_id(struct lz_req *r, const char *what, int64_t *id)
{
	long long	 v;

	if (r->nargs < 1 || lz_parse_ll(r->args[0], 1, INT64_MAX, &v) == -1 ||
	    r->args[0][0] == '0') {
		lz_resp_error(r, 404, "not_found", "id", "There is no %s "
		    "with this id.", what);
		return -1;
	}
	*id = v;
	return 0;
}

int
api_done(struct lz_req *r, int rc, const char *failed, int status,
    const char *code, const char *msg)
{
	if (rc == -1)
		lz_resp_error(r, 500, "internal_error", NULL, "%s", failed);
	else if (rc == 0)
		lz_resp_error(r, status, code, "id", "%s", msg);
	return rc != -1 && rc != 0;
}

int
api_links_load(struct lz_req *r, int64_t id, struct link *l)
{
	struct links_req	*lr = r->app;
	struct lz_verr		 e;

	if (linkops_get(id, lr->account_id, l, &e) == 0)
		return 0;
	lz_resp_verr(r, &e);
	return -1;
}

/* 200 {ok, link}; frees l. */
static void
answer_link(struct lz_req *r, struct link *l)
{
	lz_resp_json(r, 200, json_pack("{s:b, s:o}", "ok", 1, "link",
	    link_json(l, links.conf->base_url, r->now_ms)));
	link_free(l);
}

void
api_links_get(struct lz_req *r)
{
	struct link	 l;
	int64_t		 id;

	if (api_path_id(r, "link", &id) == -1 || lz_req_params(r, NULL, 0,
	    NULL) == -1 || api_links_load(r, id, &l) == -1)
		return;
	answer_link(r, &l);
}

void
api_links_update(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	struct lz_verr		 e;
	struct link		 l;
	json_t			*patch;
	int64_t			 id;
	int			 rc;

	if (api_path_id(r, "link", &id) == -1 || lz_req_params(r, NULL, 0,
	    NULL) == -1 || (patch = lz_req_json_merge(r)) == NULL)
		return;
	rc = linkops_update(id, lr->account_id, patch, r->now_ms, &l, &e);
	json_decref(patch);
	if (rc == -1)
		lz_resp_verr(r, &e);
	else
		answer_link(r, &l);
}

void
api_links_delete(struct lz_req *r)
{
	struct links_req	*lr = r->app;
	int64_t			 id;
	int			 rc;

	if (api_path_id(r, "link", &id) == -1 || lz_req_params(r, NULL, 0,
	    NULL) == -1)
		return;
	rc = linkops_delete(id, lr->account_id, r->now_ms);
	if (api_done(r, rc, "The link could not be deleted.", 404,
	    "not_found", "There is no link with this id."))
		lz_resp_json(r, 200, json_pack("{s:b, s:I, s:b}", "ok", 1,
		    "id", (json_int_t)id, "deleted", 1));
}
