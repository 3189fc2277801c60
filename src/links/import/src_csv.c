/*
 * src_csv.c -- the CSV source of an import (import.h, lzctl(8) import
 * csv): each row of the file (csv.h reads them) mapped to a create
 * body by the columns its header names.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "import/csv.h"
#include "import/import.h"
#include "lztime.h"
#include "util.h"

struct csvrun {
	struct import_run		*run;
	const struct import_opts	*o;
	int				 col[CSV_FIELDS];	/* csv_col or -1 */
	int				 header;
};

/* short_url's host into domain and its first path segment into slug,
 * where the row has none. */
static void
from_short_url(const char *u, char **domain, char **slug)
{
	const char	*p = strstr(u, "://"), *end;

	if (p == NULL)
		return;
	p += 3;
	end = p + strcspn(p, "/?#");
	if (*domain == NULL && end > p)
		*domain = xstrndup(p, (size_t)(end - p));
	if (*end != '/')
		return;
	p = end + 1;
	end = p + strcspn(p, "/?#");
	if (*slug == NULL && end > p)
		*slug = xstrndup(p, (size_t)(end - p));
}

/* Tags split at '|' when there is one, else at ','; trimmed, empty
 * ones left out. */
static json_t *
tags_of(const char *s)
{
	json_t		*arr = json_array();
	char		 sep = strchr(s, '|') != NULL ? '|' : ',';
	const char	*p = s, *end;

	while (*p != '\0') {
		end = strchr(p, sep);
		if (end == NULL)
			end = p + strlen(p);
		while (p < end && *p == ' ')
			p++;
		if (end > p) {
			const char *e = end;

			while (e > p && e[-1] == ' ')
				e--;
			if (e > p)
				json_array_append_new(arr, json_stringn(p,
				    (size_t)(e - p)));
		}
		p = *end ? end + 1 : end;
	}
	return arr;
}

static const char *
field(const struct csvrun *x, const struct csv_record *r, enum csv_col c)
{
	size_t	 i;

	for (i = 0; i < r->nfields; i++)
		if (x->col[i] == (int)c && r->field[i][0] != '\0')
			return r->field[i];
	return NULL;
}

/* One data row into an item (or refused, said why). */
static void
add_row(struct csvrun *x, const struct csv_record *r)
{
	struct import_item	 it;
	const char		*url, *v;
	char			*domain = NULL, *slug = NULL, *id = NULL;
	char			 msg[160];
	json_t			*b;
	long long		 n;
	int64_t			 created = 0;

	if ((url = field(x, r, CSV_URL)) == NULL) {
		import_refuse(x->run, r->line, NULL, "missing_field",
		    "The row has no URL.");
		return;
	}
	if ((v = field(x, r, CSV_DOMAIN)) != NULL)
		domain = xstrdup(v);
	if ((v = field(x, r, CSV_SLUG)) != NULL)
		slug = xstrdup(v);
	if ((v = field(x, r, CSV_SHORT_URL)) != NULL)
		from_short_url(v, &domain, &slug);
	if (domain == NULL && x->o->domain != NULL)
		domain = xstrdup(x->o->domain);
	b = json_pack("{s:s}", "target_url", url);
	if (b == NULL) {
		import_refuse(x->run, r->line, slug, "invalid_field",
		    "The row's URL is not text.");
		goto out;
	}
	if (domain != NULL)
		json_object_set_new(b, "domain", json_string(domain));
	if ((v = field(x, r, CSV_TITLE)) != NULL)
		json_object_set_new(b, "title", json_string(v));
	if ((v = field(x, r, CSV_NOTES)) != NULL)
		json_object_set_new(b, "notes", json_string(v));
	if ((v = field(x, r, CSV_TAGS)) != NULL)
		json_object_set_new(b, "tags", tags_of(v));
	if ((v = field(x, r, CSV_EXPIRES)) != NULL)
		json_object_set_new(b, "expires_at", json_string(v));
	if ((v = field(x, r, CSV_MAX_CLICKS)) != NULL) {
		if (lz_parse_ll(v, 0, 1000000000000LL, &n) == -1) {
			snprintf(msg, sizeof(msg), "max_clicks '%.40s' is not a "
			    "count.", v);
			import_refuse(x->run, r->line, slug, "invalid_field",
			    msg);
			goto out;
		}
		if (n > 0)
			json_object_set_new(b, "max_clicks", json_integer(n));
	}
	if ((v = field(x, r, CSV_CREATED)) != NULL &&
	    lz_time_parse_iso(v, &created) == -1) {
		snprintf(msg, sizeof(msg), "created_at '%.40s' is not an ISO "
		    "8601 time.", v);
		import_refuse(x->run, r->line, slug, "invalid_field", msg);
		goto out;
	}
	/* Its id there: the short link's domain and slug, else its line
	 * and destination (the same file imported again finds it). */
	if (slug != NULL)
		id = xasprintf("%s/%s", domain ? domain : "", slug);
	else
		id = xasprintf("line %ld: %s", r->line, url);
	it = (struct import_item){ .line = r->line, .body = b, .id = id,
	    .slug = slug, .created_at = created, .total_clicks = -1 };
	b = NULL;
	import_add(x->run, &it);
out:
	json_decref(b);
	free(domain);
	free(slug);
	free(id);
}

static void
record(const struct csv_record *r, void *arg)
{
	struct csvrun	*x = arg;
	size_t		 i;
	int		 url = 0;

	if (import_failed(x->run))
		return;
	if (!x->header) {
		x->header = 1;
		if (r->bad != NULL) {
			import_fail(x->run, -2, "line %ld, the header: %s",
			    r->line, r->bad);
			return;
		}
		for (i = 0; i < CSV_FIELDS; i++)
			x->col[i] = i < r->nfields ? csv_column(r->field[i]) :
			    -1;
		for (i = 0; i < r->nfields; i++)
			url |= x->col[i] == CSV_URL;
		if (!url)
			import_fail(x->run, -2, "the header names no URL "
			    "column (url, long_url, longurl, target_url)");
		return;
	}
	if (r->bad != NULL) {
		import_refuse(x->run, r->line, NULL, "bad_row", r->bad);
		return;
	}
	add_row(x, r);
}

int
import_csv(struct lz_db *db, const struct lz_conf *conf, FILE *in,
    const struct import_opts *o, struct import_stats *st)
{
	struct csvrun	 x;
	struct csv	 c;
	char		 buf[65536];
	size_t		 n;

	memset(&x, 0, sizeof(x));
	x.o = o;
	x.run = import_begin(db, conf, "csv", o, st);
	csv_init(&c, record, &x);
	while (!import_failed(x.run) &&
	    (n = fread(buf, 1, sizeof(buf), in)) > 0)
		csv_feed(&c, buf, n);
	if (ferror(in))
		import_fail(x.run, -2, "the file could not be read");
	csv_end(&c);
	return import_end(x.run);
}
