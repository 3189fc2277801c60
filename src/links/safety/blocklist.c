/*
 * blocklist.c -- feed formats, import and matching of the local
 * blocklists (blocklist.h).
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "addr.h"
#include "db.h"
#include "log.h"
#include "safety/blocklist.h"
#include "safety/canon.h"
#include "store/safety.h"
#include "util.h"

const char *const bl_format_names[BL__MAX] = {
	"urlhaus-csv", "phishtank-json", "phishtank-csv", "openphish", "hosts"
};
const char *const bl_format_sources[BL__MAX] = {
	"urlhaus", "phishtank", "phishtank", "openphish", "hosts"
};

#define RECORD_MAX	(1024 * 1024)	/* one CSV record or JSON object */
#define IMPORT_BATCH	5000		/* entries per write transaction */
#define HOSTS_MAX	128		/* parent domains looked up */

int
bl_format_parse(const char *name)
{
	int	 i;

	for (i = 0; i < BL__MAX; i++)
		if (strcmp(name, bl_format_names[i]) == 0)
			return i;
	return -1;
}

/* The url entry value of a canonical URL: host, path and query. */
static char *
url_value(const struct canon *c)
{
	if (c->query != NULL)
		return xasprintf("%s%s?%s", c->host, c->path, c->query);
	return xasprintf("%s%s", c->host, c->path);
}

/*
 * Fills e from an http(s) URL of a feed; -1 when it is none.  A host that
 * is no host name (an escaped '/' or '?' in it, bad IDN) would make an
 * ambiguous expression, and no destination with it passes the scan: such
 * URLs are skipped.
 */
static int
entry_url(const char *url, struct bl_entry *e)
{
	struct canon	 c;

	if (canon_url(url, strlen(url), &c) == -1)
		return -1;
	if ((c.flags & (CANON_NO_SCHEME | CANON_HOST_BAD | CANON_IDN_BAD)) ||
	    (strcmp(c.scheme, "http") != 0 && strcmp(c.scheme, "https") != 0)) {
		canon_free(&c);
		return -1;
	}
	e->kind = "url";
	e->value = url_value(&c);
	canon_free(&c);
	return 0;
}

/* Fills e from a host name; -1 when it is none (or a single label). */
static int
entry_host(const char *host, size_t len, struct bl_entry *e)
{
	unsigned	 flags;
	char		*h;

	if ((h = canon_host(host, len, &flags)) == NULL)
		return -1;
	if ((flags & (CANON_HOST_BAD | CANON_IDN_BAD | CANON_NUMERIC)) ||
	    (!(flags & (CANON_IPV4 | CANON_IPV6)) && strchr(h, '.') == NULL)) {
		free(h);
		return -1;
	}
	e->kind = "host";
	e->value = h;
	return 0;
}

int
bl_entry_from_text(const char *text, struct bl_entry *e)
{
	memset(e, 0, sizeof(*e));
	if (strstr(text, "://") != NULL)
		return entry_url(text, e);
	return entry_host(text, strlen(text), e);
}

/* ---- CSV (RFC 4180) --------------------------------------------------- */

struct csv {
	char		*line;
	size_t		 cap;
	struct lz_buf	 buf;		/* fields, each NUL-terminated */
	size_t		*off;		/* field offsets in buf */
	size_t		 n, offcap;
	int		 comment;	/* the record is a '#' line */
};

static void
csv_field(struct csv *c)
{
	if (c->n == c->offcap) {
		c->offcap = c->offcap ? c->offcap * 2 : 16;
		c->off = xreallocarray(c->off, c->offcap, sizeof(*c->off));
	}
	c->off[c->n++] = c->buf.len;
}

static const char *
csv_get(const struct csv *c, long i)
{
	if (i < 0 || (size_t)i >= c->n)
		return "";
	return c->buf.p + c->off[i];
}

/*
 * Reads one record: quoted fields may hold commas, doubled quotes and line
 * breaks.  A line starting with '#' is a comment record (one field).
 * Returns 1, 0 at the end, -1 for a record over RECORD_MAX.
 */
