/*
 * api_stats.c -- GET /api/v1/links/<id>/stats (DESIGN 3.2, 3.10) and
 * GET /api/v1/stats (DESIGN 3.13): the statistics of stats.h of a link,
 * or of the caller's links summed (of a tag, a domain), in a time range
 * of whole hours, with a time series by hour or day.  Times are UTC.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "conf.h"
#include "ctx.h"
#include "domain/domain.h"
#include "domain/host.h"
#include "link/link.h"
#include "link/tag.h"
#include "log.h"
#include "lztime.h"
#include "memo.h"
#include "pool.h"
#include "query.h"
#include "resp.h"
#include "serve.h"
#include "stats/amount.h"
#include "stats/stats.h"
#include "stats/top.h"
#include "store/links.h"
#include "store/store.h"
#include "store/tags.h"
#include "util.h"

#define BUCKETS_HOUR	744	/* 31 days of hours */
#define BUCKETS_DAY	366
#define DEFAULT_HOURS	24
#define DEFAULT_DAYS	30

enum interval { I_HOUR, I_DAY };

static const char *const intervals[] = { "hour", "day", NULL };

/*
 * The range of from, to and interval (v[0..2]) into range: by default
 * the last DEFAULT_* buckets, the current one included.  0, or -1 after
 * answering 400.
 */
static int
read_range(struct lz_req *r, struct lz_pval *v, struct stats_range *range,
    enum interval *ivp)
{
	enum interval	 iv = (enum interval)v[2].i;
	int64_t		 nb;
	long long	 maxb;

	range->bucket = iv == I_HOUR ? LZ_HOUR_MS : LZ_DAY_MS;
	maxb = iv == I_HOUR ? BUCKETS_HOUR : BUCKETS_DAY;
	/* 'to' is exclusive: by default the millisecond of the request is
	 * in the range, or a conversion recorded in the same millisecond
	 * just before this request would be left out. */
	range->to = r->now_ms + 1;
	if (api_time_param(r, &v[1], "to", &range->to) == -1 ||
	    api_time_param(r, &v[0], "from", &range->from) == -1)
		return -1;
	if (!v[0].set)
		range->from = ((range->to - 1) / range->bucket - ((iv ==
		    I_HOUR ? DEFAULT_HOURS : DEFAULT_DAYS) - 1)) *
		    range->bucket;
	if (range->from < 0)
		range->from = 0;
	if (range->from >= range->to) {
		lz_resp_error(r, 400, "invalid_parameter", "from", "'from' "
		    "must be before 'to'.");
		return -1;
	}
	nb = (range->to - 1) / range->bucket - range->from / range->bucket + 1;
	if (nb > maxb) {
		lz_resp_error(r, 400, "invalid_parameter", "from", "With "
		    "interval=%s the range may span at most %lld %ss.",
		    intervals[iv], maxb, intervals[iv]);
		return -1;
	}
	*ivp = iv;
	return 0;
}

/* The answer's head: ok, what it is of, the range asked. */
static json_t *
answer_head(const struct stats_range *range, enum interval iv)
{
	json_t	*j = json_object();

	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "from", stats_time(range->from));
	json_object_set_new(j, "to", stats_time(range->to));
	json_object_set_new(j, "interval", json_string(intervals[iv]));
	return j;
}

/* top's n links as the answer's top_links. */
static json_t *
top_json(struct lz_db *db, int64_t account_id, const struct top_link *top,
    int n)
{
	json_t		*arr = json_array();
	struct link	 l;
	char		*url;
	int		 i;

	for (i = 0; i < n; i++) {
		if (store_link_get(db, top[i].id, account_id, &l) != 1)
			continue;	/* deleted since */
		url = link_short_url(links.conf->base_url, &l, NULL);
		json_array_append_new(arr, json_pack("{s:I, s:s, s:s, s:I, "
		    "s:I}", "id", (json_int_t)l.id, "slug", l.slug,
		    "short_url", url, "clicks", (json_int_t)top[i].clicks,
		    "conversions", (json_int_t)top[i].conversions));
		free(url);
		link_free(&l);
	}
	return arr;
}

