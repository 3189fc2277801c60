/*
 * api_qr.c -- GET /api/v1/links/<id>/qr (DESIGN 3.9): the short URL, or
 * short_url/suffix, as a QR code (qr.h), SVG or PNG.
 */
#include "config.h"

#include <stdlib.h>

#include "api.h"
#include "conf.h"
#include "ctx.h"
#include "link/link.h"
#include "link/qr.h"
#include "log.h"
#include "query.h"
#include "resp.h"
#include "serve.h"
#include "util.h"

/* The image of a link stays what it is as long as its slug: a day. */
#define QR_CACHE	"private, max-age=86400"

void
api_links_qr(struct lz_req *r)
{
	enum { P_FORMAT, P_SIZE, P_MARGIN, P_ECC, P_SUFFIX, P__MAX };
	static const char *const formats[] = { "svg", "png", NULL };
	static const char *const eccs[] = { "L", "M", "Q", "H", NULL };
	static const struct lz_param params[P__MAX] = {
		[P_FORMAT] =	{ "format", LZ_PT_ENUM, 0, 0, QR_SVG,
				  formats, 0 },
		[P_SIZE] =	{ "size", LZ_PT_INT, QR_SIZE_MIN, QR_SIZE_MAX,
				  QR_SIZE_DEFAULT, NULL, 0 },
		[P_MARGIN] =	{ "margin", LZ_PT_INT, 0, QR_MARGIN_MAX,
				  QR_MARGIN_DEFAULT, NULL, 0 },
		[P_ECC] =	{ "ecc", LZ_PT_ENUM, 0, 0, QR_ECC_M, eccs, 0 },
		[P_SUFFIX] =	{ "suffix", LZ_PT_STR, 1, SUFFIX_MAX, 0, NULL,
				  0 },
	};
	struct lz_pval		 v[P__MAX];
	struct qr_opts		 o;
	struct link		 l;
	int64_t			 id;
	char			*url, *img;
	size_t			 len;
	int			 px;

	if (api_path_id(r, "link", &id) == -1 ||
	    lz_req_params(r, params, P__MAX, v) == -1)
		return;
	if (v[P_SUFFIX].set && !suffix_valid(v[P_SUFFIX].s)) {
		lz_resp_error(r, 400, "invalid_parameter", "suffix", "'suffix' "
		    "must be 1 to %d characters of A-Z, a-z, 0-9, '_', '.' "
		    "and '-'.", SUFFIX_MAX);
		return;
	}
	if (api_links_load(r, id, &l) == -1)
		return;
	o.format = (enum qr_format)v[P_FORMAT].i;
	o.size = (int)v[P_SIZE].i;
	o.margin = (int)v[P_MARGIN].i;
	o.ecc = (enum qr_ecc)v[P_ECC].i;
	url = link_short_url(links.conf->base_url, &l, v[P_SUFFIX].set ?
	    v[P_SUFFIX].s : NULL);
	if (qr_render(url, &o, &img, &len, &px) == -1) {
		lz_log(LZ_LOG_ERR, "rid=%s: no QR code of %s", r->request_id,
		    url);
		lz_resp_error(r, 500, "internal_error", NULL, "The QR code "
		    "could not be made.");
	} else {
		/* Opened on its own, the SVG loads and runs nothing. */
		if (!lz_resp_has_header(r, "Content-Security-Policy")) {
			lz_resp_header(r, "Content-Security-Policy",
			    "default-src 'none'");
			lz_resp_header(r, "X-Content-Type-Options", "nosniff");
		}
		lz_resp_header(r, "Content-Disposition", "inline; "
		    "filename=\"%s%s%s.%s\"", l.slug, v[P_SUFFIX].set ? "-" :
		    "", v[P_SUFFIX].set ? v[P_SUFFIX].s : "",
		    formats[o.format]);
		lz_resp_cached(r, o.format == QR_SVG ? "image/svg+xml" :
		    "image/png", img, len, QR_CACHE);
		free(img);
	}
	free(url);
	link_free(&l);
}
