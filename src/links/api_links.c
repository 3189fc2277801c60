/*
 * api_links.c -- /api/v1/links: create, list (and search), get, edit,
 * delete (spec 4, DESIGN 3.2, 3.9).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "auth/audit.h"
#include "conf.h"
#include "ctx.h"
#include "domain/domain.h"
#include "link/link.h"
#include "link/linkops.h"
#include "link/tag.h"
#include "memo.h"
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
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	struct link		 l;
	json_t			*body, *j;
	char			*short_url;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (linkops_create(&links.db, links.conf, body, who->account_id,
	    who->plan, r->now_ms, &l, &e) == -1) {
		json_decref(body);
		lz_resp_verr(r, &e);
		return;
	}
	json_decref(body);
	short_url = link_short_url(links.conf->base_url, &l, NULL);
	j = json_pack("{s:b, s:I, s:s, s:s}", "ok", 1, "id", (json_int_t)l.id,
	    "slug", l.slug, "short_url", short_url);
	lz_resp_header(r, "Location", "/api/v1/links/%lld", (long long)l.id);
	lz_resp_json(r, 201, j);
	free(short_url);
	link_free(&l);
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

/*
 * The folds of every tag= of the query, as the JSON array the list's
 * filter takes (a new string), or NULL after answering 400 naming tag.
 */
static char *
tag_folds(struct lz_req *r)
{
	const struct lz_query	*q = lz_req_query(r);
	char			 name[TAG_BYTES], fold[TAG_FOLD_BYTES];
	char			 why[128], *text;
	json_t			*arr = json_array();
	size_t			 i, j, len;

	for (i = 0; q != NULL && i < q->n; i++) {
		if (strcmp(q->kv[i].key, "tag") != 0)
			continue;
		if (tag_parse(q->kv[i].val, name, fold, why, sizeof(why)) ==
		    -1 || json_array_size(arr) == TAGS_MAX) {
			lz_resp_error(r, 400, "invalid_parameter", "tag", "The "
			    "tag '%.64s' %s.", q->kv[i].val,
			    json_array_size(arr) == TAGS_MAX ? "is one too many "
			    "(at most 20)" : why);
			json_decref(arr);
			return NULL;
		}
		for (j = 0; j < json_array_size(arr); j++)
			if (strcmp(json_string_value(json_array_get(arr, j)),
			    fold) == 0)
				break;
		if (j == json_array_size(arr))	/* once each */
			json_array_append_new(arr, json_string(fold));
	}
	text = lz_json_dump(arr, &len);
	json_decref(arr);
	return text;
}

void
api_links_list(struct lz_req *r)
{
	enum { P_LIMIT, P_CURSOR, P_Q, P_STATUS, P_DOMAIN, P_TAG, P_ARCHIVED,
	    P__MAX };
	static const char *const archived[] = { "exclude", "include", "only",
	    NULL };
	static const struct lz_param params[P__MAX] = {
		[P_LIMIT] =	{ "limit", LZ_PT_INT, 1, LIST_MAX,
				  LIST_DEFAULT, NULL, 0 },
		[P_CURSOR] =	{ "cursor", LZ_PT_STR, 1, API_CURSOR_MAX, 0,
				  NULL, 0 },
		[P_Q] =		{ "q", LZ_PT_STR, 1, LINK_SEARCH_MAX, 0, NULL,
				  0 },
		[P_STATUS] =	{ "status", LZ_PT_ENUM, 0, 0, -1,
				  link_status_names, 0 },
		[P_DOMAIN] =	{ "domain", LZ_PT_STR, 1, HOST_MAX + 1, 0,
				  NULL, 0 },
		[P_TAG] =	{ "tag", LZ_PT_STR, 1, TAG_CHARS * 2, 0, NULL,
				  LZ_PF_MULTI },
		[P_ARCHIVED] =	{ "archived", LZ_PT_ENUM, 0, 0,
				  LINK_ARCHIVED_EXCLUDE, archived, 0 },
	};
	struct auth_caller	*who = API_WHO(r);
	struct lz_pval		 v[P__MAX];
	struct link_filter	 f;
	struct lz_verr		 e;
	struct list_acc		 acc;
	char			*tags = NULL;
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
	f.by_domain = v[P_DOMAIN].set;
	f.domain = 0;
	if (v[P_DOMAIN].set && domain_usable(&links.db, links.conf,
	    v[P_DOMAIN].s, who->account_id, "domain", &f.domain, &e) == -1) {
		/* A query parameter, not a body's field. */
		if (e.status == 400)
			snprintf(e.code, sizeof(e.code), "invalid_parameter");
		lz_resp_verr(r, &e);
		return;
	}
	f.archived = (int)v[P_ARCHIVED].i;
	f.tags = NULL;
	if (v[P_TAG].set && (f.tags = tags = tag_folds(r)) == NULL)
		return;
	memset(&acc, 0, sizeof(acc));
	acc.arr = json_array();
	acc.limit = (long)v[P_LIMIT].i;
	acc.now = r->now_ms;
	n = store_link_list(&links.db, who->account_id, before, acc.limit + 1,
	    &f, list_one, &acc);
	free(tags);
	api_page(r, n, "links", acc.arr, acc.more, &acc.last_id, 1, NULL);
}

