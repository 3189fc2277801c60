/*
 * check_links.c -- unit tests of link validation, slugs and API keys.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <sodium.h>

#include "auth/keys.h"
#include "conf.h"
#include "link/link.h"
#include "link/tag.h"
#include "lztime.h"
#include "req.h"
#include "util.h"

#define NOW	1800000000000LL		/* 2027-01-15T08:00:00Z */

/* ---- API keys ----------------------------------------------------------- */

START_TEST(keys_roundtrip)
{
	char		 k[KEY_LEN + 1], k2[KEY_LEN + 1], prefix[16], last4[8];
	unsigned char	 h1[KEY_HASH_LEN], h2[KEY_HASH_LEN];
	size_t		 i;

	key_generate(k);
	ck_assert_int_eq(strlen(k), KEY_LEN);
	ck_assert_int_eq(strncmp(k, "lk_live_", 8), 0);
	ck_assert_int_eq(key_wellformed(k), 1);
	key_generate(k2);
	ck_assert_str_ne(k, k2);
	key_hash(k, h1);
	key_hash(k2, h2);
	ck_assert_int_ne(memcmp(h1, h2, KEY_HASH_LEN), 0);
	key_display(k, prefix, last4);
	ck_assert_int_eq(strlen(prefix), 12);
	ck_assert_int_eq(strncmp(prefix, k, 12), 0);
	ck_assert_str_eq(last4, k + KEY_LEN - 4);

	/* Every single-character typo is caught by the checksum. */
	for (i = KEY_PREFIX_LEN; i < KEY_LEN; i++) {
		char	 save = k[i];

		k[i] = save == 'a' ? 'b' : 'a';
		ck_assert_msg(key_wellformed(k) == 0, "typo at %zu passed", i);
		k[i] = save;
	}
	ck_assert_int_eq(key_wellformed(k), 1);
}
END_TEST

START_TEST(keys_refused)
{
	char	 k[KEY_LEN + 2];

	key_generate(k);
	ck_assert_int_eq(key_wellformed(""), 0);
	ck_assert_int_eq(key_wellformed("lk_live_"), 0);
	k[KEY_LEN - 1] = '\0';				/* short */
	ck_assert_int_eq(key_wellformed(k), 0);
	key_generate(k);
	k[KEY_LEN] = 'x';				/* long */
	k[KEY_LEN + 1] = '\0';
	ck_assert_int_eq(key_wellformed(k), 0);
	key_generate(k);
	k[3] = 'X';					/* "lk_Xive_" */
	ck_assert_int_eq(key_wellformed(k), 0);
	key_generate(k);
	k[10] = '-';					/* not base62 */
	ck_assert_int_eq(key_wellformed(k), 0);
}
END_TEST

/* ---- slugs -------------------------------------------------------------- */

