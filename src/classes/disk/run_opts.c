// SPDX-License-Identifier: MIT
/* The disk class's own options of `usbperf run`: parsed by run from this table (class.h). */
#include "classes/disk/run_opts.h"
#include "classes/disk/run_disk.h"
#include "platform/sys/safety.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>

static const struct disk_run_opts *dopts(const struct run_options *o)
{
	return run_class_opts(o, &run_class_disk);
}

static int set_scratch(void *opts, char *const *words, char **ret_why)
{
	struct disk_run_opts *d = opts;

	if (!*words[0]) {
		*ret_why = xstrdup("invalid --scratch '': expected a directory");
		return -EINVAL;
	}
	d->scratch = words[0];
	return 0;
}

static int set_min_time(void *opts, char *const *words, char **ret_why)
{
	struct disk_run_opts *d = opts;
	struct strbuf why = STRBUF_INIT;

	if (parse_duration(words[0], 0, 3600, &d->min_time_s) < 0) {
		strbuf_addf(&why, "invalid --min-time '%s': expected a duration from 0 to 1h",
			    words[0]);
		*ret_why = strbuf_detach(&why);
		return -EINVAL;
	}
	d->min_time_set = true;
	return 0;
}

const struct class_option disk_run_options[DISK_RUN_NOPTIONS] = {
    {"scratch", "DIR", 1, false, "the host's test directory without USB (default /var/tmp)",
     set_scratch},
    {"min-time", "SECONDS", 1, false,
     "minimum time of a disk pass: the region is gone over again\n"
     "until it has passed (default 1 quick, 2 full; 0: none)",
     set_min_time},
};

const char *disk_run_scratch(const struct run_options *o)
{
	const struct disk_run_opts *d = dopts(o);

	return d && d->scratch ? d->scratch : "/var/tmp";
}

double disk_run_min_time(const struct run_options *o)
{
	const struct disk_run_opts *d = dopts(o);

	if (d && d->min_time_set)
		return d->min_time_s;
	return o->full ? DISK_FULL_MIN_TIME_S : DISK_QUICK_MIN_TIME_S;
}

int disk_run_check_options(const struct run_options *o, char **ret_why)
{
	const struct disk_run_opts *d = dopts(o);
	struct strbuf why = STRBUF_INIT;

	if (!d || !d->scratch || safety_check_dir(d->scratch, 0, ret_why) == 0)
		return 0;
	strbuf_addf(&why, "--scratch: %s", *ret_why);
	free(*ret_why);
	*ret_why = strbuf_detach(&why);
	return -EINVAL;
}
