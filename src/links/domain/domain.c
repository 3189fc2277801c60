/*
 * domain.c -- short domains: the rules (domain.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "db.h"
#include "domain/domain.h"
#include "domain/host.h"
#include "resolve.h"
#include "rnd.h"
#include "safety/dest.h"
#include "safety/scan.h"
#include "util.h"
#include "verr.h"

const char *const domain_setting_names[DOMAIN__SETTINGS] = { "root_url",
    "not_found_url", "expired_url", "apple_app_site_association",
    "assetlinks" };

int
domain_default_host(const struct lz_conf *c, char *out, size_t len)
{
	return host_of_url(c->base_url, out, len);
}

/* url for field param: NULL or "" are none; else a destination's
 * syntax and the scan.  0, or -1 with e. */
static int
url_check(struct lz_db *db, const struct lz_conf *c, const char *url,
    const char *param, struct lz_verr *e)
{
	char	 why[256];
	int	 rc;

	if (url == NULL || *url == '\0')
		return 0;
	if (dest_syntax(url, param, e) == -1)
		return -1;
	if ((rc = safety_scan(c, db, url, why, sizeof(why))) == 0)
		return 0;
	if (rc == 1)
		lz_verr_set(e, 400, "unsafe_destination", param, "The %s is "
		    "refused: %s.", param, why);
	else
		lz_verr_set(e, 500, "internal_error", NULL, "The %s could not "
		    "be checked: %s.", param, why);
	return -1;
}

/* A deep-link file for setting i: JSON of its kind, not too long. */
static int
deeplink_check(const char *text, int i, struct lz_verr *e)
{
	const char	*name = domain_setting_names[i];
	json_t		*j;
	int		 ok;

	if (text == NULL || *text == '\0')
		return 0;
	if (strlen(text) > DOMAIN_DEEPLINK_MAX) {
		lz_verr_set(e, 400, "invalid_field", name, "'%s' is longer "
		    "than %d bytes.", name, DOMAIN_DEEPLINK_MAX);
		return -1;
	}
	j = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	ok = i == DOMAIN_AASA ? json_is_object(j) : json_is_array(j);
	json_decref(j);
	if (!ok)
		lz_verr_set(e, 400, "invalid_field", name, "'%s' must be a "
		    "JSON %s.", name, i == DOMAIN_AASA ? "object" : "array");
	return ok ? 0 : -1;
}

/* d's settings, in the order of domain_setting_names. */
static void
url_slots(struct domain *d, char **cur[DOMAIN__SETTINGS])
{
	cur[DOMAIN_ROOT_URL] = &d->root_url;
	cur[DOMAIN_NOT_FOUND_URL] = &d->not_found_url;
	cur[DOMAIN_EXPIRED_URL] = &d->expired_url;
	cur[DOMAIN_AASA] = &d->aasa;
	cur[DOMAIN_ASSETLINKS] = &d->assetlinks;
}

static const char *
url_or_null(const char *url)
{
	return url != NULL && *url != '\0' ? url : NULL;
}

int
domain_add(struct lz_db *db, const struct lz_conf *c, const char *host,
    int64_t account, int verified, const char *const *urls, int64_t now,
    struct domain *d, struct lz_verr *e)
{
	char		 why[128], def[HOST_MAX + 1], **cur[DOMAIN__SETTINGS];
	int64_t		 id;
	long long	 n = 0;
	int		 i;

