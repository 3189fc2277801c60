/*
 * api_clicks.c -- GET /api/v1/links/<id>/clicks (DESIGN 3.9): the raw
 * clicks of a link that the retention keeps, newest first, as JSON pages
 * or, with format=csv, as one CSV file (RFC 4180) streamed in chunks.
 * Never the visitor hash, never an address.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "conf.h"
#include "ctx.h"
#include "db.h"
#include "link/link.h"
#include "log.h"
#include "lztime.h"
#include "pool.h"
#include "query.h"
#include "resp.h"
#include "serve.h"
#include "stats/stats.h"
#include "store/clicks.h"
#include "store/store.h"
#include "util.h"
#include "visit/click.h"

#define PAGE_MAX	1000
#define PAGE_DEFAULT	100
/* The CSV: CHUNK clicks a statement (a short read each: no read
 * transaction holds the WAL for the whole export), at most EXPORT_MAX
 * clicks in one file. */
#define CHUNK		1000
#define EXPORT_MAX	1000000
#define EXPORT_RETRY	10	/* seconds, Retry-After when refused */

enum format { F_JSON, F_CSV };

#define CSV_HEADER \
	"time,suffix,country,device,os,browser,referrer,variant,bot\r\n"

/* The clicks of a page (JSON) or a chunk (CSV) as they are read. */
struct page {
	json_t		*arr;		/* JSON, or NULL: CSV into csv */
	struct lz_buf	 csv;
	long		 limit;		/* clicks to take */
	long		 n;		/* taken */
	int		 more;		/* a click past limit was read */
	int64_t		 last[2];	/* at and id of the last one taken */
};

/*
 * A CSV cell: quoted when it holds a quote, comma or line break; a text
 * that starts with =, +, -, @, tab or CR gets a leading apostrophe, so
 * that a spreadsheet shows it instead of running it as a formula (the
 * referrer is whatever a visitor's browser sent).  lz-links(8).
 */
static void
csv_cell(struct lz_buf *b, const char *s, int last)
{
	const char	*p;
	int		 quote = strpbrk(s, "\",\r\n") != NULL;

	if (quote)
		lz_buf_putc(b, '"');
	if (*s != '\0' && strchr("=+-@\t\r", *s) != NULL)
		lz_buf_putc(b, '\'');
	for (p = s; *p != '\0'; p++) {
		if (*p == '"')
			lz_buf_putc(b, '"');
		lz_buf_putc(b, *p);
	}
	if (quote)
		lz_buf_putc(b, '"');
	lz_buf_puts(b, last ? "\r\n" : ",");
}

static void
take_click(struct page *pg, int64_t id, const struct click *c)
{
	const char	*text[] = { NULL, c->suffix, c->country, c->device,
	    c->os, c->browser, c->referrer, c->variant };
	static const char *const names[] = { "time", "suffix", "country",
	    "device", "os", "browser", "referrer", "variant" };
	char		 ts[40];
	json_t		*j;
	size_t		 i;

	if (pg->n == pg->limit) {
		pg->more = 1;
		return;
	}
	lz_time_fmt_iso(c->at, ts, sizeof(ts), 1);
	text[0] = ts;
	if (pg->arr != NULL) {
		j = json_object();
		for (i = 0; i < LZ_NELEM(names); i++)
			json_object_set_new(j, names[i], json_string(text[i]));
		json_object_set_new(j, "bot", json_boolean(c->bot));
		json_array_append_new(pg->arr, j);
	} else {
		for (i = 0; i < LZ_NELEM(text); i++)
			csv_cell(&pg->csv, text[i], 0);
		csv_cell(&pg->csv, c->bot ? "true" : "false", 1);
	}
	pg->n++;
	pg->last[0] = c->at;
	pg->last[1] = id;
}

/* Takes the up to n clicks of link id from from on that come after the
 * cursor cur into pg, from db: 0, or -1 on an error. */
