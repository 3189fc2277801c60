/*
 * pwhash.h -- argon2id password hashes (libsodium's interactive limits:
 * 64 MiB and about a tenth of a second each), computed as slow steps of
 * the request in hand (lz_pool_slow), so that no other request waits for
 * them.
 */
#ifndef LZ_PWHASH_H
#define LZ_PWHASH_H

#include <sodium.h>

/* Hashes pw into out; 0, or -1 when out of memory. */
int	lz_pwhash(const char *pw, char out[crypto_pwhash_STRBYTES]);
/* 1 when pw is the password of hash, else 0. */
int	lz_pwhash_ok(const char *hash, const char *pw);

#endif
