# Scenario gadget: the kernel's software USB loop. First usbperf gadget
# up/status/down for every profile at high and SuperSpeed on dummy_udc.0 (the
# host side must see each, configfs must be as before after each down), then: dummy_hcd gives two UDCs
# (SuperSpeed-capable); configfs gadgets bound to them enumerate on the host
# side of the same kernel: a composite (mass storage, NCM, HID) at
# SuperSpeed, a SourceSink held to high speed for usbtest.
MODULES="configfs dummy_hcd libcomposite usb_f_mass_storage usb_f_ncm usb_f_hid usb_f_ss_lb usb_f_ecm usb_f_rndis usb_f_uvc usb_f_fs usb_storage sd_mod cdc_ncm cdc_ether rndis_host usbhid hid_generic usbtest usbmon"
LAB_TOOLS="umtprd:umtp-responder"

# umtprd (Debian's umtp-responder) serves the mtp profile's FunctionFS function
LAB_BINS="umtprd"

qemu_args() { :; }

# gcheck DESCRIPTION CMD...: the command must succeed
gcheck() {
	local d=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$SCEN: $d"; else bad "$SCEN: $d"; fi
}

# lines_are FILE "up=0 down=0": the lines of FILE, space-joined
lines_are() { [ "$(tr '\n' ' ' <"$1")" = "$2 " ]; }

# dummy_hcd's allowance: bytes per timer round and rounds per second, as the bulk
# scenario derives them from dummy_timer() in Debian's 6.1 (the comment there);
# the same lines, read from there so that the two scenarios cannot disagree
eval "$(grep -E '^DUMMY_(HS_BYTES|SS_BYTES|ROUNDS)=' "$LAB_SRC/tests/lab/scenarios/bulk.sh")"
# allowance SPEED: what dummy_hcd moves at most in a second, MB/s (10^6 B/s)
allowance() {
	local b=$DUMMY_SS_BYTES
	[ "$1" = high ] && b=$DUMMY_HS_BYTES
	awk "BEGIN { print $b * $DUMMY_ROUNDS / 1e6 }"
}

# figure PROFILE SPEED PASS MB/S: a table line in the log, for the closing note
# (net: the receiver's count; OUT = host side to gadget, IN = gadget to host side)
figure() { printf '    figure  %-7s %-6s %-22s %9.2f\n' "$@"; }

# disk on the host side of usbperf's msc gadget: reads, a refused write, writes
check_msc() {
	local gc=$1 t=$2 speed=$3 allow blk k f path
	allow=$(allowance "$speed")
	blk=$(cat "$gc/blk-$t" 2>/dev/null)
	path=$(jq -r ".devices[] | select(.serial == \"GUP-$t\") | .path" "$gc/list-$t.json" 2>/dev/null)
	gcheck "disk $t: reads exit 0, writes refused without --destructive (2), done with it (0)" \
		lines_are "$gc/rc-disk-$t" "read=0 refused=2 write=0"
	gcheck "disk $t: the refusal in one line, naming --destructive" \
		eval "[ \"\$(wc -l <'$gc/disk-norw-$t.err')\" = 1 ] && grep -q -- --destructive '$gc/disk-norw-$t.err'"
	jq_check "$gc/list-$t.json" "[.nodes[] | select(.device == \"$path\" and .kind == \"disk\") | .name] == [\"$blk\"]" \
		"disk $t: /dev/$blk is list's disk node of GUP-$t"
	for k in read write; do
		f=$gc/disk-$k-$t.json
		jq_check "$f" ".target.usb_device == \"$path\" and .target.usb_driver == \"usb-storage\" and .target.usb_speed == \"$speed\" and .target.usb_ceiling_mb_s > 0" \
			"disk $t $k: the gadget's LUN, usb-storage at $speed speed, with its link's ceiling"
		jq_check "$f" "[.results[] | .name] == (if \"$k\" == \"read\" then [\"seq-read 4K\", \"seq-read 64K\", \"seq-read 1M\"] else [\"seq-write 64K\", \"seq-write 1M\"] end) and all(.results[]; .status == \"ok\" and .bytes > 0)" \
			"disk $t $k: every block size measured"
		jq_check "$f" "all(.results[]; .mb_s > 0 and .mb_s <= $allow)" \
			"disk $t $k: every figure above 0 and below dummy_hcd's allowance ($allow MB/s)"
		jq_check "$f" '[.results[] | select(.efficiency_pct_anomaly == true) | .name] == [.warnings[] | select(test("is above the .* link can carry")) | split(":")[0]]' \
			"disk $t $k: every figure past the link's ceiling said in a warning, no other"
		jq -r '.results[] | [.name, .mb_s] | @tsv' "$f" 2>/dev/null |
			while IFS=$'\t' read -r n v; do figure msc "$speed" "$n" "$v"; done
	done
}

