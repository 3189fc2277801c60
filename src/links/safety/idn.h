/*
 * idn.h -- internationalised host names, by ICU: the UTS #46 processing
 * browsers apply to a host before DNS (IDN to punycode), and the UTS #39
 * look-alike checks of one label (mixed scripts, symbols, invisible
 * characters, names made only of characters that look like Latin ones).
 *
 * ICU is opened on first use, once per process, so processes that never
 * see a non-ASCII host never load its data.
 */
#ifndef LZ_IDN_H
#define LZ_IDN_H

#include <stddef.h>

/*
 * Converts the UTF-8 host name in[0..len) to its ASCII form (lower case,
 * labels in punycode, full-width and ideographic dots mapped) into out,
 * NUL-terminated.  Returns the length, or -1 when in is not a valid
 * internationalised name (bad UTF-8, disallowed characters, bad
 * bidirectional text or joiners, too long).
 */
int	idn_to_ascii(const char *in, size_t len, char *out, size_t outlen);

/*
 * Checks one ASCII label of a host name.  Labels without the "xn--"
 * prefix pass.  Returns 0 when the label may be used, or 1 with a reason
 * (a sentence fragment such as "the label ... mixes scripts") in why.
 */
int	idn_label_check(const char *label, size_t len, char *why,
	    size_t whylen);

#endif
