/*
 * util.h -- small helpers every module uses: checked allocation, a
 * growable byte buffer, bounded integer parsing.
 *
 * Allocation failure is treated like in OpenSSH's xmalloc: the process
 * logs and aborts.  In a pool worker that ends one request with a 502 at
 * nginx and the supervisor starts a new worker; it never corrupts data.
 */
#ifndef LZ_UTIL_H
#define LZ_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "cdefs.h"

void *xmalloc(size_t);
void *xcalloc(size_t, size_t);
void *xrealloc(void *, size_t);
void *xreallocarray(void *, size_t, size_t);
char *xstrdup(const char *);
char *xstrndup(const char *, size_t);
/* Returns a malloc'd formatted string; the caller frees it. */
char *xasprintf(const char *, ...) LZ_PRINTF(1, 2);

/*
 * How far long work is, told by the code doing it to whoever shows it
 * (lzctl's progress line): done of total units of the step named (a
 * string constant), total 0 when unknown.  A NULL one is not called.
 */
typedef void lz_progress_fn(const char *step, uint64_t done, uint64_t total);

/* A growable byte buffer, always NUL-terminated after the first add. */
struct lz_buf {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

#define LZ_BUF_INIT { NULL, 0, 0 }

void	 lz_buf_add(struct lz_buf *, const void *, size_t);
void	 lz_buf_puts(struct lz_buf *, const char *);
void	 lz_buf_putc(struct lz_buf *, char);
/* n in decimal, without printf (hot paths). */
void	 lz_buf_putll(struct lz_buf *, long long n);
void	 lz_buf_printf(struct lz_buf *, const char *, ...) LZ_PRINTF(2, 3);
void	 lz_buf_vprintf(struct lz_buf *, const char *, va_list);
void	 lz_buf_reset(struct lz_buf *);
void	 lz_buf_free(struct lz_buf *);
/* Returns the buffer's string (never NULL); the caller frees it. */
char	*lz_buf_detach(struct lz_buf *);
/* The contents as a string, "" when empty; valid until the next add. */
const char *lz_buf_str(const struct lz_buf *);

/*
 * Parses all of s as a decimal integer in [min, max]: no sign but '-',
 * no spaces, no leading '+', no empty string.  Returns 0, or -1.
 */
int	 lz_parse_ll(const char *s, long long min, long long max, long long *out);

/* Splits a comma- or space-separated list; returns the count. Caller frees
 * with lz_strlist_free. */
size_t	 lz_strlist_split(const char *s, char ***out);
void	 lz_strlist_free(char **, size_t);
/* Frees the strings v[0..n), not v. */
void	 lz_strs_free(char **v, size_t n);

/* The value of the hexadecimal digit c, or -1. */
int	 lz_hexval(int c);

/* A name for a set of bits (lz_bits_str). */
struct lz_bitname {
	unsigned	 bit;
	const char	*name;
};

/* The names of tab[0..n) whose bit is in bits, in table order, joined by
 * sep, into buf (len bytes, cut to fit). */
void	 lz_bits_str(unsigned bits, const struct lz_bitname *tab, size_t n,
	    const char *sep, char *buf, size_t len);

/* Constant-time equality of two strings of possibly different length. */
int	 lz_streq_ct(const char *a, const char *b);

/*
 * SipHash of p under a random key of this process, made at the first
 * call: the slot of a table that visitors fill (slugs, User-Agents,
 * cached answers' keys), so that keys chosen to collide gain nothing.
 * Any thread.
 */
uint64_t lz_hash_keyed(const void *p, size_t n);

/*
 * A set of strings numbered 0, 1, ... in the order they were first put
 * (a batch's distinct questions: lz_strtab_put's number says where each
 * answer goes).  Keyed hashes, open addressing, at most half full.
 * Zero it to start; lz_strtab_free when done.
 */
struct lz_strtab {
	char	**v;		/* by number, n of them */
	size_t	  n, vcap;
	size_t	 *slot;		/* number + 1, 0 free; cap of them */
	size_t	  cap;
};

/* The number of s (a copy put there first when new). */
size_t	 lz_strtab_put(struct lz_strtab *, const char *s);
void	 lz_strtab_free(struct lz_strtab *);

/* A libcurl write callback that keeps nothing. */
size_t	 lz_discard(char *p, size_t size, size_t n, void *arg);

#endif
