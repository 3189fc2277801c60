/*
 * keys.h -- API keys: "lk_live_" + 22 random base62 characters (131 bits)
 * + 6 base62 characters of checksum (BLAKE2b of the rest), so a mistyped
 * key is refused before any database look-up.  Only a BLAKE2b-256 hash of
 * the whole key is stored.
 */
#ifndef LZ_KEYS_H
#define LZ_KEYS_H

#include <stddef.h>

#define KEY_PREFIX	"lk_live_"
#define KEY_PREFIX_LEN	8
#define KEY_RANDOM_LEN	22
#define KEY_CHECK_LEN	6
#define KEY_LEN		(KEY_PREFIX_LEN + KEY_RANDOM_LEN + KEY_CHECK_LEN)
#define KEY_HASH_LEN	32
#define KEY_SHOWN_LEN	12	/* "lk_live_" and four more, for lists */
#define KEY_NAME_MAX	100	/* characters of a key's name */

/* Writes a new key (KEY_LEN + 1 bytes). */
void	key_generate(char *out);
/* 1 when s has the format and a correct checksum, else 0. */
int	key_wellformed(const char *s);
/* The stored hash of a key. */
void	key_hash(const char *key, unsigned char out[KEY_HASH_LEN]);
/* The parts shown in lists: prefix (13 bytes) and last four (5 bytes). */
void	key_display(const char *key, char *prefix, char *last4);

#endif