static int
csv_record(FILE *f, struct csv *c)
{
	ssize_t	 len;
	size_t	 i, start;
	int	 quoted = 0, first = 1;

	lz_buf_reset(&c->buf);
	c->n = 0;
	c->comment = 0;
	csv_field(c);
	for (;;) {
		if ((len = getline(&c->line, &c->cap, f)) == -1) {
			if (first)
				return 0;
			break;		/* an open quote at the end */
		}
		while (len > 0 && (c->line[len - 1] == '\n' ||
		    c->line[len - 1] == '\r'))
			len--;
		if (first && len > 0 && c->line[0] == '#') {
			c->comment = 1;
			lz_buf_add(&c->buf, c->line, (size_t)len);
			break;
		}
		first = 0;
		for (i = 0; i < (size_t)len; i++) {
			char	 ch = c->line[i];

			start = c->off[c->n - 1];
			if (quoted) {
				if (ch != '"')
					lz_buf_putc(&c->buf, ch);
				else if (i + 1 < (size_t)len &&
				    c->line[i + 1] == '"') {
					lz_buf_putc(&c->buf, '"');
					i++;
				} else
					quoted = 0;
			} else if (ch == '"' && c->buf.len == start)
				quoted = 1;
			else if (ch == ',') {
				lz_buf_putc(&c->buf, '\0');
				csv_field(c);
			} else
				lz_buf_putc(&c->buf, ch);
		}
		if (c->buf.len > RECORD_MAX)
			return -1;
		if (!quoted)
			break;
		lz_buf_putc(&c->buf, '\n');
	}
	lz_buf_putc(&c->buf, '\0');
	return 1;
}

static void
csv_free(struct csv *c)
{
	free(c->line);
	free(c->off);
	lz_buf_free(&c->buf);
}

/* The index of column name in the header record, or -1. */
static long
csv_column(const struct csv *c, const char *name)
{
	size_t	 i;

	for (i = 0; i < c->n; i++)
		if (strcmp(csv_get(c, (long)i), name) == 0)
			return (long)i;
	return -1;
}

/* Column positions of the "# id,dateadded,url,..." comment of URLhaus. */
struct urlhaus_cols {
	long	 url, threat, tags;
};

static void
urlhaus_header(const char *comment, struct urlhaus_cols *cols)
{
	char	**names;
	size_t	  n, i;

	/* "# id,dateadded,url,url_status,last_online,threat,tags,..." */
	comment += strspn(comment, "# ");
	if (strncmp(comment, "id,", 3) != 0)
		return;
	n = lz_strlist_split(comment, &names);
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], "url") == 0)
			cols->url = (long)i;
		else if (strcmp(names[i], "threat") == 0)
			cols->threat = (long)i;
		else if (strcmp(names[i], "tags") == 0)
			cols->tags = (long)i;
	}
	lz_strlist_free(names, n);
}

static int
emit(struct bl_entry *e, int (*fn)(const struct bl_entry *, void *),
    void *arg, struct bl_stats *st)
{
	int	 rc;

	st->entries++;
	rc = fn(e, arg);
	free(e->value);
	e->value = NULL;
	return rc;
}

static int
parse_csv(FILE *f, enum bl_format fmt,
    int (*fn)(const struct bl_entry *, void *), void *arg,
    struct bl_stats *st, char *err, size_t errlen)
{
	struct urlhaus_cols	 uh = { 2, 5, 6 };	/* the documented order */
	struct csv		 c;
	struct bl_entry		 e;
	long			 url = -1, verified = -1, target = -1;
	int			 rc, header = fmt == BL_PHISHTANK_CSV;
	const char		*t;

	memset(&c, 0, sizeof(c));
	memset(&e, 0, sizeof(e));
	while ((rc = csv_record(f, &c)) == 1) {
		if (c.comment) {
			if (fmt == BL_URLHAUS_CSV)
				urlhaus_header(csv_get(&c, 0), &uh);
			continue;
		}
		if (c.n == 1 && csv_get(&c, 0)[0] == '\0')
			continue;		/* an empty line */
		if (header) {
			/* phish_id,url,phish_detail_url,submission_time,
			 * verified,verification_time,online,target */
			url = csv_column(&c, "url");
			verified = csv_column(&c, "verified");
			target = csv_column(&c, "target");
			if (url < 0) {
				snprintf(err, errlen, "no 'url' column in the "
				    "header line: not a PhishTank CSV file");
				csv_free(&c);
				return -1;
			}
			header = 0;
			continue;
		}
		st->records++;
		if (fmt == BL_URLHAUS_CSV) {
			if (entry_url(csv_get(&c, uh.url), &e) == -1) {
				st->skipped++;
				continue;
			}
			t = csv_get(&c, uh.tags);
			snprintf(e.reason, sizeof(e.reason), "%s%s%s",
			    csv_get(&c, uh.threat), *t ? "; tags: " : "", t);
		} else {
			if ((verified >= 0 && strcmp(csv_get(&c, verified),
			    "yes") != 0) || entry_url(csv_get(&c, url), &e) ==
			    -1) {
				st->skipped++;
				continue;
			}
			t = csv_get(&c, target);
			snprintf(e.reason, sizeof(e.reason), "phishing%s%s",
			    *t ? "; target: " : "", t);
		}
		if (emit(&e, fn, arg, st) == -1) {
			snprintf(err, errlen, "import stopped");
			csv_free(&c);
			return -1;
		}
	}
	csv_free(&c);
	if (rc == -1) {
		snprintf(err, errlen, "a record longer than %d bytes (an "
		    "unbalanced quote?)", RECORD_MAX);
		return -1;
	}
	return 0;
}

