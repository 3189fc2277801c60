/*
 * fuzz_patch.c -- an edit as PATCH /api/v1/links/<id> sees it: the body
 * (json_loadb() as lz_req_json_merge() calls it) applied as a JSON merge
 * patch to one of a few stored links by link_parse_patch().
 *
 * The input's first byte picks the stored link, the rest is the patch.
 * Promises checked:
 *  - lz_json_merge_patch is idempotent (RFC 7396): the patch applied
 *    twice gives what it gave once, whatever the patch is;
 *  - an edit keeps the link's id, account and slug, and keeps the
 *    password hash unless the patch names password;
 *  - an edited link passes create's rules again: link_body() of it
 *    parses back to the same representation;
 *  - a refusal is a 4xx with a code.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "jbody.h"
#include "link/link.h"
#include "req.h"
#include "util.h"

int	LLVMFuzzerInitialize(int *, char ***);
int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define NOW_MS	1795000000000LL	/* a fixed "now": 2026-11-18 */

static const char *const stored_bodies[] = {
	"{\"target_url\": \"https://example.com/\", \"slug\": \"s0\"}",
	"{\"target_url\": \"https://example.com/ab\", \"slug\": \"s1\", "
	"\"mode\": \"ab\", \"variants\": [{\"url\": \"https://a.example/\", "
	"\"weight\": 3}, {\"url\": \"https://b.example/\", \"weight\": 1}], "
	"\"redirect_type\": 301, \"max_clicks\": 10}",
	"{\"target_url\": \"https://example.com/d\", \"slug\": \"s2\", "
	"\"mode\": \"device\", \"variants\": {\"ios\": \"https://i.example/\", "
	"\"android\": \"https://a.example/\"}, \"og\": {\"title\": \"T\", "
	"\"image\": \"https://img.example/x.png\"}, \"utm\": {\"source\": "
	"\"s\", \"medium\": \"m\"}}",
	"{\"target_url\": \"https://example.com/g\", \"slug\": \"s3\", "
	"\"mode\": \"geo\", \"variants\": {\"TW\": \"https://tw.example/\"}, "
	"\"title\": \"t\", \"pixel_fb\": \"12345\", \"pixel_ga\": \"G-ABCD\", "
	"\"escape_inapp\": true, \"expires_at\": \"2030-01-01T00:00:00.5Z\"}",
};
#define NSTORED	(sizeof(stored_bodies) / sizeof(stored_bodies[0]))

static struct link	 stored[NSTORED];

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct lz_verr	 e;
	json_t		*j;
	size_t		 i;

	(void)argc;
	(void)argv;
	for (i = 0; i < NSTORED; i++) {
		j = json_loads(stored_bodies[i], 0, NULL);
		if (j == NULL || link_parse(j, NOW_MS, &stored[i], &e) == -1)
			abort();
		json_decref(j);
		stored[i].id = (int64_t)i + 1;
		stored[i].account_id = 9;
		stored[i].revision = 4;
		if (i % 2)
			stored[i].password_hash = xstrdup("$argon2id$fake");
	}
	return 0;
}

/* Whether a merge patch applied twice gives what it gave once. */
static void
check_idempotent(const struct link *s, const json_t *patch)
{
	json_t	*once, *twice;

	once = lz_json_merge_patch(link_body(s), patch);
	twice = lz_json_merge_patch(json_deep_copy(once), patch);
	if (!json_equal(once, twice))
		abort();
	json_decref(once);
	json_decref(twice);
}

/* The edited link l parses back from its own create body unchanged. */
static void
check_reparses(const struct link *l)
{
	struct link	 back;
	struct lz_verr	 e;
	json_t		*body, *a, *b;

	memset(&back, 0, sizeof(back));
	body = link_body(l);
	if (link_parse(body, INT64_MIN, &back, &e) == -1)
		abort();
	back.id = l->id;
	back.slug = xstrdup(l->slug);
	back.password_hash = l->password_hash ? xstrdup(l->password_hash) :
	    NULL;
	a = link_json(l, "https://s.example", NOW_MS);
	b = link_json(&back, "https://s.example", NOW_MS);
	if (!json_equal(a, b))
		abort();
	json_decref(a);
	json_decref(b);
	json_decref(body);
	link_free(&back);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct link	*s;
	struct lz_verr		 e;
	struct link		 l;
	json_error_t		 je;
	json_t			*patch;

	if (size < 1)
		return 0;
	s = &stored[data[0] % NSTORED];
	patch = json_loadb((const char *)data + 1, size - 1,
	    JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
	if (patch == NULL)
		return 0;
	check_idempotent(s, patch);
	if (json_is_object(patch)) {
		memset(&l, 0, sizeof(l));
		memset(&e, 0, sizeof(e));
		if (link_parse_patch(s, patch, NOW_MS, &l, &e) == 0) {
			if (l.id != s->id || l.account_id != s->account_id ||
			    l.revision != s->revision ||
			    strcmp(l.slug, s->slug) != 0)
				abort();
			if (json_object_get(patch, "password") == NULL &&
			    (s->password_hash == NULL) !=
			    (l.password_hash == NULL))
				abort();
			check_reparses(&l);
		} else if (e.status < 400 || e.status > 499 ||
		    e.code[0] == '\0')
			abort();
		link_free(&l);
	}
	json_decref(patch);
	return 0;
}
