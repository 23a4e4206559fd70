# Scenario usb-host: QEMU's emulated devices on real host-side drivers.
#   xHCI (8 USB 2 ports, 4 of them also SuperSpeed): a Bulk-Only disk and a UAS
#   disk at 5 Gbit/s, a Bulk-Only disk on a USB 2-only port, a hub with a
#   keyboard and a Bulk-Only disk (full speed) behind it, a CDC Ethernet
#   adapter (switched to RNDIS later);
#   EHCI: one more disk at 480 Mbit/s.
# script (util-linux): a pseudo-terminal for monitor's live view
LAB_BINS="script"
MODULES="xhci_pci ehci_pci usb_storage uas sd_mod usbhid hid_generic cdc_ether rndis_host usbmon"
LAB_TOOLS="truncate:coreutils script:bsdutils"

qemu_args() { # qemu_args DIR: devices, their backing files created in DIR
	local d
	for d in bot uas usb2port ehci hub; do
		lab_step "$1/prep.log" "usb-host: the disk image $1/$d.img (truncate)" truncate -s 64M "$1/$d.img"
	done
	echo -device qemu-xhci,id=xhci,p2=8,p3=4 \
		-drive if=none,id=bot,file="$1/bot.img",format=raw"$(lab_drive_meter bot)" \
		-device usb-storage,bus=xhci.0,port=1,drive=bot,serial=LABBOT \
		-drive if=none,id=uas,file="$1/uas.img",format=raw"$(lab_drive_meter uas)" \
		-device usb-uas,id=uasdev,bus=xhci.0,port=2,serial=LABUAS \
		-device scsi-hd,bus=uasdev.0,drive=uas \
		-device usb-hub,bus=xhci.0,port=3 -device usb-kbd,bus=xhci.0,port=3.1 \
		-drive if=none,id=hub,file="$1/hub.img",format=raw \
		-device usb-storage,bus=xhci.0,port=3.2,drive=hub,serial=LABHUB \
		-netdev user,id=n,restrict=on -device usb-net,bus=xhci.0,port=4,netdev=n \
		-drive if=none,id=usb2port,file="$1/usb2port.img",format=raw \
		-device usb-storage,bus=xhci.0,port=5,drive=usb2port,serial=LABUSB2PORT \
		-device usb-ehci,id=ehci \
		-drive if=none,id=ehci,file="$1/ehci.img",format=raw \
		-device usb-storage,bus=ehci.0,drive=ehci,serial=LABEHCI
}

