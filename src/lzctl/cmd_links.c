/*
 * cmd_links.c -- lzctl link: list, show, edit, delete, stats, flagged,
 * unflag.
 * The rules are linkops.c's and stats.c's; this file only reads
 * arguments and prints.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "domain/domain.h"
#include "domain/host.h"
#include "link/link.h"
#include "link/linkops.h"
#include "lzctl.h"
#include "lztime.h"
#include "stats/amount.h"
#include "stats/stats.h"
#include "store/admin.h"
#include "store/links.h"
#include "store/safety.h"
#include "util.h"
#include "verr.h"

#define LIST_MAX	1000000	/* links a list prints at most */
#define EDIT_MAX	64	/* operands of link edit */

static void
print_link(struct link *l, void *arg)
{
	(void)arg;
	printf("%lld\t%s\t%lld\t%lld\t%s\t%s\n", (long long)l->id, l->slug,
	    (long long)l->account_id, (long long)l->clicks,
	    ctl_time(l->created_at, 0, NULL), l->target_url);
}

/* The option --domain HOST of the commands that find a link: the last
 * of their options. */
#define DOMAIN_OPT \
	{ .name = "domain", .ch = 'D', .type = CTL_STR }

/* The id of the short domain host (NULL: the default one, 0); -1 when
 * there is none (said). */
static int64_t
domain_id(const char *host)
{
	struct domain	 d;
	char		 h[HOST_MAX + 1], why[128];
	int		 rc;

	if (host == NULL)
		return 0;
	if (host_parse(host, h, sizeof(h), why, sizeof(why)) == -1) {
		ctl_err("--domain '%s' %s", host, why);
		return -1;
	}
	if (domain_default_host(ctl_conf, why, sizeof(why)) == 0 &&
	    strcmp(why, h) == 0)
		return 0;
	if ((rc = store_domain_by_host(&ctl_links_db, h, &d)) != 1) {
		if (rc == 0)
			ctl_err("no domain %s (lzctl domain list)", h);
		return -1;
	}
	store_domain_free(&d);
	return d.id;
}

/*
 * The live link of the operand, a numeric id or a slug (on the domain of
 * --domain, else the default one); 1 found, 0 not (said).
 */
static int
find_link(const struct ctl_args *a, struct link *l)
{
	const char	*s = a->argv[0];
	long long	 id;
	int64_t		 domain;
	int		 dom = 0;

	while (dom < CTL_OPTS_MAX - 1 && a->cmd->opts[dom].ch != 'D')
		dom++;
	if (!a->opt[dom].set && lz_parse_ll(s, 1, INT64_MAX, &id) == 0 &&
	    store_link_get(&ctl_links_db, id, ACCOUNT_ANY, l) == 1)
		return 1;
	if ((domain = domain_id(a->opt[dom].set ? a->opt[dom].s : NULL)) < 0)
		return 0;
	if (store_link_by_slug(&ctl_links_db, domain, s, l) == 1) {
		if (l->deleted_at == 0)
			return 1;
		link_free(l);
	}
	ctl_err("no link '%s'", s);
	return 0;
}

enum { O_ACCOUNT, O_LIMIT, O_DOMAIN };

static int
link_list(struct ctl_args *a)
{
	struct link_filter	 f = { NULL, -1, 0, 0, 0, NULL,
	    LINK_ARCHIVED_INCLUDE };
	int64_t			 account = ACCOUNT_ANY;

	if (a->opt[O_ACCOUNT].set &&
	    (account = ctl_account_id(a->opt[O_ACCOUNT].s)) == 0)
		return EXIT_NOTFOUND;
	if ((f.by_domain = a->opt[O_DOMAIN].set) &&
	    (f.domain = domain_id(a->opt[O_DOMAIN].s)) < 0)
		return EXIT_NOTFOUND;
	printf("ID\tSLUG\tACCOUNT\tCLICKS\tCREATED\tTARGET\n");
	return store_link_list(&ctl_links_db, account, 0, (long)a->opt[O_LIMIT].i,
	    &f, print_link, NULL) < 0;
}

