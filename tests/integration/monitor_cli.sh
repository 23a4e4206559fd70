#!/bin/bash
# usbperf monitor without a bus to watch: bad input refused with one line,
# exit 2, nothing written (no --pcap left behind); the figures of the lab's
# recorded captures read back with --read (exact bytes, URB sizes, the
# Bulk-Only CBW/CSW pairs); no usbmon said as such. The live capture is tested
# in the QEMU lab (tests/lab/scenarios/usb-host.sh), against tshark.
. "$(dirname "$0")/lib.sh"

FIX=$(cd "$(dirname "$0")/../fixtures/usbmon" && pwd)
out=$WORK/mon.json

refused 2 "bad --time" "$out" -- "$USBPERF" monitor --time x -o "$out"
says "invalid --time 'x': expected seconds" "bad --time: why"
refused 2 "--bus 0" "$out" -- "$USBPERF" monitor --bus 0 -o "$out"
says "invalid --bus '0': expected a bus number 1..127" "--bus 0: the range"
refused 2 "--snaplen 0" "$out" -- "$USBPERF" monitor --snaplen 0 --pcap "$WORK/s.pcapng" -o "$out"
says "invalid --snaplen '0'" "--snaplen 0: why"
refused 2 "--snaplen without --pcap" "$out" -- "$USBPERF" monitor --snaplen 64 -o "$out"
says "--snaplen is for --pcap" "--snaplen without --pcap: why"
refused 2 "--read with a DEVICE" "$out" -- "$USBPERF" monitor 1-1 --read "$FIX/bot-read.pcapng" -o "$out"
refused 2 "--read a missing file" "$out" -- "$USBPERF" monitor --read "$WORK/none.pcapng" -o "$out"
printf 'not a capture' >"$WORK/text"
refused 2 "--read a file that is no pcapng" "$out" "$WORK/text" -- "$USBPERF" monitor --read "$WORK/text" -o "$out"
says "not a pcapng file" "--read no pcapng: why"
cp "$FIX/bot-read.pcapng" "$WORK/in.pcapng"
refused 2 "--read and --output the same file" "$WORK/in.pcapng" -- "$USBPERF" monitor --read "$WORK/in.pcapng" -o "$WORK/in.pcapng"
refused 2 "--pcap and --output the same file" "$WORK/in.pcapng" -- "$USBPERF" monitor --time 1 --pcap "$WORK/x.pcapng" -o "$WORK/x.pcapng"
check "--pcap and --output the same file: neither written" test ! -e "$WORK/x.pcapng"
head -c 1000 "$FIX/bot-read.pcapng" >"$WORK/cut.pcapng"
refused 2 "--read a cut capture" "$out" -- "$USBPERF" monitor --read "$WORK/cut.pcapng" -o "$out"
says "bad length|truncated" "--read a cut capture: why"

# the lab's captures, read back: the same figures the lab asserted live
expect_status 0 "--read the Bulk-Only capture" "$USBPERF" monitor --read "$FIX/bot-read.pcapng" -F json -o "$out"
jq_check "$out" '(.devices | length) == 1 and .devices[0].urb_size_bytes == 1048576 and .devices[0].in_bytes == 4194304 + 5 * 13 and .devices[0].out_bytes == 5 * 31' "BOT: 4 MiB + five 13 B CSWs in, five 31 B CBWs out, 1 MiB URBs"
jq_check "$out" '[.endpoints[] | {endpoint, sizes}] == [{"endpoint": "0x02", "sizes": "31:5"}, {"endpoint": "0x81", "sizes": "13:5 12288:1 1036288:1 1048576:3"}]' "BOT: one CBW, one data URB, one CSW per command"
jq_check "$out" '.devices[0].inflight_max == 1 and .devices[0].unmatched == 0 and .devices[0].errors == 0 and .capture.lower_bound == false' "BOT: one URB at a time, all matched, no errors"
expect_status 0 "--read the UAS capture" "$USBPERF" monitor --read "$FIX/uas-read.pcapng" -F json -o "$out"
jq_check "$out" '.devices[0].urb_size_bytes == 524288 and ([.endpoints[] | select(.dir == "in" and .urb_size_bytes == 524288) | .bytes] == [4194304])' "UAS: 4 MiB in 512 KiB URBs on the data-in pipe"
jq_check "$out" '.devices[0].inflight_max > 1' "UAS: more than one URB in flight (command, status and data pipes)"
expect_status 0 "--read as CSV" "$USBPERF" monitor --read "$FIX/bot-read.pcapng" -F csv -o "$out"
check "CSV: the device rows" grep -q '^device,bus,devnum,' "$out"
expect_status 0 "--read --bus 9: nothing on it" "$USBPERF" monitor --read "$FIX/bot-read.pcapng" --bus 9 -F json -o "$out"
jq_check "$out" '(.devices | length) == 0 and .capture.events == 0' "--bus filters the events read"

# live: not root, a bad --pcap, no such device, no usbmon
if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	refused 2 "not root" "$out" -- setpriv --reuid=65534 --regid=65534 --clear-groups "$USBPERF" monitor --time 1
	says "monitor needs root" "not root: said"
fi
if [ "$(id -u)" = 0 ]; then
	P=$WORK/p
	mkdir "$P"
	touch "$P/old.pcapng"
	refused 2 "--pcap over an existing file" "$P/old.pcapng" -- "$USBPERF" monitor --time 1 --pcap "$P/old.pcapng"
	says "refusing --pcap '.*old.pcapng': it exists" "--pcap existing: why"
	ln -s "$P/elsewhere" "$P/link.pcapng"
	refused 2 "--pcap through a symlink" "$P" -- "$USBPERF" monitor --time 1 --pcap "$P/link.pcapng"
	check "--pcap symlink: its target not created" test ! -e "$P/elsewhere"
	mkdir "$P/dir.pcapng"
	refused 2 "--pcap a directory" "$P/dir.pcapng" -- "$USBPERF" monitor --time 1 --pcap "$P/dir.pcapng"
	mkfifo "$P/fifo"
	refused 2 "--pcap a FIFO" "$P/fifo" -- "$USBPERF" monitor --time 1 --pcap "$P/fifo"
	refused 2 "--pcap in a missing directory" "$P" -- "$USBPERF" monitor --time 1 --pcap "$P/no/x.pcapng"
	refused 2 "no such device" "$P" -- "$USBPERF" monitor 9-9 --time 1 --pcap "$P/new.pcapng"
	says "no USB device '9-9'" "no such device: named"
	check "no such device: the --pcap not left behind" test ! -e "$P/new.pcapng"
	refused 2 "no such bus" "$P" -- "$USBPERF" monitor --bus 127 --time 1
	says "no USB bus '127'" "no such bus: named"
	if [ ! -e /sys/class/usbmon ] && ! modprobe -n -q usbmon 2>/dev/null; then
		refused 2 "no usbmon" "$P" -- "$USBPERF" monitor --time 1 --pcap "$P/new.pcapng"
		says "^usbperf: usbmon is not available: not (built|loadable)" "no usbmon: which"
		check "no usbmon: the --pcap not left behind" test ! -e "$P/new.pcapng"
	fi
fi
finish
