#!/bin/bash
# usbperf limits as a user runs it: the spec figures come out of the real
# binary in JSON, CSV and text, and bad input is refused with one line on
# stderr, exit 2 and nothing on stdout. Needs no root and no hardware.
. "$(dirname "$0")/lib.sh"
need_cmd jq

run() { # run NAME ARGS...: usbperf JSON into $WORK/NAME.json
	local name=$1
	shift
	expect_status 0 "$name" "$USBPERF" limits "$@" -F json
	cp "$WORK/out" "$WORK/$name.json"
}
row() { # the jq path of one transfers row
	echo "(.transfers[] | select(.speed == \"$1\" and .type == \"$2\"))"
}

run all
j=$WORK/all.json
jq_check "$j" '.command == "limits" and (.transfers | length) == 28 and (.links | length) == 7' "every speed and transfer type"
jq_check "$j" "[$(row full bulk)] | .[0] | .mb_s == 1.216 and .packets_per_interval == 19 and .max_packet_bytes == 64" "full-speed bulk: 19 x 64 B per ms = 1.216 MB/s"
jq_check "$j" "[$(row high bulk)] | .[0] | .mb_s == 53.248 and .mbit_s == 425.984 and .interval_us == 125" "high-speed bulk: 13 x 512 B per microframe = 53.248 MB/s"
jq_check "$j" "[$(row high isochronous), $(row high interrupt)] | all(.mb_s == 24.576)" "high-speed iso and interrupt: 3 x 1024 B = 24.576 MB/s"
jq_check "$j" "[$(row full isochronous)] | .[0].mb_s == 1.023" "full-speed iso: 1023 B/ms"
jq_check "$j" "[$(row full interrupt)] | .[0].mb_s == 0.064" "full-speed interrupt: 64 B/ms"
jq_check "$j" "[$(row low interrupt)] | .[0] | .mb_s == 0.0008 and .interval_us == 10000" "low-speed interrupt: 8 B per 10 ms"
jq_check "$j" "[$(row low bulk), $(row low isochronous)] | all(.allowed == false and .mb_s == null)" "low speed has no bulk or iso"
jq_check "$j" "[$(row super isochronous)] | .[0].mb_s == 393.216" "SuperSpeed iso: 16 x 3 x 1024 B per 125 us"
jq_check "$j" "[$(row super bulk)] | .[0] | (.mb_s - 484.848485 | fabs) < 1e-6 and .overhead_bytes == 32 and .burst == 16" "SuperSpeed bulk after 8b/10b and framing"
jq_check "$j" '[.links[] | select(.speed == "gen2x1")][0] | (.coded_mb_s - 1212.121212 | fabs) < 1e-6' "Gen 2 after 128b/132b"
jq_check "$j" '[.links[] | select(.speed == "gen2x2")][0] | .lanes == 2 and (.coded_mb_s - 2424.242424 | fabs) < 1e-6' "Gen 2x2: two lanes"
jq_check "$j" 'all(.transfers[]; (.mib_s == null) or ((.mib_s * 1048576 / 1000000 - .mb_s) | fabs) < 1e-5)' "MiB/s and MB/s agree"
jq_check "$j" 'all(.field_references[]; .kind == "field reference, not a limit" and .mb_s_max < .bulk_ceiling_mb_s)' "field references are labelled and below the ceiling"

run high --speed hs
jq_check "$WORK/high.json" 'all(.transfers[]; .speed == "high") and (.field_references | length) == 2' "--speed filters every table"

expect_status 0 "csv" "$USBPERF" limits -F csv
check "csv: header of keys + 28 rows" test "$(wc -l <"$WORK/out")" = 29
check "csv header" grep -q '^speed,type,allowed,max_packet_bytes,packets_per_interval' "$WORK/out"

expect_status 0 "text" "$USBPERF" limits --speed high
check "text shows the derivation" grep -Eq '^high +bulk +512 +53\.248 \(50\.781\) +13 x 512 B per 125 us microframe$' "$WORK/out"
check "text labels field references" grep -q 'field reference, not a limit' "$WORK/out"

# UVC: 3 x 1024 B per microframe, less a 12 B header each
run uvc uvc --speed hs --maxpacket 1024 --mult 3 --frame-size 1280x720 --pixel-format yuyv
u=$WORK/uvc.json
jq_check "$u" '.command == "limits uvc" and .endpoint.bytes_per_interval == 3072 and .endpoint.bus_mb_s == 24.576 and .endpoint.mb_s == 24.48' "uvc: bandwidth less headers"
jq_check "$u" '.frame_rates | length == 1 and .[0].frame_bytes == 1843200 and .[0].intervals_per_frame == 603' "uvc: 720p YUYV needs 603 microframes"
# 29.2.9: the old spellings, --size (a byte count elsewhere) with a note, --pixel
expect_status 0 "uvc --size WxH --pixel: the old spellings" "$USBPERF" limits uvc --speed hs --maxpacket 1024 \
	--mult 3 --size 1280x720 --pixel yuyv -F json
check "the old spellings give the same figures" cmp -s <(jq -S . "$u") <(jq -S . "$WORK/out")
check "--size: a deprecation note names --frame-size" grep -q "warning: limits --size is deprecated: it is --frame-size now" "$WORK/err"
run uvc_ss uvc --speed ss --burst 15 --mult 3
jq_check "$WORK/uvc_ss.json" '.endpoint.bus_mb_s == 393.216 and (.frame_rates | length) == 12' "uvc at SuperSpeed: 393.216 MB/s, 4 sizes x 3 formats"

