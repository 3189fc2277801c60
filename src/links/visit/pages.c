/*
 * pages.c -- the HTML pages of short links.
 *
 * Every page is the layout below around a body; both are filled by
 * lz_html_render(), which escapes every {{value}}; {{{raw}}} is used only
 * for markup rendered here the same way.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>
#include <sodium.h>

#include "html.h"
#include "link/link.h"
#include "req.h"
#include "resp.h"
#include "visit/pages.h"

static const char layout[] =
	"<!doctype html>\n"
	"<html lang=\"en\">\n"
	"<head>\n"
	"<meta charset=\"utf-8\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, "
	    "initial-scale=1\">\n"
	"<meta name=\"robots\" content=\"noindex, nofollow\">\n"
	"<title>{{title}}</title>\n"
	"<link rel=\"stylesheet\" href=\"/static/lz.css\">\n"
	"{{{head}}}"
	"</head>\n"
	"<body>\n"
	"<main class=\"lz-page\">\n"
	"<h1>{{title}}</h1>\n"
	"{{{body}}}"
	"</main>\n"
	"</body>\n"
	"</html>\n";

/* For pages without scripts or forms. */
#define CSP_STATIC \
	"default-src 'none'; style-src 'self'; img-src 'self'; " \
	"form-action 'none'; base-uri 'none'; frame-ancestors 'none'"

/*
 * Every page is sandboxed (DESIGN 3.11): it runs in an opaque origin, so
 * what an account put in it -- a pixel's tag container above all -- can
 * read nothing of the dashboard on the same host, whatever else the
 * page's policy lets through.  Never allow-same-origin.  Each page adds
 * only what it needs: allow-scripts for its scripts and, where the policy
 * lets no script run, for the browser's "automatic features" (a meta
 * refresh, autofocus), allow-forms for the password form.  A page is
 * never framed (frame-ancestors 'none'), so navigating itself is
 * navigating the top window, which a sandbox always allows.
 */
#define SANDBOX		"; sandbox"
#define SANDBOX_AUTO	SANDBOX " allow-scripts"
#define SANDBOX_FORM	SANDBOX_AUTO " allow-forms"
/* intent:// for Chrome on Android leaves through an external protocol. */
#define SANDBOX_ESCAPE	SANDBOX_AUTO " allow-popups " \
	"allow-top-navigation-to-custom-protocols"

static void
render(struct page *p, const char *title, const char *head, const char *body)
{
	const char *const	 vars[] = {
		"title", title, "head", head, "body", body, NULL
	};

	lz_html_render(&p->html, layout, vars);
}

