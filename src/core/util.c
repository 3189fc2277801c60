/*
 * util.c -- checked allocation, growable buffers, bounded integers.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "log.h"
#include "util.h"

static void LZ_NORETURN
oom(size_t n)
{
	lz_log(LZ_LOG_ERR, "out of memory allocating %zu bytes", n);
	abort();
}

void *
xmalloc(size_t n)
{
	void	*p;

	if ((p = malloc(n ? n : 1)) == NULL)
		oom(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void	*p;

	if ((p = calloc(nmemb ? nmemb : 1, size ? size : 1)) == NULL)
		oom(nmemb * size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n ? n : 1)) == NULL)
		oom(n);
	return p;
}

void *
xreallocarray(void *p, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		oom(SIZE_MAX);
	return xrealloc(p, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p;

	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	va_list		 ap;

	va_start(ap, fmt);
	lz_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	return lz_buf_detach(&b);
}

static void
buf_grow(struct lz_buf *b, size_t need)
{
	size_t	 cap;

	if (need >= SIZE_MAX - b->len - 1)
		oom(SIZE_MAX);
	if (b->len + need + 1 <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < b->len + need + 1)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

void
lz_buf_add(struct lz_buf *b, const void *p, size_t n)
{
	buf_grow(b, n);
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void
lz_buf_puts(struct lz_buf *b, const char *s)
{
	lz_buf_add(b, s, strlen(s));
}

void
lz_buf_putc(struct lz_buf *b, char c)
{
	lz_buf_add(b, &c, 1);
}

void
lz_buf_vprintf(struct lz_buf *b, const char *fmt, va_list ap)
{
	va_list	 ap2;
	int	 n;

	/* Into the room there is; only what does not fit is formatted
	 * twice (most calls fit: printf is the cost). */
	buf_grow(b, 63);
	va_copy(ap2, ap);
	n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		b->p[b->len] = '\0';
		return;
	}
	if ((size_t)n >= b->cap - b->len) {
		buf_grow(b, (size_t)n);
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

void
lz_buf_putll(struct lz_buf *b, long long n)
{
	char			 d[24], *p = d + sizeof(d);
	unsigned long long	 u = n < 0 ? 0ULL - (unsigned long long)n :
	    (unsigned long long)n;

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (n < 0)
		*--p = '-';
	lz_buf_add(b, p, (size_t)(d + sizeof(d) - p));
}

void
lz_buf_printf(struct lz_buf *b, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	lz_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
lz_buf_reset(struct lz_buf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

void
lz_buf_free(struct lz_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

char *
lz_buf_detach(struct lz_buf *b)
{
	char	*p;

	p = b->p ? b->p : xstrdup("");
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

const char *
lz_buf_str(const struct lz_buf *b)
{
	return b->p ? b->p : "";
}

int
lz_parse_ll(const char *s, long long min, long long max, long long *out)
{
	char		*end;
	long long	 v;

	if (s == NULL || *s == '\0')
		return -1;
	if (!(*s == '-' || (*s >= '0' && *s <= '9')))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || end == s)
		return -1;
	if (v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

size_t
lz_strlist_split(const char *s, char ***out)
{
	char		**v = NULL;
	size_t		  n = 0;
	const char	 *p, *q;

	for (p = s; p && *p; p = q) {
		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		for (q = p; *q && *q != ',' && *q != ' ' && *q != '\t'; q++)
			continue;
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n++] = xstrndup(p, (size_t)(q - p));
	}
	*out = v;
	return n;
}

void
lz_strlist_free(char **v, size_t n)
{
	lz_strs_free(v, n);
	free(v);
}

void
lz_strs_free(char **v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(v[i]);
}

int
lz_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void
lz_bits_str(unsigned bits, const struct lz_bitname *tab, size_t n,
    const char *sep, char *buf, size_t len)
{
	size_t	 i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		if (bits & tab[i].bit)
			used += (size_t)snprintf(buf + used, used < len ?
			    len - used : 0, "%s%s", used ? sep : "",
			    tab[i].name);
}

int
lz_streq_ct(const char *a, const char *b)
{
	size_t	 la = strlen(a), lb = strlen(b);

	/* Compare the common length in constant time; lengths of secrets
	 * here are fixed by format, so a length mismatch leaks nothing. */
	if (la != lb)
		return 0;
	return sodium_memcmp(a, b, la) == 0;
}

static unsigned char	hash_key[crypto_shorthash_KEYBYTES];
static pthread_once_t	hash_keyed = PTHREAD_ONCE_INIT;

static void
hash_key_make(void)
{
	randombytes_buf(hash_key, sizeof(hash_key));
}

/* Any thread: the key is made once, at the process's first call. */
uint64_t
lz_hash_keyed(const void *p, size_t n)
{
	unsigned char		 h[crypto_shorthash_BYTES];
	uint64_t		 v;

	(void)pthread_once(&hash_keyed, hash_key_make);
	crypto_shorthash(h, p, n, hash_key);
	memcpy(&v, h, sizeof(v));
	return v;
}

/* The slot of s in t: its own, or the free one where it would go. */
static size_t
strtab_slot(const struct lz_strtab *t, const char *s)
{
	size_t	 i, k;

	for (i = lz_hash_keyed(s, strlen(s)) & (t->cap - 1);
	    (k = t->slot[i]) != 0 && strcmp(t->v[k - 1], s) != 0;
	    i = (i + 1) & (t->cap - 1))
		;
	return i;
}

size_t
lz_strtab_put(struct lz_strtab *t, const char *s)
{
	size_t	 i, k;
	size_t	*was;

	if (2 * (t->n + 1) > t->cap) {		/* grown and filled again */
		was = t->slot;
		t->cap = t->cap ? 2 * t->cap : 64;
		t->slot = xcalloc(t->cap, sizeof(*t->slot));
		for (k = 0; k < t->n; k++)
			t->slot[strtab_slot(t, t->v[k])] = k + 1;
		free(was);
	}
	i = strtab_slot(t, s);
	if (t->slot[i] != 0)
		return t->slot[i] - 1;
	if (t->n == t->vcap) {
		t->vcap = t->vcap ? 2 * t->vcap : 64;
		t->v = xreallocarray(t->v, t->vcap, sizeof(*t->v));
	}
	t->v[t->n] = xstrdup(s);
	t->slot[i] = ++t->n;
	return t->n - 1;
}

void
lz_strtab_free(struct lz_strtab *t)
{
	size_t	 k;

	for (k = 0; k < t->n; k++)
		free(t->v[k]);
	free(t->v);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

size_t
lz_discard(char *p, size_t size, size_t n, void *arg)
{
	(void)p;
	(void)arg;
	return size * n;
}
