/*
 * scope.h -- what an API key may do (DESIGN 3.3, lz-links(8) "API
 * keys"): a set of scopes, one bit each.  Each route of the API names the
 * one scope it needs in the route table (RF_SCOPE, api.h); lz-links does
 * not start when a route taking a key names none.  A key is made with
 * the scopes asked for (by default all but audit:read) and keeps them.
 */
#ifndef LZ_SCOPE_H
#define LZ_SCOPE_H

#include <stddef.h>

enum scope {
	SC_LINKS_READ,		/* list, get, QR codes, tags list */
	SC_LINKS_WRITE,		/* create, edit, delete */
	SC_STATS_READ,		/* statistics, raw clicks */
	SC_CONVERSIONS_READ,	/* conversion figures in statistics */
	SC_DOMAINS_READ,
	SC_DOMAINS_WRITE,	/* add, set, verify, remove */
	SC_TAGS_WRITE,		/* rename, delete tags */
	SC_AUDIT_READ,		/* the audit log */
	SC__MAX
};

#define SCOPE_BIT(s)	(1u << (s))
#define SCOPES_ALL	((1u << SC__MAX) - 1)
/* A key made without scopes named: everything but the audit log. */
#define SCOPES_DEFAULT	(SCOPES_ALL & ~SCOPE_BIT(SC_AUDIT_READ))
#define SCOPE_NAME_MAX	24	/* bytes of the longest name, with NUL */

extern const char *const scope_names[SC__MAX];

/* The scope named s ("links:read"), or -1. */
int	scope_by_name(const char *s);

/*
 * Reads a comma-separated list of scope names (spaces around them
 * allowed, no empty item, each at most once) into *bits.  0, or -1
 * with the offending item, cut to badlen, in bad.
 */
int	scope_parse_list(const char *s, unsigned *bits, char *bad,
	    size_t badlen);

/* The names of bits, comma-separated, into buf (size SC__MAX *
 * SCOPE_NAME_MAX is enough). */
void	scope_list(unsigned bits, char *buf, size_t len);

#endif
