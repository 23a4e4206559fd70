#!/bin/bash
# usbperf bulk where there is no device to measure: bad input refused with one
# line, exit 2, nothing written. The measurement itself, usbtest detached and
# given back, busy interfaces and signals are tested in the QEMU lab
# (tests/lab/scenarios/bulk.sh, SourceSink and Loopback gadgets on dummy_hcd).
. "$(dirname "$0")/lib.sh"

out=$WORK/bulk.json
refused 2 "no such device by VID:PID" "$out" -- "$USBPERF" bulk --vid 1234 --pid 5678 -o "$out"
says "^usbperf: bulk: no USB device 1234:5678$" "no such device: the IDs named"
refused 2 "no such device by name" "$out" -- "$USBPERF" bulk 9-9 -o "$out"
says "no such USB device '9-9'" "no such device: the name quoted"
refused 2 "no such usbfs node" "$out" -- "$USBPERF" bulk /dev/bus/usb/250/250 -o "$out"
says "no such USB device '/dev/bus/usb/250/250'" "no such node: named"
if [ ! -d /sys/bus/usb/devices ] || [ -z "$(ls /sys/bus/usb/devices)" ]; then
	refused 2 "no device at all" "$out" -- "$USBPERF" bulk -o "$out"
	says "no USB device found \(looked for 0525:a4a0, a SourceSink or Loopback gadget" "no device: what was looked for"
fi
refused 2 "a DEVICE that is no device name" "$out" -- "$USBPERF" bulk /dev/null -o "$out"
says "invalid DEVICE '/dev/null': expected a sysfs name" "a path that is not a usbfs node: the forms expected"
refused 2 "DEVICE and --vid" "$out" -- "$USBPERF" bulk 1-1 --vid 0525 -o "$out"
refused 2 "two devices" "$out" -- "$USBPERF" bulk 1-1 1-2 -o "$out"
refused 2 "bad --sizes" "$out" -- "$USBPERF" bulk --sizes 100 -o "$out"
says "invalid --sizes '100': expected sizes 512..16M" "bad --sizes: the range"
refused 2 "bad --depth" "$out" -- "$USBPERF" bulk --depth 0 -o "$out"
refused 2 "--depth past the limit" "$out" -- "$USBPERF" bulk --depth 1,257 -o "$out"
refused 2 "bad --dir" "$out" -- "$USBPERF" bulk --dir sideways -o "$out"
says "invalid --dir 'sideways': expected in, out, both or all" "bad --dir: the choices"
refused 2 "--iso both at once" "$out" -- "$USBPERF" bulk --iso --dir both -o "$out"
refused 2 "an OUT address for --ep-in" "$out" -- "$USBPERF" bulk --ep-in 0x01 -o "$out"
says "invalid --ep-in '0x01': expected an IN endpoint address, e.g. 0x81" "--ep-in: direction bit checked"
refused 2 "an IN address for --ep-out" "$out" -- "$USBPERF" bulk --ep-out 0x81 -o "$out"
refused 2 "endpoint 0" "$out" -- "$USBPERF" bulk --ep-in 0x80 -o "$out"
refused 2 "bad --vid" "$out" -- "$USBPERF" bulk --vid 12345 -o "$out"
refused 2 "bad --interface" "$out" -- "$USBPERF" bulk --interface 256 -o "$out"
refused 2 "bad --time" "$out" -- "$USBPERF" bulk --time 0 -o "$out"
expect_status 0 "bulk -h" "$USBPERF" bulk -h
check "bulk -h: says the unit of MB/s" grep -q "MB/s = 10^6 B/s" "$WORK/out"
finish
