/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * UTC timestamps in the one form the history stores them in,
 * "YYYY-MM-DDTHH:MM:SSZ": fixed width, so that text order is time order and
 * the database can filter dates with plain string comparison.
 */
#include <stdbool.h>
#include <time.h>

#define UTC_TIME_LEN 20

/* The canonical form only; 0 or -EINVAL (also for dates that do not exist). */
int utc_time_parse(const char *s, time_t *ret);
/* The canonical form, or a day "YYYY-MM-DD" (midnight UTC; *ret_day set). */
int utc_date_parse(const char *s, time_t *ret, bool *ret_day);
void utc_time_format(time_t t, char buf[UTC_TIME_LEN + 1]);
