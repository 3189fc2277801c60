/*
 * cmd_links.c -- lzctl init, migrate, account, key and link.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <sodium.h>

#include "account.h"
#include "amount.h"
#include "conversion.h"
#include "db.h"
#include "keyfile.h"
#include "keys.h"
#include "link.h"
#include "linkops.h"
#include "ctx.h"
#include "lzctl.h"
#include "lztime.h"
#include "store/accounts.h"
#include "store/admin.h"
#include "store/clicks.h"
#include "store/conversions.h"
#include "store/links.h"
#include "store/safety.h"
#include "store/sessions.h"
#include "store/store.h"
#include "util.h"

/* mkdir -p of the directory holding path. */
static int
mkdir_parent(const char *path)
{
	char	*dup, *dir, *p;
	int	 rc = 0;

	dup = xstrdup(path);
	dir = dirname(dup);
	for (p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char	 save = *p;

			*p = '\0';
			if (mkdir(dir, 0750) == -1 && errno != EEXIST) {
				ctl_err("mkdir %s: %s", dir, strerror(errno));
				rc = -1;
				break;
			}
			*p = save;
			if (save == '\0')
				break;
		}
	}
	free(dup);
	return rc;
}

static void
chown_db(const char *path)
{
	char	*p;

	ctl_chown_to_user(path);
	p = xasprintf("%s-wal", path);
	ctl_chown_to_user(p);
	free(p);
	p = xasprintf("%s-shm", path);
	ctl_chown_to_user(p);
	free(p);
}

static int
migrate_links(int create)
{
	struct lz_db	 db;
	char		 err[512], *dup;
	int		 from, to;

	if (create && mkdir_parent(ctl_conf->links_db) == -1)
		return 1;
	if (lz_db_open(&db, ctl_conf->links_db, create ? LZ_DB_CREATE : 0,
	    err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		return 1;
	}
	if (lz_db_migrate(&db, lz_links_migrations, lz_links_nmigrations,
	    &from, &to, err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		lz_db_close(&db);
		return 1;
	}
	lz_db_close(&db);
	if (create) {
		dup = xstrdup(ctl_conf->links_db);
		ctl_chown_to_user(dirname(dup));
		free(dup);
		chown_db(ctl_conf->links_db);
	}
	if (from == to)
		printf("links database %s: schema version %d, up to date\n",
		    ctl_conf->links_db, to);
	else
		printf("links database %s: schema version %d -> %d\n",
		    ctl_conf->links_db, from, to);
	return 0;
}

int
cmd_init(int argc, char **argv)
{
	char	 err[512];
	int	 rc;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: lzctl init\n");
		return EXIT_USAGE;
	}
	if (mkdir_parent(ctl_conf->key_file) == -1)
		return 1;
	if ((rc = lz_keyfile_create(ctl_conf->key_file, err, sizeof(err))) ==
	    -1) {
		ctl_err("%s", err);
		return 1;
	}
	ctl_chown_to_user(ctl_conf->key_file);
	printf("key file %s: %s\n", ctl_conf->key_file, rc ? "created" :
	    "exists");
	return migrate_links(1);
}

int
cmd_migrate(int argc, char **argv)
{
	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: lzctl migrate\n");
		return EXIT_USAGE;
	}
	return migrate_links(0);
}

/* ---- accounts -------------------------------------------------------- */

static void
print_account(const struct account *a, void *arg)
{
	char	 ts[32];

	(void)arg;
	lz_time_fmt_iso(a->created_at, ts, sizeof(ts), 0);
	printf("%lld\t%s\t%s\t%s\t%s\n", (long long)a->id, a->email, a->plan,
	    a->disabled ? "disabled" : "active", ts);
}

