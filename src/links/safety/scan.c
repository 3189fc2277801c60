/*
 * scan.c -- the destination safety scan (scan.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "addr.h"
#include "conf.h"
#include "db.h"
#include "link/link.h"
#include "log.h"
#include "safety/blocklist.h"
#include "safety/canon.h"
#include "safety/idn.h"
#include "safety/safebrowsing.h"
#include "safety/scan.h"
#include "store/domains.h"
#include "store/safety.h"
#include "util.h"
#include "verr.h"

#define RECHECK_BATCH	500

/* Special-use names that only ever resolve on the visitor's own machine
 * or network (RFC 6761, 6762, 8375; ICANN's .internal). */
static const char *const local_domains[] = {
	"localhost", "local", "internal", "home.arpa",
};

/* A host list of lz.conf, canonicalised once per distinct value. */
struct hostlist {
	char	 *base;		/* the base_url and list text it was made */
	char	 *text;		/* from, or NULL */
	char	**v;
	size_t	  n;
};

static struct hostlist	 own_hosts, shorteners;

static void
hostlist_add(struct hostlist *hl, const char *name, size_t len)
{
	unsigned	 flags;
	char		*h;

	if ((h = canon_host(name, len, &flags)) == NULL)
		return;
	hl->v = xreallocarray(hl->v, hl->n + 1, sizeof(*hl->v));
	hl->v[hl->n++] = h;
}

/* Makes hl the canonical hosts of the list text (and of the host of
 * base_url, when given); a no-op while the text is unchanged. */
static void
hostlist_update(struct hostlist *hl, const char *base_url, const char *text)
{
	struct canon	 c;
	char		**v;
	size_t		  n, i;

	if (base_url == NULL)
		base_url = "";
	if (hl->text != NULL && strcmp(hl->text, text) == 0 &&
	    strcmp(hl->base, base_url) == 0)
		return;
	for (i = 0; i < hl->n; i++)
		free(hl->v[i]);
	free(hl->v);
	free(hl->base);
	free(hl->text);
	memset(hl, 0, sizeof(*hl));
	hl->base = xstrdup(base_url);
	hl->text = xstrdup(text);
	if (*base_url != '\0' && canon_url(base_url, strlen(base_url), &c) ==
	    0) {
		hostlist_add(hl, c.host, strlen(c.host));
		canon_free(&c);
	}
	n = lz_strlist_split(text, &v);
	for (i = 0; i < n; i++)
		hostlist_add(hl, v[i], strlen(v[i]));
	lz_strlist_free(v, n);
}

/* The entry of hl that host is or is under, or NULL. */
static const char *
hostlist_match(const struct hostlist *hl, const char *host)
{
	size_t	 i;

	for (i = 0; i < hl->n; i++)
		if (canon_host_within(host, hl->v[i]))
			return hl->v[i];
	return NULL;
}

static const struct lz_conf *
conf_or_defaults(const struct lz_conf *conf)
{
	static struct lz_conf	*defaults;

	if (conf != NULL)
		return conf;
	if (defaults == NULL)
		defaults = lz_conf_defaults();
	return defaults;
}

/* What a flag of canon.h refuses, by itself. */
struct flagwhy {
	unsigned	 flag;
	const char	*why;
};

/* The URL's form, then (after the address checks) its host name. */
static const struct flagwhy form_refusals[] = {
	{ CANON_USERINFO, "it has a user name or password before the host "
	    "(user@host), a common way to disguise where a link leads" },
	{ CANON_BACKSLASH, "it has a backslash in its host part, which "
	    "browsers read as a slash" },
	{ CANON_BAD_PORT, "its port is not a number from 0 to 65535" },
	{ CANON_NUMERIC, "its host ends in a number but is not a valid IP "
	    "address" },
}, host_refusals[] = {
	{ CANON_IDN_BAD, "its host is not a valid internationalised domain "
	    "name" },
	{ CANON_HOST_BAD, "its host name has characters that host names "
	    "cannot have" },
};

