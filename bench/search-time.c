/*
 * search-time.c -- in-worker time of prompt library requests, without
 * FastCGI and nginx around them (bench/search runs it).
 *
 * usage: search-time [-c] DB QUERIES REPEATS
 *
 * QUERIES has one request per line, "kind<TAB>query string" for
 * GET /api/v1/prompts.  Each is answered REPEATS times by the worker's
 * own handler (api_prompts_list) on a struct lz_req without a FastCGI
 * request, after one warm-up pass.  Prints, per line, the kind, the
 * wall-clock and CPU time of each answer in microseconds, and the
 * status: the caller computes percentiles.  CPU time is what the
 * request costs the worker; wall-clock time adds what other processes
 * on the machine took from it.
 *
 * Nothing caches answers: a repeat costs what the first did, but for
 * what SQLite's page cache (prompts_db pages, 6 MiB) still holds of the
 * pages the query read before.  -c empties that cache before every
 * request (untimed), so each one is timed as a worker's first look at
 * those pages; the file itself stays in the kernel's page cache, as a
 * database in use does.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "conf.h"
#include "log.h"
#include "lztime.h"
#include "prompts.h"
#include "req.h"
#include "serve.h"

static int64_t
cpu_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* One request through the handler, as a worker would serve it. */
static int
one(const char *query, int cold, int64_t *wall, int64_t *cpu)
{
	struct lz_req	 r;
	int64_t		 w0, c0;
	int		 status;

	if (cold && prompts.db_open)
		lz_db_release_memory(&prompts.db);
	memset(&r, 0, sizeof(r));
	w0 = lz_mono_us();
	c0 = cpu_us();
	r.t0_us = w0;
	r.now_ms = lz_now_ms();
	r.meth = LZ_M_GET;
	r.method = "GET";
	r.path = xstrdup("/api/v1/prompts");
	r.rawpath = r.path;
	r.query = query;
	r.request_id = "bench";
	r.remote_addr = "127.0.0.1";
	r.user_agent = "";
	r.content_type = "";
	r.content_length = -1;
	if (data_ready() == 0)
		api_prompts_list(&r);
	lz_db_reset_all(&prompts.db);
	status = r.status;
	lz_req_end(&r, 0);
	*wall = lz_mono_us() - w0;
	*cpu = cpu_us() - c0;
	return status;
}

int
main(int argc, char *argv[])
{
	char	 line[4096], *tab;
	FILE	*fp;
	int64_t	 wall, cpu;
	long	 reps;
	int	 status, pass, cold = 0;

	if (argc > 1 && strcmp(argv[1], "-c") == 0) {
		cold = 1;
		argc--;
		argv++;
	}
	if (argc != 4 || (reps = strtol(argv[3], NULL, 10)) < 1) {
		fprintf(stderr, "usage: search-time [-c] DB QUERIES REPEATS\n");
		return 2;
	}
	if (sodium_init() < 0)
		return 1;
	lz_log_open("search-time", LZ_LOG_WARN);
	prompts.conf = lz_conf_defaults();
	free(prompts.conf->prompts_db);
	prompts.conf->prompts_db = xstrdup(argv[1]);
	if (data_ready() == -1) {
		fprintf(stderr, "search-time: cannot open %s\n", argv[1]);
		return 1;
	}
	if ((fp = fopen(argv[2], "r")) == NULL) {
		perror(argv[2]);
		return 1;
	}
	for (pass = 0; pass <= reps; pass++) {
		rewind(fp);
		while (fgets(line, sizeof(line), fp) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			if ((tab = strchr(line, '\t')) == NULL)
				continue;
			*tab = '\0';
			status = one(tab + 1, cold, &wall, &cpu);
			if (pass > 0)		/* pass 0 warms the caches */
				printf("%s\t%lld\t%lld\t%d\n", line,
				    (long long)wall, (long long)cpu, status);
		}
	}
	fclose(fp);
	data_close();
	lz_conf_free(prompts.conf);
	return 0;
}