static int
account_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "plan", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*plan = ctl_conf->default_plan;
	int64_t		 id;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "p:", opts, NULL)) != -1)
		switch (ch) {
		case 'p':
			plan = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: lzctl account add EMAIL "
		    "[--plan PLAN]\n");
		return EXIT_USAGE;
	}
	if (!account_email_ok(argv[optind])) {
		ctl_err("'%s' is not an e-mail address", argv[optind]);
		return 1;
	}
	if (lz_conf_plan(ctl_conf, plan) == NULL) {
		ctl_err("no plan '%s' (see plan.* in lz.conf)", plan);
		return 1;
	}
	ctl_links_open();
	id = account_create(argv[optind], plan, NULL, lz_now_ms());
	if (id < 0)
		return 1;
	if (id == 0) {
		ctl_err("an account with e-mail %s exists", argv[optind]);
		return 1;
	}
	printf("%lld\n", (long long)id);
	return 0;
}

/*
 * Sets the dashboard password of account id from the first line of
 * standard input (so it never shows in ps or the shell history) and ends
 * the account's dashboard sessions.
 */
static int
account_password(int64_t id)
{
	char	*line = NULL;
	size_t	 cap = 0;
	ssize_t	 n;
	int	 rc = 1;

	if ((n = getline(&line, &cap, stdin)) <= 0) {
		ctl_err("give the new password on standard input");
		goto out;
	}
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	if (!account_password_ok(line)) {
		ctl_err("a password has %d to %d characters", PASSWORD_MIN_LEN,
		    PASSWORD_MAX_LEN);
		goto out;
	}
	if (account_set_password(id, line) == 1 &&
	    store_session_delete_others(&links.db, id, 0) == 0)
		rc = 0;
out:
	if (line != NULL) {
		sodium_memzero(line, cap);
		free(line);
	}
	return rc;
}

int
cmd_account(int argc, char **argv)
{
	struct account	 a;
	int64_t		 id;
	const char	*sub = argc > 1 ? argv[1] : "";
	int		 rc;

	if (strcmp(sub, "add") == 0)
		return account_add(argc - 1, argv + 1);
	ctl_links_open();
	if (strcmp(sub, "list") == 0 && argc == 2) {
		printf("ID\tEMAIL\tPLAN\tSTATUS\tCREATED\n");
		return store_account_list(&links.db, print_account, NULL) < 0;
	}
	if (strcmp(sub, "show") == 0 && argc == 3) {
		char		 date[16], month[8];

		if ((id = ctl_account_id(argv[2])) == 0)
			return EXIT_NOTFOUND;
		if (store_account_get(&links.db, id, NULL, &a) != 1)
			return 1;
		lz_time_fmt_date(lz_now_ms(), date, sizeof(date));
		snprintf(month, sizeof(month), "%.7s", date);
		printf("id:       %lld\nemail:    %s\nplan:     %s\n"
		    "status:   %s\nlinks:    %lld\ncalls:    %lld this month "
		    "(%s)\n", (long long)a.id, a.email, a.plan,
		    a.disabled ? "disabled" : "active",
		    store_link_count(&links.db, a.id),
		    store_usage_get(&links.db, a.id, month), month);
		return 0;
	}
	if (strcmp(sub, "plan") == 0 && argc == 4) {
		if (lz_conf_plan(ctl_conf, argv[3]) == NULL) {
			ctl_err("no plan '%s' (see plan.* in lz.conf)",
			    argv[3]);
			return 1;
		}
		if ((id = ctl_account_id(argv[2])) == 0)
			return EXIT_NOTFOUND;
		rc = store_account_set_plan(&links.db, id, argv[3]);
		return rc == 1 ? 0 : 1;
	}
	if (strcmp(sub, "password") == 0 && argc == 3) {
		if ((id = ctl_account_id(argv[2])) == 0)
			return EXIT_NOTFOUND;
		return account_password(id);
	}
	if ((strcmp(sub, "disable") == 0 || strcmp(sub, "enable") == 0) &&
	    argc == 3) {
		if ((id = ctl_account_id(argv[2])) == 0)
			return EXIT_NOTFOUND;
		rc = store_account_set_disabled(&links.db, id, sub[0] == 'd');
		return rc == 1 ? 0 : 1;
	}
	fprintf(stderr, "usage: lzctl account add EMAIL [--plan PLAN]\n"
	    "       lzctl account list\n"
	    "       lzctl account show ACCOUNT\n"
	    "       lzctl account plan ACCOUNT PLAN\n"
	    "       lzctl account password ACCOUNT < password\n"
	    "       lzctl account disable|enable ACCOUNT\n");
	return EXIT_USAGE;
}

