/*
 * api.h -- what the link service's handlers share: the per-request
 * data, the route flags, every handler of main.c's route table, and the
 * helpers they answer with.  Handlers (api_*.c, page_*.c) and main.c
 * include it; they alone touch the process state (ctx.h) and hand the
 * subsystems below them the database, configuration and request values
 * those need.
 */
#ifndef LZ_API_H
#define LZ_API_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "auth/auth.h"
#include "metrics.h"
#include "route.h"

struct link;
struct lz_pval;
struct lz_req;

/* Per-request data of the link service (req->app). */
struct links_req {
	struct auth_caller	 who;	/* the API key's or session's */
};

/* The caller of request r. */
#define API_WHO(r)	(&((struct links_req *)(r)->app)->who)

/* Route flags. */
#define RF_AUTH		0x01	/* API key required; counts against quota */
#define RF_SESSION	0x10	/* dashboard session required */
#define RF_METER	0x40	/* with RF_SESSION: counts against the
				   monthly quota as the API's route does */
#define RF_CSRF		0x20	/* state-changing: Origin check, and the
				   session's X-CSRF-Token when RF_SESSION */
/* With RF_AUTH: the scope (auth/scope.h) a key needs for the route.  Every
 * RF_AUTH route names one: lz-links does not start otherwise. */
#define RF_SCOPE(s)	((unsigned)((s) + 1) << 16)
#define RF_SCOPE_OF(f)	((int)(((f) >> 16) & 0xff) - 1)
/* An API route: a key with scope s. */
#define RF_KEY(s)	(RF_AUTH | RF_SCOPE(s))
/* With RF_SESSION: the least role (auth/team.h's enum role) the route
 * takes; 0 as a viewer. */
#define RF_ROLE(n)	((unsigned)(n) << 24)
#define RF_ROLE_OF(f)	((int)(((f) >> 24) & 0x7) ? (int)(((f) >> 24) & 0x7) : 1)
/* Dashboard routes: reading (a viewer), reading for role and above, a
 * change for role and above. */
#define DASH		RF_SESSION
#define DASH_R(role)	(RF_SESSION | RF_ROLE(role))
#define DASH_W(role)	(RF_SESSION | RF_CSRF | RF_ROLE(role))

/* ---- handlers ---------------------------------------------------------- */

/* Links (api_links.c, api_qr.c, api_clicks.c, api_stats.c). */
lz_handler	api_links_create, api_links_list, api_links_get,
		api_links_delete, api_links_update, api_links_qr,
		api_links_clicks, api_links_stats, api_account_stats;

/* Visits (page_redirect.c).  The router's answer when no route matched:
 * JSON under the APIs, the 404 page elsewhere. */
lz_handler	redirect_visit, redirect_notfound;
/* The host's deep-link files (DESIGN 3.12): GET
 * /.well-known/apple-app-site-association and /.well-known/assetlinks.json. */
lz_handler	redirect_wellknown;

/* Conversion reports (api_conv.c): the pixel, the JSON report, the CORS
 * preflight. */
lz_handler	conv_pixel, conv_post, conv_preflight;

/* GET /api/v1/openapi.json (api_openapi.c): the API's OpenAPI document. */
lz_handler	links_openapi;

/*
 * Operations (api_ops.c, DESIGN 8): GET /healthz for balancers, GET
 * /metrics for Prometheus, and the service's own metrics, by index of
 * ops_metrics[] (the pool counts requests itself, metrics.h).
 */
lz_handler	ops_health, ops_metrics_get;
enum {
	OPS_JOURNALED,		/* clicks written to the journals */
	OPS_MOVED,		/* clicks moved into the database */
	OPS_CAUGHT_UP,		/* when a move last left nothing behind */
	OPS_LIMITED,		/* 429s, by limit (OPS_LIMIT_*) */
	OPS__MAX
};
enum {
	OPS_LIMIT_QUOTA, OPS_LIMIT_CONVERSIONS, OPS_LIMIT_WEBHOOKS,
	OPS_LIMIT_SIGN_IN, OPS_LIMIT_LINK_PASSWORD, OPS_LIMIT_EXPORTS,
	OPS_LIMIT__MAX
};
extern const struct lz_metric_def ops_metrics[OPS__MAX];
/* One more 429 of limit (OPS_LIMIT_*). */
void	ops_limited(int limit);

