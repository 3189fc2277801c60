/*
 * ua.c -- a table-driven User-Agent parser (DESIGN 3.4).
 *
 * rules[] lists tokens and what each implies, grouped by kind; within a
 * kind the first row that occurs anywhere in the header wins, so more
 * specific rows come first ("edg/" before "chrome/", "crios/" before
 * "safari/").  Tokens are lower-case ASCII and match without regard to
 * case.  One pass over the header finds every row that occurs: at each
 * position only the rows whose token starts with those bytes are tried
 * (an index by the first two bytes, built on the first call), so a parse
 * costs about one table probe per byte and never allocates.
 *
 * Decisions (see also lz-links(8)):
 *  - Android without "Mobile" is a tablet (Google's own convention).
 *  - iPadOS 13+ Safari asks for desktop sites with a Macintosh header
 *    identical to a Mac's: it counts as macOS/desktop, as no header-only
 *    parser can tell them apart.  "Macintosh" together with "Mobile/"
 *    (iPad apps' web views in desktop mode; Macs never send it) is an
 *    iPad: ios/tablet.
 *  - An in-app browser's browser is the app ("facebook", "line", ...).
 *  - Bots: any known crawler, script, monitor or previewer token; an
 *    empty header (no browser omits it); and a header that names neither
 *    an operating system nor a browser (HTTP libraries, tools).
 *  - Only the first UA_SCAN_MAX bytes are examined.
 */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "visit/ua.h"

#define UA_SCAN_MAX	2048

enum kind {
	K_PREVIEW,	/* social link previewer (and so a bot) */
	K_BOT,		/* crawler, script, monitor */
	K_NOTBOT,	/* cancels generic K_BOT rows: "cubot" phones */
	K_INAPP,	/* in-app browser; val = enum ua_inapp */
	K_OS,		/* name = os; val = device, DEV_ANDROID, DEV_HINT */
	K_DEVICE,	/* device hint for OSes that do not fix it */
	K_MACMOBILE,	/* "mobile/" on a Macintosh: an iPad */
	K_BROWSER,	/* name = browser */
	K__MAX
};

#define DEV_ANDROID	(-1)	/* mobile with "mobile", else tablet */
#define DEV_HINT	(-2)	/* K_DEVICE rows decide, else desktop */

#define F_WORD		0x01	/* not right after a letter */
#define F_START		0x02	/* only at the start of the header */
#define F_GENERIC	0x04	/* K_BOT row that K_NOTBOT cancels */
#define F_END		0x08	/* only at the end of the header */

struct rule {
	const char	*tok;
	unsigned char	 kind;
	unsigned char	 flags;
	signed char	 val;
	const char	*name;
};

#define PREVIEW(t, f)	{ t, K_PREVIEW, f, 0, NULL }
#define BOT(t, f)	{ t, K_BOT, f, 0, NULL }
#define INAPP(t, f, v)	{ t, K_INAPP, f, v, NULL }
#define OS(t, f, d, n)	{ t, K_OS, f, d, n }
#define DEVICE(t, d)	{ t, K_DEVICE, 0, d, NULL }
#define BROWSER(t, f, n) { t, K_BROWSER, f, 0, n }