/* ---- keys ------------------------------------------------------------ */

static void
print_key(const struct apikey *k, void *arg)
{
	char	 ts[32], used[32];

	(void)arg;
	lz_time_fmt_iso(k->created_at, ts, sizeof(ts), 0);
	if (k->last_used_at)
		lz_time_fmt_iso(k->last_used_at, used, sizeof(used), 0);
	else
		snprintf(used, sizeof(used), "never");
	printf("%lld\t%s...%s\t%s\t%s\t%s\t%s\n", (long long)k->id, k->prefix,
	    k->last4, k->revoked_at ? "revoked" : "active", ts, used,
	    k->name);
}

static int
key_create(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	char		 key[KEY_LEN + 1];
	const char	*name = "";
	int64_t		 account;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "n:", opts, NULL)) != -1)
		switch (ch) {
		case 'n':
			name = optarg;
			break;
		default:
			return EXIT_USAGE;
		}
	if (argc - optind != 1) {
		fprintf(stderr, "usage: lzctl key create ACCOUNT "
		    "[--name NAME]\n");
		return EXIT_USAGE;
	}
	ctl_links_open();
	if ((account = ctl_account_id(argv[optind])) == 0)
		return EXIT_NOTFOUND;
	if (apikey_create(account, name, lz_now_ms(), key) < 0)
		return 1;
	/* Shown once: only the hash is stored. */
	printf("%s\n", key);
	sodium_memzero(key, sizeof(key));
	return 0;
}

int
cmd_key(int argc, char **argv)
{
	const char	*sub = argc > 1 ? argv[1] : "";
	long long	 id;
	int64_t		 account;
	int		 rc;

	if (strcmp(sub, "create") == 0)
		return key_create(argc - 1, argv + 1);
	if (strcmp(sub, "list") == 0 && argc == 3) {
		ctl_links_open();
		if ((account = ctl_account_id(argv[2])) == 0)
			return EXIT_NOTFOUND;
		printf("ID\tKEY\tSTATUS\tCREATED\tLAST USED\tNAME\n");
		return store_key_list(&links.db, account, print_key, NULL) < 0;
	}
	if (strcmp(sub, "revoke") == 0 && argc == 3) {
		if (lz_parse_ll(argv[2], 1, INT64_MAX, &id) == -1) {
			ctl_err("'%s' is not a key id (see lzctl key list)",
			    argv[2]);
			return EXIT_USAGE;
		}
		ctl_links_open();
		rc = store_key_revoke(&links.db, id, ACCOUNT_ANY, lz_now_ms());
		if (rc == 0) {
			ctl_err("no active key %lld", id);
			return EXIT_NOTFOUND;
		}
		return rc == 1 ? 0 : 1;
	}
	fprintf(stderr, "usage: lzctl key create ACCOUNT [--name NAME]\n"
	    "       lzctl key list ACCOUNT\n"
	    "       lzctl key revoke KEY-ID\n");
	return EXIT_USAGE;
}

/* ---- links ----------------------------------------------------------- */

static void
print_link(struct link *l, void *arg)
{
	char	 ts[32];

	(void)arg;
	lz_time_fmt_iso(l->created_at, ts, sizeof(ts), 0);
	printf("%lld\t%s\t%lld\t%lld\t%s\t%s\n", (long long)l->id, l->slug,
	    (long long)l->account_id, (long long)l->clicks, ts,
	    l->target_url);
}

/* A link given as a numeric id or a slug; 1 found, 0 not. */
static int
find_link(const char *s, struct link *l)
{
	long long	 id;

	if (lz_parse_ll(s, 1, INT64_MAX, &id) == 0 &&
	    store_link_get(&links.db, id, ACCOUNT_ANY, l) == 1)
		return 1;
	if (store_link_by_slug(&links.db, s, l) == 1) {
		if (l->deleted_at == 0)
			return 1;
		link_free(l);
	}
	ctl_err("no link '%s'", s);
	return 0;
}

