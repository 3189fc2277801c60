/*
 * keyfile.c -- the instance's secret key.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "keyfile.h"

int
lz_keyfile_load(const char *path, unsigned char key[LZ_KEY_BYTES], char *err,
    size_t errlen)
{
	struct stat	 st;
	ssize_t		 n;
	int		 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "key file %s: %s (run 'lzctl init')",
		    path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1 || st.st_size != LZ_KEY_BYTES) {
		snprintf(err, errlen, "key file %s: must hold exactly %d bytes",
		    path, LZ_KEY_BYTES);
		close(fd);
		return -1;
	}
	if (st.st_mode & 0007) {
		snprintf(err, errlen, "key file %s: readable by others; "
		    "chmod 600 it", path);
		close(fd);
		return -1;
	}
	n = read(fd, key, LZ_KEY_BYTES);
	close(fd);
	if (n != LZ_KEY_BYTES) {
		snprintf(err, errlen, "key file %s: short read", path);
		return -1;
	}
	return 0;
}

int
lz_keyfile_create(const char *path, char *err, size_t errlen)
{
	unsigned char	 key[LZ_KEY_BYTES];
	int		 fd;

	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) == -1) {
		if (errno == EEXIST)
			return 0;
		snprintf(err, errlen, "key file %s: %s", path,
		    strerror(errno));
		return -1;
	}
	randombytes_buf(key, sizeof(key));
	if (write(fd, key, sizeof(key)) != (ssize_t)sizeof(key) ||
	    fsync(fd) == -1) {
		snprintf(err, errlen, "key file %s: %s", path,
		    strerror(errno));
		close(fd);
		unlink(path);
		return -1;
	}
	sodium_memzero(key, sizeof(key));
	close(fd);
	return 1;
}

void
lz_key_derive(const unsigned char key[LZ_KEY_BYTES], const char *ctx,
    uint64_t id, unsigned char *out, size_t outlen)
{
	crypto_kdf_derive_from_key(out, outlen, id, ctx, key);
}
