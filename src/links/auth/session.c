/*
 * session.c -- dashboard sessions and their cookie, CSRF and Origin
 * checks.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "auth/auth.h"
#include "auth/session.h"
#include "auth/team.h"
#include "conf.h"
#include "db.h"
#include "log.h"
#include "resp.h"
#include "store/accounts.h"
#include "store/sessions.h"
#include "util.h"

#define TOKEN_BYTES	32
#define B64URL \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/* RFC 6265 cookie-octet: %x21 / %x23-2B / %x2D-3A / %x3C-5B / %x5D-7E. */
static int
cookie_octet(unsigned char c)
{
	return c == 0x21 || (c >= 0x23 && c <= 0x2b) ||
	    (c >= 0x2d && c <= 0x3a) || (c >= 0x3c && c <= 0x5b) ||
	    (c >= 0x5d && c <= 0x7e);
}

int
session_cookie_find(const char *h, const char *name, char *out,
    size_t outlen)
{
	const char	*p, *eq, *end, *v;
	size_t		 nlen = strlen(name), vlen, i;
	int		 found = 0;

	if (outlen > 0)
		out[0] = '\0';
	if (h == NULL)
		return 0;
	for (p = h; *p != '\0'; p = *end ? end + 1 : end) {
		while (*p == ' ' || *p == '\t')
			p++;
		end = p + strcspn(p, ";");
		if ((eq = memchr(p, '=', (size_t)(end - p))) == NULL)
			continue;
		if ((size_t)(eq - p) != nlen || memcmp(p, name, nlen) != 0)
			continue;
		if (found)
			return -1;	/* named twice: which one is ours? */
		v = eq + 1;
		vlen = (size_t)(end - v);
		while (vlen > 0 && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
			vlen--;
		if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
			v++;
			vlen -= 2;
		}
		if (vlen >= outlen)
			return -1;
		for (i = 0; i < vlen; i++)
			if (!cookie_octet((unsigned char)v[i]))
				return -1;
		memcpy(out, v, vlen);
		out[vlen] = '\0';
		found = 1;
	}
	return found;
}

int
session_token_wellformed(const char *s)
{
	return strlen(s) == SESSION_TOKEN_LEN &&
	    strspn(s, B64URL) == SESSION_TOKEN_LEN;
}

/*
 * Writes the origin "scheme://host[:port]" of url to out, lower-cased,
 * without a default port.  With bare, url must be an origin only (as in
 * an Origin header); else a path, query or fragment may follow.  Returns
 * 0 or -1.
 */
static int
origin_of(const char *url, int bare, char *out, size_t outlen)
{
	const char	*host, *port = NULL;
	size_t		 hlen, i, n;
	int		 https;

	if (strncasecmp(url, "https://", 8) == 0) {
		https = 1;
		host = url + 8;
	} else if (strncasecmp(url, "http://", 7) == 0) {
		https = 0;
		host = url + 7;
	} else
		return -1;
	hlen = strcspn(host, "/?#");
	if (hlen == 0 || hlen + 9 >= outlen || (bare && host[hlen] != '\0'))
		return -1;
	/* The port: after the last ':' unless that is inside [IPv6]. */
	for (i = hlen; i > 0 && host[i - 1] != ']'; i--)
		if (host[i - 1] == ':') {
			port = host + i - 1;
			break;
		}
	if (port != NULL && ((https && hlen - (size_t)(port - host) == 4 &&
	    memcmp(port, ":443", 4) == 0) || (!https &&
	    hlen - (size_t)(port - host) == 3 && memcmp(port, ":80", 3) == 0)))
		hlen = (size_t)(port - host);
	n = (size_t)snprintf(out, outlen, "%s://", https ? "https" : "http");
	for (i = 0; i < hlen; i++) {
		unsigned char	 c = (unsigned char)host[i];

		if (c <= 0x20 || c >= 0x7f || c == '@' || c == '\\')
			return -1;
		out[n++] = (char)tolower(c);
	}
	out[n] = '\0';
	return 0;
}

