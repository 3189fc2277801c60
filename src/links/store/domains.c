/*
 * domains.c -- the SQL of short domains.
 */
#include "config.h"

#include <stdlib.h>

#include <jansson.h>

#include "db.h"
#include "resp.h"
#include "store/domains.h"
#include "store/store.h"
#include "util.h"

#include "domains.sql.h"

struct lz_sqlset store_domains_sql = LZ_SQLSET("domains", sql);
static struct lz_sqlset *const set = &store_domains_sql;

#define DOMAIN_NCOLS	11

const struct store_read store_domains_reads[] = {
	{ &store_domains_sql, ST_DOMAIN_BY_HOST, DOMAIN_NCOLS },
	{ &store_domains_sql, ST_DOMAIN_LIST, DOMAIN_NCOLS },
	{ &store_domains_sql, ST_DOMAIN_ACCOUNT_LINKS, 2 },
	{ &store_domains_sql, ST_DOMAIN_HOST, 1 },
	{ NULL, 0, 0 }
};

static char *
text_or_null(struct lz_stmt *st, int col)
{
	const char	*s = lz_col_text_or_null(st, col);

	return s ? xstrdup(s) : NULL;
}

static void
row_domain(struct lz_stmt *st, struct domain *d)
{
	d->id = lz_col_i64(st, 0);
	lz_col_copy(st, 1, d->host, sizeof(d->host));
	d->account_id = lz_col_i64(st, 2);
	lz_col_copy(st, 3, d->token, sizeof(d->token));
	d->verified_at = lz_col_i64(st, 4);
	d->root_url = text_or_null(st, 5);
	d->not_found_url = text_or_null(st, 6);
	d->expired_url = text_or_null(st, 7);
	d->created_at = lz_col_i64(st, 8);
	d->aasa = text_or_null(st, 9);
	d->assetlinks = text_or_null(st, 10);
}

void
store_domain_free(struct domain *d)
{
	free(d->root_url);
	free(d->not_found_url);
	free(d->expired_url);
	free(d->aasa);
	free(d->assetlinks);
	d->root_url = d->not_found_url = d->expired_url = NULL;
	d->aasa = d->assetlinks = NULL;
}

int64_t
store_domain_add(struct lz_db *db, const struct domain *d)
{
	const struct lz_val	 v[] = { LZ_TEXT(d->host),
	    LZ_I64_IF(d->account_id != 0, d->account_id), LZ_TEXT(d->token),
	    LZ_I64_IF(d->verified_at != 0, d->verified_at),
	    LZ_TEXT(d->root_url), LZ_TEXT(d->not_found_url),
	    LZ_TEXT(d->expired_url), LZ_I64(d->created_at) };
	struct lz_stmt		*st;
	int64_t			 id;
	int			 rc;

	st = lz_db_stmtv(db, set, ST_DOMAIN_ADD, v, LZ_NELEM(v));
	if ((rc = lz_step(st)) == 1) {
		id = lz_col_i64(st, 0);
		lz_reset(st);
		return id;
	}
	return rc == 0 ? 0 : -1;
}

int
store_domain_by_host(struct lz_db *db, const char *host, struct domain *d)
{
	struct lz_stmt	*st;
	int		 rc;

	st = LZ_STMT(db, set, ST_DOMAIN_BY_HOST, LZ_TEXT(host));
	if ((rc = lz_step(st)) == 1) {
		row_domain(st, d);
		lz_reset(st);
	}
	return rc;
}

int
store_domain_hosts_live(struct lz_db *db, const char *const *host,
    size_t n, void (*fn)(size_t, void *), void *arg)
{
	struct lz_stmt	*st;
	json_t		*arr, *v;
	char		*js;
	int64_t		 one;
	size_t		 i;
	int		 rc = 0;

	if (n == 0)
		return 0;
	if (lz_db_is_sqlite(db)) {
		for (i = 0; i < n && rc != -1; i++)
			if ((rc = lz_one_i64(LZ_STMT(db, set, ST_DOMAIN_LIVE,
			    LZ_TEXT(host[i])), &one)) == 1)
				fn(i, arg);
		return rc == -1 ? -1 : 0;
	}
	arr = json_array();
	for (i = 0; i < n; i++) {
		/* Hosts are ASCII (punycode): a null only in theory. */
		if ((v = json_string(host[i])) == NULL)
			v = json_null();
		json_array_append_new(arr, v);
	}
	js = lz_json_dump(arr, NULL);
	json_decref(arr);
	st = LZ_STMT(db, set, ST_DOMAIN_LIVE_MANY, LZ_TEXT(js));
	while ((rc = lz_step(st)) == 1)
		if ((i = (size_t)lz_col_i64(st, 0)) < n)
			fn(i, arg);
	free(js);
	return rc == -1 ? -1 : 0;
}

LZ_EACH_ROW(each_domain, const, struct domain, row_domain,
    store_domain_free);

long
store_domain_list(struct lz_db *db, int64_t account,
    void (*fn)(const struct domain *, void *), void *arg)
{
	return each_domain(LZ_STMT(db, set, ST_DOMAIN_LIST,
	    LZ_I64_IF(account != 0, account)), fn, arg);
}

int
store_domain_set(struct lz_db *db, const struct domain *d)
{
	return lz_run_changed(LZ_STMT(db, set, ST_DOMAIN_SET_URLS,
	    LZ_I64(d->id), LZ_TEXT(d->root_url), LZ_TEXT(d->not_found_url),
	    LZ_TEXT(d->expired_url), LZ_TEXT(d->aasa),
	    LZ_TEXT(d->assetlinks)));
}

int
store_domain_remove(struct lz_db *db, int64_t id, int64_t now)
{
	return lz_run_changed(LZ_STMT(db, set, ST_DOMAIN_REMOVE, LZ_I64(id),
	    LZ_I64(now)));
}

int
store_domain_verify(struct lz_db *db, int64_t id, int64_t now)
{
	return lz_run_changed(LZ_STMT(db, set, ST_DOMAIN_VERIFY, LZ_I64(id),
	    LZ_I64(now)));
}

long long
store_domain_count(struct lz_db *db, int64_t account)
{
	int64_t	 n;

	return lz_one_i64(LZ_STMT(db, set, ST_DOMAIN_COUNT, LZ_I64(account)),
	    &n) == 1 ? n : -1;
}

struct links_fn {
	void	(*fn)(int64_t, long long, void *);
	void	*arg;
};

static void
links_row(struct lz_stmt *st, void *arg)
{
	struct links_fn	*f = arg;

	f->fn(lz_col_i64(st, 0), lz_col_i64(st, 1), f->arg);
}

long
store_domain_account_links(struct lz_db *db, int64_t account,
    void (*fn)(int64_t, long long, void *), void *arg)
{
	struct links_fn	 f = { fn, arg };

	return lz_each(LZ_STMT(db, set, ST_DOMAIN_ACCOUNT_LINKS,
	    LZ_I64(account)), links_row, &f);
}

int
store_domain_host(struct lz_db *db, int64_t id, char *host)
{
	struct lz_stmt	*st;
	int		 rc;

	st = LZ_STMT(db, set, ST_DOMAIN_HOST, LZ_I64(id));
	if ((rc = lz_step(st)) == 1) {
		lz_col_copy(st, 0, host, HOST_MAX + 1);
		lz_reset(st);
	}
	return rc;
}

long long
store_domain_links(struct lz_db *db, int64_t id)
{
	int64_t	 n;

	return lz_one_i64(LZ_STMT(db, set, ST_DOMAIN_LINKS, LZ_I64(id)),
	    &n) == 1 ? n : -1;
}