check() { # check DIR: assertions on what the guest wrote
	local o=$1 L=$1/list.json d n
	jq_check "$L" '[.controllers[].kind] | sort == ["ehci", "xhci", "xhci"]' "controllers: xHCI (two root hubs) and EHCI"
	jq_check "$L" 'all(.controllers[] | select(.kind == "xhci"); .bus_type == "pci" and .driver == "xhci_hcd" and .irq != null)' "xHCI on PCI, driver xhci_hcd, IRQ known"
	jq_check "$L" '.controllers[] | select(.kind == "ehci") | .driver == "ehci-pci"' "EHCI driver ehci-pci"
	dev() { echo ".devices[] | select(.serial == \"$1\")"; }
	jq_check "$L" "$(dev LABBOT) | .speed == \"super\" and .usb_version == \"3.00\"" "Bulk-Only disk at 5 Gbit/s"
	jq_check "$L" "$(dev LABUAS) | .speed == \"super\"" "UAS disk at 5 Gbit/s"
	jq_check "$L" "$(dev LABUSB2PORT) | .speed == \"high\" and .capable_speed == \"super\" and .capable_source == \"bos\" and .port_peer == null" "disk on the USB 2-only port: high speed, BOS says SuperSpeed, no peer"
	jq_check "$L" "$(dev LABEHCI) | .speed == \"high\"" "EHCI disk at 480"
	jq_check "$L" "($(dev LABBOT) | .path) as \$p | [.interfaces[] | select(.device == \$p) | .driver] == [\"usb-storage\"]" "BOT disk bound to usb-storage"
	jq_check "$L" "($(dev LABUAS) | .path) as \$p | [.interfaces[] | select(.device == \$p) | .driver] == [\"uas\"]" "UAS disk bound to uas"
	jq_check "$L" '[.nodes[] | select(.kind == "disk")] | length == 5 and all(.[]; .name | test("^sd[a-z]$"))' "five USB disks mapped to /dev/sdX"
	jq_check "$L" '[.devices[] | select(.class == "hub" and .depth == 1)] | length == 1' "hub on port 3"
	jq_check "$L" '[.devices[] | select(.parent != null and (.parent | test("-3$")))] | length == 2 and all(.[]; .depth == 2 and .speed == "full")' "keyboard and disk behind the hub, full speed"
	jq_check "$L" '[.interfaces[] | select(.driver == "usbhid")] | length >= 1' "keyboard bound to usbhid"
	jq_check "$L" '[.nodes[] | select(.kind == "hidraw")] | length >= 1' "keyboard hidraw node"
	jq_check "$L" '[.interfaces[] | select(.driver == "cdc_ether")] | length == 2' "usb-net (control and data interfaces) bound to cdc_ether"
	jq_check "$L" '[.nodes[] | select(.kind == "net")] | length == 1 and (.[0].mac | test("^[0-9a-f:]{17}$"))' "usb-net netdev with its MAC"
	jq_check "$o/list-rndis.json" '[.interfaces[] | select(.driver == "rndis_host")] | length >= 1' "usb-net in configuration 2 bound to rndis_host"
	jq_check "$L" "[($(dev LABUSB2PORT) | .path), ($(dev LABEHCI) | .path)] as \$p | [.findings[] | select(.id == \"usb.speed_below_capability\") | .subject] == \$p" "finding: the SuperSpeed disks at 480 (USB 2 port, EHCI), and no other"
	jq_check "$L" "($(dev LABUSB2PORT) | .path) as \$p | .findings[] | select(.id == \"usb.speed_below_capability\" and .subject == \$p) | .fix | test(\"no SuperSpeed peer\")" "USB 2 port fix: move to a USB 3 port"
	jq_check "$L" "($(dev LABEHCI) | .path) as \$p | .findings[] | select(.id == \"usb.speed_below_capability\" and .subject == \$p) | .fix | test(\"ehci .* is USB 2 only\")" "EHCI fix: use an xHCI port"
	jq_check "$L" "($(dev LABHUB) | .path) as \$p | .findings[] | select(.id == \"usb.full_speed_data_device\" and .subject == \$p) | (.message | test(\"behind the full-speed .* hub 1-3 \\\\(0409:55aa\")) and (.evidence | test(\"hub 1-3 links at 12 Mbit/s .* 2 devices below it\")) and (.fix | test(\"move the device off the full-speed\"))" "the disk behind QEMU's full-speed hub: the hub named (1-3, 0409:55aa), the keyboard beside it counted, the fix moves the disk"
	jq_check "$L" "($(dev LABBOT) | .path) as \$p | [.findings[] | select(.id == \"usb.storage_bot\") | .subject] == [\$p]" "finding: SuperSpeed disk on Bulk-Only, not UAS"
	jq_check "$o/sysinfo.json" '.usb.usbcore_loaded == true and .usb.usbfs_memory_mb == 16' "sysinfo: usbcore and usbfs_memory_mb"
	for d in "$o"/disk-sd?.json; do
		n=$(basename "$d" .json)
		jq_check "$d" 'def eff: (.efficiency_pct > 0 and .efficiency_pct <= 100 and .efficiency_pct_anomaly == false) or (.efficiency_pct == null and .efficiency_pct_anomaly == true and .mb_s > .ceiling_mb_s); .results[0].mb_s > 0 and .target.usb_device != null and (.target.usb_ceiling_mb_s == 1.216 or .target.usb_ceiling_mb_s == 53.248 or (.target.usb_ceiling_mb_s | floor) == 484) and .results[0].ceiling_mb_s == .target.usb_ceiling_mb_s and (.results[0] | eff)' "$n: read, on USB, with its ceiling and its share of it (or, above it, the anomaly flagged)"
		# issue 20.3: the controller's lines (xHCI MSI-X, EHCI's) counted per CPU around the pass
		jq_check "$d" '.results[0].irq_count > 0 and (.results[0].irq_per_cpu | test("^cpu[0-9]+ [1-9][0-9]*(, cpu[0-9]+ [0-9]+)*$")) and .results[0].irq_cpu >= 0 and .results[0].io_cpu >= 0 and .results[0].irq_share_pct >= 0' "$n: the controller's interrupts per CPU during the pass, the CPU that took them, the I/O thread's"
	done
	jq_check "$o/run.json" '[.metrics[] | select(.test == "disk" and .metric == "irq_count")] | length == 25 and all(.[]; .value > 0)' "run: the controller's interrupts counted in each of the 25 disk passes"
	jq_check "$o/run.json" '[.metrics[] | select(.test == "disk" and (.metric | test("^irq_count_cpu[0-9]+$")))] as $c | ($c | length) >= 25 and all($c[]; .value > 0 and .unit == "IRQs") and ([$c[] | .device + "|" + .name] | unique | length) == 25' "run: per-CPU counts of the xHCI and EHCI lines for every disk pass"
	jq_check "$o/run.json" '[.plan[] | select(.kind != "usb-hid")] | length == 5 and all(.[]; .read_only and (.target | test("^/dev/sd[a-e]$")) and (.device | test("^[0-9]+-[0-9.]+$")))' "run: the five unmounted USB disks, read-only"
	jq_check "$o/run.json" '(.devices | length) == 5 and all(.devices[]; .speed != null and .driver != null and .ceiling_mb_s > 0 and (.vid_pid == "46f4:0001" or .vid_pid == "46f4:0003"))' "run: devices with id, speed, driver, ceiling"
	# the keyboard behind the hub: a HID device, read for its input reports; idle, it sends none
	jq_check "$o/run.json" '[.plan[] | select(.kind == "usb-hid") | .target | test("^/dev/hidraw[0-9]+$")] == [true]' "run: the keyboard's hidraw node planned, read only"
	jq_check "$o/run.json" '(.notes | any(.text | test("hidraw[0-9]+: no input report in"))) and ([.metrics[] | select(.test == "hid")] == [])' "run: the idle keyboard said, not measured as a rate of zero"
	jq_check "$o/run.json" '[.unmeasured[] | select(.kind == "usb-hid") | .why | test("^no input report in")] == [true] and ([.devices[] | select(.kind == "usb-hid")] == [])' "run: the idle keyboard found, not measured, and why"
	jq_check "$o/run.json" 'def eff: (.efficiency_pct > 0 and .efficiency_pct <= 100 and .efficiency_pct_anomaly == false) or (.efficiency_pct == null and .efficiency_pct_anomaly == true and .mb_s > .ceiling_mb_s); all(.results[]; .op == "read" and .mb_s > 0 and eff) and (.results | length) == 25' "run: five read passes each, with their share of the ceiling (or the anomaly flagged)"
	jq_check "$o/run.json" '[.findings[].id] | index("usb.speed_below_capability") != null' "run: carries the attachment findings"
	jq_check "$o/run.json" '[.metrics[] | select(.metric == "irq_per_mb")] | length == 5 and all(.[]; .value > 0 and .unit == "IRQ/MB")' "run: the controller's interrupts per MB, per disk"
	jq_check "$o/history.json" '(.runs | length) == 1' "run saved in the history (SQLite in the static binary)"
	jq_check "$o/show.json" '[.devices[].speed] | sort == ["full", "high", "high", "super", "super"]' "show: the five devices with their speeds"
	jq_check "$o/disk-summary.json" 'length == 5 and (map(.driver) | sort) == ["uas", "usb-storage", "usb-storage", "usb-storage", "usb-storage"]' "disk ran on all five USB disks (uas and usb-storage)"
	# the report of that run, read back from its JSON on the host
	if "$USBPERF_STATIC" report "$o/run.json" --html "$o/report.html" &&
		LANG=C.UTF-8 "$USBPERF_STATIC" report "$o/run.json" >"$o/report.txt"; then
		ok "report: HTML and text of the guest's run"
	else bad "report: exit $?"; fi
	n=$(grep -o '<section class="device" id="device-[0-9]*"' "$o/report.html" | wc -l)
	[ "$n" = 5 ] && ok "report: a section per USB disk" || bad "report: $n device sections, wanted 5"
	grep -q 'bus ceiling 53.25 MB/s' "$o/report.html" && grep -q 'bus ceiling 484.8 MB/s' "$o/report.html" &&
		ok "report: the high-speed and SuperSpeed ceilings drawn" || bad "report: ceilings missing"
	check_monitor "$o"
	check_live "$o"
	check_wire "$o"
	grep -q 'field reference 25-35 MB/s' "$o/report.html" &&
		ok "report: the USB 2.0 disk field reference band" || bad "report: no field reference"
	jq_check "$o/run.json" 'all(.devices[]; .controller != null and (.controller | test("^(xhci_hcd|ehci-pci) "))) and ([.devices[] | select(.capable_speed != null and .capable_speed != .speed) | .serial] | sort) == ["LABEHCI", "LABUSB2PORT"]' \
		"run: each device's controller; the two SuperSpeed disks at 480 say what they could do"
	grep -q '<span class="tag sev-warn">capable of SuperSpeed' "$o/report.html" &&
		ok "report: the disks below their speed are marked" || bad "report: no capable-of mark"
	jq_check "$o/run.json" '[.devices[] | select(.via != null) | [.serial, .via]] == [["LABHUB", "1-3 0409:55aa full"]]' "run: the disk behind the hub says which hub it is reached through"
	grep -q '<b>1-3</b> <span class="mut">hub <code>0409:55aa</code> <span class="tag">full-speed' "$o/report.html" &&
		grep -q '<b>1-3.2</b> QEMU USB HARDDRIVE' "$o/report.html" &&
		ok "report: the hub drawn with its id and speed, the disk below it" || bad "report: no hub in the topology"
	[ "$(grep -c '^  bus ceiling' "$o/report.txt")" = 5 ] &&
		ok "report: text names each disk's ceiling" || bad "report: text ceilings"
}