# HID: bInterval in ms at full speed; an xHCI host rounds 10 ms to 8 ms
run hid hid --speed fs --report-length 64 --interval 10
jq_check "$WORK/hid.json" '.rates[0].reports_per_s == 100 and .rates[0].bytes_per_s == 6400 and .rates[1].period_us == 8000' "hid: 100 reports/s, xHCI polls every 8 ms"
run hid_long hid --speed fs --report-length 100
jq_check "$WORK/hid_long.json" '.endpoint.packets_per_report == 2 and .rates[0].reports_per_s == 500' "hid: a 100 B report spans two packets"
# high-bandwidth interrupt: 3 x 1024 B per microframe carry a 3072 B report every 125 us
run hid_hb hid --speed hs --maxpacket 1024 --mult 3 --report-length 3072
jq_check "$WORK/hid_hb.json" '.endpoint.packets_per_interval == 3 and .endpoint.intervals_per_report == 1 and .rates[0].reports_per_s == 8000 and .rates[0].bytes_per_s == 24576000' "hid: high-bandwidth, 3 packets per microframe, 8000 reports/s"
run hid_1x hid --speed hs --maxpacket 1024 --report-length 3072
jq_check "$WORK/hid_1x.json" '.endpoint.intervals_per_report == 3 and (.rates[0].reports_per_s | floor) == 2666' "hid: the same report one packet per microframe: 3 microframes"
run hid_ss hid --speed ss --burst 2 --report-length 3072
jq_check "$WORK/hid_ss.json" '.endpoint.packets_per_interval == 3 and .rates[0].reports_per_s == 8000' "hid: SuperSpeed burst of 3"

run ncm ncm
jq_check "$WORK/ncm.json" '[.ncm[] | select(.speed == "high")][0] | .reported_bit_s == 425984000 and .bulk_ceiling_mbit_s == 425.984' "ncm: high speed reports the bulk ceiling"
jq_check "$WORK/ncm.json" '[.ncm[] | select(.speed == "super")][0].reported_bit_s == 3750000000' "ncm: SuperSpeed reports 3.75 Gbit/s"

expect_status 0 "limits -h" "$USBPERF" limits -h
check "usage" grep -q '^usage: usbperf limits' "$WORK/out"
expect_status 0 "limits uvc -h" "$USBPERF" limits uvc -h

refuse() { # refuse DESCRIPTION STDERR-REGEX ARGS...
	local what=$1 want=$2
	shift 2
	expect_status 2 "$what" "$USBPERF" limits "$@"
	one_line_error "$what"
	check "$what: nothing on stdout" test ! -s "$WORK/out"
	check "$what: says why" grep -Eq "$want" "$WORK/err"
}
refuse "HS iso packet too big" "^usbperf: invalid --maxpacket '4096': high-speed isochronous allows at most 1024$" uvc --speed hs --maxpacket 4096
refuse "FS iso packet too big" "invalid --maxpacket '1024': full-speed isochronous allows at most 1023" uvc --speed fs --maxpacket 1024
refuse "HS mult 3 with small packets" "invalid --maxpacket '600': .*--mult 3 needs 683-1024" uvc --speed hs --maxpacket 600 --mult 3
refuse "mult out of range" "invalid --mult '4'" uvc --speed hs --mult 4
refuse "FS has no high bandwidth" "invalid --mult '2': full-speed" uvc --speed fs --mult 2
refuse "burst below SuperSpeed" "invalid --burst '3': bursts exist only at SuperSpeed" uvc --speed hs --burst 3
refuse "burst out of range" "invalid --burst '16'" uvc --speed ss --burst 16
refuse "SS burst needs 1024" "invalid --maxpacket '512': SuperSpeed isochronous with --burst above 0 needs 1024" uvc --speed ss --maxpacket 512 --burst 2
refuse "iso interval" "invalid --interval '17': isochronous bInterval is 1-16" uvc --speed hs --interval 17
refuse "no iso at low speed" "invalid --speed 'ls': low-speed has no isochronous" uvc --speed ls
refuse "uvc needs a speed" "limits uvc: missing --speed" uvc --maxpacket 1024
refuse "bad size" "invalid --frame-size '1280x'" uvc --speed hs --frame-size 1280x
refuse "bad pixel format" "invalid --pixel-format 'rgb'" uvc --speed hs --pixel-format rgb
refuse "bad mjpeg ratio" "invalid --mjpeg-ratio 'x'" uvc --speed hs --mjpeg-ratio x
refuse "HS interrupt interval" "invalid --interval '17': high-speed interrupt bInterval is 1-16" hid --speed hs --interval 17
refuse "FS interrupt interval" "invalid --interval '0'" hid --speed fs --interval 0
refuse "report length" "invalid --report-length '70000'" hid --speed fs --report-length 70000
refuse "option of another calculator" "limits hid: --pixel-format does not apply" hid --speed fs --pixel-format yuyv
refuse "mult at full speed" "invalid --mult '2': only high-speed interrupt endpoints" hid --speed fs --mult 2
refuse "burst too large for interrupt" "invalid --burst '3': SuperSpeed interrupt bMaxBurst is 0-2" hid --speed ss --burst 3
refuse "high bandwidth with small packets" "invalid --mult '3': high-bandwidth endpoints have wMaxPacketSize 513-1024" hid --speed hs --maxpacket 512 --mult 3
refuse "unknown speed" "invalid --speed 'warp'" --speed warp
refuse "missing value" "option '--speed' needs a value" --speed
refuse "stray argument" "unexpected argument 'frob'" frob
refuse "unknown option" "unknown option '--turbo'" ncm --turbo
finish
