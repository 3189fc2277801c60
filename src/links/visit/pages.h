/*
 * pages.h -- the HTML pages of short links (DESIGN 3.4): not found, gone,
 * the password form, the social preview, the in-app browser escape and
 * the pixel interstitial.  Small templates compiled in, filled only
 * through lz_html_render(), one layout and the stylesheet
 * /static/lz.css for all.
 *
 * Each pages_* function renders into a struct page; page_send() answers
 * with it (text/html, no-store, the page's Content-Security-Policy).
 */
#ifndef LZ_PAGES_H
#define LZ_PAGES_H

#include "util.h"

struct link;
struct lz_req;

struct page {
	struct lz_buf	 html;
	struct lz_buf	 csp;		/* Content-Security-Policy */
	char		 nonce[32];	/* of the inline scripts, "" none */
};

/* A page saying what went wrong: title and a sentence. */
void	pages_message(struct page *, const char *title, const char *message);

/*
 * The password form, posting to action (the short link's path); error,
 * when not NULL, is shown above it.
 */
void	pages_password(struct page *, const char *action, const char *error);

/* For social crawlers: og: and twitter: tags and a refresh to target;
 * without target (NULL) the tags alone. */
void	pages_preview(struct page *, const struct link *,
	    const char *short_url, const char *target);

enum escape_kind {
	ESCAPE_LINE,	/* LINE opens ?openExternalBrowser=1 outside */
	ESCAPE_ANDROID,	/* an intent:// URL hands over to Chrome */
	ESCAPE_MANUAL	/* iOS and others: tell how, offer to stay */
};

/*
 * The in-app browser escape: app is the app's name ("LINE", ...);
 * short_url is the link's public URL, stay_url the same with the
 * parameter that skips the escape.
 */
void	pages_escape(struct page *, enum escape_kind, const char *app,
	    const char *short_url, const char *stay_url);

/* The pixel interstitial: fires the link's pixels, then goes to target. */
void	pages_pixels(struct page *, const struct link *, const char *target);

/* Answers with the page (status as given) and frees it. */
void	page_send(struct lz_req *, int status, struct page *);
void	page_free(struct page *);

#endif
