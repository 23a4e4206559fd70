// SPDX-License-Identifier: MIT
#include "platform/usb/speed.h"

#include <errno.h>
#include <string.h>

static const struct speed_row {
	const char *sysfs; /* the kernel's "speed" text */
	unsigned lanes;
	double mbps;
	const char *name, *label;
	const char *word; /* the specifications' */
} speeds[USB_SPEED_COUNT] = {
    [USB_SPEED_UNKNOWN] = {NULL, 0, 0, "unknown", "unknown speed", "unknown speed"},
    [USB_SPEED_LOW] = {"1.5", 1, 1.5, "low", "low-speed (1.5M)", "low-speed"},
    [USB_SPEED_FULL] = {"12", 1, 12, "full", "full-speed (12M)", "full-speed"},
    [USB_SPEED_HIGH] = {"480", 1, 480, "high", "high-speed (480M)", "high-speed"},
    [USB_SPEED_SS] = {"5000", 1, 5000, "super", "SuperSpeed Gen 1 (5G)", "SuperSpeed"},
    [USB_SPEED_SSP_G1X2] = {"10000", 2, 10000, "gen1x2", "SuperSpeed+ Gen 1x2 (10G)",
			    "SuperSpeedPlus"},
    [USB_SPEED_SSP_G2X1] = {"10000", 1, 10000, "gen2x1", "SuperSpeed+ Gen 2x1 (10G)",
			    "SuperSpeedPlus"},
    [USB_SPEED_SSP_G2X2] = {"20000", 2, 20000, "gen2x2", "SuperSpeed+ Gen 2x2 (20G)",
			    "SuperSpeedPlus"},
};

enum usb_speed usb_speed_from_sysfs(const char *speed, unsigned lanes)
{
	int s;

	if (!speed)
		return USB_SPEED_UNKNOWN;
	if (lanes == 0)
		lanes = 1;
	for (s = 1; s < USB_SPEED_COUNT; s++) {
		if (strcmp(speeds[s].sysfs, speed))
			continue;
		/* 10000 is Gen 2x1 on one lane, Gen 1x2 on two */
		if (!strcmp(speed, "10000") && speeds[s].lanes != lanes)
			continue;
		return (enum usb_speed)s;
	}
	/* 20000 reported with an odd lane count: still Gen 2x2 */
	if (!strcmp(speed, "20000"))
		return USB_SPEED_SSP_G2X2;
	return USB_SPEED_UNKNOWN;
}

/* s's row; a value past the table is the unknown speed's */
static const struct speed_row *row(enum usb_speed s)
{
	return &speeds[s < USB_SPEED_COUNT ? s : USB_SPEED_UNKNOWN];
}

double usb_speed_mbps(enum usb_speed s)
{
	return row(s)->mbps;
}

const char *usb_speed_name(enum usb_speed s)
{
	return row(s)->name;
}

const char *usb_speed_label(enum usb_speed s)
{
	return row(s)->label;
}

const char *usb_speed_word(enum usb_speed s)
{
	return row(s)->word;
}

int usb_speed_parse(const char *str, enum usb_speed *ret)
{
	static const struct {
		const char *alias;
		enum usb_speed s;
	} aliases[] = {
		{"ls", USB_SPEED_LOW},	     {"1.5", USB_SPEED_LOW},	      {"fs", USB_SPEED_FULL},
		{"12", USB_SPEED_FULL},	     {"hs", USB_SPEED_HIGH},	      {"480", USB_SPEED_HIGH},
		{"ss", USB_SPEED_SS},	     {"5000", USB_SPEED_SS},	      {"gen1", USB_SPEED_SS},
		{"gen2", USB_SPEED_SSP_G2X1}, {"10000", USB_SPEED_SSP_G2X1}, {"ssp", USB_SPEED_SSP_G2X1},
		{"super-plus", USB_SPEED_SSP_G2X1}, {"20000", USB_SPEED_SSP_G2X2},
	};
	size_t i;
	int s;

	for (s = 1; s < USB_SPEED_COUNT; s++)
		if (!strcmp(str, speeds[s].name)) {
			*ret = (enum usb_speed)s;
			return 0;
		}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(str, aliases[i].alias)) {
			*ret = aliases[i].s;
			return 0;
		}
	return -EINVAL;
}
