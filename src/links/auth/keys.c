/*
 * keys.c -- API key format, checksum and hash.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "auth/keys.h"
#include "rnd.h"

static void
checksum(const char *s, size_t len, char *out)
{
	unsigned char	 h[crypto_generichash_BYTES_MIN];
	uint64_t	 v;

	crypto_generichash(h, sizeof(h), (const unsigned char *)s, len, NULL,
	    0);
	v = (uint64_t)h[0] << 24 | (uint64_t)h[1] << 16 |
	    (uint64_t)h[2] << 8 | h[3];
	lz_base62_fixed(v, out, KEY_CHECK_LEN);
}

void
key_generate(char *out)
{
	memcpy(out, KEY_PREFIX, KEY_PREFIX_LEN);
	lz_rnd_base62(out + KEY_PREFIX_LEN, KEY_RANDOM_LEN);
	checksum(out, KEY_PREFIX_LEN + KEY_RANDOM_LEN,
	    out + KEY_PREFIX_LEN + KEY_RANDOM_LEN);
	out[KEY_LEN] = '\0';
}

int
key_wellformed(const char *s)
{
	char	 sum[KEY_CHECK_LEN];
	size_t	 i;

	if (strlen(s) != KEY_LEN || memcmp(s, KEY_PREFIX, KEY_PREFIX_LEN))
		return 0;
	for (i = KEY_PREFIX_LEN; i < KEY_LEN; i++)
		if (strchr(lz_base62, s[i]) == NULL || s[i] == '\0')
			return 0;
	checksum(s, KEY_PREFIX_LEN + KEY_RANDOM_LEN, sum);
	return sodium_memcmp(sum, s + KEY_PREFIX_LEN + KEY_RANDOM_LEN,
	    KEY_CHECK_LEN) == 0;
}

void
key_hash(const char *key, unsigned char out[KEY_HASH_LEN])
{
	crypto_generichash(out, KEY_HASH_LEN, (const unsigned char *)key,
	    strlen(key), NULL, 0);
}

void
key_display(const char *key, char *prefix, char *last4)
{
	size_t	 len = strlen(key);

	memcpy(prefix, key, KEY_SHOWN_LEN);
	prefix[KEY_SHOWN_LEN] = '\0';
	memcpy(last4, key + (len >= 4 ? len - 4 : 0), 4);
	last4[4] = '\0';
}
