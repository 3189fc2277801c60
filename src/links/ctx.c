/*
 * ctx.c -- the process-wide state of the link service (links.h).
 */
#include "config.h"

#include "links.h"

struct links_ctx	links;
