/*
 * visitor.c -- keyed visitor hashes (BLAKE2b from libsodium).
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "addr.h"
#include "keyfile.h"
#include "lztime.h"
#include "visit/visitor.h"


static unsigned char	 key[LZ_KEY_BYTES];
static unsigned char	 salt[crypto_generichash_KEYBYTES];
static int64_t		 salt_day = -1;
/* The hash keyed with the day's salt, before any data: keying costs a
 * compression of its own, so it is done once a day, not per click. */
static crypto_generichash_state	 salted;
static unsigned char	 bucket_key[crypto_generichash_KEYBYTES];
static unsigned char	 net_key[crypto_generichash_KEYBYTES];

void
visitor_set_key(const unsigned char k[LZ_KEY_BYTES])
{
	memcpy(key, k, sizeof(key));
	salt_day = -1;
	lz_key_derive(key, "abbucket", 0, bucket_key, sizeof(bucket_key));
	lz_key_derive(key, "linkpass", 0, net_key, sizeof(net_key));
}

int
visitor_init(const char *key_file, char *err, size_t errlen)
{
	unsigned char	 k[LZ_KEY_BYTES];

	if (lz_keyfile_load(key_file, k, err, errlen) == -1)
		return -1;
	visitor_set_key(k);
	sodium_memzero(k, sizeof(k));
	return 0;
}

/*
 * The address in its 16-byte form, so "::ffff:1.2.3.4" and "1.2.3.4" are
 * one visitor; text that is not an address is hashed as it is.
 */
static void
hash_addr(crypto_generichash_state *st, const char *addr)
{
	struct lz_addr	 a;

	if (lz_addr_parse(addr, &a) == 0)
		crypto_generichash_update(st, a.b, sizeof(a.b));
	else
		crypto_generichash_update(st, (const unsigned char *)addr,
		    strlen(addr));
}

void
visitor_id(const char *addr, const char *ua, int64_t now_ms,
    unsigned char out[VISITOR_ID_LEN])
{
	crypto_generichash_state	 st;
	unsigned char			 sep = 0;
	int64_t				 day = now_ms / LZ_DAY_MS;

	if (day != salt_day) {
		lz_key_derive(key, "visitors", (uint64_t)day, salt,
		    sizeof(salt));
		crypto_generichash_init(&salted, salt, sizeof(salt),
		    VISITOR_ID_LEN);
		salt_day = day;
	}
	st = salted;
	hash_addr(&st, addr);
	crypto_generichash_update(&st, &sep, 1);
	crypto_generichash_update(&st, (const unsigned char *)ua, strlen(ua));
	crypto_generichash_final(&st, out, VISITOR_ID_LEN);
}

uint64_t
visitor_bucket(const char *addr, const char *ua, int64_t link_id)
{
	crypto_generichash_state	 st;
	unsigned char			 id[8], h[8], sep = 0;
	uint64_t			 v = 0;
	int				 i;

	for (i = 0; i < 8; i++)
		id[i] = (unsigned char)((uint64_t)link_id >> (56 - 8 * i));
	crypto_generichash_init(&st, bucket_key, sizeof(bucket_key),
	    sizeof(h));
	crypto_generichash_update(&st, id, sizeof(id));
	hash_addr(&st, addr);
	crypto_generichash_update(&st, &sep, 1);
	crypto_generichash_update(&st, (const unsigned char *)ua, strlen(ua));
	crypto_generichash_final(&st, h, sizeof(h));
	for (i = 0; i < 8; i++)
		v = v << 8 | h[i];
	return v;
}

void
visitor_net(const char *addr, unsigned char out[VISITOR_NET_LEN])
{
	struct lz_addr	 a;

	static const uint8_t	 mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0xff, 0xff };

	if (lz_addr_parse(addr, &a) == 0) {
		if (memcmp(a.b, mapped, sizeof(mapped)) != 0)
			memset(a.b + 8, 0, 8);	/* the /64 of IPv6 */
		crypto_generichash(out, VISITOR_NET_LEN, a.b, sizeof(a.b),
		    net_key, sizeof(net_key));
	} else
		crypto_generichash(out, VISITOR_NET_LEN,
		    (const unsigned char *)addr, strlen(addr), net_key,
		    sizeof(net_key));
}
