/*
 * queue.c -- mail into the outbox (mail/queue.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "conf.h"
#include "keyfile.h"
#include "log.h"
#include "mail/message.h"
#include "mail/queue.h"
#include "store/mails.h"
#include "util.h"

_Static_assert(MAIL_KEY_BYTES == crypto_secretbox_KEYBYTES,
    "MAIL_KEY_BYTES is secretbox's key");

#define BOX_EXTRA	(crypto_secretbox_NONCEBYTES + \
			 crypto_secretbox_MACBYTES)

int
mail_key_load(const struct lz_conf *c, unsigned char key[MAIL_KEY_BYTES],
    char *err, size_t errlen)
{
	unsigned char	 master[LZ_KEY_BYTES];

	if (lz_keyfile_load(c->key_file, master, err, errlen) == -1)
		return -1;
	lz_key_derive(master, "mailtext", 0, key, MAIL_KEY_BYTES);
	sodium_memzero(master, sizeof(master));
	return 0;
}

unsigned char *
mail_seal(const unsigned char key[MAIL_KEY_BYTES], const char *text,
    size_t *len)
{
	size_t		 n = strlen(text);
	unsigned char	*box = xmalloc(BOX_EXTRA + n);

	randombytes_buf(box, crypto_secretbox_NONCEBYTES);
	crypto_secretbox_easy(box + crypto_secretbox_NONCEBYTES,
	    (const unsigned char *)text, n, box, key);
	*len = BOX_EXTRA + n;
	return box;
}

char *
mail_open(const unsigned char key[MAIL_KEY_BYTES], const unsigned char *box,
    size_t len)
{
	char	*text;
	size_t	 n;

	if (box == NULL || len < BOX_EXTRA)
		return NULL;
	n = len - BOX_EXTRA;
	text = xmalloc(n + 1);
	if (crypto_secretbox_open_easy((unsigned char *)text,
	    box + crypto_secretbox_NONCEBYTES, len -
	    crypto_secretbox_NONCEBYTES, box, key) != 0 ||
	    memchr(text, '\0', n) != NULL) {
		sodium_memzero(text, n + 1);
		free(text);
		return NULL;
	}
	text[n] = '\0';
	return text;
}

int
mail_queue_invite(struct lz_db *db, const unsigned char key[MAIL_KEY_BYTES],
    int64_t account_id, int64_t invitation_id, const struct mail_invite *m,
    int64_t now)
{
	unsigned char	*box;
	char		*subject, *text;
	size_t		 len;
	int		 rc;

	subject = mail_invite_subject(m);
	text = mail_invite_text(m);
	box = mail_seal(key, text, &len);
	sodium_memzero(text, strlen(text));
	free(text);
	rc = store_mail_add(db, account_id, invitation_id, m->to, subject,
	    box, len, m->expires_at, now) < 0 ? -1 : 0;
	if (rc == -1)
		lz_log(LZ_LOG_ERR, "the invitation's mail to %s could not be "
		    "queued", m->to);
	free(box);
	free(subject);
	return rc;
}