# net between the gadget's two netdevs, the host side in its own namespace
check_net() {
	local gc=$1 t=$2 speed=$3 p=${2%-*} allow drv want gif hif path dir f
	allow=$(allowance "$speed")
	case $p in ncm) drv=cdc_ncm ;; ecm) drv=cdc_ether ;; rndis) drv=rndis_host ;; esac
	gif=$(sed -n 's/^gadget=\([^ ]*\) .*/\1/p' "$gc/netdevs-$t" 2>/dev/null)
	hif=$(sed -n 's/.* host=\(.*\)/\1/p' "$gc/netdevs-$t" 2>/dev/null)
	want="netns=0 ping=0 fwd=0 srv-fwd=0 rev=0 srv-rev=0"
	# the server --monitor's two tests, the server ended by SIGTERM (143), then run
	[ "$t" = ncm-super ] && want="$want mcli-fwd=0 mcli-rev=0 msrv=143 run=0"
	gcheck "net $t: netdev moved, ping, TCP each way, server and client exit 0, $hif back in the first namespace, no IPv4 address left" \
		lines_are "$gc/rc-net-$t" "$want back=0 addrs=0+0"
	# a link that needed its ends bounced to come up is said, with what the guest saw
	if grep -q '^retried' "$gc/ping-$t.txt" 2>/dev/null; then
		echo "note: net $t: the first ping failed; $(grep '^retried' "$gc/ping-$t.txt"); the guest's view:"
		sed 's/^/    /' "$gc/ping-$t.txt" | head -80
	fi
	path=$(jq -r ".devices[] | select(.serial == \"GUP-$t\") | .path" "$gc/list-$t.json" 2>/dev/null)
	jq_check "$gc/up-$t.json" ".functions[0].ifname == \"$gif\"" "net $t: gadget side $gif, up's ifname"
	jq_check "$gc/list-$t.json" "[.nodes[] | select(.device == \"$path\" and .kind == \"net\") | .name] == [\"$hif\"]" \
		"net $t: host side $hif, list's net node of GUP-$t"
	for dir in fwd rev; do
		f=$gc/net-$dir-$t.json
		jq_check "$f" ".test.direction == \"$([ $dir = fwd ] && echo forward || echo reverse)\" and .test.iface == \"$hif\" and .test.on_usb == true and .test.usb_device == \"$path\" and .test.usb_driver == \"$drv\" and .test.usb_speed == \"$speed\"" \
			"net $t $dir: the client's interface $hif, on USB by $drv at $speed speed"
		jq_check "$f" "[.results[] | select(.stream == \"sum\")] | length == 2 and all(.[]; .bytes > 0 and .mb_s > 0 and .mb_s <= $allow)" \
			"net $t $dir: bytes moved, both ends' rates above 0 and below dummy_hcd's allowance ($allow MB/s)"
		jq_check "$gc/net-srv-$dir-$t.json" ".test.iface == \"$gif\"" "net $t $dir: the server's interface, the gadget side's $gif"
		# --monitor: every byte the receiver counted crossed the bus inside the capture
		# (usbmon can still lose events when the guest's one CPU is slow to read: then
		# the figures must say they are lower bounds)
		jq_check "$f" '(.test | .monitored == true and .usb_errors == 0 and .urb_size > 0 and .payload_bytes > 0 and .wire_mb_s > 0) and (if .test.wire_dropped == 0 then .test.wire_bytes >= .test.payload_bytes and .test.overhead_pct > 0 and .test.overhead_pct < 50 else any(.warnings[]; test("lower bounds")) end)' \
			"net $t $dir --monitor: wire bytes (usbmon) at least the payload the receiver counted, overhead 0-50 %, no USB errors (or events lost and said)"
		jq -r '.test | "    figure  wire \(.direction): \(.wire_bytes) B on the wire for \(.payload_bytes) B payload, \(.overhead_pct)% overhead, URB \(.urb_size) B, \(.wire_mb_s) MB/s"' "$f" 2>/dev/null
		jq -r '.results[] | select(.stream == "sum" and .role == "receiver") | [.dir, .mb_s] | @tsv' "$f" 2>/dev/null |
			while IFS=$'\t' read -r d v; do figure "$p" "$speed" "tcp $([ "$d" = tx ] && echo OUT || echo IN) (client $d)" "$v"; done
	done
	[ "$t" = ncm-super ] || return 0
	check_net_server_monitor "$gc" "$t" "$hif" "$path" "$drv"
	# usbperf run --peer from the host side's namespace: the netdev found on USB, measured
	f=$gc/run-$t.json
	jq_check "$f" "[.plan[] | {device, target, kind}] == [{\"device\": \"$path\", \"target\": \"net:10.16.0.1 via $hif\", \"kind\": \"usb-net\"}]" \
		"run --peer $t: plans $hif of $path, and nothing else"
	jq_check "$f" "[.devices[] | {device, serial, driver, speed}] == [{\"device\": \"$path\", \"serial\": \"GUP-$t\", \"driver\": \"$drv\", \"speed\": \"$speed\"}]" \
		"run --peer $t: the record names the device, its driver $drv and $speed speed"
	jq_check "$f" "[.results[] | .name] == [\"tcp send\", \"tcp receive\"] and all(.results[]; .mb_s > 0 and .mb_s <= $allow and .ceiling_mb_s > 0)" \
		"run --peer $t: TCP each way, rates above 0 and below dummy_hcd's allowance, each with its ceiling"
	jq -r '.results[] | [.name, .mb_s] | @tsv' "$f" 2>/dev/null |
		while IFS=$'\t' read -r d v; do figure "$p" "$speed" "run $d" "$v"; done
	# run watches USB network passes on usbmon by default
	jq_check "$f" '[.metrics[] | select(.test == "net" and (.metric == "wire_mb_s" or .metric == "overhead_pct")) | .name] | sort == ["tcp receive", "tcp receive", "tcp send", "tcp send"]' \
		"run --peer $t: each pass's wire rate and overhead share recorded (usbmon)"
	jq_check "$f" '[.findings[] | select(.id == "usbmon.net_overhead")] | length >= 1' \
		"run --peer $t: the wire overhead said, with its evidence"
}