/* ---- PhishTank JSON: an array of objects, read one object at a time --- */

static int
next_char(FILE *f)
{
	int	 ch;

	while ((ch = getc(f)) == ' ' || ch == '\t' || ch == '\n' ||
	    ch == '\r')
		continue;
	return ch;
}

static const char *
jstr(const json_t *o, const char *key)
{
	const json_t	*v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int
parse_phishtank_json(FILE *f, int (*fn)(const struct bl_entry *, void *),
    void *arg, struct bl_stats *st, char *err, size_t errlen)
{
	struct bl_entry	 e;
	json_error_t	 jerr;
	json_t		*o;
	const char	*url, *v, *target;
	int		 ch;

	memset(&e, 0, sizeof(e));
	if ((ch = next_char(f)) == 0xef && getc(f) == 0xbb && getc(f) == 0xbf)
		ch = next_char(f);	/* a UTF-8 byte order mark */
	if (ch != '[') {
		snprintf(err, errlen, "not a JSON array: not a PhishTank JSON "
		    "file");
		return -1;
	}
	for (;;) {
		if ((ch = next_char(f)) == ']')
			return 0;
		if (ch == ',' && st->records > 0)
			ch = next_char(f);
		if (ch != '{') {
			snprintf(err, errlen, "entry %ld: expected an object",
			    st->records + 1);
			return -1;
		}
		ungetc(ch, f);
		if ((o = json_loadf(f, JSON_DISABLE_EOF_CHECK, &jerr)) ==
		    NULL) {
			snprintf(err, errlen, "entry %ld: %s", st->records + 1,
			    jerr.text);
			return -1;
		}
		st->records++;
		url = jstr(o, "url");
		v = jstr(o, "verified");
		if (url == NULL || (v != NULL && strcmp(v, "yes") != 0) ||
		    entry_url(url, &e) == -1) {
			st->skipped++;
			json_decref(o);
			continue;
		}
		target = jstr(o, "target");
		snprintf(e.reason, sizeof(e.reason), "phishing%s%s",
		    target && *target ? "; target: " : "",
		    target ? target : "");
		json_decref(o);
		if (emit(&e, fn, arg, st) == -1) {
			snprintf(err, errlen, "import stopped");
			return -1;
		}
	}
}

/* ---- line formats: OpenPhish, hosts ----------------------------------- */

/* Names in hosts files that are the machine itself, never a site. */
static const char *const hosts_local[] = {
	"localhost", "localhost.localdomain", "local", "broadcasthost",
	"ip6-localhost", "ip6-loopback", "ip6-localnet", "ip6-mcastprefix",
	"ip6-allnodes", "ip6-allrouters", "ip6-allhosts", "0.0.0.0",
};

static int
is_address(const char *s)
{
	struct lz_addr	 a;

	return strchr(s, ':') != NULL || lz_addr_parse(s, &a) == 0;
}

static int
parse_lines(FILE *f, enum bl_format fmt,
    int (*fn)(const struct bl_entry *, void *), void *arg,
    struct bl_stats *st, char *err, size_t errlen)
{
	struct bl_entry	 e;
	char		*line = NULL, *p, *tok, *save;
	size_t		 cap = 0, i, ntok;
	ssize_t		 len;
	int		 rc = 0;

	memset(&e, 0, sizeof(e));
	while ((len = getline(&line, &cap, f)) != -1) {
		while (len > 0 && (line[len - 1] == '\n' ||
		    line[len - 1] == '\r'))
			line[--len] = '\0';
		if (fmt == BL_OPENPHISH) {
			p = line + strspn(line, " \t");
			if (*p == '\0' || *p == '#')
				continue;
			st->records++;
			if (entry_url(p, &e) == -1) {
				st->skipped++;
				continue;
			}
			snprintf(e.reason, sizeof(e.reason), "phishing");
			if ((rc = emit(&e, fn, arg, st)) == -1)
				break;
			continue;
		}
		/* hosts: "ADDRESS NAME [NAME...]" or "NAME"; '#' comments */
		if ((p = strchr(line, '#')) != NULL)
			*p = '\0';
		ntok = 0;
		for (tok = strtok_r(line, " \t", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t", &save)) {
			if (ntok++ == 0) {
				st->records++;
				/* The address of a hosts line; a lone
				 * address is a listed address. */
				if (is_address(tok) && (p = strtok_r(NULL,
				    " \t", &save)) != NULL)
					tok = p;
			}
			for (i = 0; i < LZ_NELEM(hosts_local); i++)
				if (strcasecmp(tok, hosts_local[i]) == 0)
					break;
			if (i < LZ_NELEM(hosts_local) ||
			    entry_host(tok, strlen(tok), &e) == -1) {
				st->skipped++;
				continue;
			}
			e.reason[0] = '\0';
			if ((rc = emit(&e, fn, arg, st)) == -1)
				break;
		}
		if (rc == -1)
			break;
	}
	free(line);
	if (rc == -1) {
		snprintf(err, errlen, "import stopped");
		return -1;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int
bl_parse(FILE *f, enum bl_format fmt,
    int (*fn)(const struct bl_entry *, void *), void *arg,
    struct bl_stats *st, char *err, size_t errlen)
{
	memset(st, 0, sizeof(*st));
	switch (fmt) {
	case BL_URLHAUS_CSV:
	case BL_PHISHTANK_CSV:
		return parse_csv(f, fmt, fn, arg, st, err, errlen);
	case BL_PHISHTANK_JSON:
		return parse_phishtank_json(f, fn, arg, st, err, errlen);
	case BL_OPENPHISH:
	case BL_HOSTS:
		return parse_lines(f, fmt, fn, arg, st, err, errlen);
	default:
		snprintf(err, errlen, "unknown format");
		return -1;
	}
}

/* ---- import ------------------------------------------------------------ */

struct import {
	struct lz_db	*db;
	const char	*source;
	int64_t		 now;
	long		 pending;	/* entries in the open transaction */
	long		 entries;
	int		 dberr;
	lz_progress_fn	*progress;
	FILE		*f;
	off_t		 size;		/* of a file read line by line, or 0 */
};

/* How far the import is, at each commit. */
static void
import_progress(struct import *im)
{
	off_t	 at;

	if (im->progress == NULL)
		return;
	if (im->size > 0 && (at = ftello(im->f)) >= 0)
		im->progress("importing (bytes of the file)", (uint64_t)at,
		    (uint64_t)im->size);
	else
		im->progress("importing (entries)", (uint64_t)im->entries, 0);
}

static int
import_one(const struct bl_entry *e, void *arg)
{
	struct import	*im = arg;

	if ((im->pending == 0 && lz_db_begin(im->db) == -1) ||
	    store_bl_upsert(im->db, e->kind, e->value, im->source, e->reason,
	    im->now) == -1) {
		im->dberr = 1;
		return -1;
	}
	im->entries++;
	if (++im->pending == IMPORT_BATCH) {
		if (lz_db_commit(im->db) == -1) {
			im->dberr = 1;
			return -1;
		}
		im->pending = 0;
		import_progress(im);
	}
	return 0;
}

int
bl_import(struct lz_db *db, FILE *f, enum bl_format fmt, const char *source,
    int keep, int64_t now, lz_progress_fn *progress, struct bl_stats *st,
    char *err, size_t errlen)
{
	struct import	 im;
	struct stat	 sb;
	long		 n;

	memset(&im, 0, sizeof(im));
	im.db = db;
	im.source = source;
	im.now = now;
	im.progress = progress;
	im.f = f;
	/* A JSON feed is read whole before its first entry. */
	if (fmt != BL_PHISHTANK_JSON && fstat(fileno(f), &sb) == 0 &&
	    S_ISREG(sb.st_mode))
		im.size = sb.st_size;
	if (bl_parse(f, fmt, import_one, &im, st, err, errlen) == -1) {
		if (im.dberr)
			snprintf(err, errlen, "database error: %s",
			    lz_db_error(db));
		lz_db_rollback(db);
		return -1;
	}
	if (im.pending > 0 && lz_db_commit(db) == -1) {
		lz_db_rollback(db);
		snprintf(err, errlen, "database error: %s",
		    lz_db_error(db));
		return -1;
	}
	if (st->entries == 0) {
		snprintf(err, errlen, "no entries found in %ld records (is it "
		    "a %s file?); the list is unchanged", st->records,
		    bl_format_names[fmt]);
		return -1;
	}
	if (!keep) {
		if (progress != NULL)
			progress("dropping the entries the feed no longer has",
			    0, 0);
		if (lz_db_begin(db) == -1 ||
		    (n = store_bl_prune(db, source, now)) < 0 ||
		    lz_db_commit(db) == -1) {
			lz_db_rollback(db);
			snprintf(err, errlen, "database error: %s",
			    lz_db_error(db));
			return -1;
		}
		st->pruned = n;
	}
	return 0;
}

/* ---- matching ---------------------------------------------------------- */

size_t
bl_batch_add(struct bl_batch *b, const struct canon *c)
{
	const char	*host[HOSTS_MAX];
	char		*expr[CANON_EXPR_MAX], *q;
	size_t		 nh, ne, i;

	/* The parent domains of the host, then the expressions of the URL:
	 * the first listed one is the answer. */
	nh = canon_host_parents(c->host, c->flags, host, HOSTS_MAX);
	ne = canon_expressions(c, expr);
	if (b->nat + nh + ne > b->atcap) {
		while (b->nat + nh + ne > b->atcap)
			b->atcap = b->atcap ? 2 * b->atcap : 256;
		b->at = xreallocarray(b->at, b->atcap, sizeof(*b->at));
	}
	if (b->ndest == b->dcap) {
		b->dcap = b->dcap ? 2 * b->dcap : 64;
		b->dest = xreallocarray(b->dest, b->dcap, 3 * sizeof(*b->dest));
	}
	b->dest[3 * b->ndest] = b->nat;
	b->dest[3 * b->ndest + 1] = nh + ne;
	b->dest[3 * b->ndest + 2] = nh;
	for (i = 0; i < nh + ne; i++) {
		q = xasprintf("%s\x1f%s", i < nh ? "host" : "url", i < nh ?
		    host[i] : expr[i - nh]);
		b->at[b->nat++] = lz_strtab_put(&b->q, q);
		free(q);
	}
	lz_strs_free(expr, ne);
	return b->ndest++;
}

static void
listed(size_t i, const char *source, const char *reason, void *arg)
{
	struct bl_batch	*b = arg;

	if (b->hit[i] == NULL)
		b->hit[i] = xasprintf("%s\x1f%s", source ? source : "",
		    reason ? reason : "");
}

int
bl_batch_run(struct lz_db *db, struct bl_batch *b)
{
	const char	**kind, **value;
	size_t		  i;
	int		  rc;

	kind = xcalloc(b->q.n + 1, sizeof(*kind));
	value = xcalloc(b->q.n + 1, sizeof(*value));
	for (i = 0; i < b->q.n; i++) {
		kind[i] = b->q.v[i][0] == 'h' ? "host" : "url";
		value[i] = strchr(b->q.v[i], '\x1f') + 1;
	}
	b->hit = xcalloc(b->q.n + 1, sizeof(*b->hit));
	rc = store_bl_find_many(db, kind, value, b->q.n, listed, b);
	free(kind);
	free(value);
	return rc;
}

int
bl_batch_why(const struct bl_batch *b, size_t k, char *why, size_t whylen)
{
	const size_t	*q = b->at + b->dest[3 * k];
	const char	*hit, *value, *reason;
	size_t		 i, n = b->dest[3 * k + 1];
	int		 src;

	for (i = 0; i < n; i++)
		if ((hit = b->hit[q[i]]) != NULL)
			break;
	if (i == n)
		return 0;
	value = strchr(b->q.v[q[i]], '\x1f') + 1;
	reason = strchr(hit, '\x1f') + 1;
	src = (int)(reason - 1 - hit);
	snprintf(why, whylen, "%s%s is on the %.*s blocklist%s%s%s",
	    i < b->dest[3 * k + 2] ? "its host " : "", value, src, hit,
	    *reason ? " (" : "", reason, *reason ? ")" : "");
	return 1;
}

void
bl_batch_free(struct bl_batch *b)
{
	size_t	 i;

	for (i = 0; b->hit != NULL && i < b->q.n; i++)
		free(b->hit[i]);
	free(b->hit);
	free(b->at);
	free(b->dest);
	lz_strtab_free(&b->q);
	memset(b, 0, sizeof(*b));
}

int
bl_match(struct lz_db *db, const struct canon *c, char *why, size_t whylen)
{
	struct bl_batch	 b;
	int		 rc;

	memset(&b, 0, sizeof(b));
	bl_batch_add(&b, c);
	if ((rc = bl_batch_run(db, &b)) == 0)
		rc = bl_batch_why(&b, 0, why, whylen);
	bl_batch_free(&b);
	return rc;
}
