/*
 * lztime.h -- wall-clock time in milliseconds since the epoch, and
 * ISO 8601 parsing and formatting (UTC).
 */
#ifndef LZ_TIME_H
#define LZ_TIME_H

#include <stddef.h>
#include <stdint.h>

#define LZ_HOUR_MS	3600000LL
#define LZ_DAY_MS	86400000LL

int64_t	lz_now_ms(void);
/* Monotonic clock, in microseconds, for durations. */
int64_t	lz_mono_us(void);

/*
 * Parses an ISO 8601 date-time with a mandatory offset, "Z" or "+HH:MM"
 * (or "+HHMM"): YYYY-MM-DDTHH:MM[:SS[.fraction]]<offset>.  'T' may be a
 * space or lower-case 't'/'z'.  Years 1970-9999, both of the date written
 * and of the instant in UTC.  Returns 0 and the time in ms, or -1.
 */
int	lz_time_parse_iso(const char *s, int64_t *ms);

/* Formats ms as "YYYY-MM-DDTHH:MM:SSZ", or with ".mmm" when with_ms. */
void	lz_time_fmt_iso(int64_t ms, char *buf, size_t len, int with_ms);

/* "YYYY-MM-DD" of the UTC day of ms. */
void	lz_time_fmt_date(int64_t ms, char *buf, size_t len);

/* Start of the UTC month of ms, and of the following month, in ms. */
int64_t	lz_month_start(int64_t ms);
int64_t	lz_month_next(int64_t ms);

#endif