# net server --monitor on the host side (the USB network device's), a client on the
# gadget side: each test the server served carries the wire figures the client side's
# do, against the same truths (the wire holds every payload byte this end counted)
check_net_server_monitor() {
	local gc=$1 t=$2 hif=$3 path=$4 drv=$5 s=$1/net-msrv-$2.all.json
	jq -s . "$gc/net-msrv-$t.json" >"$s" 2>/dev/null
	jq_check "$s" "[.[] | .test | .direction] == [\"forward\", \"reverse\"] and all(.[]; .test.role == \"server\" and .test.iface == \"$hif\" and .test.usb_device == \"$path\" and .test.usb_driver == \"$drv\")" \
		"net server --monitor $t: two tests served on $hif, $path by $drv"
	jq_check "$s" 'all(.[]; (.test | .monitored == true and .not_monitored == null and .usb_errors == 0 and .urb_size > 0 and .payload_bytes > 0 and .wire_mb_s > 0) and (if .test.wire_dropped == 0 then .test.wire_bytes >= .test.payload_bytes and .test.overhead_pct > 0 and .test.overhead_pct < 50 else any(.warnings[]; test("lower bounds")) end))' \
		"net server --monitor $t: each test's wire bytes at least the payload this end counted, overhead 0-50 %, no USB errors (or events lost and said)"
	# the same wire fields as the client side's --monitor result
	jq -s '.[0].test | [keys[] | select(test("wire|urb_size|usb_errors|payload|overhead|monitored"))]' \
		"$gc/net-fwd-$t.json" >"$gc/keys-cli.json" 2>/dev/null
	jq_check "$s" "[.[] | .test | [keys[] | select(test(\"wire|urb_size|usb_errors|payload|overhead|monitored\"))]] | all(. == $(jq -c . "$gc/keys-cli.json" 2>/dev/null || echo null))" \
		"net server --monitor $t: the wire fields the client's --monitor gives ($(jq -r 'join(" ")' "$gc/keys-cli.json" 2>/dev/null))"
	jq -r '.[] | .test | "    figure  server wire \(.direction): \(.wire_bytes) B on the wire for \(.payload_bytes) B payload, \(.overhead_pct)% overhead, URB \(.urb_size) B, \(.wire_mb_s) MB/s"' "$s" 2>/dev/null
}