static int
read_page(struct lz_db *db, int64_t id, int64_t from, const int64_t cur[2],
    long n, struct page *pg)
{
	struct lz_stmt	*st;
	struct click	 c;
	int64_t		 cid;
	int		 rc;

	st = store_click_page(db, id, from, cur[0], cur[1], n);
	while ((rc = store_click_next(st, &cid, &c)) == 1)
		take_click(pg, cid, &c);
	return rc;
}

/* A JSON page of up to limit clicks after the cursor cur. */
static void
answer_page(struct lz_req *r, int64_t id, const struct stats_range *range,
    const int64_t cur[2], long limit)
{
	struct page	 pg;
	int		 rc;

	memset(&pg, 0, sizeof(pg));
	pg.arr = json_array();
	pg.limit = limit;
	/* One more than shown tells whether another page follows. */
	rc = read_page(&links.db, id, range->from, cur, limit + 1, &pg);
	api_page(r, rc, "clicks", pg.arr, pg.more, pg.last, 2, json_pack(
	    "{s:I, s:o, s:o}", "link_id", (json_int_t)id, "from",
	    stats_time(range->from), "to", stats_time(range->to)));
}

/* A CSV export (export_csv), the detached thread's. */
struct export {
	struct link		 l;
	struct stats_range	 range;
};

/*
 * The CSV file of every click in x's range, CHUNK at a time from the
 * newest, on a thread of its own (lz_pool_detach) with a connection of
 * its own to the database: each chunk is read by a statement of its own
 * and written out before the next is read.  A read that fails after the
 * first chunk can only end the file early (logged).
 */
static void
export_csv(struct lz_req *r, void *arg)
{
	struct export	*x = arg;
	struct page	 pg;
	struct lz_db	 db;
	char		 err[256];
	long long	 n;

	memset(&pg, 0, sizeof(pg));
	if (store_open_reader(&db, links.conf->links_db, err,
	    sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "rid=%s: %s", r->request_id, err);
		lz_resp_error(r, 500, "internal_error", NULL, "The clicks "
		    "could not be read.");
		goto out;
	}
	if ((n = store_click_range_count(&db, x->l.id, x->range.from,
	    x->range.to)) < 0) {
		lz_resp_error(r, 500, "internal_error", NULL, "The clicks "
		    "could not be read.");
		goto close;
	}
	if (n > EXPORT_MAX) {
		lz_resp_error(r, 400, "invalid_parameter", "from", "The "
		    "range holds %lld clicks; an export holds at most %d: "
		    "export it in parts with 'from' and 'to'.", n, EXPORT_MAX);
		goto close;
	}
	/* A link of another domain than the default one: its host first
	 * (the same slug may live on two). */
	lz_resp_header(r, "Content-Disposition", "attachment; "
	    "filename=\"lz-clicks-%s%s%s.csv\"", x->l.domain ? x->l.domain :
	    "", x->l.domain ? "-" : "", x->l.slug);
	if (lz_resp_stream(r, 200, "text/csv; charset=utf-8; "
	    "header=present") != 1)
		goto close;
	lz_resp_write(r, CSV_HEADER, sizeof(CSV_HEADER) - 1);
	pg.limit = CHUNK;
	pg.last[0] = x->range.to;
	for (n = 0; n < EXPORT_MAX; n += pg.n) {
		pg.n = 0;
		lz_buf_reset(&pg.csv);
		if (read_page(&db, x->l.id, x->range.from, pg.last, CHUNK,
		    &pg) == -1) {
			lz_log(LZ_LOG_ERR, "rid=%s: clicks of link %lld: the "
			    "export ends after %lld", r->request_id,
			    (long long)x->l.id, n);
			break;
		}
		if (lz_resp_write(r, pg.csv.p, pg.csv.len) == -1) {
			lz_log(LZ_LOG_INFO, "rid=%s: the export's reader is "
			    "gone after %lld clicks", r->request_id, n);
			break;
		}
		lz_db_reset_all(&db);
		if (pg.n < CHUNK)
			break;
	}
close:
	lz_db_close(&db);
out:
	lz_buf_free(&pg.csv);
	link_free(&x->l);
	free(x);
}

