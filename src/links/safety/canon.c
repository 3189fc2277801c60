/*
 * canon.c -- URL canonicalisation the Safe Browsing way (canon.h).
 *
 * The steps follow "URLs and Hashing" of the Safe Browsing v4 API; where
 * that text is silent, browsers (the WHATWG URL standard) decide: a
 * backslash ends the authority and is a slash in the path, the last '@'
 * ends the user information, a host whose last label is a number is an
 * IPv4 address, IDN processing is UTS #46 (idn.c).
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safety/canon.h"
#include "safety/idn.h"
#include "utf8.h"
#include "util.h"

#define HOST_MAX	253

/* A copy of exactly p[0..n) plus a NUL (p may hold NULs); caller frees. */
static char *
memdup0(const char *p, size_t n)
{
	char	*s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* 1 when every byte of s[0..n) is in set. */
static int
all_in(const char *s, size_t n, const char *set)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (s[i] == '\0' || strchr(set, s[i]) == NULL)
			return 0;
	return 1;
}

/*
 * "Repeatedly percent-unescape until there are no more percent-escapes",
 * in place, in one pass: each byte goes to the output, and whenever the
 * output ends in a valid escape it is decoded at once (the decoded byte
 * may complete an escape with what precedes it: "%%32%35" -> "%25" ->
 * "%").  Escapes never overlap and every decoding shortens the text, so
 * any order of decoding ends in the same text; this order takes linear
 * time where pass after pass would take quadratic time on "%252525...".
 */
static void
unescape_all(char *b, size_t *len)
{
	size_t	 i, j, n = *len;
	int	 hi, lo;

	for (i = j = 0; i < n; i++) {
		b[j++] = b[i];
		while (j >= 3 && b[j - 3] == '%' && (hi = lz_hexval(b[j - 2])) >=
		    0 && (lo = lz_hexval(b[j - 1])) >= 0) {
			b[j - 3] = (char)(hi << 4 | lo);
			j -= 2;
		}
	}
	*len = j;
}

/* Appends s[0..n) to out, escaping <= 0x20, >= 0x7f, '#' and '%'. */
static void
escape_into(struct lz_buf *out, const char *s, size_t n)
{
	static const char	 hex[] = "0123456789ABCDEF";
	unsigned char		 ch;
	char			 esc[3];
	size_t			 i;

	for (i = 0; i < n; i++) {
		ch = (unsigned char)s[i];
		if (ch <= 0x20 || ch >= 0x7f || ch == '#' || ch == '%') {
			esc[0] = '%';
			esc[1] = hex[ch >> 4];
			esc[2] = hex[ch & 15];
			lz_buf_add(out, esc, 3);
		} else
			lz_buf_putc(out, (char)ch);
	}
}

static char *
escape_dup(const char *s, size_t n)
{
	struct lz_buf	 b = LZ_BUF_INIT;

	escape_into(&b, s, n);
	return lz_buf_detach(&b);
}

/* Lower-cases ASCII, drops leading and trailing dots and collapses runs
 * of dots, in place. */
static void
host_dots(char *h, size_t *len)
{
	size_t	 i, j, n = *len;

	for (i = j = 0; i < n; i++) {
		if (h[i] == '.' && (j == 0 || h[j - 1] == '.'))
			continue;
		h[j++] = (h[i] >= 'A' && h[i] <= 'Z') ? (char)(h[i] + 32) :
		    h[i];
	}
	while (j > 0 && h[j - 1] == '.')
		j--;
	*len = j;
}

/* 1 when the last label of h[0..n) is a number in the sense of the URL
 * standard: decimal digits, or "0x" and hexadecimal digits. */
