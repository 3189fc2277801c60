/*
 * conf.h -- the lz.conf file: "key = value" lines, '#' comments.
 *
 * Every known key is one row of LZ_CONF_ITEMS below; the row gives the
 * struct field, its type, default and bounds, so parsing, defaults and
 * lz.conf(5) stay in one place.  Unknown keys are errors.  Relative paths
 * are taken relative to the directory of the config file.
 *
 * Plans are the exception: "plan.NAME.quota", "plan.NAME.links" and
 * "plan.NAME.conversions" define or override plan NAME.
 */
#ifndef LZ_CONF_H
#define LZ_CONF_H

#include <stddef.h>

#ifndef LZ_SYSCONFDIR
#define LZ_SYSCONFDIR "/usr/local/etc"
#endif
#ifndef LZ_LOCALSTATEDIR
#define LZ_LOCALSTATEDIR "/usr/local/var"
#endif
#ifndef LZ_RUNSTATEDIR
#define LZ_RUNSTATEDIR "/run"
#endif

#define LZ_CONF_DEFAULT_PATH LZ_SYSCONFDIR "/lz/lz.conf"

/* The safety scan (DESIGN 3.5): other link shorteners (no chains). */
#define LZ_SHORTENERS_DEFAULT \
	"bit.ly, bitly.com, j.mp, tinyurl.com, t.co, goo.gl, ow.ly, is.gd, " \
	"v.gd, buff.ly, rebrand.ly, cutt.ly, shorturl.at, rb.gy, tiny.cc, " \
	"t.ly, bl.ink, s.id, shorte.st, adf.ly, bit.do, soo.gd, clck.ru, " \
	"qr.ae, tr.im, x.co, lnkd.in, db.tt, po.st, su.pr, cli.gs, short.io, " \
	"t2m.io, urlz.fr, tiny.one, shrtco.de, 1url.com, u.to, dub.sh, kutt.it"
#define LZ_SAFE_BROWSING_URL \
	"https://safebrowsing.googleapis.com/v4/threatMatches:find"

/*
 * The largest values of limits kept in shared memory: the tables are made
 * for them at start, so that a reload may raise a limit up to here.
 */
#define LZ_CONV_RATE_MAX	1000
/* host_id: a name among the hosts that share a PostgreSQL database. */
#define LZ_HOST_ID_MAX		63
#define LZ_WEBHOOK_RATE_MAX	100

/*
 * S(name, default)                  string
 * P(name, default)                  path (relative to the config file)
 * I(name, default, min, max)        integer
 * B(name, default)                  yes/no
 */
