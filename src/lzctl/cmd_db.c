/*
 * cmd_db.c -- lzctl db copy: an instance's links database from SQLite to
 * PostgreSQL (DESIGN 7, lz-cluster(7)).
 *
 * Offline: the pools are stopped (a running lz-links is refused: what it
 * wrote after the copy began would be left behind).  The click journals
 * are moved into the SQLite database first; then every table is read in
 * one snapshot and written into the new database in one transaction, ids
 * and all, by COPY; the sequences are moved past the ids copied, and the
 * rows of every table are counted on both sides.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "lzctl.h"
#include "lztime.h"
#include "progress.h"
#include "store/copy.h"
#include "store/store.h"
#include "util.h"
#include "visit/journal.h"
#include "visit/mover.h"

struct copy {
	struct lz_db	*to;
	size_t		 table;
	long long	 done, total;
	int		 failed;
};

static void
copy_row(struct lz_stmt *st, void *arg)
{
	struct copy	*c = arg;
	struct lz_val	 v[LZ_SQL_PARAMS];
	int		 i, n = store_tables[c->table].ncols;

	if (c->failed)
		return;
	for (i = 0; i < n; i++)
		lz_col_val(st, i, &v[i]);
	if (store_table_put(c->to, c->table, v) == -1) {
		c->failed = 1;
		return;
	}
	c->done++;
	progress(store_tables[c->table].name, (uint64_t)c->done,
	    (uint64_t)c->total);
}

/* Moves the click journals of clicks_dir in: nothing is left behind in
 * files.  0 or -1. */
static int
collect_journals(struct lz_db *from)
{
	char	*dir, err[512];
	int	 rc = 0;

	dir = journal_dir(ctl_conf->clicks_dir, ctl_conf->links_db);
	if (access(dir, F_OK) == 0) {
		if (mover_open(from, dir, ctl_conf->host_id, err,
		    sizeof(err)) == -1) {
			ctl_err("%s", err);
			rc = -1;
		} else
			mover_close(from);
	}
	free(dir);
	return rc;
}

/* The new database: migrated to the newest schema and empty.  0, -1. */
static int
open_target(struct lz_db *to, const char *uri)
{
	char		 err[512];
	long long	 n;
	size_t		 t;
	int		 from, ver;

	if (lz_db_open(to, uri, 0, err, sizeof(err)) == -1 ||
	    lz_db_migrate(to, lz_links_migrations, lz_links_nmigrations,
	    &from, &ver, err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		return -1;
	}
	for (t = 0; t < STORE_TABLES; t++) {
		if ((n = store_table_count(to, t)) < 0)
			return -1;
		if (n > 0) {
			ctl_err("%s holds data (%lld rows in %s); copy into "
			    "an empty database", to->path, n,
			    store_tables[t].name);
			return -1;
		}
	}
	return 0;
}

/* Every table, in one transaction of to.  0 or -1. */
static int
copy_tables(struct lz_db *from, struct lz_db *to, long long *rows)
{
	struct copy	 c;
	size_t		 t;
	char		 line[96];

	memset(&c, 0, sizeof(c));
	c.to = to;
	if (lz_db_begin(to) == -1)
		return -1;
	for (t = 0; t < STORE_TABLES; t++) {
		c.table = t;
		c.done = 0;
		if ((c.total = rows[t] = store_table_count(from, t)) < 0 ||
		    store_table_each(from, t, copy_row, &c) < 0 || c.failed ||
		    lz_bulk_flush(to) == -1) {
			ctl_err("copying %s failed: %s", store_tables[t].name,
			    lz_db_error(c.failed ? to : from));
			goto fail;
		}
		snprintf(line, sizeof(line), "%s: %lld rows",
		    store_tables[t].name, c.done);
		progress_end(line);
		if (store_table_sequence(to, t) == -1)
			goto fail;
	}
	if (lz_db_commit(to) == -1) {
		ctl_err("committing the copy failed: %s", lz_db_error(to));
		goto fail;
	}
	return 0;
fail:
	lz_db_rollback(to);
	return -1;
}

/* The rows of every table counted again, in the copy; 0 or -1. */
static int
verify(struct lz_db *to, const long long *rows)
{
	long long	 n, total = 0;
	size_t		 t;
	int		 rc = 0;

	printf("%-20s %12s\n", "TABLE", "ROWS");
	for (t = 0; t < STORE_TABLES; t++) {
		n = store_table_count(to, t);
		printf("%-20s %12lld%s\n", store_tables[t].name, n,
		    n == rows[t] ? "" : "  MISMATCH");
		if (n != rows[t])
			rc = -1;
		total += n;
	}
	printf("%-20s %12lld\n", "(all)", total);
	return rc;
}

static int
db_copy(struct ctl_args *a)
{
	struct lz_db	 from, to;
	const char	*uri = a->opt[0].s;
	long long	 rows[STORE_TABLES];
	char		 err[512], *shown;
	int		 rc = 1;

	if (lz_db_is_uri(ctl_conf->links_db)) {
		ctl_err("links_db is a PostgreSQL database already; db copy "
		    "moves an SQLite one");
		return 1;
	}
	if (!lz_db_is_uri(uri)) {
		ctl_err("--to: expected a postgresql:// URI");
		return EXIT_USAGE;
	}
	if (ctl_socket_answers(ctl_conf->links_socket)) {
		ctl_err("lz-links answers on %s: stop the pools and lz-hooks "
		    "first (what they write meanwhile would not be copied)",
		    ctl_conf->links_socket);
		return 1;
	}
	if (store_open(&from, ctl_conf->links_db, err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		return 1;
	}
	memset(&to, 0, sizeof(to));
	if (collect_journals(&from) == -1 || open_target(&to, uri) == -1)
		goto out;
	/* One snapshot of the source for the copy and its count. */
	if (lz_db_begin_read(&from) != 1 ||
	    copy_tables(&from, &to, rows) == -1)
		goto out;
	if (verify(&to, rows) == -1) {
		ctl_err("the row counts differ: empty %s before trying again",
		    to.path);
		goto out;
	}
	shown = lz_db_display(uri);
	printf("copied %s to %s\nnow set links_db = %s in lz.conf (and "
	    "host_id on each host, lz-cluster(7)), keep the same key file %s "
	    "on every host, and start the pools\n", ctl_conf->links_db, shown,
	    shown, ctl_conf->key_file);
	free(shown);
	rc = 0;
out:
	lz_db_rollback(&from);
	lz_db_close(&from);
	lz_db_close(&to);
	return rc;
}

static const struct ctl_cmd db_cmds[] = {
	{ "copy", "--to URI", 0, 0, 0, db_copy,
	  { { .name = "to", .ch = 't', .type = CTL_STR, .required = 1 } } },
};

const struct ctl_group ctl_db = CTL_GROUP("db",
    "(SQLite to PostgreSQL, offline)", db_cmds);