int
session_origin_ok(const char *origin, const char *fetch_site,
    const char *base_url, const char *host, int https)
{
	char	 o[300], want[300], self[300];

	if (fetch_site != NULL && strcmp(fetch_site, "cross-site") == 0)
		return 0;
	if (origin == NULL)
		return 1;	/* not a browser's cross-origin request */
	if (strlen(origin) >= 256 || origin_of(origin, 1, o, sizeof(o)) == -1)
		return 0;
	if (origin_of(base_url, 0, want, sizeof(want)) == 0 &&
	    strcmp(o, want) == 0)
		return 1;
	if (host != NULL && *host != '\0' && strlen(host) < 256) {
		snprintf(self, sizeof(self), "%s://%s", https ? "https" :
		    "http", host);
		if (origin_of(self, 1, want, sizeof(want)) == 0 &&
		    strcmp(o, want) == 0)
			return 1;
	}
	return 0;
}

static int
secure_base(const char *base_url)
{
	return strncmp(base_url, "https://", 8) == 0;
}

char *
session_cookie_header(const char *base_url, const char *token,
    long long max_age)
{
	int	 sec = secure_base(base_url);

	if (token == NULL)
		return xasprintf("%s=; Path=/; Max-Age=0; HttpOnly; "
		    "SameSite=Lax%s", sec ? SESSION_COOKIE_SECURE :
		    SESSION_COOKIE, sec ? "; Secure" : "");
	return xasprintf("%s=%s; Path=/; Max-Age=%lld; HttpOnly; "
	    "SameSite=Lax%s", sec ? SESSION_COOKIE_SECURE : SESSION_COOKIE,
	    token, max_age, sec ? "; Secure" : "");
}

static void
set_cookie(struct lz_req *r, const struct lz_conf *conf, const char *token)
{
	char	*c;

	c = session_cookie_header(conf->base_url, token,
	    conf->session_max_age);
	lz_resp_header(r, "Set-Cookie", "%s", c);
	free(c);
}

