#!/bin/bash
# usbperf limits uvc --device: a USB camera's own figures from its descriptors,
# read through --sysroot from tests/fixtures/pc-uvc.json (gen/pc-uvc.py: a
# Canyon CNE-CWC2 on 1-6, high speed, streaming interface 1 on alt setting 5).
# The figures are checked by hand from the descriptor bytes:
#   alt 6: wMaxPacketSize 0x1400 = 1024 B, mult 1 + 2 = 3 per 125 us microframe
#          = 3072 B x 8000 = 24.576 MB/s bus, (3072 - 12) x 8000 = 24.48 MB/s payload
#   alt 5: 0x1320 = 800 B x 3 = 2400 B: 19.2 MB/s bus, 19.104 MB/s payload
#   YUY2 640x480 at 30 fps (interval 333333 x 100 ns: 30.00003 fps): 614400 B x 30 = 18.432 MB/s; alt 5
#          carries 2388 B of payload per microframe: ceil(614400 / 2388) = 258
#          microframes = 32.25 ms a frame, 31.0 fps >= 30; alt 4 (1588 B) 20.7 fps
#          does not; with a header per microframe (614400 + 258 x 12) x 30 = 18.52488 MB/s
#   YUY2 1280x960 at 9 fps: 2457600 B x 9 = 22.1184 MB/s: only alt 6 carries it
# The `usbperf video` part on a USB camera is not run here: no UVC camera on this
# machine, and the QEMU lab's dummy_hcd has no isochronous endpoints.
. "$(dirname "$0")/lib.sh"
need_cmd jq
SRC=$(cd "$(dirname "$0")/../.." && pwd)
FIX=$SRC/tests/fixtures/pc-uvc.json

expect_status 0 "limits uvc --device 1-6 json" "$USBPERF" limits uvc --device 1-6 --sysroot "$FIX" -F json
j=$WORK/cam.json
cp "$WORK/out" "$j"
jq_check "$j" '.command == "limits uvc" and .uvc.device == "1-6" and .uvc.vid_pid == "0c45:6340" and .uvc.speed == "high" and .uvc.frames == 18' "the camera: 0c45:6340 at high speed, 18 frame sizes"
jq_check "$j" '[.uvc_alt_settings[] | .alt] == [0,1,2,3,4,5,6] and all(.uvc_alt_settings[]; .interface == 1)' "seven alt settings on interface 1"
jq_check "$j" '.uvc_alt_settings[0] | .transfer == "none" and .bus_mb_s == null' "alt 0 carries nothing"
jq_check "$j" '.uvc_alt_settings[6] | .max_packet_raw == "0x1400" and .max_packet_bytes == 1024 and .mult == 3 and .interval == 1 and .period_us == 125 and .bytes_per_interval == 3072 and .bus_mb_s == 24.576 and .payload_mb_s == 24.48 and .derivation == "3 x 1024 B per 125 us microframe"' "alt 6: 0x1400 = 3 x 1024 B per 125 us = 24.576 MB/s bus, 24.48 payload"
jq_check "$j" '.uvc_alt_settings[5] | .max_packet_raw == "0x1320" and .max_packet_bytes == 800 and .mult == 3 and .bus_mb_s == 19.2 and .payload_mb_s == 19.104' "alt 5: 0x1320 = 3 x 800 B = 19.2 MB/s"
jq_check "$j" '.uvc_alt_settings[1] | .max_packet_bytes == 128 and .mult == 1 and .bus_mb_s == 1.024' "alt 1: 128 B per microframe = 1.024 MB/s"
jq_check "$j" '[.uvc_alt_settings[] | select(.current) | .alt] == [5] and .uvc_streams[0].current_alt == 5 and .uvc_streams[0].current_payload_mb_s == 19.104' "current alt setting 5 (sysfs bAlternateSetting), its ceiling"
m640='[.uvc_modes[] | select(.format == "YUY2" and .width_px == 640 and .height_px == 480)][0]'
jq_check "$j" "$m640 | (.fps - 30 | fabs) < 1e-4 and .frame_bytes == 614400 and (.need_mb_s - 18.432 | fabs) < 1e-4 and .smallest_alt == 5 and (.smallest_alt_need_mb_s - 18.52488 | fabs) < 1e-4 and .largest_alt == 6 and .current_alt_carries == \"yes\"" "YUY2 640x480@30 needs 18.432 MB/s: smallest alt 5 (18.52488 with headers)"
m1280='[.uvc_modes[] | select(.format == "YUY2" and .width_px == 1280 and .height_px == 960)][0]'
jq_check "$j" "$m1280 | (.fps - 9 | fabs) < 1e-4 and (.need_mb_s - 22.1184 | fabs) < 1e-4 and .smallest_alt == 6 and .current_alt_carries == \"no\"" "YUY2 1280x960@9 needs 22.1184 MB/s: only alt 6, not the current 5"
jq_check "$j" '(.uvc_modes | length) == 18 and ([.uvc_modes[] | select(.format == "MJPG")] | length) == 9' "every format and frame size"
jq_check "$j" '[.uvc_parameters[] | select(.name == "nodrop" or .name == "quirks" or .name == "timeout") | .value] == ["0","-1","5000"]' "uvcvideo parameters nodrop, quirks, timeout"
jq_check "$j" '[.uvc_stats[] | select(.name == "frames")][0].value == "1502"' "debugfs stream stats"

expect_status 0 "text" "$USBPERF" limits uvc --device 1-6 --sysroot "$FIX"
check "text: alt 6 row with its figures" grep -qE '^ +1 +6 +no +isochronous +0x1400 +1024 +3 .* 3072 +24\.576 +24\.480 +3 x 1024 B per 125 us microframe$' "$WORK/out"
check "text: alt 5 is the current one" grep -qE '^ +1 +5 +yes +isochronous +0x1320 ' "$WORK/out"
check "text: the mode table" grep -qE '^YUY2 +640 +480 +30\.00 +614400 +pixels +18\.432 +5 +18\.525 +6 ' "$WORK/out"

expect_status 0 "csv" "$USBPERF" limits uvc --device 1-6 --sysroot "$FIX" -F csv
check "csv: header and 7 alt settings" test "$(wc -l <"$WORK/out")" = 8
check "csv header" grep -q '^device,interface,alt,current,transfer,endpoint,max_packet_raw,max_packet_bytes,mult' "$WORK/out"

refused 2 "no such device" "$WORK/none.json" -- "$USBPERF" limits uvc --device 1-9 --sysroot "$FIX" -o "$WORK/none.json"
says "no USB device '1-9'" "names the device"
refused 2 "not a camera" -- "$USBPERF" limits uvc --device 1-2 --sysroot "$FIX"
says "'1-2' is not a USB video camera" "a disk is not a camera"
refused 2 "no descriptors in sysfs" -- "$USBPERF" limits uvc --device 1-4 --sysroot "$FIX"
says "cannot read the descriptors of '1-4'" "says what is missing"
refused 2 "--device with --speed" -- "$USBPERF" limits uvc --device 1-6 --speed high --sysroot "$FIX"
says "--speed describes an endpoint by hand, --device reads the camera's own: pick one" "the calculator or the camera, not both"
refused 2 "--sysroot without --device" -- "$USBPERF" limits uvc --speed high --sysroot "$FIX"
says "--sysroot needs --device" "--sysroot alone is refused"
refused 2 "empty --device" -- "$USBPERF" limits uvc --device ''
says "invalid --device ''" "an empty --device is refused"
finish