static const struct rule rules[] = {
	/* Social link previewers: they read og: tags. */
	PREVIEW("facebookexternalhit", 0),
	PREVIEW("facebot", F_WORD),
	PREVIEW("twitterbot", 0),
	PREVIEW("slackbot", 0),
	PREVIEW("linkedinbot", 0),
	PREVIEW("discordbot", 0),
	PREVIEW("telegrambot", 0),
	PREVIEW("whatsapp", F_START),
	PREVIEW("line-poker", 0),
	PREVIEW("linespider", 0),
	PREVIEW("pinterestbot", 0),
	PREVIEW("pinterest.com/bot", 0),
	PREVIEW("skypeuripreview", 0),
	PREVIEW("microsoftpreview", 0),
	PREVIEW("redditbot", 0),
	PREVIEW("applebot", 0),
	PREVIEW("embedly", 0),
	PREVIEW("iframely", 0),
	PREVIEW("vkshare", 0),
	PREVIEW("viber", F_START),
	PREVIEW("mastodon", 0),
	PREVIEW("cardyb", 0),
	PREVIEW("snap url preview", 0),
	PREVIEW("kakaotalk-scrap", 0),
	PREVIEW("google-pagerenderer", 0),

	/* Crawlers, scripts, monitors. */
	BOT("bot/", F_GENERIC),
	BOT("bot;", F_GENERIC),
	BOT("bot)", F_GENERIC),
	BOT("bot-", F_GENERIC),
	BOT("bot_", F_GENERIC),
	BOT("bot ", F_GENERIC),
	BOT("bot.", F_GENERIC),
	BOT("bot,", F_GENERIC),
	BOT("bot", F_GENERIC | F_END),
	BOT("robot", 0),
	BOT("spider", 0),
	BOT("crawl", 0),
	BOT("slurp", 0),
	BOT("archive", 0),
	BOT("scrap", 0),
	BOT("fetch", 0),
	BOT("preview", 0),
	BOT("http://", 0),
	BOT("https://", 0),
	BOT("headless", 0),
	BOT("phantomjs", 0),
	BOT("lighthouse", 0),
	BOT("pagespeed", 0),
	BOT("gtmetrix", 0),
	BOT("pingdom", 0),
	BOT("uptime", 0),
	BOT("monitor", 0),
	BOT("statuscake", 0),
	BOT("site24x7", 0),
	BOT("check_http", 0),
	BOT("nagios", 0),
	BOT("zabbix", 0),
	BOT("prometheus", 0),
	BOT("datadog", 0),
	BOT("newrelic", 0),
	BOT("curl", F_WORD),
	BOT("wget", F_WORD),
	BOT("python", F_WORD),
	BOT("libwww", 0),
	BOT("lwp-", 0),
	BOT("httpclient", 0),
	BOT("http-client", 0),
	BOT("http_client", 0),
	BOT("http.rb", 0),
	BOT("okhttp", 0),
	BOT("java/", F_WORD),
	BOT("jakarta", 0),
	BOT("ruby", F_WORD),
	BOT("perl", F_WORD),
	BOT("php", F_WORD),
	BOT("guzzle", 0),
	BOT("axios", 0),
	BOT("node-fetch", 0),
	BOT("undici", 0),
	BOT("aiohttp", 0),
	BOT("httpx", 0),
	BOT("urllib", 0),
	BOT("requests", 0),
	BOT("postman", 0),
	BOT("insomnia", 0),
	BOT("httpie", 0),
	BOT("powershell", 0),
	BOT("winhttp", 0),
	BOT("reqwest", 0),
	BOT("hackney", 0),
	BOT("faraday", 0),
	BOT("mechanize", 0),
	BOT("selenium", 0),
	BOT("puppeteer", 0),
	BOT("playwright", 0),
	BOT("validator", 0),
	BOT("checker", 0),
	BOT("linkcheck", 0),
	BOT("scan", 0),
	BOT("survey", 0),
	BOT("scanner", 0),
	BOT("feed", F_WORD),
	BOT("rss", F_WORD),
	BOT("-google", 0),
	BOT("google-", 0),
	BOT("googleother", 0),
	BOT("google favicon", 0),
	BOT("ia_archiver", 0),
	{ "cubot", K_NOTBOT, 0, 0, NULL },

	/* In-app browsers: Messenger and Instagram before Facebook. */
	INAPP("messengerforios", 0, UA_INAPP_MESSENGER),
	INAPP("messengerliteforios", 0, UA_INAPP_MESSENGER),
	INAPP("fb_iab/messenger", 0, UA_INAPP_MESSENGER),
	INAPP("orca-android", 0, UA_INAPP_MESSENGER),
	INAPP("instagram", 0, UA_INAPP_INSTAGRAM),
	INAPP("fban/", 0, UA_INAPP_FACEBOOK),
	INAPP("fbav/", 0, UA_INAPP_FACEBOOK),
	INAPP("fb_iab/", 0, UA_INAPP_FACEBOOK),
	INAPP("fbios", 0, UA_INAPP_FACEBOOK),
	INAPP("fb4a", 0, UA_INAPP_FACEBOOK),
	INAPP("metaiab facebook", 0, UA_INAPP_FACEBOOK),
	INAPP("line/", F_WORD, UA_INAPP_LINE),
	INAPP("micromessenger", 0, UA_INAPP_WECHAT),
	INAPP("musical_ly", 0, UA_INAPP_TIKTOK),
	INAPP("bytedancewebview", 0, UA_INAPP_TIKTOK),
	INAPP("tiktok", F_WORD, UA_INAPP_TIKTOK),
	INAPP("trill_", F_WORD, UA_INAPP_TIKTOK),
	INAPP("twitter for iphone", 0, UA_INAPP_X),
	INAPP("twitter for ipad", 0, UA_INAPP_X),
	INAPP("twitterandroid", 0, UA_INAPP_X),

	/* Operating systems, most specific first. */
	OS("windows phone", 0, UA_MOBILE, "windows"),
	OS("iphone", 0, UA_MOBILE, "ios"),
	OS("ipod", 0, UA_MOBILE, "ios"),
	OS("ipad", 0, UA_TABLET, "ios"),
	OS("cros", F_WORD, UA_DESKTOP, "chromeos"),
	OS("chromebook", 0, UA_DESKTOP, "chromeos"),
	OS("android", 0, DEV_ANDROID, "android"),
	OS("fb4a", 0, UA_MOBILE, "android"),
	OS("openharmony", 0, DEV_HINT, "harmonyos"),
	OS("windows", 0, UA_DESKTOP, "windows"),
	OS("macintosh", 0, UA_DESKTOP, "macos"),
	OS("mac os x", 0, UA_DESKTOP, "macos"),
	OS("mac_powerpc", 0, UA_DESKTOP, "macos"),
	OS("cfnetwork", 0, UA_MOBILE, "ios"),
	OS("linux", 0, DEV_HINT, "linux"),
	OS("freebsd", 0, UA_DESKTOP, "bsd"),
	OS("openbsd", 0, UA_DESKTOP, "bsd"),
	OS("netbsd", 0, UA_DESKTOP, "bsd"),

	/* Device hints, for OSes that leave it open. */
	DEVICE("tablet", UA_TABLET),
	DEVICE("kindle", UA_TABLET),
	DEVICE("silk/", UA_TABLET),
	DEVICE("mobi", UA_MOBILE),
	DEVICE("phone", UA_MOBILE),
	DEVICE("midp", UA_MOBILE),
	DEVICE("blackberry", UA_MOBILE),
	DEVICE("symbian", UA_MOBILE),
	DEVICE("opera mini", UA_MOBILE),
	{ "mobile/", K_MACMOBILE, 0, 0, NULL },

	/* Browsers: those built on Chrome or Safari before them. */
	BROWSER("edg/", 0, "edge"),
	BROWSER("edge/", 0, "edge"),
	BROWSER("edga/", 0, "edge"),
	BROWSER("edgios/", 0, "edge"),
	BROWSER("opr/", 0, "opera"),
	BROWSER("opt/", F_WORD, "opera"),
	BROWSER("opios/", 0, "opera"),
	BROWSER("opera", 0, "opera"),
	BROWSER("samsungbrowser/", 0, "samsung"),
	BROWSER("yabrowser/", 0, "yandex"),
	BROWSER("yasearchbrowser/", 0, "yandex"),
	BROWSER("ucbrowser", 0, "uc"),
	BROWSER("ucweb", 0, "uc"),
	BROWSER("vivaldi/", 0, "vivaldi"),
	BROWSER("duckduckgo/", 0, "duckduckgo"),
	BROWSER("ddg/", F_WORD, "duckduckgo"),
	BROWSER("brave", F_WORD, "brave"),
	BROWSER("gsa/", F_WORD, "google"),
	BROWSER("snapchat", 0, "snapchat"),
	BROWSER("barcelona", F_WORD, "threads"),
	BROWSER("ecosia", 0, "ecosia"),
	BROWSER("fxios/", 0, "firefox"),
	BROWSER("focus/", F_WORD, "firefox"),
	BROWSER("firefox/", 0, "firefox"),
	BROWSER("fennec/", 0, "firefox"),
	BROWSER("msie ", 0, "ie"),
	BROWSER("trident/", 0, "ie"),
	BROWSER("crios/", 0, "chrome"),
	BROWSER("; wv)", 0, "webview"),
	BROWSER("version/4.0 chrome/", 0, "webview"),
	BROWSER("chrome/", 0, "chrome"),
	BROWSER("chromium/", 0, "chrome"),
	BROWSER("safari", F_WORD, "safari"),
	BROWSER("applewebkit/", 0, "webkit"),	/* see ua_parse() */
};

