/*
 * html.c -- HTML escaping and a tiny template filler.
 */
#include "config.h"

#include <string.h>

#include "html.h"

void
lz_html_escape(struct lz_buf *b, const char *s)
{
	const char	*run;

	for (run = s; *s; s++) {
		const char	*rep;

		switch (*s) {
		case '&':  rep = "&amp;"; break;
		case '<':  rep = "&lt;"; break;
		case '>':  rep = "&gt;"; break;
		case '"':  rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		case '/':  rep = "&#47;"; break;
		default:   continue;
		}
		lz_buf_add(b, run, (size_t)(s - run));
		lz_buf_puts(b, rep);
		run = s + 1;
	}
	lz_buf_add(b, run, (size_t)(s - run));
}

static const char *
lookup(const char *const *vars, const char *name, size_t len)
{
	size_t	 i;

	for (i = 0; vars && vars[i]; i += 2)
		if (strlen(vars[i]) == len && memcmp(vars[i], name, len) == 0)
			return vars[i + 1] ? vars[i + 1] : "";
	return "";
}

void
lz_html_render(struct lz_buf *b, const char *t, const char *const *vars)
{
	const char	*open, *close;
	int		 raw;

	while ((open = strstr(t, "{{")) != NULL) {
		lz_buf_add(b, t, (size_t)(open - t));
		raw = open[2] == '{';
		open += raw ? 3 : 2;
		if ((close = strstr(open, raw ? "}}}" : "}}")) == NULL) {
			t = open - (raw ? 3 : 2);
			break;
		}
		if (raw)
			lz_buf_puts(b, lookup(vars, open,
			    (size_t)(close - open)));
		else
			lz_html_escape(b, lookup(vars, open,
			    (size_t)(close - open)));
		t = close + (raw ? 3 : 2);
	}
	lz_buf_puts(b, t);
}
