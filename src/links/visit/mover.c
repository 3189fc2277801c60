/*
 * mover.c -- the click mover: journals read in chunks and moved into the
 * database in batch transactions, on a thread of its own (mover.h).
 */
#include "config.h"

#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "link/link.h"
#include "log.h"
#include "lztime.h"
#include "store/clicks.h"
#include "store/links.h"
#include "store/store.h"
#include "store/wal.h"
#include "util.h"
#include "visit/click.h"
#include "visit/clickrec.h"
#include "visit/journal.h"
#include "visit/mover.h"
#include "visit/record.h"
#include "visit/target.h"

#define BATCH		1024		/* records read at once */
#define CHUNK_BYTES	(BATCH * CLICKREC_SIZE)	/* the most that holds */
#define CHUNKS_PG	16		/* BATCHes per transaction on
					   PostgreSQL (move) */
#define LOCK_NAME	"mover.lock"
#define MOVE_EVERY_MS	20		/* between moves, all workers */
#define MOVE_IDLE_MS	1000		/* a mover's wait after moving none */

static int		 lockfd = -1;	/* the mover's lock */
static unsigned char	*raw;		/* CHUNK_BYTES as read */
static unsigned char	*batch;		/* BATCH records, whole */
static struct click	*clicks;	/* those of them that check out */
/* The WAL policy of whichever thread moves: the mover thread while it
 * runs, else the worker's thread (never both: see mover_tick). */
static struct store_wal	 wal = STORE_WAL_INIT;
static int		 wal_hot;	/* the WAL grows: come back soon */

/* Told of each move (mover_on_move). */
static struct {
	void	(*fn)(long, void *);
	void	 *arg;
} on_move;

/* Chores: other writes kept off the request path (mover_chore). */
#define CHORES	4
static struct chore {
	void	(*fn)(struct lz_db *, void *);
	void	 *arg;
	int64_t	  every_ms;
	int64_t	  next_ms;	/* lz_mono_us() / 1000 of its next run */
} chores[CHORES];
static size_t		 nchores;

/* Runs the chores due, on db. */
static void
do_chores(struct lz_db *db)
{
	int64_t	 now = lz_mono_us() / 1000;
	size_t	 i;

	for (i = 0; i < nchores; i++)
		if (now >= chores[i].next_ms) {
			chores[i].next_ms = now + chores[i].every_ms;
			chores[i].fn(db, chores[i].arg);
			lz_db_reset_all(db);
		}
}

void
mover_chore(void (*fn)(struct lz_db *, void *), void *arg, int every_ms)
{
	if (nchores == CHORES)
		abort();	/* a programming error: raise CHORES */
	chores[nchores].fn = fn;
	chores[nchores].arg = arg;
	chores[nchores].every_ms = every_ms;
	chores[nchores].next_ms = lz_mono_us() / 1000 + every_ms;
	nchores++;
}

/* The mover thread, when running, and how to stop it. */
static pthread_t	 mover;
static int		 mover_on;
static int		 mover_stop[2] = { -1, -1 };
static struct lz_db	 mover_db;

/*
 * The links of a batch's clicks, read in one statement (a round trip to
 * a server per link would cap the mover), sorted by id.
 */
struct batch_links {
	struct link	*v;
	size_t		 n;
};

static void
add_link(struct link *l, void *arg)
{
	struct batch_links	*bl = arg;

	bl->v[bl->n] = *l;
	memset(l, 0, sizeof(*l));	/* taken over */
	bl->n++;
}

