/*
 * page_redirect.c -- visits of short links: GET and HEAD /<slug> and
 * /<slug>/<suffix>, POST for the password form (DESIGN 3.4).
 *
 * The request's Host picks the short domain (domain/hostmap.h): an
 * unknown host is the 404 page, whatever the slug.  The steps, in order:
 * unknown (or deleted) link: the domain's not_found_url, else the 404
 * page; disabled by the safety scan: 410 page; expired or capped: the
 * link's expired_url, else the domain's, else the 410 page; password:
 * the form, and a
 * right password goes on; a human in an in-app browser, at a link with
 * escape_inapp: the escape page, and nothing is recorded yet.  Then the
 * click is recorded (bots and previewers as bots) and the visitor is
 * sent on: a social previewer of a link with og gets the preview page, a
 * human at a link with pixels the pixel page, everyone else a 301/302
 * (303 after the form).  HEAD answers the same but records nothing; a
 * capped link's target goes only into answers that count (uncounted()).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "addr.h"
#include "api.h"
#include "auth/throttle.h"
#include "conf.h"
#include "ctx.h"
#include "domain/domain.h"
#include "domain/host.h"
#include "domain/hostmap.h"
#include "link/link.h"
#include "log.h"
#include "pwhash.h"
#include "query.h"
#include "resp.h"
#include "serve.h"
#include "visit/click.h"
#include "visit/geo.h"
#include "visit/journal.h"
#include "visit/linkcache.h"
#include "visit/pages.h"
#include "visit/record.h"
#include "visit/target.h"
#include "visit/ua.h"
#include "visit/visitor.h"

/* The longest window of a link's password ceiling (DESIGN 3.11). */
#define PW_MAX_BYTES	(128 * 4)	/* 128 characters of UTF-8 */
#define PW_FORM_MAX	4096		/* bytes of a posted form */

/* The query parameter by which the escape page lets a visitor stay in
 * the app; LINE's own is openExternalBrowser. */
#define STAY_PARAM	"lz_inapp"
#define STAY_VALUE	"stay"

struct visit {
	struct lz_req	*r;
	const struct domain *d;		/* the host's (hostmap's) */
	const char	*slug;
	const char	*suffix;	/* "" without one */
	const struct link *l;		/* the link cache's */
	struct ua_info	 ua;
	int		 bot;
	int		 posted;	/* the right password was posted */
	char		 country[3];
	char		*short_url;	/* base_url/slug[/suffix], or NULL
					   until short_url() */
};

static void
message(struct lz_req *r, int status, const char *title, const char *text)
{
	struct page	 p;

	pages_message(&p, title, text);
	page_send(r, status, &p);
}

static void
not_found(struct lz_req *r)
{
	message(r, 404, "Link not found", "There is no short link at this "
	    "address. Check that it was copied completely.");
}

static void
capped(struct lz_req *r)
{
	message(r, 410, "Link no longer available", "This link has reached "
	    "the number of visits its owner allowed.");
}

static void
unavailable(struct lz_req *r)
{
	lz_resp_header(r, "Retry-After", "5");
	message(r, 503, "Temporarily unavailable", "This link cannot be "
	    "opened right now. Please try again in a moment.");
}

/* A 302 to url, which a visitor's browser must not keep. */
static void
send_to(struct lz_req *r, const char *url)
{
	lz_resp_header(r, "Location", "%s", url);
	lz_resp_header(r, "Cache-Control", "no-store");
	lz_resp_send(r, 302, NULL, NULL, 0);
}

/*
 * The short domain of the request's Host into *d: 1; 0 after the 404
 * page (no such domain); -1 after a 503 (the domains cannot be read).
 */
static int
visit_domain(struct lz_req *r, const struct domain **d)
{
	const char	*h = lz_req_param(r, "HTTP_HOST");
	char		 host[HOST_MAX + 1];
	int		 rc;

	if (h != NULL && host_of_header(h, host, sizeof(host)) == -1) {
		not_found(r);
		return 0;
	}
	if ((rc = hostmap_find(&links.db, links.conf, h ? host : NULL,
	    r->now_ms, d)) == 1)
		return 1;
	if (rc == 0)
		not_found(r);
	else
		unavailable(r);
	return rc;
}