/* The link as JSON, for admins: the representation, its account and
 * the flag the safety scan set. */
static void
print_json(const struct link *l)
{
	json_t	*j;
	char	*s;

	j = link_json(l, ctl_conf->base_url, lz_now_ms());
	json_object_set_new(j, "account_id", json_integer(l->account_id));
	if (l->flagged_at != 0) {
		json_object_set_new(j, "flagged_at",
		    json_string(ctl_time(l->flagged_at, 0, NULL)));
		json_object_set_new(j, "flag_reason",
		    json_string(l->flag_reason ? l->flag_reason : ""));
	}
	s = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	printf("%s\n", s);
	free(s);
	json_decref(j);
}

static int
link_show(struct ctl_args *a)
{
	struct link	 l;

	if (!find_link(a, &l))
		return EXIT_NOTFOUND;
	print_json(&l);
	link_free(&l);
	return 0;
}

/*
 * The patch of lzctl link edit: FIELD=TEXT sets a text, FIELD:=JSON any
 * JSON value (a number, true, null, an object ...), as httpie writes
 * them.  NULL after saying what is wrong.
 */
static json_t *
edit_patch(int argc, char **argv)
{
	json_t		*patch, *v;
	json_error_t	 je;
	char		*eq, *name;
	int		 i, raw;

	patch = json_object();
	for (i = 0; i < argc; i++) {
		eq = strchr(argv[i], '=');
		raw = eq != NULL && eq > argv[i] && eq[-1] == ':';
		if (eq == NULL || eq - raw == argv[i]) {
			ctl_err("'%s' is not FIELD=TEXT or FIELD:=JSON",
			    argv[i]);
			goto fail;
		}
		name = xstrndup(argv[i], (size_t)(eq - argv[i] - raw));
		v = raw ? json_loads(eq + 1, JSON_DECODE_ANY |
		    JSON_REJECT_DUPLICATES, &je) : json_string(eq + 1);
		if (v == NULL || json_object_get(patch, name) != NULL) {
			if (v == NULL)
				ctl_err("%s: %s", argv[i], raw ? je.text :
				    "not UTF-8");
			else
				ctl_err("%s is given twice", name);
			json_decref(v);
			free(name);
			goto fail;
		}
		json_object_set_new(patch, name, v);
		free(name);
	}
	return patch;
fail:
	json_decref(patch);
	return NULL;
}

/* lzctl link edit ID|SLUG FIELD=VALUE...: linkops_update, as PATCH does
 * it, for any account. */
static int
link_edit(struct ctl_args *a)
{
	struct lz_verr	 e;
	struct link	 l, out;
	json_t		*patch;
	int		 rc;

	if ((patch = edit_patch(a->argc - 1, a->argv + 1)) == NULL)
		return EXIT_USAGE;
	if (!find_link(a, &l)) {
		json_decref(patch);
		return EXIT_NOTFOUND;
	}
	rc = linkops_update(&ctl_links_db, ctl_conf, l.id, ACCOUNT_ANY, patch,
	    lz_now_ms(), &out, &e);
	json_decref(patch);
	link_free(&l);
	if (rc == -1) {
		ctl_err("%s", e.msg);
		return e.status == 404 ? EXIT_NOTFOUND : 1;
	}
	print_json(&out);
	link_free(&out);
	return 0;
}

static int
link_delete(struct ctl_args *a)
{
	struct link	 l;
	int		 rc;

	if (!find_link(a, &l))
		return EXIT_NOTFOUND;
	if ((rc = linkops_delete(&ctl_links_db, l.id, ACCOUNT_ANY,
	    lz_now_ms())) == 1)
		printf("deleted link %lld (%s); its slug stays reserved\n",
		    (long long)l.id, l.slug);
	link_free(&l);
	return rc == 1 ? 0 : 1;
}

static void
print_flagged(struct link *l, void *arg)
{
	(void)arg;
	printf("%lld\t%s\t%lld\t%s\t%s\t%s\n", (long long)l->id, l->slug,
	    (long long)l->account_id, ctl_time(l->flagged_at, 0, NULL),
	    l->target_url, l->flag_reason ? l->flag_reason : "");
}