static int
ends_in_number(const char *h, size_t n)
{
	size_t	 i = n;

	while (i > 0 && h[i - 1] != '.')
		i--;
	if (i == n)
		return 0;
	if (n - i >= 2 && h[i] == '0' && (h[i + 1] == 'x' || h[i + 1] == 'X')) {
		for (i += 2; i < n; i++)
			if (lz_hexval(h[i]) < 0)
				return 0;
		return 1;
	}
	for (; i < n; i++)
		if (h[i] < '0' || h[i] > '9')
			return 0;
	return 1;
}

/*
 * IPv4 in any notation the resolver accepts (lz_addr_parse_host) -- one
 * to four parts, each decimal, octal (leading 0) or hexadecimal (0x), the
 * notations the URL standard accepts too.  Writes the dotted quad to out.
 */
static int
ipv4_parse(const char *h, size_t n, char *out, size_t outlen,
    struct lz_addr *a)
{
	char	 buf[64];

	if (n == 0 || n >= sizeof(buf) || !all_in(h, n, "0123456789abcdefxX."))
		return -1;
	memcpy(buf, h, n);
	buf[n] = '\0';
	if (lz_addr_parse_host(buf, a) == -1 || !a->v4)
		return -1;
	lz_addr_fmt(a, out, outlen);
	return 0;
}

/* An "[IPv6]" literal; writes "[canonical text]" to out. */
static int
ipv6_parse(const char *h, size_t n, char *out, size_t outlen,
    struct lz_addr *a)
{
	struct in6_addr	 in6;
	char		 buf[INET6_ADDRSTRLEN + 8], text[INET6_ADDRSTRLEN];

	if (n < 3 || h[0] != '[' || h[n - 1] != ']' || n - 2 >= sizeof(buf))
		return -1;
	if (!all_in(h + 1, n - 2, "0123456789abcdefABCDEF:."))
		return -1;
	memcpy(buf, h + 1, n - 2);
	buf[n - 2] = '\0';
	if (inet_pton(AF_INET6, buf, &in6) != 1 ||
	    inet_ntop(AF_INET6, &in6, text, sizeof(text)) == NULL)
		return -1;
	snprintf(out, outlen, "[%s]", text);
	memset(a, 0, sizeof(*a));
	memcpy(a->b, &in6, 16);
	return 0;
}

/*
 * Canonicalises the unescaped host h[0..n) into out (not yet escaped),
 * adding CANON_* flags.
 */
static void
host_canon(const char *h, size_t n, struct lz_buf *out, unsigned *flags,
    struct lz_addr *addr)
{
	char	*tmp, ascii[HOST_MAX * 4 + 16], ip[INET6_ADDRSTRLEN + 2];
	size_t	 i, len;
	int	 nonascii = 0;

	if (n > 0 && h[0] == '[') {
		if (ipv6_parse(h, n, ip, sizeof(ip), addr) == 0) {
			*flags |= CANON_IPV6;
			lz_buf_puts(out, ip);
		} else {
			*flags |= CANON_HOST_BAD;
			tmp = memdup0(h, n);
			len = n;
			host_dots(tmp, &len);
			lz_buf_add(out, tmp, len);
			free(tmp);
		}
		return;
	}
	tmp = memdup0(h, n);
	len = n;
	for (i = 0; i < n; i++)
		if ((unsigned char)h[i] >= 0x80)
			nonascii = 1;
	if (nonascii) {
		if (lz_utf8_count(tmp, len, 0) < 0 ||
		    idn_to_ascii(tmp, len, ascii, sizeof(ascii)) < 0)
			*flags |= CANON_IDN_BAD;
		else {
			free(tmp);
			len = strlen(ascii);
			tmp = xstrndup(ascii, len);
		}
	}
	host_dots(tmp, &len);
	if (len > 0 && ends_in_number(tmp, len)) {
		if (ipv4_parse(tmp, len, ip, sizeof(ip), addr) == 0) {
			*flags |= CANON_IPV4;
			lz_buf_puts(out, ip);
			free(tmp);
			return;
		}
		*flags |= CANON_NUMERIC;
	}
	if (len > HOST_MAX || !all_in(tmp, len, "abcdefghijklmnopqrstuvwxyz"
	    "0123456789.-_"))
		*flags |= CANON_HOST_BAD;
	for (i = 0; i + 4 <= len; i++)
		if ((i == 0 || tmp[i - 1] == '.') &&
		    strncmp(tmp + i, "xn--", 4) == 0)
			*flags |= CANON_IDN;
	lz_buf_add(out, tmp, len);
	free(tmp);
}

