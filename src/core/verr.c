/*
 * verr.c -- validation failures (verr.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "verr.h"

void
lz_verr_set(struct lz_verr *e, int status, const char *code,
    const char *param, const char *fmt, ...)
{
	va_list	 ap;

	e->status = status;
	snprintf(e->code, sizeof(e->code), "%s", code);
	snprintf(e->param, sizeof(e->param), "%s", param ? param : "");
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}
