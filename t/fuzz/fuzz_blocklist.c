/*
 * fuzz_blocklist.c -- the blocklist feeds of the safety scan, as
 * "lzctl blocklist import" reads them: bl_parse() of URLhaus CSV,
 * PhishTank JSON and CSV, OpenPhish and hosts files.  Feeds come from
 * third parties over the network; a feed is whatever they send.
 *
 * The first byte picks the format, the rest is the feed.  Every entry
 * must keep the promises of blocklist.h: a kind of "host" or "url", a
 * canonical value that reads back as itself through bl_entry_from_text()
 * (what "lzctl blocklist add" and "remove" use), and a reason that fits.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safety/blocklist.h"
#include "utf8.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
entry(const struct bl_entry *e, void *arg)
{
	struct bl_entry	 again;
	size_t		 n;
	char		*text;

	(*(long *)arg)++;
	if (e->kind == NULL || e->value == NULL ||
	    (strcmp(e->kind, "host") != 0 && strcmp(e->kind, "url") != 0))
		abort();
	n = strlen(e->value);
	if (n == 0 || lz_utf8_count(e->value, n, LZ_UTF8_NOCTRL) < 0 ||
	    strpbrk(e->value, " \t") != NULL)
		abort();
	if (memchr(e->reason, '\0', sizeof(e->reason)) == NULL)
		abort();
	/* A host entry is a host name as given by hand; a url entry is an
	 * expression, which by hand is written as a URL. */
	text = strcmp(e->kind, "host") == 0 ? strdup(e->value) :
	    (char *)malloc(n + 8);
	if (text == NULL)
		abort();
	if (strcmp(e->kind, "url") == 0)
		snprintf(text, n + 8, "http://%s", e->value);
	memset(&again, 0, sizeof(again));
	if (bl_entry_from_text(text, &again) == -1 ||
	    strcmp(again.kind, e->kind) != 0 ||
	    strcmp(again.value, e->value) != 0) {
		fprintf(stderr, "%s entry '%s' reads back as %s '%s'\n",
		    e->kind, e->value, again.kind ? again.kind : "nothing",
		    again.value ? again.value : "");
		abort();
	}
	free(again.value);
	free(text);
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bl_stats	 st;
	char		 err[256];
	FILE		*f;
	long		 n = 0;

	if (size < 1)
		return 0;
	if ((f = fmemopen((void *)(uintptr_t)(data + 1), size - 1, "r")) ==
	    NULL && size > 1)
		return 0;
	if (f == NULL)
		f = fopen("/dev/null", "r");
	memset(&st, 0, sizeof(st));
	if (bl_parse(f, (enum bl_format)(data[0] % BL__MAX), entry, &n, &st,
	    err, sizeof(err)) == 0 && (st.entries != n || st.records < 0 ||
	    st.skipped < 0))
		abort();
	fclose(f);
	return 0;
}
