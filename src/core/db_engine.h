/*
 * db_engine.h -- what db.c asks of a database engine: db_sqlite.c (the
 * embedded default) and db_pg.c (PostgreSQL, DESIGN 7).  Private to
 * src/core/db*.c.
 *
 * db.c keeps what does not depend on the engine: the statement sets and
 * their slots, the statements handed out in a request, binding by
 * array, the step helpers (lz_run, lz_each, ...), migrations and the
 * schema version check.  An engine is a table of functions; struct lz_db
 * points to its table, so a call costs one indirect jump whichever runs.
 */
#ifndef LZ_DB_ENGINE_H
#define LZ_DB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* db.h's types, by name only: db.h is the public face of db.c, this is
 * its back door, and neither includes the other. */
struct lz_db;
struct lz_sql;
struct lz_stmts;
struct lz_val;

/* A statement of a set on one connection. */
struct lz_stmt {
	struct lz_db		*db;
	const struct lz_sql	*sql;
	int			 bad;	/* not prepared, or a bind failed */
	int			 used;	/* on db->used */
	void			*e;	/* the engine's, NULL until prepared */
};

struct lz_dbops {
	const char	*name;		/* "sqlite", "postgresql" */
	/* db is zeroed, db->ops set; 0, or -1 with err (db closed). */
	int		(*open)(struct lz_db *, const char *target, int flags,
			    char *err, size_t errlen);
	void		(*close)(struct lz_db *);
	int		(*exec)(struct lz_db *, const char *sql);
	/* write: a write transaction; else a read snapshot. */
	int		(*begin)(struct lz_db *, int write);
	int		(*commit)(struct lz_db *);
	void		(*rollback)(struct lz_db *);
	int		(*in_txn)(struct lz_db *);
	const char	*(*error)(struct lz_db *);
	/* 0 when the database is fit to serve, else -1 and why. */
	int		(*health)(struct lz_db *, char *why, size_t len);
	/* NULL when the engine cannot tell (lz_db_data_version); others'
	 * commits read again when again, else as last read. */
	int		(*data_version)(struct lz_db *, uint64_t v[3], int again);

	/* The schema version (0: none), -1 on error; and setting it, in
	 * the migration's transaction. */
	int		(*version)(struct lz_db *);
	int		(*set_version)(struct lz_db *, int);
	/* Before migrations from version v: 0 or -1 with err. */
	int		(*premigrate)(struct lz_db *, int v, char *err,
			    size_t errlen);
	/* Inside a migration's transaction, before reading the version
	 * again: other processes migrating wait here.  0 or -1. */
	int		(*lock_schema)(struct lz_db *);
	/* After a migration's SQL, before its commit: 1 when the rows
	 * still match their foreign keys, 0 when not, -1 (NULL: the
	 * engine checks them itself).  After the migrations, whether they
	 * failed or not (NULL: nothing to do). */
	int		(*migrated)(struct lz_db *);
	void		(*postmigrate)(struct lz_db *);

	/* Makes s->e for s->sql; 0, or -1 with err (s->e stays NULL). */
	int		(*prepare)(struct lz_stmt *, char *err, size_t errlen);
	void		(*finalize)(struct lz_stmt *);
	/* Ready to step again; with clear, bindings cleared too. */
	void		(*reset)(struct lz_stmt *, int clear);
	/* 1: stepped but not to its end (holds a result or a lock). */
	int		(*busy)(struct lz_stmt *);
	/* Binds v to $n: 0, or -1 logged. */
	int		(*bind)(struct lz_stmt *, int n, const struct lz_val *);
	/* 1 row, 0 done (reset), -1 error (logged, reset). */
	int		(*step)(struct lz_stmt *);
	/* Rows changed by the statement that last ran to its end. */
	long long	(*changes)(struct lz_stmt *);

	int		(*col_null)(struct lz_stmt *, int);
	int64_t		(*col_i64)(struct lz_stmt *, int);
	double		(*col_double)(struct lz_stmt *, int);
	/* NULL for NULL; *len its bytes. */
	const char	*(*col_text)(struct lz_stmt *, int, size_t *len);
	/* NULL when empty or NULL; *len its bytes. */
	const void	*(*col_blob)(struct lz_stmt *, int, size_t *len);
	int		(*col_count)(struct lz_stmt *);
	/* What the column of the current row holds: an enum lz_vtype. */
	int		(*col_type)(struct lz_stmt *, int);

	/* One row of a bulk statement, kept back (NULL: the statement
	 * runs at once); and the rows kept back, sent.  0 or -1. */
	int		(*bulk_row)(struct lz_stmt *, const struct lz_val *,
			    size_t n);
	int		(*bulk_flush)(struct lz_db *);
};

/* Puts s on l unless *on says it is there, and marks it so: the
 * statements a request used (db.c), those with rows kept back (db_pg.c). */
void	lz_stmts_add(struct lz_stmts *l, struct lz_stmt *s, int *on);

extern const struct lz_dbops lz_db_sqlite;
/* NULL when built without libpq. */
extern const struct lz_dbops *const lz_db_pg;

#endif
