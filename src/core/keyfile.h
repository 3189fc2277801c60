/*
 * keyfile.h -- the secret key file named by key_file in lz.conf: 32
 * random bytes, mode 0600, made by "lzctl init".  Keys for particular
 * uses (webhook secret encryption, visitor ids, sessions) are derived from
 * it with libsodium's KDF, so one file serves all and none is reused.
 */
#ifndef LZ_KEYFILE_H
#define LZ_KEYFILE_H

#include <stddef.h>
#include <stdint.h>

#define LZ_KEY_BYTES	32

/* Reads the key; 0, or -1 with err. */
int	lz_keyfile_load(const char *path, unsigned char key[LZ_KEY_BYTES],
	    char *err, size_t errlen);
/* Creates the key file if it does not exist (mode 0600).  Returns 1 when
 * created, 0 when it existed, -1 with err. */
int	lz_keyfile_create(const char *path, char *err, size_t errlen);
/*
 * Derives a subkey for a purpose: ctx is exactly 8 characters (libsodium
 * KDF context, e.g. "webhooks", "visitors"), id tells keys of one purpose
 * apart (e.g. the day number for daily salts).
 */
void	lz_key_derive(const unsigned char key[LZ_KEY_BYTES], const char *ctx,
	    uint64_t id, unsigned char *out, size_t outlen);

#endif
