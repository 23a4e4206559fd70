// SPDX-License-Identifier: MIT
/* Built without libjpeg: no MJPG frames (the format is refused before anything is made). */
#include "classes/uvcgadget/uvcg.h"

#include <errno.h>

bool uvcg_have_jpeg(void)
{
	return false;
}

int uvcg_jpeg_encode(const uint8_t *yuyv, struct uvcg_size s, int quality, uint8_t **ret,
		     size_t *ret_len)
{
	(void)yuyv, (void)s, (void)quality, (void)ret, (void)ret_len;
	return -ENOTSUP;
}