/* 1 with why when c has a flag of t[0..n), the first of them. */
static int
flag_refused(const struct canon *c, const struct flagwhy *t, size_t n,
    char *why, size_t whylen)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (c->flags & t[i].flag) {
			snprintf(why, whylen, "%s", t[i].why);
			return 1;
		}
	return 0;
}

/* The heuristics on a canonical URL; 1 with why when refused. */
static int
heuristics(const struct lz_conf *conf, const struct canon *c, char *why,
    size_t whylen)
{
	const char	*hit, *label, *end;
	size_t		 i;

	if ((c->flags & CANON_NO_SCHEME) || (strcmp(c->scheme, "http") != 0 &&
	    strcmp(c->scheme, "https") != 0)) {
		snprintf(why, whylen, "only http:// and https:// destinations "
		    "are allowed");
		return 1;
	}
	if (flag_refused(c, form_refusals, LZ_NELEM(form_refusals), why,
	    whylen))
		return 1;
	if (c->flags & (CANON_IPV4 | CANON_IPV6)) {
		if (!conf->allow_ip_hosts) {
			snprintf(why, whylen, "it points to an IP address "
			    "(%s) instead of a host name", c->host);
			return 1;
		}
		if (lz_addr_class(&c->addr) != LZ_ADDR_PUBLIC) {
			snprintf(why, whylen, "it points to a %s address (%s), "
			    "not a public one", lz_addr_class_name(
			    lz_addr_class(&c->addr)), c->host);
			return 1;
		}
	}
	if (flag_refused(c, host_refusals, LZ_NELEM(host_refusals), why,
	    whylen))
		return 1;
	if (!(c->flags & (CANON_IPV4 | CANON_IPV6))) {
		if (strchr(c->host, '.') == NULL) {
			snprintf(why, whylen, "its host name (%s) has no "
			    "domain, so it only exists on a local network",
			    c->host);
			return 1;
		}
		for (i = 0; i < LZ_NELEM(local_domains); i++)
			if (canon_host_within(c->host, local_domains[i])) {
				snprintf(why, whylen, "it points to a local "
				    "network name (%s)", c->host);
				return 1;
			}
	}
	hostlist_update(&own_hosts, conf->base_url, conf->own_hosts);
	if ((hit = hostlist_match(&own_hosts, c->host)) != NULL) {
		snprintf(why, whylen, "it points to this service (%s), which "
		    "would make a redirect loop", hit);
		return 1;
	}
	hostlist_update(&shorteners, NULL, conf->shorteners);
	if ((hit = hostlist_match(&shorteners, c->host)) != NULL) {
		snprintf(why, whylen, "it points to another link shortener "
		    "(%s); link to the final destination instead", hit);
		return 1;
	}
	if (c->flags & CANON_IDN)
		for (label = c->host; *label; label = *end ? end + 1 : end) {
			if ((end = strchr(label, '.')) == NULL)
				end = label + strlen(label);
			if (idn_label_check(label, (size_t)(end - label), why,
			    whylen))
				return 1;
		}
	return 0;
}

/* The answer of one URL of scan_urls. */
struct verdict {
	int	 rc;		/* 0 safe, 1 refused, -1 not checked */
	char	*why;		/* with 1 and -1 */
	/* While the database is asked: */
	int	 asked;		/* its host and blocklist questions put */
	size_t	 host;		/* its host's number in the batch's hosts */
	size_t	 bl;		/* its destination in the blocklist batch */
};

static void
own_host(size_t i, void *arg)
{
	char	*own = arg;

	own[i] = 1;
}

/*
 * The safety scan of url[0..n) into v: the heuristics of each, then the
 * database asked once for all of them -- which hosts are short domains
 * of this instance besides the default one (the heuristics know that
 * one from base_url: a redirect loop), and which host or URL the
 * blocklists hold -- instead of twice a URL.  An import's or a bulk
 * call's thousand links cost two questions, not two thousand (round
 * trips on PostgreSQL).
 */
