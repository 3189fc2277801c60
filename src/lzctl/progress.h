/*
 * progress.h -- how far long lzctl work is, on a terminal.
 *
 * When standard error is a terminal, progress() rewrites one line there
 * (with \r) at most four times a second, and progress_end() leaves a
 * final line ("WHAT (2.5 s)", WHAT saying how it ended); otherwise both print nothing, so cron and scripts see only
 * what the command prints when it ends.  progress() is an
 * lz_progress_fn (util.h): the libraries doing the work (an import, a
 * copy) take it and call it as they go.
 *
 * What cannot report (one SQLite backup step copying a whole database)
 * is followed from outside: progress_reads() starts a thread that shows
 * the bytes the process has read since (/proc/self/io) against the size
 * being copied, until progress_end().
 */
#ifndef LZ_PROGRESS_H
#define LZ_PROGRESS_H

#include <stdint.h>

void	progress(const char *step, uint64_t done, uint64_t total);
void	progress_reads(const char *step, uint64_t total);
void	progress_end(const char *what);
/* Ends the line shown, if any, where it is: before a message (ctl_err). */
void	progress_break(void);

#endif