#define NRULES	LZ_NELEM(rules)

/*
 * The index: the rules whose token starts with a pair of bytes, chained
 * in table order, by a hash of the (lower-case) pair.  Every token has
 * at least two bytes.
 */
#define NBUCKET		1024
#define BUCKET(a, b)	(((unsigned)(a) * 31u ^ (unsigned)(b)) & (NBUCKET - 1))

static unsigned short	 head[NBUCKET], chain[NRULES];
static unsigned char	 toklen[NRULES];
static int		 indexed;

static const char *const inapp_names[] = {
	"", "line", "facebook", "instagram", "messenger", "wechat",
	"tiktok", "x"
};

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static int
is_letter(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static void
build_index(void)
{
	size_t	 i;

	/* Chains keep table order: walk the table backwards. */
	for (i = NRULES; i-- > 0; ) {
		unsigned	 b = BUCKET((unsigned char)rules[i].tok[0],
				    (unsigned char)rules[i].tok[1]);

		toklen[i] = (unsigned char)strlen(rules[i].tok);
		chain[i] = head[b];
		head[b] = (unsigned short)(i + 1);
	}
	indexed = 1;
}

const char *
ua_device_name(enum ua_device d)
{
	switch (d) {
	case UA_MOBILE:
		return "mobile";
	case UA_TABLET:
		return "tablet";
	case UA_DESKTOP:
		break;
	}
	return "desktop";
}

const char *
ua_inapp_name(enum ua_inapp a)
{
	if ((unsigned)a >= LZ_NELEM(inapp_names))
		return "";
	return inapp_names[a];
}

void
ua_parse(const char *ua, struct ua_info *out)
{
	/* The first matching row of each kind, as index + 1 (0: none). */
	size_t			 first[K__MAX], n, i, k, r, len;
	int			 bot_generic = 0, bot_named = 0, cubot = 0;
	const struct rule	*ru, *os, *br, *dev;

	out->device = UA_DESKTOP;
	out->os = "other";
	out->browser = "other";
	out->bot = 0;
	out->preview = 0;
	out->inapp = UA_INAPP_NONE;
	if (ua == NULL || *ua == '\0') {
		out->bot = 1;		/* no browser omits the header */
		return;
	}
	if (!indexed)
		build_index();

	memset(first, 0, sizeof(first));
	n = strnlen(ua, UA_SCAN_MAX);
	for (i = 0; i + 1 < n; i++) {
		r = head[BUCKET(lower((unsigned char)ua[i]),
		    lower((unsigned char)ua[i + 1]))];
		for (; r != 0; r = chain[r - 1]) {
			ru = &rules[r - 1];
			len = toklen[r - 1];
			if (first[ru->kind] != 0 && first[ru->kind] < r &&
			    ru->kind != K_BOT)
				continue;	/* a better row matched */
			if (len > n - i || ((ru->flags & F_START) && i != 0) ||
			    ((ru->flags & F_END) && i + len != n) ||
			    ((ru->flags & F_WORD) && i > 0 &&
			    is_letter((unsigned char)ua[i - 1])))
				continue;
			if (ru->tok[0] != lower((unsigned char)ua[i]))
				continue;	/* another pair, same bucket */
			for (k = 1; k < len; k++)
				if (lower((unsigned char)ua[i + k]) !=
				    ru->tok[k])
					break;
			if (k < len)
				continue;
			if (ru->kind == K_BOT && (ru->flags & F_GENERIC))
				bot_generic = 1;
			else if (ru->kind == K_BOT)
				bot_named = 1;
			else if (ru->kind == K_NOTBOT)
				cubot = 1;
			if (first[ru->kind] == 0 || r < first[ru->kind])
				first[ru->kind] = r;
		}
	}
	os = first[K_OS] ? &rules[first[K_OS] - 1] : NULL;
	br = first[K_BROWSER] ? &rules[first[K_BROWSER] - 1] : NULL;
	dev = first[K_DEVICE] ? &rules[first[K_DEVICE] - 1] : NULL;

	if (first[K_PREVIEW])
		out->preview = out->bot = 1;
	else if (bot_named || (bot_generic && !cubot))
		out->bot = 1;
	else if (os == NULL && br == NULL && first[K_INAPP] == 0)
		out->bot = 1;		/* a library or a tool */

	if (os != NULL) {
		out->os = os->name;
		if (os->val >= 0)
			out->device = (enum ua_device)os->val;
		else if (os->val == DEV_ANDROID)
			out->device = dev != NULL && dev->val == UA_MOBILE ?
			    UA_MOBILE : UA_TABLET;
		else if (dev != NULL)
			out->device = (enum ua_device)dev->val;
		if (first[K_MACMOBILE] && strcmp(os->tok, "macintosh") == 0) {
			/* An iPad app in desktop mode. */
			out->os = "ios";
			out->device = UA_TABLET;
		}
	} else if (dev != NULL)
		out->device = (enum ua_device)dev->val;

	if (first[K_INAPP] && !out->bot) {
		out->inapp = (enum ua_inapp)rules[first[K_INAPP] - 1].val;
		out->browser = inapp_names[out->inapp];
	} else if (br != NULL && strcmp(br->name, "webkit") != 0)
		out->browser = br->name;
	else if (br != NULL && (strcmp(out->os, "ios") == 0 ||
	    strcmp(out->os, "macos") == 0))
		out->browser = "webview";	/* no Safari token */
}

/* ---- the memo -------------------------------------------------------- */

#define MEMO_SLOTS	256	/* direct-mapped */
#define MEMO_UA_MAX	384	/* longer ones are parsed every time */

struct memo {
	char		 ua[MEMO_UA_MAX];	/* "": empty slot */
	struct ua_info	 info;
};

void
ua_parse_memo(const char *ua, struct ua_info *out)
{
	static struct memo	*memo;
	struct memo		*m;
	size_t			 n;

	if (ua == NULL || (n = strlen(ua)) == 0 || n >= MEMO_UA_MAX) {
		ua_parse(ua, out);
		return;
	}
	if (memo == NULL &&
	    (memo = calloc(MEMO_SLOTS, sizeof(*memo))) == NULL) {
		ua_parse(ua, out);
		return;
	}
	m = &memo[lz_hash_keyed(ua, n) % MEMO_SLOTS];
	if (memcmp(m->ua, ua, n + 1) != 0) {
		ua_parse(ua, &m->info);
		memcpy(m->ua, ua, n + 1);
	}
	*out = m->info;
}
