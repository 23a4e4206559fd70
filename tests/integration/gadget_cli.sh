#!/bin/bash
# usbperf gadget against configfs-shaped trees (--sysroot DIR): each refusal
# is one line, exit 2, and leaves the tree byte for byte as it was, also when
# the refusal comes half-way through up (an attribute the "kernel" lacks: the
# directories made are removed again). status reads a recorded board.
# The real configfs is the lab's (tests/lab/scenarios/gadget.sh).
. "$(dirname "$0")/lib.sh"
need_cmd jq

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
R=$WORK/root
mkdir -p "$R"

refused 2 "up: configfs not mounted" "$R" -- "$USBPERF" gadget up ncm --sysroot "$R"
says "mount -t configfs none /sys/kernel/config" "up: says how to mount configfs"

mkdir -p "$R/sys/kernel/config/other"
refused 2 "up: no usb_gadget in configfs" "$R" -- "$USBPERF" gadget up ncm --sysroot "$R"
says "modprobe libcomposite" "up: names libcomposite"

mkdir -p "$R/sys/kernel/config/usb_gadget" "$R/sys/class/udc"
refused 2 "up: no UDC" "$R" -- "$USBPERF" gadget up ncm --sysroot "$R"
says "no USB device controller in /sys/class/udc" "up: says there is no UDC"

mkdir -p "$R/sys/class/udc/dummy_udc.0" "$R/run/usbperf"
# a directory tree is not configfs: mkdir makes no attributes, so the first
# write fails after the gadget directory was made; up must remove it again
refused 2 "up: an attribute the kernel lacks" "$R" -- "$USBPERF" gadget up ncm --sysroot "$R"
says "has no attribute 'idVendor'" "up: names the attribute"
check "up: no state file left" test ! -e "$R/run/usbperf/gadget-usbperf.state"

refused 2 "up: unknown profile" "$R" -- "$USBPERF" gadget up mtpx --sysroot "$R"
says "unknown profile 'mtpx' \(.*, ffs, mtp\)" "up: names the profile and the known ones"
# mtp: umtprd's buffer rules (its umtprd.conf), refused before anything is made
refused 2 "up mtp: rd_buffer not a multiple of 512" "$R" -- "$USBPERF" gadget up mtp:rd_buffer=1000 --sysroot "$R"
says "mtp: rd_buffer=1000 is not a multiple of 512" "up mtp: says multiple of 512"
refused 2 "up mtp: cache not a power of two" "$R" -- "$USBPERF" gadget up mtp:cache=3M --sysroot "$R"
says "mtp: cache=3145728 is not a power of two" "up mtp: says power of two"
refused 2 "up mtp: rd_buffer not below cache" "$R" -- "$USBPERF" gadget up mtp:rd_buffer=64K,cache=64K --sysroot "$R"
says "rd_buffer=65536 must be less than cache=65536" "up mtp: says rd_buffer below cache"
refused 2 "up mtp: wr_buffer too large" "$R" -- "$USBPERF" gadget up mtp:wr_buffer=32M --sysroot "$R"
says "wr_buffer='32M' is not a size in 512..16777216 bytes" "up mtp: names the range"
refused 2 "up mtp: storage not a directory" "$R" -- "$USBPERF" gadget up mtp:storage=/etc/hostname --sysroot "$R"
refused 2 "up mtp: storage missing" "$R" -- "$USBPERF" gadget up mtp:storage=$WORK/nonexistent --sysroot "$R"
refused 2 "up mtp: umtprd not installed" "$R" -- env PATH=/nonexistent "$USBPERF" gadget up mtp --sysroot "$R"
says "'umtprd' is not in PATH: install package umtp-responder" "up mtp: names the package"
refused 2 "up: unknown key" "$R" -- "$USBPERF" gadget up ncm:qmul=5 --sysroot "$R"
says "unknown key 'qmul' \(keys: qmult" "up: names the key and the profile's keys"
refused 2 "up: value out of range" "$R" -- "$USBPERF" gadget up sourcesink:isoc_mult=3 --sysroot "$R"
refused 2 "up: msc without a file" "$R" -- "$USBPERF" gadget up msc --sysroot "$R"
refused 2 "up: missing backing file" "$R" -- "$USBPERF" gadget up "msc:file=$WORK/nonexistent.img" --sysroot "$R"
refused 2 "up: no profile" "$R" -- "$USBPERF" gadget up --sysroot "$R"
refused 2 "up: bad --max-speed" "$R" -- "$USBPERF" gadget up ncm --max-speed warp --sysroot "$R"
refused 2 "up: bad --id" "$R" -- "$USBPERF" gadget up ncm --id 1d6b --sysroot "$R"
refused 2 "up: a UDC that is not there" "$R" -- "$USBPERF" gadget up ncm --udc fc000000.usb --sysroot "$R"
says "no UDC 'fc000000.usb'" "up: names the UDC"
# MaxPower: 0-900 mA, and above 500 only when the gadget runs at SuperSpeed
refused 2 "up: --max-power out of range" "$R" -- "$USBPERF" gadget up ncm --max-power 901 --sysroot "$R"
says "invalid --max-power '901': mA, 0 to 500 \(900 above high speed\)" "up: names the --max-power range"
refused 2 "up: --max-power not a number" "$R" -- "$USBPERF" gadget up ncm --max-power 100mA --sysroot "$R"
echo high-speed >"$R/sys/class/udc/dummy_udc.0/maximum_speed"
refused 2 "up: --max-power 900 on a high-speed UDC" "$R" -- "$USBPERF" gadget up ncm --max-power 900 --sysroot "$R"
says "max-power 900 mA: below SuperSpeed a configuration draws at most 500 mA \(the gadget runs at high-speed" "up: says 500 mA below SuperSpeed"
refused 2 "up: --max-power 600 with --max-speed high" "$R" -- "$USBPERF" gadget up ncm --max-power 600 --max-speed high --sysroot "$R"
rm "$R/sys/class/udc/dummy_udc.0/maximum_speed"
refused 2 "up: --max-power 600 with the UDC's speed unknown" "$R" -- "$USBPERF" gadget up ncm --max-power 600 --sysroot "$R"
says "the UDC's maximum speed is unknown: give --max-speed super" "up: says how to allow it"
refused 2 "unknown action" "$R" -- "$USBPERF" gadget start --sysroot "$R"