# usbperf monitor on the BOT and the UAS disk during a 4 MiB direct read (issue 18)
check_monitor() {
	local o=$1 k j ms tsum usum dev
	for k in LABBOT LABUAS; do
		j=$o/mon-$k.json
		[ -s "$j" ] || { bad "monitor $k: no output ($(cat "$o/mon-$k.err" 2>/dev/null))"; continue; }
		ms=$(cat "$o/mon-$k.max_sectors_kb")
		dev=".devices[0]"
		jq_check "$j" '(.devices | length) == 1 and .capture.dropped == 0 and .capture.lower_bound == false' "monitor $k: one device, nothing dropped"
		jq_check "$j" "[.endpoints[] | select(.type == \"bulk\" and .dir == \"in\") | .bytes] | add >= 4194304" "monitor $k: bulk IN bytes >= the 4 MiB read"
		jq_check "$j" "$dev.urb_size_bytes == $ms * 1024" "monitor $k: dominant URB size = max_sectors_kb ($ms KiB, sysfs)"
		jq_check "$j" "$dev.lat_p50_us > 0 and $dev.lat_p99_us >= $dev.lat_p50_us and $dev.lat_max_us >= $dev.lat_p99_us and $dev.busy_pct > 0 and $dev.busy_pct <= 100 and $dev.inflight_max >= 1" "monitor $k: latency, busy share, in flight"
		# tshark's totals of the same pcap: urb_len of the completions, per endpoint
		if command -v tshark >/dev/null; then
			tsum=$(tshark -r "$o/mon-$k.pcapng" -Y 'usb.urb_type == 0x43' -T fields \
				-e usb.endpoint_address -e usb.urb_len 2>/dev/null |
				awk '{ a = $1; if (a !~ /^0x/) a = sprintf("0x%02x", a); s[tolower(a)] += $2 } END { for (k in s) print k, s[k] }' | sort)
			usum=$(jq -r '[.endpoints[] | {(.endpoint): .bytes}] | add | to_entries[] | "\(.key) \(.value)"' "$j" | sort)
			[ -n "$tsum" ] && [ "$tsum" = "$usum" ] && ok "monitor $k: tshark's bytes per endpoint equal usbperf's ($(echo $usum))" ||
				bad "monitor $k: tshark [$tsum] vs usbperf [$usum]"
		else
			bad "monitor $k: tshark not installed (scripts/install-deps --test)"
		fi
	done
	# usbmon unloaded, and no modules.dep in the guest for modprobe: not loadable, one line
	grep -q '^monitor load: exit 2$' "$o/guest.log" &&
		[ "$(cat "$o/mon-load.err")" = "usbperf: usbmon is not available: not loadable: 'modprobe usbmon' exited 1" ] &&
		ok "monitor: usbmon unloaded and not loadable: exit 2, one line that says so" ||
		bad "monitor: usbmon not loadable: $(grep 'monitor load' "$o/guest.log") [$(cat "$o/mon-load.err" 2>/dev/null)]"
	# ended by SIGINT: exit 0, the summary, a pcap tshark reads whole (every event in it)
	grep -q '^monitor SIGINT: exit 0$' "$o/guest.log" && grep -q '^devices' "$o/mon-text.txt" &&
		ok "monitor: SIGINT ends the capture with exit 0 and the summary" ||
		bad "monitor: SIGINT: $(grep 'monitor SIGINT' "$o/guest.log") $(head -3 "$o/mon-text.txt")"
	if command -v tshark >/dev/null; then
		tsum=$(tshark -r "$o/mon-int.pcapng" 2>/dev/null | wc -l)
		usum=$(sed -n 's/^  events *//p' "$o/mon-text.txt")
		[ -n "$usum" ] && [ "$tsum" = "$usum" ] && ok "monitor: the pcap after SIGINT is whole ($tsum events, as counted)" ||
			bad "monitor: the pcap after SIGINT: tshark $tsum lines, usbperf $usum events"
	fi
	# Bulk-Only: per command a 31 B CBW out, one data URB in (max_sectors_kb caps it) and a 13 B CSW in
	jq_check "$o/mon-LABBOT.json" 'def sz(d): [.endpoints[] | select(.type == "bulk" and .dir == d) | .sizes | split(" ")[] | split(":") | {(.[0]): (.[1] | tonumber)}] | add; sz("out") as $o | sz("in") as $i | ($o | keys) == ["31"] and $o["31"] >= 4 and $i["13"] == $o["31"] and ([$i | to_entries[] | select(.key != "13") | .value] | add) == $o["31"]' "monitor LABBOT: one 31 B CBW, one data URB and one 13 B CSW per command"
}

