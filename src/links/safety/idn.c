/*
 * idn.c -- IDN processing and look-alike checks through ICU (idn.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/uidna.h>
#include <unicode/uset.h>
#include <unicode/uspoof.h>

#include "log.h"
#include "safety/idn.h"

/*
 * The WHATWG URL standard's options for UTS #46: non-transitional, bidi
 * and joiner rules, no STD3 rules (the caller checks host characters) and
 * no hyphen rules, so "ab--cd" stays a valid label as in browsers.
 */
#define IDNA_OPTIONS	(UIDNA_NONTRANSITIONAL_TO_ASCII | \
	UIDNA_NONTRANSITIONAL_TO_UNICODE | UIDNA_CHECK_BIDI | \
	UIDNA_CHECK_CONTEXTJ)
#define IDNA_IGNORED	(UIDNA_ERROR_LEADING_HYPHEN | \
	UIDNA_ERROR_TRAILING_HYPHEN | UIDNA_ERROR_HYPHEN_3_4)

#define LABEL_MAX	256

static UIDNA			*idna;
static USpoofChecker		*spoof;
static USpoofCheckResult	*spoof_result;

static UIDNA *
idna_get(void)
{
	UErrorCode	 st = U_ZERO_ERROR;

	if (idna == NULL) {
		idna = uidna_openUTS46(IDNA_OPTIONS, &st);
		if (U_FAILURE(st)) {
			lz_log(LZ_LOG_ERR, "ICU: uidna_openUTS46: %s",
			    u_errorName(st));
			idna = NULL;
		}
	}
	return idna;
}

/*
 * The spoof checker of UTS #39, set up like browsers judge IDN labels:
 * "highly restrictive" (one script, or Latin with the Han-based CJK
 * combinations), only characters of the recommended identifier set (plus
 * '-' and '_', which DNS names use), no invisible characters, digits of
 * one system.
 */
static USpoofChecker *
spoof_get(void)
{
	UErrorCode	 st = U_ZERO_ERROR;
	USet		*allowed;

	if (spoof != NULL)
		return spoof;
	spoof = uspoof_open(&st);
	uspoof_setChecks(spoof, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE |
	    USPOOF_MIXED_NUMBERS | USPOOF_CHAR_LIMIT, &st);
	uspoof_setRestrictionLevel(spoof, USPOOF_HIGHLY_RESTRICTIVE);
	allowed = uset_cloneAsThawed(uspoof_getRecommendedSet(&st));
	if (U_SUCCESS(st)) {
		uset_add(allowed, '-');
		uset_add(allowed, '_');
		uset_freeze(allowed);
		uspoof_setAllowedChars(spoof, allowed, &st);
		uset_close(allowed);
	}
	spoof_result = uspoof_openCheckResult(&st);
	if (U_FAILURE(st)) {
		lz_log(LZ_LOG_ERR, "ICU: spoof checker: %s", u_errorName(st));
		uspoof_closeCheckResult(spoof_result);
		uspoof_close(spoof);
		spoof_result = NULL;
		spoof = NULL;
	}
	return spoof;
}

int
idn_to_ascii(const char *in, size_t len, char *out, size_t outlen)
{
	UIDNAInfo	 info = UIDNA_INFO_INITIALIZER;
	UErrorCode	 st = U_ZERO_ERROR;
	UIDNA		*u;
	int32_t		 n;

	if ((u = idna_get()) == NULL || len > INT32_MAX || outlen == 0 ||
	    outlen > INT32_MAX)
		return -1;
	n = uidna_nameToASCII_UTF8(u, in, (int32_t)len, out,
	    (int32_t)outlen - 1, &info, &st);
	if (U_FAILURE(st) || n < 0 || (size_t)n >= outlen ||
	    (info.errors & ~IDNA_IGNORED) != 0)
		return -1;
	out[n] = '\0';
	return n;
}

/* 1 when s has only ASCII characters other than controls. */
static int
printable_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x21 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

int
idn_label_check(const char *label, size_t len, char *why, size_t whylen)
{
	UIDNAInfo	 info = UIDNA_INFO_INITIALIZER;
	UErrorCode	 st = U_ZERO_ERROR;
	USpoofChecker	*sc;
	UIDNA		*u;
	char		 uni[LABEL_MAX * 4], skel[LABEL_MAX * 8];
	int32_t		 n, checks;

	if (len < 4 || strncmp(label, "xn--", 4) != 0)
		return 0;
	if (len > LABEL_MAX || (u = idna_get()) == NULL ||
	    (sc = spoof_get()) == NULL) {
		snprintf(why, whylen, "its host name has a label that cannot "
		    "be checked (%.*s)", (int)(len > 64 ? 64 : len), label);
		return 1;
	}
	n = uidna_labelToUnicodeUTF8(u, label, (int32_t)len, uni,
	    (int32_t)sizeof(uni) - 1, &info, &st);
	if (U_FAILURE(st) || n <= 0 || (info.errors & ~IDNA_IGNORED) != 0) {
		snprintf(why, whylen, "its host name has an invalid "
		    "internationalised label (%.*s)", (int)len, label);
		return 1;
	}
	uni[n] = '\0';
	checks = uspoof_check2UTF8(sc, uni, n, spoof_result, &st);
	if (U_FAILURE(st)) {
		snprintf(why, whylen, "its host name has a label that cannot "
		    "be checked (%.*s)", (int)len, label);
		return 1;
	}
	if (checks & USPOOF_CHAR_LIMIT) {
		snprintf(why, whylen, "its host name label %.*s (%s) has "
		    "symbols or characters not used in host names of any "
		    "language", (int)len, label, uni);
		return 1;
	}
	if (checks & USPOOF_RESTRICTION_LEVEL) {
		snprintf(why, whylen, "its host name label %.*s (%s) mixes "
		    "scripts, a trick to imitate another name", (int)len,
		    label, uni);
		return 1;
	}
	if (checks & USPOOF_MIXED_NUMBERS) {
		snprintf(why, whylen, "its host name label %.*s (%s) mixes "
		    "digits of different number systems", (int)len, label,
		    uni);
		return 1;
	}
	if (checks != 0) {
		snprintf(why, whylen, "its host name label %.*s (%s) has "
		    "invisible characters", (int)len, label, uni);
		return 1;
	}
	/*
	 * A whole-script look-alike: every character of the label looks like
	 * a Latin letter or digit ("аррӏе" in Cyrillic is "apple").  The UTS
	 * #39 skeleton of such a label is plain ASCII.
	 */
	st = U_ZERO_ERROR;
	n = uspoof_getSkeletonUTF8(sc, 0, uni, -1, skel,
	    (int32_t)sizeof(skel) - 1, &st);
	if (U_SUCCESS(st) && n > 0 && (size_t)n < sizeof(skel)) {
		skel[n] = '\0';
		if (printable_ascii(skel)) {
			snprintf(why, whylen, "its host name label %.*s (%s) "
			    "is made of characters that look like the Latin "
			    "name \"%s\"", (int)len, label, uni, skel);
			return 1;
		}
	}
	return 0;
}
