/*
 * audit.h -- the audit log of an account (lz-links(8) "Audit log"): who
 * did what to it, when, from which network.  The actions:
 *
 *	key.created key.revoked			API keys
 *	webhook.added webhook.changed webhook.removed
 *	domain.added domain.verified domain.removed
 *	link.deleted
 *	password.changed
 *	signin.new_network			a dashboard sign-in from a
 *						network the account had not
 *						signed in from
 *
 * An entry names a key by its shown form (prefix and last four), a
 * network by its /24 (IPv4) or /48 (IPv6): never a key, a secret, a
 * password, or a whole address.  An entry is written after its action
 * succeeded; an entry that cannot be written is logged, and the action
 * stands.
 */
#ifndef LZ_AUDIT_H
#define LZ_AUDIT_H

#include <stddef.h>
#include <stdint.h>

struct auth_caller;
struct lz_db;
struct lz_req;

#define AUDIT_NETWORK_MAX	48	/* bytes of a network, with NUL */
#define AUDIT_TARGET_MAX	300	/* bytes of a target, with NUL */

/* The network of address addr ("198.51.100.0/24", "2001:db8:1::/48"),
 * or "" when it does not parse. */
void	audit_network(const char *addr, char *out, size_t len);

/*
 * Notes action on account_id, done by who in request r (both NULL:
 * lzctl), on the target that fmt makes.
 */
void	audit_note(struct lz_db *, struct lz_req *r,
	    const struct auth_caller *who, int64_t account_id,
	    const char *action, const char *fmt, ...)
	    __attribute__((format(printf, 6, 7)));

/* A dashboard sign-in to account_id in r: noted when its network is new
 * to the account. */
void	audit_signin(struct lz_db *, struct lz_req *r,
	    const struct auth_caller *who, int64_t account_id,
	    const char *email);

#endif
