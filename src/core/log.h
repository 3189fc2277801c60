/*
 * log.h -- one line per event on stderr (the pool's supervisor, systemd
 * or spawn-fcgi decide where stderr goes).  Each line is written with a
 * single write(2) so lines from several workers never interleave.
 */
#ifndef LZ_LOG_H
#define LZ_LOG_H

#include "cdefs.h"

enum lz_loglevel {
	LZ_LOG_ERR = 0,
	LZ_LOG_WARN,
	LZ_LOG_INFO,
	LZ_LOG_DEBUG
};

void	lz_log_open(const char *progname, int level);
void	lz_log_level(int level);
int	lz_log_enabled(int level);
/* Parses "error", "warn", "info", "debug"; returns -1 when unknown. */
int	lz_log_parse_level(const char *);
void	lz_log(int level, const char *fmt, ...) LZ_PRINTF(2, 3);

#endif
