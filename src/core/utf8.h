/*
 * utf8.h -- UTF-8 validation and character counts, by glibc's own
 * decoder (mbrtowc under the C.UTF-8 locale): overlong forms, surrogates
 * and truncated sequences are refused there; code points past U+10FFFF
 * are refused here.
 */
#ifndef LZ_UTF8_H
#define LZ_UTF8_H

#include <locale.h>
#include <stddef.h>

#define LZ_UTF8_NOCTRL	0x01	/* refuse C0 controls and DEL (also NUL) */

/*
 * Checks that s[0..len) is valid UTF-8 (and, with LZ_UTF8_NOCTRL, free of
 * control characters).  Returns the number of characters, or -1.
 */
long	lz_utf8_count(const char *s, size_t len, unsigned flags);

/* The C.UTF-8 locale, made once; (locale_t)0 when it cannot be. */
locale_t lz_utf8_locale(void);

#endif