	memset(d, 0, sizeof(*d));
	if (host_parse(host, d->host, sizeof(d->host), why,
	    sizeof(why)) == -1) {
		lz_verr_set(e, 400, "invalid_field", "host", "The host %s.",
		    why);
		return -1;
	}
	if (domain_default_host(c, def, sizeof(def)) == 0 &&
	    strcmp(def, d->host) == 0) {
		lz_verr_set(e, 409, "domain_taken", "host", "%s is the "
		    "default domain (base_url's host).", d->host);
		return -1;
	}
	for (i = 0; i < DOMAIN__URLS; i++)
		if (url_check(db, c, urls[i], domain_setting_names[i], e) ==
		    -1)
			return -1;
	if (account != 0 && (n = store_domain_count(db, account)) >=
	    DOMAINS_PER_ACCOUNT) {
		lz_verr_set(e, 409, "too_many_domains", "host", "An account "
		    "has at most %d domains; remove one first.",
		    DOMAINS_PER_ACCOUNT);
		return -1;
	}
	if (n < 0) {
		lz_verr_set(e, 500, "internal_error", NULL, "The domains could "
		    "not be counted.");
		return -1;
	}
	d->account_id = account;
	lz_rnd_base62(d->token, DOMAIN_TOKEN_LEN);
	d->verified_at = verified ? now : 0;
	d->created_at = now;
	url_slots(d, cur);
	for (i = 0; i < DOMAIN__URLS; i++)
		if (url_or_null(urls[i]) != NULL)
			*cur[i] = xstrdup(urls[i]);
	if ((id = store_domain_add(db, d)) > 0) {
		d->id = id;
		return 0;
	}
	store_domain_free(d);
	if (id == 0)
		lz_verr_set(e, 409, "domain_taken", "host", "%s is taken.",
		    d->host);
	else
		lz_verr_set(e, 500, "internal_error", NULL, "The domain could "
		    "not be stored.");
	return -1;
}

int
domain_set(struct lz_db *db, const struct lz_conf *c, struct domain *d,
    const int set[DOMAIN__SETTINGS], const char *const *v,
    struct lz_verr *e)
{
	char	**cur[DOMAIN__SETTINGS];
	int	 i, rc;

	url_slots(d, cur);
	for (i = 0; i < DOMAIN__SETTINGS; i++)
		if (set[i] && (i < DOMAIN__URLS ? url_check(db, c, v[i],
		    domain_setting_names[i], e) : deeplink_check(v[i], i, e)) ==
		    -1)
			return -1;
	for (i = 0; i < DOMAIN__SETTINGS; i++)
		if (set[i]) {
			free(*cur[i]);
			*cur[i] = url_or_null(v[i]) ? xstrdup(v[i]) : NULL;
		}
	if ((rc = store_domain_set(db, d)) == 1)
		return 0;
	if (rc == 0)
		lz_verr_set(e, 404, "not_found", "host", "There is no domain "
		    "%s.", d->host);
	else
		lz_verr_set(e, 500, "internal_error", NULL, "The domain could "
		    "not be stored.");
	return -1;
}

int
domain_usable(struct lz_db *db, const struct lz_conf *c, const char *host,
    int64_t account, const char *param, int64_t *id, struct lz_verr *e)
{
	struct domain	 d;
	char		 h[HOST_MAX + 1], def[HOST_MAX + 1], why[128];
	int		 rc;

	*id = 0;
	if (host == NULL || *host == '\0')
		return 0;
	if (host_parse(host, h, sizeof(h), why, sizeof(why)) == -1) {
		lz_verr_set(e, 400, "invalid_field", param, "'%s' %s.", param,
		    why);
		return -1;
	}
	if (domain_default_host(c, def, sizeof(def)) == 0 &&
	    strcmp(def, h) == 0)
		return 0;
	if ((rc = store_domain_by_host(db, h, &d)) == -1) {
		lz_verr_set(e, 500, "internal_error", NULL, "The domains could "
		    "not be read.");
		return -1;
	}
	if (rc == 1) {
		store_domain_free(&d);
		if ((d.account_id == 0 || d.account_id == account) &&
		    d.verified_at != 0) {
			*id = d.id;
			return 0;
		}
		if (d.account_id == account) {
			lz_verr_set(e, 400, "invalid_field", param, "The domain "
			    "%s is not verified yet: publish its TXT record, "
			    "then POST /api/v1/domains/%s/verify.", h, h);
			return -1;
		}
	}
	lz_verr_set(e, 400, "invalid_field", param, "There is no domain %s "
	    "you may use (GET /api/v1/domains lists them).", h);
	return -1;
}