/* No link at this slug of domain d: its not_found_url, else the page. */
static void
no_link(struct lz_req *r, const struct domain *d)
{
	if (d->not_found_url != NULL)
		send_to(r, d->not_found_url);
	else
		not_found(r);
}

void
redirect_wellknown(struct lz_req *r)
{
	const struct domain	*d;
	const char		*file;

	if (visit_domain(r, &d) != 1)
		return;
	file = strcmp(r->path, "/.well-known/assetlinks.json") == 0 ?
	    d->assetlinks : d->aasa;
	if (file == NULL) {
		not_found(r);
		return;
	}
	/* Apple and Google fetch them as they are, without redirects. */
	lz_resp_header(r, "Cache-Control", "max-age=300");
	lz_resp_send(r, 200, "application/json", file, strlen(file));
}

void
redirect_notfound(struct lz_req *r)
{
	const struct domain	*d;

	/* The APIs answer in JSON, visitors get a page. */
	if (strcmp(r->path, "/api") == 0 || strncmp(r->path, "/api/", 5) == 0 ||
	    strncmp(r->path, "/dashboard/api/", 15) == 0) {
		lz_resp_error(r, 404, "not_found", NULL,
		    "There is nothing at this path.");
		return;
	}
	if (visit_domain(r, &d) != 1)
		return;
	if (strcmp(r->path, "/") == 0 && d->root_url != NULL)
		send_to(r, d->root_url);
	else
		no_link(r, d);
}

/* The country: the trusted param when configured and set, else the
 * IP-range table, else "". */
static void
visit_country(struct visit *v)
{
	const char	*p;
	struct lz_addr	 a;

	v->country[0] = '\0';
	if (links.conf->country_param[0] != '\0' &&
	    (p = lz_req_param(v->r, links.conf->country_param)) != NULL &&
	    strlen(p) == 2 && strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz") == 2) {
		v->country[0] = (char)(p[0] & ~0x20);
		v->country[1] = (char)(p[1] & ~0x20);
		v->country[2] = '\0';
		return;
	}
	if (lz_addr_parse(v->r->remote_addr, &a) == 0)
		(void)geo_lookup(&a, v->country);
}

/* 1 when the visitor's query string says to stay in the app. */
static int
wants_stay(struct lz_req *r)
{
	struct lz_query	 q;
	struct lz_verr	 e;
	const char	*s;
	int		 stay = 0;

	memset(&q, 0, sizeof(q));
	if (lz_query_parse(r->query, &q, &e) == 0 &&
	    (s = lz_query_get(&q, STAY_PARAM)) != NULL)
		stay = strcmp(s, STAY_VALUE) == 0;
	lz_query_free(&q);
	return stay;
}

/* ---- the password ---------------------------------------------------- */

static void
password_form(struct visit *v, int status, const char *error)
{
	struct page	 p;
	char		*action;

	action = *v->suffix ? xasprintf("/%s/%s", v->slug, v->suffix) :
	    xasprintf("/%s", v->slug);
	pages_password(&p, action, error);
	free(action);
	page_send(v->r, status, &p);
}

static int
is_form_type(const char *ct)
{
	size_t	 n = strlen("application/x-www-form-urlencoded");

	return strncasecmp(ct, "application/x-www-form-urlencoded", n) == 0 &&
	    (ct[n] == '\0' || ct[n] == ';' || ct[n] == ' ');
}

/* 429 with Retry-After wait seconds; who is whose tries. */
static void
too_many_tries(struct lz_req *r, long long wait, const char *who)
{
	char	 text[200];

	ops_limited(OPS_LIMIT_LINK_PASSWORD);
	lz_resp_header(r, "Retry-After", "%lld", wait);
	snprintf(text, sizeof(text), "Too many tries at this link's password "
	    "%s. Try again in %lld minute%s.", who, (wait + 59) / 60,
	    wait > 60 ? "s" : "");
	message(r, 429, "Too many tries", text);
}

/*
 * Takes a try at the link's password (auth/throttle.h): one of the
 * client network's (link_password_max_failures in link_password_window)
 * and one of the link's over every network
 * (link_password_max_failures_link, with back-off), scopes net and all.
 * Only then does the argon2id check run.  Returns 1 taken; else answers
 * (429 or 503) and returns 0.
 */
