/*
 * session.h -- dashboard sessions: the cookie, its token, expiry, the
 * per-session CSRF token and the Origin check (DESIGN 3.8).
 *
 * The cookie holds 32 random bytes (base64url, 43 characters); only their
 * BLAKE2b-256 hash is stored.  It is HttpOnly, SameSite=Lax, Path=/, and
 * under an https base_url Secure with the __Host- name prefix (so no
 * sibling host can plant one).  A session ends after session_idle_timeout
 * seconds without a request, or session_max_age seconds after sign-in.
 *
 * The header parsers are pure functions of their arguments, so the unit
 * suite and t/fuzz/fuzz_session.c call them without FastCGI.  The
 * request's functions take the database and configuration they use,
 * and fill the caller (auth.h) the session signs in.
 */
#ifndef LZ_SESSION_H
#define LZ_SESSION_H

#include <stddef.h>
#include <stdint.h>

struct auth_caller;
struct lz_conf;
struct lz_db;
struct lz_req;

#define SESSION_TOKEN_LEN	43	/* base64url of 32 bytes */
#define SESSION_CSRF_LEN	43
#define SESSION_COOKIE		"lz_session"
#define SESSION_COOKIE_SECURE	"__Host-lz_session"

/*
 * Finds the cookie called name in a Cookie header value (RFC 6265
 * cookie-string; a value may be double-quoted).  Copies the value to out
 * (outlen bytes with the NUL).  Returns 1 found, 0 absent, -1 when the
 * header names it twice or its value is too long or has bytes outside
 * cookie-octet: the caller then treats the request as signed out.
 */
int	session_cookie_find(const char *header, const char *name, char *out,
	    size_t outlen);

/* 1 when s is a well-formed session or CSRF token (43 base64url chars). */
int	session_token_wellformed(const char *s);

/*
 * The Origin check of a state-changing request.  origin is the Origin
 * header or NULL; fetch_site the Sec-Fetch-Site header or NULL.  The
 * request is same-origin when Origin, compared without regard to case and
 * with default ports dropped, is base_url's origin or scheme://host of the
 * request (host: the Host header, https: the request came over TLS).
 * "null" and any other origin are refused, as is Sec-Fetch-Site
 * cross-site.  Returns 1 allowed, 0 refused.
 */
int	session_origin_ok(const char *origin, const char *fetch_site,
	    const char *base_url, const char *host, int https);

/* The Set-Cookie value for token (NULL: clear the cookie). */
char	*session_cookie_header(const char *base_url, const char *token,
	    long long max_age);

/*
 * Starts a session of user_id in account_id: a new token in the cookie,
 * the CSRF token in who.  0, or -1 (logged).
 */
int	session_start(struct lz_req *, struct lz_db *, const struct lz_conf *,
	    struct auth_caller *who, int64_t user_id, int64_t account_id);

/*
 * Loads the session of the request's cookie into who (account, plan,
 * session id, CSRF token) and notes its use.  Returns 1 signed in, 0 not
 * (no cookie, unknown, expired or disabled account: an expired session is
 * deleted and its cookie cleared), -1 after answering 500.
 */
int	session_load(struct lz_req *, struct lz_db *, const struct lz_conf *,
	    struct auth_caller *who);

/* Ends the session of who and clears the cookie. */
int	session_end(struct lz_req *, struct lz_db *, const struct lz_conf *,
	    struct auth_caller *who);

/* 1 when the request's X-CSRF-Token matches the session's token. */
int	session_csrf_ok(struct lz_req *, const struct auth_caller *who);

/* 1 when the request passes session_origin_ok for conf's hosts. */
int	session_request_origin_ok(struct lz_req *, const struct lz_conf *);

#endif
