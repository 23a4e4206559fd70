// SPDX-License-Identifier: MIT
/* usbperf i2c's options */
#include "cmd/opt/tables.h"

const struct cmd_opt i2c_options[] = {
	{"addr", I2C_O_ADDR, "A",
	 "the 7-bit address, 0x08-0x77 (e.g. 0x50)",
	 0 OPT_MAN("The 7\\-bit address, 0x08 to 0x77. Refused in one line, before the node is\n"
	     "opened, when a kernel driver holds it (/sys/bus/i2c/devices/N\\-00AA/driver,\n"
	     "named), unless\n"
	     ".BR \\-\\-force .")},
	{"sizes", I2C_O_SIZES, "LIST",
	 "payload bytes per message (default 1,2,4,...,256, capped\n"
	     "to what the adapter carries)",
	 0 OPT_MAN("Payload bytes per message (default 1, 2, 4, ... 256, capped to what the\n"
	     "adapter carries).")},
	{"clock", I2C_O_CLOCK, "HZ",
	 "the bus clock (e.g. 400k) when the device tree does not\n"
	     "give it (of_node/clock-frequency), or to override it",
	 0 OPT_MAN("The bus clock, e.g. 400k, when the device tree does not give it, or to\n"
	     "override it.")},
	{"time", I2C_O_TIME, "S",
	 "seconds per pass (default 0.5)",
	 0 OPT_MAN("Seconds per pass (default 0.5).")},
	{"count", I2C_O_COUNT, "N",
	 "at most N messages per pass",
	 0 OPT_MAN("At most N messages per pass.")},
	{"ops", I2C_O_OPS, "LIST",
	 "passes: read, write-read (the register byte, then a\n"
	     "read), write (default read,write-read; with\n"
	     "--destructive write too)",
	 0 OPT_MAN("The passes: read, write\\-read (the register byte, then a read), write\n"
	     "(default read and write\\-read; with\n"
	     ".B \\-\\-destructive\n"
	     "write too).")},
	{"register", I2C_O_REGISTER, "R",
	 "the register byte written before a read and at the head\n"
	     "of a write (default 0)",
	 0 OPT_MAN("The register byte written before a read and at the head of a write\n"
	     "(default 0).")},
	{"destructive", I2C_O_DESTRUCTIVE, NULL,
	 "write: the device's registers (an EEPROM's contents) at\n"
	     "R.. are overwritten; the last message is read back",
	 0 OPT_MAN("Write passes: the device's registers (an EEPROM's contents) from\n"
	     ".I R\n"
	     "on are overwritten; the last message is read back and compared.")},
	{"force", I2C_O_FORCE, NULL,
	 "use an address a kernel driver holds (I2C_SLAVE_FORCE)",
	 0 OPT_MAN("Use an address a kernel driver holds, through I2C_SLAVE_FORCE.")},
	{"sysroot", I2C_O_SYSROOT, "DIR|FILE",
	 "read sysfs from a recorded tree (the node is real)",
	 0 OPT_MAN("Read sysfs from a recorded tree; the node is still the real one.")},
	OPT_ENTRY_FORMAT("text, json or csv"),
	OPT_ENTRY_OUTPUT,
	OPT_ENTRY_QUIET,
	OPT_END,
};
