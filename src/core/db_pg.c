/*
 * db_pg.c -- the PostgreSQL engine of db.h (db_engine.h), on libpq.
 *
 * A statement is prepared (PQprepare, then PQdescribePrepared for its
 * parameters and columns) on its first use on a connection.  Parameters
 * go as text, blobs as binary bytea; results come back as text
 * (sum(bigint) is a numeric, read as its digits; booleans are "t" and
 * "f"; bytea is "\x" and hex, decoded here).  A step runs the statement
 * and walks its rows; rows changed come from PQcmdTuples.
 *
 * A lost connection (the server restarted) is noticed before the next
 * statement outside a transaction and made again, at most once a second;
 * statements are prepared again on the new one (each remembers the
 * connection's epoch it was prepared in).  A transaction that lost its
 * connection fails until it is rolled back: nothing of it runs anywhere
 * else.
 *
 * Bulk rows (lz_bulk_row) are kept in the COPY text format and streamed
 * by COPY ... FROM STDIN at lz_bulk_flush() or the commit.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>
#include <sodium.h>

#include "busy.h"
#include "db.h"
#include "db_engine.h"
#include "log.h"
#include "lztime.h"
#include "util.h"

/* Type oids (catalog/pg_type.h, stable across releases). */
#define BOOLOID		16
#define BYTEAOID	17
#define INT8OID		20
#define INT2OID		21
#define INT4OID		23
#define FLOAT4OID	700
#define FLOAT8OID	701

#define RECONNECT_MS	1000	/* between slow tries to connect again */
#define RECONNECT_SLOW_MS 250	/* a try that failed after this long */
#define REPLAN_MS	1000	/* set_replan's statements prepared again */
#define BULK_MAX	(4 * 1024 * 1024)	/* COPY text kept back */
#define SCHEMA_LOCK	"7109749"	/* pg_advisory_xact_lock key: "lz" */

/* The connection's state (db->e). */
struct pg_db {
	uint64_t	  epoch;	/* (re)connections so far */
	unsigned	  nprep;	/* names handed out on this one */
	int		  began;	/* a transaction begun, not ended */
	int		  ro;		/* opened read-only */
	long long	  changes;	/* by the last statement run */
	int64_t		  retry_ms;	/* no reconnection before */
	int64_t		  logged_ms;	/* the last "cannot connect" logged */
	char		  err[256];	/* the last error */
	struct lz_stmts	  bulk;		/* statements with rows kept back */
};

struct blob {
	unsigned char	*p;
	size_t		 cap;
};

/* A statement's state (s->e). */
struct pg_stmt {
	const char	*text;
	char		 name[16];
	uint64_t	 epoch;		/* prepared on this connection */
	int		 copy;		/* a bulk statement: COPY ... */
	int		 replan;	/* prepared again now and then */
	int64_t		 prepared_ms;	/* on the monotonic clock */
	int		 nparams;
	int		 ncols;		/* of its rows, as described */
	const char	*vals[LZ_SQL_PARAMS];
	int		 lens[LZ_SQL_PARAMS];
	int		 fmts[LZ_SQL_PARAMS];
	char		*copies[LZ_SQL_PARAMS];	/* texts cut to their length */
	char		 num[LZ_SQL_PARAMS][32];
	PGresult	*res;
	int		 row, nrows;
	struct blob	*blobs;		/* per column: bytea decoded */
	int		 nblobs;
	struct lz_buf	 rows;		/* bulk rows kept back */
	long		 pending;
	int		 listed;	/* on the connection's bulk list */
};

#define PDB(db)	((struct pg_db *)(db)->e)
#define PST(s)	((struct pg_stmt *)(s)->e)
#define CONN(db) ((PGconn *)(db)->h)

/* The first line of msg into p->err; returns it. */
static const char *
set_err(struct pg_db *p, const char *msg)
{
	snprintf(p->err, sizeof(p->err), "%.*s", (int)strcspn(msg, "\n"),
	    msg);
	return p->err;
}

/* SQLSTATEs of contention (busy.h): a serialization failure, a
 * deadlock, a lock not available in time, a statement that ran out of
 * time. */
