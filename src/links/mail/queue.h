/*
 * queue.h -- mail into the outbox (lz-hooks(8) "Mail"): a pool's worker
 * may not run programs, so what it mails it queues, in the transaction
 * of its cause, and lz-hooks runs mail_command on it.  The text may hold
 * a one-time URL whose token the database keeps only hashed: it is
 * sealed (libsodium secretbox) under a key derived from the key file
 * with context "mailtext", and lz-hooks drops it once the mail is sent
 * or given up.
 */
#ifndef LZ_MAIL_QUEUE_H
#define LZ_MAIL_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct lz_conf;
struct lz_db;
struct mail_invite;

#define MAIL_KEY_BYTES	32	/* crypto_secretbox_KEYBYTES */

/* The sealing key, derived from the key file of conf: 0, or -1 with
 * err. */
int	mail_key_load(const struct lz_conf *, unsigned char
	    key[MAIL_KEY_BYTES], char *err, size_t errlen);
/* text sealed under key (a fresh nonce, then the box): its length into
 * *len; the caller frees it. */
unsigned char *mail_seal(const unsigned char key[MAIL_KEY_BYTES],
	    const char *text, size_t *len);
/* The text of box, or NULL when it is not one sealed under key; the
 * caller wipes and frees it. */
char	*mail_open(const unsigned char key[MAIL_KEY_BYTES],
	    const unsigned char *box, size_t len);

/*
 * Queues invitation_id's mail (mail/message.h says what it says), due at
 * once and given up unsent at its end, inside the caller's transaction.
 * 0, or -1 (logged).
 */
int	mail_queue_invite(struct lz_db *, const unsigned char
	    key[MAIL_KEY_BYTES], int64_t account_id, int64_t invitation_id,
	    const struct mail_invite *, int64_t now);

#endif
