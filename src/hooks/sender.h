/*
 * sender.h -- one lz-hooks run: sends every due delivery with libcurl's
 * multi interface, at most `parallel` at once and at most a quarter of
 * that (at least one) per subscription, so a slow receiver holds only its
 * own share.
 *
 * Each request: POST of the stored body with Content-Type, X-Lz-Event,
 * X-Lz-Signature and X-Lz-Delivery (DESIGN 3.6); https only (plain http
 * to loopback with allow_loopback); TLS verified; no redirects followed;
 * no proxy; a time-out for the whole exchange.  Every address libcurl is
 * about to connect to passes the SSRF guard (webhook_addr_allowed) first,
 * so the address checked is the address connected, whatever DNS says
 * between the check and the connection.
 */
#ifndef LZ_SENDER_H
#define LZ_SENDER_H

#include <signal.h>
#include <stdint.h>

#include "outbox.h"
#include "webhook/webhook.h"

struct lz_db;

struct sender_opts {
	int		 allow_loopback;
	const char	*ca_file;	/* "" or NULL: the system's CAs */
	long		 timeout_s;
	int		 parallel;
	int64_t		 claim_ms;	/* stop claiming after this long */
};

/*
 * Sends until nothing is due and nothing is in flight, claim_ms have
 * passed or *stop is set (then it finishes what is in flight).  Adds to
 * stats.  Returns 0, or -1 after a database error.
 */
int	sender_run(struct lz_db *, const unsigned char key[WEBHOOK_KEY_BYTES],
	    const struct sender_opts *, volatile sig_atomic_t *stop,
	    struct outbox_stats *stats);

#endif
