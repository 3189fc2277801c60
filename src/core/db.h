/*
 * db.h -- the database, for every program: open, migrations from the
 * embedded sql/<service>/NNNN-name.sql files, transactions, and the
 * statement API the stores speak.
 *
 * Two engines run under it (DESIGN 1, 7): SQLite, the embedded default
 * (WAL, NORMAL sync, a busy time-out; db_sqlite.c), and PostgreSQL for
 * the link service on several hosts (libpq; db_pg.c), chosen by what
 * lz_db_open() is given: a path or a postgresql:// URI.
 *
 * Stores never see the engine: they write their statements in tables
 * next to the functions that run them,
 *
 *	enum { ST_LINK_GET, ..., ST__MAX };
 *	static const struct lz_sql sql[ST__MAX] = {
 *		[ST_LINK_GET] = { "link get", "SELECT ... WHERE id = $1" },
 *	};
 *	struct lz_sqlset store_links_sql = LZ_SQLSET("links", sql);
 *
 * and run them through lz_db_stmt(), the binds, steps and columns below.
 * Parameters are $1, $2, ... in any order, repeated as needed; SQL text
 * is never built from data.  A statement is prepared on its first use
 * and kept for the connection.  One text serves SQLite and PostgreSQL
 * where the dialects agree ($N, ON CONFLICT, RETURNING, CAST); pg holds
 * PostgreSQL's text where they do not (DESIGN 7).
 *
 * The functions under "SQLite only" at the end are operations of the
 * embedded engine (checkpoints, backups, blob I/O of the read-only
 * prompt library); on a PostgreSQL connection those that take one do
 * nothing.  Nothing else in a store or lzctl touches an engine's API.
 */
#ifndef LZ_DB_H
#define LZ_DB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct lz_stmt;
struct lz_dbops;

/* A migration: sql/<service>/NNNN-name.sql, and PostgreSQL's text of the
 * same version from sql/<service>/pg/ (NULL: SQLite only). */
struct lz_migration {
	int		 version;	/* NNNN of the file name */
	const char	*name;		/* the file name */
	const char	*sql;
	const char	*pg;
};

/* One statement: its name in logs, its text, PostgreSQL's text where the
 * dialects differ (NULL: the same text).  A statement without the first
 * text is PostgreSQL's alone: a set-based form of what SQLite, in
 * process, does a statement a row (its store function chooses). */
struct lz_sql {
	const char	*name;
	const char	*sql;
	const char	*pg;
};

/* The statements of one store file; slot is db.c's, 0 until first use. */
struct lz_sqlset {
	const char		*name;
	const struct lz_sql	*sql;
	size_t			 n;
	size_t			 slot;
};

#define LZ_SQLSET(name, sql) \
	{ (name), (sql), sizeof(sql) / sizeof((sql)[0]), 0 }

#define LZ_SQL_PARAMS	32	/* $1 .. $32 */

/* A list of statements, each on it once (lz_stmts_add, db_engine.h). */
struct lz_stmts {
	struct lz_stmt	**v;
	size_t		  n, cap;
};

struct lz_db {
	const struct lz_dbops *ops;	/* the engine; NULL: not open */
	void		 *h;		/* its connection */
	void		 *e;		/* its state of the connection */
	char		 *path;		/* for messages (no password) */
	struct lz_stmt	**slots;	/* per set: its statements, or NULL */
	size_t		  nslots;
	/* The statements handed out since the last lz_db_reset_all, so
	 * that only those are looked at. */
	struct lz_stmts	  used;
	/* lz_db_data_version's reading of other connections' commits was
	 * taken since the last lz_db_reset_all (a request's start). */
	int		  dv_known;
};

#define LZ_DB_BUSY_MS	5000	/* how long a statement waits for a lock */

#define LZ_DB_RO	0x01	/* read-only */
#define LZ_DB_CREATE	0x02	/* create if missing */
#define LZ_DB_IMMUTABLE	0x04	/* with LZ_DB_RO: a file nobody changes in
				   place (replaced by rename only), read
				   without locks or journals */
#define LZ_DB_SCRATCH	0x08	/* with LZ_DB_CREATE: a new file nobody
				   reads until it is renamed into place;
				   written without journal or syncs (a
				   failed build is thrown away), large
				   pages; lz_db_seal() ends that */