/*
 * Resolves "." and ".." segments of the unescaped path p[0..n) (which
 * starts with '/') like RFC 3986 5.2.4, then collapses runs of slashes.
 * Appends the result to out.
 */
static void
path_canon(const char *p, size_t n, struct lz_buf *out)
{
	struct seg { size_t off, len; } *st;
	struct lz_buf	 b = LZ_BUF_INIT;
	const char	*s;
	size_t		 i, nst = 0, start, len;
	int		 dir = 0;

	st = xreallocarray(NULL, n + 1, sizeof(*st));
	for (start = 1; start <= n; start = i + 1) {
		for (i = start; i < n && p[i] != '/'; i++)
			continue;
		len = i - start;
		dir = 0;
		if (len == 1 && p[start] == '.')
			dir = 1;
		else if (len == 2 && p[start] == '.' && p[start + 1] == '.') {
			if (nst > 0)
				nst--;
			dir = 1;
		} else {
			st[nst].off = start;
			st[nst].len = len;
			nst++;
		}
		if (i >= n)
			break;
	}
	for (i = 0; i < nst; i++) {
		lz_buf_putc(&b, '/');
		lz_buf_add(&b, p + st[i].off, st[i].len);
	}
	if (dir || nst == 0)
		lz_buf_putc(&b, '/');
	free(st);
	/* Runs of slashes become one. */
	s = lz_buf_str(&b);
	for (i = 0; i < b.len; i++)
		if (!(s[i] == '/' && i > 0 && s[i - 1] == '/'))
			lz_buf_putc(out, s[i]);
	lz_buf_free(&b);
}

void
canon_free(struct canon *c)
{
	free(c->host);
	free(c->path);
	free(c->query);
	free(c->url);
	memset(c, 0, sizeof(*c));
}

/* Length of the scheme of a "scheme://" prefix of s[0..n), or 0. */
static size_t
scheme_len(const char *s, size_t n)
{
	size_t	 i;

	if (n == 0 || !isalpha((unsigned char)s[0]))
		return 0;
	for (i = 1; i < n && (isalnum((unsigned char)s[i]) || s[i] == '+' ||
	    s[i] == '-' || s[i] == '.'); i++)
		continue;
	if (n - i < 3 || memcmp(s + i, "://", 3) != 0)
		return 0;
	return i;
}

/* Splits the authority a[0..alen) into user information, host and port;
 * returns the host's length and sets *host. */
static size_t
split_authority(char *a, size_t alen, struct canon *c, char **host)
{
	char	*h = a, *colon = NULL, *close, *end;
	size_t	 i, hlen;
	long	 port = 0;

	for (i = alen; i > 0; i--)
		if (a[i - 1] == '@') {
			c->flags |= CANON_USERINFO;
			h = a + i;
			break;
		}
	hlen = alen - (size_t)(h - a);
	end = h + hlen;
	if (hlen > 0 && h[0] == '[') {
		close = memchr(h, ']', hlen);
		if (close != NULL && close + 1 < end) {
			if (close[1] == ':')
				colon = close + 1;
			else
				c->flags |= CANON_HOST_BAD;
		}
	} else
		for (i = hlen; i > 0; i--)
			if (h[i - 1] == ':') {
				colon = h + i - 1;
				break;
			}
	if (colon != NULL) {
		for (i = 1; colon + i < end; i++) {
			if (colon[i] < '0' || colon[i] > '9' || port > 65535) {
				port = -1;
				break;
			}
			port = port * 10 + (colon[i] - '0');
		}
		if (colon + 1 < end) {
			if (port < 0 || port > 65535)
				c->flags |= CANON_BAD_PORT;
			else
				c->port = (int)port;
		}
		hlen = (size_t)(colon - h);
	}
	*host = h;
	return hlen;
}

