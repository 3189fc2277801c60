/*
 * data.c -- the prompt library database of a worker, and its swap.
 *
 * "lzctl prompts import" writes a whole new database next to prompts_db
 * and renames it over the old one.  A worker stats the path before each
 * request (and once a second when idle); when the file there is not the
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

#include "log.h"
#include "prompts.h"
#include "store.h"

static dev_t	 open_dev;
static ino_t	 open_ino;
/* The last file that failed to open, so its error is logged once. */
static dev_t	 bad_dev;
static ino_t	 bad_ino;
static int	 warned_missing;

void
data_close(void)
{
	if (prompts.db_open) {
		lz_db_close(&prompts.db);
		prompts.db_open = 0;
	}
}

/* Opens the file now at prompts_db if it is not the open one. */
static void
data_refresh(void)
{
	struct lz_db	 db;
	struct stat	 st, st2;
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
		if (prompts.db_open && st.st_dev == open_dev &&
		    st.st_ino == open_ino)
			return;
		/* A worker serves the file at the path or nothing, so all
		 * workers agree; a file it cannot use is logged once. */
		if (st.st_dev == bad_dev && st.st_ino == bad_ino) {
			data_close();
			return;
		}
		if (pstore_open(&db, prompts.conf->prompts_db, err,
		    sizeof(err)) == -1) {
			lz_log(LZ_LOG_ERR, "%s; answering 503 until \"lzctl "
			    "prompts import\" replaces it", err);
			bad_dev = st.st_dev;
			bad_ino = st.st_ino;
			data_close();
			return;
		}
		/* Renamed again between stat and open?  Then the handle may
		 * be of either file: try once more. */
		if (stat(prompts.conf->prompts_db, &st2) == 0 &&
		    st2.st_dev == st.st_dev && st2.st_ino == st.st_ino) {
			data_close();
			prompts.db = db;
			prompts.db_open = 1;
			open_dev = st.st_dev;
			open_ino = st.st_ino;
			lz_log(LZ_LOG_INFO, "opened %s (inode %llu)",
			    prompts.conf->prompts_db,
			    (unsigned long long)st.st_ino);
			return;
		}
		lz_db_close(&db);
	}
}

int
data_ready(void)
{
	data_refresh();
	return prompts.db_open ? 0 : -1;
}
