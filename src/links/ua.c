/*
 * ua.c -- TEMPORARY SHIM until the uageo branch lands on main; the real
 * table-driven parser replaces this file.  Do not build on it.
 */
#include "config.h"

#include <string.h>

#include "ua.h"

void
ua_parse(const char *ua, struct ua_info *o)
{
	memset(o, 0, sizeof(*o));
	o->os = "other";
	o->browser = "other";
	if (ua == NULL)
		return;
	if (strstr(ua, "iPad")) {
		o->device = UA_TABLET;
		o->os = "ios";
	} else if (strstr(ua, "iPhone")) {
		o->device = UA_MOBILE;
		o->os = "ios";
	} else if (strstr(ua, "Android")) {
		o->device = strstr(ua, "Mobile") ? UA_MOBILE : UA_TABLET;
		o->os = "android";
	} else if (strstr(ua, "Windows"))
		o->os = "windows";
	else if (strstr(ua, "Macintosh"))
		o->os = "macos";
	else if (strstr(ua, "Linux"))
		o->os = "linux";
	if (strstr(ua, "Firefox/"))
		o->browser = "firefox";
	else if (strstr(ua, "Edg/"))
		o->browser = "edge";
	else if (strstr(ua, "Chrome/"))
		o->browser = "chrome";
	else if (strstr(ua, "Safari/"))
		o->browser = "safari";
	if (strstr(ua, "facebookexternalhit") || strstr(ua, "Twitterbot") ||
	    strstr(ua, "Slackbot") || strstr(ua, "Discordbot"))
		o->preview = o->bot = 1;
	else if (strstr(ua, "bot") || strstr(ua, "curl/"))
		o->bot = 1;
	if (strstr(ua, " Line/"))
		o->inapp = UA_INAPP_LINE;
	else if (strstr(ua, "Instagram"))
		o->inapp = UA_INAPP_INSTAGRAM;
	else if (strstr(ua, "FBAN/") || strstr(ua, "FBAV/"))
		o->inapp = UA_INAPP_FACEBOOK;
	else if (strstr(ua, "MicroMessenger"))
		o->inapp = UA_INAPP_WECHAT;
}

const char *
ua_device_name(enum ua_device d)
{
	return d == UA_MOBILE ? "mobile" : d == UA_TABLET ? "tablet" :
	    "desktop";
}

const char *
ua_inapp_name(enum ua_inapp i)
{
	static const char *const n[] = { "", "line", "facebook", "instagram",
	    "messenger", "wechat", "tiktok", "x" };

	return (unsigned)i < sizeof(n) / sizeof(n[0]) ? n[i] : "";
}