# monitor's live view (issue 18): a refreshing table on a terminal while the BOT disk is read
check_live() {
	local o=$1 t=$1/mon-live.txt dev frames last
	dev=$(cat "$o/mon-live.device" 2>/dev/null)
	tr -d '\r' <"$o/mon-live.tty" >"$t" 2>/dev/null
	grep -q '^monitor live: exit 0$' "$o/guest.log" && ok "monitor live: exit 0 under a pseudo-terminal" ||
		bad "monitor live: $(grep 'monitor live' "$o/guest.log") $(head -c 300 "$t")"
	frames=$(grep -cE '^device +driver +speed +IN MB/s +OUT MB/s +URBs/s +URB size +in flight +p50 us +p99 us$' "$t")
	[ "$frames" -ge 2 ] && ok "monitor live: the table header, refreshed ($frames frames)" ||
		bad "monitor live: $frames frames with the table header"
	# the BOT disk's row: IN MB/s (the 4th column) above zero in a frame of the reads
	awk -v d="$dev" '$1 == d && $2 == "usb-storage" && $4 + 0 > 0 { n++ } END { exit !n }' "$t" &&
		ok "monitor live: the disk's row ($dev, usb-storage) with IN MB/s above zero" ||
		bad "monitor live: no row of $dev with IN MB/s > 0: $(grep "^$dev " "$t" | head -3)"
	# each frame's rate is over its own second (frames come a second apart), not over
	# the span of the events in it: the frames' IN MB/s add up to the MB the capture
	# counted (the summary's IN endpoints' bytes), within 5 %
	awk -v d="$dev" '
		$1 == d && $2 == "usb-storage" && NF == 10 { frames += $4 }
		$1 == d && $3 == "in" && $2 ~ /^0x/ { total += $6 / 1e6 }
		END { printf "%.2f %.2f\n", frames, total; exit !(total > 0 && frames > 0.95 * total && frames < 1.05 * total) }' "$t" >"$o/mon-live.sum" &&
		ok "monitor live: each frame's MB/s over its second: they add up to the capture's MB ($(cat "$o/mon-live.sum"))" ||
		bad "monitor live: the frames' IN MB/s do not add up to the capture's MB (frames, capture: $(cat "$o/mon-live.sum"))"
	# each frame a clear screen; after the last one, the summary and no more table
	last=$(awk 'BEGIN { RS = "\033\\[H\033\\[2J" } { f = $0 } END { printf "%s", f }' "$t")
	echo "$last" | grep -q '^devices' && ! echo "$last" | grep -q 'IN MB/s  *OUT MB/s' &&
		ok "monitor live: the screen cleared, then the summary" ||
		bad "monitor live: after the last frame: $(echo "$last" | head -c 300)"
	# the terminal left as it was: a hidden cursor shown again at the end
	if grep -q $'\033\[?25l' "$t"; then
		[ "$(grep -o $'\033\[?25[lh]' "$t" | tail -1)" = $'\033[?25h' ] &&
			ok "monitor live: the cursor hidden while drawing, shown at the end" ||
			bad "monitor live: the cursor left hidden"
	else
		ok "monitor live: the cursor never hidden"
	fi
	for n in file pipe; do
		grep -q $'\033' "$o/mon-$n.txt" || grep -q 'IN MB/s  *OUT MB/s' "$o/mon-$n.txt" ||
			! grep -q '^devices' "$o/mon-$n.txt" || ! grep -q "^$dev " "$o/mon-$n.txt" &&
			bad "monitor into a $n: $(head -c 300 "$o/mon-$n.txt" | od -c | head -3)" ||
			ok "monitor into a $n: the summary alone (the disk's row), no live view, no escape"
	done
}

