/*
 * clickrec.c -- the click journal's records: a click packed for
 * journal.c to append, and read back out of a journal's bytes.
 *
 * A CLK1 record is the whole struct rec (journals held only those before
 * records were cut short; they are still read).  A CLK2 record is the
 * same cut after its referrer's NUL, padded to a multiple of 8, with
 * REC_END in its last four bytes and its length in the flags' high half.
 * No record crosses a page: the rest of a page a record would cross is
 * a PAD item.  Records are in the host's byte order.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "link/link.h"
#include "visit/click.h"
#include "visit/clickrec.h"
#include "visit/target.h"

#define REC_MAGIC	0x314b4c43u	/* "CLK1": a whole struct rec */
#define REC2_MAGIC	0x324b4c43u	/* "CLK2": one cut after its referrer */
#define PAD_MAGIC	0x444150aau	/* the rest of a page, unused */
#define REC_END		0x0a4b4c43u
#define REC_BOT		0x01
#define REC_LEN(flags)	((flags) >> 16)	/* of CLK2 and PAD */

/* A journal record.  Strings are NUL-terminated within their field. */
struct rec {
	uint32_t	 magic;
	uint32_t	 flags;
	int64_t		 link_id;
	int64_t		 at;
	unsigned char	 visitor[VISITOR_ID_LEN];
	char		 country[4];
	char		 device[8];
	char		 os[16];
	char		 browser[16];
	char		 variant[VARIANT_MAX];
	char		 suffix[SUFFIX_MAX + 4];	/* NUL, padding */
	char		 referrer[CLICK_REFERRER_MAX];
	uint32_t	 end;
};

_Static_assert(sizeof(struct rec) == CLICKREC_SIZE,
    "a journal record is CLICKREC_SIZE bytes");

/* Copies s into a zeroed field of len bytes, cut to fit with its NUL. */
static void
put(char *dst, size_t len, const char *s)
{
	size_t	 n;

	if (s == NULL)
		return;
	n = strnlen(s, len - 1);
	memcpy(dst, s, n);
}

void
clickrec_pack(const struct click *c, unsigned char rec[CLICKREC_SIZE])
{
	struct rec	*r = (struct rec *)(void *)rec;

	memset(r, 0, sizeof(*r));
	r->magic = REC_MAGIC;
	r->flags = c->bot ? REC_BOT : 0;
	r->link_id = c->link_id;
	r->at = c->at;
	memcpy(r->visitor, c->visitor, VISITOR_ID_LEN);
	put(r->country, sizeof(r->country), c->country);
	put(r->device, sizeof(r->device), c->device);
	put(r->os, sizeof(r->os), c->os);
	put(r->browser, sizeof(r->browser), c->browser);
	put(r->variant, sizeof(r->variant), c->variant);
	put(r->suffix, sizeof(r->suffix), c->suffix);
	put(r->referrer, sizeof(r->referrer), c->referrer);
	r->end = REC_END;
}

size_t
clickrec_pack_short(const struct click *c, unsigned char rec[CLICKREC_SIZE])
{
	struct rec	*r = (struct rec *)(void *)rec;
	size_t		 len;
	uint32_t	 end = REC_END;

	clickrec_pack(c, rec);
	/* Its referrer and NUL, then the end, to a multiple of 8. */
	len = offsetof(struct rec, referrer) + strlen(r->referrer) + 1 +
	    sizeof(end);
	len = (len + 7) & ~(size_t)7;
	r->magic = REC2_MAGIC;
	r->flags |= (uint32_t)len << 16;
	memcpy(rec + len - sizeof(end), &end, sizeof(end));
	return len;
}

int
clickrec_unpack(unsigned char rec[CLICKREC_SIZE], struct click *c)
{
	struct rec	*r = (struct rec *)(void *)rec;

	if (r->magic != REC_MAGIC || r->end != REC_END || r->link_id <= 0)
		return -1;
	r->country[sizeof(r->country) - 1] = '\0';
	r->device[sizeof(r->device) - 1] = '\0';
	r->os[sizeof(r->os) - 1] = '\0';
	r->browser[sizeof(r->browser) - 1] = '\0';
	r->variant[sizeof(r->variant) - 1] = '\0';
	r->suffix[sizeof(r->suffix) - 1] = '\0';
	r->referrer[sizeof(r->referrer) - 1] = '\0';
	memset(c, 0, sizeof(*c));
	c->link_id = r->link_id;
	c->at = r->at;
	memcpy(c->country, r->country, sizeof(c->country));
	c->country[sizeof(c->country) - 1] = '\0';
	c->device = r->device;
	c->os = r->os;
	c->browser = r->browser;
	c->variant = r->variant;
	c->suffix = r->suffix;
	c->referrer = r->referrer;
	memcpy(c->visitor, r->visitor, VISITOR_ID_LEN);
	c->bot = (r->flags & REC_BOT) != 0;
	return 0;
}

/*
 * The journal item at p, the file's bytes from pos (avail of them read):
 * its length, and in *click whether it is a click record, then copied
 * whole into rec for clickrec_unpack; 0 when it is not all there (yet);
 * -1 when p holds no item.  An item is a CLK1 record (the whole struct,
 * as journals held them before the records were cut short), a CLK2 one
 * (cut after its referrer) or a pad to the end of the page.
 */
long
clickrec_item(const unsigned char *p, size_t avail, int64_t pos, unsigned char *rec,
    int *click)
{
	struct rec	*r = (struct rec *)(void *)rec;
	uint32_t	 magic, flags, end;
	size_t		 len, room = CLICKREC_PAGE - (size_t)(pos % CLICKREC_PAGE);

	*click = 0;
	if (avail < 2 * sizeof(uint32_t))
		return 0;
	memcpy(&magic, p, sizeof(magic));
	memcpy(&flags, p + sizeof(magic), sizeof(flags));
	switch (magic) {
	case REC_MAGIC:
		len = CLICKREC_SIZE;
		break;
	case REC2_MAGIC:
		len = REC_LEN(flags);
		if (len < offsetof(struct rec, referrer) + 1 + sizeof(end) ||
		    len > CLICKREC_SIZE)
			return -1;
		break;
	case PAD_MAGIC:
		len = REC_LEN(flags);
		if (len != room)
			return -1;
		return avail < len ? 0 : (long)len;
	default:
		return -1;
	}
	if (len % 8 != 0 || len > room)
		return -1;
	if (avail < len)
		return 0;
	*click = 1;
	if (magic == REC_MAGIC) {
		memcpy(rec, p, len);
		return (long)len;
	}
	memcpy(&end, p + len - sizeof(end), sizeof(end));
	if (end != REC_END)
		return -1;
	memset(rec, 0, CLICKREC_SIZE);
	memcpy(rec, p, len - sizeof(end));
	r->magic = REC_MAGIC;
	r->flags &= 0xffff;
	r->end = REC_END;
	return (long)len;
}

size_t
clickrec_pad(int64_t size, size_t len, uint32_t pad[2])
{
	size_t	 room = CLICKREC_PAGE - (size_t)(size % CLICKREC_PAGE);

	if (len <= room)
		return 0;
	pad[0] = PAD_MAGIC;
	pad[1] = (uint32_t)room << 16;
	return room;
}
