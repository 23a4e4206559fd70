#!/bin/bash
# usbperf net on a USB network interface, without the hardware: a recorded
# tree (--sysroot) puts the loopback interface on a USB device - an NCM
# gadget at high speed, a Realtek r8153 at SuperSpeed - and a real test on
# loopback must come out next to that link's ceiling: device, driver, speed,
# bulk ceiling, the framing and the goodput it leaves, the efficiency.
. "$(dirname "$0")/lib.sh"

need_cmd jq timeout awk
PORT=$((20000 + $$ % 20000))

# fake_usb DIR DRIVER SPEED VID PID PRODUCT: /sys/class/net/lo on a USB interface
fake_usb() {
	local r=$1 dev=/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1
	mkdir -p "$r$dev/2-1:1.0/net/lo" "$r/sys/class/net" "$r/sys/bus/usb/drivers/$2"
	printf '%s\n' "$3" >"$r$dev/speed"
	printf '%s\n' "$4" >"$r$dev/idVendor"
	printf '%s\n' "$5" >"$r$dev/idProduct"
	printf '%s\n' "$6" >"$r$dev/product"
	echo 1500 >"$r$dev/2-1:1.0/net/lo/mtu"
	ln -s "../../../../../../bus/usb/drivers/$2" "$r$dev/2-1:1.0/driver"
	ln -s ../../../2-1:1.0 "$r$dev/2-1:1.0/net/lo/device"
	ln -s "../../devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/net/lo" "$r/sys/class/net/lo"
}

run() {	# SYSROOT FORMAT client-args... -> $WORK/c.out
	local root=$1 fmt=$2
	shift 2
	PORT=$((PORT + 1))
	timeout 30 "$USBPERF" -q net server -1 -p "$PORT" >/dev/null 2>&1 &
	sleep 0.3
	timeout 30 "$USBPERF" -F "$fmt" net client 127.0.0.1 -p "$PORT" -i 0 --sysroot "$root" "$@" \
		>"$WORK/c.out" 2>"$WORK/c.err" || bad "client $*: $(head -1 "$WORK/c.err")"
	wait
}
J() { jq -r "$1" "$WORK/c.out"; }
near() { within 0.1 "$2" "$3" && ok "$1: $2" || bad "$1: $2, expected $3"; }

fake_usb "$WORK/ncm" cdc_ncm 480 0525 a4a1 "NCM Gadget"
run "$WORK/ncm" json -b 100M -t 2
jq_check "$WORK/c.out" '.test.on_usb and .test.usb_device == "2-1" and .test.usb_driver == "cdc_ncm" and .test.usb_id == "0525:a4a1"' \
	"NCM: device, driver, id"
jq_check "$WORK/c.out" '.test.usb_speed == "high" and .test.iface == "lo" and .test.mtu == 1500' \
	"NCM: high speed, the interface, its MTU"
# 13 x 512 B per 125 us = 53.248 MB/s; a 1514 B frame is 1522.4 B on the bus; 1448 B of TCP payload
near "NCM: bulk ceiling MB/s" "$(J .test.usb_bulk_ceiling_mb_s)" 53.248
near "NCM: bus bytes per frame" "$(J .test.usb_frame_tx_bytes)" 1522.4
want=$(awk 'BEGIN { printf "%.4f", 53.248e6 * 1448 / 1522.4 * 8 / 1e6 }')
near "NCM: TCP goodput ceiling" "$(J .test.usb_goodput_ceiling_tx_mbit_s)" "$want"
near "NCM: the sender's row carries it" \
	"$(J '.results[] | select(.role == "sender" and .stream == "sum") | .usb_ceiling_mbit_s')" "$want"
eff=$(J '.results[] | select(.role == "receiver" and .stream == "sum") | .usb_efficiency_pct')
exp=$(awk -v w="$want" -v m="$(J '.results[] | select(.role == "receiver" and .stream == "sum") | .mbit_s')" \
	'BEGIN { printf "%.4f", 100 * m / w }')
near "NCM: efficiency = rate / ceiling" "$eff" "$exp"
jq_check "$WORK/c.out" '[.warnings[] | select(test("half duplex"))] | length == 1' \
	"NCM: warns that USB 2.0 is half duplex"
jq_check "$WORK/c.out" '.test.usb_framing | test("NTH16")' "NCM: names the framing"
# the recorded tree has no /proc: CPU comes from getrusage, not from the tree
jq_check "$WORK/c.out" '.test.cpu_pct >= 0 and .test.cpu_pct < 400' "CPU sane under --sysroot"

run "$WORK/ncm" text -b 50M -t 1
check "text: the USB block" grep -q '^  USB driver  *cdc_ncm' "$WORK/c.out"
check "text: the ceiling and efficiency columns" grep -qE 'ceiling +of ceil' "$WORK/c.out"

