/*
 * journal.c -- the click journal files: this worker's (made, locked,
 * appended to, replaced when big) and the others of the directory as the
 * mover takes and removes them (journal.h).
 */
#include "config.h"

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "conf.h"
#include "db.h"
#include "log.h"
#include "store/clicks.h"
#include "util.h"
#include "visit/clickrec.h"
#include "visit/journal.h"

#define ROTATE_BYTES	(8 * 1024 * 1024)

static struct journal	 own = { -1, "", "", NULL, 0 };
static char		*jdir;
static char		 jprefix[LZ_HOST_ID_MAX + 2];	/* "host_id/" */

/* Names j after its file name. */
static void
name_journal(struct journal *j, const char *name)
{
	snprintf(j->name, sizeof(j->name), "%s", name);
	snprintf(j->key, sizeof(j->key), "%s%s", jprefix, name);
}

static int
is_journal_name(const char *s)
{
	size_t	 n = strlen(s);

	return s[0] == 'w' && n > 3 && n < JOURNAL_NAME_MAX &&
	    strcmp(s + n - 2, ".j") == 0 && strchr(s, '/') == NULL;
}

/* Creates and locks a new journal of this worker in j. */
static int
create(struct journal *j, char *err, size_t errlen)
{
	unsigned char	 rnd[8];
	char		 hex[sizeof(rnd) * 2 + 1];
	struct stat	 st;
	int		 tries, fd;

	for (tries = 0; tries < 8; tries++) {
		char	 name[JOURNAL_NAME_MAX];

		randombytes_buf(rnd, sizeof(rnd));
		sodium_bin2hex(hex, sizeof(hex), rnd, sizeof(rnd));
		snprintf(name, sizeof(name), "w%ld-%s.j", (long)getpid(),
		    hex);
		name_journal(j, name);
		free(j->path);
		j->path = xasprintf("%s/%s", jdir, j->name);
		fd = open(j->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC,
		    0640);
		if (fd == -1) {
			if (errno == EEXIST)
				continue;
			snprintf(err, errlen, "click journal %s: %s", j->path,
			    strerror(errno));
			return -1;
		}
		/*
		 * A mover may have taken the brand-new, unlocked, empty file
		 * for a dead worker's and removed it: then start over with
		 * another name.
		 */
		if (flock(fd, LOCK_EX | LOCK_NB) == -1 ||
		    fstat(fd, &st) == -1 || st.st_nlink == 0) {
			close(fd);
			continue;
		}
		j->fd = fd;
		j->size = 0;
		return 0;
	}
	snprintf(err, errlen, "click journal: cannot create a journal in %s",
	    jdir);
	return -1;
}

char *
journal_dir(const char *dir, const char *links_db)
{
	const char	*slash;

	if (dir != NULL && *dir != '\0')
		return xstrdup(dir);
	if (lz_db_is_uri(links_db))
		return xstrdup(LZ_LOCALSTATEDIR "/lib/lz/clicks");
	if ((slash = strrchr(links_db, '/')) == NULL)
		return xstrdup("clicks");
	return xasprintf("%.*s/clicks", (int)(slash - links_db), links_db);
}

int
journal_open(const char *dir, const char *host_id, char *err, size_t errlen)
{
	snprintf(jprefix, sizeof(jprefix), "%s%s", host_id ? host_id : "",
	    host_id && *host_id ? "/" : "");
	if (mkdir(dir, 0750) == -1 && errno != EEXIST) {
		snprintf(err, errlen, "click journal directory %s: %s", dir,
		    strerror(errno));
		return -1;
	}
	free(jdir);
	jdir = xstrdup(dir);
	return create(&own, err, errlen);
}

int
journal_in(const char *dir)
{
	return jdir != NULL && strcmp(dir, jdir) == 0;
}

struct journal *
journal_own(void)
{
	return &own;
}

