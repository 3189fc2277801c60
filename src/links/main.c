/*
 * main.c -- lz-links: the link service's FastCGI pool.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "auth/auth.h"
#include "auth/quota.h"
#include "auth/scope.h"
#include "auth/session.h"
#include "auth/team.h"
#include "auth/throttle.h"
#include "conf.h"
#include "ctx.h"
#include "log.h"
#include "lztime.h"
#include "mail/queue.h"
#include "pool.h"
#include "ratelimit.h"
#include "resolve.h"
#include "resp.h"
#include "route.h"
#include "service.h"
#include "store/store.h"
#include "store/wal.h"
#include "util.h"
#include "visit/geo.h"
#include "visit/journal.h"
#include "visit/mover.h"
#include "visit/visitor.h"
#include "webhook/events.h"
#include "webhook/sign.h"

static const struct lz_route routes[] = {
	{ LZ_M_POST,	"/api/v1/links",	RF_KEY(SC_LINKS_WRITE),
	    api_links_create },
	{ LZ_M_GET,	"/api/v1/links",	RF_KEY(SC_LINKS_READ),
	    api_links_list },
	{ LZ_M_POST,	"/api/v1/links/bulk",	RF_KEY(SC_LINKS_WRITE),
	    api_bulk_create },
	{ LZ_M_PATCH,	"/api/v1/links/bulk",	RF_KEY(SC_LINKS_WRITE),
	    api_bulk_update },
	{ LZ_M_DELETE,	"/api/v1/links/bulk",	RF_KEY(SC_LINKS_WRITE),
	    api_bulk_delete },
	{ LZ_M_GET,	"/api/v1/links/:id",	RF_KEY(SC_LINKS_READ),
	    api_links_get },
	{ LZ_M_PATCH,	"/api/v1/links/:id",	RF_KEY(SC_LINKS_WRITE),
	    api_links_update },
	{ LZ_M_DELETE,	"/api/v1/links/:id",	RF_KEY(SC_LINKS_WRITE),
	    api_links_delete },
	{ LZ_M_GET,	"/api/v1/links/:id/stats", RF_KEY(SC_STATS_READ),
	    api_links_stats },
	{ LZ_M_GET,	"/api/v1/links/:id/qr",	RF_KEY(SC_LINKS_READ),
	    api_links_qr },
	{ LZ_M_GET,	"/api/v1/links/:id/clicks", RF_KEY(SC_STATS_READ),
	    api_links_clicks },
	{ LZ_M_GET,	"/api/v1/stats",	RF_KEY(SC_STATS_READ),
	    api_account_stats },
	{ LZ_M_GET,	"/api/v1/tags",		RF_KEY(SC_LINKS_READ),
	    api_tags_list },
	{ LZ_M_PATCH,	"/api/v1/tags/:name",	RF_KEY(SC_TAGS_WRITE),
	    api_tags_rename },
	{ LZ_M_DELETE,	"/api/v1/tags/:name",	RF_KEY(SC_TAGS_WRITE),
	    api_tags_delete },
	{ LZ_M_GET,	"/api/v1/domains",	RF_KEY(SC_DOMAINS_READ),
	    api_domains_list },
	{ LZ_M_POST,	"/api/v1/domains",	RF_KEY(SC_DOMAINS_WRITE),
	    api_domains_add },
	{ LZ_M_GET,	"/api/v1/domains/:host", RF_KEY(SC_DOMAINS_READ),
	    api_domains_get },
	{ LZ_M_PATCH,	"/api/v1/domains/:host", RF_KEY(SC_DOMAINS_WRITE),
	    api_domains_update },
	{ LZ_M_DELETE,	"/api/v1/domains/:host", RF_KEY(SC_DOMAINS_WRITE),
	    api_domains_delete },
	{ LZ_M_POST,	"/api/v1/domains/:host/verify", RF_KEY(SC_DOMAINS_WRITE),
	    api_domains_verify },
	{ LZ_M_GET,	"/api/v1/audit",	RF_KEY(SC_AUDIT_READ),
	    api_audit_list },
	/* The API's OpenAPI document: public, like the API's man page. */
	{ LZ_M_GET,	"/api/v1/openapi.json",	0,	links_openapi },

	/* The dashboard's API (DESIGN 3.8): a session instead of a key.
	 * Each route names the least role it takes (auth/team.h): DASH
	 * for reading (a viewer), DASH_W(role) for a change; the role is
	 * checked here, before the handler, whatever the page shows. */
	{ LZ_M_GET,	"/dashboard/api/session",	0, dash_session },
	{ LZ_M_POST,	"/dashboard/api/signup",	RF_CSRF, dash_signup },
	{ LZ_M_POST,	"/dashboard/api/signin",	RF_CSRF, dash_signin },
	{ LZ_M_POST,	"/dashboard/api/invitation",	RF_CSRF,
	    dash_invitation_accept },
	{ LZ_M_POST,	"/dashboard/api/signout",	DASH_W(ROLE_VIEWER),
	    dash_signout },
	{ LZ_M_POST,	"/dashboard/api/password",	DASH_W(ROLE_VIEWER),
	    dash_password },
	{ LZ_M_POST,	"/dashboard/api/switch",	DASH_W(ROLE_VIEWER),
	    dash_switch },
	{ LZ_M_GET,	"/dashboard/api/account",	DASH, dash_account },
	{ LZ_M_POST,	"/dashboard/api/links",		DASH_W(ROLE_MEMBER),
	    api_links_create },
	{ LZ_M_GET,	"/dashboard/api/links",		DASH, api_links_list },
	{ LZ_M_PATCH,	"/dashboard/api/links/bulk",
	    DASH_W(ROLE_MEMBER) | RF_METER, api_bulk_update },
	{ LZ_M_DELETE,	"/dashboard/api/links/bulk",
	    DASH_W(ROLE_MEMBER) | RF_METER, api_bulk_delete },
	{ LZ_M_GET,	"/dashboard/api/links/:id",	DASH, api_links_get },
	{ LZ_M_PATCH,	"/dashboard/api/links/:id",	DASH_W(ROLE_MEMBER),
	    api_links_update },
	{ LZ_M_DELETE,	"/dashboard/api/links/:id",	DASH_W(ROLE_MEMBER),
	    api_links_delete },
	{ LZ_M_GET,	"/dashboard/api/links/:id/qr",	DASH, api_links_qr },
	{ LZ_M_GET,	"/dashboard/api/links/:id/clicks", DASH | RF_METER,
	    api_links_clicks },
	{ LZ_M_GET,	"/dashboard/api/links/:id/stats", DASH,
	    api_links_stats },
	{ LZ_M_GET,	"/dashboard/api/stats",		DASH,
	    api_account_stats },
	{ LZ_M_GET,	"/dashboard/api/tags",		DASH, api_tags_list },
	{ LZ_M_POST,	"/dashboard/api/import",
	    DASH_W(ROLE_MEMBER) | RF_METER, api_import_csv },
	{ LZ_M_GET,	"/dashboard/api/domains",	DASH,
	    api_domains_list },
	{ LZ_M_POST,	"/dashboard/api/domains",	DASH_W(ROLE_ADMIN),
	    api_domains_add },
	{ LZ_M_PATCH,	"/dashboard/api/domains/:host",	DASH_W(ROLE_ADMIN),
	    api_domains_update },
	{ LZ_M_DELETE,	"/dashboard/api/domains/:host",	DASH_W(ROLE_ADMIN),
	    api_domains_delete },
	{ LZ_M_POST,	"/dashboard/api/domains/:host/verify",
	    DASH_W(ROLE_ADMIN), api_domains_verify },
	{ LZ_M_GET,	"/dashboard/api/keys",		DASH_R(ROLE_ADMIN),
	    dash_keys_list },
	{ LZ_M_POST,	"/dashboard/api/keys",		DASH_W(ROLE_ADMIN),
	    dash_keys_create },
	{ LZ_M_DELETE,	"/dashboard/api/keys/:id",	DASH_W(ROLE_ADMIN),
	    dash_keys_revoke },
	{ LZ_M_GET,	"/dashboard/api/webhooks",	DASH_R(ROLE_ADMIN),
	    dash_hooks_list },
	{ LZ_M_POST,	"/dashboard/api/webhooks",	DASH_W(ROLE_ADMIN),
	    dash_hooks_add },
	{ LZ_M_POST,	"/dashboard/api/webhooks/:id/rotate",
	    DASH_W(ROLE_ADMIN), dash_hooks_rotate },
	{ LZ_M_POST,	"/dashboard/api/webhooks/:id/disable",
	    DASH_W(ROLE_ADMIN), dash_hooks_disable },
	{ LZ_M_POST,	"/dashboard/api/webhooks/:id/test",
	    DASH_W(ROLE_ADMIN), dash_hooks_test },
	{ LZ_M_GET,	"/dashboard/api/webhooks/:id/deliveries",
	    DASH_R(ROLE_ADMIN), dash_hooks_deliveries },
	{ LZ_M_GET,	"/dashboard/api/audit",		DASH_R(ROLE_ADMIN),
	    api_audit_list },
	{ LZ_M_GET,	"/dashboard/api/members",	DASH_R(ROLE_ADMIN),
	    dash_members_list },
	{ LZ_M_POST,	"/dashboard/api/members",	DASH_W(ROLE_ADMIN),
	    dash_members_invite },
	{ LZ_M_PATCH,	"/dashboard/api/members/:id",	DASH_W(ROLE_ADMIN),
	    dash_members_set },
	{ LZ_M_DELETE,	"/dashboard/api/members/:id",	DASH_W(ROLE_ADMIN),
	    dash_members_remove },
	/* Conversion reports (DESIGN 3.7): no credential, CORS open. */
	{ LZ_M_GET,	"/api/conv",	0,	conv_pixel },
	{ LZ_M_POST,	"/api/conv",	0,	conv_post },
	{ LZ_M_OPTIONS,	"/api/conv",	0,	conv_preflight },
	/* Operations (DESIGN 8): no key, no quota. */
	{ LZ_M_GET,	"/healthz",	0,	ops_health },
	{ LZ_M_GET,	"/metrics",	0,	ops_metrics_get },
	/* Each short domain's deep-link files (DESIGN 3.12). */
	{ LZ_M_GET,	"/.well-known/apple-app-site-association", 0,
	    redirect_wellknown },
	{ LZ_M_GET,	"/.well-known/assetlinks.json", 0, redirect_wellknown },
	/* Short links last: anything of one or two segments. */
	{ LZ_M_GET | LZ_M_POST, "/:slug",	0,	redirect_visit },
	{ LZ_M_GET | LZ_M_POST, "/:slug/:suffix", 0,	redirect_visit },
};