static int
link_list(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "account", required_argument, NULL, 'a' },
		{ "limit", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	const char	*acct = NULL;
	long long	 limit = 100;
	int64_t		 account = ACCOUNT_ANY;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "a:n:", opts, NULL)) != -1)
		switch (ch) {
		case 'a':
			acct = optarg;
			break;
		case 'n':
			if (lz_parse_ll(optarg, 1, 1000000, &limit) == -1) {
				ctl_err("--limit: expected 1-1000000");
				return EXIT_USAGE;
			}
			break;
		default:
			return EXIT_USAGE;
		}
	if (optind != argc) {
		fprintf(stderr, "usage: lzctl link list [--account ACCOUNT] "
		    "[--limit N]\n");
		return EXIT_USAGE;
	}
	ctl_links_open();
	if (acct && (account = ctl_account_id(acct)) == 0)
		return EXIT_NOTFOUND;
	printf("ID\tSLUG\tACCOUNT\tCLICKS\tCREATED\tTARGET\n");
	return store_link_list(&links.db, account, 0, (long)limit, print_link,
	    NULL) < 0;
}

static void
print_flagged(struct link *l, void *arg)
{
	char	 ts[32];

	(void)arg;
	lz_time_fmt_iso(l->flagged_at, ts, sizeof(ts), 0);
	printf("%lld\t%s\t%lld\t%s\t%s\t%s\n", (long long)l->id, l->slug,
	    (long long)l->account_id, ts, l->target_url,
	    l->flag_reason ? l->flag_reason : "");
}

/* lzctl link flagged: the links the safety scan disabled. */
static int
link_flagged(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "limit", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 }
	};
	long long	 limit = 100;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "n:", opts, NULL)) != -1)
		switch (ch) {
		case 'n':
			if (lz_parse_ll(optarg, 1, 1000000, &limit) == -1) {
				ctl_err("--limit: expected 1-1000000");
				return EXIT_USAGE;
			}
			break;
		default:
			return EXIT_USAGE;
		}
	if (optind != argc) {
		fprintf(stderr, "usage: lzctl link flagged [--limit N]\n");
		return EXIT_USAGE;
	}
	ctl_links_open();
	printf("ID\tSLUG\tACCOUNT\tFLAGGED\tTARGET\tREASON\n");
	return store_link_flagged(&links.db, (long)limit, print_flagged,
	    NULL) < 0;
}

/* ---- lzctl link stats ------------------------------------------------- */

#define STATS_TOP	100	/* values per breakdown, as the API */
#define STATS_VARIANTS	1000

/* Conversion totals: the count and the lines per currency. */
struct stats_totals {
	int64_t		 n;
	struct lz_buf	 lines;
};

static void
stats_total_one(const char *currency, int64_t n, int has_rev, int64_t micros,
    void *arg)
{
	struct stats_totals	*t = arg;
	char			 amt[AMOUNT_TEXT_MAX];

	t->n += n;
	amount_fmt(has_rev ? micros : 0, amt);
	lz_buf_printf(&t->lines, "%s\t%lld\t%s\n", currency, (long long)n,
	    amt);
}

/* A breakdown, printed a line per key (the rows of a key come
 * together): its conversions and its revenue as "0.3 USD, 12 EUR". */
struct stats_bd {
	enum conv_dim	 dim;
	json_t		*vclicks;	/* CONV_BY_VARIANT: variant -> clicks */
	int		 have, key_null;
	char		 key[80];
	int64_t		 key_n;
	struct lz_buf	 rev;
};

