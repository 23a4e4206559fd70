// SPDX-License-Identifier: MIT
/* usbperf gadget's options */
#include "cmd/opt/tables.h"

const struct cmd_opt gadget_options[] = {
	{"udc", GADGET_O_UDC, "NAME",
	 "the UDC (default: the first with no gadget bound)",
	 0 OPT_MAN("The UDC (default: the first with no gadget bound).")},
	{"max-speed", GADGET_O_SPEED, "S",
	 "low, full, high, super, super-plus (default: the UDC's)",
	 0 OPT_MAN("low, full, high, super or super\\-plus (default: the UDC's best).")},
	{"max-power", GADGET_O_POWER, "MA",
	 "the configuration's MaxPower in mA: 0-500, up to 900 at\n"
	     "SuperSpeed (default 250; 0: the kernel's\n"
	     "CONFIG_USB_GADGET_VBUS_DRAW)",
	 0 OPT_MAN("The configuration's MaxPower in mA (default 250): 0 to 500, up to 900 when\n"
	     "the gadget runs at SuperSpeed; more is refused before anything is made.\n"
	     "The kernel declares it in units of 2 mA (8 mA at SuperSpeed: 900 becomes 896),\n"
	     "and 0 on a bus-powered configuration becomes its CONFIG_USB_GADGET_VBUS_DRAW.")},
	{"id", GADGET_O_ID, "VID:PID",
	 "hex (default 1d6b:0104)",
	 0 OPT_MAN("In hex (default 1d6b:0104).")},
	{"manufacturer", GADGET_O_MANUF, "S",
	 "the device's manufacturer string", 0},
	{"product", GADGET_O_PRODUCT, "S",
	 "the device's product string", 0},
	{"serial", GADGET_O_SERIAL, "S",
	 "the device's serial number string", 0},
	{"name", GADGET_O_NAME, "NAME",
	 "the gadget directory usbperf-NAME (default usbperf)",
	 0 OPT_MAN("The gadget directory usbperf\\-\\fINAME\\fP (default usbperf).")},
	{"destructive", GADGET_O_DESTRUCTIVE, NULL,
	 "up: let the USB host write an msc LUN (see msc above)",
	 0 OPT_MAN(".BR up :\n"
	     "let the USB host write an msc LUN (see msc above).")},
	{"force", GADGET_O_FORCE, NULL,
	 "down: remove a gadget named as usbperf's (usbperf or\n"
	     "usbperf-NAME) that has no state file",
	 0 OPT_MAN(".BR down :\n"
	     "remove a gadget named as usbperf's that has no state file (its configuration\n"
	     "labelled by usbperf, or none).")},
	{"sysroot", GADGET_O_SYSROOT, "DIR",
	 "configfs, sysfs and /run below DIR (tests)",
	 0 OPT_MAN("configfs, sysfs and /run below\n"
	     ".I DIR\n"
	     "(tests).")},
	{"format", 'F', "FMT",
	 "text, json or csv",
	 0 OPT_MAN("Text, json or csv (csv: the functions).")},
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};
