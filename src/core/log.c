/*
 * log.c -- timestamped log lines on stderr.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "lztime.h"

static const char	*logname = "lz";
static int		 loglevel = LZ_LOG_INFO;

static const char *const levelnames[] = { "error", "warn", "info", "debug" };

void
lz_log_open(const char *progname, int level)
{
	logname = progname;
	loglevel = level;
}

void
lz_log_level(int level)
{
	loglevel = level;
}

int
lz_log_enabled(int level)
{
	return level <= loglevel;
}

int
lz_log_parse_level(const char *s)
{
	size_t	 i;

	for (i = 0; i < LZ_NELEM(levelnames); i++)
		if (strcmp(s, levelnames[i]) == 0)
			return (int)i;
	return -1;
}

void
lz_log(int level, const char *fmt, ...)
{
	char	 line[2048], ts[32];
	va_list	 ap;
	int	 n, m, saved = errno;

	if (level > loglevel)
		return;
	lz_time_fmt_iso(lz_now_ms(), ts, sizeof(ts), 1);
	n = snprintf(line, sizeof(line), "%s %s[%ld] %s: ", ts, logname,
	    (long)getpid(), levelnames[level < 0 ? 0 : level > 3 ? 3 : level]);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		m = 0;
	if ((size_t)(n + m) > sizeof(line) - 2)
		m = (int)(sizeof(line) - 2) - n;
	line[n + m] = '\n';
	(void)!write(STDERR_FILENO, line, (size_t)(n + m + 1));
	errno = saved;
}
