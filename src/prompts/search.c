/*
 * search.c -- case folding and names for literal search (search.h).
 */
#include "config.h"

#include <limits.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "search.h"
#include "utf8.h"
#include "util.h"

/*
 * Calls fn for every character of s (decoded under C.UTF-8); stops at
 * the end or at an invalid sequence, which is copied as is.
 */
static void
each_char(const char *s, void (*fn)(wchar_t, const char *, size_t, void *),
    void *arg)
{
	mbstate_t	 st;
	locale_t	 loc, old;
	wchar_t		 wc;
	size_t		 len = strlen(s), r;

	if ((loc = lz_utf8_locale()) == (locale_t)0)
		abort();	/* C.UTF-8 is part of glibc */
	old = uselocale(loc);
	memset(&st, 0, sizeof(st));
	while (len > 0) {
		if ((unsigned char)*s < 0x80) {
			fn((wchar_t)*s, s, 1, arg);
			s++;
			len--;
			continue;
		}
		r = mbrtowc(&wc, s, len, &st);
		if (r == (size_t)-1 || r == (size_t)-2 || r == 0) {
			/* Not reached for text that passed lz_utf8_count. */
			fn((wchar_t)-1, s, len, arg);
			break;
		}
		fn(wc, s, r, arg);
		s += r;
		len -= r;
	}
	uselocale(old);
}

static void
fold_one(wchar_t wc, const char *raw, size_t rawlen, void *arg)
{
	struct lz_buf	*b = arg;
	char		 mb[MB_LEN_MAX];
	mbstate_t	 st;
	wint_t		 lc;
	size_t		 n;

	if (wc == (wchar_t)-1) {
		lz_buf_add(b, raw, rawlen);
		return;
	}
	if (wc < 0x80) {
		lz_buf_putc(b, (char)(wc >= 'A' && wc <= 'Z' ? wc + 32 : wc));
		return;
	}
	lc = towlower_l((wint_t)wc, lz_utf8_locale());
	memset(&st, 0, sizeof(st));
	if ((n = wcrtomb(mb, (wchar_t)lc, &st)) == (size_t)-1)
		lz_buf_add(b, raw, rawlen);
	else
		lz_buf_add(b, mb, n);
}

void
search_fold(struct lz_buf *b, const char *s)
{
	each_char(s, fold_one, b);
}

char *
search_fold_dup(const char *s)
{
	struct lz_buf	 b = LZ_BUF_INIT;

	if (s == NULL)
		return NULL;
	search_fold(&b, s);
	return lz_buf_detach(&b);
}

void
search_field(struct lz_buf *b, const char *s)
{
	if (s == NULL || *s == '\0')
		return;
	search_fold(b, s);
	lz_buf_puts(b, SEARCH_SEP);
}

struct chars {
	uint32_t	*cp;
	size_t		 n, cap;
	int		 bad;
};

static void
char_one(wchar_t wc, const char *raw, size_t rawlen, void *arg)
{
	struct chars	*c = arg;

	(void)raw;
	(void)rawlen;
	if (wc == (wchar_t)-1 || c->bad) {
		c->bad = 1;
		return;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->cp = xreallocarray(c->cp, c->cap, sizeof(*c->cp));
	}
	c->cp[c->n++] = (uint32_t)wc;
}

uint32_t *
search_chars(const char *s, size_t *n)
{
	struct chars	 c;

	memset(&c, 0, sizeof(c));
	each_char(s, char_one, &c);
	if (c.cp == NULL)
		c.cp = xmalloc(sizeof(*c.cp));
	*n = c.n;
	return c.cp;
}

struct tagnorm {
	struct lz_buf	 b;
	int		 bad;
	int		 dash;	/* a separator is pending */
};

static void
tag_one(wchar_t wc, const char *raw, size_t rawlen, void *arg)
{
	struct tagnorm	*t = arg;

	(void)raw;
	(void)rawlen;
	if (wc == (wchar_t)-1 || wc < 0x20 || wc == 0x7f || (wc >= 0x80 &&
	    wc < 0xa0)) {
		t->bad = 1;		/* invalid UTF-8 or a control */
		return;
	}
	if (wc == ' ' || wc == '_' || wc == '-' || iswspace_l((wint_t)wc,
	    lz_utf8_locale())) {
		t->dash = 1;
		return;
	}
	if (!iswalnum_l((wint_t)wc, lz_utf8_locale()) && !(wc < 0x80 &&
	    strchr(".+#&'", (int)wc) != NULL)) {
		t->bad = 1;
		return;
	}
	if (t->dash && t->b.len > 0)
		lz_buf_putc(&t->b, '-');
	t->dash = 0;
	fold_one(wc, raw, rawlen, &t->b);
}

char *
search_tag_name(const char *s)
{
	struct tagnorm	 t;

	memset(&t, 0, sizeof(t));
	each_char(s, tag_one, &t);
	if (t.bad || t.b.len == 0) {
		lz_buf_free(&t.b);
		return NULL;
	}
	return lz_buf_detach(&t.b);
}

char *
search_tool_name(const char *s)
{
	char	*out;
	size_t	 i, n = strlen(s);

	if (n == 0 || n > 100)
		return NULL;
	out = xmalloc(n + 1);
	for (i = 0; i < n; i++) {
		char	 c = s[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '.' || c == '_' || c == '-')) {
			free(out);
			return NULL;
		}
		out[i] = c;
	}
	out[n] = '\0';
	return out;
}
