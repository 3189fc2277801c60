/*
 * html.h -- the one path by which text reaches HTML: escaping for element
 * content and double-quoted attribute values.
 */
#ifndef LZ_HTML_H
#define LZ_HTML_H

#include "util.h"

/* Appends s escaped (& < > " ' and /) to b. */
void	lz_html_escape(struct lz_buf *b, const char *s);

/*
 * Fills a template: "{{name}}" is replaced by the escaped value of name,
 * "{{{name}}}" by the raw value (for markup this program built itself).
 * vars is a NULL-terminated list of name, value pairs.  Unknown names
 * expand to "".
 */
void	lz_html_render(struct lz_buf *b, const char *tmpl,
	    const char *const *vars);

#endif