START_TEST(slugs)
{
	struct lz_conf	*c = lz_conf_defaults();

	ck_assert_int_eq(slug_valid("a"), 1);
	ck_assert_int_eq(slug_valid("Abc-123_x"), 1);
	ck_assert_int_eq(slug_valid(""), 0);
	ck_assert_int_eq(slug_valid("a b"), 0);
	ck_assert_int_eq(slug_valid("a/b"), 0);
	ck_assert_int_eq(slug_valid("a.b"), 0);
	ck_assert_int_eq(slug_valid("\xe4\xb8\xad"), 0);
	ck_assert_int_eq(slug_valid("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaa"), 1);			/* 64 */
	ck_assert_int_eq(slug_valid("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	    "aaaaaaaaaaaaaaaaaaaaaaaaa"), 0);			/* 65 */
	ck_assert_int_eq(slug_reserved(c, "api"), 1);
	ck_assert_int_eq(slug_reserved(c, "API"), 1);
	ck_assert_int_eq(slug_reserved(c, "dashboard"), 1);
	ck_assert_int_eq(slug_reserved(c, "apix"), 0);
	ck_assert_int_eq(slug_reserved(c, "about"), 0);
	free(c->reserved_slugs);
	c->reserved_slugs = xstrdup("about, Help status");
	ck_assert_int_eq(slug_reserved(c, "about"), 1);
	ck_assert_int_eq(slug_reserved(c, "help"), 1);
	ck_assert_int_eq(slug_reserved(c, "status"), 1);
	ck_assert_int_eq(slug_reserved(c, "stat"), 0);
	lz_conf_free(c);
}
END_TEST

/* ---- create bodies ------------------------------------------------------ */

/* Parses body; returns 0, or -1 with the error's param in param. */
static int
parse(const char *body, struct link *l, char *param, char *code)
{
	struct lz_verr	 e;
	json_t		*j;
	int		 rc;

	j = json_loads(body, JSON_REJECT_DUPLICATES, NULL);
	ck_assert_msg(j != NULL, "bad test JSON: %s", body);
	memset(l, 0, sizeof(*l));
	rc = link_parse(j, NOW, l, &e);
	json_decref(j);
	if (rc == -1) {
		ck_assert_int_eq(e.status, 400);
		if (param)
			strcpy(param, e.param);
		if (code)
			strcpy(code, e.code);
		link_free(l);
	}
	return rc;
}

START_TEST(create_defaults)
{
	struct link	 l;

	ck_assert_int_eq(parse("{\"target_url\":\"https://example.com/a?b=1#c\"}",
	    &l, NULL, NULL), 0);
	ck_assert_str_eq(l.target_url, "https://example.com/a?b=1#c");
	ck_assert_ptr_null(l.slug);
	ck_assert_int_eq(l.mode, MODE_SIMPLE);
	ck_assert_int_eq(l.redirect_type, 302);
	ck_assert_int_eq(l.escape_inapp, 0);
	ck_assert_int_eq(l.max_clicks, 0);
	ck_assert_int_eq(l.expires_at, 0);
	ck_assert_ptr_null(l.variants);
	ck_assert_ptr_null(l.og);
	ck_assert_ptr_null(l.utm);
	ck_assert_ptr_null(l.password);
	link_free(&l);

	/* Blank slug and nulls mean "not given". */
	ck_assert_int_eq(parse("{\"target_url\":\"http://x.example\","
	    "\"slug\":\"  \",\"title\":null,\"mode\":null,\"variants\":null,"
	    "\"redirect_type\":null,\"og\":null,\"pixel_fb\":null,"
	    "\"escape_inapp\":null,\"expires_at\":null,\"max_clicks\":null,"
	    "\"utm\":null,\"password\":null}", &l, NULL, NULL), 0);
	ck_assert_ptr_null(l.slug);
	link_free(&l);
}
END_TEST

START_TEST(create_full)
{
	struct link	 l;

	ck_assert_int_eq(parse("{\"target_url\":\"https://example.com/\","
	    "\"slug\":\"Spring-Sale_1\",\"title\":\"\xe6\x98\xa5\xe5\xad\xa3\","
	    "\"mode\":\"ab\",\"variants\":[{\"url\":\"https://a.example/\","
	    "\"weight\":70},{\"url\":\"https://b.example/\",\"weight\":30}],"
	    "\"redirect_type\":301,\"og\":{\"title\":\"T\",\"description\":"
	    "\"D\",\"image\":\"https://img.example/x.png\"},"
	    "\"pixel_fb\":\"123456789012345\",\"pixel_ga\":\"G-ABC123XYZ\","
	    "\"pixel_gtm\":\"GTM-AB12CD\",\"pixel_tiktok\":\"C4ABCDEF12345\","
	    "\"pixel_line\":\"abcd-1234-efgh\",\"escape_inapp\":true,"
	    "\"expires_at\":\"2030-01-01T00:00:00+08:00\",\"max_clicks\":100,"
	    "\"utm\":{\"source\":\"news\",\"medium\":\"email\",\"campaign\":"
	    "\"spring\",\"term\":\"t\",\"content\":\"c\"},\"password\":"
	    "\"open sesame\"}", &l, NULL, NULL), 0);
	ck_assert_str_eq(l.slug, "Spring-Sale_1");
	ck_assert_int_eq(l.mode, MODE_AB);
	ck_assert_int_eq(json_array_size(l.variants), 2);
	ck_assert_int_eq(l.redirect_type, 301);
	ck_assert_str_eq(json_string_value(json_object_get(l.og, "title")),
	    "T");
	ck_assert_str_eq(l.pixel[PIXEL_GA], "G-ABC123XYZ");
	ck_assert_int_eq(l.escape_inapp, 1);
	ck_assert_int_eq(l.expires_at, 1893427200000LL);
	ck_assert_int_eq(l.max_clicks, 100);
	ck_assert_int_eq(json_object_size(l.utm), 5);
	ck_assert_str_eq(l.password, "open sesame");
	link_free(&l);

	ck_assert_int_eq(parse("{\"target_url\":\"https://example.com/\","
	    "\"mode\":\"device\",\"variants\":{\"ios\":\"https://apps.apple."
	    "com/x\",\"android\":\"https://play.google.com/x\"}}", &l, NULL,
	    NULL), 0);
	ck_assert_int_eq(l.mode, MODE_DEVICE);
	link_free(&l);
	ck_assert_int_eq(parse("{\"target_url\":\"https://example.com/\","
	    "\"mode\":\"geo\",\"variants\":{\"TW\":\"https://tw.example/\","
	    "\"JP\":\"https://jp.example/\"}}", &l, NULL, NULL), 0);
	ck_assert_int_eq(l.mode, MODE_GEO);
	link_free(&l);
	/* An og object with only empty values counts as none. */
	ck_assert_int_eq(parse("{\"target_url\":\"https://example.com/\","
	    "\"og\":{\"title\":\"\"},\"utm\":{}}", &l, NULL, NULL), 0);
	ck_assert_ptr_null(l.og);
	ck_assert_ptr_null(l.utm);
	link_free(&l);
}
END_TEST

/* Each bad body and the field its 400 must name. */
static const struct {
	const char	*body;
	const char	*param;
} bad_bodies[] = {
	{ "{}", "target_url" },
	{ "{\"target_url\":null}", "target_url" },
	{ "{\"target_url\":42}", "target_url" },
	{ "{\"target_url\":\"\"}", "target_url" },
	{ "{\"target_url\":\"example.com\"}", "target_url" },
	{ "{\"target_url\":\"ftp://example.com/\"}", "target_url" },
	{ "{\"target_url\":\"javascript:alert(1)\"}", "target_url" },
	{ "{\"target_url\":\"https://\"}", "target_url" },
	{ "{\"target_url\":\"https://exa mple.com/\"}", "target_url" },
	{ "{\"target_url\":\"https://example.com/\\n\"}", "target_url" },
	{ "{\"target_url\":\"https://example.com\",\"extra\":1}", "extra" },
	{ "{\"target_url\":\"https://example.com\",\"slug\":\"a b\"}", "slug" },
	{ "{\"target_url\":\"https://example.com\",\"slug\":\"a/b\"}", "slug" },
	{ "{\"target_url\":\"https://example.com\",\"slug\":7}", "slug" },
	{ "{\"target_url\":\"https://example.com\",\"title\":[]}", "title" },
	{ "{\"target_url\":\"https://example.com\",\"title\":\"a\\u0007\"}",
	    "title" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"random\"}",
	    "mode" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":1}", "mode" },
	{ "{\"target_url\":\"https://example.com\",\"variants\":[]}",
	    "variants" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\"}",
	    "variants" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\","
	    "\"variants\":[{\"url\":\"https://a.example\",\"weight\":1}]}",
	    "variants" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\","
	    "\"variants\":[{\"url\":\"https://a.example\",\"weight\":1},"
	    "{\"url\":\"https://b.example\",\"weight\":0}]}",
	    "variants[1].weight" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\","
	    "\"variants\":[{\"url\":\"https://a.example\",\"weight\":1},"
	    "{\"url\":\"https://b.example\",\"weight\":101}]}",
	    "variants[1].weight" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\","
	    "\"variants\":[{\"url\":\"https://a.example\",\"weight\":1},"
	    "{\"url\":\"mailto:x@y\",\"weight\":1}]}", "variants[1].url" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\","
	    "\"variants\":[{\"url\":\"https://a.example\",\"weight\":1},"
	    "{\"url\":\"https://b.example\",\"weight\":1,\"x\":1}]}",
	    "variants[1].x" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\","
	    "\"variants\":[{\"url\":\"https://a.example\",\"weight\":1},"
	    "{\"weight\":1}]}", "variants[1].url" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\","
	    "\"variants\":[{\"url\":\"https://a.example\",\"weight\":1}, 5]}",
	    "variants[1]" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"ab\","
	    "\"variants\":{\"ios\":\"https://a.example\"}}", "variants" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"device\","
	    "\"variants\":{\"watch\":\"https://a.example\"}}",
	    "variants.watch" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"device\","
	    "\"variants\":{}}", "variants" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"device\","
	    "\"variants\":{\"ios\":5}}", "variants.ios" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"geo\","
	    "\"variants\":{\"tw\":\"https://a.example\"}}", "variants.tw" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"geo\","
	    "\"variants\":{\"TWN\":\"https://a.example\"}}", "variants.TWN" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"geo\","
	    "\"variants\":{\"TW\":\"nope\"}}", "variants.TW" },
	{ "{\"target_url\":\"https://example.com\",\"mode\":\"simple\","
	    "\"variants\":{\"TW\":\"https://a.example\"}}", "variants" },
	{ "{\"target_url\":\"https://example.com\",\"redirect_type\":303}",
	    "redirect_type" },
	{ "{\"target_url\":\"https://example.com\",\"redirect_type\":\"301\"}",
	    "redirect_type" },
	{ "{\"target_url\":\"https://example.com\",\"redirect_type\":301.0}",
	    "redirect_type" },
	{ "{\"target_url\":\"https://example.com\",\"og\":\"x\"}", "og" },
	{ "{\"target_url\":\"https://example.com\",\"og\":{\"url\":\"x\"}}",
	    "og.url" },
	{ "{\"target_url\":\"https://example.com\",\"og\":{\"title\":1}}",
	    "og.title" },
	{ "{\"target_url\":\"https://example.com\",\"og\":{\"image\":"
	    "\"javascript:x\"}}", "og.image" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_fb\":\"12ab\"}",
	    "pixel_fb" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_fb\":\"1234\"}",
	    "pixel_fb" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_fb\":12345}",
	    "pixel_fb" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_ga\":\"X-123456\"}",
	    "pixel_ga" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_ga\":"
	    "\"G-<script>\"}", "pixel_ga" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_ga\":\"UA-12-1\"}",
	    "pixel_ga" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_gtm\":\"GTM-\"}",
	    "pixel_gtm" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_tiktok\":"
	    "\"abc\"}", "pixel_tiktok" },
	{ "{\"target_url\":\"https://example.com\",\"pixel_line\":"
	    "\"abcdefgh';\"}", "pixel_line" },
	{ "{\"target_url\":\"https://example.com\",\"escape_inapp\":1}",
	    "escape_inapp" },
	{ "{\"target_url\":\"https://example.com\",\"escape_inapp\":\"true\"}",
	    "escape_inapp" },
	{ "{\"target_url\":\"https://example.com\",\"expires_at\":"
	    "\"2020-01-01T00:00:00Z\"}", "expires_at" },
	{ "{\"target_url\":\"https://example.com\",\"expires_at\":"
	    "\"2030-01-01\"}", "expires_at" },
	{ "{\"target_url\":\"https://example.com\",\"expires_at\":"
	    "\"2030-02-30T00:00:00Z\"}", "expires_at" },
	{ "{\"target_url\":\"https://example.com\",\"expires_at\":1893456000}",
	    "expires_at" },
	{ "{\"target_url\":\"https://example.com\",\"max_clicks\":-1}",
	    "max_clicks" },
	{ "{\"target_url\":\"https://example.com\",\"max_clicks\":1.5}",
	    "max_clicks" },
	{ "{\"target_url\":\"https://example.com\",\"max_clicks\":"
	    "1000000001}", "max_clicks" },
	{ "{\"target_url\":\"https://example.com\",\"utm\":{\"id\":\"x\"}}",
	    "utm.id" },
	{ "{\"target_url\":\"https://example.com\",\"utm\":{\"source\":1}}",
	    "utm.source" },
	{ "{\"target_url\":\"https://example.com\",\"utm\":[]}", "utm" },
	{ "{\"target_url\":\"https://example.com\",\"password\":\"abc\"}",
	    "password" },
	{ "{\"target_url\":\"https://example.com\",\"password\":1234}",
	    "password" },
};

START_TEST(create_refused)
{
	struct link	 l;
	char		 param[128], code[64];

	param[0] = '\0';
	ck_assert_msg(parse(bad_bodies[_i].body, &l, param, code) == -1,
	    "accepted %s", bad_bodies[_i].body);
	ck_assert_msg(strcmp(param, bad_bodies[_i].param) == 0,
	    "%s: named '%s', not '%s'", bad_bodies[_i].body, param,
	    bad_bodies[_i].param);
}
END_TEST

START_TEST(create_bounds)
{
	struct link	 l;
	struct lz_buf	 b = LZ_BUF_INIT;
	char		 param[128];
	int		 i;

	/* 2048 bytes of URL pass, 2049 do not. */
	lz_buf_puts(&b, "{\"target_url\":\"https://example.com/");
	for (i = 0; i < 2048 - 20; i++)
		lz_buf_putc(&b, 'a');
	lz_buf_puts(&b, "\"}");
	ck_assert_int_eq(parse(b.p, &l, param, NULL), 0);
	link_free(&l);
	lz_buf_reset(&b);
	lz_buf_puts(&b, "{\"target_url\":\"https://example.com/");
	for (i = 0; i < 2048 - 19; i++)
		lz_buf_putc(&b, 'a');
	lz_buf_puts(&b, "\"}");
	ck_assert_int_eq(parse(b.p, &l, param, NULL), -1);
	ck_assert_str_eq(param, "target_url");
	/* A 500-character CJK title passes; 501 does not. */
	lz_buf_reset(&b);
	lz_buf_puts(&b, "{\"target_url\":\"https://example.com/\","
	    "\"title\":\"");
	for (i = 0; i < 500; i++)
		lz_buf_puts(&b, "\xe4\xb8\xad");
	lz_buf_puts(&b, "\"}");
	ck_assert_int_eq(parse(b.p, &l, param, NULL), 0);
	link_free(&l);
	b.len -= 2;
	lz_buf_puts(&b, "\xe4\xb8\xad\"}");
	ck_assert_int_eq(parse(b.p, &l, param, NULL), -1);
	ck_assert_str_eq(param, "title");
	/* 10 A/B variants pass, 11 do not. */
	lz_buf_reset(&b);
	lz_buf_puts(&b, "{\"target_url\":\"https://example.com/\","
	    "\"mode\":\"ab\",\"variants\":[");
	for (i = 0; i < 10; i++)
		lz_buf_printf(&b, "%s{\"url\":\"https://v%d.example/\","
		    "\"weight\":10}", i ? "," : "", i);
	lz_buf_puts(&b, "]}");
	ck_assert_int_eq(parse(b.p, &l, param, NULL), 0);
	link_free(&l);
	b.len -= 2;
	lz_buf_puts(&b, ",{\"url\":\"https://v.example/\",\"weight\":1}]}");
	ck_assert_int_eq(parse(b.p, &l, param, NULL), -1);
	ck_assert_str_eq(param, "variants");
	lz_buf_free(&b);
}
END_TEST

START_TEST(representation)
{
	struct link	 l;
	json_t		*j, *s;

	ck_assert_int_eq(parse("{\"target_url\":\"https://example.com/\","
	    "\"slug\":\"abc\",\"max_clicks\":2,\"password\":\"secret\"}", &l,
	    NULL, NULL), 0);
	l.id = 9;
	l.created_at = NOW;
	l.password_hash = xstrdup("$argon2id$...");
	l.clicks = 1;
	j = link_json(&l, "https://s.example", NOW);
	ck_assert_int_eq(json_integer_value(json_object_get(j, "id")), 9);
	ck_assert_str_eq(json_string_value(json_object_get(j, "short_url")),
	    "https://s.example/abc");
	ck_assert_str_eq(json_string_value(json_object_get(j, "mode")),
	    "simple");
	ck_assert(json_is_null(json_object_get(j, "variants")));
	ck_assert(json_is_true(json_object_get(j, "has_password")));
	ck_assert_ptr_null(json_object_get(j, "password"));
	ck_assert_ptr_null(json_object_get(j, "password_hash"));
	ck_assert_str_eq(json_string_value(json_object_get(j, "status")),
	    "active");
	ck_assert_str_eq(json_string_value(json_object_get(j, "created_at")),
	    "2027-01-15T08:00:00Z");
	s = json_object_get(j, "stats");
	ck_assert_int_eq(json_integer_value(json_object_get(s, "clicks")), 1);
	json_decref(j);
	l.clicks = 2;
	j = link_json(&l, "https://s.example", NOW);
	ck_assert_str_eq(json_string_value(json_object_get(j, "status")),
	    "capped");
	json_decref(j);
	l.expires_at = NOW;
	j = link_json(&l, "https://s.example", NOW);
	ck_assert_str_eq(json_string_value(json_object_get(j, "status")),
	    "expired");
	json_decref(j);
	link_free(&l);
}
END_TEST

/* ---- edits (DESIGN 3.9) ------------------------------------------------- */

/* Patches stored (a parsed create body, id 7, password hash "h") with
 * patch; returns 0 with the result in l, or -1 with the error's code and
 * param. */
static int
patch_link(const char *body, const char *patch, struct link *l, char *code,
    char *param)
{
	struct link	 stored;
	struct lz_verr	 e;
	json_t		*p;
	int		 rc;

	ck_assert_int_eq(parse(body, &stored, NULL, NULL), 0);
	stored.id = 7;
	stored.account_id = 3;
	stored.revision = 5;
	stored.password_hash = xstrdup("h");
	p = json_loads(patch, JSON_REJECT_DUPLICATES, NULL);
	ck_assert_msg(p != NULL, "bad test JSON: %s", patch);
	memset(l, 0, sizeof(*l));
	rc = link_parse_patch(&stored, p, NOW, l, &e);
	json_decref(p);
	link_free(&stored);
	if (rc == -1) {
		ck_assert_int_eq(e.status, 400);
		strcpy(code, e.code);
		strcpy(param, e.param);
		link_free(l);
	}
	return rc;
}

#define FULL "{\"target_url\":\"https://example.com/\",\"slug\":\"s\"," \
	"\"title\":\"T\",\"mode\":\"device\",\"variants\":{\"ios\":" \
	"\"https://i.example/\",\"android\":\"https://a.example/\"}," \
	"\"redirect_type\":301,\"og\":{\"title\":\"O\"},\"pixel_fb\":" \
	"\"12345\",\"escape_inapp\":true,\"expires_at\":" \
	"\"2030-01-01T00:00:00.250Z\",\"max_clicks\":9,\"utm\":" \
	"{\"source\":\"x\"}}"

/* link_body gives back what link_parse takes: nothing changes on the
 * way, the millisecond of expires_at included. */
START_TEST(body_roundtrip)
{
	struct link	 a, b;
	struct lz_verr	 e;
	json_t		*j, *ja, *jb;

	ck_assert_int_eq(parse(FULL, &a, NULL, NULL), 0);
	j = link_body(&a);
	ck_assert_ptr_null(json_object_get(j, "slug"));
	ck_assert_ptr_null(json_object_get(j, "password"));
	memset(&b, 0, sizeof(b));
	ck_assert_int_eq(link_parse(j, NOW, &b, &e), 0);
	json_decref(j);
	ck_assert_int_eq(b.expires_at, a.expires_at);
	b.slug = xstrdup(a.slug);
	ja = link_json(&a, "https://s.example", NOW);
	jb = link_json(&b, "https://s.example", NOW);
	ck_assert(json_equal(ja, jb));
	json_decref(ja);
	json_decref(jb);
	link_free(&a);
	link_free(&b);
}
END_TEST

START_TEST(patch_merges)
{
	struct link	 l;
	char		 code[64], param[128];

	/* Absent keys stay; the identity comes from the stored link. */
	ck_assert_int_eq(patch_link(FULL, "{\"title\":\"New\"}", &l, code,
	    param), 0);
	ck_assert_str_eq(l.title, "New");
	ck_assert_str_eq(l.slug, "s");
	ck_assert_int_eq(l.id, 7);
	ck_assert_int_eq(l.account_id, 3);
	ck_assert_int_eq(l.revision, 5);
	ck_assert_int_eq(l.mode, MODE_DEVICE);
	ck_assert_int_eq(l.redirect_type, 301);
	ck_assert_int_eq(l.max_clicks, 9);
	ck_assert_str_eq(l.password_hash, "h");
	ck_assert_ptr_null(l.password);
	link_free(&l);
	/* null clears: to the defaults of create. */
	ck_assert_int_eq(patch_link(FULL, "{\"title\":null,\"og\":null,"
	    "\"redirect_type\":null,\"max_clicks\":null,\"password\":null,"
	    "\"expires_at\":null,\"pixel_fb\":null}", &l, code, param), 0);
	ck_assert_ptr_null(l.title);
	ck_assert_ptr_null(l.og);
	ck_assert_ptr_null(l.pixel[PIXEL_FB]);
	ck_assert_ptr_null(l.password_hash);
	ck_assert_int_eq(l.redirect_type, 302);
	ck_assert_int_eq(l.max_clicks, 0);
	ck_assert_int_eq(l.expires_at, 0);
	link_free(&l);
	/* Objects merge member by member. */
	ck_assert_int_eq(patch_link(FULL, "{\"variants\":{\"ios\":null,"
	    "\"desktop\":\"https://d.example/\"},\"utm\":{\"medium\":"
	    "\"m\"}}", &l, code, param), 0);
	ck_assert_ptr_null(json_object_get(l.variants, "ios"));
	ck_assert_str_eq(json_string_value(json_object_get(l.variants,
	    "android")), "https://a.example/");
	ck_assert_str_eq(json_string_value(json_object_get(l.variants,
	    "desktop")), "https://d.example/");
	ck_assert_uint_eq(json_object_size(l.utm), 2);
	link_free(&l);
	/* A new password is to be hashed. */
	ck_assert_int_eq(patch_link(FULL, "{\"password\":\"open sesame\"}", &l,
	    code, param), 0);
	ck_assert_str_eq(l.password, "open sesame");
	ck_assert_ptr_null(l.password_hash);
	link_free(&l);
	/* Back to simple: variants go with the mode. */
	ck_assert_int_eq(patch_link(FULL, "{\"mode\":null,\"variants\":null}",
	    &l, code, param), 0);
	ck_assert_int_eq(l.mode, MODE_SIMPLE);
	ck_assert_ptr_null(l.variants);
	link_free(&l);
}
END_TEST

/* An expired link stays editable: its passed expiry, kept, stands; a
 * new one must be ahead. */
START_TEST(patch_expired)
{
	struct link	 stored, l;
	struct lz_verr	 e;
	json_t		*p;

	ck_assert_int_eq(parse(FULL, &stored, NULL, NULL), 0);
	stored.expires_at = NOW - 1000;
	p = json_loads("{\"title\":\"Later\"}", 0, NULL);
	memset(&l, 0, sizeof(l));
	ck_assert_int_eq(link_parse_patch(&stored, p, NOW, &l, &e), 0);
	ck_assert_int_eq(l.expires_at, NOW - 1000);
	ck_assert_int_eq(link_status(&l, NOW), STATUS_EXPIRED);
	link_free(&l);
	json_decref(p);
	p = json_loads("{\"expires_at\":\"2027-01-15T07:00:00Z\"}", 0, NULL);
	ck_assert_int_eq(link_parse_patch(&stored, p, NOW, &l, &e), -1);
	ck_assert_str_eq(e.param, "expires_at");
	link_free(&l);
	json_decref(p);
	link_free(&stored);
}
END_TEST

static const char *const bad_patches[][3] = {
	{ "{\"slug\":\"other\"}", "read_only_field", "slug" },
	{ "{\"slug\":\"s\"}", "read_only_field", "slug" },
	{ "{\"id\":1}", "read_only_field", "id" },
	{ "{\"short_url\":null}", "read_only_field", "short_url" },
	{ "{\"has_password\":false}", "read_only_field", "has_password" },
	{ "{\"status\":\"active\"}", "read_only_field", "status" },
	{ "{\"created_at\":null}", "read_only_field", "created_at" },
	{ "{\"stats\":{}}", "read_only_field", "stats" },
	{ "{\"zz\":null}", "unknown_field", "zz" },
	{ "{\"target_url\":null}", "missing_field", "target_url" },
	{ "{\"target_url\":\"ftp://x.example/\"}", "unsafe_destination",
	  "target_url" },
	{ "{\"mode\":\"ab\"}", "invalid_field", "variants" },
	{ "{\"mode\":null}", "invalid_field", "variants" },
	{ "{\"variants\":{\"tv\":\"https://t.example/\"}}", "unknown_field",
	  "variants.tv" },
	{ "{\"variants\":{\"ios\":null,\"android\":null}}", "invalid_field",
	  "variants" },
	{ "{\"pixel_ga\":\"nope\"}", "invalid_field", "pixel_ga" },
	{ "{\"utm\":{\"zz\":\"a\"}}", "unknown_field", "utm.zz" },
	{ "{\"expires_at\":\"2001-01-01T00:00:00Z\"}", "invalid_field",
	  "expires_at" },
	{ "{\"password\":\"abc\"}", "invalid_field", "password" },
	{ "{\"title\":5}", "invalid_field", "title" },
};

START_TEST(patch_refused)
{
	struct link	 l;
	char		 code[64], param[128];

	ck_assert_msg(patch_link(FULL, bad_patches[_i][0], &l, code, param) ==
	    -1, "%s", bad_patches[_i][0]);
	ck_assert_str_eq(code, bad_patches[_i][1]);
	ck_assert_str_eq(param, bad_patches[_i][2]);
}
END_TEST

/* Tags: trimmed, checked, folded the Unicode way (tag.h). */
START_TEST(tags_fold)
{
	char	 name[TAG_BYTES], fold[TAG_FOLD_BYTES], why[128];
	char	 big[TAG_BYTES + 8];

	ck_assert_int_eq(tag_parse("  Spring Sale  ", name, fold, why,
	    sizeof(why)), 0);
	ck_assert_str_eq(name, "Spring Sale");
	ck_assert_str_eq(fold, "spring sale");
	/* ß folds to ss, ẞ too; Greek final sigma to sigma. */
	ck_assert_int_eq(tag_parse("STRASSE", name, fold, why, sizeof(why)), 0);
	ck_assert_str_eq(fold, "strasse");
	ck_assert_int_eq(tag_parse("Straße", name, fold, why, sizeof(why)), 0);
	ck_assert_str_eq(fold, "strasse");
	ck_assert_int_eq(tag_parse("ΣΟΦΟΣ", name, fold, why, sizeof(why)), 0);
	ck_assert_str_eq(fold, "σοφοσ");
	ck_assert_int_eq(tag_parse("σοφος", name, fold, why, sizeof(why)), 0);
	ck_assert_str_eq(fold, "σοφοσ");
	/* Any script's letters and their marks; digits, - _ . and space. */
	ck_assert_int_eq(tag_parse("新品 2026_v1.2-b", name, fold, why,
	    sizeof(why)), 0);
	ck_assert_int_eq(tag_parse("cafe\xcc\x81", name, fold, why,
	    sizeof(why)), 0);
	/* Refused: empty, punctuation, controls, bad UTF-8, too long. */
	ck_assert_int_eq(tag_parse("   ", name, fold, why, sizeof(why)), -1);
	ck_assert_int_eq(tag_parse("a/b", name, fold, why, sizeof(why)), -1);
	ck_assert_int_eq(tag_parse("a,b", name, fold, why, sizeof(why)), -1);
	ck_assert_int_eq(tag_parse("a\tb", name, fold, why, sizeof(why)), -1);
	ck_assert_int_eq(tag_parse("a\xff" "b", name, fold, why, sizeof(why)),
	    -1);
	memset(big, 'x', 64);
	big[64] = '\0';
	ck_assert_int_eq(tag_parse(big, name, fold, why, sizeof(why)), 0);
	big[64] = 'x';
	big[65] = '\0';
	ck_assert_int_eq(tag_parse(big, name, fold, why, sizeof(why)), -1);
	/* 64 characters of three bytes each fit. */
	big[0] = '\0';
	for (int i = 0; i < 64; i++)
		strcat(big, "\xe6\x96\xb0");
	ck_assert_int_eq(tag_parse(big, name, fold, why, sizeof(why)), 0);
}
END_TEST

static Suite *
suite(void)
{
	Suite	*s = suite_create("links");
	TCase	*t = tcase_create("all");

	tcase_add_test(t, keys_roundtrip);
	tcase_add_test(t, keys_refused);
	tcase_add_test(t, slugs);
	tcase_add_test(t, create_defaults);
	tcase_add_test(t, create_full);
	tcase_add_loop_test(t, create_refused, 0, LZ_NELEM(bad_bodies));
	tcase_add_test(t, create_bounds);
	tcase_add_test(t, representation);
	tcase_add_test(t, body_roundtrip);
	tcase_add_test(t, patch_merges);
	tcase_add_test(t, patch_expired);
	tcase_add_test(t, tags_fold);
	tcase_add_loop_test(t, patch_refused, 0, LZ_NELEM(bad_patches));
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	SRunner	*sr;
	int	 failed;

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
