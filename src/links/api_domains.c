/*
 * api_domains.c -- /api/v1/domains (DESIGN 3.12, lz-links(8) "Domains"):
 * the short domains an account may use, its own added (unverified, with
 * the TXT record to publish) and verified, their redirect URLs set, and
 * removed.  The rules are domain/domain.h's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "auth/audit.h"
#include "conf.h"
#include "ctx.h"
#include "domain/domain.h"
#include "domain/host.h"
#include "jbody.h"
#include "resp.h"
#include "serve.h"
#include "util.h"
#include "verr.h"

/* The caller's live links per domain, for the lists' "links". */
struct counts {
	struct {
		int64_t		 id;
		long long	 n;
	}		*v;
	size_t		 len, cap;
};

static void
count_one(int64_t domain, long long n, void *arg)
{
	struct counts	*c = arg;

	if (c->len == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->v = xreallocarray(c->v, c->cap, sizeof(*c->v));
	}
	c->v[c->len].id = domain;
	c->v[c->len++].n = n;
}

static long long
count_of(const struct counts *c, int64_t domain)
{
	size_t	 i;

	for (i = 0; i < c->len; i++)
		if (c->v[i].id == domain)
			return c->v[i].n;
	return 0;
}

struct list_acc {
	json_t		*arr;
	struct counts	*counts;
};

static void
list_one(const struct domain *d, void *arg)
{
	struct list_acc	*acc = arg;

	json_array_append_new(acc->arr, domain_json(d, 0,
	    count_of(acc->counts, d->id)));
}

/* The default domain: no row, nothing to set. */
static void
default_domain(struct domain *d)
{
	memset(d, 0, sizeof(*d));
	(void)domain_default_host(links.conf, d->host, sizeof(d->host));
	d->verified_at = 1;
}

void
api_domains_list(struct lz_req *r)
{
	struct auth_caller	*who = API_WHO(r);
	struct counts		 counts;
	struct list_acc		 acc;
	struct domain		 def;
	long			 n;

	if (lz_req_params(r, NULL, 0, NULL) == -1)
		return;
	memset(&counts, 0, sizeof(counts));
	if (store_domain_account_links(&links.db, who->account_id, count_one,
	    &counts) < 0) {
		free(counts.v);
		lz_resp_error(r, 500, "internal_error", NULL, "The domains could "
		    "not be read.");
		return;
	}
	acc.arr = json_array();
	acc.counts = &counts;
	default_domain(&def);
	json_array_append_new(acc.arr, domain_json(&def, 1,
	    count_of(&counts, 0)));
	n = store_domain_list(&links.db, who->account_id, list_one, &acc);
	free(counts.v);
	lz_resp_list(r, n, "domains", acc.arr, "domains");
}

/*
 * The domain of the path's host that the caller may see into d (the
 * default one: *is_default): 0, or -1 after answering 404 (none, or
 * another account's) or 500.
 */
static int
path_domain(struct lz_req *r, struct domain *d, int *is_default)
{
	struct auth_caller	*who = API_WHO(r);
	char			 host[HOST_MAX + 1], why[128];
	int			 rc;

	*is_default = 0;
	if (r->nargs < 1 || host_parse(r->args[0], host, sizeof(host), why,
	    sizeof(why)) == -1)
		goto none;
	default_domain(d);
	if (strcmp(host, d->host) == 0) {
		*is_default = 1;
		return 0;
	}
	if ((rc = store_domain_by_host(&links.db, host, d)) == -1) {
		lz_resp_error(r, 500, "internal_error", NULL, "The domain could "
		    "not be read.");
		return -1;
	}
	if (rc == 1 && (d->account_id == 0 ||
	    d->account_id == who->account_id))
		return 0;
	if (rc == 1)
		store_domain_free(d);
none:
	lz_resp_error(r, 404, "not_found", "host", "There is no domain with "
	    "this host that you may use.");
	return -1;
}

/* The caller's links on d, for one domain's answer; -1 after a 500. */
static long long
links_on(struct lz_req *r, const struct domain *d)
{
	struct auth_caller	*who = API_WHO(r);
	struct counts		 counts;
	long long		 n = -1;

	memset(&counts, 0, sizeof(counts));
	if (store_domain_account_links(&links.db, who->account_id, count_one,
	    &counts) < 0)
		lz_resp_error(r, 500, "internal_error", NULL, "The domains could "
		    "not be read.");
	else
		n = count_of(&counts, d->id);
	free(counts.v);
	return n;
}

/* 200 (or status) {ok, domain}; frees d. */
static void
answer(struct lz_req *r, int status, struct domain *d, int is_default)
{
	long long	 n;

	if ((n = links_on(r, d)) >= 0)
		lz_resp_json(r, status, json_pack("{s:b, s:o}", "ok", 1,
		    "domain", domain_json(d, is_default, n)));
	store_domain_free(d);
}

void
api_domains_get(struct lz_req *r)
{
	struct domain	 d;
	int		 def;

	if (lz_req_params(r, NULL, 0, NULL) == -1 ||
	    path_domain(r, &d, &def) == -1)
		return;
	answer(r, 200, &d, def);
}

