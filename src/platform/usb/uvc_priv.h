/* SPDX-License-Identifier: MIT */
#pragma once
/*
 * Between uvc.c (which sees descriptors.h) and uvc_calc.c (which sees
 * limits.h): the two headers name their transfer types alike, so no file
 * includes both.
 */
#include "platform/usb/uvc.h"

/* Fill a's figures at speed s from usb_uvc_calc; NaN and a->why when it refuses. */
void uvc_alt_compute(enum usb_speed s, struct uvc_alt *a);
/* The bulk payload ceiling of one endpoint at s (usb_bulk_payload_Bps). */
double uvc_bulk_ceiling_Bps(enum usb_speed s);