static int
contention(const char *code)
{
	return code != NULL && (strcmp(code, "40001") == 0 ||
	    strcmp(code, "40P01") == 0 || strcmp(code, "55P03") == 0 ||
	    strcmp(code, "57014") == 0);
}

/* What went wrong with res (NULL: with the connection), remembered;
 * contention noted. */
static const char *
res_err(struct lz_db *db, const PGresult *res)
{
	const char	*m = NULL, *code;
	char		 buf[320];

	if (res != NULL &&
	    (m = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY)) != NULL) {
		code = PQresultErrorField(res, PG_DIAG_SQLSTATE);
		if (contention(code))
			lz_busy_note();
		snprintf(buf, sizeof(buf), "%s (%s)", m, code ? code : "?");
		return set_err(PDB(db), buf);
	}
	return set_err(PDB(db), PQerrorMessage(CONN(db)));
}

static void
notice(void *arg, const char *msg)
{
	(void)arg;
	lz_log(LZ_LOG_DEBUG, "postgresql: %.*s", (int)strcspn(msg, "\n"), msg);
}

/* Runs sql (no parameters, maybe several statements); 0 or -1 logged. */
static int
run(struct lz_db *db, const char *sql)
{
	PGresult	*res = PQexec(CONN(db), sql);
	int		 rc = 0;

	switch (PQresultStatus(res)) {
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
		break;
	default:
		lz_log(LZ_LOG_ERR, "postgresql: %s: %.200s", res_err(db, res),
		    sql);
		rc = -1;
	}
	PQclear(res);
	return rc;
}

/* What every connection is told once made: wait for a lock as long as
 * SQLite's busy time-out, and no longer. */
static int
session(struct lz_db *db, int ro)
{
	char	 sql[128];

	PQsetNoticeProcessor(CONN(db), notice, NULL);
	snprintf(sql, sizeof(sql), "SET lock_timeout = %d;%s", LZ_DB_BUSY_MS,
	    ro ? " SET default_transaction_read_only = on;" : "");
	return run(db, sql);
}

/*
 * Reads what the server sent to an idle connection.  A server that went
 * away (a restart) sent the reason, then closed the socket: read to the
 * end, the connection shows as broken before a statement is lost on it.
 * Costs a poll() when nothing came.
 */
static void
drain(PGconn *c)
{
	struct pollfd	 pfd;
	int		 i;

	pfd.fd = PQsocket(c);
	pfd.events = POLLIN;
	for (i = 0; i < 4 && PQstatus(c) == CONNECTION_OK; i++)
		if (poll(&pfd, 1, 0) != 1 || !PQconsumeInput(c))
			break;
}

/*
 * Whether the connection can take a statement: one that broke is made
 * again, unless a transaction was open on it (it must be rolled back
 * first).  A try refused at once (the server down or starting: a few
 * milliseconds) is made again at the next request, so requests work
 * again as soon as the server does; one that was slow (a host that does
 * not answer: up to connect_timeout) only after RECONNECT_MS, so that
 * requests fail fast meanwhile.  Failures are logged once a second at
 * most.  0 or -1.
 */
static int
ready(struct lz_db *db)
{
	struct pg_db	*p = PDB(db);
	PGconn		*c = CONN(db);
	int64_t		 now, end;

	if (!p->began)
		drain(c);
	if (PQstatus(c) == CONNECTION_OK)
		return 0;
	if (p->began) {
		set_err(p, "the connection was lost in a transaction");
		return -1;
	}
	if ((now = lz_mono_us() / 1000) < p->retry_ms) {
		set_err(p, "no connection to the server");
		return -1;
	}
	PQreset(c);
	p->epoch++;
	p->nprep = 0;
	if (PQstatus(c) != CONNECTION_OK || session(db, p->ro) == -1) {
		/* From the end of a slow attempt: it may have taken longer
		 * than the wait. */
		if ((end = lz_mono_us() / 1000) - now >= RECONNECT_SLOW_MS)
			p->retry_ms = end + RECONNECT_MS;
		if (now - p->logged_ms >= RECONNECT_MS) {
			p->logged_ms = now;
			lz_log(LZ_LOG_ERR, "postgresql: %s: cannot connect "
			    "again: %s", db->path, res_err(db, NULL));
		}
		return -1;
	}
	lz_log(LZ_LOG_WARN, "postgresql: %s: connected again", db->path);
	return 0;
}

