/*
 * conf.c -- lz.conf parsing.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf.h"
#include "db.h"
#include "log.h"
#include "util.h"

enum itemtype { IT_STR, IT_PATH, IT_INT, IT_BOOL };

struct item {
	const char	*name;
	enum itemtype	 type;
	size_t		 off;
	const char	*sdef;
	long long	 idef, lo, hi;
};

#define ITEM_S(n, d)	{ #n, IT_STR, offsetof(struct lz_conf, n), d, 0, 0, 0 },
#define ITEM_P(n, d)	{ #n, IT_PATH, offsetof(struct lz_conf, n), d, 0, 0, 0 },
#define ITEM_I(n, d, lo, hi) \
	{ #n, IT_INT, offsetof(struct lz_conf, n), NULL, d, lo, hi },
#define ITEM_B(n, d)	{ #n, IT_BOOL, offsetof(struct lz_conf, n), NULL, d, 0, 1 },

static const struct item items[] = {
	LZ_CONF_ITEMS(ITEM_S, ITEM_P, ITEM_I, ITEM_B)
};

static char **
str_at(struct lz_conf *c, const struct item *it)
{
	return (char **)(void *)((char *)c + it->off);
}

static long long *
int_at(struct lz_conf *c, const struct item *it)
{
	return (long long *)(void *)((char *)c + it->off);
}

static int *
bool_at(struct lz_conf *c, const struct item *it)
{
	return (int *)(void *)((char *)c + it->off);
}

static struct lz_plan *
plan_get(struct lz_conf *c, const char *name, size_t namelen)
{
	size_t	 i;

	for (i = 0; i < c->nplans; i++)
		if (strlen(c->plans[i].name) == namelen &&
		    strncmp(c->plans[i].name, name, namelen) == 0)
			return &c->plans[i];
	c->plans = xreallocarray(c->plans, c->nplans + 1, sizeof(*c->plans));
	c->plans[c->nplans].name = xstrndup(name, namelen);
	c->plans[c->nplans].quota = 1000;
	c->plans[c->nplans].links = 100;
	c->plans[c->nplans].conversions = 0;
	return &c->plans[c->nplans++];
}

const struct lz_plan *
lz_conf_plan(const struct lz_conf *c, const char *name)
{
	size_t	 i;

	for (i = 0; i < c->nplans; i++)
		if (strcmp(c->plans[i].name, name) == 0)
			return &c->plans[i];
	return NULL;
}

struct lz_conf *
lz_conf_defaults(void)
{
	struct lz_conf	*c;
	struct lz_plan	*p;
	size_t		 i;

	c = xcalloc(1, sizeof(*c));
	for (i = 0; i < LZ_NELEM(items); i++) {
		switch (items[i].type) {
		case IT_STR:
		case IT_PATH:
			*str_at(c, &items[i]) = xstrdup(items[i].sdef);
			break;
		case IT_INT:
			*int_at(c, &items[i]) = items[i].idef;
			break;
		case IT_BOOL:
			*bool_at(c, &items[i]) = (int)items[i].idef;
			break;
		}
	}
	/* DESIGN 3.3: the two plans every instance has. */
	p = plan_get(c, "free", 4);
	p->quota = 1000;
	p->links = 100;
	p->conversions = 0;
	p = plan_get(c, "pro", 3);
	p->quota = 100000;
	p->links = 10000;
	p->conversions = 1;
	c->loglevel = LZ_LOG_INFO;
	c->sockmode = 0660;
	return c;
}

void
lz_conf_free(struct lz_conf *c)
{
	size_t	 i;

	if (c == NULL)
		return;
	for (i = 0; i < LZ_NELEM(items); i++)
		if (items[i].type == IT_STR || items[i].type == IT_PATH)
			free(*str_at(c, &items[i]));
	for (i = 0; i < c->nplans; i++)
		free(c->plans[i].name);
	free(c->plans);
	free(c->path);
	free(c->dir);
	free(c);
}

static int
parse_bool(const char *v, int *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") ||
	    !strcmp(v, "1"))
		*out = 1;
	else if (!strcmp(v, "no") || !strcmp(v, "false") ||
	    !strcmp(v, "off") || !strcmp(v, "0"))
		*out = 0;
	else
		return -1;
	return 0;
}

