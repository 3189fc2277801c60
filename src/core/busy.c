/*
 * busy.c -- contention noted per thread (busy.h).
 */
#include "config.h"

#include "busy.h"

static _Thread_local int	 busy;

void
lz_busy_note(void)
{
	busy = 1;
}

int
lz_busy_take(void)
{
	int	 was = busy;

	busy = 0;
	return was;
}
