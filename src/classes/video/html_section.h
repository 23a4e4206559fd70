/* SPDX-License-Identifier: MIT */
#pragma once
/* The video class's charts in the HTML report (html_section.c). */
#include "report/model.h"
#include "util/strbuf.h"

/* a camera's: nominal vs achieved fps per mode, the frame interval histogram; nothing without fps */
void video_html_section(struct strbuf *out, const struct report_model *m,
			const struct rm_device *d);
