/*
 * geo.c -- TEMPORARY SHIM until the uageo branch lands on main; the real
 * shared-mapping table replaces this file.  Do not build on it.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "geo.h"
#include "util.h"

struct range {
	uint8_t	 from[16], to[16];
	char	 cc[3];
};

static struct range	*tab;
static size_t		 ntab;

static int
cmp(const void *a, const void *b)
{
	return memcmp(((const struct range *)a)->from,
	    ((const struct range *)b)->from, 16);
}

static void
v4(unsigned long v, uint8_t *b)
{
	memset(b, 0, 16);
	b[10] = b[11] = 0xff;
	b[12] = (uint8_t)(v >> 24);
	b[13] = (uint8_t)(v >> 16);
	b[14] = (uint8_t)(v >> 8);
	b[15] = (uint8_t)v;
}

static void
load(const char *path, int six)
{
	FILE		*f;
	char		 line[256], *a, *b, *c;
	struct lz_addr	 x;

	if (path == NULL || *path == '\0' || (f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || (a = strtok(line, ",")) == NULL ||
		    (b = strtok(NULL, ",")) == NULL ||
		    (c = strtok(NULL, ",\r\n")) == NULL || strlen(c) != 2 ||
		    strcmp(c, "??") == 0)
			continue;
		tab = xreallocarray(tab, ntab + 1, sizeof(*tab));
		if (six) {
			if (lz_addr_parse(a, &x) == -1)
				continue;
			memcpy(tab[ntab].from, x.b, 16);
			if (lz_addr_parse(b, &x) == -1)
				continue;
			memcpy(tab[ntab].to, x.b, 16);
		} else {
			v4(strtoul(a, NULL, 10), tab[ntab].from);
			v4(strtoul(b, NULL, 10), tab[ntab].to);
		}
		memcpy(tab[ntab].cc, c, 3);
		ntab++;
	}
	fclose(f);
}

int
geo_load(const char *v4path, const char *v6path, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	free(tab);
	tab = NULL;
	ntab = 0;
	load(v4path, 0);
	load(v6path, 1);
	qsort(tab, ntab, sizeof(*tab), cmp);
	return 0;
}

int
geo_lookup(const struct lz_addr *a, char cc[3])
{
	size_t	 lo = 0, hi = ntab, mid;

	cc[0] = '\0';
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (memcmp(tab[mid].from, a->b, 16) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || memcmp(tab[lo - 1].to, a->b, 16) < 0)
		return 0;
	memcpy(cc, tab[lo - 1].cc, 3);
	return 1;
}

void
geo_stats(struct geo_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->v4_ranges = ntab;
}

void
geo_unload(void)
{
	free(tab);
	tab = NULL;
	ntab = 0;
}