static void
scan_urls(const struct lz_conf *conf, struct lz_db *db,
    const char *const *url, size_t n, struct verdict *v)
{
	struct lz_strtab	 hosts;
	struct bl_batch		 bl;
	struct canon		 c;
	char			 why[512], *own = NULL;
	size_t			 i, len;
	int			 rc = 0;

	conf = conf_or_defaults(conf);
	memset(&hosts, 0, sizeof(hosts));
	memset(&bl, 0, sizeof(bl));
	for (i = 0; i < n; i++) {
		memset(&v[i], 0, sizeof(v[i]));
		if ((len = strlen(url[i])) > URL_MAX) {
			v[i].rc = 1;
			v[i].why = xstrdup("it is longer than 2,048 bytes");
			continue;
		}
		if (canon_url(url[i], len, &c) == -1) {
			v[i].rc = 1;
			v[i].why = xstrdup("it has no host");
			continue;
		}
		if ((v[i].rc = heuristics(conf, &c, why, sizeof(why))) != 0)
			v[i].why = xstrdup(why);
		else if (db != NULL) {
			v[i].asked = 1;
			v[i].host = lz_strtab_put(&hosts, c.host);
			v[i].bl = bl_batch_add(&bl, &c);
		}
		canon_free(&c);
	}
	if (hosts.n > 0) {
		own = xcalloc(hosts.n, 1);
		if (store_domain_hosts_live(db, (const char *const *)hosts.v,
		    hosts.n, own_host, own) == -1)
			rc = -1;
		else if (bl_batch_run(db, &bl) == -1)
			rc = -2;
	}
	for (i = 0; i < n; i++) {
		if (!v[i].asked)
			continue;
		if (rc != 0) {
			v[i].rc = -1;
			v[i].why = xstrdup(rc == -1 ? "the short domains could "
			    "not be read" : "the blocklists could not be read");
		} else if (own[v[i].host]) {
			v[i].rc = 1;
			v[i].why = xasprintf("it points to a short domain of "
			    "this service (%s), which would make a redirect "
			    "loop", hosts.v[v[i].host]);
		} else if (bl_batch_why(&bl, v[i].bl, why, sizeof(why)) == 1) {
			v[i].rc = 1;
			v[i].why = xstrdup(why);
		}
	}
	free(own);
	lz_strtab_free(&hosts);
	bl_batch_free(&bl);
}

int
safety_scan(const struct lz_conf *conf, struct lz_db *db, const char *url,
    char *why, size_t whylen)
{
	struct verdict	 v;

	scan_urls(conf, db, &url, 1, &v);
	if (v.rc != 0)
		snprintf(why, whylen, "%s", v.why);
	free(v.why);
	return v.rc;
}

/* ---- the destinations of a link ---------------------------------------- */

struct safety_dest *
safety_dests(const struct link *l, size_t *n)
{
	struct safety_dest	*d;
	const char		*key;
	json_t			*v;
	size_t			 i, cap;

	cap = 2 + (l->variants ? (json_is_array(l->variants) ?
	    json_array_size(l->variants) : json_object_size(l->variants)) : 0);
	d = xcalloc(cap, sizeof(*d));
	*n = 0;
	if (l->target_url != NULL) {
		snprintf(d[*n].param, sizeof(d[*n].param), "target_url");
		d[(*n)++].url = l->target_url;
	}
	if (json_is_array(l->variants))
		json_array_foreach(l->variants, i, v) {
			key = json_string_value(json_object_get(v, "url"));
			if (key == NULL)
				continue;
			snprintf(d[*n].param, sizeof(d[*n].param),
			    "variants[%zu].url", i);
			d[(*n)++].url = key;
		}
	else if (json_is_object(l->variants))
		json_object_foreach(l->variants, key, v) {
			if (!json_is_string(v))
				continue;
			snprintf(d[*n].param, sizeof(d[*n].param),
			    "variants.%.32s", key);
			d[(*n)++].url = json_string_value(v);
		}
	if (l->expired_url != NULL) {
		snprintf(d[*n].param, sizeof(d[*n].param), "expired_url");
		d[(*n)++].url = l->expired_url;
	}
	return d;
}

