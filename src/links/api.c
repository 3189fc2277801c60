/*
 * api.c -- what the link service's handlers answer with (api.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "api.h"
#include "lztime.h"
#include "query.h"
#include "resp.h"
#include "util.h"

/* A cursor: the base64url form of "V0" or "V0.V1", the last item shown
 * (values 1 and up); null when no page follows. */
static json_t *
next_cursor(int more, const int64_t *v, size_t n)
{
	char	 text[48], out[API_CURSOR_MAX + 1];

	if (!more)
		return json_null();
	if (n == 1)
		snprintf(text, sizeof(text), "%lld", (long long)v[0]);
	else
		snprintf(text, sizeof(text), "%lld.%lld", (long long)v[0],
		    (long long)v[1]);
	sodium_bin2base64(out, sizeof(out), (const unsigned char *)text,
	    strlen(text), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	return json_string(out);
}

void
api_page(struct lz_req *r, long rc, const char *key, json_t *items,
    int more, const int64_t *last, size_t n, json_t *extra)
{
	if (rc < 0) {
		json_decref(items);
		json_decref(extra);
		lz_resp_error(r, 500, "internal_error", NULL, "The %s could "
		    "not be read.", key);
		return;
	}
	if (extra == NULL)
		extra = json_object();
	json_object_set_new(extra, "ok", json_true());
	json_object_set_new(extra, key, items);
	json_object_set_new(extra, "next_cursor", next_cursor(more, last, n));
	lz_resp_json(r, 200, extra);
}

int
api_cursor_decode(struct lz_req *r, const char *s, int64_t *v, size_t n)
{
	unsigned char	 text[48];
	char		*part[2], *dot;
	size_t		 len, i;
	long long	 x;

	if (strlen(s) > API_CURSOR_MAX || sodium_base642bin(text,
	    sizeof(text) - 1, s, strlen(s), NULL, &len, NULL,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0)
		goto bad;
	text[len] = '\0';
	part[0] = (char *)text;
	dot = strchr(part[0], '.');
	if ((dot != NULL) != (n == 2))
		goto bad;
	if (dot != NULL) {
		*dot = '\0';
		part[1] = dot + 1;
	}
	for (i = 0; i < n; i++) {
		if (lz_parse_ll(part[i], 1, INT64_MAX, &x) == -1)
			goto bad;
		v[i] = x;
	}
	return 0;
bad:
	lz_resp_error(r, 400, "invalid_parameter", "cursor", "'cursor' is not "
	    "a cursor this API returned.");
	return -1;
}

int
api_path_id(struct lz_req *r, const char *what, int64_t *id)
{
	long long	 v;

	if (r->nargs < 1 || lz_parse_ll(r->args[0], 1, INT64_MAX, &v) == -1 ||
	    r->args[0][0] == '0') {
		lz_resp_error(r, 404, "not_found", "id", "There is no %s "
		    "with this id.", what);
		return -1;
	}
	*id = v;
	return 0;
}

int
api_done(struct lz_req *r, int rc, const char *failed, int status,
    const char *code, const char *msg)
{
	if (rc == -1)
		lz_resp_error(r, 500, "internal_error", NULL, "%s", failed);
	else if (rc == 0)
		lz_resp_error(r, status, code, "id", "%s", msg);
	return rc != -1 && rc != 0;
}

void
api_removed(struct lz_req *r, int rc, int64_t id, const char *done,
    const char *failed, const char *missing)
{
	if (api_done(r, rc, failed, 404, "not_found", missing))
		lz_resp_json(r, 200, json_pack("{s:b, s:I, s:b}", "ok", 1,
		    "id", (json_int_t)id, done, 1));
}

int
api_time_param(struct lz_req *r, const struct lz_pval *v, const char *name,
    int64_t *ms)
{
	char	 buf[32];
	int	 rc;

	if (!v->set)
		return 0;
	if (strlen(v->s) == 10 && v->s[4] == '-' && v->s[7] == '-') {
		snprintf(buf, sizeof(buf), "%sT00:00:00Z", v->s);
		rc = lz_time_parse_iso(buf, ms);
	} else
		rc = lz_time_parse_iso(v->s, ms);
	if (rc == -1)
		lz_resp_error(r, 400, "invalid_parameter", name, "'%s' must be "
		    "an ISO 8601 time with a time zone (2030-01-31T12:00:00Z) "
		    "or a date (2030-01-31).", name);
	return rc;
}
