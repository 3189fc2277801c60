/*
 * import.c -- moving links in (import.h): the engine every source hands
 * its items to.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "db.h"
#include "import/import.h"
#include "link/link.h"
#include "link/linkops.h"
#include "lztime.h"
#include "store/store.h"
#include "util.h"
#include "verr.h"

#define RENAME_TRIES	5	/* slug-2 .. slug-6, then a random one */

/* An item on its way: its create body and where it comes from. */
struct row {
	long		 line;
	json_t		*body;
	char		*id;		/* at the source */
	char		*slug;		/* as tried first (renames) */
	int64_t		 created_at;
	int64_t		 total_clicks;
	int		 history;
	int		 tries;
};

struct import_run {
	struct lz_db			*db;
	const struct lz_conf		*conf;
	const char			*source;
	const struct import_opts	*o;
	struct import_stats		*st;
	struct row			*rows;		/* IMPORT_BATCH */
	size_t				 n;
	int				 failed;	/* -1 database, -2 source */
	int				 lazy;		/* store_lazy_commits */
	char				 err[256];
};

static void
row_free(struct row *r)
{
	json_decref(r->body);
	free(r->id);
	free(r->slug);
	memset(r, 0, sizeof(*r));
}

static void
skip(struct import_run *x, long line, const char *id, const char *code,
    const char *msg)
{
	x->st->skipped++;
	if (x->o->skipped != NULL)
		x->o->skipped(line, id ? id : "", code, msg, x->o->arg);
}

void
import_refuse(struct import_run *x, long line, const char *id,
    const char *code, const char *msg)
{
	x->st->rows++;
	skip(x, line, id, code, msg);
}

void
import_fail(struct import_run *x, int how, const char *fmt, ...)
{
	va_list	 ap;

	if (x->failed)
		return;		/* the first reason stands */
	x->failed = how;
	va_start(ap, fmt);
	vsnprintf(x->err, sizeof(x->err), fmt, ap);
	va_end(ap);
}

int
import_failed(const struct import_run *x)
{
	return x->failed;
}

/* A slug lz takes of s: [A-Za-z0-9_-], others as '-', at most SLUG_MAX;
 * NULL when nothing is left. */
