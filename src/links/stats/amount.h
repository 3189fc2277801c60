/*
 * amount.h -- the figures of statistics that must come out exact
 * (DESIGN 3.7): money, as integers of micro-units (1.5 USD is 1500000)
 * from the text they arrive as to the JSON they leave as, never through
 * a binary float on the way in; and the conversion rate.
 *
 * Pure functions: the conversion handlers, the statistics, the link
 * representation (link.h), lzctl, the unit tests and the fuzzer call
 * them.
 */
#ifndef LZ_AMOUNT_H
#define LZ_AMOUNT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#define AMOUNT_SCALE	1000000LL	/* micro-units per unit */
#define AMOUNT_DECIMALS	6
/* The largest value of one conversion: 10^9 units.  A link's total in
 * one currency stays exact up to INT64_MAX micro-units (9.2 * 10^12). */
#define AMOUNT_MAX	(1000000000LL * AMOUNT_SCALE)
#define AMOUNT_TEXT_MAX	32	/* amount_fmt's buffer, with the NUL */

/*
 * Parses s[0..len) -- the grammar of a JSON number without a minus sign:
 * "0", "19.90", "1e2", "1.5E-1" -- exactly into micro-units.  Digits past
 * the sixth decimal must be zeros ("0.1000000" is 0.1); the value must be
 * at most AMOUNT_MAX.  Returns 0, or -1 with *why a sentence fragment
 * ("must be a number", "has more than 6 decimals", ...).
 */
int	 amount_parse(const char *s, size_t len, int64_t *micros,
	    const char **why);

/* The shortest exact decimal of micros: "5.3", "0.000001", "12".
 * buf holds AMOUNT_TEXT_MAX bytes. */
void	 amount_fmt(int64_t micros, char buf[AMOUNT_TEXT_MAX]);

/*
 * micros as a JSON number without binary-float noise: an integer when
 * whole (exact at any size), else a real whose 15-significant-digit form
 * (lz_json_dump) is the exact decimal -- true of every amount of at most
 * 15 significant digits, e.g. any amount below 10^9 units.  New ref.
 */
json_t	*amount_json(int64_t micros);

/*
 * A currency code: three ASCII letters, either case, into out as upper
 * case ("usd" -> "USD").  0, or -1 when s is not one.
 */
int	 amount_currency(const char *s, char out[4]);

/* conversions / clicks, capped at 1 (conversions reported without a
 * click can outnumber clicks); 0 without clicks (DESIGN 3.7). */
double	 conv_rate(int64_t conversions, int64_t clicks);

#endif
