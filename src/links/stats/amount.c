/*
 * amount.c -- exact amounts in micro-units.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/amount.h"

#define EXP_CLAMP	100000L	/* beyond this an exponent only overflows */

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The digits of the number are read as one run: nint digits before the
 * point, then the fraction.  Digit k of the run stands for
 * 10^(nint - 1 - k + exp), and for 10^(that + 6) micro-units: every
 * non-zero digit must land on a place from 0 (a micro-unit) to 15
 * (10^9 units).
 */
int
amount_parse(const char *s, size_t len, int64_t *micros, const char **why)
{
	const char	*p = s, *end = s + len, *ip, *fp = NULL;
	size_t		 nint, nfrac = 0, k, n, first = SIZE_MAX, last = 0;
	long		 ex = 0, place;
	int		 neg = 0;
	int64_t		 v = 0;
	char		 c;

	*why = "must be a number of at most 6 decimals, not negative "
	    "(like 19.90)";
	if (len == 0 || len > 4096)
		return -1;
	if (*p == '-') {
		*why = "must not be negative";
		return -1;
	}
	ip = p;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		while (p < end && isdig(*p))
			p++;
	else
		return -1;
	nint = (size_t)(p - ip);
	if (p < end && *p == '.') {
		fp = ++p;
		while (p < end && isdig(*p))
			p++;
		if ((nfrac = (size_t)(p - fp)) == 0)
			return -1;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			neg = *p++ == '-';
		if (p == end || !isdig(*p))
			return -1;
		for (; p < end && isdig(*p); p++)
			if (ex < EXP_CLAMP)
				ex = ex * 10 + (*p - '0');
		if (neg)
			ex = -ex;
	}
	if (p != end)
		return -1;

	n = nint + nfrac;
	for (k = 0; k < n; k++) {
		c = k < nint ? ip[k] : fp[k - nint];
		if (c != '0') {
			if (first == SIZE_MAX)
				first = k;
			last = k;
		}
	}
	if (first == SIZE_MAX) {		/* all zeros */
		*micros = 0;
		return 0;
	}
	/* Places of the last and first non-zero digits. */
	place = (long)nint - 1 - (long)last + ex + AMOUNT_DECIMALS;
	if (place < 0) {
		*why = "has more than 6 decimals";
		return -1;
	}
	place = (long)nint - 1 - (long)first + ex + AMOUNT_DECIMALS;
	if (place > 15) {
		*why = "must be at most 1000000000";
		return -1;
	}
	for (k = first; k <= last; k++) {
		c = k < nint ? ip[k] : fp[k - nint];
		v = v * 10 + (c - '0');
	}
	/* Trailing places after the last non-zero digit (at most 15). */
	for (place = (long)nint - 1 - (long)last + ex + AMOUNT_DECIMALS;
	    place > 0; place--)
		v *= 10;
	if (v > AMOUNT_MAX) {
		*why = "must be at most 1000000000";
		return -1;
	}
	*micros = v;
	return 0;
}

void
amount_fmt(int64_t micros, char buf[AMOUNT_TEXT_MAX])
{
	uint64_t	 u, whole, frac;
	size_t		 n;
	int		 neg = micros < 0;

	/* Revenue is never negative; a negative input still prints
	 * right (and INT64_MIN without overflow). */
	u = neg ? (uint64_t)0 - (uint64_t)micros : (uint64_t)micros;
	whole = u / (uint64_t)AMOUNT_SCALE;
	frac = u % (uint64_t)AMOUNT_SCALE;
	if (frac == 0) {
		snprintf(buf, AMOUNT_TEXT_MAX, "%s%llu", neg ? "-" : "",
		    (unsigned long long)whole);
		return;
	}
	snprintf(buf, AMOUNT_TEXT_MAX, "%s%llu.%06llu", neg ? "-" : "",
	    (unsigned long long)whole, (unsigned long long)frac);
	n = strlen(buf);
	while (buf[n - 1] == '0')
		buf[--n] = '\0';
}

json_t *
amount_json(int64_t micros)
{
	char	 buf[AMOUNT_TEXT_MAX];

	if (micros % AMOUNT_SCALE == 0)
		return json_integer(micros / AMOUNT_SCALE);
	/* strtod rounds the exact decimal once, to the nearest double;
	 * printed with 15 significant digits it reads back the same. */
	amount_fmt(micros, buf);
	return json_real(strtod(buf, NULL));
}

int
amount_currency(const char *s, char out[4])
{
	size_t	 i;

	for (i = 0; i < 3; i++) {
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= 'a' && s[i] <= 'z')))
			return -1;
		out[i] = (char)(s[i] & ~0x20);
	}
	if (s[3] != '\0')
		return -1;
	out[3] = '\0';
	return 0;
}

double
conv_rate(int64_t conversions, int64_t clicks)
{
	if (clicks <= 0 || conversions <= 0)
		return 0;
	if (conversions >= clicks)
		return 1;
	return (double)conversions / (double)clicks;
}
