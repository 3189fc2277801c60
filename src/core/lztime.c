/*
 * lztime.c -- clocks and ISO 8601.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "lztime.h"

int64_t
lz_now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
lz_mono_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#define ISO_MAX_S	253402300799LL	/* 9999-12-31T23:59:59Z */

static int
digits(const char **p, int n, int *out)
{
	int	 v = 0;

	while (n-- > 0) {
		if (**p < '0' || **p > '9')
			return -1;
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	*out = v;
	return 0;
}

static int
is_leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant). */
static int64_t
days_from_civil(int y, int m, int d)
{
	int64_t	 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int
lz_time_parse_iso(const char *s, int64_t *ms)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
	    30, 31 };
	const char	*p = s;
	int		 y, mo, d, h, mi, sec = 0, frac = 0, oh = 0, om = 0;
	int		 sign = 0, dim, nfrac;
	int64_t		 t;

	if (s == NULL || strlen(s) > 40)
		return -1;
	if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) ||
	    *p++ != '-' || digits(&p, 2, &d))
		return -1;
	if (*p != 'T' && *p != 't' && *p != ' ')
		return -1;
	p++;
	if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi))
		return -1;
	if (*p == ':') {
		p++;
		if (digits(&p, 2, &sec))
			return -1;
		if (*p == '.' || *p == ',') {
			p++;
			for (nfrac = 0; *p >= '0' && *p <= '9'; p++, nfrac++) {
				if (nfrac < 3)
					frac = frac * 10 + (*p - '0');
				if (nfrac > 9)
					return -1;
			}
			if (nfrac == 0)
				return -1;
			for (; nfrac < 3; nfrac++)
				frac *= 10;
		}
	}
	if (*p == 'Z' || *p == 'z') {
		p++;
	} else if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (digits(&p, 2, &oh))
			return -1;
		if (*p == ':')
			p++;
		if (digits(&p, 2, &om))
			return -1;
		if (oh > 23 || om > 59)
			return -1;
	} else
		return -1;
	if (*p != '\0')
		return -1;
	if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1)
		return -1;
	dim = mdays[mo - 1] + (mo == 2 && is_leap(y));
	if (d > dim || h > 23 || mi > 59 || sec > 59)
		return -1;
	t = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec;
	t -= (int64_t)sign * (oh * 3600 + om * 60);
	/* The instant itself must lie in 1970..9999 UTC, or its own
	 * formatting ("10000-01-01T...Z") would not parse back. */
	if (t < 0 || t > ISO_MAX_S)
		return -1;
	*ms = t * 1000 + frac;
	return 0;
}

void
lz_time_fmt_iso(int64_t ms, char *buf, size_t len, int with_ms)
{
	struct tm	 tm;
	time_t		 t = (time_t)(ms / 1000);

	gmtime_r(&t, &tm);
	if (with_ms)
		snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec, (int)(ms % 1000));
	else
		snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02dZ",
		    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		    tm.tm_min, tm.tm_sec);
}

void
lz_time_fmt_date(int64_t ms, char *buf, size_t len)
{
	struct tm	 tm;
	time_t		 t = (time_t)(ms / 1000);

	gmtime_r(&t, &tm);
	snprintf(buf, len, "%04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1,
	    tm.tm_mday);
}

int64_t
lz_month_start(int64_t ms)
{
	struct tm	 tm;
	time_t		 t = (time_t)(ms / 1000);

	gmtime_r(&t, &tm);
	return days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1, 1) * 86400000;
}

int64_t
lz_month_next(int64_t ms)
{
	struct tm	 tm;
	time_t		 t = (time_t)(ms / 1000);
	int		 y, m;

	gmtime_r(&t, &tm);
	y = tm.tm_year + 1900;
	m = tm.tm_mon + 2;
	if (m > 12) {
		m = 1;
		y++;
	}
	return days_from_civil(y, m, 1) * 86400000;
}
