// SPDX-License-Identifier: MIT
/* The field tables of the camera function's figures: JSON, text and CSV from one table. */
#include "classes/uvcgadget/uvcg.h"
#include "model/field.h"

#include "classes/uvcgadget/fields.fields.h"

void uvcg_function_describe(const struct uvcg_function *f, struct report *out)
{
	report_add_object(out, "uvc_function", "UVC camera function", &fn_desc, f);
	report_add_table(out, "streams", "streams (commit to stop)", &stream_desc, f->s, f->n,
			 sizeof(f->s[0]));
}
