#!/bin/bash
# usbperf hid on a machine without USB HID: bad input refused with one line,
# exit 2, nothing written (the measurements themselves run in the QEMU lab:
# tests/lab/scenarios/hid.sh, a configfs HID gadget on dummy_hcd).
. "$(dirname "$0")/lib.sh"

out=$WORK/hid.json
refused 2 "not a hidraw node" "$out" -- "$USBPERF" hid /dev/null -o "$out"
says "'/dev/null' is not a hidraw node" "not a hidraw node: said so"
refused 2 "a node that does not exist" "$out" -- "$USBPERF" hid "$WORK/nope/hidraw0" -o "$out"
says "cannot open '$WORK/nope/hidraw0'" "a missing node: named"
refused 2 "a hidraw name with no device" "$out" -- "$USBPERF" hid hidraw999 -o "$out"
says "no hidraw device 'hidraw999'" "a missing hidraw: named"
refused 2 "a VID:PID with no hidraw" "$out" -- "$USBPERF" hid FFFF:0001 -o "$out"
says "no hidraw device with USB ID ffff:0001" "VID:PID: named, lower case"
refused 2 "a directory" "$out" -- "$USBPERF" hid /dev -o "$out"
says "'/dev' is not a hidraw node" "a directory: not a hidraw node"
refused 2 "no DEVICE" "$out" -- "$USBPERF" hid -o "$out"
says "hid: a DEVICE is needed" "no DEVICE: said so"
refused 2 "two devices" "$out" -- "$USBPERF" hid /dev/null /dev/zero -o "$out"
refused 2 "bad --time" "$out" -- "$USBPERF" hid /dev/null --time 0 -o "$out"
says "invalid --time '0'" "bad --time: named"
refused 2 "bad --count" "$out" -- "$USBPERF" hid /dev/null --count 0 -o "$out"
refused 2 "bad --report-size" "$out" -- "$USBPERF" hid /dev/null --report-size 65537 -o "$out"
says "invalid --report-size '65537': expected bytes, 1..65536" "bad --report-size: the range"
refused 2 "gadget side without --gadget" "$out" -- "$USBPERF" hid /dev/null --send -o "$out"
says "give --gadget /dev/hidgN" "--send without --gadget: said so"
refused 2 "--gadget without a mode" "$out" -- "$USBPERF" hid --gadget /dev/null -o "$out"
refused 2 "--gadget with two modes" "$out" -- "$USBPERF" hid --gadget /dev/null --send --echo -o "$out"
says "hid: --gadget takes one of --send, --echo, --receive" "two gadget modes: said so"
refused 2 "--gadget with a host pass" "$out" -- "$USBPERF" hid --gadget /dev/null --send --in -o "$out"
refused 2 "--gadget not an f_hid node" "$out" -- "$USBPERF" hid --gadget /dev/null --send -o "$out"
says "'/dev/null' is not a HID gadget node" "not a gadget node: said so"
refused 2 "--gadget missing" "$out" -- "$USBPERF" hid --gadget "$WORK/hidg0" --echo -o "$out"
says "cannot open '$WORK/hidg0'" "a missing gadget node: named"
expect_status 0 "-h" "$USBPERF" hid -h
finish
