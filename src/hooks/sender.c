/*
 * sender.c -- sending deliveries with libcurl's multi interface.
 */
#include "config.h"

#include <sys/socket.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <sodium.h>

#include "addr.h"
#include "log.h"
#include "lztime.h"
#include "outbox.h"
#include "rnd.h"
#include "sender.h"
#include "util.h"
#include "webhook/guard.h"
#include "webhook/sign.h"
#include "webhook/webhook.h"

#define LEASE_NAME_LEN	16
#define ERROR_LEN	256

/* One slot: a transfer in flight, or free (it == NULL). */
struct xfer {
	struct outbox_item	*it;
	CURL			*h;
	struct curl_slist	*hdrs;
	int			 plain_http;
	int			 allow_loopback;
	char			 refused[192];	/* by the SSRF guard */
	char			 errbuf[CURL_ERROR_SIZE];
	int64_t			 at;		/* start, wall clock ms */
	int64_t			 t0;		/* start, monotonic us */
};

struct run {
	struct lz_db		 *db;
	const unsigned char	 *key;
	const struct sender_opts *o;
	CURLM			 *multi;
	struct xfer		 *x;
	int			  busy;
	int			  per_hook;
	char			  lease[LEASE_NAME_LEN + 1];
	/* results of this round, recorded together */
	struct outbox_result	 *res;
	char			(*err)[ERROR_LEN];
	size_t			  nres;
};

/*
 * libcurl asks for a socket for every address it is about to connect to:
 * this is where the SSRF guard stands, after resolution and before any
 * packet leaves.
 */
static curl_socket_t
open_socket(void *arg, curlsocktype purpose, struct curl_sockaddr *sa)
{
	struct xfer	*x = arg;
	struct lz_addr	 a;
	char		 why[160];

	if (purpose != CURLSOCKTYPE_IPCXN ||
	    lz_addr_from_sockaddr(&sa->addr, &a) == -1) {
		snprintf(x->refused, sizeof(x->refused), "refused: not an IP "
		    "connection");
		return CURL_SOCKET_BAD;
	}
	if (!webhook_addr_allowed(&a, x->allow_loopback, x->plain_http, why,
	    sizeof(why))) {
		snprintf(x->refused, sizeof(x->refused), "refused: %s", why);
		return CURL_SOCKET_BAD;
	}
	return socket(sa->family, sa->socktype | SOCK_CLOEXEC, sa->protocol);
}

/* Ends the transfer in slot x with a result to record. */
static void
complete(struct run *r, struct xfer *x, int status, const char *error)
{
	struct outbox_item	*it = x->it;
	struct outbox_result	*res = &r->res[r->nres];

	memset(res, 0, sizeof(*res));
	res->delivery_id = it->d.id;
	res->webhook_id = it->d.webhook_id;
	res->attempts = it->d.attempts;
	res->status = status;
	res->at = x->at;
	res->duration_ms = (lz_mono_us() - x->t0) / 1000;
	if (error != NULL) {
		snprintf(r->err[r->nres], ERROR_LEN, "%s", error);
		res->error = r->err[r->nres];
		/* Not the URL: receivers put tokens in query strings. */
		lz_log(LZ_LOG_INFO, "%s (%s, webhook %lld, attempt %d): %s",
		    it->d.uuid, it->d.event, (long long)it->w.id,
		    it->d.attempts + 1, error);
	} else
		lz_log(LZ_LOG_DEBUG, "%s (%s, webhook %lld) delivered: %d",
		    it->d.uuid, it->d.event, (long long)it->w.id, status);
	r->nres++;
	curl_slist_free_all(x->hdrs);
	x->hdrs = NULL;
	outbox_item_free(it);
	x->it = NULL;
	r->busy--;
}

static void
add_header(struct xfer *x, const char *name, const char *value)
{
	char	*line;

	line = xasprintf("%s: %s", name, value);
	x->hdrs = curl_slist_append(x->hdrs, line);
	free(line);
}

/* Starts sending it in slot x. */
static void
start(struct run *r, struct xfer *x, struct outbox_item *it)
{
	const struct sender_opts	*o = r->o;
	char				 secret[WEBHOOK_SECRET_LEN + 1];
	char				 sig[WEBHOOK_SIG_LEN + 1];
	CURL				*h = x->h;

	x->it = it;
	x->refused[0] = x->errbuf[0] = '\0';
	x->at = lz_now_ms();
	x->t0 = lz_mono_us();
	x->plain_http = strncasecmp(it->w.url, "http://", 7) == 0;
	x->allow_loopback = o->allow_loopback;
	r->busy++;

	if (webhook_secret_open(r->key, it->w.box, secret) == -1) {
		complete(r, x, 0, "cannot decrypt the signing secret (was the "
		    "key file replaced?)");
		return;
	}
	webhook_sign(secret, it->d.body, it->d.bodylen, sig);
	sodium_memzero(secret, sizeof(secret));

	add_header(x, "Content-Type", "application/json");
	add_header(x, "X-Lz-Event", it->d.event);
	add_header(x, "X-Lz-Signature", sig);
	add_header(x, "X-Lz-Delivery", it->d.uuid);
	x->hdrs = curl_slist_append(x->hdrs, "Expect:");

	curl_easy_reset(h);
	curl_easy_setopt(h, CURLOPT_URL, it->w.url);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, it->d.body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE,
	    (curl_off_t)it->d.bodylen);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, x->hdrs);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "lz-hooks/" PACKAGE_VERSION);
	/* HTTP/1.1 with kept-alive connections: what every receiver speaks.
	 * Over HTTP/2, a receiver that answers before reading the body
	 * (nginx's "return 204") resets the stream and libcurl reports an
	 * error after a good answer. */
	curl_easy_setopt(h, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR,
	    o->allow_loopback ? "http,https" : "https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_PROXY, "");
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, o->timeout_s * 1000L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	if (o->ca_file != NULL && o->ca_file[0] != '\0')
		curl_easy_setopt(h, CURLOPT_CAINFO, o->ca_file);
	curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, x);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, lz_discard);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, x->errbuf);
	curl_easy_setopt(h, CURLOPT_PRIVATE, x);
	if (curl_multi_add_handle(r->multi, h) != CURLM_OK)
		complete(r, x, 0, "libcurl refused the transfer");
}

