/*
 * tag.h -- a link's tags (DESIGN 3.13): labels of 1 to TAG_CHARS
 * characters, letters (any script, with their marks), digits, '-', '_',
 * '.' and spaces, trimmed; compared case-insensitively (Unicode case
 * folding, by ICU), shown as first written.  Pure.
 */
#ifndef LZ_TAG_H
#define LZ_TAG_H

#include <stddef.h>

#define TAG_CHARS	64
#define TAGS_MAX	20		/* tags on one link */
#define TAG_BYTES	(TAG_CHARS * 4 + 1)	/* UTF-8, with the NUL */
/* Folding can lengthen a character (U+0390 is three): */
#define TAG_FOLD_BYTES	(TAG_CHARS * 4 * 3 + 1)

/*
 * Reads the UTF-8 tag in: trimmed into name (TAG_BYTES), its folded form
 * into fold (TAG_FOLD_BYTES, the key that compares).  0, or -1 with why
 * (a sentence fragment: "is empty", "holds '/'").
 */
int	tag_parse(const char *in, char *name, char *fold, char *why,
	    size_t whylen);

#endif
