// SPDX-License-Identifier: MIT
/* MJPG frames through libjpeg(-turbo): YUYV rows to YCbCr scanlines, encoded in memory. */
#include "classes/uvcgadget/uvcg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <jpeglib.h>

bool uvcg_have_jpeg(void)
{
	return true;
}

int uvcg_jpeg_encode(const uint8_t *yuyv, struct uvcg_size s, int quality, uint8_t **ret,
		     size_t *ret_len)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	unsigned char *out = NULL;
	unsigned long out_len = 0;
	uint8_t *line = malloc((size_t)s.width * 3);
	unsigned x;

	if (!line)
		return -ENOMEM;
	/* libjpeg's error handler exits: nothing here can fail but memory, checked above */
	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &out, &out_len);
	c.image_width = s.width;
	c.image_height = s.height;
	c.input_components = 3;
	c.in_color_space = JCS_YCbCr;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, quality, TRUE);
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < c.image_height) {
		const uint8_t *row = yuyv + (size_t)c.next_scanline * s.width * 2;
		JSAMPROW rows[1] = {line};

		for (x = 0; x + 1 < s.width; x += 2) {
			const uint8_t *q = row + 2 * x;

			line[3 * x] = q[0], line[3 * x + 1] = q[1], line[3 * x + 2] = q[3];
			line[3 * x + 3] = q[2], line[3 * x + 4] = q[1], line[3 * x + 5] = q[3];
		}
		jpeg_write_scanlines(&c, rows, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	free(line);
	*ret = out;
	*ret_len = out_len;
	return 0;
}