static int
before(struct lz_req *r, const struct lz_route *route)
{
	struct auth_caller	*who = API_WHO(r);
	int			 rc;

	if (route->flags & RF_AUTH) {
		if ((rc = auth_api_key(r, &links.db, links.conf, links.quota,
		    who)) == -1 && r->status == 429)
			ops_limited(OPS_LIMIT_QUOTA);
		if (rc == -1)
			return -1;
		return auth_scope(r, who, RF_SCOPE_OF(route->flags));
	}
	if ((route->flags & RF_CSRF) &&
	    !session_request_origin_ok(r, links.conf)) {
		lz_resp_error(r, 403, "cross_origin", NULL, "This request comes "
		    "from another site and is refused.");
		return -1;
	}
	if (route->flags & RF_SESSION) {
		if ((rc = session_load(r, &links.db, links.conf, who)) == -1)
			return -1;
		if (rc == 0) {
			lz_resp_error(r, 401, "not_signed_in", NULL, "Sign in "
			    "to the dashboard first (or again: sessions "
			    "expire).");
			return -1;
		}
		if ((route->flags & RF_CSRF) && !session_csrf_ok(r, who)) {
			lz_resp_error(r, 403, "csrf_token_invalid", NULL, "The "
			    "request lacks the session's X-CSRF-Token header; "
			    "reload the dashboard.");
			return -1;
		}
		if (who->role < RF_ROLE_OF(route->flags)) {
			lz_resp_error(r, 403, "forbidden", NULL, "A %s of this "
			    "account may not do this (%s and above may).",
			    role_names[who->role],
			    role_names[RF_ROLE_OF(route->flags)]);
			return -1;
		}
		if ((route->flags & RF_METER) && (rc = auth_meter(r,
		    &links.db, links.quota, who)) == -1 && r->status == 429)
			ops_limited(OPS_LIMIT_QUOTA);
		if (rc == -1)
			return -1;
	}
	return 0;
}