void
api_domains_add(struct lz_req *r)
{
	static const struct lz_jfield host_field = { "host", LZ_JT_STRING,
	    LZ_JF_REQUIRED, 1, HOST_MAX + 1 };
	static const char *const none[DOMAIN__URLS];
	struct auth_caller	*who = API_WHO(r);
	struct domain		 d;
	struct lz_verr		 e;
	json_t			*body;
	int			 rc;

	if ((body = lz_req_json(r)) == NULL)
		return;
	rc = lz_json_fields(body, &host_field, 1, NULL, &e);
	if (rc == 0)
		rc = domain_add(&links.db, links.conf, json_string_value(
		    json_object_get(body, "host")), who->account_id, 0, none,
		    r->now_ms, &d, &e);
	json_decref(body);
	if (rc == -1) {
		lz_resp_verr(r, &e);
		return;
	}
	audit_note(&links.db, r, API_WHO(r), API_WHO(r)->account_id,
	    "domain.added", "%s", d.host);
	lz_resp_header(r, "Location", "/api/v1/domains/%s", d.host);
	lz_resp_json(r, 201, json_pack("{s:b, s:o}", "ok", 1, "domain",
	    domain_json(&d, 0, 0)));
	store_domain_free(&d);
}

/* The caller's own domain of the path into d: 0, or -1 after answering
 * (404 as path_domain, 403 for the instance's and the default one). */
static int
own_domain(struct lz_req *r, struct domain *d)
{
	struct auth_caller	*who = API_WHO(r);
	int			 def;

	if (path_domain(r, d, &def) == -1)
		return -1;
	if (!def && d->account_id == who->account_id)
		return 0;
	store_domain_free(d);
	lz_resp_error(r, 403, "forbidden", "host", "This domain is the "
	    "instance's: its administrator manages it (lzctl domain).");
	return -1;
}

void
api_domains_update(struct lz_req *r)
{
	static const struct lz_jfield fields[DOMAIN__SETTINGS] = {
		{ "root_url", LZ_JT_STRING | LZ_JT_NULL, 0, 0, URL_MAX },
		{ "not_found_url", LZ_JT_STRING | LZ_JT_NULL, 0, 0, URL_MAX },
		{ "expired_url", LZ_JT_STRING | LZ_JT_NULL, 0, 0, URL_MAX },
		{ "apple_app_site_association", LZ_JT_OBJECT | LZ_JT_NULL, 0,
		  0, 0 },
		{ "assetlinks", LZ_JT_ARRAY | LZ_JT_NULL, 0, 0, 0 },
	};
	const char	*v[DOMAIN__SETTINGS];
	char		*text[DOMAIN__SETTINGS] = { NULL };
	struct domain	 d;
	struct lz_verr	 e;
	json_t		*body, *f;
	size_t		 len;
	int		 set[DOMAIN__SETTINGS], i, rc;

	if ((body = lz_req_json(r)) == NULL)
		return;
	if (lz_json_fields(body, fields, DOMAIN__SETTINGS, NULL, &e) == -1) {
		json_decref(body);
		lz_resp_verr(r, &e);
		return;
	}
	if (own_domain(r, &d) == -1) {
		json_decref(body);
		return;
	}
	for (i = 0; i < DOMAIN__SETTINGS; i++) {
		f = json_object_get(body, domain_setting_names[i]);
		set[i] = f != NULL;
		if (i >= DOMAIN__URLS && f != NULL && !json_is_null(f))
			v[i] = text[i] = lz_json_dump(f, &len);
		else
			v[i] = json_string_value(f);
	}
	rc = domain_set(&links.db, links.conf, &d, set, v, &e);
	for (i = 0; i < DOMAIN__SETTINGS; i++)
		free(text[i]);
	json_decref(body);
	if (rc == -1) {
		store_domain_free(&d);
		lz_resp_verr(r, &e);
		return;
	}
	answer(r, 200, &d, 0);
}

void
api_domains_delete(struct lz_req *r)
{
	struct domain	 d;
	struct lz_verr	 e;
	int		 rc;

	if (lz_req_params(r, NULL, 0, NULL) == -1 || own_domain(r, &d) == -1)
		return;
	rc = domain_remove(&links.db, &d, r->now_ms, &e);
	if (rc == -1)
		lz_resp_verr(r, &e);
	else {
		audit_note(&links.db, r, API_WHO(r), API_WHO(r)->account_id,
		    "domain.removed", "%s", d.host);
		lz_resp_json(r, 200, json_pack("{s:b, s:s, s:b}", "ok", 1,
		    "host", d.host, "deleted", 1));
	}
	store_domain_free(&d);
}

void
api_domains_verify(struct lz_req *r)
{
	struct domain	 d;
	struct lz_verr	 e;

	if (lz_req_params(r, NULL, 0, NULL) == -1 || own_domain(r, &d) == -1)
		return;
	if (domain_verify(&links.db, &d, r->now_ms, &e) == -1) {
		store_domain_free(&d);
		lz_resp_verr(r, &e);
		return;
	}
	audit_note(&links.db, r, API_WHO(r), API_WHO(r)->account_id,
	    "domain.verified", "%s", d.host);
	answer(r, 200, &d, 0);
}