/*
 * Answers kept while the database is unchanged (memo.h: exact, never a
 * second stale), under a hash of everything an answer depends on.  A
 * range by default ends at the next whole hour, so a dashboard polling
 * its figures, or several people looking at one account's, ask the same
 * question until a click or conversion is moved in: the figures are read
 * once a move, not once a request (bench/stats: redirects beside four
 * clients of the account's statistics).  PostgreSQL cannot tell its
 * version cheaply: nothing is kept there.
 */
#define STATS_MEMO_SLOTS	64

static struct lz_memo	*stats_memo;

/* The memo's key of an answer: the head (what was asked: interval,
 * tag, domain, link), the whole hours it is of and the scope it
 * reads. */
static void
memo_key(const json_t *head, const struct store_scope *sc,
    const struct stats_range *range, int64_t account_id,
    unsigned char key[LZ_MEMO_KEY])
{
	crypto_generichash_state st;
	int64_t			 n[7] = { account_id, sc->kind, sc->id,
				    sc->domain, range->from, range->to,
				    range->bucket };
	json_t			*asked = json_copy((json_t *)(uintptr_t)head);
	char			*text;

	/* The head's from and to are the range asked, to the millisecond;
	 * the answer is of whole hours (range), and says so. */
	json_object_del(asked, "from");
	json_object_del(asked, "to");
	text = json_dumps(asked, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(asked);
	crypto_generichash_init(&st, NULL, 0, LZ_MEMO_KEY);
	crypto_generichash_update(&st, (const unsigned char *)n, sizeof(n));
	if (text != NULL)
		crypto_generichash_update(&st, (const unsigned char *)text,
		    strlen(text));
	crypto_generichash_final(&st, key, LZ_MEMO_KEY);
	free(text);
}

/*
 * The figures of sc into j, with the top links of account_id's scope
 * when not 0, then the answer (j freed), read from db and kept in memo.
 * 0, or -1 after answering 500.
 */
static int
answer(struct lz_req *r, struct lz_db *db, struct lz_memo *memo, json_t *j,
    const struct store_scope *sc, struct stats_range *range,
    int64_t account_id)
{
	struct top_link		 top[STATS_TOP_LINKS];
	struct lz_memo_ver	 ver;
	unsigned char		 key[LZ_MEMO_KEY];
	const char		*text;
	size_t			 len;
	int			 ntop = 0;

	/* The top is of the whole hours stats_add_scope widens to. */
	range->from = range->from / LZ_HOUR_MS * LZ_HOUR_MS;
	range->to = (range->to + LZ_HOUR_MS - 1) / LZ_HOUR_MS * LZ_HOUR_MS;
	memo_key(j, sc, range, account_id, key);
	if ((text = lz_memo_get(memo, db, key, sizeof(key), r->now_ms,
	    &len)) != NULL) {
		json_decref(j);
		lz_resp_send(r, 200, LZ_JSON_TYPE, text, len);
		return 0;
	}
	lz_memo_begin(db, &ver);
	if ((account_id != 0 && (ntop = stats_top_links(db, account_id, sc,
	    range, top)) == -1) || stats_add_scope(j, db, sc, range,
	    amount_json) == -1) {
		json_decref(j);
		lz_resp_error(r, 500, "internal_error", NULL, "The statistics "
		    "could not be read.");
		return -1;
	}
	if (account_id != 0)
		json_object_set_new(j, "top_links", top_json(db, account_id,
		    top, ntop));
	/* The range the figures are of: whole hours. */
	json_object_set_new(j, "from", stats_time(range->from));
	json_object_set_new(j, "to", stats_time(range->to));
	text = lz_json_text(j, &len);
	lz_memo_put(memo, &ver, key, sizeof(key), text, len, INT64_MAX);
	lz_resp_send(r, 200, LZ_JSON_TYPE, text, len);
	json_decref(j);
	return 0;
}

/*
 * An answer is read on a thread of its own (lz_pool_detach), not in the
 * worker: the worker goes on serving redirects meanwhile.  Read in the
 * worker, four clients asking without pause held every worker, and a
 * redirect waited for one (bench/stats: p99 25.9 ms at 1,000 a second);
 * as a slow step (lz_pool_slow: the worker waiting for its thread at the
 * lowest CPU priority) longer still.  The thread runs at the worker's
 * priority: at the lowest, a thread preempted while holding a lock the
 * worker needs (SQLite's, the kernel's for memory) held the redirects
 * up longer than the CPU it left them (p99 47 ms against 14).  Each
 * thread takes
 * a reader connection of the process's own, kept for the next (at most
 * READERS_KEPT, each with its memo: an answer asked again comes from the
 * memo of whichever reader read it).  When the pool's workers run
 * STATS_THREADS such answers already (exports count apart), the worker
 * reads this one itself.
 */
#define STATS_THREADS	16
#define READERS_KEPT	4

struct reader {
	struct lz_db	 db;
	struct lz_memo	*memo;
};

struct stats_job {
	json_t			*j;
	struct store_scope	 sc;
	struct stats_range	 range;
	int64_t			 account_id;
};

static pthread_mutex_t	 readers_mu = PTHREAD_MUTEX_INITIALIZER;
static struct reader	*readers[READERS_KEPT];
static size_t		 nreaders;

/* A reader kept, or a new one (NULL, logged, when it cannot open). */
static struct reader *
reader_take(const struct lz_req *r)
{
	struct reader	*rd = NULL;
	char		 err[256];

	pthread_mutex_lock(&readers_mu);
	if (nreaders > 0)
		rd = readers[--nreaders];
	pthread_mutex_unlock(&readers_mu);
	if (rd != NULL)
		return rd;
	rd = xcalloc(1, sizeof(*rd));
	if (store_open_reader(&rd->db, links.conf->links_db, err,
	    sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "rid=%s: statistics: %s", r->request_id,
		    err);
		free(rd);
		return NULL;
	}
	rd->memo = lz_memo_new(STATS_MEMO_SLOTS);
	return rd;
}

/* rd kept for the next answer, unless enough are (or it failed). */
static void
reader_give(struct reader *rd, int failed)
{
	lz_db_reset_all(&rd->db);
	pthread_mutex_lock(&readers_mu);
	if (!failed && nreaders < READERS_KEPT) {
		readers[nreaders++] = rd;
		rd = NULL;
	}
	pthread_mutex_unlock(&readers_mu);
	if (rd != NULL) {
		lz_db_close(&rd->db);
		lz_memo_free(rd->memo);
		free(rd);
	}
}

/* The detached thread's answer (lz_pool_detach). */
static void
stats_thread(struct lz_req *r, void *arg)
{
	struct stats_job	*x = arg;
	struct reader		*rd;

	if ((rd = reader_take(r)) == NULL) {
		json_decref(x->j);
		lz_resp_error(r, 500, "internal_error", NULL, "The statistics "
		    "could not be read.");
	} else
		reader_give(rd, answer(r, &rd->db, rd->memo, x->j, &x->sc,
		    &x->range, x->account_id) == -1);
	free(x);
}

static void
answer_stats(struct lz_req *r, json_t *j, const struct store_scope *sc,
    struct stats_range *range, int64_t account_id)
{
	struct stats_job	*x = xcalloc(1, sizeof(*x));

	x->j = j;
	x->sc = *sc;
	x->range = *range;
	x->account_id = account_id;
	if (lz_pool_detach(r, LZ_DETACH_ANY, STATS_THREADS, 0, stats_thread,
	    x) == LZ_DETACH_OK)
		return;
	free(x);
	if (stats_memo == NULL)
		stats_memo = lz_memo_new(STATS_MEMO_SLOTS);
	(void)answer(r, &links.db, stats_memo, j, sc, range, account_id);
}

void
api_links_stats(struct lz_req *r)
{
	enum { P_FROM, P_TO, P_INTERVAL, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_FROM] =	{ "from", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		[P_TO] =	{ "to", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		[P_INTERVAL] =	{ "interval", LZ_PT_ENUM, 0, 0, I_DAY,
				  intervals, 0 },
	};
	struct lz_pval		 v[P__MAX];
	struct stats_range	 range;
	struct store_scope	 sc = { STORE_SCOPE_LINK, 0, -1 };
	struct link		 l;
	enum interval		 iv;
	json_t			*j;

	if (api_path_id(r, "link", &sc.id) == -1 ||
	    lz_req_params(r, params, P__MAX, v) == -1 ||
	    read_range(r, v, &range, &iv) == -1)
		return;
	if (api_links_load(r, sc.id, &l) == -1)
		return;
	link_free(&l);
	j = answer_head(&range, iv);
	json_object_set_new(j, "link_id", json_integer(sc.id));
	answer_stats(r, j, &sc, &range, 0);
}

/*
 * GET /api/v1/stats: the statistics of the caller's links summed, of one
 * tag and/or one domain when asked, with the top links (DESIGN 3.13).
 */
void
api_account_stats(struct lz_req *r)
{
	enum { P_FROM, P_TO, P_INTERVAL, P_TAG, P_DOMAIN, P__MAX };
	static const struct lz_param params[P__MAX] = {
		[P_FROM] =	{ "from", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		[P_TO] =	{ "to", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		[P_INTERVAL] =	{ "interval", LZ_PT_ENUM, 0, 0, I_DAY,
				  intervals, 0 },
		[P_TAG] =	{ "tag", LZ_PT_STR, 1, TAG_CHARS * 2, 0, NULL,
				  0 },
		[P_DOMAIN] =	{ "domain", LZ_PT_STR, 1, HOST_MAX + 1, 0,
				  NULL, 0 },
	};
	struct auth_caller	*who = API_WHO(r);
	struct lz_pval		 v[P__MAX];
	struct stats_range	 range;
	struct store_scope	 sc = { STORE_SCOPE_ACCOUNT, 0, -1 };
	struct lz_verr		 e;
	char			 name[TAG_BYTES], fold[TAG_FOLD_BYTES];
	char			 why[128];
	enum interval		 iv;
	json_t			*j;
	int			 rc;

	if (lz_req_params(r, params, P__MAX, v) == -1 ||
	    read_range(r, v, &range, &iv) == -1)
		return;
	sc.id = who->account_id;
	if (v[P_DOMAIN].set && domain_usable(&links.db, links.conf,
	    v[P_DOMAIN].s, who->account_id, "domain", &sc.domain, &e) == -1) {
		if (e.status == 400)
			snprintf(e.code, sizeof(e.code), "invalid_parameter");
		lz_resp_verr(r, &e);
		return;
	}
	if (v[P_TAG].set) {
		if (tag_parse(v[P_TAG].s, name, fold, why, sizeof(why)) == -1) {
			lz_resp_error(r, 400, "invalid_parameter", "tag", "The "
			    "tag '%.64s' %s.", v[P_TAG].s, why);
			return;
		}
		/* A tag the account does not have: figures of no link. */
		sc.kind = STORE_SCOPE_TAG;
		if ((rc = store_tag_by_fold(&links.db, who->account_id, fold,
		    &sc.id, name)) == -1)
			goto fail;
		if (rc == 0)
			sc.id = -1;
	}
	j = answer_head(&range, iv);
	json_object_set_new(j, "tag", v[P_TAG].set ? json_string(name) :
	    json_null());
	json_object_set_new(j, "domain", v[P_DOMAIN].set ?
	    json_string(v[P_DOMAIN].s) : json_null());
	answer_stats(r, j, &sc, &range, who->account_id);
	return;
fail:
	lz_resp_error(r, 500, "internal_error", NULL, "The statistics could "
	    "not be read.");
}
