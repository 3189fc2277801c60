/*
 * ctx.c -- the process-wide state of the link service (links.h).
 */
#include "config.h"

#include "ctx.h"

struct links_ctx	links;
