#!/bin/bash
# usbperf video on a machine without a camera: bad input refused with one line,
# exit 2, nothing written (the capture itself is tested in the QEMU lab:
# tests/lab/scenarios/video.sh, with vivid).
. "$(dirname "$0")/lib.sh"

save=$WORK/frames.raw
refused 2 "not a V4L2 node" "$save" -- "$USBPERF" video /dev/null --save "$save"
says "'/dev/null' is not a video capture device" "not a V4L2 node: said so"
refused 2 "a path that does not exist" "$save" -- "$USBPERF" video "$WORK/nope/video0"
says "cannot open video device '$WORK/nope/video0'" "a missing node: named"
refused 2 "bad --size" "$save" -- "$USBPERF" video /dev/null --size 640
says "invalid --size '640': expected WIDTHxHEIGHT" "bad --size: the form expected"
refused 2 "bad --format" "$save" -- "$USBPERF" video /dev/null --format TOOLONG
says "invalid --format 'TOOLONG': expected a pixel format" "bad --format: a FOURCC or an output format"
refused 2 "bad --io" "$save" -- "$USBPERF" video /dev/null --io read
says "invalid --io 'read': expected mmap, userptr or dmabuf" "bad --io: the methods"
refused 2 "bad --buffers" "$save" -- "$USBPERF" video /dev/null --buffers 0
refused 2 "bad --fps" "$save" -- "$USBPERF" video /dev/null --fps fast
refused 2 "bad --timeout" "$save" -- "$USBPERF" video /dev/null --timeout 0
refused 2 "--all-modes with --list-modes" "$save" -- "$USBPERF" video /dev/null --all-modes --list-modes
refused 2 "--save without a DEVICE" "$save" -- "$USBPERF" video --save "$save"
says "video: --save keeps the frames of one pass" "--save needs one DEVICE: said so"
touch "$WORK/kept"
refused 2 "--save over an existing file" "$WORK/kept" -- "$USBPERF" video /dev/null --save "$WORK/kept" --frames 1
refused 2 "two devices" "$save" -- "$USBPERF" video /dev/null /dev/zero
# --format text|json|csv stays the output format, any other value is a pixel format
expect_status 2 "--format json is the output format" "$USBPERF" video /dev/null --format json
says "is not a video capture device" "--format json: not taken for a pixel format"
finish