static const struct lz_router router = {
	routes, LZ_NELEM(routes), before, NULL, redirect_notfound
};

/* Every route taking a key names the scope it needs (api.h): a route
 * that forgot it would let every key through. */
static int
routes_scoped(void)
{
	size_t	 i;

	for (i = 0; i < LZ_NELEM(routes); i++)
		if ((routes[i].flags & RF_AUTH) && (RF_SCOPE_OF(
		    routes[i].flags) < 0 || RF_SCOPE_OF(routes[i].flags) >=
		    SC__MAX)) {
			lz_log(LZ_LOG_ERR, "route %s takes an API key but names "
			    "no scope (RF_KEY)", routes[i].pattern);
			return -1;
		}
	return 0;
}

/* Supervisor, before the fork: the country table, shared by all workers. */
static int
pre_fork(void *arg)
{
	char	 err[512];

	(void)arg;
	if (routes_scoped() == -1)
		return -1;
	if (geo_load(links.conf->geoip_file, links.conf->geoip6_file, err,
	    sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s", err);
		return -1;
	}
	/*
	 * Conversion reports carry no credential (spec 5.5): a per-client
	 * limit keeps one address from inflating a link's figures.  Made
	 * for the largest limit lz.conf allows, also when the limit is off:
	 * a reload may turn it on or raise it (DESIGN 3.11).
	 */
	if (links.conv_rl == NULL && (links.conv_rl = lz_rl_create(16384,
	    LZ_CONV_RATE_MAX)) == NULL) {
		lz_log(LZ_LOG_ERR, "conversion rate limit table: %s",
		    strerror(errno));
		return -1;
	}
	/* What the pool counts, for /metrics: made once, kept by reloads. */
	if (links.metrics == NULL && (links.metrics = lz_metrics_create(
	    "lz-links", routes, LZ_NELEM(routes), ops_metrics, OPS__MAX)) ==
	    NULL) {
		lz_log(LZ_LOG_ERR, "metrics: %s", strerror(errno));
		return -1;
	}
	lz_pool_metrics(links.metrics);
	/* API calls count out leases of their accounts' quotas (quota.h);
	 * a table of accounts and keys used within a month or so. */
	if (links.quota == NULL && (links.quota = quota_create(16384)) ==
	    NULL) {
		lz_log(LZ_LOG_ERR, "quota table: %s", strerror(errno));
		return -1;
	}
	/* Each webhook addition may wait on DNS, each test event sends a
	 * request to a server of the account's choosing. */
	if (links.hook_rl == NULL && (links.hook_rl = lz_rl_create(4096,
	    LZ_WEBHOOK_RATE_MAX)) == NULL) {
		lz_log(LZ_LOG_ERR, "webhook rate limit table: %s",
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int
worker_init(void *arg)
{
	char	 err[512];

	(void)arg;
	if (store_open(&links.db, links.conf->links_db, err,
	    sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s", err);
		return LZ_EXIT_CONFIG;
	}
	events_default_domain(links.conf->base_url);
	/* Requests never copy the WAL back: the mover and lz-hooks do
	 * (store/wal.h), off the requests' way. */
	(void)store_wal_manual(&links.db);
	if (visitor_init(links.conf->key_file, err, sizeof(err)) == -1 ||
	    lz_resolve_init(links.conf->webhook_nameservers, err,
	    sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s", err);
		lz_db_close(&links.db);
		return LZ_EXIT_CONFIG;
	}
	if (webhook_key_load(links.conf, links.hook_key, err,
	    sizeof(err)) == -1)
		lz_log(LZ_LOG_ERR, "webhooks: %s; the dashboard cannot add "
		    "webhooks or rotate their secrets", err);
	else
		links.hook_key_ok = 1;
	if (mail_key_load(links.conf, links.mail_key, err, sizeof(err)) == 0)
		links.mail_key_ok = 1;
	else if (*links.conf->mail_command != '\0')
		lz_log(LZ_LOG_ERR, "mail: %s; invitations are not mailed", err);
	return 0;
}

static void
worker_tick(void *arg)
{
	(void)arg;
	mover_tick(&links.db);
	lz_db_reset_all(&links.db);
}

/* A chore of the mover thread's (mover_chore). */
static void
purge_throttles(struct lz_db *db, void *arg)
{
	(void)arg;
	(void)throttle_purge(db, lz_now_ms());
}

/* The mover's moves, for /metrics and /healthz (any thread: atomics in
 * shared memory). */
static void
moved(long n, void *arg)
{
	(void)arg;
	lz_metrics_add(links.metrics, OPS_MOVED, 0, n);
	lz_metrics_set(links.metrics, OPS_CAUGHT_UP, 0, lz_now_ms() / 1000);
}

/* A pool worker: worker_init, its click journal, then the sandbox. */
static int
worker_start(void *arg)
{
	char	 err[512], *dir;
	int	 rc;

	if ((rc = worker_init(arg)) != 0)
		return rc;
	dir = journal_dir(links.conf->clicks_dir, links.conf->links_db);
	if (mover_open(&links.db, dir, links.conf->host_id, err,
	    sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "%s", err);
		free(dir);
		lz_db_close(&links.db);
		return LZ_EXIT_CONFIG;
	}
	/* Then confine it to its data directories (lz-links(8)). */
	rc = lz_service_sandbox(links.conf->sandbox, links.conf->links_db,
	    1, dir, NULL);
	free(dir);
	if (rc != 0)
		return rc;
	mover_on_move(moved, NULL);
	mover_chore(purge_throttles, NULL, 10 * 60 * 1000);
	/* The mover thread starts confined, like the worker. */
	if (mover_start(links.conf->links_db, err, sizeof(err)) == -1)
		lz_log(LZ_LOG_WARN, "%s; moving clicks between requests", err);
	return 0;
}

static void
worker_handle(struct lz_req *r, void *arg)
{
	struct links_req	 lr;

	(void)arg;
	memset(&lr, 0, sizeof(lr));
	r->app = &lr;
	if (strncmp(r->path, "/dashboard/", 11) == 0)
		dash_headers(r);
	/* The dashboard lives on dashboard_host only, when one is set. */
	if (strncmp(r->path, "/dashboard/", 11) == 0 && !dash_host_ok(r))
		lz_resp_error(r, 404, "not_found", NULL, "There is nothing at "
		    "this path.");
	else
		lz_route_dispatch(r, &router);
	lz_db_reset_all(&links.db);
	r->app = NULL;
}

static void
worker_fini(void *arg)
{
	(void)arg;
	mover_close(&links.db);
	lz_db_close(&links.db);
	lz_resolve_fini();
}

/* SIGHUP: new workers get the new geo files; a bad file keeps the old. */
static void
reload(const struct lz_conf *old, const struct lz_conf *c)
{
	char	 err[512];

	(void)old;
	if (geo_load(c->geoip_file, c->geoip6_file, err, sizeof(err)) == -1)
		lz_log(LZ_LOG_ERR, "%s; keeping the loaded country table",
		    err);
}

/* -t: the configuration, the database (every statement prepares) and
 * the geo files. */
static int
test(void)
{
	char	 err[512];
	int	 rc;

	if (worker_init(NULL) != 0)
		return -1;
	rc = lz_db_prepare_all(&links.db, store_sqlsets, err, sizeof(err));
	if (rc == -1)
		lz_log(LZ_LOG_ERR, "%s: %s", links.conf->links_db, err);
	worker_fini(NULL);
	if (rc == -1 || pre_fork(NULL) == -1)
		return -1;
	printf("lz-links: configuration %s and database %s are ok\n",
	    links.conf->path, links.conf->links_db);
	return 0;
}

static struct lz_service service = {
	.name = "lz-links",
	.curl = 1,
	.socket_key = "links_socket",
	.workers_key = "links_workers",
	.conf = &links.conf,
	.test = test,
	.reload = reload,
	.app = {
		.pre_fork = pre_fork,
		.init = worker_start,
		.handle = worker_handle,
		.tick = worker_tick,
		.fini = worker_fini,
	},
};

int
main(int argc, char *argv[])
{
	return lz_service_main(argc, argv, &service);
}
