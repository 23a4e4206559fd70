// SPDX-License-Identifier: MIT
/* The field tables of the camera function's figures: JSON, text and CSV from one table. */
#include "classes/uvcgadget/uvcg.h"
#include "model/field.h"

#define T FF_TEXT
#define F struct uvcg_function
static const struct field fn_fields[] = {
    FIELD(F, state, "state", "state", NULL, FT_STR, 0, T),
    FIELD(F, udc, "udc", "UDC", NULL, FT_STR, 0, T),
    FIELD(F, speed, "speed", "speed", NULL, FT_STR, 0, T),
    FIELD(F, connects, "connects", "connects", NULL, FT_U64, 0, T),
    FIELD(F, setups, "setups", "control requests", NULL, FT_U64, 0, T),
    FIELD(F, class_requests, "class_requests", "UVC requests", NULL, FT_U64, 0, T),
    FIELD(F, stalls, "stalls", "stalled", NULL, FT_U64, 0, T),
    FIELD(F, probes, "probes", "probes", NULL, FT_U64, 0, T),
    FIELD(F, commits, "commits", "commits", NULL, FT_U64, 0, T),
    FIELD(F, streams, "streams", "streams", NULL, FT_U64, 0, T),
    FIELD(F, brightness, "brightness", "brightness", NULL, FT_INT, 0, 0),
    FIELD(F, contrast, "contrast", "contrast", NULL, FT_INT, 0, 0),
};
#undef F
#define S struct uvcg_stats
static const struct field stream_fields[] = {
    FIELD(S, stream, "stream", "stream", NULL, FT_U64, 0, T),
    FIELD(S, fourcc, "fourcc", "format", NULL, FT_STR, 0, T),
    FIELD(S, width, "width", "width", NULL, FT_U64, 0, T),
    FIELD(S, height, "height", "height", NULL, FT_U64, 0, T),
    FIELD(S, interval_100ns, "interval_100ns", "interval", "100 ns", FT_U64, 0, 0),
    FIELD(S, nominal_fps, "nominal_fps", "committed", "fps", FT_DBL, 3, T),
    FIELD(S, max_payload, "max_payload_bytes", "max payload", "B", FT_U64, 0, T),
    FIELD(S, frames, "frames", "made", NULL, FT_U64, 0, T),
    FIELD(S, sent, "sent", "sent", NULL, FT_U64, 0, T),
    FIELD(S, late, "late", "late", NULL, FT_U64, 0, T),
    FIELD(S, aborted, "aborted", "cut off", NULL, FT_U64, 0, T),
    FIELD(S, payloads, "payloads", "payloads", NULL, FT_U64, 0, T),
    FIELD(S, zlps, "zlps", "ZLPs", NULL, FT_U64, 0, 0),
    FIELD(S, data_bytes, "data_bytes", "data", "B", FT_U64, 0, 0),
    FIELD(S, header_bytes, "header_bytes", "headers", "B", FT_U64, 0, 0),
    FIELD(S, frame_bytes_mean, "frame_bytes_mean", "frame", "B", FT_DBL, 0, T),
    FIELD(S, seconds, "seconds", "time", "s", FT_DBL, 3, T),
    FIELD(S, fps, "fps", "sent", "fps", FT_DBL, 3, T),
    FIELD(S, mb_s, "mb_s", "data", "MB/s", FT_DBL, 3, T),
    FIELD(S, cpu_pct, "cpu_pct", "CPU", UNIT_PCT_ONE_CPU, FT_DBL, 1, T),
    FIELD(S, cpu_us_per_frame, "cpu_us_per_frame", "CPU/frame", "us", FT_DBL, 1, T),
    FIELD(S, make_s, "make_s", "frames made in", "s", FT_DBL, 3, 0),
    FIELD(S, running, "running", "running", NULL, FT_BOOL, 0, 0),
    FIELD(S, ended, "ended", "ended", NULL, FT_STR, 0, T),
};
#undef S
static const struct record_desc fn_desc = RECORD_DESC("uvc_function", fn_fields);
static const struct record_desc stream_desc = RECORD_DESC("uvc_stream", stream_fields);

void uvcg_function_describe(const struct uvcg_function *f, struct report *out)
{
	report_add_object(out, "uvc_function", "UVC camera function", &fn_desc, f);
	report_add_table(out, "streams", "streams (commit to stop)", &stream_desc, f->s, f->n,
			 sizeof(f->s[0]));
}
