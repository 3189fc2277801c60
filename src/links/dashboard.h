/*
 * dashboard.h -- the dashboard's JSON API under /dashboard/api/ (DESIGN
 * 3.8).  The pages themselves are static files in www/dashboard/, served
 * by nginx.  Links are created, listed and deleted by the same handlers
 * as /api/v1/links (api_links.c), behind a session instead of an API key.
 */
#ifndef LZ_DASHBOARD_H
#define LZ_DASHBOARD_H

#include "req.h"

/* Worker start: loads the webhook key (before the sandbox closes the key
 * file off).  A failure is logged; adding and rotating webhooks then
 * answer 500. */
void	dash_init(void);

/* The security headers of every /dashboard/ answer. */
void	dash_headers(struct lz_req *);
/* 1 when the request's Host is dashboard_host (or none is set). */
int	dash_host_ok(struct lz_req *);

void	dash_session(struct lz_req *);
void	dash_signup(struct lz_req *);
void	dash_signin(struct lz_req *);
void	dash_signout(struct lz_req *);
void	dash_password(struct lz_req *);
void	dash_account(struct lz_req *);
void	dash_keys_list(struct lz_req *);
void	dash_keys_create(struct lz_req *);
void	dash_keys_revoke(struct lz_req *);
void	dash_hooks_list(struct lz_req *);
void	dash_hooks_add(struct lz_req *);
void	dash_hooks_rotate(struct lz_req *);
void	dash_hooks_disable(struct lz_req *);
void	dash_hooks_test(struct lz_req *);
void	dash_hooks_deliveries(struct lz_req *);

#endif