static int
pg_open(struct lz_db *db, const char *target, int flags, char *err,
    size_t errlen)
{
	/* Ours first: what the URI says wins (libpq's expand_dbname). */
	const char *const	 kw[] = { "connect_timeout",
	    "fallback_application_name", "client_encoding", "dbname", NULL };
	const char *const	 val[] = { "10", "lz", "UTF8", target, NULL };
	PGconn			*c;
	int			 v;

	if ((c = PQconnectdbParams(kw, val, 1)) == NULL) {
		snprintf(err, errlen, "%s: out of memory", db->path);
		return -1;
	}
	if (PQstatus(c) != CONNECTION_OK) {
		snprintf(err, errlen, "%s: %.*s", db->path,
		    (int)strcspn(PQerrorMessage(c), "\n"), PQerrorMessage(c));
		PQfinish(c);
		return -1;
	}
	if ((v = PQserverVersion(c)) < 130000) {
		snprintf(err, errlen, "%s: PostgreSQL %d.%d; lz needs 13 or "
		    "newer", db->path, v / 10000, v % 10000);
		PQfinish(c);
		return -1;
	}
	db->h = c;
	db->e = xcalloc(1, sizeof(struct pg_db));
	PDB(db)->ro = (flags & LZ_DB_RO) != 0;
	if (session(db, PDB(db)->ro) == -1) {
		snprintf(err, errlen, "%s: %s", db->path, PDB(db)->err);
		PQfinish(c);
		free(db->e);
		return -1;
	}
	return 0;
}

static void
pg_close(struct lz_db *db)
{
	PQfinish(CONN(db));
	free(PDB(db)->bulk.v);
	free(db->e);
}

static int
pg_exec(struct lz_db *db, const char *sql)
{
	if (ready(db) == -1) {
		lz_log(LZ_LOG_ERR, "postgresql: %s", PDB(db)->err);
		return -1;
	}
	return run(db, sql);
}

/* ---- transactions ------------------------------------------------------ */

static void	bulk_discard(struct lz_db *);

