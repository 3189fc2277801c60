/*
 * tag.c -- a link's tags: checked, trimmed and folded by ICU (tag.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <unicode/uchar.h>
#include <unicode/ustring.h>
#include <unicode/utf16.h>

#include "link/tag.h"

/* UTF-16 units of a tag, with room to find one too long. */
#define UNITS	(TAG_CHARS * 2 + 8)

static int
allowed(UChar32 c)
{
	return (U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK |
	    U_GC_ND_MASK)) != 0 || c == '-' || c == '_' || c == '.' ||
	    c == ' ';
}

int
tag_parse(const char *in, char *name, char *fold, char *why, size_t whylen)
{
	UChar		 u[UNITS], f[UNITS * 3];
	UErrorCode	 st = U_ZERO_ERROR;
	int32_t		 n, fn, i, end, chars = 0;
	size_t		 len;
	UChar32		 c;

	/* Trimmed of spaces at both ends, as bytes: spaces are ASCII. */
	while (*in == ' ')
		in++;
	len = strlen(in);
	while (len > 0 && in[len - 1] == ' ')
		len--;
	if (len == 0) {
		snprintf(why, whylen, "is empty");
		return -1;
	}
	if (len >= TAG_BYTES) {
		snprintf(why, whylen, "is longer than %d characters",
		    TAG_CHARS);
		return -1;
	}
	u_strFromUTF8(u, UNITS, &n, in, (int32_t)len, &st);
	if (U_FAILURE(st) || n >= UNITS) {
		snprintf(why, whylen, st == U_INVALID_CHAR_FOUND ?
		    "is not valid UTF-8" : "is longer than %d characters",
		    TAG_CHARS);
		return -1;
	}
	for (i = 0; i < n; chars++) {
		U16_NEXT(u, i, n, c);
		if (!allowed(c)) {
			snprintf(why, whylen, "may hold only letters, digits, "
			    "'-', '_', '.' and spaces (not U+%04X)", (unsigned)c);
			return -1;
		}
	}
	if (chars > TAG_CHARS) {
		snprintf(why, whylen, "is longer than %d characters",
		    TAG_CHARS);
		return -1;
	}
	memcpy(name, in, len);
	name[len] = '\0';
	fn = u_strFoldCase(f, UNITS * 3, u, n, U_FOLD_CASE_DEFAULT, &st);
	end = 0;
	if (U_SUCCESS(st))
		u_strToUTF8(fold, TAG_FOLD_BYTES, &end, f, fn, &st);
	if (U_FAILURE(st) || end >= TAG_FOLD_BYTES) {
		snprintf(why, whylen, "cannot be folded");
		return -1;
	}
	fold[end] = '\0';
	return 0;
}
