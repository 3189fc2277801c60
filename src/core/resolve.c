/*
 * resolve.c -- name resolution with a deadline, by c-ares (resolve.h).
 */
#include "config.h"

#include <sys/socket.h>

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ares.h>

#include "addr.h"
#include "log.h"
#include "lztime.h"
#include "pool.h"
#include "resolve.h"
#include "util.h"

/* One try at each server; the caller's deadline ends it all anyway. */
#define TRY_MS	1000
#define TRIES	2

static ares_channel	 chan;
static int		 ready;

int
lz_resolve_init(const char *servers, char *err, size_t errlen)
{
	struct ares_options	 o;
	int			 rc;

	lz_resolve_fini();
	if ((rc = ares_library_init(ARES_LIB_INIT_ALL)) != ARES_SUCCESS) {
		snprintf(err, errlen, "c-ares: %s", ares_strerror(rc));
		return -1;
	}
	memset(&o, 0, sizeof(o));
	o.timeout = TRY_MS;
	o.tries = TRIES;
	if ((rc = ares_init_options(&chan, &o, ARES_OPT_TIMEOUTMS |
	    ARES_OPT_TRIES)) != ARES_SUCCESS) {
		snprintf(err, errlen, "c-ares: %s", ares_strerror(rc));
		ares_library_cleanup();
		return -1;
	}
	if (servers != NULL && *servers != '\0' &&
	    (rc = ares_set_servers_ports_csv(chan, servers)) != ARES_SUCCESS) {
		snprintf(err, errlen, "name servers '%s': %s", servers,
		    ares_strerror(rc));
		ares_destroy(chan);
		ares_library_cleanup();
		return -1;
	}
	ready = 1;
	return 0;
}

void
lz_resolve_fini(void)
{
	if (!ready)
		return;
	ares_destroy(chan);
	ares_library_cleanup();
	ready = 0;
}

struct query {
	int		 done;
	int		 status;	/* ARES_* */
	struct lz_addr	*addrs;
	size_t		 n;
};

static void
answered(void *arg, int status, int timeouts, struct ares_addrinfo *res)
{
	struct query			*q = arg;
	struct ares_addrinfo_node	*ai;
	size_t				 n = 0;

	(void)timeouts;
	q->done = 1;
	q->status = status;
	if (status == ARES_SUCCESS && res != NULL) {
		for (ai = res->nodes; ai != NULL; ai = ai->ai_next)
			n++;
		q->addrs = xcalloc(n ? n : 1, sizeof(*q->addrs));
		for (ai = res->nodes; ai != NULL; ai = ai->ai_next)
			if (lz_addr_from_sockaddr(ai->ai_addr,
			    &q->addrs[q->n]) == 0)
				q->n++;
	}
	if (res != NULL)
		ares_freeaddrinfo(res);
}

/* Runs the channel until *done (the query's callback sets it) or the
 * deadline (monotonic us). */