/* lzctl link flagged: the links the safety scan disabled. */
static int
link_flagged(struct ctl_args *a)
{
	printf("ID\tSLUG\tACCOUNT\tFLAGGED\tTARGET\tREASON\n");
	return store_link_flagged(&ctl_links_db, (long)a->opt[0].i, print_flagged,
	    NULL) < 0;
}

static int
link_unflag(struct ctl_args *a)
{
	struct link	 l;
	int		 rc;

	if (!find_link(a, &l))
		return EXIT_NOTFOUND;
	if ((rc = store_link_unflag(&ctl_links_db, l.id)) == 1)
		printf("link %lld (%s) is active again\n", (long long)l.id,
		    l.slug);
	else if (rc == 0)
		ctl_err("link %lld (%s) is not flagged", (long long)l.id,
		    l.slug);
	link_free(&l);
	return rc == 1 ? 0 : 1;
}

/* ---- lzctl link stats ------------------------------------------------- */

/* Amounts as exact micro-units, printed as exact decimals. */
static json_t *
micros_json(int64_t micros)
{
	return json_integer(micros);
}

/* The revenue of a row, "0.3 USD, 12 EUR", into b. */
static void
revenue_text(struct lz_buf *b, const json_t *revenue)
{
	const char	*cur;
	json_t		*v;
	char		 amt[AMOUNT_TEXT_MAX];

	lz_buf_reset(b);
	json_object_foreach((json_t *)(uintptr_t)revenue, cur, v) {
		amount_fmt(json_integer_value(v), amt);
		lz_buf_printf(b, "%s%s %s", b->len ? ", " : "", amt, cur);
	}
}

static int
by_key(const void *a, const void *b)
{
	const json_t	*x = *(const json_t *const *)a;
	const json_t	*y = *(const json_t *const *)b;

	return strcmp(json_string_value(json_object_get(x, "key")),
	    json_string_value(json_object_get(y, "key")));
}

