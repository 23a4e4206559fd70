// SPDX-License-Identifier: MIT
/* usbperf gadget's options */
#include "cmd/opt/tables.h"

const struct cmd_opt gadget_options[] = {
	{"udc", GADGET_O_UDC, "NAME",
	 "the UDC (default: the first with no gadget bound)",
	 "The UDC (default: the first with no gadget bound).", 0},
	{"max-speed", GADGET_O_SPEED, "S",
	 "low, full, high, super, super-plus (default: the UDC's)",
	 "low, full, high, super or super\\-plus (default: the UDC's best).", 0},
	{"max-power", GADGET_O_POWER, "MA",
	 "the configuration's MaxPower in mA: 0-500, up to 900 at\n"
	     "SuperSpeed (default 250; 0: the kernel's\n"
	     "CONFIG_USB_GADGET_VBUS_DRAW)",
	 "The configuration's MaxPower in mA (default 250): 0 to 500, up to 900 when\n"
	     "the gadget runs at SuperSpeed; more is refused before anything is made.\n"
	     "The kernel declares it in units of 2 mA (8 mA at SuperSpeed: 900 becomes 896),\n"
	     "and 0 on a bus-powered configuration becomes its CONFIG_USB_GADGET_VBUS_DRAW.", 0},
	{"id", GADGET_O_ID, "VID:PID",
	 "hex (default 1d6b:0104)",
	 "In hex (default 1d6b:0104).", 0},
	{"manufacturer", GADGET_O_MANUF, "S",
	 "the device's manufacturer string",
	 NULL, 0},
	{"product", GADGET_O_PRODUCT, "S",
	 "the device's product string",
	 NULL, 0},
	{"serial", GADGET_O_SERIAL, "S",
	 "the device's serial number string",
	 NULL, 0},
	{"name", GADGET_O_NAME, "NAME",
	 "the gadget directory usbperf-NAME (default usbperf)",
	 "The gadget directory usbperf\\-\\fINAME\\fP (default usbperf).", 0},
	{"destructive", GADGET_O_DESTRUCTIVE, NULL,
	 "up: let the USB host write an msc LUN (see msc above)",
	 ".BR up :\n"
	     "let the USB host write an msc LUN (see msc above).", 0},
	{"force", GADGET_O_FORCE, NULL,
	 "down: remove a gadget named as usbperf's (usbperf or\n"
	     "usbperf-NAME) that has no state file",
	 ".BR down :\n"
	     "remove a gadget named as usbperf's that has no state file (its configuration\n"
	     "labelled by usbperf, or none).", 0},
	{"sysroot", GADGET_O_SYSROOT, "DIR",
	 "configfs, sysfs and /run below DIR (tests)",
	 "configfs, sysfs and /run below\n"
	     ".I DIR\n"
	     "(tests).", 0},
	{"format", 'F', "FMT",
	 "text, json or csv",
	 "Text, json or csv (csv: the functions).", 0},
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};
