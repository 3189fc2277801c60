/*
 * cmd_ops.c -- lzctl init, migrate, backup, restore and check: what an
 * admin runs at installation, around upgrades and at 3 a.m.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "db.h"
#include "keyfile.h"
#include "lzctl.h"
#include "progress.h"
#include "store/store.h"
#include "util.h"
#include "visit/journal.h"

/* mkdir -p of the directory holding path. */
static int
mkdir_parent(const char *path)
{
	char	*dup, *dir, *p;
	int	 rc = 0;

	dup = xstrdup(path);
	dir = dirname(dup);
	for (p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char	 save = *p;

			*p = '\0';
			if (mkdir(dir, 0750) == -1 && errno != EEXIST) {
				ctl_err("mkdir %s: %s", dir, strerror(errno));
				rc = -1;
				break;
			}
			*p = save;
			if (save == '\0')
				break;
		}
	}
	free(dup);
	return rc;
}

static void
chown_db(const char *path)
{
	char	*p;

	ctl_chown_to_user(path);
	p = xasprintf("%s-wal", path);
	ctl_chown_to_user(p);
	free(p);
	p = xasprintf("%s-shm", path);
	ctl_chown_to_user(p);
	free(p);
}

/*
 * On PostgreSQL the host's own files are its click journals: their
 * directory is made, and given to the user with the one above it (as
 * SQLite's database directory is).  0 or -1.
 */
static int
make_journal_dir(void)
{
	char	*dir, *sub, *dup;
	int	 rc = 0;

	dir = journal_dir(ctl_conf->clicks_dir, ctl_conf->links_db);
	sub = xasprintf("%s/.", dir);
	if (mkdir_parent(sub) == -1)
		rc = -1;
	else {
		ctl_chown_to_user(dir);
		dup = xstrdup(dir);
		ctl_chown_to_user(dirname(dup));
		free(dup);
	}
	free(sub);
	free(dir);
	return rc;
}