static int
pg_begin(struct lz_db *db, int write)
{
	/* A read: one snapshot for all its statements, as SQLite's. */
	if (pg_exec(db, write ? "BEGIN" :
	    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") == -1)
		return -1;
	PDB(db)->began = 1;
	return 0;
}

static void
pg_rollback(struct lz_db *db)
{
	bulk_discard(db);
	if (PQstatus(CONN(db)) == CONNECTION_OK)
		(void)run(db, "ROLLBACK");
	PDB(db)->began = 0;
}

static int
pg_commit(struct lz_db *db)
{
	PGresult	*res;
	int		 ok;

	/* COMMIT of a failed transaction answers ROLLBACK, not an error. */
	if (PQtransactionStatus(CONN(db)) != PQTRANS_INTRANS) {
		set_err(PDB(db), "the transaction failed; rolled back");
		pg_rollback(db);
		return -1;
	}
	res = PQexec(CONN(db), "COMMIT");
	ok = PQresultStatus(res) == PGRES_COMMAND_OK &&
	    strcmp(PQcmdStatus(res), "COMMIT") == 0;
	if (!ok)
		lz_log(LZ_LOG_ERR, "postgresql: COMMIT: %s", res_err(db, res));
	PQclear(res);
	PDB(db)->began = 0;
	return ok ? 0 : -1;
}

static int
pg_in_txn(struct lz_db *db)
{
	switch (PQtransactionStatus(CONN(db))) {
	case PQTRANS_IDLE:
		return 0;
	case PQTRANS_UNKNOWN:
		return PDB(db)->began;	/* lost: as its caller left it */
	default:
		return 1;
	}
}

static const char *
pg_error(struct lz_db *db)
{
	return PDB(db)->err[0] ? PDB(db)->err :
	    set_err(PDB(db), PQerrorMessage(CONN(db)));
}

/* The health check's query (reconnecting when it can) says it all. */
static int
pg_health(struct lz_db *db, char *why, size_t len)
{
	(void)db;
	(void)why;
	(void)len;
	return 0;
}

/* ---- the schema version ------------------------------------------------ */

/* The value of a one-row, one-column query, or -1. */
static long long
one(struct lz_db *db, const char *sql)
{
	PGresult	*res;
	long long	 v = -1;

	if (ready(db) == -1)
		return -1;
	res = PQexec(CONN(db), sql);
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1)
		v = PQgetisnull(res, 0, 0) ? 0 :
		    strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	else
		lz_log(LZ_LOG_ERR, "postgresql: %s: %s", sql, res_err(db, res));
	PQclear(res);
	return v;
}

static int
pg_version(struct lz_db *db)
{
	long long	 v;

	if ((v = one(db, "SELECT count(*) FROM pg_catalog.pg_tables WHERE "
	    "tablename = 'lz_schema_version' AND schemaname = "
	    "current_schema()")) <= 0)
		return (int)v;
	return (int)one(db, "SELECT max(version) FROM lz_schema_version");
}

static int
pg_set_version(struct lz_db *db, int v)
{
	char	 sql[192];

	snprintf(sql, sizeof(sql), "CREATE TABLE IF NOT EXISTS "
	    "lz_schema_version (version integer NOT NULL); "
	    "DELETE FROM lz_schema_version; "
	    "INSERT INTO lz_schema_version VALUES (%d)", v);
	return pg_exec(db, sql);
}

static int
pg_premigrate(struct lz_db *db, int v, char *err, size_t errlen)
{
	(void)db;
	(void)v;
	(void)err;
	(void)errlen;
	return 0;
}

/* Two hosts migrating at once: the second waits, then finds the
 * version moved and skips what the first did. */
static int
pg_lock_schema(struct lz_db *db)
{
	return pg_exec(db, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")");
}

/* ---- statements -------------------------------------------------------- */

static void
clear_binds(struct pg_stmt *st)
{
	int	 i;

	for (i = 0; i < st->nparams; i++) {
		free(st->copies[i]);
		st->copies[i] = NULL;
		st->vals[i] = NULL;
		st->lens[i] = 0;
		st->fmts[i] = 0;
	}
}

static void
clear_result(struct pg_stmt *st)
{
	PQclear(st->res);
	st->res = NULL;
	st->row = st->nrows = 0;
}

static void
pg_finalize(struct lz_stmt *s)
{
	struct pg_stmt	*st = PST(s);
	int		 i;

	clear_result(st);
	clear_binds(st);
	for (i = 0; i < st->nblobs; i++)
		free(st->blobs[i].p);
	free(st->blobs);
	lz_buf_free(&st->rows);
	/* The server's statement goes with the connection. */
	free(st);
	s->e = NULL;
}

/* Checks a COPY text: an empty COPY, which inserts nothing.  0 or -1. */
static int
check_copy(struct lz_stmt *s, char *err, size_t errlen)
{
	PGconn		*c = CONN(s->db);
	PGresult	*res;
	int		 ok;

	res = PQexec(c, PST(s)->text);
	ok = PQresultStatus(res) == PGRES_COPY_IN;
	PQclear(res);
	if (ok && PQputCopyEnd(c, NULL) == 1) {
		res = PQgetResult(c);
		ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	} else
		res = NULL;
	if (!ok)
		snprintf(err, errlen, "preparing %s: %s (%.120s)",
		    s->sql->name, res_err(s->db, res), PST(s)->text);
	PQclear(res);
	while ((res = PQgetResult(c)) != NULL)
		PQclear(res);
	return ok ? 0 : -1;
}

/* Forgets st's server statement (set_replan), to be prepared again
 * under a new name.  A DEALLOCATE that fails (the transaction failed:
 * its statement will too) leaves the old one to the connection's end. */
static void
unprepare(struct lz_stmt *s)
{
	char	 sql[32];

	snprintf(sql, sizeof(sql), "DEALLOCATE %s", PST(s)->name);
	PQclear(PQexec(CONN(s->db), sql));
}

/* Prepares st on the server (on this connection).  0 or -1 with err. */
static int
server_prepare(struct lz_stmt *s, char *err, size_t errlen)
{
	struct pg_db	*p = PDB(s->db);
	struct pg_stmt	*st = PST(s);
	PGresult	*res;
	int		 ok;

	if (ready(s->db) == -1) {
		snprintf(err, errlen, "preparing %s: %s", s->sql->name, p->err);
		return -1;
	}
	st->epoch = p->epoch;
	st->prepared_ms = lz_mono_us() / 1000;
	if (st->copy)
		return check_copy(s, err, errlen);
	snprintf(st->name, sizeof(st->name), "lz%u", p->nprep++);
	res = PQprepare(CONN(s->db), st->name, st->text, 0, NULL);
	ok = PQresultStatus(res) == PGRES_COMMAND_OK;
	if (!ok)
		snprintf(err, errlen, "preparing %s: %s (%.120s)",
		    s->sql->name, res_err(s->db, res), st->text);
	PQclear(res);
	if (!ok)
		return -1;
	res = PQdescribePrepared(CONN(s->db), st->name);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		snprintf(err, errlen, "preparing %s: %s", s->sql->name,
		    res_err(s->db, res));
		ok = 0;
	} else if ((st->nparams = PQnparams(res)) > LZ_SQL_PARAMS) {
		snprintf(err, errlen, "preparing %s: more than $%d",
		    s->sql->name, LZ_SQL_PARAMS);
		ok = 0;
	} else
		st->ncols = PQnfields(res);
	PQclear(res);
	return ok ? 0 : -1;
}