int
domain_remove(struct lz_db *db, const struct domain *d, int64_t now,
    struct lz_verr *e)
{
	long long	 n;
	int		 rc;

	if ((rc = store_domain_remove(db, d->id, now)) == 1)
		return 0;
	if (rc == 0 && (n = store_domain_links(db, d->id)) >= 0)
		lz_verr_set(e, 409, "domain_in_use", "host", "%s still has "
		    "%lld live link%s: delete them first.", d->host, n,
		    n == 1 ? "" : "s");
	else
		lz_verr_set(e, 500, "internal_error", NULL, "The domain could "
		    "not be removed.");
	return -1;
}

int
domain_verify(struct lz_db *db, struct domain *d, int64_t now,
    struct lz_verr *e)
{
	enum lz_resolve_rc	 rc;
	char			 name[sizeof(DOMAIN_TXT_LABEL) + HOST_MAX];
	char			 want[sizeof(DOMAIN_TXT_PREFIX) +
				     DOMAIN_TOKEN_LEN];
	int			 found, n;

	if (d->verified_at != 0)
		return 0;
	snprintf(name, sizeof(name), DOMAIN_TXT_LABEL "%s", d->host);
	snprintf(want, sizeof(want), DOMAIN_TXT_PREFIX "%s", d->token);
	rc = lz_resolve_txt(name, want, DOMAIN_DNS_TIMEOUT_MS, &found);
	if (rc == LZ_RESOLVE_OK && found) {
		if ((n = store_domain_verify(db, d->id, now)) == -1) {
			lz_verr_set(e, 500, "internal_error", NULL, "The domain "
			    "could not be stored.");
			return -1;
		}
		d->verified_at = now;
		return 0;
	}
	if (rc == LZ_RESOLVE_OK)
		lz_verr_set(e, 409, "verification_failed", "host", "The TXT "
		    "record %s does not hold %s.", name, want);
	else if (rc == LZ_RESOLVE_NONE)
		lz_verr_set(e, 409, "verification_failed", "host", "There is "
		    "no TXT record %s yet (publish it with the value %s; DNS "
		    "changes can take a while to be seen).", name, want);
	else
		lz_verr_set(e, 409, "verification_failed", "host", "The name "
		    "servers did not answer about %s (%s); try again later.",
		    name, lz_resolve_strerror(rc));
	return -1;
}

/* s, or JSON null. */
static json_t *
str_or_jnull(const char *s)
{
	return s != NULL ? json_string(s) : json_null();
}

/* The JSON text s (checked when stored), or JSON null. */
static json_t *
json_or_null(const char *s)
{
	json_t	*j;

	if (s == NULL || (j = json_loads(s, 0, NULL)) == NULL)
		return json_null();
	return j;
}

json_t *
domain_json(const struct domain *d, int is_default, long long links)
{
	json_t	*j, *v = json_null();

	if (d->account_id != 0 && d->verified_at == 0)
		v = json_pack("{s:s, s:s+, s:s+}", "type", "TXT", "name",
		    DOMAIN_TXT_LABEL, d->host, "value", DOMAIN_TXT_PREFIX,
		    d->token);
	j = json_pack("{s:s, s:b, s:s, s:b, s:o, s:o, s:o, s:I, s:o}",
	    "host", d->host, "default", is_default, "scope",
	    d->account_id != 0 ? "account" : "instance", "verified",
	    d->verified_at != 0, "root_url", str_or_jnull(d->root_url),
	    "not_found_url", str_or_jnull(d->not_found_url), "expired_url",
	    str_or_jnull(d->expired_url), "links", (json_int_t)links,
	    "verification", v);
	json_object_set_new(j, domain_setting_names[DOMAIN_AASA],
	    json_or_null(d->aasa));
	json_object_set_new(j, domain_setting_names[DOMAIN_ASSETLINKS],
	    json_or_null(d->assetlinks));
	return j;
}