/*
 * Opens path, an SQLite file, or a PostgreSQL server's database named by
 * a libpq URI (postgresql://...; flags other than LZ_DB_RO do not apply
 * there).  Returns 0, or -1 with a message in err.
 */
int	lz_db_open(struct lz_db *, const char *path, int flags, char *err,
	    size_t errlen);
void	lz_db_close(struct lz_db *);
/* 1 when target names a PostgreSQL database (a postgresql:// or
 * postgres:// URI), else 0: a path. */
int	lz_db_is_uri(const char *target);
/* target for messages and logs: a URI without its password. */
char	*lz_db_display(const char *target);
/* The engine of an open database: "sqlite" or "postgresql". */
const char *lz_db_engine(struct lz_db *);
/* 1 when this build has the PostgreSQL engine (configure found libpq). */
int	lz_db_have_pg(void);

/*
 * Checks the schema version against the newest migration: returns 0 when
 * equal, -1 with a message telling to run "lzctl migrate" otherwise.
 */
int	lz_db_check_version(struct lz_db *, const struct lz_migration *, size_t,
	    char *err, size_t errlen);
/*
 * Applies the migrations newer than the database's schema version, each
 * in one transaction that also moves the version (SQLite: PRAGMA
 * user_version, after switching the database to WAL, a persistent
 * setting; PostgreSQL: the table lz_schema_version, the migrations of
 * several hosts waiting for each other).  Refuses a database newer than
 * the newest migration without changing a byte of it.
 * Returns 0 (with *from and *to) or -1 with err.
 */
int	lz_db_migrate(struct lz_db *, const struct lz_migration *, size_t,
	    int *from, int *to, char *err, size_t errlen);
/* The schema version: 0 none yet, -1 on error. */
int	lz_db_user_version(struct lz_db *);

/* Runs SQL without results (one or more statements, no parameters: the
 * migrations and fixed texts); 0 or -1 (logged). */
int	lz_db_exec(struct lz_db *, const char *sql);
/*
 * A write transaction: SQLite's BEGIN IMMEDIATE takes the one write lock
 * at once; PostgreSQL's BEGIN (read committed) locks rows as they are
 * written, so a transaction that checks, then writes, takes the row it
 * depends on first (an engine-specific "SELECT ... FOR UPDATE" whose
 * SQLite text is a plain read) or checks in the writing statement.
 */
int	lz_db_begin(struct lz_db *);
/* A read transaction (one snapshot for several statements), unless one
 * is open: 1 begun (end it with lz_db_commit), 0 one was open, -1. */
int	lz_db_begin_read(struct lz_db *);
/* Sends the bulk rows kept back (lz_bulk_row), then commits; 0, or -1
 * with the transaction rolled back. */
int	lz_db_commit(struct lz_db *);
void	lz_db_rollback(struct lz_db *);	/* when a transaction is open */
int	lz_db_in_txn(struct lz_db *);	/* 1 inside a transaction */
/* The engine's message about the last error on the connection. */
const char *lz_db_error(struct lz_db *);

/*
 * What a health check asks of the connection, cheaply (no query): 0,
 * or -1 with why.  SQLite: the database file at its path is still the
 * one open (not removed or replaced under the pool), and writers have
 * not waited LZ_DB_STALL_MS without a write done (a stray process
 * holding SQLite's write lock: writes stalled).  PostgreSQL:
 * the connection is up.
 */
int	 lz_db_health(struct lz_db *, char *why, size_t len);
#define LZ_DB_STALL_MS	2000

/*
 * Where the connection's view of the data stands, cheaply: v moves
 * whenever anything commits a change to the database (any process,
 * any connection, this one included), and two connections' v never
 * compare equal.  Others' commits are read once between two
 * lz_db_reset_all calls (one request: it answers as of its start, a
 * syscall saved), this connection's own changes every time.  0, or -1
 * when the engine cannot tell without a round trip (PostgreSQL:
 * another host may write): what is remembered by it (memo.h) is then
 * not remembered at all.
 */
int	 lz_db_data_version(struct lz_db *, uint64_t v[3]);

/* ---- statements ------------------------------------------------------ */

/*
 * Statement i of set, ready to bind: reset, bindings cleared, prepared on
 * its first use.  Never NULL: when it cannot be prepared (logged; tried
 * again at its next use) its step fails.
 */
struct lz_stmt *lz_db_stmt(struct lz_db *, struct lz_sqlset *, size_t i);

