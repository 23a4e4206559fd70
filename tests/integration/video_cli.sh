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
refused 2 "bad --frame-size" "$save" -- "$USBPERF" video /dev/null --frame-size 640
says "invalid --frame-size '640': expected WIDTHxHEIGHT" "bad --frame-size: the form expected"
refused 2 "bad --size (--frame-size's old name)" "$save" -- "$USBPERF" video /dev/null --size 640
says "invalid --frame-size '640': expected WIDTHxHEIGHT" "bad --size: named by its name now"
refused 2 "bad --pixel-format" "$save" -- "$USBPERF" video /dev/null --pixel-format TOOLONG
says "invalid --pixel-format 'TOOLONG': expected a FOURCC" "bad --pixel-format: a FOURCC"
# 29.2.9: --format is the output format here as everywhere; a pixel format given
# to it is refused, pointing at --pixel-format, never taken for one
for spelling in "--format MJPG" "--format=MJPG" "-F MJPG"; do
	# shellcheck disable=SC2086 # the spelling is two words or one
	refused 2 "video $spelling" "$save" -- "$USBPERF" video /dev/null $spelling
	says "invalid --format 'MJPG': the output format is text, json or csv; a pixel format is --pixel-format MJPG" \
		"video $spelling: refused, the pixel format's option named"
done
expect_status 2 "--pixel-format MJPG is taken (then the node is refused)" "$USBPERF" video /dev/null --pixel-format MJPG
says "is not a video capture device" "--pixel-format: a pixel format"
expect_status 2 "--pixel and --pixfmt are the same option" "$USBPERF" video /dev/null --pixel YUYV --pixfmt MJPG
says "is not a video capture device" "--pixel, --pixfmt: taken"
expect_status 2 "--size WxH still works, with a note" "$USBPERF" video /dev/null --size 640x480
check "--size: a deprecation note names --frame-size" grep -q "warning: video --size is deprecated: it is --frame-size now" "$WORK/err"
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
expect_status 2 "--format json is the output format" "$USBPERF" video /dev/null --format json
says "is not a video capture device" "--format json: not taken for a pixel format"
finish
