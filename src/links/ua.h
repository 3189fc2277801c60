/*
 * ua.h -- what a User-Agent header says about the visitor: device class,
 * operating system, browser, and whether it is a bot, a social link
 * previewer or an in-app browser (DESIGN 3.4).
 *
 * ua_parse() scans a few static tables of {token, what it implies} rows
 * in order; no regular expressions, no allocation.  It runs on every
 * redirect.  The strings it sets are static and never NULL.
 */
#ifndef LZ_UA_H
#define LZ_UA_H

enum ua_device {
	UA_DESKTOP = 0,
	UA_MOBILE,
	UA_TABLET
};

enum ua_inapp {
	UA_INAPP_NONE = 0,
	UA_INAPP_LINE,
	UA_INAPP_FACEBOOK,
	UA_INAPP_INSTAGRAM,
	UA_INAPP_MESSENGER,
	UA_INAPP_WECHAT,
	UA_INAPP_TIKTOK,
	UA_INAPP_X
};

struct ua_info {
	enum ua_device	 device;
	const char	*os;		/* "ios", "android", "windows", "macos",
					   "linux", "chromeos", "other", ... */
	const char	*browser;	/* "chrome", "safari", "firefox", "edge",
					   "opera", "samsung", ..., "other" */
	int		 bot;		/* crawlers, scripts, monitors and link
					   previewers: never counted */
	int		 preview;	/* a social link previewer that reads
					   og: tags (implies bot) */
	enum ua_inapp	 inapp;		/* in-app browser, or NONE */
};

/* Parses ua ("" or NULL: desktop, "other", not a bot).  Never fails. */
void		 ua_parse(const char *ua, struct ua_info *out);

/* "desktop", "mobile", "tablet". */
const char	*ua_device_name(enum ua_device);
/* "" for UA_INAPP_NONE, else "line", "facebook", "instagram",
 * "messenger", "wechat", "tiktok", "x". */
const char	*ua_inapp_name(enum ua_inapp);

#endif