/* Prepares every statement of the NULL-terminated sets (a service's
 * registry); 0, or -1 with err naming the first that fails. */
int	lz_db_prepare_all(struct lz_db *, struct lz_sqlset *const *sets,
	    char *err, size_t errlen);

/* Resets every statement handed out since the last call, ending any read
 * transaction one left open, and rolls back an unfinished transaction
 * (call at the end of each request). */
void	lz_db_reset_all(struct lz_db *);

/*
 * Binds to $n.  Values are not copied: they must stay as they are until
 * the statement has run (the lz_run, lz_each, ... that steps it has
 * returned).  A failed bind (a $n the statement lacks) is logged and
 * fails the step.  lz_bind_text binds NULL for NULL.
 */
void	lz_bind_i64(struct lz_stmt *, int n, int64_t);
void	lz_bind_int(struct lz_stmt *, int n, int);
void	lz_bind_double(struct lz_stmt *, int n, double);
void	lz_bind_text(struct lz_stmt *, int n, const char *);
void	lz_bind_textn(struct lz_stmt *, int n, const char *, size_t len);
void	lz_bind_blob(struct lz_stmt *, int n, const void *, size_t len);
void	lz_bind_null(struct lz_stmt *, int n);

/*
 * Values to bind as an array, v[0] to $1, v[1] to $2 and so on (as
 * sqlbox passes its parameters):
 *
 *	const struct lz_val	 v[] = { LZ_I64(id), LZ_TEXT(slug) };
 *
 *	st = lz_db_stmtv(db, set, ST_LINK_BY_SLUG, v, LZ_NELEM(v));
 *
 * Not copied either: they must live until the statement has run.
 */
enum lz_vtype { LZ_V_NULL, LZ_V_I64, LZ_V_DOUBLE, LZ_V_TEXT, LZ_V_BLOB };

struct lz_val {
	enum lz_vtype	 type;
	int64_t		 i;
	double		 d;
	const void	*p;		/* LZ_V_TEXT (NULL binds NULL), BLOB */
	size_t		 len;		/* bytes; SIZE_MAX: a text to its NUL */
};

#define LZ_I64(x)	{ .type = LZ_V_I64, .i = (x) }
#define LZ_DOUBLE(x)	{ .type = LZ_V_DOUBLE, .d = (x) }
#define LZ_TEXT(s)	{ .type = LZ_V_TEXT, .p = (s), .len = SIZE_MAX }
#define LZ_TEXTN(s, n)	{ .type = LZ_V_TEXT, .p = (s), .len = (n) }
#define LZ_BLOB(b, n)	{ .type = LZ_V_BLOB, .p = (b), .len = (n) }
#define LZ_NULLV	{ .type = LZ_V_NULL }
/* x when cond holds, else NULL. */
#define LZ_I64_IF(cond, x) \
	{ .type = (cond) ? LZ_V_I64 : LZ_V_NULL, .i = (x) }

void	lz_bind_vals(struct lz_stmt *, const struct lz_val *, size_t n);
/* lz_db_stmt() with v[0..n) bound. */
struct lz_stmt *lz_db_stmtv(struct lz_db *, struct lz_sqlset *, size_t i,
	    const struct lz_val *v, size_t n);
/*
 * lz_db_stmtv() with the values written in place, for a function that
 * is one statement:
 *
 *	return lz_run_ok(LZ_STMT(db, set, ST_SESSION_TOUCH, LZ_I64(now),
 *	    LZ_I64(id)));
 *
 * The values are an array (a compound literal) that lives until the end
 * of the enclosing block; sizeof does not evaluate them a second time.
 */
#define LZ_STMT(db, set, st, ...)	lz_db_stmtv((db), (set), (st), \
	(const struct lz_val[]){ __VA_ARGS__ }, \
	sizeof((const struct lz_val[]){ __VA_ARGS__ }) / sizeof(struct lz_val))

/*
 * Bulk inserts, inside the caller's transaction: statement i of set
 * inserts one row of v[0..n) (its sql an INSERT ... VALUES ($1, ...)).
 * On SQLite it runs at once (a row costs microseconds in process); on
 * PostgreSQL its pg text is "COPY table (columns) FROM STDIN" with the
 * same columns in the same order, and rows are kept back until
 * lz_bulk_flush() or lz_db_commit() streams them in one COPY: statements
 * of the transaction see them only after that.  0 or -1 (logged).
 */
