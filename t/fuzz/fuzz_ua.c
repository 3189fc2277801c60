/*
 * fuzz_ua.c -- ua_parse() on any header: never crashes, never reads past
 * the string, and always gives a consistent answer.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "visit/ua.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ua_info	 u;
	char		*s;

	/* An exact-size copy, so ASan sees any read past the NUL. */
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	ua_parse(s, &u);
	if (u.os == NULL || u.browser == NULL || *u.os == '\0' ||
	    *u.browser == '\0' || (u.preview && !u.bot) ||
	    (u.device != UA_DESKTOP && u.device != UA_MOBILE &&
	    u.device != UA_TABLET) || (u.inapp != UA_INAPP_NONE && u.bot) ||
	    ua_inapp_name(u.inapp) == NULL ||
	    strcmp(ua_device_name(u.device), "") == 0)
		abort();
	free(s);
	return 0;
}
