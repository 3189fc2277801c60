/*
 * ctx.h -- the state of one lz-links process, like cgit's ctx: its
 * configuration, its connection to the database, the limits its
 * workers share, the keys it loaded.  Only main.c and the handlers
 * (api.h) touch it; every function below them is handed what it needs.
 */
#ifndef LZ_CTX_H
#define LZ_CTX_H

#include "db.h"
#include "mail/queue.h"
#include "webhook/webhook.h"

struct lz_conf;
struct lz_metrics;
struct lz_rl;
struct quota_table;

struct links_ctx {
	struct lz_conf	*conf;
	struct lz_db	 db;
	struct lz_rl	*conv_rl;	/* conversion reports per client, shared
					   by the workers (made before fork) */
	struct lz_rl	*hook_rl;	/* webhook additions and test events
					   per account, the same way */
	struct quota_table *quota;	/* the monthly quotas' leases and the
					   keys' last use, the same way */
	struct lz_metrics *metrics;	/* what the pool counts (metrics.h),
					   the same way */
	/* The webhook secrets' key, loaded at a worker's start (before the
	 * sandbox closes the key file off); adding and rotating webhooks
	 * answer 500 without it. */
	unsigned char	 hook_key[WEBHOOK_KEY_BYTES];
	int		 hook_key_ok;
	/* The key that seals the mail queued for lz-hooks (mail/queue.h),
	 * the same way; without it invitations are not mailed. */
	unsigned char	 mail_key[MAIL_KEY_BYTES];
	int		 mail_key_ok;
};

extern struct links_ctx links;

#endif
