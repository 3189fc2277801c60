/*
 * sign.c -- webhook secrets and signatures (sign.h).
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "conf.h"
#include "keyfile.h"
#include "log.h"
#include "rnd.h"
#include "webhook/sign.h"

int
webhook_key_load(const struct lz_conf *c, unsigned char key[WEBHOOK_KEY_BYTES],
    char *err, size_t errlen)
{
	unsigned char	 master[LZ_KEY_BYTES];

	if (lz_keyfile_load(c->key_file, master, err, errlen) == -1)
		return -1;
	lz_key_derive(master, "webhooks", 0, key, WEBHOOK_KEY_BYTES);
	sodium_memzero(master, sizeof(master));
	return 0;
}

void
webhook_secret_new(char *out)
{
	memcpy(out, WEBHOOK_SECRET_PREFIX, 6);
	lz_rnd_base62(out + 6, WEBHOOK_SECRET_RANDOM);
}

void
webhook_secret_seal(const unsigned char key[WEBHOOK_KEY_BYTES],
    const char *secret, unsigned char box[WEBHOOK_BOX_LEN])
{
	randombytes_buf(box, crypto_secretbox_NONCEBYTES);
	crypto_secretbox_easy(box + crypto_secretbox_NONCEBYTES,
	    (const unsigned char *)secret, WEBHOOK_SECRET_LEN, box, key);
}

int
webhook_secret_open(const unsigned char key[WEBHOOK_KEY_BYTES],
    const unsigned char box[WEBHOOK_BOX_LEN], char *out)
{
	if (crypto_secretbox_open_easy((unsigned char *)out,
	    box + crypto_secretbox_NONCEBYTES,
	    WEBHOOK_BOX_LEN - crypto_secretbox_NONCEBYTES, box, key) != 0) {
		out[0] = '\0';
		return -1;
	}
	out[WEBHOOK_SECRET_LEN] = '\0';
	return 0;
}

void
webhook_hmac_hex(const unsigned char *key, size_t keylen, const void *msg,
    size_t len, char hex[65])
{
	crypto_auth_hmacsha256_state	 st;
	unsigned char			 mac[crypto_auth_hmacsha256_BYTES];

	crypto_auth_hmacsha256_init(&st, key, keylen);
	crypto_auth_hmacsha256_update(&st, msg, len);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_bin2hex(hex, 65, mac, sizeof(mac));
	sodium_memzero(&st, sizeof(st));
}

void
webhook_sign(const char *secret, const void *body, size_t len, char *sig)
{
	memcpy(sig, "sha256=", 7);
	webhook_hmac_hex((const unsigned char *)secret, strlen(secret), body,
	    len, sig + 7);
}
