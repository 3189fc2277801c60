/*
 * cmd_ops.c -- lzctl backup, restore and check: what an admin runs
 * around upgrades and at 3 a.m.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <sqlite3.h>

#include "db.h"
#include "keyfile.h"
#include "links.h"
#include "lzctl.h"
#include "store.h"
#include "util.h"

/*
 * Copies src to dst with SQLite's online backup API: a consistent
 * snapshot even while the pools write.  All pages in one step: a copy in
 * steps starts over whenever another connection writes between two of
 * them, so under steady writes (a click batch a second) it never ended.
 * One step holds one read transaction for the time of the copy (the WAL
 * grows by what is written meanwhile, lz-links(8) "The WAL").
 */
static int
copy_db(const char *src, int srcflags, const char *dst, int dstflags)
{
	sqlite3		*from = NULL, *to = NULL;
	sqlite3_backup	*b;
	int		 rc;

	if ((rc = sqlite3_open_v2(src, &from, srcflags, NULL)) != SQLITE_OK) {
		ctl_err("%s: %s", src, from ? sqlite3_errmsg(from) :
		    sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(from, 10000);
	if ((rc = sqlite3_open_v2(dst, &to, dstflags, NULL)) != SQLITE_OK) {
		ctl_err("%s: %s", dst, to ? sqlite3_errmsg(to) :
		    sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(to, 10000);
	if ((b = sqlite3_backup_init(to, "main", from, "main")) == NULL) {
		ctl_err("backup: %s", sqlite3_errmsg(to));
		goto fail;
	}
	do {
		rc = sqlite3_backup_step(b, -1);
		if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
			sqlite3_sleep(20);
	} while (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED);
	sqlite3_backup_finish(b);
	if (rc != SQLITE_DONE) {
		ctl_err("backup %s -> %s: %s", src, dst, sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_close(from);
	sqlite3_close(to);
	return 0;
fail:
	sqlite3_close(from);
	sqlite3_close(to);
	return -1;
}

/* PRAGMA integrity_check of path; 0 ok, -1 not (printed). */
static int
integrity(const char *path, int *version)
{
	sqlite3		*h = NULL;
	sqlite3_stmt	*st;
	int		 ok = 0, rc;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK) {
		ctl_err("%s: %s", path, h ? sqlite3_errmsg(h) : "cannot open");
		sqlite3_close(h);
		return -1;
	}
	sqlite3_busy_timeout(h, 10000);
	if (sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, NULL) ==
	    SQLITE_OK) {
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			const char *m = (const char *)sqlite3_column_text(st,
			    0);

			if (m && strcmp(m, "ok") == 0)
				ok = 1;
			else
				printf("  %s\n", m ? m : "?");
		}
		sqlite3_finalize(st);
	}
	if (version && sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st,
	    NULL) == SQLITE_OK) {
		*version = sqlite3_step(st) == SQLITE_ROW ?
		    sqlite3_column_int(st, 0) : -1;
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return ok ? 0 : -1;
}

int
cmd_backup(int argc, char **argv)
{
	struct stat	 st;
	char		*tmp;
	int		 fd, version;

	if (argc != 2) {
		fprintf(stderr, "usage: lzctl backup FILE\n");
		return EXIT_USAGE;
	}
	if (stat(argv[1], &st) == 0) {
		ctl_err("%s exists; refusing to overwrite it", argv[1]);
		return 1;
	}
	/*
	 * Write next to the target, check, then rename: no half backups.
	 * The copy holds every secret of the database (hashes, sealed
	 * webhook secrets): it is made 0600 before its first byte, whatever
	 * the umask (SQLite gives its journal the same mode).
	 */
	tmp = xasprintf("%s.part", argv[1]);
	unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1) {
		ctl_err("%s: %s", tmp, strerror(errno));
		free(tmp);
		return 1;
	}
	close(fd);
	if (copy_db(ctl_conf->links_db, SQLITE_OPEN_READONLY, tmp,
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) == -1 ||
	    integrity(tmp, &version) == -1) {
		unlink(tmp);
		free(tmp);
		return 1;
	}
	if (rename(tmp, argv[1]) == -1) {
		ctl_err("rename %s: %s", argv[1], strerror(errno));
		unlink(tmp);
		free(tmp);
		return 1;
	}
	free(tmp);
	printf("backed up %s (schema version %d) to %s\n"
	    "keep the key file %s with it, separately and safely: webhook "
	    "secrets cannot be read without it\n", ctl_conf->links_db,
	    version, argv[1], ctl_conf->key_file);
	return 0;
}

int
cmd_restore(int argc, char **argv)
{
	int	 version, from, to;
	char	 err[512];

	if (argc != 2) {
		fprintf(stderr, "usage: lzctl restore FILE\n");
		return EXIT_USAGE;
	}
	if (integrity(argv[1], &version) == -1) {
		ctl_err("%s is damaged or not a database; nothing restored",
		    argv[1]);
		return 1;
	}
	if (version < 1 || version > lz_links_migrations[
	    lz_links_nmigrations - 1].version) {
		ctl_err("%s has schema version %d; this lzctl handles 1 to %d",
		    argv[1], version,
		    lz_links_migrations[lz_links_nmigrations - 1].version);
		return 1;
	}
	/* The backup API copies into the live database under its write
	 * lock; running workers see the restored data at their next
	 * transaction. */
	if (copy_db(argv[1], SQLITE_OPEN_READONLY, ctl_conf->links_db,
	    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) == -1)
		return 1;
	if (lz_db_open(&links.db, ctl_conf->links_db, 0, err,
	    sizeof(err)) == -1 || lz_db_migrate(&links.db, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		return 1;
	}
	printf("restored %s into %s (schema version %d%s)\n", argv[1],
	    ctl_conf->links_db, version, from != to ? ", migrated" : "");
	return 0;
}

/* ---- check ------------------------------------------------------------ */

static int	 problems;

static void
verdict(int ok, const char *what, const char *detail)
{
	printf("%-5s %s%s%s\n", ok ? "ok" : "FAIL", what, detail ? ": " : "",
	    detail ? detail : "");
	if (!ok)
		problems++;
}

static int
socket_answers(const char *path)
{
	struct sockaddr_un	 sun;
	int			 fd, ok;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		return 0;
	strcpy(sun.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return 0;
	ok = connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0;
	close(fd);
	return ok;
}

static size_t
discard(void *p, size_t size, size_t n, void *arg)
{
	(void)p;
	(void)arg;
	return size * n;
}

/* GETs url; returns the status, 0 on a transport error (err filled). */
static long
http_status(const char *url, char *ctype, size_t ctlen, char *err)
{
	CURL	*c;
	char	*ct = NULL;
	long	 status = 0;

	if ((c = curl_easy_init()) == NULL)
		return 0;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 5L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	err[0] = '\0';
	if (curl_easy_perform(c) == CURLE_OK) {
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
		if (curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &ct) ==
		    CURLE_OK && ct)
			snprintf(ctype, ctlen, "%s", ct);
	}
	curl_easy_cleanup(c);
	return status;
}

int
cmd_check(int argc, char **argv)
{
	unsigned char	 key[LZ_KEY_BYTES];
	struct lz_db	 db;
	struct stat	 st;
	char		 err[CURL_ERROR_SIZE + 512], ctype[128] = "", *url;
	int		 version;
	long		 status;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: lzctl check\n");
		return EXIT_USAGE;
	}
	verdict(1, "configuration", ctl_conf->path);
	if (lz_keyfile_load(ctl_conf->key_file, key, err, sizeof(err)) == 0)
		verdict(1, "key file", ctl_conf->key_file);
	else
		verdict(0, "key file", err);

	if (integrity(ctl_conf->links_db, &version) == 0)
		verdict(1, "links database integrity", ctl_conf->links_db);
	else
		verdict(0, "links database integrity", ctl_conf->links_db);
	err[0] = '\0';
	if (lz_db_open(&db, ctl_conf->links_db, LZ_DB_RO, err,
	    sizeof(err)) == 0) {
		verdict(lz_db_check_version(&db, lz_links_migrations,
		    lz_links_nmigrations, err, sizeof(err)) == 0,
		    "links database schema", err[0] ? err : "current");
		lz_db_close(&db);
	} else
		verdict(0, "links database schema", err);
	if (stat(ctl_conf->prompts_db, &st) == 0)
		verdict(integrity(ctl_conf->prompts_db, NULL) == 0,
		    "prompts database integrity", ctl_conf->prompts_db);

	verdict(socket_answers(ctl_conf->links_socket), "lz-links socket",
	    ctl_conf->links_socket);
	if (stat(ctl_conf->prompts_socket, &st) == 0)
		verdict(socket_answers(ctl_conf->prompts_socket),
		    "lz-prompts socket", ctl_conf->prompts_socket);

	/* Through nginx: an API call without a key must be lz-links' 401. */
	url = xasprintf("%s/api/v1/links", ctl_conf->base_url);
	status = http_status(url, ctype, sizeof(ctype), err);
	if (status == 401 && strncmp(ctype, "application/json", 16) == 0)
		verdict(1, "nginx reaches lz-links", url);
	else {
		char	 detail[1024];

		snprintf(detail, sizeof(detail), "%s: %s", url, status ?
		    "unexpected answer (is nginx's server block for base_url "
		    "in place?)" : err);
		verdict(0, "nginx reaches lz-links", detail);
	}
	free(url);
	printf("%s\n", problems ? "problems found" : "all checks passed");
	return problems ? 1 : 0;
}