static int
by_id(const void *a, const void *b)
{
	const struct link	*x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int
cmp_i64(const void *a, const void *b)
{
	const int64_t	*x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* Reads the links of c[0..n) into bl.  0 or -1. */
static int
batch_links(struct lz_db *db, const struct click *c, size_t n,
    struct batch_links *bl)
{
	int64_t	*ids;
	size_t	 i, k;
	long	 rc;

	memset(bl, 0, sizeof(*bl));
	if (n == 0)
		return 0;
	ids = xreallocarray(NULL, n, sizeof(*ids));
	for (i = 0; i < n; i++)
		ids[i] = c[i].link_id;
	qsort(ids, n, sizeof(*ids), cmp_i64);
	for (i = k = 0; i < n; i++)
		if (k == 0 || ids[k - 1] != ids[i])
			ids[k++] = ids[i];
	bl->v = xcalloc(k, sizeof(*bl->v));
	/* At most k rows: one per id. */
	rc = store_link_by_ids(db, ids, k, add_link, bl);
	free(ids);
	qsort(bl->v, bl->n, sizeof(*bl->v), by_id);
	return rc < 0 ? -1 : 0;
}

static void
batch_links_free(struct batch_links *bl)
{
	size_t	 i;

	for (i = 0; i < bl->n; i++)
		link_free(&bl->v[i]);
	free(bl->v);
	memset(bl, 0, sizeof(*bl));
}

/* Stores one click read back: 1, 0 when its link is gone, -1. */
static int
store_one(struct lz_db *db, const struct batch_links *bl, struct click *c,
    int64_t now, struct record_tally *tally)
{
	struct link	 key, *l;
	char		*target;
	int		 rc;

	key.id = c->link_id;
	if ((l = bsearch(&key, bl->v, bl->n, sizeof(*bl->v), by_id)) ==
	    NULL) {
		lz_log(LZ_LOG_ERR, "click journal: no link %lld; click dropped",
		    (long long)c->link_id);
		return 0;
	}
	/* The journal keeps the variant; the URL follows from the link,
	 * which never changes. */
	target = target_with_utm(l, target_of_variant(l, c->variant));
	c->target = target ? target : "";
	rc = record_click(db, l, c, now, 0, tally);
	free(target);
	c->target = NULL;
	return rc < 0 ? -1 : 1;
}

/* Stores nc clicks of clicks[], in the transaction open.  Returns the
 * clicks stored, or -1. */
static long
store_chunk(struct lz_db *db, long nc, int64_t now,
    struct record_tally *tally)
{
	struct batch_links	 bl = { NULL, 0 };
	long			 k, stored = 0;

	if (batch_links(db, clicks, (size_t)nc, &bl) == -1)
		return -1;
	for (k = 0; k < nc; k++)
		switch (store_one(db, &bl, &clicks[k], now, tally)) {
		case -1:
			batch_links_free(&bl);
			return -1;
		case 1:
			stored++;
			break;
		}
	batch_links_free(&bl);
	return stored;
}

/*
 * Reads the items of j from pos (up to CHUNK_BYTES, at most BATCH
 * clicks) and the clicks of those that check out into batch[] and
 * clicks[]: in a live journal up to one that does not (still being
 * written), in a dead one all but those (damaged, logged).  Returns the
 * bytes read past (0: none to move) with their clicks in *nc, *whole set
 * unless an item that does not check out stopped it; or -1.
 */
static long
read_chunk(const struct journal *j, int64_t pos, int live, long *nc,
    int *whole)
{
	unsigned char	*rec;
	ssize_t		 got;
	size_t		 off = 0, want;
	long		 len;
	int		 click;

	*nc = 0;
	*whole = 1;
	if (pos >= j->size)
		return 0;
	want = (size_t)(j->size - pos) < CHUNK_BYTES ?
	    (size_t)(j->size - pos) : CHUNK_BYTES;
	if ((got = pread(j->fd, raw, want, (off_t)pos)) < 0) {
		lz_log(LZ_LOG_ERR, "click journal %s: read: %s", j->name,
		    strerror(errno));
		return -1;
	}
	while (off < (size_t)got && *nc < BATCH) {
		rec = batch + *nc * CLICKREC_SIZE;
		len = clickrec_item(raw + off, (size_t)got - off,
		    pos + (int64_t)off, rec, &click);
		if (len == 0)
			break;
		if (len > 0 && (!click ||
		    clickrec_unpack(rec, &clicks[*nc]) == 0)) {
			*nc += click;
			off += (size_t)len;
			continue;
		}
		if (live) {
			*whole = 0;
			break;
		}
		lz_log(LZ_LOG_ERR, "click journal %s: record at %lld is "
		    "damaged; skipped", j->name,
		    (long long)(pos + (int64_t)off));
		/* To the next place an item can start. */
		off += len > 0 ? (size_t)len : CLICKREC_SIZE -
		    (size_t)((pos + (int64_t)off) % CLICKREC_SIZE);
	}
	if (off > (size_t)got)
		off = (size_t)got;
	return (long)off;
}

/*
 * Moves the records of journal j from the position the database holds
 * for it up to j->size in transactions that also move the position:
 * BATCH records each on SQLite (a transaction there holds every writer
 * back), CHUNKS_PG times that on PostgreSQL, where a transaction's cost
 * is in its rollup rows, which a bigger batch sums further (DESIGN 5).
 * In a live journal (live) a record that does not check out is one
 * still being written: moving stops before it; in a dead one it is
 * skipped.  Returns the records moved and the position reached in *pos,
 * or -1.
 */
static long
move(struct lz_db *db, const struct journal *j, int live, int64_t *pos)
{
	struct record_tally tally;
	int64_t		 at, now;
	long		 moved = 0, i, nc, stored, got;
	int		 chunks, c, whole = 1;

	if ((*pos = store_journal_get(db, j->key)) < 0)
		return -1;
	chunks = lz_db_is_sqlite(db) ? 1 : CHUNKS_PG;
	memset(&tally, 0, sizeof(tally));
	while (whole) {
		/* The first chunk is read before the transaction begins:
		 * no records to move, no transaction. */
		if ((i = read_chunk(j, *pos, live, &nc, &whole)) <= 0) {
			moved = i == 0 ? moved : -1;
			break;
		}
		if (lz_db_begin(db) == -1) {
			moved = -1;
			break;
		}
		now = lz_now_ms();
		at = *pos;
		stored = 0;
		for (c = 0; i > 0; ) {
			if ((got = store_chunk(db, nc, now, &tally)) == -1)
				break;
			at += i;
			stored += got;
			if (++c == chunks || !whole)
				break;
			i = read_chunk(j, at, live, &nc, &whole);
		}
		if (i == -1 || got == -1 ||
		    record_flush(db, &tally, now) == -1 ||
		    store_journal_set(db, j->key, at) == -1 ||
		    lz_db_commit(db) == -1) {
			lz_db_rollback(db);
			moved = -1;
			break;
		}
		*pos = at;
		moved += stored;
	}
	record_tally_free(&tally);
	return moved;
}

/* What moving the journals of the directory came to (move_all). */
struct moved {
	struct lz_db	*db;
	long		 total;
	int		 failed;
};

/*
 * Moves another worker's journal: all of it, then removes it, when its
 * worker is gone (nobody holds its flock); else what is complete.
 */
static void
move_other(const char *name, void *arg)
{
	struct moved	*m = arg;
	struct journal	 j;
	int64_t		 pos;
	long		 n;
	int		 dead;

	if (journal_take(&j, name, &dead) == -1)
		return;
	if ((n = move(m->db, &j, !dead, &pos)) < 0) {
		journal_release(&j);
		m->failed = 1;
		return;
	}
	if (dead) {
		if (n > 0)
			lz_log(LZ_LOG_INFO, "click journal %s of a stopped "
			    "worker: %ld clicks moved", name, n);
		journal_retire(m->db, &j);
	} else
		journal_release(&j);
	m->total += n;
}

/*
 * With the mover's lock held: moves every journal in the directory.
 * with_own: this worker's own journal through its state (the worker's
 * thread); else it is taken like any other (the mover thread, which
 * leaves that state to the worker's thread).  Returns the clicks moved,
 * or -1 when some could not be.
 */
static long
move_all(struct lz_db *db, int with_own)
{
	struct moved	 m = { db, 0, 0 };
	struct journal	*own = journal_own();
	int64_t		 pos;
	long		 n;

	if (with_own && own->fd != -1) {
		if ((n = move(db, own, 1, &pos)) < 0)
			m.failed = 1;
		else
			m.total += n;
	}
	if (journal_each(with_own, move_other, &m) == -1)
		return -1;
	journal_forget_gone(db);
	return m.failed ? -1 : m.total;
}

/*
 * 1 when no worker has moved for MOVE_EVERY_MS: the mtime of the lock
 * file is when the last move ended.  Fewer, bigger transactions rewrite
 * fewer half-filled pages into SQLite's log.
 */
static int
move_due(void)
{
	struct stat	 st;
	struct timespec	 now;
	int64_t		 ms;

	if (fstat(lockfd, &st) == -1 ||
	    clock_gettime(CLOCK_REALTIME, &now) == -1)
		return 1;
	ms = (int64_t)(now.tv_sec - st.st_mtim.tv_sec) * 1000 +
	    (now.tv_nsec - st.st_mtim.tv_nsec) / 1000000;
	return ms >= MOVE_EVERY_MS || ms < 0;
}

/*
 * Takes the mover's lock (waiting for it when wait) and moves, then
 * trims the WAL; when spaced, only if no worker has moved in the last
 * MOVE_EVERY_MS.
 */
static long
move_locked(struct lz_db *db, int wait, int with_own, int spaced)
{
	long	 n = 0;

	if (lockfd == -1 || flock(lockfd, LOCK_EX | (wait ? 0 : LOCK_NB)) ==
	    -1)
		return 0;
	if (!spaced || move_due()) {
		if ((n = move_all(db, with_own)) >= 0 && on_move.fn != NULL)
			on_move.fn(n, on_move.arg);
		wal_hot = store_wal_trim(db, &wal);
		(void)futimens(lockfd, NULL);
	}
	(void)flock(lockfd, LOCK_UN);
	return n;
}

/*
 * The mover thread: unless another worker is at it, moves every journal
 * with its own database connection, so that neither the moving nor
 * SQLite's checkpoints (which wait for the disk) hold up the worker's
 * requests.  About once a second; while clicks come in, every
 * MOVE_EVERY_MS: a move is a burst of CPU that requests wait behind, so
 * many small ones (bench/redirect, wrk's p99 of a simple link: 45 ms with
 * a move a second, 6 ms with one every 20 ms).  At nice 10, for the same
 * reason.
 */
static void *
mover_main(void *arg)
{
	struct pollfd	 pfd;
	long		 n = 0;

	(void)arg;
	(void)setpriority(PRIO_PROCESS, (id_t)gettid(), 10);
	pfd.fd = mover_stop[0];
	pfd.events = POLLIN;
	for (;;) {
		pfd.revents = 0;
		if (poll(&pfd, 1, n > 0 || wal_hot ? MOVE_EVERY_MS :
		    MOVE_IDLE_MS) != 0 &&
		    (pfd.revents || errno != EINTR))
			break;
		n = move_locked(&mover_db, 0, 0, 1);
		do_chores(&mover_db);
	}
	return NULL;
}

void
mover_on_move(void (*fn)(long n, void *arg), void *arg)
{
	on_move.fn = fn;
	on_move.arg = arg;
}

int
mover_start(const char *db_path, char *err, size_t errlen)
{
	sigset_t	 all, old;
	int		 rc;

	if (journal_own()->fd == -1 || mover_on)
		return 0;
	if (store_open(&mover_db, db_path, err, errlen) == -1)
		return -1;
	if (pipe2(mover_stop, O_CLOEXEC) == -1) {
		snprintf(err, errlen, "click mover: pipe: %s", strerror(errno));
		lz_db_close(&mover_db);
		return -1;
	}
	/* Signals are the worker's thread's business. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&mover, NULL, mover_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		snprintf(err, errlen, "click mover: %s", strerror(rc));
		close(mover_stop[0]);
		close(mover_stop[1]);
		mover_stop[0] = mover_stop[1] = -1;
		lz_db_close(&mover_db);
		return -1;
	}
	mover_on = 1;
	return 0;
}

static void
mover_end(void)
{
	if (!mover_on)
		return;
	(void)!write(mover_stop[1], "x", 1);
	pthread_join(mover, NULL);
	close(mover_stop[0]);
	close(mover_stop[1]);
	mover_stop[0] = mover_stop[1] = -1;
	lz_db_close(&mover_db);
	mover_on = 0;
}

int
mover_open(struct lz_db *db, const char *dir, const char *host_id,
    char *err, size_t errlen)
{
	char	*path;

	if (journal_open(dir, host_id, err, errlen) == -1)
		return -1;
	if (batch == NULL) {
		raw = xmalloc(CHUNK_BYTES);
		batch = xmalloc(BATCH * CLICKREC_SIZE);
		clicks = xcalloc(BATCH, sizeof(*clicks));
	}
	path = xasprintf("%s/%s", dir, LOCK_NAME);
	lockfd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640);
	if (lockfd == -1) {
		snprintf(err, errlen, "click journal lock %s: %s", path,
		    strerror(errno));
		free(path);
		/* Nothing in it yet: no journal left behind. */
		journal_retire(db, journal_own());
		return -1;
	}
	free(path);
	if (move_locked(db, 0, 1, 0) < 0)
		lz_log(LZ_LOG_WARN, "click journals in %s: some could not be "
		    "moved yet", dir);
	return 0;
}

void
mover_tick(struct lz_db *db)
{
	/*
	 * Without the mover thread, the worker moves: one worker at a
	 * time, as workers tick together (all count seconds from fork) and
	 * several would only queue for SQLite's write lock.
	 */
	if (!mover_on) {
		(void)move_locked(db, 0, 1, 0);
		do_chores(db);
	}
	journal_rotate();
}

long
mover_collect(struct lz_db *db, const char *dir)
{
	if (!journal_in(dir) || mover_on)
		return -1;
	return move_locked(db, 1, 1, 0);
}

void
mover_close(struct lz_db *db)
{
	struct journal	*own = journal_own();
	int64_t		 pos = -1;

	mover_end();
	if (own->fd == -1)
		return;
	if (lockfd != -1 && flock(lockfd, LOCK_EX) == 0) {
		if (move(db, own, 1, &pos) >= 0 && pos == own->size)
			journal_retire(db, own);
		(void)flock(lockfd, LOCK_UN);
	}
	if (own->fd != -1)
		lz_log(LZ_LOG_WARN, "click journal %s: left for the next "
		    "worker to move", own->path);
	journal_release(own);
	if (lockfd != -1)
		close(lockfd);
	lockfd = -1;
}
