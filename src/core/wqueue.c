/*
 * wqueue.c -- the queue of an SQLite database's writers (wqueue.h).
 */
#include "config.h"

#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <linux/futex.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "lztime.h"
#include "pool.h"
#include "util.h"
#include "wqueue.h"

#define WQ_MAGIC	0x7177717aU	/* "zqwq" */
#define WQ_VERSION	3
#define WQ_SLOTS	1024	/* tickets out at once: writers of one host */
#define WQ_GONE		UINT32_MAX	/* a ticket given up */
#define WQ_STALL_MS	10	/* a turn that long without progress: is its
				   process alive? */
#define WQ_UNCLAIMED_MS	1000	/* a ticket whose taker wrote no pid in so
				   long died between the two */
#define BOOT_ID		"/proc/sys/kernel/random/boot_id"

/* The file, mapped by every process of the host that writes. */
struct wq_file {
	uint32_t		 magic;
	uint32_t		 version;
	char			 boot[48];	/* the boot it was made in */
	_Atomic uint32_t	 next;		/* the next ticket */
	_Atomic uint32_t	 serving;	/* whose turn it is */
	_Atomic uint64_t	 turns, waited, wait_us, long_waits, timeouts,
				 dead;
	/* lz_mono_us() of the last write done (lz_wqueue_progress), and
	 * of the last ticket taken into an empty queue: writers have
	 * waited without progress since the later of the two. */
	_Atomic int64_t		 progress_at, busy_at;
	/* The pid of ticket t's holder at [t % WQ_SLOTS]; 0 while unknown
	 * (taken, pid not yet written; or done), WQ_GONE given up. */
	_Atomic uint32_t	 slot[WQ_SLOTS];
};

struct lz_wqueue {
	struct wq_file	*f;
	char		*path;
	uint32_t	 pid;
	uint32_t	 ticket;
	int		 held;
};

static void
boot_id(char out[48])
{
	FILE	*fp;

	out[0] = '\0';
	if ((fp = fopen(BOOT_ID, "re")) == NULL)
		return;
	if (fgets(out, 48, fp) == NULL)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	fclose(fp);
}

struct lz_wqueue *
lz_wqueue_open(const char *dbpath, char *err, size_t errlen)
{
	struct lz_wqueue	*q;
	struct wq_file		*f;
	struct stat		 db, st;
	char			*path, boot[48];
	mode_t			 mode = 0600;
	int			 fd;

	if (stat(dbpath, &db) == 0)
		mode = db.st_mode & 0666;
	path = xasprintf("%s-wq", dbpath);
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(path);
		return NULL;
	}
	/* Made by root (lzctl, lz-hooks from cron): the pools' user must
	 * write it too, as it writes the database. */
	if (geteuid() == 0 && fstat(fd, &st) == 0 && st.st_uid == 0 &&
	    db.st_uid != 0 && fchown(fd, db.st_uid, db.st_gid) == -1)
		lz_log(LZ_LOG_WARN, "%s: %s", path, strerror(errno));
	boot_id(boot);
	f = MAP_FAILED;
	if (flock(fd, LOCK_EX) == -1 || fstat(fd, &st) == -1 ||
	    (st.st_size < (off_t)sizeof(*f) &&
	    ftruncate(fd, sizeof(*f)) == -1) ||
	    (f = mmap(NULL, sizeof(*f), PROT_READ | PROT_WRITE, MAP_SHARED,
	    fd, 0)) == MAP_FAILED) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		free(path);
		return NULL;
	}
	/* New, of another version, or of an earlier boot (whose pids mean
	 * nothing now): made anew, under the lock, before anyone uses it. */
	if (f->magic != WQ_MAGIC || f->version != WQ_VERSION ||
	    (boot[0] != '\0' && strncmp(f->boot, boot, sizeof(f->boot)) !=
	    0)) {
		memset(f, 0, sizeof(*f));
		snprintf(f->boot, sizeof(f->boot), "%s", boot);
		f->version = WQ_VERSION;
		atomic_thread_fence(memory_order_seq_cst);
		f->magic = WQ_MAGIC;
	}
	(void)flock(fd, LOCK_UN);
	close(fd);	/* the mapping stays */
	q = xcalloc(1, sizeof(*q));
	q->f = f;
	q->path = path;
	q->pid = (uint32_t)getpid();
	return q;
}

