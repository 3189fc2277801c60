/*
 * verr.h -- a validation failure: what a pure parser (query.c, jbody.c,
 * the services' validators) found wrong with its input, as the parts of
 * the DESIGN 3.1 error body that lz_resp_verr() (resp.h) then answers.
 * Types and one setter, nothing of a request: parsers that fill one
 * need no FastCGI, so unit tests and fuzzers call them as they are.
 */
#ifndef LZ_VERR_H
#define LZ_VERR_H

#include "cdefs.h"

struct lz_verr {
	int	 status;		/* HTTP status, normally 400 */
	char	 code[48];		/* snake_case error code */
	char	 param[128];		/* the field at fault, or "" */
	char	 msg[256];		/* a human sentence */
};

void	lz_verr_set(struct lz_verr *, int status, const char *code,
	    const char *param, const char *fmt, ...) LZ_PRINTF(5, 6);

#endif