int	lz_bulk_row(struct lz_db *, struct lz_sqlset *, size_t i,
	    const struct lz_val *v, size_t n);
int	lz_bulk_flush(struct lz_db *);

/*
 * Steps: 1 a row (its columns readable until the statement is stepped,
 * reset or handed out again), 0 done, -1 error.  An error is logged once,
 * with the statement's name and the engine's message; after 0 and -1 the
 * statement is reset.
 */
int	lz_step(struct lz_stmt *);
/* Runs an INSERT, UPDATE or DELETE to its end (rows it returns are
 * dropped): the rows it changed, or -1. */
long long lz_run(struct lz_stmt *);
/* lz_run's answer as 0 or -1, as 1 changed or 0 not (-1), and an
 * INSERT ... RETURNING id's id (or -1).  A NULL statement is -1. */
int	lz_run_ok(struct lz_stmt *);
int	lz_run_changed(struct lz_stmt *);
int64_t	lz_run_id(struct lz_stmt *);
/* The first row: 1 (readable until lz_reset), 0 none, -1. */
int	lz_row(struct lz_stmt *);
void	lz_reset(struct lz_stmt *);
/* Calls fn for every row; returns the rows, or -1. */
long	lz_each(struct lz_stmt *, void (*fn)(struct lz_stmt *, void *),
	    void *arg);
/* The first column of the first row into *v: 1, 0 no row, -1. */
int	lz_one_i64(struct lz_stmt *, int64_t *v);

/*
 * A store's list of records, without writing out the adapter each would
 * need (a {fn, arg} pair and a function that reads one row):
 *
 *	LZ_EACH_ROW(each_account, const, struct account, row_account,
 *	    LZ_KEEP);
 *
 * defines
 *
 *	static long each_account(struct lz_stmt *st,
 *	    void (*fn)(const struct account *, void *), void *arg);
 *
 * which reads each row of st with row_account(st, &r), hands &r to fn,
 * then calls done(&r) (LZ_KEEP: r holds nothing to free), and returns
 * what lz_each() returns.  qual is const, or empty for a callback that
 * may change the record (it is freed all the same).
 */
#define LZ_KEEP(r)	((void)(r))
#define LZ_EACH_ROW(name, qual, type, row, done)			\
struct name##_fn {							\
	void	(*fn)(qual type *, void *);				\
	void	*arg;							\
};									\
static void								\
name##_row(struct lz_stmt *st, void *arg)				\
{									\
	struct name##_fn	*f = arg;				\
	type			 r;					\
									\
	row(st, &r);							\
	f->fn(&r, f->arg);						\
	done(&r);							\
}									\
static long								\
name(struct lz_stmt *st, void (*fn)(qual type *, void *), void *arg)	\
{									\
	struct name##_fn	 f = { fn, arg };			\
									\
	return lz_each(st, name##_row, &f);				\
}									\
struct name##_fn

/* Columns of the current row, from 0.  NULL reads as 0 and "". */
int64_t	lz_col_i64(struct lz_stmt *, int col);
int	lz_col_int(struct lz_stmt *, int col);
double	lz_col_double(struct lz_stmt *, int col);
int	lz_col_null(struct lz_stmt *, int col);
const char *lz_col_text(struct lz_stmt *, int col);
/* The text, or NULL for NULL. */
const char *lz_col_text_or_null(struct lz_stmt *, int col);
/* The text and its length in bytes (it may hold NULs). */
const char *lz_col_textn(struct lz_stmt *, int col, size_t *len);
/* The blob and its length; NULL when empty or NULL. */
const void *lz_col_blob(struct lz_stmt *, int col, size_t *len);
/* Copies the text into buf (len bytes), cut to fit. */
void	lz_col_copy(struct lz_stmt *, int col, char *buf, size_t len);
/* The columns of the statement's rows, with a current row or not (once
 * lz_db_stmt() has prepared it). */
int	lz_col_count(struct lz_stmt *);
/* A column as the value it holds (NULL, integer, real, text or blob),
 * pointing into the row: for copying rows whatever they hold. */
void	lz_col_val(struct lz_stmt *, int col, struct lz_val *);

/*
 * A row read into a struct by a table of its fields, column 0 first:
 *
 *	static const struct lz_col tool_cols[] = {
 *		LZ_COL(toolrow, TEXT, key), LZ_COL(toolrow, LL, count)
 *	};
 *
 *	lz_cols(st, tool_cols, LZ_NELEM(tool_cols), &t);
 *
 * The type names the field's C type: int64_t, long long, int, double,
 * const char * (lz_col_text, lz_col_text_or_null), a char array the
 * text is copied into (lz_col_copy).
 */
enum lz_ctype { LZ_C_I64, LZ_C_LL, LZ_C_INT, LZ_C_DOUBLE, LZ_C_TEXT,
    LZ_C_TEXT_OR_NULL, LZ_C_COPY };

struct lz_col {
	enum lz_ctype	 type;
	size_t		 off;		/* offsetof the field */
	size_t		 size;		/* sizeof the field */
};

/* LZ_COL(toolrow, TEXT, key): field key of struct toolrow, LZ_C_TEXT. */
#define LZ_COL(st, type, field)	{ LZ_C_##type, offsetof(struct st, field), \
	sizeof(((struct st *)0)->field) }