size_t
safety_links(const struct lz_conf *conf, struct lz_db *db,
    const struct link *ls, char *ok, size_t n, struct lz_verr *es)
{
	struct safety_dest	**d;
	struct verdict		 *v;
	const char		**url;
	size_t			 *nd, i, j, k, all = 0, refused = 0;

	d = xcalloc(n ? n : 1, sizeof(*d));
	nd = xcalloc(n ? n : 1, sizeof(*nd));
	for (i = 0; i < n; i++)
		if (ok[i]) {
			d[i] = safety_dests(&ls[i], &nd[i]);
			all += nd[i];
		}
	url = xcalloc(all + 1, sizeof(*url));
	v = xcalloc(all + 1, sizeof(*v));
	for (i = k = 0; i < n; i++)
		for (j = 0; ok[i] && j < nd[i]; j++)
			url[k++] = d[i][j].url;
	scan_urls(conf, db, url, all, v);
	/* Each link's answer: its first destination refused (or not
	 * checked), as one scanned after the other would find. */
	for (i = k = 0; i < n; i++) {
		for (j = 0; d[i] != NULL && j < nd[i]; j++, k++) {
			const char	*param = d[i][j].param;

			if (v[k].rc == 0 || !ok[i])
				continue;
			if (v[k].rc == 1)
				lz_verr_set(&es[i], 400, "unsafe_destination",
				    param, "'%s' is refused by the safety scan: "
				    "%s.", param, v[k].why);
			else
				lz_verr_set(&es[i], 500, "internal_error", param,
				    "'%s' could not be checked: %s.", param,
				    v[k].why);
			ok[i] = 0;
			refused++;
		}
		/* Those that pass, looked up with Safe Browsing. */
		if (ok[i] && safety_remote(conf, &ls[i], &es[i]) == -1) {
			ok[i] = 0;
			refused++;
		}
		free(d[i]);
	}
	for (k = 0; k < all; k++)
		free(v[k].why);
	free(v);
	free(url);
	free(nd);
	free(d);
	return refused;
}

int
safety_link(const struct lz_conf *conf, struct lz_db *db,
    const struct link *l, struct lz_verr *e)
{
	char	 ok = 1;

	return safety_links(conf, db, l, &ok, 1, e) == 0 ? 0 : -1;
}

/* ---- Google Safe Browsing ---------------------------------------------- */

static const char *
threat_words(const char *type)
{
	if (strcmp(type, "MALWARE") == 0)
		return "malware";
	if (strcmp(type, "SOCIAL_ENGINEERING") == 0)
		return "phishing (social engineering)";
	if (strcmp(type, "UNWANTED_SOFTWARE") == 0)
		return "unwanted software";
	if (strcmp(type, "POTENTIALLY_HARMFUL_APPLICATION") == 0)
		return "a potentially harmful application";
	return "a threat";
}

int
safety_remote(const struct lz_conf *conf, const struct link *l,
    struct lz_verr *e)
{
	struct safety_dest	*d;
	struct canon		*c;
	const char		**urls;
	char			 threat[64], err[256];
	size_t			 n, i, hit = 0;
	int			 rc;

