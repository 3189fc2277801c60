/*
 * grams.h -- the prompt library's search index (lz-prompts(8), "Literal
 * search"): for every string of one, two or three characters of the
 * folded search text of the prompts (a "gram"), the set of prompts that
 * hold it and, for three characters, where.
 *
 * A query of one to three characters is one gram: its set is the answer.
 * A longer query is a chain of three-character grams ("tiles") at
 * offsets 0, 3, 6, ... and its length minus 3, which together cover every
 * character of it once or twice; a prompt holds the query exactly when it
 * holds every tile at the tile's offset from one start, so the answer is
 * the prompts in every tile's set (a candidate) whose positions line up.
 * No gram spans two fields (SEARCH_SEP is never part of one), so neither
 * does a chain of touching tiles.
 *
 * The import builds the index (struct gram_build) and the service reads
 * it; neither knows SQL: pstore.c and pstore_build.c move the stored forms
 * in and out.
 *
 * Stored forms, all integers little-endian or LEB128 varints:
 * - a set of prompt ids: 'v' and the ids as varint deltas (the first from
 *   0), or 'b' and a bitset of nbits / 64 words; whichever is smaller.
 * - the positions of a trigram: a skip list, the 32-bit offset of every
 *   GRAM_SKIP-th record from the first (ceil(ndocs / GRAM_SKIP) of them),
 *   then the records: for each id of its set, in order, a varint byte
 *   count, then that many bytes of varint deltas of the character
 *   positions (the first from 0) in the prompt's search text.
 */
#ifndef LZ_GRAMS_H
#define LZ_GRAMS_H

#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define GRAM_SKIP	64	/* records per entry of a skip list */

/* ---- sets of prompt ids ------------------------------------------------ */

/* Ids [0, 64 * nw) as a bitset. */
struct pset {
	uint64_t	*w;
	size_t		 nw;
};

/* An empty set for ids [0, nbits); pset_free frees it. */
void	 pset_init(struct pset *, size_t nbits);
void	 pset_free(struct pset *);
/* Replaces the contents with a stored set; 0, or -1 when it is not one
 * of this size (the set is then empty). */
int	 pset_load(struct pset *, const void *stored, size_t len);
/* ANDs a stored set into the set; 0 or -1 as pset_load. */
int	 pset_and_stored(struct pset *, const void *stored, size_t len);
void	 pset_and(struct pset *, const struct pset *);
void	 pset_clear(struct pset *);
void	 pset_add(struct pset *, uint64_t id);
int	 pset_has(const struct pset *, uint64_t id);
int	 pset_empty(const struct pset *);
long long pset_count(const struct pset *);
/*
 * The ids of the set in ascending order from the offset-th (0-based),
 * at most limit of them, into ids[]; returns how many.
 */
long	 pset_page(const struct pset *, long long offset, long limit,
	    int64_t *ids);
/* Appends the stored form of ids[0..n) (ascending, < nbits). */
void	 pset_encode(struct lz_buf *, const uint32_t *ids, size_t n,
	    size_t nbits);

/* ---- grams --------------------------------------------------------------- */

/* The key of the gram cp[0..n) (n 1 to 3): the code points, 21 bits
 * each; never 0. */
uint64_t gram_key(const uint32_t *cp, size_t n);
/* Whether key is of three characters (has positions). */
int	 gram_is_tri(uint64_t key);

/* Characters of the longest query gram_plan takes (the handler allows
 * 500). */
#define GRAM_QUERY_MAX	512

struct gram_tile {
	uint64_t	 key;
	uint32_t	 off;		/* in characters, from the start */
	/* Filled in by the gram_source: */
	long long	 ndocs;
	uint8_t		*docs;		/* the stored set, malloc'd */
	size_t		 docslen;
	void		*pos;		/* the source's handle of the stored */
	size_t		 poslen;	/* positions, and their size */
};

struct gram_query {
	size_t		 nchars;
	/* Its grams: the query itself up to 3 characters, else the
	 * trigram at every offset. */
	size_t		 ngrams;
	struct gram_tile g[GRAM_QUERY_MAX];
	/* Those it is looked up by (gram_chain). */
	size_t		 ntiles;
	struct gram_tile tile[GRAM_QUERY_MAX];
};

/*
 * Where the index is kept.  Positions are read piecemeal, as the
 * verification needs them, so that a tile held by most prompts costs
 * only the parts of it that candidates use.  Each function returns -1 on
 * an error it has reported.
 */
struct gram_source {
	/* t->key's t->ndocs and, for a trigram, t->poslen; 1, 0 when no
	 * prompt holds the gram. */
	int	 (*stat)(void *arg, struct gram_tile *t);
	/* t->key's set into t->ndocs and t->docs (malloc'd); 1, 0 when
	 * no prompt holds the gram. */
	int	 (*docs)(void *arg, struct gram_tile *t);
	/* Opens the positions of trigram t->key: t->pos and t->poslen; 0. */
	int	 (*pos_open)(void *arg, struct gram_tile *t);
	/* len bytes at off of them into buf (within poslen); 0. */
	int	 (*pos_read)(void *arg, const struct gram_tile *t, void *buf,
		    size_t len, size_t off);
	void	 (*pos_close)(void *arg, struct gram_tile *t);
	void	*arg;
};

/*
 * The grams of a folded query.  Returns 0, or -1 when the query cannot
 * match anything (empty, too long, or holding characters no gram holds).
 */
int	 gram_plan(const char *folded, struct gram_query *);

/*
 * Chooses the tiles of a query of 4 characters or more whose grams have
 * their poslen: a chain from the first trigram to the last, each within
 * 3 characters of the one before (so together they cover the query),
 * that costs the fewest bytes of positions, GRAM_TILE_COST more for each
 * tile.  Up to 3 characters the one gram is the tile.
 */
#define GRAM_TILE_COST	4096
void	 gram_chain(struct gram_query *);

/*
 * Removes from cand the prompts in which the tiles t[0..n) (with their
 * sets, positions open) do not line up; cand must lie within every
 * tile's set.  0, -1 when src failed, -2 when the index is damaged.
 */
int	 gram_verify(struct pset *cand, const struct gram_tile *t, size_t n,
	    const struct gram_source *src);

/*
 * Keeps in s only the prompts whose search text holds the folded query
 * q: gram_plan, the grams' sizes, gram_chain, the tiles' sets, then
 * gram_verify.  0, -1 when src failed, -2 when the index is damaged.
 */
int	 gram_match(const char *q, struct pset *s,
	    const struct gram_source *src);

/* ---- building (lzctl prompts import) ------------------------------------ */

struct gram_build;

struct gram_build *gram_build_new(void);
void	 gram_build_free(struct gram_build *);
/* Indexes the folded search text of prompt id; ids come in ascending
 * order. */
void	 gram_build_add(struct gram_build *, uint32_t id, const char *folded);
/*
 * Calls fn for every gram, in key order, with the number of prompts that
 * hold it, their stored set (ids < nbits) and, for three characters, the
 * stored positions (else NULL, 0).  Stops at and returns fn's first
 * non-zero answer; 0 when all went.  Afterwards the builder can only be
 * freed.
 */
int	 gram_build_each(struct gram_build *, size_t nbits,
	    int (*fn)(void *, uint64_t key, long long ndocs, const void *docs,
	    size_t docslen, const void *pos, size_t poslen), void *arg);

#endif