# mtp: umtprd started by up with the sizes asked for, bound, an interface of
# class 6 (Still Image) on the host side with no driver; down stops umtprd
check_mtp() {
	local gc=$1 t=$2 speed=$3 rd=65536 wr=65536 cache=1048576 pid
	[ "$speed" = super ] && rd=16384 wr=32768 cache=262144
	gcheck "gadget $t: up and down exit 0" lines_are "$gc/rc-$t" "up=0 down=0"
	[ -s "$gc/up-$t.err" ] && sed 's/^/    /' "$gc/up-$t.err"
	# mtp-super: no --max-speed on the SuperSpeed UDC; Debian's umtprd writes no
	# SuperSpeed descriptors (the host reads "no configurations" at 5 Gb/s), so
	# up holds the gadget to high speed
	jq_check "$gc/up-$t.json" ".gadget.udc == \"dummy_udc.0\" and .gadget.unbound == null and .gadget.max_speed == \"high-speed\"" \
		"gadget $t: bound by up once umtprd wrote its descriptors, at high speed$([ "$speed" = super ] && echo " (held there on the SuperSpeed UDC)")"
	jq_check "$gc/up-$t.json" ".functions[0] | .function == \"ffs.mtp\" and .rd_buffer_bytes == $rd and .wr_buffer_bytes == $wr and .cache_bytes == $cache and .daemon_pid > 1" \
		"gadget $t: up reports umtprd's pid and the buffer sizes it configured ($rd, $wr, $cache)"
	gcheck "gadget $t: umtprd's log shows the sizes it took" \
		eval "grep -q 'USB Max read buffer size : 0x$(printf %X $rd) bytes' '$gc/umtprd-$t.log' &&
			grep -q 'USB Max write buffer size : 0x$(printf %X $wr) bytes' '$gc/umtprd-$t.log' &&
			grep -q 'Read file buffer size : 0x$(printf %X $cache) bytes' '$gc/umtprd-$t.log'"
	jq_check "$gc/list-$t.json" "[.devices[] | select(.serial == \"GUP-$t\") | .speed] == [\"high\"]" "gadget $t: the host sees it at high speed"
	jq_check "$gc/list-$t.json" "(.devices[] | select(.serial == \"GUP-$t\") | .path) as \$d | [.interfaces[] | select(.device == \$d) | {class_code, driver}] == [{\"class_code\": 6, \"driver\": null}]" \
		"gadget $t: one interface of class 6 (Still Image), bound to no driver"
	pid=$(jq -r '.functions[0].daemon_pid' "$gc/up-$t.json" 2>/dev/null)
	jq_check "$gc/status-$t.json" "[.usbperf_gadgets[] | {gadget, daemon, daemon_pid, daemon_state}] == [{\"gadget\": \"usbperf\", \"daemon\": \"/usr/bin/umtprd\", \"daemon_pid\": ${pid:-0}, \"daemon_state\": \"running\"}]" \
		"gadget $t: status shows umtprd, its pid, running"
	gcheck "gadget $t: one umtprd while up, none after down, functionfs unmounted" lines_are "$gc/procs-$t" "1 0 0"
	gcheck "gadget $t: down removed the configuration, log and storage from /run/usbperf" \
		test ! -s "$gc/run-$t.txt"
}