# someone else's gadget: not a name usbperf gives, never removed, --force or not
mkdir -p "$R/sys/kernel/config/usb_gadget/g1/configs/c.1"
refused 2 "down: a gadget usbperf did not make" "$R" -- "$USBPERF" gadget down g1 --sysroot "$R"
says "invalid gadget name 'g1': usbperf's gadgets are 'usbperf' or 'usbperf-NAME'" "down g1: not a name of usbperf's"
refused 2 "down --force: a gadget usbperf did not make" "$R" -- "$USBPERF" gadget down g1 --force --sysroot "$R"
# one named as usbperf's without a state file: --force, if its label is usbperf's
mkdir -p "$R/sys/kernel/config/usb_gadget/usbperf-x/configs/c.1/strings/0x409"
echo 'usbperf: ncm' >"$R/sys/kernel/config/usb_gadget/usbperf-x/configs/c.1/strings/0x409/configuration"
refused 2 "down: usbperf-x without a state file" "$R" -- "$USBPERF" gadget down usbperf-x --sysroot "$R"
says "not created by usbperf \(no state file\); --force removes it" "down usbperf-x: says --force"
rm -r "$R/sys/kernel/config/usb_gadget/usbperf-x"
refused 2 "down: no such gadget" "$R" -- "$USBPERF" gadget down --sysroot "$R"
refused 2 "down: a path, not a name" "$R" -- "$USBPERF" gadget down ../g1 --sysroot "$R"
# a state file that names paths outside the gadget is not followed
printf 'usbperf-gadget 1 usbperf\ndir /etc\n' >"$R/run/usbperf/gadget-usbperf.state"
refused 2 "down: a state file naming foreign paths" "$R" -- "$USBPERF" gadget down --sysroot "$R"
says "'/etc' is not a path usbperf created" "down: names the foreign path"
rm "$R/run/usbperf/gadget-usbperf.state"
refused 2 "up in a snapshot" "$R" -- "$USBPERF" gadget up ncm --sysroot "$FIXTURES/board.json"

# status: sysinfo's gadget view plus the UDCs, on a recorded board
expect_status 0 "status of a recorded board" "$USBPERF" gadget status --sysroot "$FIXTURES/board.json" -F json
cp "$WORK/out" "$WORK/status.json"
jq_check "$WORK/status.json" '.command == "gadget status"' "status: a gadget status report"
jq_check "$WORK/status.json" '[.gadgets[] | {name, udc}] == [{"name": "g1", "udc": "fc000000.usb"}]' "status: the board's gadget and its UDC"
jq_check "$WORK/status.json" '[.udcs[] | {name, state, current_speed}] == [{"name": "fc000000.usb", "state": "configured", "current_speed": "high-speed"}]' "status: UDC state and speed"
jq_check "$WORK/status.json" '.usbperf_gadgets == []' "status: none of them usbperf's"
expect_status 0 "status as text" "$USBPERF" gadget status --sysroot "$FIXTURES/board.json"
check "status text: the UDC table" grep -q "^fc000000.usb *configured *high-speed" "$WORK/out"

finish
