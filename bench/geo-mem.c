/*
 * geo-mem.c -- what geo.c costs: load time of the tor-geoipdb files, and
 * the memory of workers forked after geo_load(), as the pool does.
 *
 * Build and run from a configured build directory:
 *   make bench/geo-mem && ./bench/geo-mem [workers] [lookups]
 *
 * Each worker looks up random IPv4 and IPv6 addresses, then prints its
 * smaps_rollup lines: Rss counts the shared table pages it touched, Pss
 * divides them among the workers, Private_* is what the worker owns.
 * Correctness: 8.8.8.8 and 2001:4860:4860::8888 are in the US, 127.0.0.1
 * nowhere, and every worker finds countries for some of its addresses;
 * it exits 1 otherwise.
 */
#include "config.h"

#include <sys/wait.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "addr.h"
#include "log.h"
#include "lztime.h"
#include "visit/geo.h"

static void
rollup(const char *who)
{
	FILE	*f = fopen("/proc/self/smaps_rollup", "r");
	char	 line[256];

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "Rss:", 4) == 0 ||
		    strncmp(line, "Pss:", 4) == 0 ||
		    strncmp(line, "Shared_", 7) == 0 ||
		    strncmp(line, "Private_", 8) == 0)
			printf("%s %s", who, line);
	fclose(f);
}

/* 1 when the country of the address text is cc ("" for none). */
static int
known(const char *text, const char *cc)
{
	struct lz_addr	 a;
	char		 got[3];

	if (lz_addr_parse(text, &a) == -1)
		return 0;
	geo_lookup(&a, got);
	return strcmp(got, cc) == 0;
}

int
main(int argc, char *argv[])
{
	struct geo_stats	 st;
	struct lz_addr		 a;
	char			 err[512], cc[3], who[32];
	int			 workers = argc > 1 ? atoi(argv[1]) : 4, i;
	int			 status, bad = 0;
	long			 lookups = argc > 2 ? atol(argv[2]) : 1000000L;
	long			 j, found = 0;
	int64_t			 t0;
	uint64_t		 x = 88172645463325252ULL;

	lz_log_open("geo-mem", LZ_LOG_ERR);
	rollup("before-load");
	t0 = lz_mono_us();
	if (geo_load("/usr/share/tor/geoip", "/usr/share/tor/geoip6", err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	geo_stats(&st);
	if (!known("8.8.8.8", "US") || !known("2001:4860:4860::8888", "US") ||
	    !known("127.0.0.1", "")) {
		fprintf(stderr, "geo-mem: wrong countries\n");
		return 1;
	}
	printf("load %lld ms, %zu KiB shared, %zu+%zu ranges\n",
	    (long long)((lz_mono_us() - t0) / 1000), st.bytes / 1024,
	    st.v4_ranges, st.v6_ranges);
	rollup("supervisor");
	fflush(stdout);
	for (i = 0; i < workers; i++) {
		if (fork() != 0)
			continue;
		x ^= (uint64_t)getpid() << 17;
		t0 = lz_mono_us();
		for (j = 0; j < lookups; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			memset(&a, 0, sizeof(a));
			if (j & 1) {
				a.b[10] = a.b[11] = 0xff;
				memcpy(a.b + 12, &x, 4);
			} else {
				a.b[0] = 0x20;
				a.b[1] = (uint8_t)(x >> 8 & 0x0f);
				memcpy(a.b + 2, &x, 8);
			}
			found += geo_lookup(&a, cc);
		}
		snprintf(who, sizeof(who), "worker%d", i);
		printf("%s %ld look-ups (%ld found), %.0f ns each\n", who,
		    lookups, found, (double)(lz_mono_us() - t0) * 1000 /
		    (double)lookups);
		sleep(1);	/* all workers mapped: Pss shares fairly */
		rollup(who);
		fflush(stdout);
		_exit(found > 0 ? 0 : 1);
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			bad++;
	printf("correctness: known addresses ok, %d of %d workers found "
	    "countries  %s\n", workers - bad, workers, bad ? "FAILED" : "ok");
	return bad ? 1 : 0;
}
