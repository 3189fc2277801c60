/*
 * search.h -- literal search (DESIGN 4): the one case folding applied to
 * stored text (by the importer) and to queries (by the service), the
 * normal forms of tag and tool names, and the characters of folded text
 * (the index of literal search is grams.h).
 *
 * Matching is literal and case-insensitive: a query matches a field when
 * its folded form is a substring of the field's folded form.  Folding is
 * towlower() under C.UTF-8, i.e. Unicode's simple lower-case mapping, so
 * "Cat", "CAT" and "cat" match alike, and so do "Ｃａｔ" and "ｃａｔ";
 * Chinese has no case and is compared as is.  No other normalisation is
 * made (no NFKC, no width folding, no diacritics removal): "%", "_", "*"
 * and quotes are ordinary characters.
 */
#ifndef LZ_SEARCH_H
#define LZ_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* Separates (and ends) fields of stored search text.  Queries cannot
 * contain it (control characters are refused), so no match spans two
 * fields, and every character of a field is followed by at least two
 * more characters, so every substring of one or two characters begins a
 * trigram of the index. */
#define SEARCH_SEP	"\x1f\x1f"
#define SEARCH_SEP_CHAR	0x1f	/* its character, never part of a gram */

/* Appends s (valid UTF-8) folded. */
void	 search_fold(struct lz_buf *, const char *s);
/* s folded, or NULL for NULL; the caller frees. */
char	*search_fold_dup(const char *s);
/* Appends s folded and SEARCH_SEP; nothing for NULL or "". */
void	 search_field(struct lz_buf *, const char *s);
/* The characters (code points) of s, *n of them, up to the end or the
 * first invalid sequence; the caller frees. */
uint32_t *search_chars(const char *s, size_t *n);

/*
 * The normal form of a tag name (slug, label, alias or the tag filter's
 * value): folded, trimmed, runs of spaces, '_' and '-' made one '-'.
 * Letters and digits of any script and " -_.+#&'" are allowed; anything
 * else makes the name invalid.  Returns NULL when invalid or empty; the
 * caller frees.
 */
char	*search_tag_name(const char *s);

/*
 * The normal form of a tool key or alias: ASCII-folded; [a-z0-9._-]
 * only.  Returns NULL when invalid or empty; the caller frees.
 */
char	*search_tool_name(const char *s);

#endif