int
canon_url(const char *in, size_t len, struct canon *c)
{
	struct lz_buf	 b = LZ_BUF_INIT;
	char		*s, *rest, *host, *path, *query, *hash, *q;
	size_t		 i, n, slen, alen, hlen, plen, qlen;
	int		 special;

	memset(c, 0, sizeof(*c));
	c->port = -1;
	if (len > CANON_INPUT_MAX)
		return -1;

	/* Tab, CR and LF go; leading and trailing spaces and controls too;
	 * then the fragment. */
	s = xmalloc(len + 1);
	for (i = n = 0; i < len; i++)
		if (in[i] != '\t' && in[i] != '\r' && in[i] != '\n')
			s[n++] = in[i];
	for (i = 0; i < n && (unsigned char)s[i] <= 0x20; i++)
		continue;
	memmove(s, s + i, n - i);
	n -= i;
	while (n > 0 && (unsigned char)s[n - 1] <= 0x20)
		n--;
	if ((hash = memchr(s, '#', n)) != NULL)
		n = (size_t)(hash - s);

	/* "scheme://", else http. */
	if ((slen = scheme_len(s, n)) >= sizeof(c->scheme)) {
		free(s);
		return -1;
	}
	if (slen > 0) {
		for (i = 0; i < slen; i++)
			c->scheme[i] = (char)tolower((unsigned char)s[i]);
		rest = s + slen + 3;
		n -= slen + 3;
	} else {
		snprintf(c->scheme, sizeof(c->scheme), "http");
		c->flags |= CANON_NO_SCHEME;
		rest = s;
	}
	special = strcmp(c->scheme, "http") == 0 ||
	    strcmp(c->scheme, "https") == 0;

	/* The authority ends at '/', '?' or (as in browsers) '\'. */
	for (alen = 0; alen < n && rest[alen] != '/' && rest[alen] != '?' &&
	    rest[alen] != '\\'; alen++)
		continue;
	if (alen < n && rest[alen] == '\\')
		c->flags |= CANON_BACKSLASH;
	hlen = split_authority(rest, alen, c, &host);
	unescape_all(host, &hlen);
	host_canon(host, hlen, &b, &c->flags, &c->addr);
	if (b.len == 0) {
		lz_buf_free(&b);
		free(s);
		canon_free(c);
		c->port = -1;
		return -1;
	}
	c->host = escape_dup(lz_buf_str(&b), b.len);
	lz_buf_reset(&b);

	/* The path up to the first '?', the query after it. */
	rest += alen;
	n -= alen;
	q = memchr(rest, '?', n);
	plen = q ? (size_t)(q - rest) : n;
	path = xmalloc(plen + 2);
	if (plen == 0)
		path[plen++] = '/';
	else
		memcpy(path, rest, plen);
	unescape_all(path, &plen);
	if (special)
		for (i = 0; i < plen; i++)
			if (path[i] == '\\')
				path[i] = '/';
	path_canon(path, plen, &b);
	c->path = escape_dup(lz_buf_str(&b), b.len);
	lz_buf_free(&b);
	free(path);
	if (q != NULL) {
		qlen = n - (size_t)(q + 1 - rest);
		query = memdup0(q + 1, qlen);
		unescape_all(query, &qlen);
		c->query = escape_dup(query, qlen);
		free(query);
	}

	if (c->query != NULL)
		c->url = xasprintf("%s://%s%s?%s", c->scheme, c->host,
		    c->path, c->query);
	else
		c->url = xasprintf("%s://%s%s", c->scheme, c->host, c->path);
	free(s);
	return 0;
}

