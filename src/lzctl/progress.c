/*
 * progress.c -- the progress line of long lzctl work (progress.h).
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lztime.h"
#include "progress.h"

#define EVERY_US	250000		/* at most 4 lines a second */

static int		 tty = -1;	/* -1: not asked yet */
static const char	*step;		/* of the line shown; NULL: none */
static int64_t		 started, shown;

static pthread_t	 watcher;
static int		 watching;
static atomic_int	 stop;
static const char	*watch_step;
static uint64_t		 watch_total, watch_from;

static int
on_tty(void)
{
	if (tty == -1)
		tty = isatty(STDERR_FILENO);
	return tty;
}

void
progress(const char *s, uint64_t done, uint64_t total)
{
	int64_t	 now;

	if (!on_tty())
		return;
	now = lz_mono_us();
	if (step == NULL)
		started = now;
	else if (strcmp(s, step) == 0 && now - shown < EVERY_US)
		return;
	step = s;
	shown = now;
	if (total > 0)
		fprintf(stderr, "\r%s: %llu of %llu (%llu%%)\033[K", s,
		    (unsigned long long)done, (unsigned long long)total,
		    (unsigned long long)(done > total ? 100 :
		    done * 100 / total));
	else if (done > 0)
		fprintf(stderr, "\r%s: %llu\033[K", s,
		    (unsigned long long)done);
	else
		fprintf(stderr, "\r%s ...\033[K", s);
	fflush(stderr);
}

/* Bytes read by this process so far (rchar of /proc/self/io), or 0. */
static uint64_t
bytes_read(void)
{
	FILE			*f;
	unsigned long long	 n = 0;
	char			 line[128];

	if ((f = fopen("/proc/self/io", "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "rchar: %llu", &n) == 1)
			break;
	fclose(f);
	return n;
}

static void *
watch(void *arg)
{
	struct timespec	 tick = { 0, EVERY_US * 1000L };
	uint64_t	 n;

	(void)arg;
	while (!atomic_load(&stop)) {
		n = bytes_read() - watch_from;
		/* Not 100 % before the copy says it is done. */
		progress(watch_step, n < watch_total ? n : watch_total - 1,
		    watch_total);
		nanosleep(&tick, NULL);
	}
	return NULL;
}

void
progress_reads(const char *s, uint64_t total)
{
	if (!on_tty() || total == 0)
		return;
	watch_step = s;
	watch_total = total;
	watch_from = bytes_read();
	atomic_store(&stop, 0);
	watching = pthread_create(&watcher, NULL, watch, NULL) == 0;
}

static void
watch_stop(void)
{
	if (watching) {
		atomic_store(&stop, 1);
		pthread_join(watcher, NULL);
		watching = 0;
	}
}

void
progress_break(void)
{
	watch_stop();
	if (!on_tty() || step == NULL)
		return;
	fputc('\n', stderr);
	step = NULL;
}

void
progress_end(const char *what)
{
	watch_stop();
	if (!on_tty() || step == NULL)
		return;
	fprintf(stderr, "\r%s (%.1f s)\033[K\n", what,
	    (double)(lz_mono_us() - started) / 1e6);
	fflush(stderr);
	step = NULL;
}