int
journal_append(const struct click *c)
{
	_Alignas(8) unsigned char	 rec[CLICKREC_SIZE];
	static const unsigned char	 zero[CLICKREC_PAGE];
	uint32_t			 pad[2];
	struct iovec			 iov[3];
	size_t				 len, room, want;
	ssize_t				 n;
	int				 niov = 0;

	if (own.fd == -1)
		return -1;
	len = clickrec_pack_short(c, rec);
	/*
	 * No record crosses a page: i_size, which readers of a live journal
	 * go by, grows a page at a time within one write.  One that would
	 * goes on the next page, the rest of this one a pad.
	 */
	if ((room = clickrec_pad(own.size, len, pad)) > 0) {
		iov[niov].iov_base = pad;
		iov[niov++].iov_len = sizeof(pad);
		if (room > sizeof(pad)) {
			iov[niov].iov_base = (void *)(uintptr_t)zero;
			iov[niov++].iov_len = room - sizeof(pad);
		}
	}
	iov[niov].iov_base = rec;
	iov[niov++].iov_len = len;
	want = room + len;
	n = pwritev(own.fd, iov, niov, (off_t)own.size);
	if (n == (ssize_t)want) {
		own.size += n;
		return 0;
	}
	lz_log(LZ_LOG_ERR, "click journal %s: write: %s", own.path,
	    n < 0 ? strerror(errno) : "short write");
	/* Never leave half a record: the next one must start where this
	 * one did. */
	if (n > 0 && ftruncate(own.fd, (off_t)own.size) == -1)
		lz_log(LZ_LOG_ERR, "click journal %s: truncate: %s", own.path,
		    strerror(errno));
	return -1;
}

/*
 * Replaces this worker's journal by a new one once it is big.  The old
 * one is closed, not removed: with nobody holding its flock it is a
 * finished journal, which the next mover moves to its end and removes.
 */
void
journal_rotate(void)
{
	struct journal	 old;
	char		 err[256];

	if (own.fd == -1 || own.size < ROTATE_BYTES)
		return;
	old = own;
	own.path = NULL;
	if (create(&own, err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_WARN, "%s", err);
		free(own.path);
		own = old;
		return;
	}
	close(old.fd);
	free(old.path);
}

int
journal_each(int skip_own, void (*fn)(const char *name, void *arg),
    void *arg)
{
	struct dirent	*de;
	DIR		*d;

	if ((d = opendir(jdir)) == NULL) {
		lz_log(LZ_LOG_ERR, "click journals: %s: %s", jdir,
		    strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (!is_journal_name(de->d_name) ||
		    (skip_own && strcmp(de->d_name, own.name) == 0))
			continue;
		fn(de->d_name, arg);
	}
	closedir(d);
	return 0;
}

int
journal_take(struct journal *j, const char *name, int *dead)
{
	struct stat	 st;

	memset(j, 0, sizeof(*j));
	j->path = xasprintf("%s/%s", jdir, name);
	name_journal(j, name);
	if ((j->fd = open(j->path, O_RDONLY | O_CLOEXEC)) == -1) {
		journal_release(j);
		return -1;
	}
	*dead = flock(j->fd, LOCK_EX | LOCK_NB) == 0;
	/* Unlinked: retired just now (a worker's last move). */
	if (fstat(j->fd, &st) == -1 || st.st_nlink == 0) {
		journal_release(j);
		return -1;
	}
	/* A live worker's writes end at i_size only once complete (no
	 * record crosses a page); a dead one's may end in half a record. */
	j->size = st.st_size;
	return 0;
}

void
journal_release(struct journal *j)
{
	if (j->fd != -1)
		close(j->fd);
	j->fd = -1;
	free(j->path);
	j->path = NULL;
}

void
journal_retire(struct lz_db *db, struct journal *j)
{
	/* The file first: a position without its file is only clutter,
	 * but a file without its position would be moved again. */
	if (unlink(j->path) == -1 && errno != ENOENT)
		lz_log(LZ_LOG_WARN, "click journal %s: %s", j->path,
		    strerror(errno));
	else
		(void)store_journal_del(db, j->key);
	journal_release(j);
}

struct names {
	char	**v;
	size_t	  n;
};

static void
add_name(const char *name, void *arg)
{
	struct names	*ns = arg;

	ns->v = xreallocarray(ns->v, ns->n + 1, sizeof(*ns->v));
	ns->v[ns->n++] = xstrdup(name);
}

void
journal_forget_gone(struct lz_db *db)
{
	struct names	 ns = { NULL, 0 };
	struct stat	 st;
	char		*path;
	size_t		 i;

	if (store_journal_list(db, jprefix, add_name, &ns) >= 0)
		for (i = 0; i < ns.n; i++) {
			path = xasprintf("%s/%s", jdir, ns.v[i] +
			    strlen(jprefix));
			if (stat(path, &st) == -1 && errno == ENOENT)
				(void)store_journal_del(db, ns.v[i]);
			free(path);
		}
	lz_strlist_free(ns.v, ns.n);
}