# disk --monitor and run's monitored passes (issue 18 part 2): each figure against its truth
check_wire() {
	local o=$1 k ms j r
	for k in LABBOT LABUAS; do
		j=$o/dmon-$k.json
		ms=$(cat "$o/mon-$k.max_sectors_kb" 2>/dev/null)
		[ -s "$j" ] || { bad "disk --monitor $k: no output ($(cat "$o/dmon-$k.err" 2>/dev/null))"; continue; }
		r='.results[0]'
		jq_check "$j" "$r.urb_size_bytes == ([1048576, $ms * 1024] | min)" "disk --monitor $k: dominant URB size = min(1 MiB request, max_sectors_kb $ms KiB)"
		jq_check "$j" "$r.wire_bytes >= $r.bytes and $r.urbs > 0 and $r.wire_mb_s > 0 and $r.usb_errors == 0 and $r.wire_dropped == 0" "disk --monitor $k: wire bytes >= the bytes read, no error, nothing dropped"
		jq_check "$j" "$r.wire_mb_s >= $r.mb_s" "disk --monitor $k: wire MB/s >= the pass's MB/s (its wire bytes over the pass's own time, not the capture's)"
		jq_check "$j" "$r.busy_pct > 0 and $r.busy_pct <= 100 and $r.inflight_max >= 1 and $r.inflight_mean > 0 and $r.urb_lat_p99_us >= $r.urb_lat_p50_us" "disk --monitor $k: busy share, in flight, URB latency"
		jq_check "$j" '[.warnings[]? | select(test("monitor"))] == []' "disk --monitor $k: no 'not monitored' warning"
	done
	# events usbmon lost (its ring full) make the pass say its wire figures are lower bounds
	j=$o/dmon32-LABUAS.json r='.results[0]'
	jq_check "$j" "if $r.wire_dropped > 0 then ([.warnings[] | select(test(\"usbmon lost [0-9]+ events .*lower bounds\"))] | length) == 1 else ([.warnings[]? | select(test(\"usbmon lost\"))] == []) end" \
		"disk --monitor LABUAS QD32: events usbmon lost said (wire figures lower bounds), none said when none lost"
	jq -r "$r | \"    figure  usbmon lost \\(.wire_dropped) events in a UAS QD32 1M pass: wire \\(.wire_bytes) B of the \\(.bytes) B read, \\(.urbs) URBs\"" "$j" 2>/dev/null
	grep -qE '^ *pass .* wire +URB +in flight +bus busy' "$o/dmon-text.txt" &&
		grep -qE '^seq-read 1M .* 1 MiB +[0-9.]+ +[0-9.]+ ' "$o/dmon-text.txt" &&
		ok "disk --monitor: the text table's wire columns" || bad "disk --monitor: text: $(head -c 300 "$o/dmon-text.txt")"
	r='.results[0]'
	jq_check "$o/dmon-LABBOT.json" "$r.protocol_bytes == $r.bot_commands * 44 and $r.bot_commands >= $r.bytes / $r.urb_size_bytes and $r.wire_bytes == $r.bytes + $r.protocol_bytes" "disk --monitor LABBOT: commands x 44 B of CBW/CSW, the wire = the data read + the wrappers"
	jq_check "$o/dmon-LABUAS.json" "$r.protocol_bytes == null and $r.bot_commands == null and $r.inflight_max > 1" "disk --monitor LABUAS: no Bulk-Only wrappers, more than one URB in flight"
	# run: every pass of every USB disk monitored; the URB size is the request, capped at max_sectors_kb
	jq -s '{list: .[0], run: .[1]}' "$o/list.json" "$o/run.json" >"$o/wire.json" 2>/dev/null
	jq_check "$o/run.json" '[.metrics[] | select(.metric == "urb_size")] | length == 25' "run: a urb_size metric for each of the 25 disk passes"
	jq_check "$o/wire.json" '(.list.nodes | map(select(.kind == "disk") | {(.device): .max_sectors_kb}) | add) as $ms | (.run.results | map({(.device + "|" + .name): .bs_bytes}) | add) as $bs | all(.run.metrics[] | select(.metric == "urb_size"); .value == ([$bs[.device + "|" + .name], $ms[.device] * 1024] | min))' "run: each pass's URB size = min(its block size, the disk's max_sectors_kb)"
	jq_check "$o/run.json" '[.metrics[] | select(.metric | startswith("urb_size_bin_"))] as $h | all(.metrics[] | select(.metric == "urb_size"); . as $u | [$h[] | select(.device == $u.device and .name == $u.name and .metric == "urb_size_bin_\(($u.value | log2 | floor) + 1)" and .value >= 1)] | length == 1)' "run: each pass's URB size histogram has the dominant size's bin"
	# the findings, where their condition holds and nowhere else
	jq_check "$o/wire.json" '(.run.results | map({(.device + "|" + .name): .bs_bytes}) | add) as $bs | ([.run.metrics[] | select(.metric == "urb_size" and .value < 262144 and $bs[.device + "|" + .name] > .value) | .device] | unique) == ([.run.findings[] | select(.id == "usbmon.small_urbs") | .subject] | sort) and ([.run.findings[] | select(.id == "usbmon.small_urbs")] | length) >= 1' "run: usbmon.small_urbs on the disks whose requests went out in smaller URBs, and only those"
	jq_check "$o/run.json" '([.metrics[] | select(.metric == "protocol_pct" and .value >= 1) | .device] | unique) == ([.findings[] | select(.id == "usbmon.protocol_overhead") | .subject] | sort) and ([.findings[] | select(.id == "usbmon.protocol_overhead")] | length) >= 1' "run: usbmon.protocol_overhead where the CBW/CSW bytes are 1 % of the wire or more"
	jq_check "$o/wire.json" '([.list.interfaces[] | select(.driver == "usb-storage") | .device] | unique) == ([.run.findings[] | select(.id == "usbmon.one_in_flight") | .subject] | sort)' "run: usbmon.one_in_flight on the Bulk-Only disks (no queue; their QD32 pass)"
	jq_check "$o/run.json" '[.findings[] | select(.id == "usbmon.one_in_flight" and (.evidence | test("32 requests queued")))] | length >= 1' "run: one_in_flight's evidence names the QD32 pass"
	# QEMU's usb-uas at SuperSpeed on xHCI has streams: several data URBs at once
	jq_check "$o/dmon-LABUAS.json" "$r.data_inflight_max > 1" "disk --monitor LABUAS: more than one URB in flight on the data pipe itself (streams)"
	jq_check "$o/wire.json" '([.list.interfaces[] | select(.driver == "uas") | .device] | unique) == ([.run.findings[] | select(.id == "usbmon.uas_streams" and .severity == "info") | .subject] | sort) and ([.run.findings[] | select(.id == "usbmon.uas_streams" and .severity == "warn")] | length) == 0' "run: usbmon.uas_streams (with streams, info) on the UAS disk, and nowhere else"
}
