/*
 * api_import.c -- POST /dashboard/api/import: a CSV file moved in from
 * the dashboard's Import page, with the engine of lzctl import csv
 * (import/import.h): ?dry_run=1 first (what would happen: the page's
 * preview), then for real.  The body is the file, text/csv, at most
 * LZ_BODY_BULK_MAX (1 MiB: some ten thousand rows); the page sends a
 * bigger file in pieces of whole records, the header before each
 * (import.js), and shows how far it got.  The request counts as one
 * call of the quota; every link is held to the account's link cap and
 * every rule of a create.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "api.h"
#include "conf.h"
#include "ctx.h"
#include "import/import.h"
#include "query.h"
#include "req.h"
#include "resp.h"
#include "serve.h"

#define IMPORT_SHOWN	100	/* skipped rows in the answer */

struct seen {
	json_t	*skips;		/* the first IMPORT_SHOWN */
	char	 failed[256];	/* why the import stopped */
};

static void
skipped(long line, const char *id, const char *code, const char *msg,
    void *arg)
{
	struct seen	*s = arg;
	json_t		*j;

	if (strcmp(code, "failed") == 0) {
		snprintf(s->failed, sizeof(s->failed), "%s", msg);
		return;
	}
	if (json_array_size(s->skips) >= IMPORT_SHOWN)
		return;
	if ((j = json_pack("{s:I, s:s, s:s, s:s}", "line", (json_int_t)line,
	    "id", id, "error", code, "message", msg)) != NULL)
		json_array_append_new(s->skips, j);
}

void
api_import_csv(struct lz_req *r)
{
	enum { P_DRY, P_CONFLICT, P_DOMAIN, P__MAX };
	static const char *const conflicts[] = { "skip", "rename", NULL };
	static const struct lz_param params[P__MAX] = {
		[P_DRY] =	{ "dry_run", LZ_PT_INT, 0, 1, 0, NULL, 0 },
		[P_CONFLICT] =	{ "on_conflict", LZ_PT_ENUM, 0, 0, 0,
				  conflicts, 0 },
		[P_DOMAIN] =	{ "domain", LZ_PT_STR, 1, 254, 0, NULL, 0 },
	};
	struct auth_caller	*who = API_WHO(r);
	struct import_opts	 o;
	struct import_stats	 st;
	struct lz_pval		 v[P__MAX];
	struct seen		 seen;
	FILE			*in;
	int			 rc;

	if (lz_req_params(r, params, P__MAX, v) == -1)
		return;
	if (strncasecmp(r->content_type, "text/csv", 8) != 0 ||
	    (r->content_type[8] != '\0' && r->content_type[8] != ';')) {
		lz_resp_error(r, 415, "unsupported_media_type", NULL, "Send "
		    "the file as text/csv.");
		return;
	}
	lz_req_body_max(r, LZ_BODY_BULK_MAX);
	if (lz_req_body(r) == -1)
		return;
	if (r->bodylen == 0 || (in = fmemopen(r->body, r->bodylen, "r")) ==
	    NULL) {
		lz_resp_error(r, 400, "invalid_field", "file", "The file is "
		    "empty.");
		return;
	}
	memset(&o, 0, sizeof(o));
	o.account_id = who->account_id;
	o.plan = who->plan;
	o.domain = v[P_DOMAIN].set ? v[P_DOMAIN].s : NULL;
	o.rename = v[P_CONFLICT].i == 1;
	o.dry = v[P_DRY].i == 1;
	seen.skips = json_array();
	seen.failed[0] = '\0';
	o.skipped = skipped;
	o.arg = &seen;
	rc = import_csv(&links.db, links.conf, in, &o, &st);
	fclose(in);
	if (rc < 0) {
		json_decref(seen.skips);
		if (rc == -1)
			lz_resp_error(r, 500, "internal_error", NULL, "The links "
			    "could not be stored (%s).", seen.failed);
		else
			lz_resp_error(r, 400, "invalid_field", "file", "The file "
			    "cannot be imported: %s.", seen.failed);
		return;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:b, s:I, s:I, s:I, s:I, s:I, "
	    "s:o}", "ok", 1, "dry_run", o.dry, "rows", (json_int_t)st.rows,
	    "imported", (json_int_t)st.imported, "renamed",
	    (json_int_t)st.renamed, "already_imported", (json_int_t)st.already,
	    "skipped", (json_int_t)st.skipped, "skipped_rows", seen.skips));
}