static int
set_plan(struct lz_conf *c, const char *key, const char *val, char *err,
    size_t errlen)
{
	const char	*name = key + 5, *dot;
	struct lz_plan	*p;
	long long	 n;
	size_t		 i;

	if ((dot = strchr(name, '.')) == NULL || dot == name ||
	    dot - name > 31) {
		snprintf(err, errlen, "bad plan key '%s'", key);
		return -1;
	}
	for (i = 0; name + i < dot; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' &&
		    name[i] != '-') {
			snprintf(err, errlen, "bad plan name in '%s'", key);
			return -1;
		}
	p = plan_get(c, name, (size_t)(dot - name));
	if (strcmp(dot + 1, "quota") == 0 || strcmp(dot + 1, "links") == 0) {
		if (lz_parse_ll(val, 0, 1000000000000LL, &n) == -1) {
			snprintf(err, errlen, "%s: expected an integer "
			    "0-1000000000000", key);
			return -1;
		}
		if (dot[1] == 'q')
			p->quota = n;
		else
			p->links = n;
	} else if (strcmp(dot + 1, "conversions") == 0) {
		if (parse_bool(val, &p->conversions) == -1) {
			snprintf(err, errlen, "%s: expected yes or no", key);
			return -1;
		}
	} else {
		snprintf(err, errlen, "unknown plan setting '%s' (quota, links "
		    "or conversions)", key);
		return -1;
	}
	return 0;
}

/* The row of key, or NULL. */
static const struct item *
item_of(const char *key)
{
	size_t	 i;

	for (i = 0; i < LZ_NELEM(items); i++)
		if (strcmp(items[i].name, key) == 0)
			return &items[i];
	return NULL;
}

/* The row of key, of type a or b: a caller naming another is a bug. */
static const struct item *
item_typed(const char *key, enum itemtype a, enum itemtype b)
{
	const struct item	*it = item_of(key);

	if (it == NULL || (it->type != a && it->type != b)) {
		lz_log(LZ_LOG_ERR, "lz_conf: no such setting %s", key);
		abort();
	}
	return it;
}

const char *
lz_conf_str(const struct lz_conf *c, const char *key)
{
	const struct item	*it = item_typed(key, IT_STR, IT_PATH);

	return *(char *const *)(const void *)((const char *)c + it->off);
}

long long
lz_conf_int(const struct lz_conf *c, const char *key)
{
	const struct item	*it = item_typed(key, IT_INT, IT_INT);

	return *(const long long *)(const void *)((const char *)c + it->off);
}

static int
set_item(struct lz_conf *c, const char *key, const char *val, char *err,
    size_t errlen)
{
	const struct item	*it;
	long long		 n;

	if (strncmp(key, "plan.", 5) == 0)
		return set_plan(c, key, val, err, errlen);
	if ((it = item_of(key)) == NULL) {
		snprintf(err, errlen, "unknown setting '%s'", key);
		return -1;
	}
	switch (it->type) {
	case IT_STR:
		free(*str_at(c, it));
		*str_at(c, it) = xstrdup(val);
		break;
	case IT_PATH:
		free(*str_at(c, it));
		/* links_db may name a PostgreSQL database instead. */
		if (val[0] != '/' && val[0] != '\0' && c->dir != NULL &&
		    !lz_db_is_uri(val))
			*str_at(c, it) = xasprintf("%s/%s", c->dir, val);
		else
			*str_at(c, it) = xstrdup(val);
		break;
	case IT_INT:
		if (lz_parse_ll(val, it->lo, it->hi, &n) == -1) {
			snprintf(err, errlen, "%s: expected an integer %lld-%lld",
			    key, it->lo, it->hi);
			return -1;
		}
		*int_at(c, it) = n;
		break;
	case IT_BOOL:
		if (parse_bool(val, bool_at(c, it)) == -1) {
			snprintf(err, errlen, "%s: expected yes or no", key);
			return -1;
		}
		break;
	}
	return 0;
}

/* "" or a host name with an optional ":port" (dashboard_host). */
static int
host_port_ok(const char *s)
{
	size_t	 n, p;

	n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-");
	if (n > 253)
		return 0;
	if (s[n] == '\0')
		return 1;
	p = strspn(s + n + 1, "0123456789");
	return n > 0 && s[n] == ':' && p >= 1 && p <= 5 &&
	    s[n + 1 + p] == '\0';
}

