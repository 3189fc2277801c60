/*
 * sizes.h -- the sizes the link service's types share: a slug, a
 * suffix, a URL, a visitor id, a variant's label.  Defines only; every
 * header may include it, and it includes nothing.  (Not "limits.h":
 * the compiler finds headers of src/links/ before the system's, and
 * <limits.h> must stay the C library's.)
 */
#ifndef LZ_SIZES_H
#define LZ_SIZES_H

#define SLUG_MAX	64	/* bytes of a slug: 1-64 of [A-Za-z0-9_-] */
#define SLUG_RANDOM_LEN	7	/* base62 characters of a random slug */
#define SUFFIX_MAX	64	/* the channel label of /slug/suffix */
#define URL_MAX		2048	/* bytes of a destination or receiving URL */
#define VISITOR_ID_LEN	16	/* bytes of the keyed visitor hash */
#define VARIANT_MAX	8	/* a variant's label with its NUL: "0".."9",
				   "ios", "android", "desktop", "TW" */
#define HOST_MAX	253	/* characters of a short domain's host */

#endif
