/*
 * csv.c -- CSV records (csv.h).
 */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "import/csv.h"
#include "utf8.h"

enum { S_FIELD, S_QUOTED, S_QUOTE, S_AFTER, S_CR };

void
csv_init(struct csv *c, void (*fn)(const struct csv_record *, void *),
    void *arg)
{
	memset(c, 0, sizeof(*c));
	c->fn = fn;
	c->arg = arg;
	c->line = 1;
	c->start = 1;
	c->at_start = 1;
}

static void
end_field(struct csv *c)
{
	if (c->bad == NULL && c->nf == CSV_FIELDS)
		c->bad = "more than 64 fields";
	if (c->bad == NULL) {
		c->off[c->nf++] = c->rec.len;
		lz_buf_add(&c->rec, c->field.p ? c->field.p : "",
		    c->field.len);
		lz_buf_putc(&c->rec, '\0');
	}
	lz_buf_reset(&c->field);
	c->quoted = 0;
}

static void
end_record(struct csv *c)
{
	struct csv_record	 r;
	size_t			 i;

	end_field(c);
	memset(&r, 0, sizeof(r));
	r.line = c->start;
	r.bad = c->bad;
	if (r.bad == NULL) {
		r.nfields = c->nf;
		for (i = 0; i < c->nf; i++) {
			r.field[i] = c->rec.p + c->off[i];
			if (lz_utf8_count(r.field[i], strlen(r.field[i]),
			    0) < 0)
				r.bad = "not UTF-8";
		}
		if (r.bad != NULL)
			r.nfields = 0;	/* a bad record is skipped whole */
	}
	/* A blank line is no record.  A header of one column: ','. */
	if (c->any || r.bad != NULL)
		c->fn(&r, c->arg);
	if (c->delim == 0)
		c->delim = ',';
	lz_buf_reset(&c->rec);
	c->nf = 0;
	c->bad = NULL;
	c->any = 0;
	c->state = S_FIELD;
	c->start = c->line;
}

static void
add(struct csv *c, char ch)
{
	c->any = 1;
	if (c->field.len >= CSV_FIELD_MAX) {
		if (c->bad == NULL)
			c->bad = "a field longer than 8192 bytes";
		return;
	}
	lz_buf_putc(&c->field, ch);
}

static void
byte(struct csv *c, char ch)
{
	/* The header's first delimiter outside quotes says which. */
	if (c->delim == 0 && c->state == S_FIELD && (ch == ',' || ch == ';'))
		c->delim = ch;
	switch (c->state) {
	case S_CR:
		c->state = S_FIELD;
		if (ch == '\n')
			return;		/* CRLF: the record ended at CR */
		/* FALLTHROUGH */
	case S_FIELD:
		if (c->delim != 0 && ch == c->delim) {
			c->any = 1;
			end_field(c);
		} else if (ch == '\n' || ch == '\r') {
			c->line++;
			end_record(c);
			if (ch == '\r')
				c->state = S_CR;
		} else if (ch == '"' && c->field.len == 0 && !c->quoted) {
			c->quoted = 1;
			c->any = 1;
			c->state = S_QUOTED;
		} else {
			if (ch == '"' && c->bad == NULL)
				c->bad = "a quote inside an unquoted field";
			add(c, ch);
		}
		break;
	case S_QUOTED:
		if (ch == '"')
			c->state = S_QUOTE;
		else {
			if (ch == '\n')
				c->line++;
			add(c, ch);
		}
		break;
	case S_QUOTE:
		if (ch == '"') {		/* "" */
			add(c, '"');
			c->state = S_QUOTED;
			break;
		}
		c->state = S_FIELD;
		if ((c->delim == 0 || ch != c->delim) && ch != '\n' &&
		    ch != '\r') {
			if (c->bad == NULL)
				c->bad = "text after a closing quote";
			add(c, ch);
			break;
		}
		byte(c, ch);
		break;
	}
}

void
csv_feed(struct csv *c, const char *p, size_t len)
{
	static const char	 bom[] = "\xef\xbb\xbf";
	size_t			 i = 0;

	/* A BOM at the very start, even cut between two chunks. */
	while (c->at_start && i < len) {
		if (p[i] != bom[c->bom]) {
			c->at_start = 0;
			/* A BOM begun, then not: its bytes are text. */
			for (int k = 0; k < c->bom; k++)
				byte(c, bom[k]);
			c->bom = 0;
			break;
		}
		i++;
		if (++c->bom == 3) {
			c->at_start = 0;
			c->bom = 0;
		}
	}
	for (; i < len; i++)
		byte(c, p[i]);
}

void
csv_end(struct csv *c)
{
	if (c->state == S_QUOTED && c->bad == NULL)
		c->bad = "a quoted field never closed";
	if (c->any || c->field.len > 0 || c->bad != NULL)
		end_record(c);
	lz_buf_free(&c->field);
	lz_buf_free(&c->rec);
}

int
csv_column(const char *h)
{
	static const struct {
		const char	*name;
		enum csv_col	 col;
	} names[] = {
		{ "url", CSV_URL }, { "longurl", CSV_URL },
		{ "targeturl", CSV_URL }, { "destination", CSV_URL },
		{ "slug", CSV_SLUG }, { "shortcode", CSV_SLUG },
		{ "keyword", CSV_SLUG }, { "key", CSV_SLUG },
		{ "domain", CSV_DOMAIN },
		{ "title", CSV_TITLE },
		{ "tags", CSV_TAGS },
		{ "notes", CSV_NOTES }, { "comments", CSV_NOTES },
		{ "createdat", CSV_CREATED }, { "datecreated", CSV_CREATED },
		{ "expiresat", CSV_EXPIRES }, { "validuntil", CSV_EXPIRES },
		{ "maxclicks", CSV_MAX_CLICKS }, { "maxvisits", CSV_MAX_CLICKS },
		{ "shorturl", CSV_SHORT_URL }, { "link", CSV_SHORT_URL },
		{ "shortlink", CSV_SHORT_URL },
	};
	char	 n[40];
	size_t	 i, k = 0;

	for (; *h != '\0'; h++) {
		if (*h == ' ' || *h == '_' || *h == '-')
			continue;
		if (k + 1 >= sizeof(n))
			return -1;
		n[k++] = (char)tolower((unsigned char)*h);
	}
	n[k] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(n, names[i].name) == 0)
			return (int)names[i].col;
	return -1;
}
