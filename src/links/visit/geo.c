/*
 * geo.c -- country by IP address from tor-geoipdb files (DESIGN 3.4).
 *
 * The files list disjoint ranges "FROM,TO,CC" in ascending order.  A
 * lookup only needs the points where the answer changes, so geo_load()
 * turns the ranges into boundaries {first address, code}: one per range,
 * one more where a gap starts (code 0, unknown), none where a range
 * continues the code of the one before.  An address then takes the code
 * of the last boundary at or below it.
 *
 * Tables, in one read-only MAP_SHARED mapping made before the fork:
 *
 *	v4	 uint32 key[], uint16 cc[]		6 bytes a row
 *	v6	 uint64 hi[],  uint16 cc[]		10 bytes a row
 *	v6 fine	 uint64 hi[], lo[], uint16 cc[]	18 bytes a row
 *
 * Nearly every IPv6 boundary falls on a /64 (providers assign /64 and
 * larger), so the v6 table is keyed by the upper 64 bits alone.  A /64
 * that holds a boundary inside it gets the code CC_SPLIT there, and its
 * boundaries (plus one at its start carrying the code in force before
 * it) go to the fine table with full 128-bit keys.  With the Debian 12
 * files that is about 8,000 fine rows out of 300,000.
 *
 * A code is kept as its two ASCII bytes in a uint16 ("US" = 0x5553);
 * 0 is unknown ("??" or no range), 0xffff is CC_SPLIT.
 */
#include "config.h"

#include <sys/mman.h>

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "log.h"
#include "lztime.h"
#include "util.h"
#include "visit/geo.h"

#define CC_NONE		0
#define CC_SPLIT	0xffff

struct gkey {
	uint64_t	 hi, lo;
};

struct bound {
	struct gkey	 k;
	uint16_t	 cc;
};

/* Boundaries of one family while loading (temporary). */
struct bvec {
	struct bound	*v;
	size_t		 n, cap;
	size_t		 ranges;	/* lines read */
};

/* The tables; pointers into the mapping (NULL/0 when empty). */
static struct {
	void			*base;
	size_t			 size;
	const uint32_t		*v4key;
	const uint16_t		*v4cc;
	size_t			 n4;
	const uint64_t		*v6hi;
	const uint16_t		*v6cc;
	size_t			 n6;
	const uint64_t		*fhi, *flo;
	const uint16_t		*fcc;
	size_t			 nf;
	struct geo_stats	 st;
} g;

static int
key_lt(const struct gkey *a, const struct gkey *b)
{
	return a->hi < b->hi || (a->hi == b->hi && a->lo < b->lo);
}

static int
key_eq(const struct gkey *a, const struct gkey *b)
{
	return a->hi == b->hi && a->lo == b->lo;
}

/* a + 1; the caller knows a is not the largest key. */
static struct gkey
key_next(struct gkey a)
{
	if (++a.lo == 0)
		a.hi++;
	return a;
}

static struct gkey
key_from_bytes(const uint8_t b[16])
{
	struct gkey	 k = { 0, 0 };
	int		 i;

	for (i = 0; i < 8; i++) {
		k.hi = k.hi << 8 | b[i];
		k.lo = k.lo << 8 | b[i + 8];
	}
	return k;
}

/* Appends a boundary unless it continues the code of the last one. */
static void
bvec_push(struct bvec *b, struct gkey k, uint16_t cc)
{
	if (b->n > 0 ? b->v[b->n - 1].cc == cc : cc == CC_NONE)
		return;
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 4096;
		b->v = xreallocarray(b->v, b->cap, sizeof(*b->v));
	}
	b->v[b->n].k = k;
	b->v[b->n].cc = cc;
	b->n++;
}

/* "US" -> 0x5553 (upper-cased), "??" -> CC_NONE; -1 if malformed. */
static int
parse_cc(const char *s)
{
	unsigned char	 c0 = (unsigned char)s[0], c1;

	if (strcmp(s, "??") == 0)
		return CC_NONE;
	if (c0 == '\0' || (c1 = (unsigned char)s[1]) == '\0' || s[2] != '\0')
		return -1;
	if (c0 >= 'a' && c0 <= 'z')
		c0 -= 'a' - 'A';
	if (c1 >= 'a' && c1 <= 'z')
		c1 -= 'a' - 'A';
	if (!((c0 >= 'A' && c0 <= 'Z') || (c0 >= '0' && c0 <= '9')) ||
	    !((c1 >= 'A' && c1 <= 'Z') || (c1 >= '0' && c1 <= '9')))
		return -1;
	return c0 << 8 | c1;
}

/* One address field: an integer (v4 file) or an IPv6 address. */
static int
parse_addr(const char *s, int v6, struct gkey *k)
{
	uint8_t		 b[16];
	long long	 v;

	if (v6) {
		if (inet_pton(AF_INET6, s, b) != 1)
			return -1;
		*k = key_from_bytes(b);
		return 0;
	}
	if (lz_parse_ll(s, 0, UINT32_MAX, &v) == -1)
		return -1;
	k->hi = 0;
	k->lo = (uint64_t)v;
	return 0;
}