static void
stats_bd_flush(struct stats_bd *bd)
{
	const char	*key = bd->key;
	int64_t		 clicks;

	if (!bd->have)
		return;
	if (bd->dim == CONV_BY_VARIANT && bd->key_null)
		printf("(not attributed)\t-\t%lld\t-\t%s\n",
		    (long long)bd->key_n, lz_buf_str(&bd->rev));
	else if (bd->dim == CONV_BY_VARIANT) {
		clicks = json_integer_value(json_object_get(bd->vclicks, key));
		printf("%s\t%lld\t%lld\t%.4f\t%s\n", *key ? key :
		    "(target_url)", (long long)clicks, (long long)bd->key_n,
		    conv_rate(bd->key_n, clicks), lz_buf_str(&bd->rev));
	} else
		printf("%s\t%lld\t%s\n", *key ? key : "(none)",
		    (long long)bd->key_n, lz_buf_str(&bd->rev));
	lz_buf_reset(&bd->rev);
	bd->have = 0;
}

static void
stats_bd_one(const char *key, int64_t key_n, const char *currency, int64_t n,
    int has_rev, int64_t micros, void *arg)
{
	struct stats_bd	*bd = arg;
	char		 amt[AMOUNT_TEXT_MAX];

	(void)n;
	if (bd->have && (key == NULL ? !bd->key_null : bd->key_null ||
	    strcmp(key, bd->key) != 0))
		stats_bd_flush(bd);
	if (!bd->have) {
		bd->have = 1;
		bd->key_null = key == NULL;
		snprintf(bd->key, sizeof(bd->key), "%s", key ? key : "");
		bd->key_n = key_n;
	}
	if (has_rev) {
		amount_fmt(micros, amt);
		lz_buf_printf(&bd->rev, "%s%s %s", bd->rev.len ? ", " : "",
		    amt, currency);
	}
}

static void
stats_variant_clicks(const char *key, int64_t clicks, void *arg)
{
	json_object_set_new(arg, key, json_integer(clicks));
}

/*
 * lzctl link stats ID|SLUG [--from TIME] [--to TIME]: the figures of
 * GET /api/v1/links/<id>/stats (all time by default) as tab-separated
 * sections, amounts in exact decimals.
 */
static int
link_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 }
	};
	static const char *const heads[CONV_DIM__MAX] = {
		[CONV_BY_SUFFIX] = "SUFFIX\tCONVERSIONS\tREVENUE",
		[CONV_BY_CURRENCY] = NULL,	/* the totals show it */
		[CONV_BY_VARIANT] = "VARIANT\tCLICKS\tCONVERSIONS\tRATE\t"
		    "REVENUE",
	};
	struct stats_totals	 t;
	struct stats_bd		 bd;
	struct link		 l;
	int64_t			 from = 0, to, clicks, bots;
	char			 ts[2][40];
	int			 ch, i, rc = 1;

	to = lz_now_ms() + 1;
	while ((ch = getopt_long(argc, argv, "f:t:", opts, NULL)) != -1)
		switch (ch) {
		case 'f':
		case 't':
			if (lz_time_parse_iso(optarg, ch == 'f' ? &from :
			    &to) == -1) {
				ctl_err("--%s: expected an ISO 8601 time with "
				    "a time zone", ch == 'f' ? "from" : "to");
				return EXIT_USAGE;
			}
			break;
		default:
			return EXIT_USAGE;
		}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: lzctl link stats ID|SLUG [--from TIME] "
		    "[--to TIME]\n");
		return EXIT_USAGE;
	}
	ctl_links_open();
	if (!find_link(argv[optind], &l))
		return EXIT_NOTFOUND;
	memset(&t, 0, sizeof(t));
	memset(&bd, 0, sizeof(bd));
	bd.vclicks = json_object();
	if (store_stats_totals(&links.db, l.id, from, to, &clicks,
	    &bots) == -1 || store_conv_totals(&links.db, l.id, from, to,
	    stats_total_one, &t) == -1 || store_stats_breakdown(&links.db,
	    STATS_VARIANT, l.id, from, to, STATS_VARIANTS,
	    stats_variant_clicks, bd.vclicks) == -1)
		goto out;
	lz_time_fmt_iso(from, ts[0], sizeof(ts[0]), 0);
	lz_time_fmt_iso(to, ts[1], sizeof(ts[1]), 0);
	printf("LINK\tSLUG\tACCOUNT\tFROM\tTO\n"
	    "%lld\t%s\t%lld\t%s\t%s\n\n", (long long)l.id, l.slug,
	    (long long)l.account_id, ts[0], ts[1]);
	printf("CLICKS\tBOTS\tCONVERSIONS\tRATE\n%lld\t%lld\t%lld\t%.4f\n\n",
	    (long long)clicks, (long long)bots, (long long)t.n,
	    conv_rate(t.n, clicks));
	printf("CURRENCY\tCONVERSIONS\tREVENUE\n%s", lz_buf_str(&t.lines));
	for (i = 0; i < CONV_DIM__MAX; i++) {
		if (heads[i] == NULL)
			continue;
		printf("\n%s\n", heads[i]);
		bd.dim = (enum conv_dim)i;
		if (store_conv_breakdown(&links.db, bd.dim, l.id, from, to,
		    STATS_TOP, stats_bd_one, &bd) == -1)
			goto out;
		stats_bd_flush(&bd);
	}
	rc = 0;