# the cycles of usbperf gadget up/status/down (gadget_cycles in the guest)
check_cycles() {
	local o=$1 gc=$1/gc speed p t want drivers
	rm -rf "$gc"
	tar xzf "$o/gadget-cycles.tgz" -C "$o" 2>/dev/null
	if [ ! -s "$gc/cfs-before.txt" ]; then bad "$SCEN: no gadget cycles came out"; return; fi
	printf '    figure  %-7s %-6s %-22s %9s\n' profile speed pass "MB/s (10^6 B/s)"
	for speed in high super; do
		for p in msc ncm ecm rndis hid sourcesink loopback composite uvc ffs mtp; do
			t=$p-$speed
			case $p in
			msc) drivers='["usb-storage"]' ;;
			ncm) drivers='["cdc_ncm"]' ;;
			ecm) drivers='["cdc_ether"]' ;;
			rndis) drivers='["rndis_host"]' ;;
			hid) drivers='["usbhid"]' ;;
			sourcesink | loopback) drivers='["usbtest"]' ;;
			composite) drivers='["cdc_ncm", "usb-storage", "usbhid"]' ;;
			esac
			if cmp -s "$gc/cfs-before.txt" "$gc/cfs-after-$t.txt"; then
				ok "$SCEN: gadget $t: down left configfs as before"
			else
				bad "$SCEN: gadget $t: configfs differs after down:"
				diff "$gc/cfs-before.txt" "$gc/cfs-after-$t.txt" | head -5 | sed 's/^/    /'
			fi
			case $p in
			uvc)
				# dummy_hcd has no isochronous endpoints: the bind fails, and up undoes itself
				if grep -qx "up=0" "$gc/rc-$t"; then
					gcheck "gadget $t: bound, then down exit 0" grep -qx "down=0" "$gc/rc-$t"
				else
					gcheck "gadget $t: a failed up exits 2 or 3" grep -Eqx 'up=[23]' "$gc/rc-$t"
					gcheck "gadget $t: a failed up says so in one line" \
						test "$(wc -l <"$gc/up-$t.err")" = 1
				fi
				continue ;;
			ffs)
				gcheck "gadget $t: up and down exit 0" lines_are "$gc/rc-$t" "up=0 down=0"
				jq_check "$gc/up-$t.json" '.gadget.unbound | test("descriptors")' "gadget $t: left unbound, says why"
				jq_check "$gc/status-$t.json" '[.gadgets[] | select(.name == "usbperf") | .udc] == [null]' "gadget $t: status shows it unbound"
				gcheck "gadget $t: functionfs mounted by up, unmounted by down" lines_are "$gc/mounts-$t" "1 0"
				continue ;;
			mtp)
				check_mtp "$gc" "$t" "$speed"
				continue ;;
			esac
			case $p in
			msc) check_msc "$gc" "$t" "$speed" ;;
			ncm | ecm | rndis) check_net "$gc" "$t" "$speed" ;;
			esac
			gcheck "gadget $t: up and down exit 0" lines_are "$gc/rc-$t" "up=0 down=0"
			check_eps "$gc" "$t"
			jq_check "$gc/up-$t.json" ".gadget.udc == \"dummy_udc.0\" and .gadget.max_speed == \"$speed-speed\" and .gadget.udc_state != null" "gadget $t: up reports its UDC and speed"
			jq_check "$gc/list-$t.json" "[.devices[] | select(.serial == \"GUP-$t\") | .speed] == [\"$speed\"]" "gadget $t: the host sees it at $speed speed"
			jq_check "$gc/list-$t.json" "(.devices[] | select(.serial == \"GUP-$t\") | .path) as \$d | [.interfaces[] | select(.device == \$d) | .driver] | unique == $drivers" "gadget $t: host drivers $drivers"
			jq_check "$gc/status-$t.json" "[.usbperf_gadgets[] | {gadget, udc}] == [{\"gadget\": \"usbperf\", \"udc\": \"dummy_udc.0\"}] and ([.udcs[] | select(.name == \"dummy_udc.0\") | .current_speed] == [\"$speed-speed\"])" "gadget $t: status: ours, bound, UDC at $speed-speed"
		done
	done
	jq_check "$gc/up-ncm-super.json" '.functions[0].ifname | test("^usb[0-9]+$")' "gadget ncm: ifname read back"
	jq_check "$gc/status-rndis-high.json" '.gadget_functions[] | select(.function == "rndis.0") | .dev_addr == "02:00:00:00:00:11" and .host_addr == "02:00:00:00:00:12"' "gadget rndis: MAC addresses as given"
	jq_check "$gc/status-hid-super.json" '.gadget_functions[] | select(.function == "hid.0") | .report_length_bytes == 64' "gadget hid vendor64: report length 64"
	gcheck "msc without file: refused, exit 2" grep -qx "up=2" "$gc/rc-nofile"
	gcheck "msc without file refused, text views up and down: configfs as before" cmp -s "$gc/cfs-before.txt" "$gc/cfs-end.txt"
	gcheck "gadget up mtp:rd_buffer=32K as text: the buffer sizes in the functions table" \
		eval "grep -q 'rd buffer' '$gc/up-mtp.txt' && grep -Eq 'ffs\.mtp .* 32 KiB +64 KiB +1 MiB' '$gc/up-mtp.txt'"
}