/*
 * Whether a statement's plan is made again now and then (REPLAN_MS):
 * those that take a set of rows as a JSON array of a parameter
 * (json_array_elements and its kin: a batch's links, clicks, tags).
 * The server's plan cache keeps a prepared statement's generic plan,
 * made from the tables as they were when it was chosen; a JSON set it
 * takes for a hundred rows, so against a table then small it joins by a
 * hash over the whole table.  Made on a new instance, that plan stayed
 * while an import grew the links table past 200,000 rows: the mover's
 * three statements of each batch took 1 to 4 ms each (a scan of the
 * table), half a core beside the import, until an ANALYZE of the table
 * would have replaced it.  Prepared again at most REPLAN_MS after the
 * last time, such a statement's plan is at most that old; planned at
 * every run instead (PQexecParams), a history import's look-ups of one
 * link cost 0.5 ms each in planning.
 */
static int
set_replan(const char *text)
{
	return strstr(text, "_array_elements") != NULL ||
	    strstr(text, "json_each") != NULL ||
	    strstr(text, "jsonb_each") != NULL;
}

static int
pg_prepare(struct lz_stmt *s, char *err, size_t errlen)
{
	struct pg_stmt	*st;

	st = xcalloc(1, sizeof(*st));
	st->text = s->sql->pg ? s->sql->pg : s->sql->sql;
	st->copy = strncmp(st->text, "COPY ", 5) == 0;
	st->replan = set_replan(st->text);
	s->e = st;
	if (server_prepare(s, err, errlen) == -1) {
		pg_finalize(s);
		return -1;
	}
	return 0;
}

static void
pg_reset(struct lz_stmt *s, int clear)
{
	clear_result(PST(s));
	if (clear)
		clear_binds(PST(s));
}

static int
pg_busy(struct lz_stmt *s)
{
	return PST(s)->res != NULL;
}

static int
pg_bind(struct lz_stmt *s, int n, const struct lz_val *v)
{
	struct pg_stmt	*st = PST(s);
	int		 i = n - 1;

	if (n > st->nparams) {
		lz_log(LZ_LOG_ERR, "postgresql: %s: no parameter $%d",
		    s->sql->name, n);
		return -1;
	}
	free(st->copies[i]);
	st->copies[i] = NULL;
	st->vals[i] = NULL;
	st->lens[i] = 0;
	st->fmts[i] = 0;
	switch (v->type) {
	case LZ_V_NULL:
		break;
	case LZ_V_I64:
		snprintf(st->num[i], sizeof(st->num[i]), "%lld",
		    (long long)v->i);
		st->vals[i] = st->num[i];
		break;
	case LZ_V_DOUBLE:
		snprintf(st->num[i], sizeof(st->num[i]), "%.17g", v->d);
		st->vals[i] = st->num[i];
		break;
	case LZ_V_TEXT:
		/* Text parameters end at their NUL (PostgreSQL's text
		 * holds none). */
		if (v->p != NULL && v->len != SIZE_MAX)
			st->vals[i] = st->copies[i] = xstrndup(v->p, v->len);
		else
			st->vals[i] = v->p;
		break;
	case LZ_V_BLOB:
		st->vals[i] = v->p;
		st->lens[i] = (int)v->len;
		st->fmts[i] = 1;	/* bytea, as it is */
		break;
	}
	return 0;
}