/* Columns 0..n) of the current row into the fields cols name in row. */
void	lz_cols(struct lz_stmt *, const struct lz_col *cols, size_t n,
	    void *row);

/* ---- SQLite only ----------------------------------------------------- */

/* 1 when db is an open SQLite database. */
int	lz_db_is_sqlite(struct lz_db *);

/*
 * Checkpoints the WAL into the database and truncates it: first what can
 * be copied back beside the writers, then the rest in the writers' turn
 * (wqueue.h), waiting at most wait_ms (and never more than 50 ms) for the
 * readers of the moment while new writers wait in the queue.
 * Returns 1 done (or no WAL: PostgreSQL); 2 a reader stayed in the WAL,
 * with the WAL's frames in *frames and those copied back in *copied: under
 * load *copied moves on from one try to the next, while a long read
 * transaction holds it where its snapshot began; 0 another connection was
 * checkpointing (a commit's automatic checkpoint, another program's), so
 * nothing was done and nothing is known of readers -- SQLite does not
 * wait for that one; -1 error (logged).
 *
 * SQLite's automatic checkpoints copy the WAL back but can start it over
 * only when no reader is in it, which under steady load never happens: the
 * WAL would grow without end.  The click mover and lz-hooks call this to
 * keep it bounded (lz-links(8), "The WAL").
 */
int	lz_db_checkpoint(struct lz_db *, int wait_ms, int *frames,
	    int *copied);
/* The size of the WAL file in bytes (0 when there is none). */
long long lz_db_wal_bytes(struct lz_db *);

/*
 * Copies the database src to dst (created when create) with SQLite's
 * online backup API: a consistent snapshot even while the pools write.
 * All pages in one step: a copy in steps starts over whenever another
 * connection writes between two of them, so under steady writes (a click
 * batch a second) it never ended.  One step holds one read transaction
 * for the time of the copy (the WAL grows by what is written meanwhile,
 * lz-links(8) "The WAL").  0, or -1 with err.
 */
int	lz_db_copy(const char *src, const char *dst, int create, char *err,
	    size_t errlen);
/*
 * PRAGMA integrity_check of the database at path (read-only): 0 ok, -1
 * not, with each problem on a line of its own to problems, or with err
 * when it cannot be opened (err "" otherwise); the schema version into
 * *version when not NULL.
 */
int	lz_db_integrity(const char *path, int *version, FILE *problems,
	    char *err, size_t errlen);

/* The page cache of this connection, in KiB. */
int	lz_db_cache_kib(struct lz_db *, int kib);
/* Frees what the page cache holds. */
void	lz_db_release_memory(struct lz_db *);
/* Ends LZ_DB_SCRATCH: a rollback journal from now on (nothing writes the
 * file again), then a quick check.  0, or -1 with err. */
int	lz_db_seal(struct lz_db *, char *err, size_t errlen);

/* Incremental reads of one blob (table, column, rowid) of a read-only
 * database: only the pages that hold the bytes read are read. */
struct lz_blob;
/* NULL when there is no such blob or on error (logged). */
struct lz_blob *lz_blob_open(struct lz_db *, const char *table,
	    const char *column, int64_t rowid);
size_t	lz_blob_size(struct lz_blob *);
/* Reads len bytes at off; 0 or -1 (logged). */
int	lz_blob_read(struct lz_blob *, void *buf, size_t len, size_t off);
void	lz_blob_close(struct lz_blob *);

#endif