	if (conf == NULL || conf->safe_browsing_key[0] == '\0')
		return 0;
	d = safety_dests(l, &n);
	c = xcalloc(n ? n : 1, sizeof(*c));
	urls = xcalloc(n ? n : 1, sizeof(*urls));
	for (i = 0; i < n; i++)
		urls[i] = canon_url(d[i].url, strlen(d[i].url), &c[i]) == 0 ?
		    c[i].url : d[i].url;
	rc = sb_lookup(conf, urls, n, &hit, threat, sizeof(threat), err,
	    sizeof(err));
	if (rc == 1) {
		lz_verr_set(e, 400, "unsafe_destination", d[hit].param, "'%s' "
		    "is refused by the safety scan: Google Safe Browsing lists "
		    "it as %s.", d[hit].param, threat_words(threat));
		lz_log(LZ_LOG_INFO, "safe browsing: %s listed as %s",
		    urls[hit], threat);
	} else if (rc == -1) {
		lz_log(LZ_LOG_WARN, "safe browsing lookup failed (%s); "
		    "safe_browsing_fail is %s", err, conf->sb_fail_closed ?
		    "closed: refusing the link" : "open: going on");
		if (conf->sb_fail_closed)
			lz_verr_set(e, 503, "scan_unavailable", NULL, "The "
			    "destination could not be checked with Google Safe "
			    "Browsing just now; try again later.");
		else
			rc = 0;
	}
	for (i = 0; i < n; i++)
		canon_free(&c[i]);
	free(c);
	free(urls);
	free(d);
	return rc == 0 ? 0 : -1;
}

/* ---- re-checking existing links ----------------------------------------- */

struct flag {
	int64_t	 id;
	char	 reason[320];
};

struct recheck {
	struct lz_db	*db;
	int64_t		 last_id;
	struct flag	*flags;
	size_t		 nflags;
	long		 checked;
	int		 dberr;
};

static void
recheck_one(struct link *l, void *arg)
{
	struct recheck		*rc = arg;
	struct safety_dest	*d;
	struct canon		 c;
	char			 why[256];
	size_t			 n, i;
	int			 hit = 0;

	rc->last_id = l->id;
	rc->checked++;
	d = safety_dests(l, &n);
	for (i = 0; i < n && !hit && !rc->dberr; i++) {
		if (canon_url(d[i].url, strlen(d[i].url), &c) == -1)
			continue;
		switch (bl_match(rc->db, &c, why, sizeof(why))) {
		case 1:
			rc->flags = xreallocarray(rc->flags, rc->nflags + 1,
			    sizeof(*rc->flags));
			rc->flags[rc->nflags].id = l->id;
			snprintf(rc->flags[rc->nflags].reason,
			    sizeof(rc->flags[rc->nflags].reason), "%s: %s",
			    d[i].param, why);
			rc->nflags++;
			hit = 1;
			break;
		case -1:
			rc->dberr = 1;
			break;
		}
		canon_free(&c);
	}
	free(d);
}

int
safety_recheck(struct lz_db *db, int64_t now, long *checked, long *flagged)
{
	struct recheck	 rc;
	long		 n;
	size_t		 i;
	int		 r;

	memset(&rc, 0, sizeof(rc));
	rc.db = db;
	*checked = *flagged = 0;
	do {
		rc.nflags = 0;
		if ((n = store_link_scan(db, rc.last_id, RECHECK_BATCH,
		    recheck_one, &rc)) < 0 || rc.dberr)
			goto fail;
		if (rc.nflags == 0)
			continue;
		if (lz_db_begin(db) == -1)
			goto fail;
		for (i = 0; i < rc.nflags; i++) {
			if ((r = store_link_flag(db, rc.flags[i].id, now,
			    rc.flags[i].reason)) == -1)
				goto fail;
			*flagged += r;
			if (r == 1)
				lz_log(LZ_LOG_WARN, "link %lld flagged: %s",
				    (long long)rc.flags[i].id,
				    rc.flags[i].reason);
		}
		if (lz_db_commit(db) == -1)
			goto fail;
	} while (n == RECHECK_BATCH);
	*checked = rc.checked;
	free(rc.flags);
	return 0;
fail:
	lz_db_rollback(db);
	*checked = rc.checked;
	free(rc.flags);
	return -1;
}