# check_eps GC T: the endpoints up printed (from the function drivers' 6.1
# descriptors) are the ones the host enumerated: type, direction,
# wMaxPacketSize and, for interrupt endpoints, the service interval. Up's
# isochronous ones are left out: dummy_hcd has none, SourceSink drops them.
check_eps() {
	local gc=$1 t=$2 host up
	host=$(awk '{ t = tolower($1); if (t == "isoc") t = "isochronous"
		iv = $4; us = iv ~ /us$/ ? iv + 0 : iv ~ /ms$/ ? (iv + 0) * 1000 : -1
		print t, $2, $3, (t == "interrupt" ? us : "-") }' "$gc/eps-$t.txt" | sort)
	up=$(jq -r '.functions[].endpoints[]? | select(.type != "isochronous") |
		"\(.type) \(.dir) \(.max_packet_bytes) \(if .type == "interrupt" then .interval_us else "-" end)"' \
		"$gc/up-$t.json" | sort)
	if [ -n "$host" ] && [ "$host" = "$up" ]; then
		ok "$SCEN: gadget $t: the endpoints up printed are the ones the host enumerated ($(echo "$host" | wc -l))"
	else
		bad "$SCEN: gadget $t: endpoints: host [$(echo "$host" | tr '\n' ';')] up [$(echo "$up" | tr '\n' ';')]"
	fi
}

check() {
	local o=$1 L=$1/list.json S=$1/sysinfo.json
	check_cycles "$o"
	gcheck "gadget down g1 (not usbperf's): exit 2" grep -qx 2 "$o/down-g1.rc"
	gcheck "gadget down g1: says usbperf's names" grep -q "usbperf's gadgets are 'usbperf' or 'usbperf-NAME'" "$o/down-g1.err"
	jq_check "$o/status.json" '[.gadgets[] | .name] == ["g1", "g2"] and .usbperf_gadgets == []' "g1 and g2 still there after the refusal"
	# 28.12: --force removes only what usbperf made: another tool's g1 stays
	gcheck "gadget down --force g1: exit 2" test "$(tail -1 "$o/force-g1.txt")" = 2
	gcheck "gadget down --force g1: g1 and g2 left" test "$(tr '\n' ' ' <"$o/cfs-force.txt")" = \
		"/sys/kernel/config/usb_gadget /sys/kernel/config/usb_gadget/g1 /sys/kernel/config/usb_gadget/g2 "
	dev() { echo ".devices[] | select(.serial == \"$1\")"; }
	# the gadget side, from sysinfo
	jq_check "$S" '[.gadgets[] | {name, udc}] == [{"name": "g1", "udc": "dummy_udc.0"}, {"name": "g2", "udc": "dummy_udc.1"}]' "gadgets bound to their UDCs"
	jq_check "$S" '[.gadget_functions[] | .function] | sort == ["SourceSink.0", "hid.0", "mass_storage.0", "ncm.usb0"]' "the four functions"
	jq_check "$S" '.gadget_functions[] | select(.function == "hid.0") | .report_length_bytes == 8 and .protocol == 1' "hid function: report length, protocol"
	jq_check "$S" '.gadget_functions[] | select(.function == "SourceSink.0") | .bulk_buflen_bytes == 4096' "SourceSink bulk_buflen"
	jq_check "$S" '[.gadget_luns[] | select(.function == "mass_storage.0") | .file] == ["/tmp/ms.img"]' "mass storage LUN backed by /tmp/ms.img"
	jq_check "$S" '[.udcs[] | {name, current_speed, maximum_speed, state}] == [{"name": "dummy_udc.0", "current_speed": "super-speed", "maximum_speed": "super-speed", "state": "configured"}, {"name": "dummy_udc.1", "current_speed": "high-speed", "maximum_speed": "super-speed", "state": "configured"}]' "UDC states and speeds"
	jq_check "$S" '[.findings[] | select(.id == "udc.speed_below_max") | .subject] == ["dummy_udc.1"]' "finding: the UDC held to high speed"
	# the host side, from list
	jq_check "$L" '[.controllers[] | .kind] | unique == ["dummy_hcd"]' "host controllers: dummy_hcd"
	jq_check "$L" "$(dev LABGADGET1) | .speed == \"super\" and .vid_pid == \"1d6b:0104\" and .product == \"lab g1\"" "g1 enumerated at SuperSpeed with its strings"
	jq_check "$L" "($(dev LABGADGET1) | .path) as \$p | [.interfaces[] | select(.device == \$p) | .driver] | sort == [\"cdc_ncm\", \"cdc_ncm\", \"usb-storage\", \"usbhid\"]" "g1 interfaces: usb-storage, cdc_ncm, usbhid"
	jq_check "$L" "$(dev LABGADGET2) | .speed == \"high\"" "g2 enumerated at high speed"
	jq_check "$L" "($(dev LABGADGET2) | .path) as \$p | [.interfaces[] | select(.device == \$p) | .driver] == [\"usbtest\"]" "g2 bound to usbtest"
	jq_check "$L" "($(dev LABGADGET1) | .path) as \$p | [.nodes[] | select(.device == \$p) | .kind] | sort == [\"disk\", \"hidraw\", \"net\"]" "g1 became a disk, a netdev and a hidraw node"
	jq_check "$L" "($(dev LABGADGET2) | .path) as \$p | .findings[] | select(.id == \"usb.speed_below_capability\" and .subject == \$p) | .fix | test(\"did not link\")" "g2 held to high speed on a SuperSpeed-capable port: the cable/link fix"
	jq_check "$o/disk-gadget.json" 'def eff: (.efficiency_pct > 0 and .efficiency_pct <= 100 and .efficiency_pct_anomaly == false) or (.efficiency_pct == null and .efficiency_pct_anomaly == true and .mb_s > .ceiling_mb_s); .target.usb_driver == "usb-storage" and .target.usb_speed == "super" and (.target.usb_ceiling_mb_s | floor) == 484 and all(.results[]; .mb_s > 0 and eff)' "disk on the gadget's LUN: read, ceiling and its share (or the anomaly flagged)"
}