static void
new_token(char out[SESSION_TOKEN_LEN + 1])
{
	unsigned char	 b[TOKEN_BYTES];

	randombytes_buf(b, sizeof(b));
	sodium_bin2base64(out, SESSION_TOKEN_LEN + 1, b, sizeof(b),
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	sodium_memzero(b, sizeof(b));
}

static void
token_hash(const char *token, unsigned char out[32])
{
	crypto_generichash(out, 32, (const unsigned char *)token,
	    strlen(token), NULL, 0);
}

int
session_start(struct lz_req *r, struct lz_db *db, const struct lz_conf *c,
    struct auth_caller *who, int64_t user_id, int64_t account_id)
{
	char			 token[SESSION_TOKEN_LEN + 1];
	char			 csrf[SESSION_CSRF_LEN + 1];
	unsigned char		 hash[32];
	int64_t			 id;

	/* The browser's cookie is about to be replaced: end the session it
	 * named, if any, rather than leave it valid and orphaned. */
	if (session_load(r, db, c, who) == 1 && who->session_id != 0 &&
	    store_session_delete(db, who->session_id) == -1)
		return -1;
	new_token(token);
	new_token(csrf);
	token_hash(token, hash);
	/* Sign-in is rare: drop the sessions that have run out meanwhile. */
	if (store_session_purge(db, r->now_ms -
	    c->session_idle_timeout * 1000, r->now_ms -
	    c->session_max_age * 1000) == -1 ||
	    (id = store_session_add(db, hash, user_id, account_id, csrf,
	    r->now_ms)) < 0) {
		sodium_memzero(token, sizeof(token));
		return -1;
	}
	set_cookie(r, c, token);
	sodium_memzero(token, sizeof(token));
	who->account_id = account_id;
	who->session_id = id;
	who->user_id = user_id;
	snprintf(who->csrf, sizeof(who->csrf), "%s", csrf);
	return 0;
}

static const char *
cookie_name(const struct lz_conf *c)
{
	return secure_base(c->base_url) ? SESSION_COOKIE_SECURE :
	    SESSION_COOKIE;
}

int
session_load(struct lz_req *r, struct lz_db *db, const struct lz_conf *c,
    struct auth_caller *who)
{
	struct session		 s;
	struct account		 a;
	char			 token[SESSION_TOKEN_LEN + 2];
	unsigned char		 hash[32];
	int			 rc;

	if (who->session_id != 0)
		return 1;
	rc = session_cookie_find(lz_req_param(r, "HTTP_COOKIE"), cookie_name(c),
	    token, sizeof(token));
	if (rc != 1 || !session_token_wellformed(token))
		return 0;
	token_hash(token, hash);
	sodium_memzero(token, sizeof(token));
	if ((rc = store_session_get(db, hash, &s)) == -1)
		goto fail;
	if (rc == 0) {
		set_cookie(r, c, NULL);
		return 0;
	}
	if (r->now_ms - s.seen_at > c->session_idle_timeout * 1000 ||
	    r->now_ms - s.created_at > c->session_max_age * 1000) {
		if (store_session_delete(db, s.id) == -1)
			goto fail;
		set_cookie(r, c, NULL);
		return 0;
	}
	if ((rc = store_account_get(db, s.account_id, NULL, &a)) == -1)
		goto fail;
	/* A disabled account, or a user no member of it any more (removed:
	 * its sessions end at once). */
	if (rc == 0 || a.disabled || role_parse(s.role) == ROLE_NONE) {
		if (store_session_delete(db, s.id) == -1)
			goto fail;
		set_cookie(r, c, NULL);
		return 0;
	}
	if (store_session_touch(db, s.id, r->now_ms) == -1)
		goto fail;
	who->account_id = a.id;
	who->session_id = s.id;
	who->user_id = s.user_id;
	who->role = role_parse(s.role);
	snprintf(who->csrf, sizeof(who->csrf), "%s", s.csrf);
	if ((who->plan = lz_conf_plan(c, a.plan)) == NULL)
		who->plan = lz_conf_plan(c, c->default_plan);
	return 1;
fail:
	lz_resp_error(r, 500, "internal_error", NULL, "The session could not "
	    "be read.");
	return -1;
}

int
session_end(struct lz_req *r, struct lz_db *db, const struct lz_conf *c,
    struct auth_caller *who)
{
	if (who->session_id != 0 &&
	    store_session_delete(db, who->session_id) == -1)
		return -1;
	who->session_id = 0;
	who->account_id = 0;
	who->csrf[0] = '\0';
	set_cookie(r, c, NULL);
	return 0;
}

int
session_csrf_ok(struct lz_req *r, const struct auth_caller *who)
{
	const char	*h = lz_req_param(r, "HTTP_X_CSRF_TOKEN");

	return h != NULL && who->csrf[0] != '\0' &&
	    session_token_wellformed(h) && lz_streq_ct(h, who->csrf);
}

int
session_request_origin_ok(struct lz_req *r, const struct lz_conf *c)
{
	const char		*https = lz_req_param(r, "HTTPS");
	char			 dash[300];

	/* With a dashboard_host the dashboard's origin is that host's, with
	 * base_url's scheme; the short links' origin is not the dashboard's
	 * any more. */
	if (*c->dashboard_host != '\0')
		snprintf(dash, sizeof(dash), "%s://%s", secure_base(
		    c->base_url) ? "https" : "http", c->dashboard_host);
	return session_origin_ok(lz_req_param(r, "HTTP_ORIGIN"),
	    lz_req_param(r, "HTTP_SEC_FETCH_SITE"),
	    *c->dashboard_host != '\0' ? dash : c->base_url,
	    lz_req_param(r, "HTTP_HOST"), https != NULL && *https != '\0');
}