#define LZ_CONF_ITEMS(S, P, I, B) \
	S(base_url,		"http://127.0.0.1:8080") \
	P(links_db,		LZ_LOCALSTATEDIR "/lib/lz/links.db") \
	P(prompts_db,		LZ_LOCALSTATEDIR "/lib/lz/prompts.db") \
	P(links_socket,		LZ_RUNSTATEDIR "/lz/links.sock") \
	P(prompts_socket,	LZ_RUNSTATEDIR "/lz/prompts.sock") \
	I(links_workers,	4, 1, 256) \
	I(prompts_workers,	4, 1, 256) \
	I(shutdown_timeout,	10, 1, 3600) \
	I(exports_max,		4, 1, 64) \
	S(user,			"") \
	S(group,		"") \
	S(socket_group,		"") \
	S(socket_mode,		"0660") \
	P(key_file,		LZ_SYSCONFDIR "/lz/lz.key") \
	S(reserved_slugs,	"") \
	S(trusted_proxies,	"") \
	S(country_param,	"") \
	P(geoip_file,		"/usr/share/tor/geoip") \
	P(geoip6_file,		"/usr/share/tor/geoip6") \
	P(clicks_dir,		"") \
	S(host_id,		"") \
	I(clicks_retention_days, 400, 0, 36500) \
	B(allow_ip_hosts,	0) \
	S(own_hosts,		"") \
	S(shorteners,		LZ_SHORTENERS_DEFAULT) \
	S(safe_browsing_key,	"") \
	S(safe_browsing_url,	LZ_SAFE_BROWSING_URL) \
	I(safe_browsing_timeout_ms, 1500, 100, 30000) \
	S(safe_browsing_fail,	"open") \
	S(signup,		"closed") \
	S(dashboard_host,	"") \
	I(session_idle_timeout,	7200, 60, 31536000) \
	I(session_max_age,	604800, 300, 31536000) \
	I(login_window,		900, 10, 86400) \
	I(login_max_failures,	5, 1, 1000) \
	I(login_max_failures_addr, 20, 1, 100000) \
	I(link_password_window,	900, 10, 86400) \
	I(link_password_max_failures, 10, 1, 1000) \
	I(link_password_max_failures_link, 100, 1, 1000000) \
	S(default_plan,		"free") \
	S(default_currency,	"USD") \
	I(conversion_dedup_window, 600, 1, 86400) \
	I(conversion_rate_limit, 60, 0, LZ_CONV_RATE_MAX) \
	B(webhook_allow_loopback, 0) \
	P(webhook_ca_file,	"") \
	I(webhook_timeout,	10, 1, 60) \
	I(webhook_parallel,	16, 1, 256) \
	I(webhook_log_days,	30, 1, 3650) \
	I(audit_retention_days,	400, 1, 36500) \
	S(mail_command,		"") \
	S(mail_from,		"") \
	I(webhook_rate_limit,	10, 1, LZ_WEBHOOK_RATE_MAX) \
	S(webhook_nameservers,	"") \
	S(log_level,		"info") \
	B(access_log,		1) \
	B(sandbox,		1) \
	S(prompts_base_url,	"http://127.0.0.1:8081") \
	I(prompts_ratelimit_slots, 8192, 64, 1048576) \
	I(prompts_cache_bytes,	6291456, 0, 1073741824) \
	S(metrics_allow,	"127.0.0.0/8 ::1") \
	I(health_mover_lag,	60, 1, 86400) \
	I(health_outbox_lag,	900, 60, 864000)

#define LZ_CONF_FIELD_S(n, d)		char *n;
#define LZ_CONF_FIELD_I(n, d, lo, hi)	long long n;
#define LZ_CONF_FIELD_B(n, d)		int n;

struct lz_plan {
	char		*name;
	long long	 quota;		/* API calls per UTC month */
	long long	 links;		/* link cap */
	int		 conversions;	/* conversion reports allowed */
};

struct lz_conf {
	char		*path;		/* the file read, or NULL */
	char		*dir;		/* its directory */
	LZ_CONF_ITEMS(LZ_CONF_FIELD_S, LZ_CONF_FIELD_S, LZ_CONF_FIELD_I,
	    LZ_CONF_FIELD_B)
	struct lz_plan	*plans;
	size_t		 nplans;
	int		 signup_open;	/* signup == "open" */
	int		 loglevel;	/* parsed log_level */
	unsigned	 sockmode;	/* parsed socket_mode */
	int		 sb_fail_closed; /* safe_browsing_fail == "closed" */
};

/*
 * Loads path (NULL: $LZ_CONF, else the default path) into a new config.
 * On error returns NULL and writes a message naming file and line to err.
 * The caller frees the result with lz_conf_free.
 */
struct lz_conf	*lz_conf_load(const char *path, char *err, size_t errlen);
/* The built-in defaults alone. */
struct lz_conf	*lz_conf_defaults(void);
void		 lz_conf_free(struct lz_conf *);
/* The value of the setting key (as in lz.conf), a string or a path, or
 * an integer: what code that is given a key (a pool's socket) reads.  A
 * key of no such setting is a bug: it abort()s. */
const char	*lz_conf_str(const struct lz_conf *, const char *key);
long long	 lz_conf_int(const struct lz_conf *, const char *key);
/* The plan called name, or NULL. */
const struct lz_plan *lz_conf_plan(const struct lz_conf *, const char *name);

#endif
