/*
 * store/audit.h -- the SQL of the audit log (auth/audit.h has the rules;
 * these are only the statements).
 */
#ifndef LZ_STORE_AUDIT_H
#define LZ_STORE_AUDIT_H

#include <stdint.h>

struct lz_db;

struct audit_entry {
	int64_t		 id, at;
	const char	*actor, *action, *target, *network;
};

/* Writes an entry.  0 or -1. */
int	store_audit_add(struct lz_db *, int64_t account_id, int64_t at,
	    const char *actor, const char *action, const char *target,
	    const char *network);
/* Calls fn for account_id's entries before id before (0: the newest),
 * newest first, at most limit; returns the entries or -1. */
long	store_audit_page(struct lz_db *, int64_t account_id, int64_t before,
	    long limit, void (*fn)(const struct audit_entry *, void *),
	    void *arg);
/* 1 when account_id saw a sign-in from network before, 0 not, -1. */
int	store_audit_seen(struct lz_db *, int64_t account_id,
	    const char *network);
/* Deletes at most limit entries older than before (store_purge's fn). */
long	store_audit_prune(struct lz_db *, int64_t before, long limit);

#endif