static int
password_take(struct visit *v, const char *net, const char *all)
{
	const struct lz_conf	*c = links.conf;
	struct lz_req		*r = v->r;
	struct throttle_rule	 one = { c->link_password_max_failures,
	    c->link_password_window * 1000, 0 };
	struct throttle_rule	 every = { c->link_password_max_failures_link,
	    c->link_password_window * 1000, THROTTLE_LONGEST_MS };
	long long		 wait;
	int			 rc;

	rc = throttle_take(&links.db, net, &one, r->now_ms, &wait);
	if (rc == 1) {
		rc = throttle_take(&links.db, all, &every, r->now_ms, &wait);
		if (rc != 1)
			(void)throttle_give_back(&links.db, net);
		if (rc == 0)
			too_many_tries(r, wait, "from everywhere");
	} else if (rc == 0)
		too_many_tries(r, wait, "from your network");
	if (rc == -1)
		unavailable(r);
	return rc == 1;
}

/*
 * Checks a posted password.  Returns 1 when it is right; otherwise
 * answers (the form again, 429 or 503) and returns 0.
 */
static int
password_check(struct visit *v)
{
	struct lz_req	*r = v->r;
	struct lz_query	 q;
	struct lz_verr	 e;
	char		 net[THROTTLE_SCOPE_MAX], all[THROTTLE_SCOPE_MAX];
	const char	*pw;
	int		 rc, ok = 0;

	memset(&q, 0, sizeof(q));
	if (!is_form_type(r->content_type)) {
		password_form(v, 400, "Enter the password in the form.");
		return 0;
	}
	/* The form is a few hundred bytes; the JSON 413 is for the API. */
	if (r->content_length > PW_FORM_MAX) {
		password_form(v, 413, "Enter the password in the form.");
		return 0;
	}
	if (lz_req_body(r) == -1)
		return 0;
	rc = lz_query_parse(r->body, &q, &e);
	sodium_memzero(r->body, r->bodylen);
	if (rc == -1 || (pw = lz_query_get(&q, "password")) == NULL ||
	    *pw == '\0') {
		password_form(v, 400, "Enter the password.");
		goto out;
	}
	throttle_scope_link(v->l->id, r->remote_addr, net, sizeof(net));
	throttle_scope_link(v->l->id, NULL, all, sizeof(all));
	if (!password_take(v, net, all))
		goto out;
	ok = strlen(pw) <= PW_MAX_BYTES && v->l->password_hash != NULL &&
	    lz_pwhash_ok(v->l->password_hash, pw);
	if (!ok) {
		password_form(v, 403, "Wrong password. Please try again.");
		goto out;
	}
	/* A right password gives its tries back: only wrong ones add up. */
	(void)throttle_give_back(&links.db, net);
	(void)throttle_give_back(&links.db, all);
out:
	for (size_t i = 0; i < q.n; i++)
		sodium_memzero(q.kv[i].val, strlen(q.kv[i].val));
	lz_query_free(&q);
	return ok;
}

/* Where visitors of v's link go once it expired or is capped: the
 * link's expired_url, else its domain's; NULL: the 410 page. */
static const char *
expired_url(const struct visit *v)
{
	return v->l->expired_url != NULL ? v->l->expired_url :
	    v->d->expired_url;
}

/* The capped link's answer: expired_url(), else the 410 page. */
static void
capped_visit(const struct visit *v)
{
	if (expired_url(v) != NULL)
		send_to(v->r, expired_url(v));
	else
		capped(v->r);
}

/* ---- the click ------------------------------------------------------- */

/*
 * Records the click of a visit.  Returns 0, or -1 after answering (the
 * cap was reached meanwhile, or a capped link's click cannot be
 * stored).
 */
static int
record(struct visit *v, const char *variant, const char *target)
{
	struct lz_req	*r = v->r;
	struct click	 c;
	char		 referrer[CLICK_REFERRER_MAX];
	int		 rc;

