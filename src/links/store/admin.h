/*
 * store/admin.h -- for admin tools only (lzctl, lz-hooks) and the store.
 *
 * The store functions that take an account id match only that account's
 * rows; 0 matches nothing, so a handler that forgot its credential check
 * touches no one's data.  ACCOUNT_ANY asks for any account's, and works
 * only in a process that declared itself an admin tool.
 */
#ifndef LZ_STORE_ADMIN_H
#define LZ_STORE_ADMIN_H

#include <stdint.h>

#define ACCOUNT_ANY	((int64_t)-1)

/* Declares this process an admin tool: ACCOUNT_ANY works from now on. */
void	store_admin(void);

#endif
