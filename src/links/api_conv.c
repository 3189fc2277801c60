/*
 * api_conv.c -- /api/conv (spec 2.4, 4; DESIGN 3.7): conversion reports from
 * a visitor's browser.
 *
 *   GET  /api/conv?slug=&value=&currency=&suffix=   the pixel: always the
 *        same 43-byte transparent GIF, whatever happened; a report that
 *        is valid (conversion.h) and allowed is recorded, anything else
 *        is ignored and noted in the access log.  HEAD records nothing.
 *   POST /api/conv  {slug, value, currency, suffix}  JSON
 *        {ok, counted, reason}; 400 bad field, 404 unknown slug, 403
 *        plan_required.
 *   OPTIONS /api/conv  the CORS preflight.
 *
 * No credential (spec 5.5): CORS is open to every origin, without
 * cookies.  The visitor is the client address and User-Agent, as for
 * clicks, so reports come from the buyer's browser; bots and link
 * previewers are not counted.
 */
#include "config.h"

#include <string.h>

#include "api.h"
#include "conf.h"
#include "ctx.h"
#include "domain/domain.h"
#include "domain/host.h"
#include "domain/hostmap.h"
#include "link/link.h"
#include "log.h"
#include "lztime.h"
#include "query.h"
#include "ratelimit.h"
#include "resp.h"
#include "serve.h"
#include "stats/conversion.h"
#include "store/accounts.h"
#include "visit/linkcache.h"
#include "visit/ua.h"

/* A 1x1 GIF89a whose one pixel is colour 0, marked transparent. */
static const unsigned char pixel_gif[43] = {
	'G', 'I', 'F', '8', '9', 'a',
	0x01, 0x00, 0x01, 0x00,		/* 1 x 1 */
	0x80, 0x00, 0x00,		/* a global table of 2 colours */
	0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
	0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, /* transparent: 0 */
	0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
	0x02, 0x02, 0x44, 0x01, 0x00,	/* the pixel, LZW */
	0x3b
};

/* What became of a report, past its syntax. */
enum outcome {
	OUT_COUNTED = 0,
	OUT_DUPLICATE,
	OUT_LIMIT,
	OUT_BOT,
	OUT_NO_LINK,
	OUT_PLAN,
	OUT_RATE,
	OUT_ERROR
};

static const char *const outcome_notes[] = {
	[OUT_COUNTED] = "conv=counted",
	[OUT_DUPLICATE] = "conv=duplicate",
	[OUT_LIMIT] = "conv=revenue_limit",
	[OUT_BOT] = "conv=bot",
	[OUT_NO_LINK] = "conv=no_link",
	[OUT_PLAN] = "conv=plan_required",
	[OUT_RATE] = "conv=rate_limited",
	[OUT_ERROR] = "conv=error",
};

static void
cors(struct lz_req *r)
{
	lz_resp_header(r, "Access-Control-Allow-Origin", "*");
}

/*
 * The per-client limit on reports (conversion_rate_limit a minute, 0 off),
 * counted only for reports that parse.  *retry gets Retry-After.  A
 * limiter that cannot count refuses (lz_rl_take).
 */
static int
rate_ok(struct lz_req *r, int *retry)
{
	struct lz_rl_result	 res;
	unsigned char		 key[LZ_RL_KEYMAX];
	size_t			 klen;
	unsigned		 limit;

	limit = (unsigned)links.conf->conversion_rate_limit;
	if (limit == 0)
		return 1;
	klen = lz_rl_addr_key(r->remote_addr, 'c', key);
	(void)lz_rl_take(links.conv_rl, key, klen, limit, 60000,
	    lz_mono_us() / 1000, &res);
	*retry = res.retry_after;
	if (!res.allowed)
		ops_limited(OPS_LIMIT_CONVERSIONS);
	return res.allowed;
}

/*
 * The domain of the report's slug into *id: the one it names, else the
 * request's host when that is a short domain (the snippet on a page of
 * the brand's short host), else the default one.  1, 0 when the domain
 * it names is none, -1 on error.
 */
static int
conv_domain(struct lz_req *r, const struct conv_report *rep, int64_t *id)
{
	const struct domain	*d;
	char			 host[HOST_MAX + 1];
	int			 rc;

	*id = 0;
	if (rep->domain[0] != '\0') {
		if ((rc = hostmap_find(&links.db, links.conf, rep->domain,
		    r->now_ms, &d)) == 1)
			*id = d->id;
		return rc;
	}
	if (host_of_header(lz_req_param(r, "HTTP_HOST"), host,
	    sizeof(host)) == 0 && (rc = hostmap_find(&links.db, links.conf,
	    host, r->now_ms, &d)) != 0) {
		if (rc == -1)
			return -1;
		*id = d->id;
	}
	return 1;
}