static int
migrate_links(int create)
{
	struct lz_db	 db;
	char		 err[512], *dup;
	int		 from, to;

	/* A server's database is made by its administrator (createdb). */
	if (lz_db_is_uri(ctl_conf->links_db)) {
		if (create && make_journal_dir() == -1)
			return 1;
		create = 0;
	}
	if (create && mkdir_parent(ctl_conf->links_db) == -1)
		return 1;
	if (lz_db_open(&db, ctl_conf->links_db, create ? LZ_DB_CREATE : 0,
	    err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		return 1;
	}
	if (lz_db_migrate(&db, lz_links_migrations, lz_links_nmigrations,
	    &from, &to, err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		lz_db_close(&db);
		return 1;
	}
	lz_db_close(&db);
	if (create) {
		dup = xstrdup(ctl_conf->links_db);
		ctl_chown_to_user(dirname(dup));
		free(dup);
		chown_db(ctl_conf->links_db);
	}
	dup = lz_db_display(ctl_conf->links_db);
	if (from == to)
		printf("links database %s: schema version %d, up to date\n",
		    dup, to);
	else
		printf("links database %s: schema version %d -> %d\n", dup,
		    from, to);
	free(dup);
	return 0;
}

static int
cmd_init(struct ctl_args *a)
{
	char	 err[512];
	int	 rc;

	(void)a;
	if (mkdir_parent(ctl_conf->key_file) == -1)
		return 1;
	if ((rc = lz_keyfile_create(ctl_conf->key_file, err, sizeof(err))) ==
	    -1) {
		ctl_err("%s", err);
		return 1;
	}
	ctl_chown_to_user(ctl_conf->key_file);
	printf("key file %s: %s\n", ctl_conf->key_file, rc ? "created" :
	    "exists");
	return migrate_links(1);
}

static int
cmd_migrate(struct ctl_args *a)
{
	(void)a;
	return migrate_links(0);
}

/* PRAGMA integrity_check of path; 0 ok, -1 not (printed). */
static int
integrity(const char *path, int *version)
{
	char	 err[512];

	if (lz_db_integrity(path, version, stdout, err, sizeof(err)) == 0)
		return 0;
	if (*err != '\0')
		ctl_err("%s", err);
	return -1;
}

/* lz_db_copy, with a progress line (what: "backing up"), its failure
 * told. */
static int
copy_db(const char *what, const char *src, const char *dst)
{
	struct stat	 st;
	char		 err[512];
	int		 rc;

	progress_reads(what, stat(src, &st) == 0 ? (uint64_t)st.st_size : 0);
	rc = lz_db_copy(src, dst, 1, err, sizeof(err));
	progress_end(rc == 0 ? "copied" : "copy failed");
	if (rc == 0)
		return 0;
	ctl_err("%s", err);
	return -1;
}

/*
 * Backups and restores of a PostgreSQL database are its tools' (pg_dump,
 * pg_restore: consistent snapshots while the hosts write): this says
 * how, and is 1.
 */
static int
on_server(const char *what)
{
	char	*db = lz_db_display(ctl_conf->links_db);

	ctl_err("the links database is on PostgreSQL (%s): %s (lz-cluster(7))",
	    db, what);
	free(db);
	return 1;
}

static int
cmd_backup(struct ctl_args *a)
{
	struct stat	 st;
	const char	*file = a->argv[0];
	char		*tmp;
	int		 fd, version;

	if (lz_db_is_uri(ctl_conf->links_db))
		return on_server("back it up with pg_dump, e.g. "
		    "pg_dump -Fc -f FILE 'URI', and keep the key file with it");
	if (stat(file, &st) == 0) {
		ctl_err("%s exists; refusing to overwrite it", file);
		return 1;
	}
	/*
	 * Write next to the target, check, then rename: no half backups.
	 * The copy holds every secret of the database (hashes, sealed
	 * webhook secrets): it is made 0600 before its first byte, whatever
	 * the umask (SQLite gives its journal the same mode).
	 */
	tmp = xasprintf("%s.part", file);
	unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1) {
		ctl_err("%s: %s", tmp, strerror(errno));
		free(tmp);
		return 1;
	}
	close(fd);
	if (copy_db("backing up", ctl_conf->links_db, tmp) == -1 ||
	    integrity(tmp, &version) == -1) {
		unlink(tmp);
		free(tmp);
		return 1;
	}
	if (rename(tmp, file) == -1) {
		ctl_err("rename %s: %s", file, strerror(errno));
		unlink(tmp);
		free(tmp);
		return 1;
	}
	free(tmp);
	printf("backed up %s (schema version %d) to %s\n"
	    "keep the key file %s with it, separately and safely: webhook "
	    "secrets cannot be read without it\n", ctl_conf->links_db,
	    version, file, ctl_conf->key_file);
	return 0;
}

static int
cmd_restore(struct ctl_args *a)
{
	const char	*file = a->argv[0];
	int		 version, from, to;
	char		 err[512];

	if (lz_db_is_uri(ctl_conf->links_db))
		return on_server("restore a pg_dump with pg_restore, e.g. "
		    "pg_restore --clean -d 'URI' FILE, with the hosts stopped");
	if (integrity(file, &version) == -1) {
		ctl_err("%s is damaged or not a database; nothing restored",
		    file);
		return 1;
	}
	if (version < 1 || version > lz_links_migrations[
	    lz_links_nmigrations - 1].version) {
		ctl_err("%s has schema version %d; this lzctl handles 1 to %d",
		    file, version,
		    lz_links_migrations[lz_links_nmigrations - 1].version);
		return 1;
	}
	/* The backup API copies into the live database under its write
	 * lock; running workers see the restored data at their next
	 * transaction. */
	if (copy_db("restoring", file, ctl_conf->links_db) == -1)
		return 1;
	if (lz_db_open(&ctl_links_db, ctl_conf->links_db, 0, err,
	    sizeof(err)) == -1 || lz_db_migrate(&ctl_links_db, lz_links_migrations,
	    lz_links_nmigrations, &from, &to, err, sizeof(err)) == -1) {
		ctl_err("%s", err);
		return 1;
	}
	printf("restored %s into %s (schema version %d%s)\n", file,
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
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, lz_discard);
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

static int
cmd_check(struct ctl_args *a)
{
	unsigned char	 key[LZ_KEY_BYTES];
	struct lz_db	 db;
	struct stat	 st;
	char		 err[CURL_ERROR_SIZE + 512], ctype[128] = "", *url;
	char		*shown;
	int		 version;
	long		 status;

	(void)a;
	verdict(1, "configuration", ctl_conf->path);
	if (lz_keyfile_load(ctl_conf->key_file, key, err, sizeof(err)) == 0)
		verdict(1, "key file", ctl_conf->key_file);
	else
		verdict(0, "key file", err);

	/* A server's database: the connection, where SQLite's file has its
	 * integrity check (a server checks its own pages). */
	shown = lz_db_display(ctl_conf->links_db);
	if (lz_db_is_uri(ctl_conf->links_db))
		;
	else if (integrity(ctl_conf->links_db, &version) == 0)
		verdict(1, "links database integrity", shown);
	else
		verdict(0, "links database integrity", shown);
	err[0] = '\0';
	if (lz_db_open(&db, ctl_conf->links_db, LZ_DB_RO, err,
	    sizeof(err)) == 0) {
		if (lz_db_is_uri(ctl_conf->links_db))
			verdict(1, "links database connection", shown);
		verdict(lz_db_check_version(&db, lz_links_migrations,
		    lz_links_nmigrations, err, sizeof(err)) == 0,
		    "links database schema", err[0] ? err : "current");
		lz_db_close(&db);
	} else
		verdict(0, lz_db_is_uri(ctl_conf->links_db) ?
		    "links database connection" : "links database schema",
		    err);
	free(shown);
	if (stat(ctl_conf->prompts_db, &st) == 0)
		verdict(integrity(ctl_conf->prompts_db, NULL) == 0,
		    "prompts database integrity", ctl_conf->prompts_db);

	verdict(ctl_socket_answers(ctl_conf->links_socket), "lz-links socket",
	    ctl_conf->links_socket);
	if (stat(ctl_conf->prompts_socket, &st) == 0)
		verdict(ctl_socket_answers(ctl_conf->prompts_socket),
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

static const struct ctl_cmd init_cmd[] = {
	{ NULL, "", 0, 0, 0, cmd_init, { { 0 } } },
};
static const struct ctl_cmd migrate_cmd[] = {
	{ NULL, "", 0, 0, 0, cmd_migrate, { { 0 } } },
};
static const struct ctl_cmd backup_cmd[] = {
	{ NULL, "FILE", 1, 1, 0, cmd_backup, { { 0 } } },
};
static const struct ctl_cmd restore_cmd[] = {
	{ NULL, "FILE", 1, 1, 0, cmd_restore, { { 0 } } },
};
static const struct ctl_cmd check_cmd[] = {
	{ NULL, "", 0, 0, 0, cmd_check, { { 0 } } },
};

const struct ctl_group ctl_init = CTL_GROUP("init",
    "create the key file and databases", init_cmd);
const struct ctl_group ctl_migrate = CTL_GROUP("migrate",
    "upgrade the databases in place", migrate_cmd);
const struct ctl_group ctl_backup = CTL_GROUP("backup",
    "copy the links database, online", backup_cmd);
const struct ctl_group ctl_restore = CTL_GROUP("restore",
    "put a backup back", restore_cmd);
const struct ctl_group ctl_check = CTL_GROUP("check",
    "integrity, config, sockets, nginx", check_cmd);
