/*
 * fuzz_conv.c -- conversion reports as /api/conv sees them: the input as
 * an amount (amount_parse, then back through amount_fmt and amount_json),
 * as a currency, as a POST body (json_loadb as lz_req_json calls it, the
 * raw number scanner on any bytes, conv_report_json), and as the pixel's
 * query string (conv_report_query).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "link/link.h"
#include "query.h"
#include "req.h"
#include "resp.h"
#include "stats/amount.h"
#include "stats/conversion.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* An amount's promises: in range, and it reads back from its decimal
 * and from its JSON.  Whole amounts are JSON integers. */
static void
amount_check(int64_t v)
{
	char		 buf[AMOUNT_TEXT_MAX], *s;
	const char	*why;
	json_t		*a;
	int64_t		 back;
	size_t		 len;

	if (v < 0 || v > AMOUNT_MAX)
		abort();
	amount_fmt(v, buf);
	if (amount_parse(buf, strlen(buf), &back, &why) == -1 || back != v)
		abort();
	a = json_array();
	json_array_append_new(a, amount_json(v));
	s = lz_json_dump(a, &len);
	if (len < 3 || amount_parse(s + 1, len - 2, &back, &why) == -1 ||
	    back != v)
		abort();
	free(s);
	json_decref(a);
}

static void
report_check(const struct conv_report *rep)
{
	if (!slug_valid(rep->slug))
		abort();
	if (rep->has_value)
		amount_check(rep->value);
	else if (rep->value != 0)
		abort();
	if (rep->currency[0] != '\0' && (strlen(rep->currency) != 3 ||
	    strspn(rep->currency, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 3))
		abort();
	if (rep->suffix[0] != '\0' && !suffix_valid(rep->suffix))
		abort();
}

static void
body(const char *text, size_t size)
{
	struct conv_report	 rep;
	struct lz_verr		 e;
	json_error_t		 je;
	json_t			*j, *n, *v;
	const char		*num;
	size_t			 numlen;
	int			 rc;

	/* The scanner takes any bytes and stays inside them. */
	rc = conv_json_number(text, size, "value", &num, &numlen);
	if (rc == 1 && (num < text || num + numlen > text + size ||
	    numlen == 0))
		abort();
	if ((j = json_loadb(text, size, JSON_REJECT_DUPLICATES, &je)) == NULL)
		return;
	if (!json_is_object(j))
		goto out;
	/* On valid JSON it finds exactly the number Jansson read. */
	v = json_object_get(j, "value");
	rc = conv_json_number(text, size, "value", &num, &numlen);
	if (json_is_number(v)) {
		if (rc != 1)
			abort();
		n = json_loadb(num, numlen, JSON_DECODE_ANY, NULL);
		if (n == NULL || !json_is_number(n) ||
		    json_number_value(n) != json_number_value(v))
			abort();
		json_decref(n);
	} else if (rc != 0)
		abort();
	memset(&e, 0, sizeof(e));
	if (conv_report_json(j, text, size, &rep, &e) == 0)
		report_check(&rep);
	else if (e.status != 400 || e.code[0] == '\0' || (e.param[0] ==
	    '\0' && strcmp(e.code, "unknown_field") != 0))	/* key "" */
		abort();
out:
	json_decref(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct conv_report	 rep;
	struct lz_query		 q;
	struct lz_verr		 e;
	const char		*why;
	char			*s, cur[4];
	int64_t			 v;

	if (amount_parse((const char *)data, size, &v, &why) == 0)
		amount_check(v);
	else if (why == NULL)
		abort();

	s = malloc(size + 1);
	if (s == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (amount_currency(s, cur) == 0 && (strlen(cur) != 3 ||
	    strspn(cur, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != 3))
		abort();
	if (lz_query_parse(s, &q, &e) == 0) {
		if (conv_report_query(&q, &rep, &e) == 0)
			report_check(&rep);
		else if (e.status != 400)
			abort();
		lz_query_free(&q);
	}
	free(s);

	body((const char *)data, size);
	return 0;
}