/* A host_id: 1 to LZ_HOST_ID_MAX of [A-Za-z0-9._-]. */
static int
host_id_ok(const char *s)
{
	size_t	 n = strlen(s);

	return n > 0 && n <= LZ_HOST_ID_MAX && strspn(s, "abcdefghijklmnopq"
	    "rstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

/*
 * The settings of several hosts on one PostgreSQL database (DESIGN 7):
 * only links_db can be a URI, and host_id names this host, by default
 * its host name (the part before the first dot).
 */
static int
conf_cluster(struct lz_conf *c, char *err, size_t errlen)
{
	char	 host[256];

	if (lz_db_is_uri(c->prompts_db) || lz_db_is_uri(c->clicks_dir) ||
	    lz_db_is_uri(c->key_file)) {
		snprintf(err, errlen, "only links_db can name a PostgreSQL "
		    "database; the prompt library stays on SQLite");
		return -1;
	}
	if (*c->host_id == '\0' && lz_db_is_uri(c->links_db)) {
		if (gethostname(host, sizeof(host)) == -1)
			snprintf(host, sizeof(host), "localhost");
		host[sizeof(host) - 1] = '\0';
		host[strcspn(host, ".")] = '\0';
		free(c->host_id);
		c->host_id = xstrdup(host);
	}
	if (*c->host_id != '\0' && !host_id_ok(c->host_id)) {
		snprintf(err, errlen, "host_id: expected 1 to %d letters, "
		    "digits, '.', '_' or '-'", LZ_HOST_ID_MAX);
		return -1;
	}
	return 0;
}

/* Whether s holds a control character (C0 or DEL) not in allowed. */
static int
has_control(const char *s, const char *allowed)
{
	for (; *s != '\0'; s++)
		if (((unsigned char)*s < 0x20 || *s == 0x7f) &&
		    strchr(allowed, *s) == NULL)
			return 1;
	return 0;
}

/*
 * mail_command is run without a shell (lz-hooks(8) "Mail"): its first
 * word an absolute path, no control character.  mail_from is an address
 * of a header of its own, lz@ this host's name by default; lz-hooks
 * checks both again as it writes a message.
 */
static int
conf_mail(struct lz_conf *c, char *err, size_t errlen)
{
	const char	*cmd = c->mail_command + strspn(c->mail_command, " \t");
	char		 host[256];
	const char	*s;

	if ((*cmd != '\0' && *cmd != '/') || has_control(cmd, "\t")) {
		snprintf(err, errlen, "mail_command: expected a command with "
		    "its absolute path, such as /usr/sbin/sendmail -t -i");
		return -1;
	}
	if (*c->mail_from == '\0') {
		if (gethostname(host, sizeof(host)) == -1)
			snprintf(host, sizeof(host), "localhost");
		host[sizeof(host) - 1] = '\0';
		free(c->mail_from);
		c->mail_from = xasprintf("lz@%s", host);
	}
	if (*cmd == '\0')
		return 0;	/* no mail: whatever the host is called */
	s = strchr(c->mail_from, '@');
	if (s == NULL || s == c->mail_from || s[1] == '\0' ||
	    strchr(s + 1, '@') != NULL ||
	    strpbrk(c->mail_from, " <>()[],;:\\\"'") != NULL ||
	    has_control(c->mail_from, "")) {
		snprintf(err, errlen, "mail_from: expected an address such as "
		    "lz@example.com");
		return -1;
	}
	return 0;
}

/* Checks values whose syntax goes beyond the item type. */
static int
conf_finish(struct lz_conf *c, char *err, size_t errlen)
{
	char		*end;
	unsigned long	 mode;
	size_t		 len;

	if (strcmp(c->signup, "open") == 0)
		c->signup_open = 1;
	else if (strcmp(c->signup, "closed") == 0)
		c->signup_open = 0;
	else {
		snprintf(err, errlen, "signup: expected open or closed");
		return -1;
	}
	if ((c->loglevel = lz_log_parse_level(c->log_level)) < 0) {
		snprintf(err, errlen, "log_level: expected error, warn, info "
		    "or debug");
		return -1;
	}
	errno = 0;
	mode = strtoul(c->socket_mode, &end, 8);
	if (errno || *end || end == c->socket_mode || mode > 0777) {
		snprintf(err, errlen, "socket_mode: expected an octal mode "
		    "such as 0660");
		return -1;
	}
	c->sockmode = (unsigned)mode;
	len = strlen(c->base_url);
	if ((strncmp(c->base_url, "http://", 7) != 0 &&
	    strncmp(c->base_url, "https://", 8) != 0) || len < 9) {
		snprintf(err, errlen, "base_url: expected http:// or https:// "
		    "URL");
		return -1;
	}
	while (len > 0 && c->base_url[len - 1] == '/')
		c->base_url[--len] = '\0';
	if (!host_port_ok(c->dashboard_host)) {
		snprintf(err, errlen, "dashboard_host: expected a host name "
		    "such as dash.example.com, with a port if not the "
		    "default");
		return -1;
	}
	if (strlen(c->default_currency) != 3 ||
	    !isupper((unsigned char)c->default_currency[0]) ||
	    !isupper((unsigned char)c->default_currency[1]) ||
	    !isupper((unsigned char)c->default_currency[2])) {
		snprintf(err, errlen, "default_currency: expected an ISO 4217 "
		    "code such as USD");
		return -1;
	}
	if (strcmp(c->safe_browsing_fail, "open") == 0)
		c->sb_fail_closed = 0;
	else if (strcmp(c->safe_browsing_fail, "closed") == 0)
		c->sb_fail_closed = 1;
	else {
		snprintf(err, errlen, "safe_browsing_fail: expected open or "
		    "closed");
		return -1;
	}
	if (lz_conf_plan(c, c->default_plan) == NULL) {
		snprintf(err, errlen, "default_plan: no plan called '%s'",
		    c->default_plan);
		return -1;
	}
	if (conf_mail(c, err, errlen) == -1)
		return -1;
	return conf_cluster(c, err, errlen);
}

static char *
trim(char *s)
{
	char	*e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' ||
	    e[-1] == '\n'))
		*--e = '\0';
	return s;
}