static void
page_init(struct page *p, int scripts)
{
	unsigned char	 rnd[16];

	memset(p, 0, sizeof(*p));
	if (scripts) {
		randombytes_buf(rnd, sizeof(rnd));
		/* No '/' or '+': nothing for the HTML escaper to touch. */
		sodium_bin2base64(p->nonce, sizeof(p->nonce), rnd, sizeof(rnd),
		    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	}
}

void
page_free(struct page *p)
{
	lz_buf_free(&p->html);
	lz_buf_free(&p->csp);
}

void
page_send(struct lz_req *r, int status, struct page *p)
{
	lz_resp_header(r, "Content-Security-Policy", "%s", lz_buf_str(&p->csp));
	lz_resp_header(r, "Cache-Control", "no-store");
	lz_resp_header(r, "X-Content-Type-Options", "nosniff");
	lz_resp_send(r, status, "text/html; charset=utf-8", p->html.p,
	    p->html.len);
	page_free(p);
}

/* ---- messages and the password form ---------------------------------- */

void
pages_message(struct page *p, const char *title, const char *message)
{
	struct lz_buf		 body = LZ_BUF_INIT;
	const char *const	 vars[] = { "message", message, NULL };

	page_init(p, 0);
	lz_html_render(&body, "<p>{{message}}</p>\n", vars);
	render(p, title, "", lz_buf_str(&body));
	lz_buf_puts(&p->csp, CSP_STATIC SANDBOX);
	lz_buf_free(&body);
}

static const char password_body[] =
	"<p>This link is protected by a password.</p>\n"
	"{{{error}}}"
	"<form method=\"post\" action=\"{{action}}\">\n"
	"<label for=\"lz-pw\">Password</label>\n"
	"<input id=\"lz-pw\" name=\"password\" type=\"password\" required "
	    "autofocus autocomplete=\"current-password\" maxlength=\"128\">\n"
	"<button type=\"submit\">Continue</button>\n"
	"</form>\n";

void
pages_password(struct page *p, const char *action, const char *error)
{
	struct lz_buf		 body = LZ_BUF_INIT, err = LZ_BUF_INIT;
	const char *const	 evars[] = { "error", error, NULL };
	const char		*vars[] = {
		"action", action, "error", "", NULL
	};

	page_init(p, 0);
	if (error != NULL) {
		lz_html_render(&err, "<p class=\"lz-error\" role=\"alert\">"
		    "{{error}}</p>\n", evars);
		vars[3] = lz_buf_str(&err);
	}
	lz_html_render(&body, password_body, vars);
	render(p, "Password required", "", lz_buf_str(&body));
	/*
	 * form-action also judges the redirects that follow a submission:
	 * the right password's 303 goes to the link's destination,
	 * anywhere on the web (and in the sandbox's opaque origin 'self'
	 * would match nothing at all).
	 */
	lz_buf_puts(&p->csp, "default-src 'none'; style-src 'self'; "
	    "img-src 'self'; form-action https: http:; base-uri 'none'; "
	    "frame-ancestors 'none'" SANDBOX_FORM);
	lz_buf_free(&body);
	lz_buf_free(&err);
}

/* ---- the social preview ---------------------------------------------- */

static void
meta(struct lz_buf *b, const char *attr, const char *name, const char *value)
{
	const char *const	 vars[] = {
		"attr", attr, "name", name, "value", value, NULL
	};

	if (value != NULL && *value != '\0')
		lz_html_render(b, "<meta {{attr}}=\"{{name}}\" "
		    "content=\"{{value}}\">\n", vars);
}

static const char *
og_str(const struct link *l, const char *key)
{
	return json_string_value(json_object_get(l->og, key));
}

void
pages_preview(struct page *p, const struct link *l, const char *short_url,
    const char *target)
{
	struct lz_buf	 head = LZ_BUF_INIT, body = LZ_BUF_INIT;
	const char	*title, *desc, *image;
	const char	*vars[] = { "description", NULL, "target", target,
	    NULL };

	page_init(p, 0);
	if ((title = og_str(l, "title")) == NULL)
		title = l->title;
	desc = og_str(l, "description");
	image = og_str(l, "image");
	meta(&head, "property", "og:type", "website");
	meta(&head, "property", "og:url", short_url);
	meta(&head, "property", "og:title", title);
	meta(&head, "property", "og:description", desc);
	meta(&head, "property", "og:image", image);
	meta(&head, "name", "twitter:card", image ? "summary_large_image" :
	    "summary");
	meta(&head, "name", "twitter:title", title);
	meta(&head, "name", "twitter:description", desc);
	meta(&head, "name", "twitter:image", image);
	vars[1] = desc ? desc : "";
	if (target != NULL) {
		lz_html_render(&head, "<meta http-equiv=\"refresh\" "
		    "content=\"0;url={{target}}\">\n", vars);
		lz_html_render(&body, "<p>{{description}}</p>\n"
		    "<p><a href=\"{{target}}\">Continue</a></p>\n", vars);
	} else
		lz_html_render(&body, "<p>{{description}}</p>\n", vars);
	render(p, title ? title : "Redirecting", lz_buf_str(&head),
	    lz_buf_str(&body));
	lz_buf_puts(&p->csp, CSP_STATIC SANDBOX_AUTO);
	lz_buf_free(&head);
	lz_buf_free(&body);
}

/* ---- the in-app browser escape --------------------------------------- */

static const char escape_line[] =
	"<p>Opening this link in your browser&#8230;</p>\n"
	"<p><a id=\"lz-go\" class=\"lz-button\" href=\"{{url}}\">"
	    "Open in browser</a></p>\n"
	"<script nonce=\"{{nonce}}\">"
	    "location.replace(document.getElementById(\"lz-go\").href);"
	    "</script>\n";

static const char escape_android[] =
	"<p>This link opens in your browser.</p>\n"
	"<p><a id=\"lz-go\" class=\"lz-button\" href=\"{{url}}\">"
	    "Open in browser</a></p>\n"
	"<p><a href=\"{{stay}}\">Continue in {{app}}</a></p>\n"
	"<script nonce=\"{{nonce}}\">"
	    "location.replace(document.getElementById(\"lz-go\").href);"
	    "</script>\n";

static const char escape_manual[] =
	"<p>This link is open in the browser inside {{app}}. To open it in "
	    "your own browser, tap the &#8943; or share button and choose "
	    "&#8220;Open in browser&#8221; (on an iPhone: &#8220;Open in "
	    "Safari&#8221;).</p>\n"
	"<p><input id=\"lz-url\" class=\"lz-url\" readonly "
	    "value=\"{{url}}\"> <button id=\"lz-copy\" type=\"button\">"
	    "Copy link</button></p>\n"
	"<p><a class=\"lz-button\" href=\"{{stay}}\">Continue in {{app}}"
	    "</a></p>\n"
	"<script nonce=\"{{nonce}}\">"
	    "document.getElementById(\"lz-copy\").addEventListener(\"click\","
	    "function(){var u=document.getElementById(\"lz-url\");u.select();"
	    "if(navigator.clipboard)navigator.clipboard.writeText(u.value);"
	    "else document.execCommand(\"copy\");this.textContent=\"Copied\";"
	    "});</script>\n";

/*
 * intent://HOST/PATH#Intent;scheme=SCHEME;package=com.android.chrome;
 * S.browser_fallback_url=STAY;end -- Chrome opens the short URL; without
 * Chrome the in-app browser goes on to stay_url.
 */
static void
intent_url(struct lz_buf *b, const char *short_url, const char *stay_url)
{
	const char	*rest;
	char		*fallback;
	size_t		 slen;

	if ((rest = strstr(short_url, "://")) == NULL) {
		lz_buf_puts(b, short_url);
		return;
	}
	slen = (size_t)(rest - short_url);
	fallback = curl_easy_escape(NULL, stay_url, 0);
	lz_buf_printf(b, "intent://%s#Intent;scheme=%.*s;"
	    "package=com.android.chrome;S.browser_fallback_url=%s;end",
	    rest + 3, (int)slen, short_url, fallback ? fallback : "");
	curl_free(fallback);
}

void
pages_escape(struct page *p, enum escape_kind kind, const char *app,
    const char *short_url, const char *stay_url)
{
	struct lz_buf	 url = LZ_BUF_INIT, body = LZ_BUF_INIT;
	const char	*tmpl;

	page_init(p, 1);
	switch (kind) {
	case ESCAPE_LINE:
		lz_buf_printf(&url, "%s?openExternalBrowser=1", short_url);
		tmpl = escape_line;
		break;
	case ESCAPE_ANDROID:
		intent_url(&url, short_url, stay_url);
		tmpl = escape_android;
		break;
	default:
		lz_buf_puts(&url, short_url);
		tmpl = escape_manual;
		break;
	}
	{
		const char *const	 vars[] = {
			"url", lz_buf_str(&url), "stay", stay_url, "app", app,
			"nonce", p->nonce, NULL
		};

		lz_html_render(&body, tmpl, vars);
	}
	render(p, "Open in your browser", "", lz_buf_str(&body));
	lz_buf_printf(&p->csp, "default-src 'none'; script-src 'nonce-%s'; "
	    "style-src 'self'; img-src 'self'; form-action 'none'; "
	    "base-uri 'none'; frame-ancestors 'none'" SANDBOX_ESCAPE,
	    p->nonce);
	lz_buf_free(&url);
	lz_buf_free(&body);
}

/* ---- the pixel interstitial ------------------------------------------ */

/*
 * The vendors' published base codes, with {{id}} for the pixel id (whose
 * format link.c checked: letters, digits and '-' only) and the page's
 * nonce on every inline script, and the hosts each needs in the page's
 * Content-Security-Policy.
 */
static const struct pixel_def {
	const char	*head;
	const char	*noscript;
	const char	*script_src;
	const char	*img_src;
	const char	*connect_src;
	const char	*frame_src;
} pixel_defs[PIXEL__MAX] = {
	[PIXEL_FB] = {
		"<script nonce=\"{{nonce}}\">"
		"!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){"
		"n.callMethod?n.callMethod.apply(n,arguments):n.queue.push("
		"arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;"
		"n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;"
		"t.src=v;s=b.getElementsByTagName(e)[0];"
		"s.parentNode.insertBefore(t,s)}(window,document,'script',"
		"'https://connect.facebook.net/en_US/fbevents.js');"
		"fbq('init','{{id}}');fbq('track','PageView');</script>\n",
		"<noscript><img height=\"1\" width=\"1\" class=\"lz-hidden\" "
		"alt=\"\" src=\"https://www.facebook.com/tr?id={{id}}&amp;"
		"ev=PageView&amp;noscript=1\"></noscript>\n",
		"https://connect.facebook.net",
		"https://www.facebook.com",
		"https://www.facebook.com https://connect.facebook.net",
		NULL
	},
	[PIXEL_GA] = {
		"<script async nonce=\"{{nonce}}\" "
		"src=\"https://www.googletagmanager.com/gtag/js?id={{id}}\">"
		"</script>\n"
		"<script nonce=\"{{nonce}}\">window.dataLayer=window.dataLayer"
		"||[];function gtag(){dataLayer.push(arguments);}"
		"gtag('js',new Date());gtag('config','{{id}}');</script>\n",
		NULL,
		"https://www.googletagmanager.com",
		"https://www.google-analytics.com "
		"https://www.googletagmanager.com",
		"https://www.google-analytics.com "
		"https://*.google-analytics.com https://*.analytics.google.com "
		"https://www.googletagmanager.com",
		NULL
	},
	[PIXEL_GTM] = {
		"<script nonce=\"{{nonce}}\">"
		"(function(w,d,s,l,i){w[l]=w[l]||[];"
		"w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});"
		"var f=d.getElementsByTagName(s)[0],j=d.createElement(s),"
		"dl=l!='dataLayer'?'&l='+l:'';j.async=true;"
		"j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;"
		"var n=d.querySelector('[nonce]');"
		"n&&j.setAttribute('nonce',n.nonce||n.getAttribute('nonce'));"
		"f.parentNode.insertBefore(j,f);})(window,document,'script',"
		"'dataLayer','{{id}}');</script>\n",
		"<noscript><iframe class=\"lz-hidden\" height=\"0\" "
		"width=\"0\" "
		"src=\"https://www.googletagmanager.com/ns.html?id={{id}}\">"
		"</iframe></noscript>\n",
		"https://www.googletagmanager.com",
		"https://www.googletagmanager.com",
		"https://www.googletagmanager.com",
		"https://www.googletagmanager.com"
	},
	[PIXEL_TIKTOK] = {
		"<script nonce=\"{{nonce}}\">!function(w,d,t){"
		"w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];"
		"ttq.methods=['page','track','identify','instances','debug',"
		"'on','off','once','ready','alias','group','enableCookie',"
		"'disableCookie'],ttq.setAndDefer=function(t,e){t[e]=function()"
		"{t.push([e].concat(Array.prototype.slice.call(arguments,0)))}"
		"};for(var i=0;i<ttq.methods.length;i++)ttq.setAndDefer(ttq,"
		"ttq.methods[i]);ttq.instance=function(t){for(var e=ttq._i[t]"
		"||[],n=0;n<ttq.methods.length;n++)ttq.setAndDefer(e,"
		"ttq.methods[n]);return e},ttq.load=function(e,n){"
		"var i='https://analytics.tiktok.com/i18n/pixel/events.js';"
		"ttq._i=ttq._i||{},ttq._i[e]=[],ttq._i[e]._u=i,ttq._t=ttq._t||"
		"{},ttq._t[e]=+new Date,ttq._o=ttq._o||{},ttq._o[e]=n||{};"
		"var o=document.createElement('script');"
		"o.type='text/javascript',o.async=!0,"
		"o.src=i+'?sdkid='+e+'&lib='+t;"
		"var a=document.getElementsByTagName('script')[0];"
		"a.parentNode.insertBefore(o,a)};ttq.load('{{id}}');ttq.page();"
		"}(window,document,'ttq');</script>\n",
		NULL,
		"https://analytics.tiktok.com",
		"https://analytics.tiktok.com",
		"https://analytics.tiktok.com",
		NULL
	},
	[PIXEL_LINE] = {
		"<script nonce=\"{{nonce}}\">"
		"(function(g,d,o){g._ltq=g._ltq||[];"
		"g._lt=g._lt||function(){g._ltq.push(arguments)};"
		"var h='https://d.line-scdn.net';"
		"var s=d.createElement('script');"
		"s.async=1;s.src=o||h+'/n/line_tag/public/release/v1/lt.js';"
		"var t=d.getElementsByTagName('script')[0];"
		"t.parentNode.insertBefore(s,t);})(window,document);"
		"_lt('init',{customerType:'lap',tagId:'{{id}}'});"
		"_lt('send','pv',['{{id}}']);</script>\n",
		"<noscript><img height=\"1\" width=\"1\" class=\"lz-hidden\" "
		"alt=\"\" src=\"https://tr.line.me/tag.gif?c_t=lap&amp;"
		"t_id={{id}}&amp;e=pv&amp;noscript=1\"></noscript>\n",
		"https://d.line-scdn.net",
		"https://tr.line.me",
		"https://tr.line.me https://d.line-scdn.net",
		NULL
	},
};

/* 1 when the space-separated list s holds the word w[0..n). */
static int
has_word(const char *s, const char *w, size_t n)
{
	size_t	 len;

	for (; *s != '\0'; s += len) {
		s += strspn(s, " ");
		len = strcspn(s, " ");
		if (len == n && memcmp(s, w, n) == 0)
			return 1;
	}
	return 0;
}

/* Appends " host" to b for each host of list not in b yet. */
static void
add_hosts(struct lz_buf *b, const char *list)
{
	const char	*p;
	size_t		 n;

	for (p = list; p != NULL && *p != '\0'; p += n) {
		p += strspn(p, " ");
		if ((n = strcspn(p, " ")) == 0)
			break;
		if (!has_word(lz_buf_str(b), p, n)) {
			lz_buf_putc(b, ' ');
			lz_buf_add(b, p, n);
		}
	}
}

/* Letters, digits and '-' only: what may stand inside a script. */
static int
pixel_id_safe(const char *s)
{
	size_t	 n = strlen(s);

	return n > 0 && n <= 40 && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

static const char pixels_body[] =
	"<p>Redirecting&#8230;</p>\n"
	"<p><a id=\"lz-go\" class=\"lz-button\" href=\"{{target}}\">"
	    "Continue</a></p>\n"
	"{{{noscript}}}"
	"<script nonce=\"{{nonce}}\">(function(){"
	    "var go=document.getElementById(\"lz-go\").href,done=false;"
	    "function f(){if(!done){done=true;location.replace(go);}}"
	    "window.addEventListener(\"load\",function(){setTimeout(f,300);});"
	    "setTimeout(f,2000);})();</script>\n";

void
pages_pixels(struct page *p, const struct link *l, const char *target)
{
	struct lz_buf	 head = LZ_BUF_INIT, body = LZ_BUF_INIT;
	struct lz_buf	 nos = LZ_BUF_INIT;
	struct lz_buf	 src[4] = { LZ_BUF_INIT, LZ_BUF_INIT, LZ_BUF_INIT,
	    LZ_BUF_INIT };
	const struct pixel_def	*d;
	size_t		 i;

	page_init(p, 1);
	{
		const char *const	 vars[] = { "target", target, NULL };

		lz_html_render(&head, "<noscript><meta http-equiv=\"refresh\" "
		    "content=\"0;url={{target}}\"></noscript>\n", vars);
	}
	for (i = 0; i < PIXEL__MAX; i++) {
		const char *const	 vars[] = {
			"id", l->pixel[i], "nonce", p->nonce, NULL
		};

		if (l->pixel[i] == NULL || !pixel_id_safe(l->pixel[i]))
			continue;
		d = &pixel_defs[i];
		lz_html_render(&head, d->head, vars);
		if (d->noscript)
			lz_html_render(&nos, d->noscript, vars);
		add_hosts(&src[0], d->script_src);
		add_hosts(&src[1], d->img_src);
		add_hosts(&src[2], d->connect_src);
		add_hosts(&src[3], d->frame_src);
	}
	{
		const char *const	 vars[] = {
			"target", target, "noscript", lz_buf_str(&nos),
			"nonce", p->nonce, NULL
		};

		lz_html_render(&body, pixels_body, vars);
	}
	render(p, "Redirecting", lz_buf_str(&head), lz_buf_str(&body));
	lz_buf_printf(&p->csp, "default-src 'none'; script-src 'nonce-%s'%s; "
	    "style-src 'self'; img-src 'self'%s; connect-src %s; ",
	    p->nonce, lz_buf_str(&src[0]), lz_buf_str(&src[1]),
	    src[2].len ? lz_buf_str(&src[2]) + 1 : "'none'");
	if (src[3].len)
		lz_buf_printf(&p->csp, "frame-src%s; ", lz_buf_str(&src[3]));
	lz_buf_puts(&p->csp, "form-action 'none'; base-uri 'none'; "
	    "frame-ancestors 'none'" SANDBOX_AUTO);
	lz_buf_free(&head);
	lz_buf_free(&body);
	lz_buf_free(&nos);
	for (i = 0; i < LZ_NELEM(src); i++)
		lz_buf_free(&src[i]);
}