/* A transfer libcurl has finished. */
static void
finished(struct run *r, CURL *h, CURLcode cc)
{
	struct xfer	*x = NULL;
	long		 code = 0;
	char		 msg[ERROR_LEN];

	curl_easy_getinfo(h, CURLINFO_PRIVATE, (char **)&x);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &code);
	curl_multi_remove_handle(r->multi, h);
	if (cc == CURLE_OK && code >= 200 && code <= 299) {
		complete(r, x, (int)code, NULL);
		return;
	}
	if (cc == CURLE_OK)
		snprintf(msg, sizeof(msg), "HTTP %ld%s", code,
		    code >= 300 && code <= 399 ? " (redirects are not "
		    "followed)" : "");
	else if (x->refused[0] != '\0')
		snprintf(msg, sizeof(msg), "%s", x->refused);
	else if (cc == CURLE_OPERATION_TIMEDOUT)
		snprintf(msg, sizeof(msg), "timed out after %ld s",
		    r->o->timeout_s);
	else
		snprintf(msg, sizeof(msg), "%s", x->errbuf[0] ? x->errbuf :
		    curl_easy_strerror(cc));
	complete(r, x, (int)code, msg);
}

/* How many more deliveries of a subscription may go out now. */
static int
room(int64_t webhook_id, void *arg)
{
	struct run	*r = arg;
	int		 i, n = 0;

	for (i = 0; i < r->o->parallel; i++)
		if (r->x[i].it != NULL && r->x[i].it->d.webhook_id ==
		    webhook_id)
			n++;
	return r->per_hook - n;
}

static void
take(struct outbox_item *it, void *arg)
{
	struct run	*r = arg;
	int		 i;

	for (i = 0; i < r->o->parallel; i++)
		if (r->x[i].it == NULL) {
			start(r, &r->x[i], it);
			return;
		}
	/* outbox_claim never hands out more than the free slots. */
	abort();
}

int
sender_run(struct lz_db *db, const unsigned char key[WEBHOOK_KEY_BYTES],
    const struct sender_opts *o, volatile sig_atomic_t *stop,
    struct outbox_stats *st)
{
	struct outbox_claim	 cl;
	struct run		 r;
	CURLMsg			*m;
	int64_t			 t0 = lz_mono_us(), now, lease_ms;
	size_t			 nres;
	int			 i, running, left, stopping = 0, rc = 0;

	memset(&r, 0, sizeof(r));
	r.db = db;
	r.key = key;
	r.o = o;
	r.per_hook = o->parallel / 4 > 0 ? o->parallel / 4 : 1;
	lz_rnd_base62(r.lease, LEASE_NAME_LEN);
	/* A transfer ends within the time-out; the lease outlasts it. */
	lease_ms = 2 * o->timeout_s * 1000;
	if ((r.multi = curl_multi_init()) == NULL)
		return -1;
	r.x = xcalloc((size_t)o->parallel, sizeof(*r.x));
	r.res = xcalloc((size_t)o->parallel, sizeof(*r.res));
	r.err = xcalloc((size_t)o->parallel, sizeof(*r.err));
	for (i = 0; i < o->parallel; i++)
		if ((r.x[i].h = curl_easy_init()) == NULL)
			abort();

	memset(&cl, 0, sizeof(cl));
	cl.lease = r.lease;
	cl.per_hook = r.per_hook;
	cl.room = room;
	cl.take = take;
	cl.arg = &r;
	for (;;) {
		if (!stopping && (*stop || lz_mono_us() - t0 >
		    o->claim_ms * 1000))
			stopping = 1;
		/* Record what finished and claim what fits, in one
		 * transaction.  The results array is refilled from here on
		 * (take() may fail a start at once), so hand over its count
		 * first. */
		nres = r.nres;
		r.nres = 0;
		now = lz_now_ms();
		cl.until = now + lease_ms;
		cl.max = stopping ? 0 : o->parallel - r.busy;
		cl.busy = r.busy;
		if ((nres > 0 || cl.max > 0) && outbox_record_claim(db, r.res,
		    nres, st, &cl, now) == -1) {
			lz_log(LZ_LOG_ERR, "cannot record %zu results or claim "
			    "deliveries; what was in flight is sent again when "
			    "its lease ends", nres);
			stopping = 1;
			rc = -1;
		}
		if (r.busy == 0 && r.nres == 0)
			break;
		curl_multi_perform(r.multi, &running);
		while ((m = curl_multi_info_read(r.multi, &left)) != NULL)
			if (m->msg == CURLMSG_DONE)
				finished(&r, m->easy_handle, m->data.result);
		if (r.nres == 0)
			curl_multi_poll(r.multi, NULL, 0, 1000, NULL);
	}

	for (i = 0; i < o->parallel; i++)
		curl_easy_cleanup(r.x[i].h);
	curl_multi_cleanup(r.multi);
	free(r.x);
	free(r.res);
	free(r.err);
	return rc;
}