struct lz_conf *
lz_conf_load(const char *path, char *err, size_t errlen)
{
	struct lz_conf	*c;
	FILE		*f;
	char		*line = NULL, *key, *val, *eq, *slash, msg[256];
	char		**seen = NULL;
	size_t		 cap = 0, lineno = 0, nseen = 0, i;
	ssize_t		 n;

	if (path == NULL)
		path = getenv("LZ_CONF");
	if (path == NULL || *path == '\0')
		path = LZ_CONF_DEFAULT_PATH;
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	c = lz_conf_defaults();
	c->path = xstrdup(path);
	if ((slash = strrchr(c->path, '/')) != NULL)
		c->dir = slash == c->path ? xstrdup("/") :
		    xstrndup(c->path, (size_t)(slash - c->path));
	else
		c->dir = xstrdup(".");
	while ((n = getline(&line, &cap, f)) != -1) {
		lineno++;
		key = trim(line);
		if (*key == '#' || *key == '\0')
			continue;
		if ((eq = strchr(key, '=')) == NULL) {
			snprintf(err, errlen, "%s:%zu: expected key = value",
			    path, lineno);
			goto fail;
		}
		*eq = '\0';
		key = trim(key);
		val = trim(eq + 1);
		/* A repeated key is almost always an editing mistake. */
		for (i = 0; i < nseen; i++)
			if (strcmp(seen[i], key) == 0) {
				snprintf(err, errlen, "%s:%zu: '%s' is set "
				    "twice", path, lineno, key);
				goto fail;
			}
		seen = xreallocarray(seen, nseen + 1, sizeof(*seen));
		seen[nseen++] = xstrdup(key);
		if (set_item(c, key, val, msg, sizeof(msg)) == -1) {
			snprintf(err, errlen, "%s:%zu: %s", path, lineno, msg);
			goto fail;
		}
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (conf_finish(c, msg, sizeof(msg)) == -1) {
		snprintf(err, errlen, "%s: %s", path, msg);
		goto fail;
	}
	lz_strlist_free(seen, nseen);
	free(line);
	fclose(f);
	return c;
fail:
	lz_strlist_free(seen, nseen);
	free(line);
	fclose(f);
	lz_conf_free(c);
	return NULL;
}
