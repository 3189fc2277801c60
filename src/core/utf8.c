/*
 * utf8.c -- UTF-8 checks through the C library's decoder.
 */
#include "config.h"

#include <locale.h>
#include <string.h>
#include <wchar.h>

#include "utf8.h"

locale_t
lz_utf8_locale(void)
{
	static locale_t	 loc = (locale_t)0;

	if (loc == (locale_t)0)
		loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	return loc;
}

long
lz_utf8_count(const char *s, size_t len, unsigned flags)
{
	mbstate_t	 st;
	locale_t	 loc, old;
	wchar_t		 wc;
	size_t		 r;
	long		 n = 0;
	const unsigned char *p = (const unsigned char *)s;

	/* Plain ASCII is the common case and needs no decoder. */
	for (; len > 0 && *p < 0x80; p++, len--, n++)
		if ((flags & LZ_UTF8_NOCTRL) && (*p < 0x20 || *p == 0x7f))
			return -1;
	if (len == 0)
		return n;
	if ((loc = lz_utf8_locale()) == (locale_t)0)
		return -1;
	old = uselocale(loc);
	memset(&st, 0, sizeof(st));
	while (len > 0) {
		r = mbrtowc(&wc, (const char *)p, len, &st);
		if (r == (size_t)-1 || r == (size_t)-2 || (unsigned long)wc >
		    0x10ffff) {
			n = -1;
			break;
		}
		if (r == 0) {		/* an embedded NUL */
			if (flags & LZ_UTF8_NOCTRL) {
				n = -1;
				break;
			}
			r = 1;
		}
		if ((flags & LZ_UTF8_NOCTRL) && (wc < 0x20 || wc == 0x7f ||
		    (wc >= 0x80 && wc < 0xa0))) {
			n = -1;
			break;
		}
		p += r;
		len -= r;
		n++;
	}
	uselocale(old);
	return n;
}