/*
 * Reads one file into b.  A missing file leaves b empty; returns 0, or
 * -1 with err set.
 */
static int
read_file(const char *path, int v6, struct bvec *b, char *err,
    size_t errlen)
{
	FILE		*f;
	char		*line = NULL, *c1, *c2;
	size_t		 cap = 0, lineno = 0;
	ssize_t		 len;
	struct gkey	 from, to, gap, prev_to = { 0, 0 };
	struct gkey	 max = { v6 ? UINT64_MAX : 0, v6 ? UINT64_MAX :
			    UINT32_MAX };
	int		 cc, have_prev = 0, rc = -1;

	if (*path == '\0')
		return 0;
	if ((f = fopen(path, "r")) == NULL) {
		if (errno == ENOENT) {
			lz_log(LZ_LOG_WARN, "%s: not found; IPv%d countries "
			    "will be unknown", path, v6 ? 6 : 4);
			return 0;
		}
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, f)) != -1) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if ((c1 = strchr(line, ',')) == NULL ||
		    (c2 = strchr(c1 + 1, ',')) == NULL) {
			snprintf(err, errlen, "%s:%zu: expected FROM,TO,CC",
			    path, lineno);
			goto out;
		}
		*c1++ = '\0';
		*c2++ = '\0';
		if (parse_addr(line, v6, &from) == -1 ||
		    parse_addr(c1, v6, &to) == -1) {
			snprintf(err, errlen, "%s:%zu: bad %s address", path,
			    lineno, v6 ? "IPv6" : "IPv4 (integer)");
			goto out;
		}
		if ((cc = parse_cc(c2)) == -1) {
			snprintf(err, errlen, "%s:%zu: bad country code",
			    path, lineno);
			goto out;
		}
		if (key_lt(&to, &from) || (have_prev &&
		    !key_lt(&prev_to, &from))) {
			snprintf(err, errlen, "%s:%zu: range is empty, "
			    "overlaps or is out of order", path, lineno);
			goto out;
		}
		if (have_prev) {
			gap = key_next(prev_to);	/* prev_to < from */
			if (!key_eq(&gap, &from))
				bvec_push(b, gap, CC_NONE);
		}
		bvec_push(b, from, (uint16_t)cc);
		prev_to = to;
		have_prev = 1;
		b->ranges++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (have_prev && !key_eq(&prev_to, &max))
		bvec_push(b, key_next(prev_to), CC_NONE);
	rc = 0;
out:
	free(line);
	fclose(f);
	return rc;
}

/* Rows of the v6 table and of its fine table for the boundaries b. */
static void
v6_count(const struct bvec *b, size_t *n6, size_t *nf)
{
	size_t	 i, j;

	*n6 = *nf = 0;
	for (i = 0; i < b->n; i = j) {
		for (j = i + 1; j < b->n && b->v[j].k.hi == b->v[i].k.hi; j++)
			;
		(*n6)++;
		if (j - i > 1 || b->v[i].k.lo != 0)
			*nf += j - i + (b->v[i].k.lo != 0);
	}
}

static void
v6_fill(const struct bvec *b, uint64_t *hi, uint16_t *cc, uint64_t *fhi,
    uint64_t *flo, uint16_t *fcc)
{
	size_t	 i, j, k, n = 0, nf = 0;

	for (i = 0; i < b->n; i = j) {
		for (j = i + 1; j < b->n && b->v[j].k.hi == b->v[i].k.hi; j++)
			;
		hi[n] = b->v[i].k.hi;
		if (j - i == 1 && b->v[i].k.lo == 0) {
			cc[n++] = b->v[i].cc;
			continue;
		}
		cc[n++] = CC_SPLIT;
		if (b->v[i].k.lo != 0) {
			/* The /64's start keeps the code in force before. */
			fhi[nf] = b->v[i].k.hi;
			flo[nf] = 0;
			fcc[nf++] = i > 0 ? b->v[i - 1].cc : CC_NONE;
		}
		for (k = i; k < j; k++) {
			fhi[nf] = b->v[k].k.hi;
			flo[nf] = b->v[k].k.lo;
			fcc[nf++] = b->v[k].cc;
		}
	}
}

