// SPDX-License-Identifier: MIT
/* usbperf mtp built without libmtp (the static build: Debian ships no libmtp.a). */
#include "classes/mtp/mtp.h"

#include <errno.h>

bool mtp_available(void)
{
	return false;
}

int mtp_detect(struct mtp_raw **ret_v, size_t *ret_n, char *why, size_t why_len)
{
	(void)ret_v;
	(void)ret_n;
	(void)why;
	(void)why_len;
	return -EOPNOTSUPP;
}

void mtp_devinfo_release(struct mtp_devinfo *d)
{
	(void)d;
}

int mtp_open(const struct mtp_raw *dev, struct mtp_session **ret, struct mtp_devinfo *info,
	     char *why, size_t why_len)
{
	(void)dev;
	(void)ret;
	(void)info;
	(void)why;
	(void)why_len;
	return -EOPNOTSUPP;
}

int mtp_use_folder(struct mtp_session *s, uint32_t storage, const char *name, bool *ret_created,
		   char *why, size_t why_len)
{
	(void)s;
	(void)storage;
	(void)name;
	(void)ret_created;
	(void)why;
	(void)why_len;
	return -EOPNOTSUPP;
}

int mtp_transfer(struct mtp_session *s, struct mtp_size_result *r, uint32_t seed, char *why,
		 size_t why_len)
{
	(void)s;
	(void)r;
	(void)seed;
	(void)why;
	(void)why_len;
	return -EOPNOTSUPP;
}

int mtp_objects(struct mtp_session *s, struct mtp_objects_result *r, char *why, size_t why_len)
{
	(void)s;
	(void)r;
	(void)why;
	(void)why_len;
	return -EOPNOTSUPP;
}

void mtp_send_path(const struct mtp_session *s, struct mtp_path *ret)
{
	(void)s;
	*ret = (struct mtp_path){.place = MTP_PLACE_NONE};
}

unsigned mtp_cleanup(struct mtp_session *s)
{
	(void)s;
	return 0;
}

void mtp_close(struct mtp_session *s)
{
	(void)s;
}
