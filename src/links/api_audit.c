/*
 * api_audit.c -- GET /api/v1/audit (a key with audit:read) and the
 * dashboard's /dashboard/api/audit: the account's audit log, newest
 * first, a page at a time (auth/audit.h says what it holds).
 */
#include "config.h"

#include <jansson.h>

#include "api.h"
#include "ctx.h"
#include "jbody.h"
#include "query.h"
#include "serve.h"
#include "store/audit.h"

#define AUDIT_LIST_DEFAULT	50
#define AUDIT_LIST_MAX		200

struct page {
	json_t	*arr;
	long	 limit;
	int	 more;
	int64_t	 last_id;
};

static void
entry_one(const struct audit_entry *e, void *arg)
{
	struct page	*p = arg;

	if ((long)json_array_size(p->arr) == p->limit) {
		p->more = 1;		/* the extra row: another page */
		return;
	}
	json_array_append_new(p->arr, json_pack("{s:I, s:o, s:s, s:s, s:s, "
	    "s:s}", "id", (json_int_t)e->id, "at", lz_json_time(e->at),
	    "actor", e->actor, "action", e->action, "target", e->target,
	    "network", e->network));
	p->last_id = e->id;
}

void
api_audit_list(struct lz_req *r)
{
	enum { P_LIMIT, P_CURSOR, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_LIMIT] =	{ "limit", LZ_PT_INT, 1, AUDIT_LIST_MAX,
				  AUDIT_LIST_DEFAULT, NULL, 0 },
		[P_CURSOR] =	{ "cursor", LZ_PT_STR, 1, API_CURSOR_MAX, 0,
				  NULL, 0 },
	};
	struct auth_caller	*who = API_WHO(r);
	struct lz_pval		 v[P__MAX];
	struct page		 p;
	int64_t			 before = 0;
	long			 n;

	if (lz_req_params(r, params, P__MAX, v) == -1)
		return;
	if (v[P_CURSOR].set && api_cursor_decode(r, v[P_CURSOR].s, &before,
	    1) == -1)
		return;
	p.arr = json_array();
	p.limit = (long)v[P_LIMIT].i;
	p.more = 0;
	p.last_id = 0;
	n = store_audit_page(&links.db, who->account_id, before, p.limit + 1,
	    entry_one, &p);
	api_page(r, n, "entries", p.arr, p.more, &p.last_id, 1, NULL);
}
