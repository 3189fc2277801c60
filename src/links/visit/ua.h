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
	/* "ios", "android", "windows", "macos", "linux", "chromeos", "bsd",
	 * "harmonyos", "other" */
	const char	*os;
	/* "chrome", "safari", "firefox", "edge", "opera", "samsung",
	 * "yandex", "uc", "vivaldi", "duckduckgo", "brave", "google", "ie",
	 * "webview", ..., the in-app browser's app, or "other" */
	const char	*browser;
	int		 bot;	  /* crawler, script, monitor, previewer */
	int		 preview; /* social link previewer (implies bot) */
	enum ua_inapp	 inapp;	  /* in-app browser, or UA_INAPP_NONE */
};

/*
 * Parses ua into out; never fails.  "" or NULL is desktop, "other" and a
 * bot: no browser omits the header.
 */
void		 ua_parse(const char *ua, struct ua_info *out);

/*
 * ua_parse() through a small per-process memo of the last answers (a
 * site's visitors send a few hundred distinct User-Agents, not one per
 * visit): the same answer, a hash and a comparison instead of a scan
 * of the tables.  Not for threads other than the worker's.
 */
void		 ua_parse_memo(const char *ua, struct ua_info *out);

/* "desktop", "mobile", "tablet". */
const char	*ua_device_name(enum ua_device);
/* "" for UA_INAPP_NONE, else "line", "facebook", "instagram",
 * "messenger", "wechat", "tiktok", "x". */
const char	*ua_inapp_name(enum ua_inapp);

#endif