fake_usb "$WORK/rtl" r8152 5000 0bda 8153 "USB 10/100/1000 LAN"
run "$WORK/rtl" json -R -b 200M -t 1
jq_check "$WORK/c.out" '.test.usb_speed == "super" and .test.usb_driver == "r8152"' "r8153: SuperSpeed"
# 500 MB/s after 8b/10b, 1024 of 1056 B: 484.848 MB/s; 1524 B per frame sent, 1544 received
near "r8153: bus bytes per frame received" "$(J .test.usb_frame_rx_bytes)" 1544
want=$(awk 'BEGIN { printf "%.4f", 500e6 * 1024 / 1056 * 1448 / 1544 * 8 / 1e6 }')
near "r8153: TCP goodput ceiling received" "$(J .test.usb_goodput_ceiling_rx_mbit_s)" "$want"
jq_check "$WORK/c.out" '[.warnings[] | select(test("half duplex"))] | length == 0' \
	"r8153: SuperSpeed is full duplex: no such warning"

run "$WORK/ncm" json -u -b 20M -l 1400 -t 1
want=$(awk 'BEGIN { printf "%.4f", 53.248e6 * 1400 / (1400 + 42 + 4 + 2 + 24 / 11) * 8 / 1e6 }')
near "NCM: UDP goodput ceiling, 1400 B datagrams" "$(J .test.usb_goodput_ceiling_tx_mbit_s)" "$want"

# off USB: no USB fields, no ceiling columns
mkdir -p "$WORK/plain/sys/class/net/lo"
echo 65536 >"$WORK/plain/sys/class/net/lo/mtu"
run "$WORK/plain" json -t 1
jq_check "$WORK/c.out" '.test.on_usb == false and .test.usb_driver == null and .test.mtu == 65536' \
	"loopback: not on USB"
jq_check "$WORK/c.out" '[.results[] | .usb_ceiling_mbit_s] | all(. == null)' "loopback: no ceiling"
jq_check "$WORK/c.out" '.test.monitored == false and .test.not_monitored == null and .test.wire_mb_s == null' \
	"no --monitor: no wire figures, nothing said of them"

# --monitor: off USB the test runs and says why nothing was watched
run "$WORK/plain" json -t 1 --monitor
jq_check "$WORK/c.out" '.test.monitored == false and .test.not_monitored == "interface '"'lo'"' is not on USB" and .test.wire_mb_s == null and .test.overhead_pct == null and ([.results[] | select(.stream == "sum" and .bytes > 0)] | length == 2)' \
	"--monitor off USB: measured, not monitored, and why"
run "$WORK/plain" text -t 1 --monitor
grep -q "^  not monitored  *interface 'lo' is not on USB" "$WORK/c.out" && ok "--monitor off USB: said in the text" ||
	bad "--monitor off USB: no 'not monitored' line: $(grep -i monitor "$WORK/c.out")"
# on a (recorded) USB device that usbmon cannot watch here: measured, the reason given
run "$WORK/ncm" json -t 1 --monitor
jq_check "$WORK/c.out" '.test.on_usb and .test.monitored == false and (.test.not_monitored | length > 0) and ([.results[] | select(.stream == "sum" and .bytes > 0)] | length == 2)' \
	"--monitor, USB device not watchable: measured, the reason given"

# the server side takes --monitor too (issue 18): each test it serves says the same
srv() {	# SYSROOT server-args... -> $WORK/s.out (JSON), with a plain client
	local root=$1
	shift
	PORT=$((PORT + 1))
	timeout 30 "$USBPERF" -F json net server -1 -p "$PORT" -i 0 --sysroot "$root" "$@" \
		>"$WORK/s.out" 2>"$WORK/s.err" &
	sleep 0.3
	timeout 30 "$USBPERF" -q net client 127.0.0.1 -p "$PORT" -t 1 >/dev/null 2>&1 ||
		bad "client against server $*"
	wait $! || bad "server $*: $(head -1 "$WORK/s.err")"
}
srv "$WORK/plain" --monitor
jq_check "$WORK/s.out" '.test.role == "server" and .test.monitored == false and .test.not_monitored == "interface '"'lo'"' is not on USB" and .test.wire_mb_s == null and ([.results[] | select(.stream == "sum" and .bytes > 0)] | length == 2)' \
	"server --monitor off USB: measured, not monitored, and why"
srv "$WORK/ncm" --monitor
jq_check "$WORK/s.out" '.test.on_usb and .test.monitored == false and (.test.not_monitored | length > 0)' \
	"server --monitor, USB device not watchable: measured, the reason given"
srv "$WORK/ncm"
jq_check "$WORK/s.out" '.test.monitored == false and .test.not_monitored == null' \
	"server without --monitor: nothing said of the wire"
finish