out:
	lz_buf_free(&t.lines);
	lz_buf_free(&bd.rev);
	json_decref(bd.vclicks);
	link_free(&l);
	return rc;
}

int
cmd_link(int argc, char **argv)
{
	const char	*sub = argc > 1 ? argv[1] : "";
	struct link	 l;
	json_t		*j;
	char		*s;
	int		 rc;

	if (strcmp(sub, "list") == 0)
		return link_list(argc - 1, argv + 1);
	if (strcmp(sub, "show") == 0 && argc == 3) {
		ctl_links_open();
		if (!find_link(argv[2], &l))
			return EXIT_NOTFOUND;
		j = link_json(&l, ctl_conf->base_url, lz_now_ms());
		json_object_set_new(j, "account_id",
		    json_integer(l.account_id));
		if (l.flagged_at != 0) {
			char	 ts[32];

			lz_time_fmt_iso(l.flagged_at, ts, sizeof(ts), 0);
			json_object_set_new(j, "flagged_at", json_string(ts));
			json_object_set_new(j, "flag_reason",
			    json_string(l.flag_reason ? l.flag_reason : ""));
		}
		s = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		printf("%s\n", s);
		free(s);
		json_decref(j);
		link_free(&l);
		return 0;
	}
	if (strcmp(sub, "flagged") == 0)
		return link_flagged(argc - 1, argv + 1);
	if (strcmp(sub, "stats") == 0)
		return link_stats(argc - 1, argv + 1);
	if (strcmp(sub, "unflag") == 0 && argc == 3) {
		ctl_links_open();
		if (!find_link(argv[2], &l))
			return EXIT_NOTFOUND;
		rc = store_link_unflag(&links.db, l.id);
		if (rc == 1)
			printf("link %lld (%s) is active again\n",
			    (long long)l.id, l.slug);
		else if (rc == 0)
			ctl_err("link %lld (%s) is not flagged",
			    (long long)l.id, l.slug);
		link_free(&l);
		return rc == 1 ? 0 : 1;
	}
	if (strcmp(sub, "delete") == 0 && argc == 3) {
		ctl_links_open();
		if (!find_link(argv[2], &l))
			return EXIT_NOTFOUND;
		rc = linkops_delete(l.id, ACCOUNT_ANY, lz_now_ms());
		if (rc == 1)
			printf("deleted link %lld (%s); its slug stays "
			    "reserved\n", (long long)l.id, l.slug);
		link_free(&l);
		return rc == 1 ? 0 : 1;
	}
	fprintf(stderr, "usage: lzctl link list [--account ACCOUNT] "
	    "[--limit N]\n"
	    "       lzctl link show ID|SLUG\n"
	    "       lzctl link delete ID|SLUG\n"
	    "       lzctl link stats ID|SLUG [--from TIME] [--to TIME]\n"
	    "       lzctl link flagged [--limit N]\n"
	    "       lzctl link unflag ID|SLUG\n");
	return EXIT_USAGE;
}