char *
canon_host(const char *in, size_t len, unsigned *flags)
{
	struct lz_buf	 hb = LZ_BUF_INIT;
	struct lz_addr	 a;
	char		*s, *out;
	size_t		 n;

	*flags = 0;
	if (len > CANON_INPUT_MAX)
		return NULL;
	while (len > 0 && (unsigned char)in[0] <= 0x20) {
		in++;
		len--;
	}
	while (len > 0 && (unsigned char)in[len - 1] <= 0x20)
		len--;
	s = memdup0(in, len);
	n = len;
	unescape_all(s, &n);
	host_canon(s, n, &hb, flags, &a);
	free(s);
	if (hb.len == 0) {
		lz_buf_free(&hb);
		return NULL;
	}
	out = escape_dup(lz_buf_str(&hb), hb.len);
	lz_buf_free(&hb);
	return out;
}

static int
add_unique(char **out, size_t *n, char *s)
{
	size_t	 i;

	for (i = 0; i < *n; i++)
		if (strcmp(out[i], s) == 0) {
			free(s);
			return 0;
		}
	out[(*n)++] = s;
	return 1;
}

/* A new string of a[0..alen) followed by b. */
static char *
concat(const char *a, size_t alen, const char *b)
{
	size_t	 blen = strlen(b);
	char	*s = xmalloc(alen + blen + 1);

	memcpy(s, a, alen);
	memcpy(s + alen, b, blen + 1);
	return s;
}

size_t
canon_expressions(const struct canon *c, char **out)
{
	const char	*hosts[5], *p;
	char		*paths[6];
	size_t		 nh = 0, np = 0, n = 0, labels, i, j, m;
	int		 slashes;

	hosts[nh++] = c->host;
	if (!(c->flags & (CANON_IPV4 | CANON_IPV6))) {
		for (labels = 1, p = c->host; *p; p++)
			if (*p == '.')
				labels++;
		/* Suffixes of the last five labels down to two. */
		for (m = labels - 1 < 5 ? labels - 1 : 5; m >= 2; m--) {
			p = c->host + strlen(c->host);
			for (i = 0; i < m; i++) {
				while (p > c->host && p[-1] != '.')
					p--;
				if (i + 1 < m)
					p--;
			}
			hosts[nh++] = p;
		}
	}

	if (c->query != NULL) {
		paths[np] = concat(c->path, strlen(c->path), "?");
		p = paths[np];
		paths[np++] = concat(p, strlen(p), c->query);
		free((char *)(uintptr_t)p);
	}
	paths[np++] = xstrdup(c->path);
	/* "/", then "/a/", "/a/b/", "/a/b/c/": four prefixes at most. */
	for (p = c->path, slashes = 0; *p && slashes < 4; p++)
		if (*p == '/') {
			slashes++;
			add_unique(paths, &np, xstrndup(c->path,
			    (size_t)(p - c->path) + 1));
		}

	/* Hosts differ and paths differ, so every pair is new. */
	for (i = 0; i < nh; i++)
		for (j = 0; j < np; j++)
			out[n++] = concat(hosts[i], strlen(hosts[i]), paths[j]);
	lz_strs_free(paths, np);
	return n;
}

size_t
canon_host_parents(const char *host, unsigned flags, const char **out,
    size_t max)
{
	const char	*p;
	size_t		 n = 0;

	if (max == 0)
		return 0;
	out[n++] = host;
	if (flags & (CANON_IPV4 | CANON_IPV6))
		return n;
	for (p = strchr(host, '.'); p != NULL && n < max;
	    p = strchr(p + 1, '.'))
		if (strchr(p + 1, '.') != NULL)
			out[n++] = p + 1;
	return n;
}

int
canon_host_within(const char *host, const char *domain)
{
	size_t	 hl = strlen(host), dl = strlen(domain);

	if (dl == 0 || hl < dl)
		return 0;
	if (strcmp(host + hl - dl, domain) != 0)
		return 0;
	return hl == dl || host[hl - dl - 1] == '.';
}