/* Looks the link up, checks its plan and the visitor, then records. */
static enum outcome
take(struct lz_req *r, const struct conv_report *rep, int *retry)
{
	const struct link	*l;
	const struct lz_plan	*plan;
	struct account		 a;
	struct ua_info		 ua;
	int64_t			 domain;
	int			 rc;

	if (!rate_ok(r, retry))
		return OUT_RATE;
	if ((rc = conv_domain(r, rep, &domain)) != 1)
		return rc == 0 ? OUT_NO_LINK : OUT_ERROR;
	if ((rc = linkcache_get(&links.db, domain, rep->slug, r->now_ms,
	    &l)) == -1)
		return OUT_ERROR;
	if (rc == 0 || l->deleted_at != 0)
		return OUT_NO_LINK;
	if ((rc = store_account_get(&links.db, l->account_id, NULL, &a)) != 1)
		return rc == 0 ? OUT_NO_LINK : OUT_ERROR;
	if ((plan = lz_conf_plan(links.conf, a.plan)) == NULL)
		plan = lz_conf_plan(links.conf, links.conf->default_plan);
	if (plan == NULL || !plan->conversions)
		return OUT_PLAN;
	ua_parse(r->user_agent, &ua);
	if (ua.bot || ua.preview)
		return OUT_BOT;
	switch (conv_record(&links.db, l, rep, links.conf->default_currency,
	    r->remote_addr, r->user_agent, r->now_ms,
	    links.conf->conversion_dedup_window * 1000)) {
	case CONV_COUNTED:
		return OUT_COUNTED;
	case CONV_DUPLICATE:
		return OUT_DUPLICATE;
	case CONV_LIMIT:
		return OUT_LIMIT;
	case CONV_ERROR:
		break;
	}
	return OUT_ERROR;
}

void
conv_pixel(struct lz_req *r)
{
	struct lz_query		 q;
	struct lz_verr		 e;
	struct conv_report	 rep;
	enum outcome		 o;
	int			 retry;

	memset(&q, 0, sizeof(q));
	if (r->meth == LZ_M_HEAD)
		r->log_note = "conv=head";
	else if (lz_query_parse(r->query, &q, &e) == -1 ||
	    conv_report_query(&q, &rep, &e) == -1)
		r->log_note = "conv=invalid";
	else {
		o = take(r, &rep, &retry);
		r->log_note = outcome_notes[o];
		if (o == OUT_ERROR)
			lz_log(LZ_LOG_ERR, "rid=%s: a conversion of '%s' could "
			    "not be recorded", r->request_id, rep.slug);
	}
	lz_query_free(&q);
	cors(r);
	lz_resp_header(r, "Cache-Control", "no-store");
	/* Thank-you pages of sites that isolate themselves (COEP) may
	 * still load it. */
	lz_resp_header(r, "Cross-Origin-Resource-Policy", "cross-origin");
	lz_resp_send(r, 200, "image/gif", pixel_gif, sizeof(pixel_gif));
}

void
conv_post(struct lz_req *r)
{
	struct lz_verr		 e;
	struct conv_report	 rep;
	enum outcome		 o;
	json_t			*body;
	const char		*reason;
	int			 retry = 1;

	cors(r);
	lz_resp_header(r, "Cache-Control", "no-store");
	if ((body = lz_req_json(r)) == NULL)
		return;
	if (conv_report_json(body, r->body, r->bodylen, &rep, &e) == -1) {
		json_decref(body);
		lz_resp_verr(r, &e);
		return;
	}
	json_decref(body);
	o = take(r, &rep, &retry);
	r->log_note = outcome_notes[o];
	switch (o) {
	case OUT_RATE:
		lz_resp_header(r, "Retry-After", "%d", retry);
		lz_resp_error(r, 429, "rate_limited", NULL, "Too many "
		    "conversion reports from this address; at most %lld a "
		    "minute.", links.conf->conversion_rate_limit);
		return;
	case OUT_NO_LINK:
		lz_resp_error(r, 404, "not_found", "slug", "There is no link "
		    "with this slug.");
		return;
	case OUT_PLAN:
		lz_resp_error(r, 403, "plan_required", NULL, "Conversion "
		    "reports are a paid-plan feature; the plan of this link's "
		    "account does not include them.");
		return;
	case OUT_ERROR:
		lz_resp_header(r, "Retry-After", "1");
		lz_resp_error(r, 503, "unavailable", NULL, "The conversion "
		    "could not be recorded; try again.");
		return;
	case OUT_COUNTED:
		reason = NULL;
		break;
	case OUT_DUPLICATE:
		reason = conv_result_reason(CONV_DUPLICATE);
		break;
	case OUT_LIMIT:
		reason = conv_result_reason(CONV_LIMIT);
		break;
	case OUT_BOT:
	default:
		reason = "bot";
		break;
	}
	lz_resp_json(r, 200, json_pack("{s:b, s:b, s:s?}", "ok", 1,
	    "counted", o == OUT_COUNTED, "reason", reason));
}

void
conv_preflight(struct lz_req *r)
{
	cors(r);
	lz_resp_header(r, "Access-Control-Allow-Methods", "GET, POST");
	lz_resp_header(r, "Access-Control-Allow-Headers", "Content-Type");
	lz_resp_header(r, "Access-Control-Max-Age", "86400");
	lz_resp_header(r, "Allow", "GET, HEAD, POST, OPTIONS");
	lz_resp_empty(r, 204);
}