static void
wait_answer(const int *done, int64_t deadline)
{
	ares_socket_t	 socks[ARES_GETSOCK_MAXNUM];
	struct pollfd	 pfd[ARES_GETSOCK_MAXNUM];
	struct timeval	 maxtv, tv, *tvp;
	int64_t		 left;
	unsigned	 bits, rd, wr;
	int		 i, np, ms;

	while (!*done) {
		if ((left = deadline - lz_mono_us()) <= 0) {
			ares_cancel(chan);	/* answers ARES_ECANCELLED */
			break;
		}
		/* ARES_GETSOCK_WRITABLE shifts a signed 1 into the sign
		 * bit: read the bits unsigned. */
		bits = (unsigned)ares_getsock(chan, socks,
		    ARES_GETSOCK_MAXNUM);
		for (np = 0, i = 0; i < ARES_GETSOCK_MAXNUM; i++) {
			rd = bits & (1u << i);
			wr = bits & (1u << (i + ARES_GETSOCK_MAXNUM));
			if (!rd && !wr)
				continue;
			pfd[np].fd = socks[i];
			pfd[np].events = (rd ? POLLIN : 0) | (wr ? POLLOUT : 0);
			pfd[np].revents = 0;
			np++;
		}
		maxtv.tv_sec = left / 1000000;
		maxtv.tv_usec = left % 1000000;
		tvp = ares_timeout(chan, &maxtv, &tv);
		ms = (int)(tvp->tv_sec * 1000 + (tvp->tv_usec + 999) / 1000);
		if (poll(pfd, (nfds_t)np, ms) == -1 && errno != EINTR) {
			ares_cancel(chan);
			break;
		}
		for (i = 0; i < np; i++)
			ares_process_fd(chan, pfd[i].revents & (POLLIN |
			    POLLERR | POLLHUP) ? pfd[i].fd : ARES_SOCKET_BAD,
			    pfd[i].revents & POLLOUT ? pfd[i].fd :
			    ARES_SOCKET_BAD);
		/* Time-outs of tries in flight. */
		ares_process_fd(chan, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
	}
}

struct wait {
	const int	*done;
	int64_t		 deadline;
};

static void
wait_step(void *arg)
{
	struct wait	*w = arg;

	wait_answer(w->done, w->deadline);
}

enum lz_resolve_rc
lz_resolve(const char *name, int timeout_ms, struct lz_addr **out, size_t *n)
{
	struct ares_addrinfo_hints	 hints;
	struct query			 q;
	struct wait			 w;
	struct lz_addr			 a;
	char				 err[256];
	int64_t				 deadline;

	*out = NULL;
	*n = 0;
	if (lz_addr_parse_host(name, &a) == 0) {
		*out = xcalloc(1, sizeof(**out));
		**out = a;
		*n = 1;
		return LZ_RESOLVE_OK;
	}
	if (!ready && lz_resolve_init("", err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "resolve: %s", err);
		return LZ_RESOLVE_FAIL;
	}
	deadline = lz_mono_us() + (int64_t)timeout_ms * 1000;
	memset(&q, 0, sizeof(q));
	q.status = ARES_ETIMEOUT;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	ares_getaddrinfo(chan, name, NULL, &hints, answered, &q);
	if (!q.done) {
		/* Asked a name server: a slow step of the request (pool.h),
		 * so no other request waits on the answer. */
		w.done = &q.done;
		w.deadline = deadline;
		lz_pool_slow(wait_step, &w);
	}
	switch (q.status) {
	case ARES_SUCCESS:
		if (q.n == 0)
			break;
		*out = q.addrs;
		*n = q.n;
		return LZ_RESOLVE_OK;
	case ARES_ENOTFOUND:
	case ARES_ENODATA:
	case ARES_ENONAME:
		free(q.addrs);
		return LZ_RESOLVE_NONE;
	case ARES_ETIMEOUT:
	case ARES_ECANCELLED:
		return LZ_RESOLVE_TIMEOUT;
	default:
		lz_log(LZ_LOG_INFO, "resolve %s: %s", name,
		    ares_strerror(q.status));
		return LZ_RESOLVE_FAIL;
	}
	free(q.addrs);
	return LZ_RESOLVE_NONE;
}

/* ---- TXT records ------------------------------------------------------ */

struct txt_query {
	int		 done;
	int		 status;	/* ARES_* */
	const char	*want;
	int		 records;	/* TXT records seen */
	int		 found;
};

/* Compares one record, its strings [first, end), with q->want. */
static void
txt_record(struct txt_query *q, const struct ares_txt_ext *first,
    const struct ares_txt_ext *end)
{
	const struct ares_txt_ext	*t;
	size_t				 len = 0, wl = strlen(q->want);

	q->records++;
	for (t = first; t != end; t = t->next) {
		if (len + t->length > wl ||
		    memcmp(q->want + len, t->txt, t->length) != 0)
			return;
		len += t->length;
	}
	if (len == wl)
		q->found = 1;
}

static void
txt_answered(void *arg, int status, int timeouts, unsigned char *abuf,
    int alen)
{
	struct txt_query	*q = arg;
	struct ares_txt_ext	*txt = NULL, *t, *first;

	(void)timeouts;
	q->done = 1;
	q->status = status;
	if (status != ARES_SUCCESS)
		return;
	if ((q->status = ares_parse_txt_reply_ext(abuf, alen, &txt)) !=
	    ARES_SUCCESS)
		return;
	for (first = txt; first != NULL; first = t) {
		for (t = first->next; t != NULL && !t->record_start;
		    t = t->next)
			continue;
		txt_record(q, first, t);
	}
	ares_free_data(txt);
}

enum lz_resolve_rc
lz_resolve_txt(const char *name, const char *want, int timeout_ms,
    int *found)
{
	struct txt_query	 q;
	struct wait		 w;
	char			 err[256];

	*found = 0;
	if (!ready && lz_resolve_init("", err, sizeof(err)) == -1) {
		lz_log(LZ_LOG_ERR, "resolve: %s", err);
		return LZ_RESOLVE_FAIL;
	}
	memset(&q, 0, sizeof(q));
	q.status = ARES_ETIMEOUT;
	q.want = want;
	ares_query(chan, name, 1 /* C_IN */, 16 /* T_TXT */, txt_answered,
	    &q);
	if (!q.done) {
		w.done = &q.done;
		w.deadline = lz_mono_us() + (int64_t)timeout_ms * 1000;
		lz_pool_slow(wait_step, &w);
	}
	switch (q.status) {
	case ARES_SUCCESS:
		*found = q.found;
		return q.records ? LZ_RESOLVE_OK : LZ_RESOLVE_NONE;
	case ARES_ENOTFOUND:
	case ARES_ENODATA:
	case ARES_ENONAME:
		return LZ_RESOLVE_NONE;
	case ARES_ETIMEOUT:
	case ARES_ECANCELLED:
		return LZ_RESOLVE_TIMEOUT;
	default:
		lz_log(LZ_LOG_INFO, "resolve TXT %s: %s", name,
		    ares_strerror(q.status));
		return LZ_RESOLVE_FAIL;
	}
}

const char *
lz_resolve_strerror(enum lz_resolve_rc rc)
{
	switch (rc) {
	case LZ_RESOLVE_OK:
		return "resolved";
	case LZ_RESOLVE_NONE:
		return "no address";
	case LZ_RESOLVE_TIMEOUT:
		return "no answer in time";
	default:
		return "resolver failure";
	}
}
