/*
 * tdb.h -- a throw-away links database for the Check suites: a real
 * SQLite file in a temporary directory, migrated to the newest schema,
 * with the statements of store.c prepared.
 */
#ifndef LZ_TDB_H
#define LZ_TDB_H

#include <stdint.h>

#include <sqlite3.h>

#include "db.h"

struct tdb {
	char		 dir[64];
	char		 path[128];
	struct lz_db	 db;
};

/* Creates and opens it; aborts the test on failure. */
void	tdb_open(struct tdb *);
/* Closes it and removes its files. */
void	tdb_close(struct tdb *);
/* A new account; returns its id. */
int64_t	tdb_account(struct tdb *, const char *email);
/* A new simple link of account to target; returns its id. */
int64_t	tdb_link(struct tdb *, int64_t account, const char *slug,
	    const char *target, int64_t now);

/* Runs sql on h; aborts the test when it fails. */
void	tdb_exec(sqlite3 *h, const char *sql);
/* The first column of sql's first row on h; aborts the test without one. */
int64_t	tdb_q1(sqlite3 *h, const char *sql);

#endif
