/*
 * ctx.c -- the process-wide state of the link service (ctx.h).
 */
#include "config.h"

#include "ctx.h"

struct links_ctx	links;
