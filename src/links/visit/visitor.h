/*
 * visitor.h -- who a visitor is, without keeping who they are (DESIGN
 * 3.4): keyed hashes of the client address and User-Agent under keys
 * derived from the instance key file, never the address itself.
 *
 * The visitor id changes every UTC day (the salt is the key derived with
 * context "visitors" and the day number), so ids cannot be joined across
 * days.  Clicks and conversion tracking use it.
 */
#ifndef LZ_VISITOR_H
#define LZ_VISITOR_H

#include <stdint.h>

#include "keyfile.h"
#include "sizes.h"

/* Reads the key file; 0, or -1 with err. */
int	visitor_init(const char *key_file, char *err, size_t errlen);
/* Sets the key directly (unit tests). */
void	visitor_set_key(const unsigned char key[LZ_KEY_BYTES]);

/* The visitor id of addr + ua on the UTC day of now_ms. */
void	visitor_id(const char *addr, const char *ua, int64_t now_ms,
	    unsigned char out[VISITOR_ID_LEN]);

/*
 * A number that stays the same for one visitor (addr + ua) and one link
 * across days: picks the A/B variant, so a visitor keeps seeing the same
 * one.  Nothing stores it.
 */
uint64_t visitor_bucket(const char *addr, const char *ua, int64_t link_id);

/*
 * The keyed hash of the client's network: the IPv4 address, or the /64
 * of an IPv6 one (one subscriber usually holds a /64).  Password tries
 * are counted per network.
 */
#define VISITOR_NET_LEN	16
void	visitor_net(const char *addr, unsigned char out[VISITOR_NET_LEN]);

#endif