void
lz_wqueue_close(struct lz_wqueue *q)
{
	if (q == NULL)
		return;
	if (q->held)
		lz_wqueue_unlock(q);
	munmap(q->f, sizeof(*q->f));
	free(q->path);
	free(q);
}

static void
wake(struct wq_file *f)
{
	(void)syscall(SYS_futex, (uint32_t *)(uintptr_t)&f->serving, FUTEX_WAKE, INT_MAX,
	    NULL, NULL, 0);
}

/* Waits at most ms for serving to leave s. */
static void
wait_turn(struct wq_file *f, uint32_t s, int64_t ms)
{
	struct timespec	 ts;

	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	(void)syscall(SYS_futex, (uint32_t *)(uintptr_t)&f->serving, FUTEX_WAIT, s, &ts,
	    NULL, 0);
}

/*
 * Passes the turn on from ticket s (done, given up, or of a dead
 * process), and over the given-up tickets after it, waking the waiters.
 * Nothing when the turn has moved already.
 */
static void
advance(struct wq_file *f, uint32_t s)
{
	uint32_t	 want = s;

	if (!atomic_compare_exchange_strong(&f->serving, &want, s + 1))
		return;
	for (s++; s != atomic_load(&f->next) &&
	    atomic_load(&f->slot[s % WQ_SLOTS]) == WQ_GONE; s++) {
		want = s;
		if (!atomic_compare_exchange_strong(&f->serving, &want, s + 1))
			break;
		atomic_store(&f->slot[s % WQ_SLOTS], 0);
	}
	wake(f);
}

static int
alive(uint32_t pid)
{
	return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}

/*
 * The turn of ticket s has not moved for a while: passed over when its
 * holder gave up or died (or died before it could say who it is).
 * unclaimed is when s was first seen without a pid (0: not yet).
 */
static void
check_turn(struct lz_wqueue *q, uint32_t s, int64_t now,
    int64_t *unclaimed)
{
	struct wq_file	*f = q->f;
	uint32_t	 who = atomic_load(&f->slot[s % WQ_SLOTS]);

	if (who == WQ_GONE) {
		atomic_store(&f->slot[s % WQ_SLOTS], 0);
		advance(f, s);
		return;
	}
	if (who == 0) {
		if (*unclaimed == 0)
			*unclaimed = now;
		else if (now - *unclaimed >= WQ_UNCLAIMED_MS) {
			lz_log(LZ_LOG_WARN, "%s: ticket %u was never claimed; "
			    "passed over", q->path, s);
			atomic_fetch_add(&f->dead, 1);
			advance(f, s);
		}
		return;
	}
	*unclaimed = 0;
	if (who == q->pid || alive(who) ||
	    !atomic_compare_exchange_strong(&f->slot[s % WQ_SLOTS], &who, 0))
		return;
	lz_log(LZ_LOG_WARN, "%s: process %u died with the write turn; passed "
	    "over", q->path, who);
	atomic_fetch_add(&f->dead, 1);
	advance(f, s);
}

/* Gives up ticket t: marked so, and passed over if its turn came. */
static void
give_up(struct lz_wqueue *q, uint32_t t)
{
	struct wq_file	*f = q->f;
	uint32_t	 me = q->pid;

	if (atomic_compare_exchange_strong(&f->slot[t % WQ_SLOTS], &me,
	    WQ_GONE) && atomic_load(&f->serving) == t) {
		atomic_store(&f->slot[t % WQ_SLOTS], 0);
		advance(f, t);
	}
	atomic_fetch_add(&f->timeouts, 1);
}