int
api_links_load(struct lz_req *r, int64_t id, struct link *l)
{
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;

	if (linkops_get(&links.db, id, who->account_id, l, &e) == 0)
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

/* GET's answers, kept while the database is unchanged (memo.h): the
 * read and the JSON were two thirds of its CPU. */
#define GET_MEMO_SLOTS	256

static struct lz_memo	*get_memo;

void
api_links_get(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct lz_memo_ver	 ver;
	struct link		 l;
	const char		*text;
	size_t			 len;
	int64_t			 id, key[2], until;
	json_t			*j;

	if (api_path_id(r, "link", &id) == -1 || lz_req_params(r, NULL, 0,
	    NULL) == -1)
		return;
	if (get_memo == NULL)
		get_memo = lz_memo_new(GET_MEMO_SLOTS);
	key[0] = who->account_id;
	key[1] = id;
	if ((text = lz_memo_get(get_memo, &links.db, key, sizeof(key),
	    r->now_ms, &len)) != NULL) {
		lz_resp_send(r, 200, LZ_JSON_TYPE, text, len);
		return;
	}
	lz_memo_begin(&links.db, &ver);
	if (api_links_load(r, id, &l) == -1)
		return;
	/* Its status turns "expired" at expires_at, with no commit. */
	until = l.expires_at > r->now_ms ? l.expires_at : INT64_MAX;
	j = json_pack("{s:b, s:o}", "ok", 1, "link", link_json(&l,
	    links.conf->base_url, r->now_ms));
	link_free(&l);
	text = lz_json_text(j, &len);
	lz_memo_put(get_memo, &ver, key, sizeof(key), text, len, until);
	lz_resp_send(r, 200, LZ_JSON_TYPE, text, len);
	json_decref(j);
}

void
api_links_update(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct lz_verr		 e;
	struct link		 l;
	json_t			*patch;
	int64_t			 id;
	int			 rc;

	if (api_path_id(r, "link", &id) == -1 || lz_req_params(r, NULL, 0,
	    NULL) == -1 || (patch = lz_req_json_merge(r)) == NULL)
		return;
	rc = linkops_update(&links.db, links.conf, id, who->account_id, patch,
	    r->now_ms, &l, &e);
	json_decref(patch);
	if (rc == -1)
		lz_resp_verr(r, &e);
	else
		answer_link(r, &l);
}

void
api_links_delete(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	int64_t			 id;
	int			 rc;

	if (api_path_id(r, "link", &id) == -1 || lz_req_params(r, NULL, 0,
	    NULL) == -1)
		return;
	rc = linkops_delete(&links.db, id, who->account_id, r->now_ms);
	if (rc == 1)
		audit_note(&links.db, r, who, who->account_id, "link.deleted",
		    "link %lld", (long long)id);
	api_removed(r, rc, id, "deleted", "The link could not be deleted.",
	    "There is no link with this id.");
}
