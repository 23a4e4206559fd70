#!/bin/bash
# usbperf mtp where there is no MTP device: bad input refused with one line,
# exit 2, nothing written on the host. The transfers themselves (the bytes
# back equal to the bytes sent, nothing left on the device, SIGINT, a device
# that disconnects) are tested in the QEMU lab against umtprd
# (tests/lab/scenarios/mtp.sh). A build without libmtp says so instead.
. "$(dirname "$0")/lib.sh"

out=$WORK/mtp.json
refused 2 "bad --size" "$out" -- "$USBPERF" mtp --size 0 -o "$out"
says "invalid --size '0': expected sizes 1..4G" "bad --size: the range"
refused 2 "--size past 4G" "$out" -- "$USBPERF" mtp --size 1M,5G -o "$out"
refused 2 "bad --repeat" "$out" -- "$USBPERF" mtp --repeat 0 -o "$out"
says "invalid --repeat '0': expected 1..64" "bad --repeat: the range"
refused 2 "bad --objects" "$out" -- "$USBPERF" mtp --objects x -o "$out"
refused 2 "bad --object-size" "$out" -- "$USBPERF" mtp --object-size 2M -o "$out"
refused 2 "a --folder with a slash" "$out" -- "$USBPERF" mtp --folder a/b -o "$out"
says "invalid --folder 'a/b': expected one folder name" "bad --folder: why"
refused 2 "two devices" "$out" -- "$USBPERF" mtp 1-1 1-2 -o "$out"
refused 2 "--buffer-sweep not a multiple of 512" "$out" -- "$USBPERF" mtp --buffer-sweep 16K,1000 -o "$out"
says "1000 is not a multiple of 512 B" "--buffer-sweep 1000: why"
refused 2 "--buffer-sweep past 16M" "$out" -- "$USBPERF" mtp --buffer-sweep 32M -o "$out"
# run's --mtp-buffers takes the same list, refused the same way before anything is measured
refused 2 "run --mtp-buffers not a multiple of 512" "$out" -- "$USBPERF" run --mtp-buffers 16K,1000 --no-save -o "$out"
says "invalid --mtp-buffers '16K,1000': 1000 is not a multiple of 512 B" "run --mtp-buffers 1000: why"
refused 2 "run --mtp-buffers empty" "$out" -- "$USBPERF" run --mtp-buffers "" --no-save -o "$out"
if ldd "$USBPERF" 2>/dev/null | grep -q libmtp; then
	refused 2 "no such device by name" "$out" -- "$USBPERF" mtp 9-9 -o "$out"
	says "^usbperf: mtp: no such USB device '9-9'$" "no such device: the name quoted"
	refused 2 "a DEVICE that is no device name" "$out" -- "$USBPERF" mtp /dev/null -o "$out"
	says "invalid DEVICE '/dev/null': expected a sysfs name" "a path that is not a usbfs node"
	refused 2 "--buffer-sweep with a DEVICE" "$out" -- "$USBPERF" mtp 1-1 --buffer-sweep 16K -o "$out"
	says "buffer-sweep measures the MTP gadget it builds on this machine" "--buffer-sweep with a DEVICE: why"
	if [ ! -d /sys/bus/usb/devices ] || [ -z "$(ls /sys/bus/usb/devices)" ]; then
		refused 2 "no MTP device at all" "$out" -- "$USBPERF" mtp -o "$out"
		says "^usbperf: mtp: no MTP device found \(no USB device at all\)$" "no device: what is on USB said"
	fi
else
	refused 2 "built without libmtp" "$out" -- "$USBPERF" mtp -o "$out"
	says "^usbperf: mtp: usbperf was built without libmtp" "without libmtp: said in one line"
fi
expect_status 0 "mtp -h" "$USBPERF" mtp -h
check "mtp -h: says the unit of MB/s" grep -q "MB/s = 10^6 B/s" "$WORK/out"
finish
