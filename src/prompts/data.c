/*
 * data.c -- the prompt library database of a worker, and its swap.
 *
 * "lzctl prompts import" writes a whole new database next to prompts_db,
 * renames it over the old one and increments the import counter
 * (datagen.c).  A worker stats the path when the counter moved since its
 * last look, and at least once a second; when the file there is not the
 * one it has open, it opens the new one and closes the old.  A request
 * never sees the swap half-way: it runs on the handle it started with,
 * and a file renamed away stays readable through the open handle.
 * Without a usable file at the path the data is unavailable: 503 until
 * one appears (a worker never keeps serving a file that was replaced by
 * one it cannot read, so all workers answer alike).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <string.h>

#include "datagen.h"
#include "log.h"
#include "lztime.h"
#include "prompts.h"
#include "pstore.h"

/*
 * A file is known by device, inode and change time: a file made later may
 * get the inode number of one deleted before (a replacement reusing the
 * inode of a file that failed to open would never be tried otherwise),
 * but its ctime differs.
 */
struct fileid {
	dev_t		 dev;
	ino_t		 ino;
	struct timespec	 ctim;
};

static struct fileid	 open_id;
/* The last file that failed to open, so its error is logged once. */
static struct fileid	 bad_id;
static int		 warned_missing;

static void
fileid_of(const struct stat *st, struct fileid *id)
{
	id->dev = st->st_dev;
	id->ino = st->st_ino;
	id->ctim = st->st_ctim;
}

static int
fileid_is(const struct stat *st, const struct fileid *id)
{
	return st->st_dev == id->dev && st->st_ino == id->ino &&
	    st->st_ctim.tv_sec == id->ctim.tv_sec &&
	    st->st_ctim.tv_nsec == id->ctim.tv_nsec;
}

void
data_close(void)
{
	if (prompts.db_open) {
		lz_db_close(&prompts.db);
		prompts.db_open = 0;
		out_uncache();
	}
}

/* Opens the file now at prompts_db if it is not the open one. */
static void
data_refresh(void)
{
	struct lz_db	 db;
	struct stat	 st, st2;
	struct fileid	 id;
	char		 err[512];
	int		 tries;

	for (tries = 0; tries < 3; tries++) {
		if (stat(prompts.conf->prompts_db, &st) == -1) {
			if (!warned_missing) {
				lz_log(LZ_LOG_WARN, "%s: %s; answering 503 "
				    "until \"lzctl prompts import\" makes it",
				    prompts.conf->prompts_db, strerror(errno));
				warned_missing = 1;
			}
			data_close();
			return;
		}
		warned_missing = 0;
		if (prompts.db_open && fileid_is(&st, &open_id))
			return;
		/* A worker serves the file at the path or nothing, so all
		 * workers agree; a file it cannot use is logged once. */
		if (fileid_is(&st, &bad_id)) {
			data_close();
			return;
		}
		if (pstore_open(&db, prompts.conf->prompts_db, err,
		    sizeof(err)) == -1) {
			lz_log(LZ_LOG_ERR, "%s; answering 503 until \"lzctl "
			    "prompts import\" replaces it", err);
			fileid_of(&st, &bad_id);
			data_close();
			return;
		}
		/* Renamed again between stat and open?  Then the handle may
		 * be of either file: try once more. */
		fileid_of(&st, &id);
		if (stat(prompts.conf->prompts_db, &st2) == 0 &&
		    fileid_is(&st2, &id)) {
			data_close();	/* and the answers of the old file */
			prompts.db = db;
			prompts.db_open = 1;
			open_id = id;
			lz_log(LZ_LOG_INFO, "opened %s (inode %llu)",
			    prompts.conf->prompts_db,
			    (unsigned long long)st.st_ino);
			return;
		}
		lz_db_close(&db);
	}
}

/*
 * 0 when there is data to answer from.  The counter is read before the
 * stat, so an import that ends after the stat moves it again and the
 * next request looks once more.
 */
int
data_ready(void)
{
	static const volatile uint64_t	*gen;
	static uint64_t			 seen;
	static int64_t			 next_look;
	int64_t				 now = lz_mono_us();

	if (prompts.db_open && gen != NULL && *gen == seen &&
	    now < next_look)
		return 0;
	if (gen == NULL)
		gen = datagen_map(prompts.conf->prompts_db);
	if (gen != NULL)
		seen = __atomic_load_n(gen, __ATOMIC_SEQ_CST);
	next_look = now + 1000000;
	data_refresh();
	return prompts.db_open ? 0 : -1;
}
