/*
 * clickrec.h -- the click journal's record format (clickrec.c).
 */
#ifndef LZ_CLICKREC_H
#define LZ_CLICKREC_H

#include <stddef.h>
#include <stdint.h>

struct click;

#define CLICKREC_SIZE	1024	/* the most a record takes */
#define CLICKREC_PAGE	4096	/* no record crosses one */

/* c as a whole record (CLK1), as journals held them before records were
 * cut short; rec is 8-byte aligned.  For the unit tests. */
void	clickrec_pack(const struct click *, unsigned char rec[CLICKREC_SIZE]);

/* The record as a journal holds it: cut after its referrer (CLK2).
 * Returns its length, a multiple of 8, at most CLICKREC_SIZE. */
size_t	clickrec_pack_short(const struct click *,
	    unsigned char rec[CLICKREC_SIZE]);

/* Fills c with pointers into rec (which it NUL-terminates field by
 * field); 0, or -1 when rec is not a click record. */
int	clickrec_unpack(unsigned char rec[CLICKREC_SIZE], struct click *c);

/*
 * The journal item at p, the file's bytes from pos (avail of them read):
 * its length, and in *click whether it is a click record, then copied
 * whole into rec (CLICKREC_SIZE, 8-byte aligned) for clickrec_unpack; 0
 * when it is not all there (yet); -1 when p holds no item.
 */
long	clickrec_item(const unsigned char *p, size_t avail, int64_t pos,
	    unsigned char *rec, int *click);

/* Whether a record of len bytes appended at size would cross a page:
 * then the bytes left on the page, which take the pad item in pad[]
 * followed by zeroes; else 0. */
size_t	clickrec_pad(int64_t size, size_t len, uint32_t pad[2]);

#endif
