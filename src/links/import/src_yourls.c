/*
 * src_yourls.c -- the YOURLS source of an import (import.h, lzctl(8)
 * import yourls): read straight from its MySQL or MariaDB database
 * through libmariadb, its links from PREFIXurl, then each one's clicks
 * from PREFIXlog (history.h).
 *
 * The schema is the one YOURLS's installer makes (functions-install.php):
 *   url  keyword (primary key), url, title, timestamp, ip, clicks
 *   log  click_id, click_time, shorturl, referrer ("direct": none),
 *        user_agent, ip_address, country_code
 * Its times are wall-clock times: timestamp a TIMESTAMP shown in the
 * session's zone, click_time a DATETIME as PHP wrote it.  Unless told
 * the zone they are in (--timezone), the server's zone is theirs
 * (UNIX_TIMESTAMP() reads them in it).
 *
 * Table names cannot be bound: the prefix is checked to be an SQL
 * identifier's letters and quoted, and every value is bound.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <mysql.h>

#include "db.h"
#include "import/apis.h"
#include "import/history.h"
#include "import/import.h"
#include "store/links.h"
#include "util.h"

#define YOURLS_SOURCE	"yourls"

struct yconn {
	MYSQL		*my;
	char		 url_t[80], log_t[80];	/* `PREFIXurl`, `PREFIXlog` */
	const char	*zone;			/* NULL: the server's */
};

/* "%XX" undone in place (user and password of the URL). */
static void
unpercent(char *s)
{
	char	*o = s;

	for (; *s != '\0'; s++, o++) {
		if (s[0] == '%' && s[1] != '\0' && s[2] != '\0' &&
		    strchr("0123456789abcdefABCDEF", s[1]) != NULL &&
		    strchr("0123456789abcdefABCDEF", s[2]) != NULL) {
			char hex[3] = { s[1], s[2], '\0' };

			*o = (char)strtol(hex, NULL, 16);
			s += 2;
		} else
			*o = *s;
	}
	*o = '\0';
}

/* Connects to the database of URL mysql://USER[:PASS]@HOST[:PORT]/DB
 * [?socket=PATH] (PASS else from LZ_MYSQL_PASSWORD).  0 or -1 with
 * why in err. */