/* CURRENCY section: conversions and revenue per currency, in order. */
static void
print_currencies(const json_t *rows)
{
	const json_t	**v;
	char		  amt[AMOUNT_TEXT_MAX];
	size_t		  n = json_array_size(rows), i;

	v = xcalloc(n + 1, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = json_array_get(rows, i);
	qsort(v, n, sizeof(*v), by_key);
	printf("CURRENCY\tCONVERSIONS\tREVENUE\n");
	for (i = 0; i < n; i++) {
		amount_fmt(json_integer_value(json_object_get(json_object_get(
		    v[i], "revenue"), json_string_value(json_object_get(v[i],
		    "key")))), amt);
		printf("%s\t%lld\t%s\n", json_string_value(json_object_get(
		    v[i], "key")), json_integer_value(json_object_get(v[i],
		    "conversions")), amt);
	}
	free(v);
}

/* SUFFIX and VARIANT sections: a line per key. */
static void
print_breakdown(const json_t *rows, int variants)
{
	struct lz_buf	 rev = LZ_BUF_INIT;
	const char	*key;
	json_t		*row;
	size_t		 i;
	json_int_t	 n;

	printf("\n%s\n", variants ? "VARIANT\tCLICKS\tCONVERSIONS\tRATE\t"
	    "REVENUE" : "SUFFIX\tCONVERSIONS\tREVENUE");
	json_array_foreach(rows, i, row) {
		key = json_string_value(json_object_get(row, "key"));
		n = json_integer_value(json_object_get(row, "conversions"));
		revenue_text(&rev, json_object_get(row, "revenue"));
		if (!variants && key == NULL)
			key = "";
		if (!variants)
			printf("%s\t%lld\t%s\n", *key ? key : "(none)", n,
			    lz_buf_str(&rev));
		else if (key == NULL)
			printf("(not attributed)\t-\t%lld\t-\t%s\n", n,
			    lz_buf_str(&rev));
		else
			printf("%s\t%lld\t%lld\t%.4f\t%s\n", *key ? key :
			    "(target_url)", json_integer_value(
			    json_object_get(row, "clicks")), n, json_real_value(
			    json_object_get(row, "conversion_rate")),
			    lz_buf_str(&rev));
	}
	lz_buf_free(&rev);
}

enum { O_FROM, O_TO };

/*
 * lzctl link stats ID|SLUG [--from TIME] [--to TIME]: the figures of
 * GET /api/v1/links/<id>/stats (all time by default, whole hours) as
 * tab-separated sections, amounts in exact decimals.
 */
static int
link_stats(struct ctl_args *a)
{
	struct stats_range	 r;
	struct link		 l;
	json_t			*j, *t, *cb;

	r.from = a->opt[O_FROM].set ? a->opt[O_FROM].i : 0;
	r.to = a->opt[O_TO].set ? a->opt[O_TO].i : lz_now_ms() + 1;
	r.bucket = 0;
	if (!find_link(a, &l))
		return EXIT_NOTFOUND;
	j = json_object();
	if (stats_add(j, &ctl_links_db, l.id, &r, micros_json) == -1) {
		json_decref(j);
		link_free(&l);
		return 1;
	}
	printf("LINK\tSLUG\tACCOUNT\tFROM\tTO\n"
	    "%lld\t%s\t%lld\t%s\t%s\n\n", (long long)l.id, l.slug,
	    (long long)l.account_id, ctl_time(r.from, 0, NULL),
	    ctl_time(r.to, 0, NULL));
	t = json_object_get(j, "totals");
	printf("CLICKS\tBOTS\tVISITORS\tCONVERSIONS\tRATE\n"
	    "%lld\t%lld\t%lld\t%lld\t%.4f\n\n",
	    json_integer_value(json_object_get(t, "clicks")),
	    json_integer_value(json_object_get(t, "bots")),
	    json_integer_value(json_object_get(t, "visitors")),
	    json_integer_value(json_object_get(t, "conversions")),
	    json_real_value(json_object_get(t, "conversion_rate")));
	cb = json_object_get(j, "conversion_breakdowns");
	print_currencies(json_object_get(cb, "currency"));
	print_breakdown(json_object_get(cb, "suffix"), 0);
	print_breakdown(json_object_get(cb, "variant"), 1);
	json_decref(j);
	link_free(&l);
	return 0;
}

static const struct ctl_cmd link_cmds[] = {
	{ "list", "[--account ACCOUNT] [--limit N] [--domain HOST]", 0, 0,
	  CTL_DB, link_list,
	  { [O_ACCOUNT] = { .name = "account", .ch = 'a', .type = CTL_STR },
	    [O_LIMIT] = { .name = "limit", .ch = 'n', .type = CTL_INT, .min = 1,
	        .max = LIST_MAX, .def = 100 },
	    [O_DOMAIN] = DOMAIN_OPT } },
	{ "show", "ID|SLUG [--domain HOST]", 1, 1, CTL_DB, link_show,
	  { DOMAIN_OPT } },
	{ "edit", "ID|SLUG [--domain HOST] FIELD=TEXT|FIELD:=JSON ...", 2,
	  EDIT_MAX, CTL_DB, link_edit, { DOMAIN_OPT } },
	{ "delete", "ID|SLUG [--domain HOST]", 1, 1, CTL_DB, link_delete,
	  { DOMAIN_OPT } },
	{ "stats", "ID|SLUG [--domain HOST] [--from TIME] [--to TIME]", 1, 1,
	  CTL_DB, link_stats,
	  { [O_FROM] = { .name = "from", .ch = 'f', .type = CTL_TIME },
	    [O_TO] = { .name = "to", .ch = 't', .type = CTL_TIME },
	    [O_TO + 1] = DOMAIN_OPT } },
	{ "flagged", "[--limit N]", 0, 0, CTL_DB, link_flagged,
	  { { .name = "limit", .ch = 'n', .type = CTL_INT, .min = 1,
	      .max = LIST_MAX, .def = 100 } } },
	{ "unflag", "ID|SLUG [--domain HOST]", 1, 1, CTL_DB, link_unflag,
	  { DOMAIN_OPT } },
};

const struct ctl_group ctl_link = CTL_GROUP("link", "links", link_cmds);
