/*
 * pwhash.c -- argon2id password hashes as slow steps of a request.
 */
#include "config.h"

#include <string.h>

#include <sodium.h>

#include "pool.h"
#include "pwhash.h"

struct pw {
	const char	*pw;
	const char	*hash;		/* checked against, or NULL */
	char		*out;		/* hashed into */
	int		 rc;
};

static void
run(void *arg)
{
	struct pw	*p = arg;

	if (p->hash != NULL)
		p->rc = crypto_pwhash_str_verify(p->hash, p->pw,
		    strlen(p->pw));
	else
		p->rc = crypto_pwhash_str(p->out, p->pw, strlen(p->pw),
		    crypto_pwhash_OPSLIMIT_INTERACTIVE,
		    crypto_pwhash_MEMLIMIT_INTERACTIVE);
}

int
lz_pwhash(const char *pw, char out[crypto_pwhash_STRBYTES])
{
	struct pw	 p = { pw, NULL, out, -1 };

	lz_pool_slow(run, &p);
	return p.rc == 0 ? 0 : -1;
}

int
lz_pwhash_ok(const char *hash, const char *pw)
{
	struct pw	 p = { pw, hash, NULL, -1 };

	lz_pool_slow(run, &p);
	return p.rc == 0;
}
