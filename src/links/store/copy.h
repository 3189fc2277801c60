/*
 * store/copy.h -- the links database table by table, for lzctl db copy
 * (DESIGN 7): every table but click_journals and the scopes' sums (made
 * again by triggers), parents first, read whole
 * from one database and written as bulk rows (COPY) into another, ids
 * and all.
 */
#ifndef LZ_STORE_COPY_H
#define LZ_STORE_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

/* A table as lzctl db copy copies it; its statements are made of this
 * row (copy.c). */
struct store_table {
	const char	*name;
	int		 ncols;		/* the columns of cols */
	const char	*cols;		/* every column at the newest schema */
	const char	*key;		/* the primary key: the order read in */
	int		 ids;		/* ids from a sequence on PostgreSQL */
};

#define STORE_TABLES	25

/* In copy order, parents before the tables that refer to them, then
 * { NULL }. */
extern const struct store_table store_tables[];

/* The rows of table t, or -1. */
long long store_table_count(struct lz_db *, size_t t);
/* Calls fn for each row of table t (its columns as store_tables[t]
 * says, in order); the rows or -1. */
long	store_table_each(struct lz_db *, size_t t,
	    void (*fn)(struct lz_stmt *, void *), void *arg);
/* Writes one row of table t (v[] as many as its columns) as a bulk row
 * of the caller's transaction.  0 or -1. */
int	store_table_put(struct lz_db *, size_t t, const struct lz_val *v);
/* After a copy: the next id of table t's sequence (PostgreSQL) is past
 * the ids copied.  0 or -1. */
int	store_table_sequence(struct lz_db *, size_t t);

#endif