static int
pg_step(struct lz_stmt *s)
{
	struct pg_db	*p = PDB(s->db);
	struct pg_stmt	*st = PST(s);
	char		 err[512];
	PGresult	*res;
	int		 stale;

	if (st->res != NULL) {
		if (++st->row < st->nrows)
			return 1;
		clear_result(st);
		return 0;
	}
	if (st->copy) {
		lz_log(LZ_LOG_ERR, "postgresql: %s: a bulk statement "
		    "(lz_bulk_row)", s->sql->name);
		return -1;
	}
	if ((stale = st->replan && st->epoch == p->epoch &&
	    lz_mono_us() / 1000 - st->prepared_ms >= REPLAN_MS))
		unprepare(s);
	if (ready(s->db) == -1 || ((st->epoch != p->epoch || stale) &&
	    server_prepare(s, err, sizeof(err)) == -1)) {
		lz_log(LZ_LOG_ERR, "postgresql: %s: %s", s->sql->name, p->err);
		return -1;
	}
	res = PQexecPrepared(CONN(s->db), st->name, st->nparams, st->vals,
	    st->lens, st->fmts, 0);
	switch (PQresultStatus(res)) {
	case PGRES_TUPLES_OK:
		p->changes = strtoll(PQcmdTuples(res), NULL, 10);
		if (PQntuples(res) > 0) {
			st->res = res;
			st->nrows = PQntuples(res);
			st->row = 0;
			return 1;
		}
		PQclear(res);
		return 0;
	case PGRES_COMMAND_OK:
		p->changes = strtoll(PQcmdTuples(res), NULL, 10);
		PQclear(res);
		return 0;
	default:
		lz_log(LZ_LOG_ERR, "postgresql: %s: %s", s->sql->name,
		    res_err(s->db, res));
		PQclear(res);
		return -1;
	}
}

static long long
pg_changes(struct lz_stmt *s)
{
	return PDB(s->db)->changes;
}

/* The value of col in the current row, NULL for NULL (or no such). */
static const char *
val(struct lz_stmt *s, int col, size_t *len)
{
	struct pg_stmt	*st = PST(s);

	*len = 0;
	if (st->res == NULL || col < 0 || col >= PQnfields(st->res) ||
	    PQgetisnull(st->res, st->row, col))
		return NULL;
	*len = (size_t)PQgetlength(st->res, st->row, col);
	return PQgetvalue(st->res, st->row, col);
}

static int
pg_col_null(struct lz_stmt *s, int col)
{
	size_t	 len;

	return val(s, col, &len) == NULL;
}

static int64_t
pg_col_i64(struct lz_stmt *s, int col)
{
	const char	*v;
	size_t		 len;

	if ((v = val(s, col, &len)) == NULL)
		return 0;
	if (PQftype(PST(s)->res, col) == BOOLOID)
		return *v == 't';
	return strtoll(v, NULL, 10);
}

static double
pg_col_double(struct lz_stmt *s, int col)
{
	const char	*v;
	size_t		 len;

	return (v = val(s, col, &len)) == NULL ? 0 : strtod(v, NULL);
}

static const char *
pg_col_text(struct lz_stmt *s, int col, size_t *len)
{
	return val(s, col, len);
}