int
geo_load(const char *v4path, const char *v6path, char *err, size_t errlen)
{
	struct bvec	 b4 = { NULL, 0, 0, 0 }, b6 = { NULL, 0, 0, 0 };
	size_t		 n6, nf, size, i;
	unsigned char	*base = NULL;
	uint64_t	*v6hi, *fhi, *flo;
	uint32_t	*v4key;
	uint16_t	*v6cc, *fcc, *v4cc;
	int64_t		 t0 = lz_mono_us();
	int		 rc = -1;

	if (read_file(v4path ? v4path : "", 0, &b4, err, errlen) == -1 ||
	    read_file(v6path ? v6path : "", 1, &b6, err, errlen) == -1)
		goto out;
	v6_count(&b6, &n6, &nf);
	/* 8-byte arrays first, then 4-byte, then 2-byte: all aligned. */
	size = (n6 + 2 * nf) * 8 + b4.n * 4 + (n6 + nf + b4.n) * 2;
	size = (size + 7) & ~(size_t)7;

	if (size > 0) {
		base = mmap(NULL, size, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (base == MAP_FAILED) {
			snprintf(err, errlen, "geo: mmap of %zu bytes: %s",
			    size, strerror(errno));
			goto out;
		}
		v6hi = (uint64_t *)(void *)base;
		fhi = v6hi + n6;
		flo = fhi + nf;
		v4key = (uint32_t *)(void *)(flo + nf);
		v6cc = (uint16_t *)(void *)(v4key + b4.n);
		fcc = v6cc + n6;
		v4cc = fcc + nf;
		for (i = 0; i < b4.n; i++) {
			v4key[i] = (uint32_t)b4.v[i].k.lo;
			v4cc[i] = b4.v[i].cc;
		}
		v6_fill(&b6, v6hi, v6cc, fhi, flo, fcc);
		if (mprotect(base, size, PROT_READ) == -1) {
			snprintf(err, errlen, "geo: mprotect: %s",
			    strerror(errno));
			munmap(base, size);
			goto out;
		}
	}

	geo_unload();
	if (base != NULL) {
		g.base = base;
		g.size = size;
		g.v6hi = v6hi;
		g.fhi = fhi;
		g.flo = flo;
		g.v4key = v4key;
		g.v6cc = v6cc;
		g.fcc = fcc;
		g.v4cc = v4cc;
		g.n4 = b4.n;
		g.n6 = n6;
		g.nf = nf;
	}
	g.st.v4_ranges = b4.ranges;
	g.st.v6_ranges = b6.ranges;
	g.st.v4_entries = b4.n;
	g.st.v6_entries = n6;
	g.st.v6_fine = nf;
	g.st.bytes = size;
	lz_log(LZ_LOG_INFO, "geo: %zu IPv4 and %zu IPv6 ranges in %zu KiB "
	    "shared, loaded in %lld ms", b4.ranges, b6.ranges, size / 1024,
	    (long long)((lz_mono_us() - t0) / 1000));
	rc = 0;
out:
	free(b4.v);
	free(b6.v);
	return rc;
}

void
geo_unload(void)
{
	if (g.base != NULL)
		munmap(g.base, g.size);
	memset(&g, 0, sizeof(g));
}

void
geo_stats(struct geo_stats *st)
{
	*st = g.st;
}

/* The number of keys <= x in k[0..n), keys of 32 bits (wide 0) or 64. */
static size_t
count_le(const void *k, int wide, size_t n, uint64_t x)
{
	size_t		 lo = 0, hi = n, mid;
	uint64_t	 key;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		key = wide ? ((const uint64_t *)k)[mid] :
		    ((const uint32_t *)k)[mid];
		if (key <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint16_t
lookup6(const struct gkey *x)
{
	size_t	 i, lo, hi, mid;

	if ((i = count_le(g.v6hi, 1, g.n6, x->hi)) == 0)
		return CC_NONE;
	if (g.v6cc[i - 1] != CC_SPLIT)
		return g.v6cc[i - 1];
	lo = 0;
	hi = g.nf;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (g.fhi[mid] < x->hi || (g.fhi[mid] == x->hi &&
		    g.flo[mid] <= x->lo))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The /64 of a CC_SPLIT row always starts a fine row. */
	return lo == 0 ? CC_NONE : g.fcc[lo - 1];
}

int
geo_lookup(const struct lz_addr *a, char cc[3])
{
	static const uint8_t	 v4mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0,
				    0, 0, 0xff, 0xff };
	struct gkey		 k;
	uint32_t		 v4;
	size_t			 i;
	uint16_t		 c = CC_NONE;

	if (memcmp(a->b, v4mapped, sizeof(v4mapped)) == 0) {
		v4 = (uint32_t)a->b[12] << 24 | (uint32_t)a->b[13] << 16 |
		    (uint32_t)a->b[14] << 8 | a->b[15];
		if ((i = count_le(g.v4key, 0, g.n4, v4)) > 0)
			c = g.v4cc[i - 1];
	} else {
		k = key_from_bytes(a->b);
		c = lookup6(&k);
	}
	if (c == CC_NONE || c == CC_SPLIT) {
		cc[0] = '\0';
		return 0;
	}
	cc[0] = (char)(c >> 8);
	cc[1] = (char)(c & 0xff);
	cc[2] = '\0';
	return 1;
}
