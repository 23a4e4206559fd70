// SPDX-License-Identifier: MIT
#include "util/utctime.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* n digits at s as a number, or -1 */
static int digits(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/*
 * Fields out of a fixed pattern ('9' a digit, anything else itself); timegm
 * normalises Feb 30 into March, so the result must map back to the fields.
 */
static int parse_pattern(const char *s, const char *pattern, time_t *ret)
{
	struct tm tm = {0}, want, back;
	time_t t;

	if (strlen(s) != strlen(pattern))
		return -EINVAL;
	for (size_t i = 0; pattern[i]; i++)
		if (pattern[i] == '9' ? !isdigit((unsigned char)s[i]) : s[i] != pattern[i])
			return -EINVAL;
	tm.tm_year = digits(s, 4) - 1900;
	tm.tm_mon = digits(s + 5, 2) - 1;
	tm.tm_mday = digits(s + 8, 2);
	if (strlen(pattern) > 10) {
		tm.tm_hour = digits(s + 11, 2);
		tm.tm_min = digits(s + 14, 2);
		tm.tm_sec = digits(s + 17, 2);
	}
	if (tm.tm_year < 70 || tm.tm_sec > 59)
		return -EINVAL;
	want = tm; /* timegm normalises its argument */
	t = timegm(&tm);
	if (t == (time_t)-1 || !gmtime_r(&t, &back))
		return -EINVAL;
	if (back.tm_year != want.tm_year || back.tm_mon != want.tm_mon ||
	    back.tm_mday != want.tm_mday || back.tm_hour != want.tm_hour ||
	    back.tm_min != want.tm_min)
		return -EINVAL;
	*ret = t;
	return 0;
}

int utc_time_parse(const char *s, time_t *ret)
{
	if (!s)
		return -EINVAL;
	return parse_pattern(s, "9999-99-99T99:99:99Z", ret);
}

int utc_date_parse(const char *s, time_t *ret, bool *ret_day)
{
	time_t t;

	if (!s)
		return -EINVAL;
	if (parse_pattern(s, "9999-99-99", &t) == 0) {
		*ret = t;
		*ret_day = true;
		return 0;
	}
	if (utc_time_parse(s, &t) < 0)
		return -EINVAL;
	*ret = t;
	*ret_day = false;
	return 0;
}

void utc_time_format(time_t t, char buf[UTC_TIME_LEN + 1])
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, UTC_TIME_LEN + 1, "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
}
