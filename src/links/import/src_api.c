/*
 * src_api.c -- what the importers of HTTP APIs share (src_api.h).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "import/apis.h"
#include "import/history.h"
#include "import/http.h"
#include "import/import.h"
#include "import/src_api.h"
#include "store/links.h"
#include "util.h"

int
api_begin(struct api_run *x, struct lz_db *db, const struct lz_conf *conf,
    const char *source, const char *name, const char *keyname,
    const struct api_source *src, const char *def, const char *keyfmt,
    const struct import_opts *o, struct import_stats *st)
{
	char	 err[200];

	memset(x, 0, sizeof(*x));
	x->db = db;
	x->conf = conf;
	x->source = source;
	x->name = name;
	x->keyname = keyname;
	x->o = o;
	x->st = st;
	x->run = import_begin(db, conf, source, o, st);
	if (src->key == NULL || *src->key == '\0' ||
	    strpbrk(src->key, "\r\n") != NULL) {
		import_fail(x->run, -2, "%s: no %s (or one of more than a "
		    "line)", name, keyname);
		return -1;
	}
	if ((x->base = http_base(src->base ? src->base : def, err,
	    sizeof(err))) == NULL) {
		import_fail(x->run, -2, "%s", err);
		return -1;
	}
	if ((x->http = http_new(src->cacert)) == NULL) {
		import_fail(x->run, -2, "libcurl could not start");
		return -1;
	}
	x->keyhdr = xasprintf(keyfmt, src->key);
	x->hdrs[0] = x->keyhdr;
	x->hdrs[1] = NULL;
	return 0;
}

char *
api_get(struct api_run *x, const char *path, const char *what, size_t *len)
{
	char	*url, *body, err[400];
	int	 rc;

	if (import_failed(x->run))
		return NULL;
	url = xasprintf("%s%s", x->base, path);
	rc = http_get(x->http, url, x->hdrs, &body, len, err, sizeof(err));
	free(url);
	if (rc == 0)
		return body;
	if (rc == HTTP_DENIED)
		import_fail(x->run, -2, "%s: the %s was refused (%s)", x->name,
		    x->keyname, err);
	else if (rc == HTTP_NOTFOUND)
		import_fail(x->run, -2, "%s, %s: not found (%s): is %s %s's "
		    "address?", x->name, what, err, x->base, x->name);
	else
		import_fail(x->run, -2, "%s, %s: %s", x->name, what, err);
	return NULL;
}

void
api_item(struct import_item *it, const char *code, const char *msg,
    void *arg)
{
	struct api_run	*x = arg;

	if (it->body == NULL)
		import_refuse(x->run, 0, it->id, code, msg);
	else
		import_add(x->run, it);
}

static int
add_pending(const struct store_import_pending *p, void *arg)
{
	struct api_pending	*pl = arg;

	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? pl->cap * 2 : 256;
		pl->v = xreallocarray(pl->v, pl->cap, sizeof(*pl->v));
	}
	pl->v[pl->n] = *p;
	pl->v[pl->n++].id = xstrdup(p->id);
	return 1;
}

int
api_pending(struct api_run *x, struct api_pending *pl)
{
	memset(pl, 0, sizeof(*pl));
	if (store_import_pending(x->db, x->o->account_id, x->source,
	    add_pending, pl) == -1) {
		import_fail(x->run, -1, "the links' histories could not be "
		    "listed");
		return -1;
	}
	return 0;
}

void
api_pending_free(struct api_pending *pl)
{
	size_t	 i;

	for (i = 0; i < pl->n; i++)
		free((char *)(uintptr_t)pl->v[i].id);
	free(pl->v);
	memset(pl, 0, sizeof(*pl));
}

int
api_counts(struct api_run *x)
{
	struct api_pending	 pl;
	struct history		*h;
	size_t			 i;

	if (api_pending(x, &pl) == -1)
		return -1;
	/* history.h: links batched, each done with its count set. */
	h = history_open(x->db, x->conf, x->st);
	for (i = 0; i < pl.n && !import_failed(x->run); i++) {
		if (history_link(h, &pl.v[i]) == -1)
			import_fail(x->run, -1, "the count of %s could not be "
			    "written: run the import again to go on",
			    pl.v[i].id);
		else
			history_link_end(h, 1);
		if (x->o->progress != NULL)
			x->o->progress("counts", i + 1, pl.n);
	}
	if (history_close(h) == -1)
		import_fail(x->run, -1, "the last counts could not be "
		    "written: run the import again to go on");
	api_pending_free(&pl);
	return import_failed(x->run) ? -1 : 0;
}

int
api_end(struct api_run *x)
{
	http_free(x->http);
	free(x->keyhdr);
	free(x->base);
	return import_end(x->run);
}