int
lz_wqueue_lock(struct lz_wqueue *q, int timeout_ms)
{
	struct wq_file	*f = q->f;
	int64_t		 t0us = lz_mono_us();
	int64_t		 t0 = t0us / 1000, now = t0, moved = t0;
	int64_t		 unclaimed = 0;
	uint32_t	 t, s, last, first;
	int		 stalled = 0;

	t = atomic_fetch_add(&f->next, 1);
	atomic_store(&f->slot[t % WQ_SLOTS], q->pid);
	first = last = atomic_load(&f->serving);
	if (t == first)
		atomic_store(&f->busy_at, t0us);	/* the queue was empty */
	if (t - last >= WQ_SLOTS) {
		lz_log(LZ_LOG_ERR, "%s: more than %d writers waiting", q->path,
		    WQ_SLOTS);
		give_up(q, t);
		return -1;
	}
	while ((s = atomic_load(&f->serving)) != t) {
		if (s != last) {
			last = s;
			moved = now;
			unclaimed = 0;
		} else if (now - moved >= WQ_STALL_MS)
			check_turn(q, s, now, &unclaimed);
		if (now - t0 >= timeout_ms) {
			give_up(q, t);
			lz_log(LZ_LOG_WARN, "%s: gave up waiting %d ms for the "
			    "write turn (%u writers ahead)", q->path,
			    timeout_ms, t - atomic_load(&f->serving));
			return -1;
		}
		wait_turn(f, s, WQ_STALL_MS);
		now = lz_mono_us() / 1000;
		/* A wait longer than a write: nothing queues behind it. */
		if (now - t0 >= LZ_POOL_STALL_MS && !stalled) {
			stalled = 1;
			lz_pool_stall();
		}
	}
	q->ticket = t;
	q->held = 1;
	atomic_fetch_add(&f->turns, 1);
	if (t != first) {
		atomic_fetch_add(&f->waited, 1);
		atomic_fetch_add(&f->wait_us, (uint64_t)(lz_mono_us() - t0us));
	}
	if (now - t0 >= LZ_WQUEUE_LONG_MS) {
		atomic_fetch_add(&f->long_waits, 1);
		lz_log(LZ_LOG_WARN, "%s: waited %lld ms for the write turn",
		    q->path, (long long)(now - t0));
	}
	return 0;
}

void
lz_wqueue_unlock(struct lz_wqueue *q)
{
	struct wq_file	*f = q->f;

	if (!q->held)
		return;
	q->held = 0;
	atomic_store(&f->slot[q->ticket % WQ_SLOTS], 0);
	advance(f, q->ticket);
}

void
lz_wqueue_progress(struct lz_wqueue *q)
{
	if (q != NULL)
		atomic_store(&q->f->progress_at, lz_mono_us());
}

int
lz_wqueue_held(const struct lz_wqueue *q)
{
	return q != NULL && q->held;
}

void
lz_wqueue_stats(const struct lz_wqueue *q, struct lz_wqueue_stats *st)
{
	struct wq_file	*f = q->f;
	int64_t		 at;

	st->turns = atomic_load(&f->turns);
	st->waited = atomic_load(&f->waited);
	st->wait_us = atomic_load(&f->wait_us);
	st->long_waits = atomic_load(&f->long_waits);
	st->timeouts = atomic_load(&f->timeouts);
	st->dead = atomic_load(&f->dead);
	st->queued = atomic_load(&f->next) - atomic_load(&f->serving);
	st->stalled_us = 0;
	at = atomic_load(&f->progress_at);
	if (atomic_load(&f->busy_at) > at)
		at = atomic_load(&f->busy_at);
	if (st->queued > 0 && at != 0 && lz_mono_us() > at)
		st->stalled_us = (uint64_t)(lz_mono_us() - at);
}
