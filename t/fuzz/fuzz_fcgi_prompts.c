/*
 * fuzz_fcgi_prompts.c -- lz-prompts as a worker runs it, from the
 * FastCGI params nginx hands over (t/fuzz/fcgi.h): lz_req_begin(), the
 * real route table, the rate limiter, every handler over the sample
 * data (data/prompts.json imported as lzctl does), ETags and 304s, and
 * lz_req_end().
 *
 * The limiter allows 30 list requests a minute per client address, so
 * an input that sets no REMOTE_ADDR comes from an address of its own;
 * one that sets it is limited like a real client.
 *
 * main.c is included, not linked: its route table, its before() and its
 * worker functions are static, and the point is to run exactly them.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "fcgi.h"

int	lz_prompts_main(int, char **);
#define main lz_prompts_main
#include "../../src/prompts/main.c"
#undef main

#include "import.h"
#include "serve.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static unsigned long	 nrun;

static void
die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_fcgi_prompts: %s: %s\n", what, err);
	abort();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct import	*m;
	char		*dir, *conf, *path, err[512];

	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		die("sodium_init", "failed");
	lz_log_open("fuzz_fcgi_prompts", LZ_LOG_ERR);
	dir = fcgi_tmpdir("fuzz-fcgi-prompts");
	fcgi_write(dir, "lz.conf", "prompts_db = data/prompts.db\n"
	    "prompts_base_url = https://prompts.example\n"
	    "trusted_proxies = 127.0.0.1, ::1\n"
	    "prompts_ratelimit_slots = 4096\n"
	    "prompts_cache_bytes = 65536\n"
	    "log_level = error\n"
	    "access_log = no\n"
	    "sandbox = no\n");
	conf = xasprintf("%s/lz.conf", dir);
	if ((prompts.conf = lz_conf_load(conf, err, sizeof(err))) == NULL ||
	    lz_service_setup(&service, prompts.conf, err,
	    sizeof(err)) == -1)
		die("lz.conf", err);
	free(conf);

	/* lzctl prompts import of the sample data. */
	path = xasprintf("%s/data", dir);
	if (mkdir(path, 0700) == -1)
		die(path, strerror(errno));
	free(path);
	path = xasprintf("%s/data/prompts.json", LZ_TOP_SRCDIR);
	if ((m = import_load(path, stderr, lz_now_ms())) == NULL)
		die(path, "does not import");
	if (import_write(m, prompts.conf->prompts_db, path, lz_now_ms(), NULL,
	    err, sizeof(err)) == -1)
		die("import", err);
	import_free(m);
	free(path);

	if (pool_pre_fork(NULL) == -1 || worker_init(NULL) != 0 ||
	    data_ready() == -1)
		die("worker", "does not start");
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fcgi_fake	 f;
	char			 addr[48];
	const char		*defaults[] = {
		"REQUEST_METHOD=GET", "REQUEST_URI=/api/v1/prompts", addr,
		NULL
	};

	if (size > 96 * 1024)
		return 0;
	nrun++;
	snprintf(addr, sizeof(addr), "REMOTE_ADDR=100.%lu.%lu.%lu",
	    64 + (nrun >> 16) % 64, (nrun >> 8) & 0xff, nrun & 0xff);
	fcgi_make(&f, data, size, defaults);
	fcgi_serve(&f, worker_handle);
	fcgi_free(&f);
	if (nrun % 1024 == 0)
		worker_tick(NULL);
	return 0;
}