	memset(&c, 0, sizeof(c));
	click_referrer(lz_req_param(r, "HTTP_REFERER"), referrer,
	    sizeof(referrer));
	c.link_id = v->l->id;
	c.at = r->now_ms;
	c.suffix = v->suffix;
	memcpy(c.country, v->country, sizeof(c.country));
	c.device = ua_device_name(v->ua.device);
	c.os = v->ua.os;
	c.browser = v->ua.browser;
	c.referrer = referrer;
	c.variant = variant;
	c.target = target;
	visitor_id(r->remote_addr, r->user_agent, r->now_ms, c.visitor);
	c.bot = v->bot;

	/*
	 * A capped link's human click: the cap check, the count and the
	 * click are one transaction, so exactly max_clicks are served.
	 * Everything else goes to the journal; if that fails the click is
	 * stored at once instead.
	 */
	if (c.bot || v->l->max_clicks == 0) {
		if (journal_append(&c) == 0) {
			lz_metrics_add(links.metrics, OPS_JOURNALED, 0, 1);
			return 0;
		}
	}
	if (lz_db_begin(&links.db) == -1)
		goto fail;
	rc = record_click(&links.db, v->l, &c, r->now_ms,
	    v->l->max_clicks ? RECORD_CAP : 0, NULL);
	if (rc == 1 && lz_db_commit(&links.db) == 0)
		return 0;
	lz_db_rollback(&links.db);
	if (rc == 0) {
		capped_visit(v);
		return -1;
	}
fail:
	if (v->l->max_clicks != 0 && !c.bot) {
		/* Without its count a capped link cannot stay exact. */
		unavailable(r);
		return -1;
	}
	lz_log(LZ_LOG_ERR, "rid=%s: the click of link %lld could not be "
	    "recorded", r->request_id, (long long)v->l->id);
	return 0;
}

/* ---- the visit ------------------------------------------------------- */

static void
visit_free(struct visit *v)
{
	free(v->short_url);
}

/* The answer of a link that cannot be visited any more; 0 when it can. */
static int
gone(const struct visit *v)
{
	struct lz_req		*r = v->r;
	const struct link	*l = v->l;
	enum link_status	 st = link_status(l, r->now_ms);

	if ((st == STATUS_EXPIRED || st == STATUS_CAPPED) &&
	    expired_url(v) != NULL) {
		send_to(r, expired_url(v));
		return 1;
	}
	switch (st) {
	case STATUS_ACTIVE:
		return 0;
	case STATUS_DISABLED:
		message(r, 410, "Link disabled", "This link was disabled "
		    "because its destination was found to be unsafe "
		    "(phishing or malware).");
		break;
	case STATUS_EXPIRED:
		message(r, 410, "Link expired", "This link has expired and "
		    "no longer leads anywhere.");
		break;
	case STATUS_CAPPED:
		capped(r);
		break;
	}
	return 1;
}

/* The public URL of the visit: its domain's, /slug[/suffix]. */
static void
short_url(struct visit *v)
{
	if (v->short_url == NULL)
		v->short_url = link_short_url(links.conf->base_url, v->l,
		    *v->suffix ? v->suffix : NULL);
}

static void
escape(struct visit *v)
{
	struct page	 p;
	enum escape_kind kind;
	char		*stay;
	static const char *const apps[] = {
		"", "LINE", "Facebook", "Instagram", "Messenger", "WeChat",
		"TikTok", "X"
	};
	const char	*app = (unsigned)v->ua.inapp < LZ_NELEM(apps) ?
	    apps[v->ua.inapp] : "this app";

	short_url(v);
	if (v->ua.inapp == UA_INAPP_LINE)
		kind = ESCAPE_LINE;
	else if (strcmp(v->ua.os, "android") == 0)
		kind = ESCAPE_ANDROID;
	else
		kind = ESCAPE_MANUAL;
	stay = xasprintf("%s?%s=%s", v->short_url, STAY_PARAM, STAY_VALUE);
	pages_escape(&p, kind, app, v->short_url, stay);
	free(stay);
	page_send(v->r, 200, &p);
}

/*
 * A visit that does not count against a capped link's max_clicks (HEAD,
 * bots and previewers, which an empty User-Agent is): the og preview
 * without the target when the link has one, else a page that says where
 * the link opens.  Neither holds the target.
 */