static char *
slug_of(const char *s)
{
	char	*out = xstrdup(s), *p;

	for (p = out; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			*p = '-';
	if (strlen(out) > SLUG_MAX)
		out[SLUG_MAX] = '\0';
	if (*out == '\0' || strspn(out, "-") == strlen(out)) {
		free(out);
		return NULL;
	}
	return out;
}

static void flush(struct import_run *);

struct import_run *
import_begin(struct lz_db *db, const struct lz_conf *conf,
    const char *source, const struct import_opts *o,
    struct import_stats *st)
{
	struct import_run	*x = xcalloc(1, sizeof(*x));

	memset(st, 0, sizeof(*st));
	x->db = db;
	x->conf = conf;
	x->source = source;
	x->o = o;
	x->st = st;
	x->rows = xcalloc(IMPORT_BATCH, sizeof(*x->rows));
	/* The batches' commits not waited for, each: all of them once,
	 * at import_end (store_lazy_commits). */
	x->lazy = !o->dry && store_lazy_commits(db, 1) == 0;
	return x;
}

void
import_add(struct import_run *x, struct import_item *it)
{
	struct row	*w;

	/* Room in the batch: a full one of renamed rows goes first. */
	while (x->n == IMPORT_BATCH && !x->failed)
		flush(x);
	x->st->rows++;
	if (x->failed) {
		json_decref(it->body);
		it->body = NULL;
		return;
	}
	w = &x->rows[x->n++];
	memset(w, 0, sizeof(*w));
	w->line = it->line;
	w->body = it->body;
	it->body = NULL;
	w->id = xstrdup(it->id);
	w->created_at = it->created_at;
	w->total_clicks = it->total_clicks;
	w->history = it->history;
	/* A slug lz would refuse, with rename: the nearest one it takes
	 * (then -2, -3, ... when that is taken too). */
	if (it->slug != NULL && !slug_valid(it->slug) && x->o->rename) {
		w->slug = slug_of(it->slug);
		w->tries = 1;		/* renamed already */
	} else if (it->slug != NULL)
		w->slug = xstrdup(it->slug);
	if (w->slug != NULL)
		json_object_set_new(w->body, "slug", json_string(w->slug));
	else if (it->slug != NULL)
		json_object_del(w->body, "slug");	/* nothing left: random */
	if (x->n == IMPORT_BATCH)
		flush(x);
}

/* A row refused for its slug (taken, reserved, not a slug), tried again
 * under another one with rename: its own with -2, -3, ..., then a random
 * one.  1, or 0 when it is not to be. */
static int
renamed(struct import_run *x, struct row *w, const struct lz_verr *e)
{
	char	*s;

	if (!x->o->rename || strcmp(e->param, "slug") != 0)
		return 0;
	if (w->slug != NULL && strcmp(e->code, "slug_taken") == 0 &&
	    w->tries < RENAME_TRIES) {
		w->tries++;
		s = xasprintf("%.*s-%d", SLUG_MAX - 4, w->slug, w->tries + 1);
		json_object_set_new(w->body, "slug", json_string(s));
		free(s);
		return 1;
	}
	if (json_object_get(w->body, "slug") == NULL)
		return 0;		/* a random one was refused: give up */
	json_object_del(w->body, "slug");
	w->tries = RENAME_TRIES + 1;
	return 1;
}

/* The batch written; rows refused for their slug go again. */
static void
flush(struct import_run *x)
{
	const json_t		**bodies;
	struct link_origin	*from;
	struct link		*ls;
	struct lz_verr		*es;
	size_t			 i, again = 0;

	if (x->n == 0 || x->failed)
		return;
	bodies = xcalloc(x->n, sizeof(*bodies));
	from = xcalloc(x->n, sizeof(*from));
	ls = xcalloc(x->n, sizeof(*ls));
	es = xcalloc(x->n, sizeof(*es));
	for (i = 0; i < x->n; i++) {
		bodies[i] = x->rows[i].body;
		from[i] = (struct link_origin){ x->source, x->rows[i].id,
		    x->rows[i].created_at, x->rows[i].total_clicks,
		    x->rows[i].history };
	}
	if (linkops_import(x->db, x->conf, bodies, from, x->n,
	    x->o->account_id, x->o->plan, lz_now_ms(), x->o->dry, ls,
	    es) == -1) {
		if (x->rows[0].line > 0)
			import_fail(x, -1, "the links could not be written "
			    "(lines %ld to %ld): nothing of them was kept",
			    x->rows[0].line, x->rows[x->n - 1].line);
		else
			import_fail(x, -1, "the links could not be written "
			    "(%s to %s): nothing of them was kept",
			    x->rows[0].id, x->rows[x->n - 1].id);
		goto out;
	}
	for (i = 0; i < x->n; i++) {
		struct row	*w = &x->rows[i];

		if (es[i].status == 0) {
			x->st->imported++;
			if (w->tries > 0) {
				x->st->renamed++;
				if (x->o->renamed != NULL)
					x->o->renamed(w->line, w->id,
					    ls[i].slug, x->o->arg);
			}
			link_free(&ls[i]);
			row_free(w);
		} else if (strcmp(es[i].code, "already_imported") == 0) {
			x->st->already++;
			row_free(w);
		} else if (renamed(x, w, &es[i])) {
			if (again != i)
				x->rows[again] = *w;
			again++;
			continue;
		} else {
			char	 msg[400];

			snprintf(msg, sizeof(msg), "%s%s%s", es[i].msg,
			    es[i].param[0] ? " (" : "", es[i].param[0] ?
			    es[i].param : "");
			if (es[i].param[0])
				strncat(msg, ")", sizeof(msg) - strlen(msg) -
				    1);
			skip(x, w->line, w->id, es[i].code, msg);
			row_free(w);
		}
	}
out:
	if (x->failed)
		for (i = 0; i < x->n; i++)
			row_free(&x->rows[i]);
	x->n = x->failed ? 0 : again;
	free(bodies);
	free(from);
	free(ls);
	free(es);
	if (x->o->progress != NULL)
		x->o->progress("import", (uint64_t)x->st->rows, 0);
}

void
import_drain(struct import_run *x)
{
	size_t	 n;
	int	 tries;

	/* The last rows, and those renamed, until none is left. */
	for (tries = 0; x->n > 0 && !x->failed && tries <= RENAME_TRIES + 2;
	    tries++)
		flush(x);
	for (n = 0; n < x->n; n++) {
		/* Stopped: neither written nor refused. */
		if (!x->failed)
			skip(x, x->rows[n].line, x->rows[n].id, "slug_taken",
			    "No free slug was found for it.");
		row_free(&x->rows[n]);
	}
	x->n = 0;
}

int
import_end(struct import_run *x)
{
	int	 failed;

	import_drain(x);
	if (x->lazy && store_lazy_commits(x->db, 0) == -1)
		import_fail(x, -1, "what was imported could not be confirmed "
		    "written to disk: run the import again");
	if (x->failed && x->o->skipped != NULL)
		x->o->skipped(0, "", "failed", x->err, x->o->arg);
	failed = x->failed;
	free(x->rows);
	free(x);
	return failed;
}
