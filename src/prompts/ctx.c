/*
 * ctx.c -- the process-wide state of the prompt library (prompts.h).
 */
#include "config.h"

#include "prompts.h"

struct prompts_ctx	prompts;
