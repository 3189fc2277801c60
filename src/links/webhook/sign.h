/*
 * sign.h -- webhook secrets and signatures (spec 5.4, DESIGN 3.6): a
 * secret "whsec_..." is shown once and stored encrypted (libsodium
 * secretbox, key derived from the key file with context "webhooks");
 * deliveries are signed with HMAC-SHA256 keyed with the whole secret
 * string, over the raw body: X-Lz-Signature: sha256=<hex>.
 */
#ifndef LZ_WEBHOOK_SIGN_H
#define LZ_WEBHOOK_SIGN_H

#include <stddef.h>

#include "webhook/webhook.h"

struct lz_conf;

/* The subscription key, derived from the key file of conf; 0 or -1. */
int	webhook_key_load(const struct lz_conf *, unsigned char
	    key[WEBHOOK_KEY_BYTES], char *err, size_t errlen);
/* A new secret "whsec_..." (WEBHOOK_SECRET_LEN + 1 bytes). */
void	webhook_secret_new(char *out);
/* Encrypts a secret into box (nonce + secretbox). */
void	webhook_secret_seal(const unsigned char key[WEBHOOK_KEY_BYTES],
	    const char *secret, unsigned char box[WEBHOOK_BOX_LEN]);
/* Decrypts and checks box into out (WEBHOOK_SECRET_LEN + 1); 0 or -1. */
int	webhook_secret_open(const unsigned char key[WEBHOOK_KEY_BYTES],
	    const unsigned char box[WEBHOOK_BOX_LEN], char *out);

/* Lower-case hex of HMAC-SHA256(key, msg) (65 bytes with the NUL). */
void	webhook_hmac_hex(const unsigned char *key, size_t keylen,
	    const void *msg, size_t len, char hex[65]);
/* "sha256=<hex>" of body under secret (WEBHOOK_SIG_LEN + 1 bytes). */
void	webhook_sign(const char *secret, const void *body, size_t len,
	    char *sig);

#endif