static const void *
pg_col_blob(struct lz_stmt *s, int col, size_t *len)
{
	struct pg_stmt	*st = PST(s);
	struct blob	*b;
	const char	*v;
	size_t		 n, bin;

	unsigned char	*esc;

	*len = 0;
	if ((v = val(s, col, &n)) == NULL || n == 0)
		return NULL;
	if (PQftype(st->res, col) != BYTEAOID) {
		*len = n;		/* text read as bytes */
		return v;
	}
	if (col >= st->nblobs) {
		st->blobs = xreallocarray(st->blobs, (size_t)col + 1,
		    sizeof(*st->blobs));
		memset(st->blobs + st->nblobs, 0, (size_t)(col + 1 -
		    st->nblobs) * sizeof(*st->blobs));
		st->nblobs = col + 1;
	}
	b = &st->blobs[col];
	if (b->cap < n) {
		free(b->p);
		b->cap = n;
		b->p = xmalloc(b->cap);
	}
	if (n >= 2 && strncmp(v, "\\x", 2) == 0) {
		/* bytea_output = hex, the default: decoded in place. */
		if (sodium_hex2bin(b->p, b->cap, v + 2, n - 2, NULL, &bin,
		    NULL) != 0)
			return NULL;
	} else {
		/* bytea_output = escape (an administrator's choice): libpq
		 * decodes it, never shorter than the bytes it stands for. */
		if ((esc = PQunescapeBytea((const unsigned char *)v,
		    &bin)) == NULL)
			return NULL;
		memcpy(b->p, esc, bin);
		PQfreemem(esc);
	}
	if ((*len = bin) == 0)
		return NULL;
	return b->p;
}

static int
pg_col_count(struct lz_stmt *s)
{
	return PST(s)->res ? PQnfields(PST(s)->res) : PST(s)->ncols;
}

static int
pg_col_type(struct lz_stmt *s, int col)
{
	size_t	 len;

	if (val(s, col, &len) == NULL)
		return LZ_V_NULL;
	switch (PQftype(PST(s)->res, col)) {
	case BOOLOID:
	case INT2OID:
	case INT4OID:
	case INT8OID:
		return LZ_V_I64;
	case FLOAT4OID:
	case FLOAT8OID:
		return LZ_V_DOUBLE;
	case BYTEAOID:
		return LZ_V_BLOB;
	default:
		return LZ_V_TEXT;
	}
}

/* ---- bulk rows: COPY ... FROM STDIN -------------------------------------- */

/* Appends text escaped for COPY's text format. */
static void
copy_text(struct lz_buf *b, const char *s, size_t len)
{
	size_t	 i, run = 0;
	char	 esc;

	for (i = 0; i < len && s[i] != '\0'; i++) {
		switch (s[i]) {
		case '\\':	esc = '\\'; break;
		case '\n':	esc = 'n'; break;
		case '\r':	esc = 'r'; break;
		case '\t':	esc = 't'; break;
		default:	continue;
		}
		lz_buf_add(b, s + run, i - run);
		lz_buf_putc(b, '\\');
		lz_buf_putc(b, esc);
		run = i + 1;
	}
	lz_buf_add(b, s + run, i - run);
}

static void
copy_field(struct lz_buf *b, const struct lz_val *v)
{
	const unsigned char	*p;
	char			 x[65];	/* 32 bytes in hex, and a NUL */
	size_t			 i, k;

	switch (v->type) {
	case LZ_V_NULL:
		lz_buf_puts(b, "\\N");
		break;
	case LZ_V_I64:
		lz_buf_putll(b, (long long)v->i);
		break;
	case LZ_V_DOUBLE:
		lz_buf_printf(b, "%.17g", v->d);
		break;
	case LZ_V_TEXT:
		if (v->p == NULL)
			lz_buf_puts(b, "\\N");
		else
			copy_text(b, v->p, v->len);
		break;
	case LZ_V_BLOB:
		/* bytea's \x form, its backslash escaped for COPY. */
		lz_buf_puts(b, "\\\\x");
		for (i = 0, p = v->p; i < v->len; i += k) {
			k = v->len - i < sizeof(x) / 2 ? v->len - i :
			    sizeof(x) / 2;
			sodium_bin2hex(x, sizeof(x), p + i, k);
			lz_buf_add(b, x, 2 * k);
		}
		break;
	}
}

