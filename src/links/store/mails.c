/*
 * store/mails.c -- the SQL of the mail outbox (store/mails.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "store/mails.h"
#include "store/store.h"
#include "util.h"

#include "mails.sql.h"

struct lz_sqlset store_mails_sql = LZ_SQLSET("mails", sql);
static struct lz_sqlset *const set = &store_mails_sql;

void
store_mail_item_free(struct mail_item *it)
{
	free(it->rcpt);
	free(it->subject);
	free(it->box);
	memset(it, 0, sizeof(*it));
}

int64_t
store_mail_add(struct lz_db *db, int64_t account_id, int64_t invitation_id,
    const char *rcpt, const char *subject, const unsigned char *box,
    size_t boxlen, int64_t expires_at, int64_t now)
{
	return lz_run_id(LZ_STMT(db, set, ST_MAIL_ADD, LZ_I64(account_id),
	    LZ_I64_IF(invitation_id != 0, invitation_id), LZ_TEXT(rcpt),
	    LZ_TEXT(subject), LZ_BLOB(box, boxlen), LZ_I64(now),
	    LZ_I64(expires_at), LZ_I64(now)));
}

static void
row_mail(struct lz_stmt *st, void *arg)
{
	struct mail_item	*it = arg;
	const void		*box;

	it->id = lz_col_i64(st, 0);
	it->rcpt = xstrdup(lz_col_text(st, 1));
	it->subject = xstrdup(lz_col_text(st, 2));
	if ((box = lz_col_blob(st, 3, &it->boxlen)) != NULL) {
		it->box = xmalloc(it->boxlen);
		memcpy(it->box, box, it->boxlen);
	} else
		it->boxlen = 0;
	it->attempts = lz_col_int(st, 4);
}

int
store_mail_claim(struct lz_db *db, const char *lease, int64_t until,
    int64_t now, struct mail_item *it)
{
	long	 n;

	memset(it, 0, sizeof(*it));
	n = lz_each(LZ_STMT(db, set, ST_MAIL_CLAIM, LZ_I64(now),
	    LZ_I64(until), LZ_TEXT(lease)), row_mail, it);
	if (n == -1)
		store_mail_item_free(it);
	return n > 0 ? 1 : (int)n;
}

int
store_mail_sent(struct lz_db *db, int64_t id, int64_t now)
{
	return lz_run_changed(LZ_STMT(db, set, ST_MAIL_SENT, LZ_I64(id),
	    LZ_I64(now)));
}

int
store_mail_failed(struct lz_db *db, int64_t id, const char *lease,
    const char *error, int64_t next_at, int64_t now)
{
	if (next_at != 0)
		return lz_run_changed(LZ_STMT(db, set, ST_MAIL_RETRY,
		    LZ_I64(id), LZ_TEXT(lease), LZ_I64(next_at),
		    LZ_TEXT(error)));
	return lz_run_changed(LZ_STMT(db, set, ST_MAIL_GIVE_UP, LZ_I64(id),
	    LZ_TEXT(lease), LZ_TEXT(error), LZ_I64(now)));
}

long
store_mail_expire(struct lz_db *db, int64_t now)
{
	return (long)lz_run(LZ_STMT(db, set, ST_MAIL_EXPIRE, LZ_I64(now)));
}

long
store_mail_purge(struct lz_db *db, int64_t before, long limit)
{
	return store_purge_rows(db, set, ST_MAIL_PURGE, before, limit);
}