static void
uncounted(struct visit *v)
{
	struct page	 p;

	if (v->l->og != NULL) {
		short_url(v);
		pages_preview(&p, v->l, v->short_url, NULL);
	} else
		pages_message(&p, "Open this link in a browser", "This link "
		    "leads on a limited number of times, only when it is "
		    "opened in a web browser.");
	page_send(v->r, 200, &p);
}

static int
has_pixels(const struct link *l)
{
	size_t	 i;

	for (i = 0; i < PIXEL__MAX; i++)
		if (l->pixel[i] != NULL)
			return 1;
	return 0;
}

void
redirect_visit(struct lz_req *r)
{
	struct visit		 v;
	struct target_visit	 tv;
	struct page		 p;
	char			 variant[VARIANT_MAX], *target = NULL;
	const char		*url;
	int			 rc, status;

	memset(&v, 0, sizeof(v));
	v.r = r;
	v.slug = r->args[0];
	v.suffix = r->nargs > 1 ? r->args[1] : "";
	if (strcmp(v.slug, "api") == 0) {
		redirect_notfound(r);
		return;
	}
	if (visit_domain(r, &v.d) != 1)
		return;
	if (!slug_valid(v.slug) || (*v.suffix && !suffix_valid(v.suffix))) {
		no_link(r, v.d);
		return;
	}
	if ((rc = linkcache_get(&links.db, v.d->id, v.slug, r->now_ms,
	    &v.l)) == -1) {
		unavailable(r);
		return;
	}
	if (rc == 0 || v.l->deleted_at != 0) {
		no_link(r, v.d);
		goto out;
	}
	if (gone(&v))
		goto out;
	if (r->meth == LZ_M_POST && v.l->password_hash == NULL) {
		lz_resp_header(r, "Allow", "GET, HEAD");
		message(r, 405, "Method not allowed", "This short link is "
		    "opened with GET.");
		goto out;
	}
	if (v.l->password_hash != NULL) {
		if (r->meth != LZ_M_POST) {
			password_form(&v, 200, NULL);
			goto out;
		}
		if (!password_check(&v))
			goto out;
		v.posted = 1;
	}

	ua_parse_memo(r->user_agent, &v.ua);
	v.bot = v.ua.bot || v.ua.preview;
	if (!v.posted && v.ua.inapp != UA_INAPP_NONE && v.l->escape_inapp &&
	    !v.bot && !wants_stay(r)) {
		escape(&v);
		goto out;
	}
	visit_country(&v);
	memset(&tv, 0, sizeof(tv));
	tv.os = v.ua.os;
	tv.desktop = v.ua.device == UA_DESKTOP;
	tv.country = v.country;
	if (v.l->mode == MODE_AB)
		tv.bucket = visitor_bucket(r->remote_addr, r->user_agent,
		    v.l->id);
	url = target_pick(v.l, &tv, variant);
	if ((target = target_with_utm(v.l, url)) == NULL) {
		lz_log(LZ_LOG_ERR, "rid=%s: link %lld: target URL does not "
		    "parse", r->request_id, (long long)v.l->id);
		unavailable(r);
		goto out;
	}
	if (r->meth != LZ_M_HEAD && record(&v, variant, target) == -1)
		goto out;

	if (v.l->max_clicks != 0 && (r->meth == LZ_M_HEAD || v.bot)) {
		/* A capped link hands its target out only in answers that
		 * count against the cap (DESIGN 3.11). */
		uncounted(&v);
	} else if (v.ua.preview && v.l->og != NULL) {
		short_url(&v);
		pages_preview(&p, v.l, v.short_url, target);
		page_send(r, 200, &p);
	} else if (!v.bot && has_pixels(v.l)) {
		pages_pixels(&p, v.l, target);
		page_send(r, 200, &p);
	} else {
		status = v.posted ? 303 : v.l->redirect_type;
		lz_resp_header(r, "Location", "%s", target);
		/* A permanent redirect is cached briefly, so caps, expiry
		 * and counting keep working. */
		lz_resp_header(r, "Cache-Control", status == 301 ?
		    "private, max-age=90" : "no-store");
		lz_resp_send(r, status, NULL, NULL, 0);
	}
out:
	free(target);
	visit_free(&v);
}