/* Streams the rows kept back for s.  0 or -1 (logged). */
static int
copy_rows(struct lz_stmt *s)
{
	struct pg_stmt	*st = PST(s);
	PGconn		*c = CONN(s->db);
	PGresult	*res;
	int		 ok;

	res = PQexec(c, st->text);
	ok = PQresultStatus(res) == PGRES_COPY_IN;
	PQclear(res);
	if (ok)
		ok = PQputCopyData(c, st->rows.p, (int)st->rows.len) == 1 &&
		    PQputCopyEnd(c, NULL) == 1;
	res = PQgetResult(c);
	if (!ok || PQresultStatus(res) != PGRES_COMMAND_OK) {
		lz_log(LZ_LOG_ERR, "postgresql: %s: %ld rows: %s",
		    s->sql->name, st->pending, res_err(s->db, res));
		ok = 0;
	}
	PQclear(res);
	while ((res = PQgetResult(c)) != NULL)
		PQclear(res);
	lz_buf_reset(&st->rows);
	st->pending = 0;
	return ok ? 0 : -1;
}

static int
pg_bulk_flush(struct lz_db *db)
{
	struct pg_db	*p = PDB(db);
	size_t		 i;
	int		 rc = 0;

	if (p->bulk.n > 0 && ready(db) == -1) {
		lz_log(LZ_LOG_ERR, "postgresql: bulk rows: %s", p->err);
		bulk_discard(db);
		return -1;
	}
	for (i = 0; i < p->bulk.n; i++)
		if (rc == 0 && PST(p->bulk.v[i])->pending > 0)
			rc = copy_rows(p->bulk.v[i]);
	bulk_discard(db);
	return rc;
}

static void
bulk_discard(struct lz_db *db)
{
	struct pg_db	*p = PDB(db);
	size_t		 i;

	for (i = 0; i < p->bulk.n; i++) {
		if (p->bulk.v[i]->e == NULL)
			continue;
		lz_buf_reset(&PST(p->bulk.v[i])->rows);
		PST(p->bulk.v[i])->pending = 0;
		PST(p->bulk.v[i])->listed = 0;
	}
	p->bulk.n = 0;
}

static int
pg_bulk_row(struct lz_stmt *s, const struct lz_val *v, size_t n)
{
	struct pg_db	*p = PDB(s->db);
	struct pg_stmt	*st = PST(s);
	size_t		 i;

	if (!st->copy || !p->began) {
		lz_log(LZ_LOG_ERR, "postgresql: %s: %s", s->sql->name,
		    !st->copy ? "not a COPY statement" :
		    "bulk rows outside a transaction");
		return -1;
	}
	if (!st->listed)	/* a call per row on the mover's path */
		lz_stmts_add(&p->bulk, s, &st->listed);
	for (i = 0; i < n; i++) {
		if (i > 0)
			lz_buf_putc(&st->rows, '\t');
		copy_field(&st->rows, &v[i]);
	}
	lz_buf_putc(&st->rows, '\n');
	st->pending++;
	/* Memory stays bounded: a big batch goes in several COPYs. */
	if (st->rows.len >= BULK_MAX)
		return copy_rows(s);
	return 0;
}

static const struct lz_dbops pg_ops = {
	.name = "postgresql",
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.begin = pg_begin,
	.commit = pg_commit,
	.rollback = pg_rollback,
	.in_txn = pg_in_txn,
	.error = pg_error,
	.health = pg_health,
	.version = pg_version,
	.set_version = pg_set_version,
	.premigrate = pg_premigrate,
	.lock_schema = pg_lock_schema,
	.prepare = pg_prepare,
	.finalize = pg_finalize,
	.reset = pg_reset,
	.busy = pg_busy,
	.bind = pg_bind,
	.step = pg_step,
	.changes = pg_changes,
	.col_null = pg_col_null,
	.col_i64 = pg_col_i64,
	.col_double = pg_col_double,
	.col_text = pg_col_text,
	.col_blob = pg_col_blob,
	.col_count = pg_col_count,
	.col_type = pg_col_type,
	.bulk_row = pg_bulk_row,
	.bulk_flush = pg_bulk_flush,
};

const struct lz_dbops *const lz_db_pg = &pg_ops;