static int
yconnect(struct yconn *y, const char *url, char *err, size_t errlen)
{
	char		*u, *user, *pass = NULL, *host, *port, *dbname, *q;
	char		*sock = NULL;
	unsigned int	 portno = 0;
	long long	 n;
	int		 rc = -1;

	if (strncmp(url, "mysql://", 8) != 0 &&
	    strncmp(url, "mariadb://", 10) != 0) {
		snprintf(err, errlen, "--from: expected mysql://USER:PASS@HOST"
		    "/DB");
		return -1;
	}
	u = xstrdup(strstr(url, "://") + 3);
	if ((q = strchr(u, '?')) != NULL) {
		*q++ = '\0';
		if (strncmp(q, "socket=", 7) != 0) {
			snprintf(err, errlen, "--from: the only parameter is "
			    "socket=PATH");
			goto out;
		}
		sock = q + 7;
		unpercent(sock);
	}
	if ((host = strrchr(u, '@')) == NULL ||
	    (dbname = strchr(host, '/')) == NULL || dbname[1] == '\0') {
		snprintf(err, errlen, "--from: expected mysql://USER:PASS@HOST"
		    "/DB");
		goto out;
	}
	*host++ = '\0';
	*dbname++ = '\0';
	user = u;
	if ((pass = strchr(user, ':')) != NULL)
		*pass++ = '\0';
	else
		pass = getenv("LZ_MYSQL_PASSWORD");
	unpercent(user);
	if (pass != NULL && pass != getenv("LZ_MYSQL_PASSWORD"))
		unpercent(pass);
	unpercent(dbname);
	if ((port = strrchr(host, ':')) != NULL && strchr(port, ']') ==
	    NULL) {
		*port++ = '\0';
		if (lz_parse_ll(port, 1, 65535, &n) == -1) {
			snprintf(err, errlen, "--from: a bad port '%s'", port);
			goto out;
		}
		portno = (unsigned int)n;
	}
	if ((y->my = mysql_init(NULL)) == NULL) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	{
		unsigned int	 timeout = 15;

		mysql_options(y->my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
		mysql_options(y->my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
	}
	if (mysql_real_connect(y->my, host, user, pass, dbname, portno, sock,
	    0) == NULL) {
		snprintf(err, errlen, "%s: %s", host, mysql_error(y->my));
		goto out;
	}
	rc = 0;
out:
	free(u);
	return rc;
}

/* A query of no values (the tables' names are checked, never bound).
 * 0 or -1 with err. */
static int
yquery(struct yconn *y, const char *sql, char *err, size_t errlen)
{
	if (mysql_query(y->my, sql) == 0)
		return 0;
	snprintf(err, errlen, "%s", mysql_error(y->my));
	return -1;
}

/*
 * A wall-clock time "YYYY-MM-DD HH:MM:SS" in y->zone as ms since the
 * epoch; else epoch, what the server made of it in its own zone.
 */
static int64_t
ytime(const struct yconn *y, const char *wall, const char *epoch)
{
	struct tm	 tm;
	long long	 n;
	time_t		 t;

	if (y->zone != NULL) {
		memset(&tm, 0, sizeof(tm));
		if (wall == NULL || strptime(wall, "%Y-%m-%d %H:%M:%S", &tm) ==
		    NULL)
			return 0;
		tm.tm_isdst = -1;
		if ((t = mktime(&tm)) == (time_t)-1)
			return 0;
		return (int64_t)t * 1000;
	}
	if (epoch == NULL || lz_parse_ll(epoch, 0, 100000000000LL, &n) == -1)
		return 0;
	return (int64_t)n * 1000;
}

/* The links: each row of PREFIXurl an item.  0, or -1 / -2. */
static int
links(struct yconn *y, struct import_run *run, const struct import_opts *o)
{
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	char		 sql[512], err[300] = "";
	long long	 clicks;

	snprintf(sql, sizeof(sql), "SELECT keyword, url, title, "
	    "DATE_FORMAT(`timestamp`, '%%Y-%%m-%%d %%H:%%i:%%s'), "
	    "UNIX_TIMESTAMP(`timestamp`), clicks FROM %s ORDER BY "
	    "`timestamp`, keyword", y->url_t);
	if (yquery(y, sql, err, sizeof(err)) == -1 ||
	    (res = mysql_use_result(y->my)) == NULL) {
		import_fail(run, -2, "YOURLS's links could not be read: %s",
		    err[0] ? err : mysql_error(y->my));
		return -2;
	}
	while (!import_failed(run) && (row = mysql_fetch_row(res)) != NULL) {
		struct import_item	 it;
		json_t			*b, *title;

		if (row[0] == NULL || row[1] == NULL ||
		    (b = json_pack("{s:s}", "target_url", row[1])) == NULL) {
			import_refuse(run, 0, row[0], "invalid_field",
			    "Its URL is not text.");
			continue;
		}
		if ((title = import_title(row[2])) != NULL)
			json_object_set_new(b, "title", title);
		if (o->domain != NULL)
			json_object_set_new(b, "domain", json_string(o->domain));
		if (row[5] == NULL || lz_parse_ll(row[5], 0, INT64_MAX / 2,
		    &clicks) == -1)
			clicks = -1;
		it = (struct import_item){ .body = b, .id = row[0],
		    .slug = row[0], .created_at = ytime(y, row[3], row[4]),
		    .total_clicks = clicks, .history = 1 };
		import_add(run, &it);
	}
	if (mysql_errno(y->my) != 0 && !import_failed(run))
		import_fail(run, -2, "YOURLS's links could not be read: %s",
		    mysql_error(y->my));
	mysql_free_result(res);
	return import_failed(run);
}

/* The links whose history is pending, copied: the statement is done
 * before their clicks are written. */
struct pending {
	struct store_import_pending	*v;
	size_t				 n, cap;
};

static int
add_pending(const struct store_import_pending *p, void *arg)
{
	struct pending	*pl = arg;

	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? pl->cap * 2 : 256;
		pl->v = xreallocarray(pl->v, pl->cap, sizeof(*pl->v));
	}
	pl->v[pl->n] = *p;
	pl->v[pl->n++].id = xstrdup(p->id);
	return 1;
}

/* The log's columns as text, in buffers as long as YOURLS's columns can
 * be (utf8mb4: four bytes a character). */
enum { L_ID, L_EPOCH, L_WALL, L_REFERRER, L_UA, L_ADDR, L_COUNTRY,
	L__MAX };
static const size_t lcap[L__MAX] = { 24, 24, 24, 801, 1021, 165, 9 };

struct logrow {
	MYSQL_BIND	 out[L__MAX];
	char		*buf[L__MAX];
	unsigned long	 len[L__MAX];
	my_bool		 null[L__MAX];
};

/* Column i of the row fetched, NUL-terminated (a value cut at its
 * buffer's end stays cut). */
static const char *
col(struct logrow *lr, int i)
{
	unsigned long	 n = lr->len[i];

	if (lr->null[i])
		return NULL;
	if (n >= lcap[i])
		n = lcap[i] - 1;
	lr->buf[i][n] = '\0';
	return lr->buf[i];
}

/*
 * The log is read on a thread of its own while the main thread writes
 * what was read before.  Each link's clicks are a query on the source
 * (its index on shorturl, then each row fetched by click_id: random
 * reads on a big log) and the writes are lz's database's work: one
 * after the other, each side waited for the other (100,000 links and
 * 10,000,000 rows: neither process used half a core).  Between them, a
 * queue of at most QUEUE_CHUNKS chunks of at most CHUNK_ROWS records.
 * The reader has the source's connection and statement to itself; the
 * writer alone touches lz's database, the history and the progress.
 */
#define CHUNK_ROWS	4096
#define QUEUE_CHUNKS	4
#define NOFF		((size_t)-1)	/* no value (SQL NULL), no link */

enum { R_CLICK, R_END };

/* A click of a link, or the end of a link's clicks. */
struct rec {
	int		 kind;
	int		 complete;	/* R_END: the source has no more */
	size_t		 link;		/* in the pending list */
	int64_t		 id, at;
	size_t		 ref, ua, addr, country;	/* in the chunk's text */
};

struct chunk {
	struct rec	*v;
	size_t		 n;
	struct lz_buf	 text;
	struct chunk	*next;
};

struct reader {
	struct yconn		*y;
	MYSQL_STMT		*st;
	struct logrow		*lr;
	const struct pending	*pl;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	struct chunk		*head, *tail;
	size_t			 queued;
	int			 stop;		/* the writer gave up */
	int			 done;		/* the reader ended */
	int			 failed;	/* it could not read */
	size_t			 failed_link;
	char			 err[256];
};

static void
chunk_free(struct chunk *c)
{
	if (c == NULL)
		return;
	free(c->v);
	lz_buf_free(&c->text);
	free(c);
}

/* s put in c's text: its offset, NOFF for NULL. */
static size_t
chunk_text(struct chunk *c, const char *s)
{
	size_t	 at = c->text.len;

	if (s == NULL)
		return NOFF;
	lz_buf_add(&c->text, s, strlen(s) + 1);
	return at;
}

/* A new record at the end of *cp (made when NULL). */
static struct rec *
chunk_rec(struct chunk **cp)
{
	if (*cp == NULL) {
		*cp = xcalloc(1, sizeof(**cp));
		(*cp)->v = xcalloc(CHUNK_ROWS, sizeof(*(*cp)->v));
	}
	return &(*cp)->v[(*cp)->n++];
}

/* c queued for the writer (waiting while the queue is full).  0, or -1
 * when the writer stopped (c freed). */
static int
push(struct reader *rd, struct chunk *c)
{
	int	 rc = 0;

	pthread_mutex_lock(&rd->mu);
	while (rd->queued >= QUEUE_CHUNKS && !rd->stop)
		pthread_cond_wait(&rd->cv, &rd->mu);
	if (rd->stop)
		rc = -1;
	else {
		if (rd->tail != NULL)
			rd->tail->next = c;
		else
			rd->head = c;
		rd->tail = c;
		rd->queued++;
		pthread_cond_broadcast(&rd->cv);
	}
	pthread_mutex_unlock(&rd->mu);
	if (rc == -1)
		chunk_free(c);
	return rc;
}

/* The next chunk; NULL once the reader has ended and all are taken. */
static struct chunk *
pop(struct reader *rd)
{
	struct chunk	*c;

	pthread_mutex_lock(&rd->mu);
	while (rd->head == NULL && !rd->done)
		pthread_cond_wait(&rd->cv, &rd->mu);
	if ((c = rd->head) != NULL) {
		if ((rd->head = c->next) == NULL)
			rd->tail = NULL;
		rd->queued--;
		pthread_cond_broadcast(&rd->cv);
	}
	pthread_mutex_unlock(&rd->mu);
	return c;
}

/* Link k's clicks, from where it got to, into chunks: 1 read to the
 * end, 0 the writer stopped, -1 the source failed. */
static int
read_link(struct reader *rd, size_t k, struct chunk **cp)
{
	const struct store_import_pending *p = &rd->pl->v[k];
	struct logrow	*lr = rd->lr;
	MYSQL_BIND	 in[2];
	MYSQL_STMT	*st = rd->st;
	unsigned long	 klen = strlen(p->id);
	long long	 after = p->pos, id;
	struct rec	*r;
	int		 rc;

	memset(in, 0, sizeof(in));
	in[0].buffer_type = MYSQL_TYPE_STRING;
	in[0].buffer = (void *)(uintptr_t)p->id;
	in[0].buffer_length = klen;
	in[0].length = &klen;
	in[1].buffer_type = MYSQL_TYPE_LONGLONG;
	in[1].buffer = &after;
	if (mysql_stmt_bind_param(st, in) != 0 ||
	    mysql_stmt_execute(st) != 0 ||
	    mysql_stmt_bind_result(st, lr->out) != 0)
		return -1;
	while ((rc = mysql_stmt_fetch(st)) == 0 || rc == MYSQL_DATA_TRUNCATED) {
		const char	*ref = col(lr, L_REFERRER);

		if (lz_parse_ll(col(lr, L_ID) ? col(lr, L_ID) : "", 0,
		    INT64_MAX / 2, &id) == -1)
			continue;
		r = chunk_rec(cp);
		r->kind = R_CLICK;
		r->link = k;
		r->id = id;
		r->at = ytime(rd->y, col(lr, L_WALL), col(lr, L_EPOCH));
		r->ref = chunk_text(*cp, ref != NULL && strcmp(ref, "direct") !=
		    0 ? ref : "");
		r->ua = chunk_text(*cp, col(lr, L_UA));
		r->addr = chunk_text(*cp, col(lr, L_ADDR));
		r->country = chunk_text(*cp, col(lr, L_COUNTRY));
		if ((*cp)->n == CHUNK_ROWS) {
			rc = push(rd, *cp);
			*cp = NULL;
			if (rc == -1) {
				mysql_stmt_free_result(st);
				return 0;
			}
		}
	}
	mysql_stmt_free_result(st);
	return rc == MYSQL_NO_DATA ? 1 : -1;
}

static void *
read_log(void *arg)
{
	struct reader	*rd = arg;
	struct chunk	*c = NULL;
	struct rec	*r;
	size_t		 k;
	int		 rc = 1;

	mysql_thread_init();
	for (k = 0; k < rd->pl->n && rc == 1; k++) {
		if ((rc = read_link(rd, k, &c)) == 0)
			break;		/* the writer stopped */
		if (rc == -1) {
			snprintf(rd->err, sizeof(rd->err), "%s",
			    mysql_stmt_error(rd->st));
			rd->failed_link = k;
		}
		/* Its end: complete, or left pending where it got. */
		r = chunk_rec(&c);
		r->kind = R_END;
		r->link = k;
		r->complete = rc == 1;
		if (c->n == CHUNK_ROWS) {
			if (push(rd, c) == -1)
				rc = 0;
			c = NULL;
		}
	}
	if (c != NULL && rc != 0) {
		if (push(rd, c) == -1)
			rc = 0;
	} else
		chunk_free(c);
	pthread_mutex_lock(&rd->mu);
	rd->failed = rc == -1;
	rd->done = 1;
	pthread_cond_broadcast(&rd->cv);
	pthread_mutex_unlock(&rd->mu);
	mysql_thread_end();
	return NULL;
}

/* The records of chunk c into h (*open: the link whose clicks it is
 * taking).  0, or -1 with *bad the link that could not be written. */
static int
write_chunk(struct history *h, const struct pending *pl,
    const struct chunk *c, size_t *open, const struct import_opts *o,
    uint64_t *done, uint64_t total, size_t *bad)
{
	const char		*t = c->text.p;
	const struct rec	*r;
	struct import_click	 ic;
	size_t			 i;

	for (i = 0; i < c->n; i++) {
		r = &c->v[i];
		if (r->link != *open) {
			if (history_link(h, &pl->v[r->link]) == -1) {
				*bad = r->link;
				*open = NOFF;
				return -1;
			}
			*open = r->link;
		}
		if (r->kind == R_END) {
			history_link_end(h, r->complete);
			*open = NOFF;
			continue;
		}
		memset(&ic, 0, sizeof(ic));
		ic.at = r->at;
		ic.referrer = t + r->ref;
		ic.user_agent = r->ua != NOFF ? t + r->ua : NULL;
		ic.addr = r->addr != NOFF ? t + r->addr : NULL;
		ic.country = r->country != NOFF ? t + r->country : NULL;
		if (history_add(h, r->id, &ic) == -1) {
			history_link_end(h, 0);
			*bad = r->link;
			*open = NOFF;
			return -1;
		}
		if (o->progress != NULL && ++*done % 10000 == 0)
			o->progress("clicks", *done, total);
	}
	return 0;
}

/* The history of every pending link.  0, or -1 / -2. */
static int
histories(struct yconn *y, struct lz_db *db, const struct lz_conf *conf,
    struct import_run *run, const struct import_opts *o,
    struct import_stats *stats)
{
	struct pending	 pl = { NULL, 0, 0 };
	struct reader	 rd;
	struct chunk	*c;
	struct history	*h;
	struct logrow	 lr;
	pthread_t	 tid;
	size_t		 open = NOFF, bad = 0;
	MYSQL_STMT	*st = NULL;
	MYSQL_RES	*res;
	MYSQL_ROW	 row;
	char		 sql[512], err[300];
	uint64_t	 done = 0, total = 0;
	long long	 n;
	size_t		 i;
	int		 rc = 0;

	if (store_import_pending(db, o->account_id, YOURLS_SOURCE,
	    add_pending, &pl) == -1) {
		import_fail(run, -1, "the links' histories could not be "
		    "listed");
		return -1;
	}
	if (pl.n == 0)
		return 0;
	/* The log's size, for the progress (an estimate is enough). */
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM %s", y->log_t);
	if (yquery(y, sql, err, sizeof(err)) == 0 &&
	    (res = mysql_store_result(y->my)) != NULL) {
		if ((row = mysql_fetch_row(res)) != NULL && row[0] != NULL &&
		    lz_parse_ll(row[0], 0, INT64_MAX / 2, &n) == 0)
			total = (uint64_t)n;
		mysql_free_result(res);
	}
	snprintf(sql, sizeof(sql), "SELECT click_id, "
	    "UNIX_TIMESTAMP(click_time), DATE_FORMAT(click_time, "
	    "'%%Y-%%m-%%d %%H:%%i:%%s'), referrer, user_agent, ip_address, "
	    "country_code FROM %s WHERE shorturl = ? AND click_id > ? "
	    "ORDER BY click_id", y->log_t);
	memset(&lr, 0, sizeof(lr));
	for (i = 0; i < L__MAX; i++) {
		lr.buf[i] = xmalloc(lcap[i]);
		lr.out[i].buffer_type = MYSQL_TYPE_STRING;
		lr.out[i].buffer = lr.buf[i];
		lr.out[i].buffer_length = lcap[i];
		lr.out[i].length = &lr.len[i];
		lr.out[i].is_null = &lr.null[i];
	}
	if ((st = mysql_stmt_init(y->my)) == NULL ||
	    mysql_stmt_prepare(st, sql, strlen(sql)) != 0) {
		import_fail(run, -2, "YOURLS's log could not be read: %s",
		    st ? mysql_stmt_error(st) : "out of memory");
		rc = -2;
	}
	h = history_open(db, conf, stats);
	if (rc == 0) {
		memset(&rd, 0, sizeof(rd));
		rd.y = y;
		rd.st = st;
		rd.lr = &lr;
		rd.pl = &pl;
		pthread_mutex_init(&rd.mu, NULL);
		pthread_cond_init(&rd.cv, NULL);
		if (pthread_create(&tid, NULL, read_log, &rd) != 0) {
			import_fail(run, -2, "YOURLS's log could not be read: "
			    "no thread");
			rc = -2;
		}
		while (rc == 0 && (c = pop(&rd)) != NULL) {
			if (write_chunk(h, &pl, c, &open, o, &done, total,
			    &bad) == -1) {
				import_fail(run, -1, "the clicks of %s could "
				    "not be written: run the import again to "
				    "go on", pl.v[bad].id);
				rc = -1;
			}
			chunk_free(c);
		}
		if (rc != -2) {
			/* The writer's failure stops the reader; what it
			 * had queued is dropped. */
			pthread_mutex_lock(&rd.mu);
			rd.stop = rc != 0;
			pthread_cond_broadcast(&rd.cv);
			pthread_mutex_unlock(&rd.mu);
			while ((c = pop(&rd)) != NULL)
				chunk_free(c);
			pthread_join(tid, NULL);
			if (rc == 0 && rd.failed) {
				import_fail(run, -2, "YOURLS's log could not "
				    "be read (%s): %s",
				    pl.v[rd.failed_link].id, rd.err);
				rc = -2;
			}
		}
		pthread_cond_destroy(&rd.cv);
		pthread_mutex_destroy(&rd.mu);
	}
	/* The last batch: what was read before a failure is kept too. */
	if (history_close(h) == -1 && rc == 0) {
		import_fail(run, -1, "the last clicks could not be written: "
		    "run the import again to go on");
		rc = -1;
	}
	if (o->progress != NULL)
		o->progress("clicks", done, total);
	if (st != NULL)
		mysql_stmt_close(st);
	for (i = 0; i < L__MAX; i++)
		free(lr.buf[i]);
	for (i = 0; i < pl.n; i++)
		free((char *)(uintptr_t)pl.v[i].id);
	free(pl.v);
	return rc;
}

/* Whether zone names a time zone of the system's database. */
static int
zone_ok(const char *zone)
{
	char	 path[300];

	if (*zone == '\0' || zone[0] == '/' || strstr(zone, "..") != NULL ||
	    strspn(zone, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789/_+-") != strlen(zone))
		return 0;
	snprintf(path, sizeof(path), "/usr/share/zoneinfo/%s", zone);
	return access(path, R_OK) == 0;
}

int
import_yourls(struct lz_db *db, const struct lz_conf *conf,
    const struct yourls_source *src, const struct import_opts *o,
    struct import_stats *st)
{
	struct import_run	*run;
	struct yconn		 y;
	const char		*prefix = src->prefix ? src->prefix : "yourls_";
	char			 err[300], *oldtz = NULL;
	int			 rc;

	memset(&y, 0, sizeof(y));
	run = import_begin(db, conf, YOURLS_SOURCE, o, st);
	if (*prefix == '\0' || strlen(prefix) > 64 || strspn(prefix,
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$")
	    != strlen(prefix)) {
		import_fail(run, -2, "--prefix: letters, digits, '_' and '$' "
		    "only");
		return import_end(run);
	}
	if (src->timezone != NULL && !zone_ok(src->timezone)) {
		import_fail(run, -2, "--timezone: '%s' is not a time zone of "
		    "/usr/share/zoneinfo (e.g. Asia/Taipei, UTC)",
		    src->timezone);
		return import_end(run);
	}
	snprintf(y.url_t, sizeof(y.url_t), "`%surl`", prefix);
	snprintf(y.log_t, sizeof(y.log_t), "`%slog`", prefix);
	if (src->timezone != NULL) {
		/* mktime() reads wall-clock times in TZ: lzctl's own. */
		if (getenv("TZ") != NULL)
			oldtz = xstrdup(getenv("TZ"));
		setenv("TZ", src->timezone, 1);
		tzset();
		y.zone = src->timezone;
	}
	if (yconnect(&y, src->url, err, sizeof(err)) == -1)
		import_fail(run, -2, "YOURLS's database: %s", err);
	else {
		/* The links all written, then their clicks. */
		if (links(&y, run, o) == 0) {
			import_drain(run);
			if (!import_failed(run) && !o->dry)
				histories(&y, db, conf, run, o, st);
		}
	}
	if (y.my != NULL)
		mysql_close(y.my);
	rc = import_end(run);
	if (src->timezone != NULL) {
		if (oldtz != NULL)
			setenv("TZ", oldtz, 1);
		else
			unsetenv("TZ");
		tzset();
		free(oldtz);
	}
	return rc;
}