/* The CSV: on a thread of its own, one an account; 429 when the
 * account runs one or the pool runs exports_max. */
static void
export_start(struct lz_req *r, struct link *l,
    const struct stats_range *range)
{
	struct export	*x = xcalloc(1, sizeof(*x));
	int		 rc;

	x->l = *l;
	memset(l, 0, sizeof(*l));	/* taken over */
	x->range = *range;
	rc = lz_pool_detach(r, API_WHO(r)->account_id,
	    (int)links.conf->exports_max, 19, export_csv, x);
	if (rc == LZ_DETACH_OK)
		return;
	*l = x->l;			/* given back */
	free(x);
	ops_limited(OPS_LIMIT_EXPORTS);
	lz_resp_header(r, "Retry-After", "%d", EXPORT_RETRY);
	if (rc == LZ_DETACH_MINE)
		lz_resp_error(r, 429, "too_many_exports", NULL, "An export "
		    "of this account is running; one runs at a time.");
	else
		lz_resp_error(r, 429, "too_many_exports", NULL, "The service "
		    "runs as many exports as it allows at once; try again "
		    "shortly.");
}

void
api_links_clicks(struct lz_req *r)
{
	enum { P_FROM, P_TO, P_LIMIT, P_CURSOR, P_FORMAT, P__MAX };
	static const char *const formats[] = { "json", "csv", NULL };
	static const struct lz_param params[P__MAX] = {
		[P_FROM] =	{ "from", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		[P_TO] =	{ "to", LZ_PT_STR, 1, 40, 0, NULL, 0 },
		[P_LIMIT] =	{ "limit", LZ_PT_INT, 1, PAGE_MAX,
				  PAGE_DEFAULT, NULL, 0 },
		[P_CURSOR] =	{ "cursor", LZ_PT_STR, 1, API_CURSOR_MAX, 0,
				  NULL, 0 },
		[P_FORMAT] =	{ "format", LZ_PT_ENUM, 0, 0, F_JSON, formats,
				  0 },
	};
	struct lz_pval		 v[P__MAX];
	struct stats_range	 range;
	struct link		 l;
	int64_t			 id, cur[2];

	if (api_path_id(r, "link", &id) == -1 ||
	    lz_req_params(r, params, P__MAX, v) == -1)
		return;
	/* All the clicks kept, up to the millisecond of the request. */
	range.from = 0;
	range.to = r->now_ms + 1;
	range.bucket = 0;
	if (api_time_param(r, &v[P_FROM], "from", &range.from) == -1 ||
	    api_time_param(r, &v[P_TO], "to", &range.to) == -1)
		return;
	if (range.from >= range.to) {
		lz_resp_error(r, 400, "invalid_parameter", "from", "'from' "
		    "must be before 'to'.");
		return;
	}
	if (v[P_FORMAT].i == F_CSV && (v[P_LIMIT].set || v[P_CURSOR].set)) {
		lz_resp_error(r, 400, "invalid_parameter", v[P_LIMIT].set ?
		    "limit" : "cursor", "'limit' and 'cursor' page the JSON "
		    "form; format=csv is every click of the range in one "
		    "file.");
		return;
	}
	if (v[P_CURSOR].set && api_cursor_decode(r, v[P_CURSOR].s, cur,
	    2) == -1)
		return;
	/* A page starts below the cursor, and never at or after 'to'. */
	if (!v[P_CURSOR].set || cur[0] >= range.to) {
		cur[0] = range.to;
		cur[1] = 0;
	}
	if (api_links_load(r, id, &l) == -1)
		return;
	/*
	 * An export is a long request (up to EXPORT_MAX clicks): off the
	 * worker, so that no request waits behind it (HACKING.md, "The
	 * worker loop").
	 */
	if (v[P_FORMAT].i == F_CSV) {
		export_start(r, &l, &range);
		if (l.id == 0)
			return;		/* the thread's now */
	} else
		answer_page(r, id, &range, cur, (long)v[P_LIMIT].i);
	link_free(&l);
}