/*
 * The dashboard's JSON API under /dashboard/api/ (DESIGN 3.8): sessions
 * (api_dash_session.c), API keys (api_dash_keys.c), webhooks
 * (api_dash_hooks.c).  The pages themselves are static files in
 * www/dashboard/, served by nginx.  Links are created, listed and
 * deleted by the handlers of /api/v1/links above, behind a session
 * instead of a key.
 */
/* The security headers of every /dashboard/ answer. */
void	dash_headers(struct lz_req *);
/* 1 when the request's Host is dashboard_host (or none is set). */
int	dash_host_ok(struct lz_req *);
lz_handler	dash_session, dash_signup, dash_signin, dash_signout,
		dash_password, dash_account;
lz_handler	dash_keys_list, dash_keys_create, dash_keys_revoke;
lz_handler	api_tags_list, api_tags_rename, api_tags_delete;
/* Bulk calls (api_bulk.c). */
lz_handler	api_bulk_create, api_bulk_update, api_bulk_delete;
/* Members and invitations (api_dash_members.c). */
lz_handler	dash_members_list, dash_members_invite, dash_members_set,
		dash_members_remove, dash_invitation_accept, dash_switch;
/* The dashboard's CSV import (api_import.c). */
lz_handler	api_import_csv;
/* The audit log (api_audit.c). */
lz_handler	api_audit_list;
lz_handler	api_domains_list, api_domains_add, api_domains_get,
		api_domains_update, api_domains_delete, api_domains_verify;
lz_handler	dash_hooks_list, dash_hooks_add, dash_hooks_rotate,
		dash_hooks_disable, dash_hooks_test, dash_hooks_deliveries;

/* ---- what handlers answer with (api.c) -------------------------------- */

/* The id of a path's first capture (/api/v1/links/<id>...): 0, or -1
 * after answering 404 "There is no <what> with this id." */
int	api_path_id(struct lz_req *, const char *what, int64_t *id);
/* What a store call changing the thing of id returned: 1 it was done
 * (the caller answers), else answered: -1 500 with failed, 0 status with
 * code, naming "id", and msg (404 not_found, 409 webhook_disabled). */
int	api_done(struct lz_req *, int rc, const char *failed, int status,
	    const char *code, const char *msg);
/* The answer to the removal of the thing of id (a key revoked, a link
 * deleted): {"ok": true, "id": id, done: true}, or api_done's 404
 * not_found with missing, or 500 with failed. */
void	api_removed(struct lz_req *, int rc, int64_t id, const char *done,
	    const char *failed, const char *missing);
/* Link id of the request's account into l (link_free it): 0, or -1 after
 * answering 404 or 500 (api_links.c). */
int	api_links_load(struct lz_req *, int64_t id, struct link *l);

/*
 * A page of a list: 200 {ok, key: items, next_cursor} and the members of
 * extra (NULL: none), or 500 when the read failed (rc < 0); takes over
 * items and extra.  next_cursor is the opaque cursor of last, n (1 or 2)
 * values of 1 and up of the last item shown, or null when no page
 * follows (!more); api_cursor_decode reads one back, answering 400
 * naming "cursor" when s is not one (-1).
 */
#define API_CURSOR_MAX	64
void	api_page(struct lz_req *, long rc, const char *key, json_t *items,
	    int more, const int64_t *last, size_t n, json_t *extra);
int	api_cursor_decode(struct lz_req *, const char *s, int64_t *v,
	    size_t n);
/* The time of query parameter v (an ISO 8601 time with a time zone, or
 * a date: midnight UTC) into *ms when it is set: 0, or -1 after
 * answering 400 naming name. */
int	api_time_param(struct lz_req *, const struct lz_pval *v,
	    const char *name, int64_t *ms);

#endif
