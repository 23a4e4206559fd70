# Scenario mmc: QEMU's SD card behind its SDHCI PCI controller, on the kernel's
# sdhci-pci and mmc_block. The truths: `list` shows the host, the card, and the
# clock, bus width and timing that debugfs mmc0/ios says (read by the guest
# beside usbperf); `disk` on /dev/mmcblk0 (reads only) puts every figure next
# to the ceiling of the mode in use, clock x width / 8; without a mounted
# debugfs usbperf mounts it read-only at a private place, says so once and
# unmounts it; a recorded tree without debugfs gives the card's facts, the bus
# state unknown and a one-line note, exit 0; a write without --destructive is
# refused in one line, exit 2; run --copy from the guest's RAM onto an ext2
# filesystem on the card's partition measures both sides, the copy at three
# chunk sizes and says which side limits it, leaving no file. QEMU's card moves data at the emulator's pace,
# not the bus's: the figures are checked against nothing but their ceiling's
# arithmetic, and a figure above it must be said.
MODULES="sdhci_pci mmc_block ext4"
LAB_TOOLS="truncate:coreutils sfdisk:fdisk mke2fs:e2fsprogs"

qemu_args() { # qemu_args DIR: the card's image (QEMU wants a power of 2) in DIR
	lab_step "$1/prep.log" "mmc: the card's image ($1/sd.img, truncate)" truncate -s 64M "$1/sd.img"
	# one partition at sector 63 (the old DOS layout): off any erase size
	lab_step "$1/prep.log" "mmc: its partition table (sfdisk)" sfdisk -q "$1/sd.img" \
		<<<'start=63, size=65536, type=83'
	# an ext2 filesystem in it: run --copy's destination on the card
	lab_step "$1/prep.log" "mmc: the ext2 filesystem in its partition (mke2fs)" \
		mke2fs -q -F -t ext2 -E offset=32256 "$1/sd.img" 32768
	echo -device sdhci-pci -drive if=none,id=sd,file="$1/sd.img",format=raw \
		-device sd-card,drive=sd
}

check() {
	local o=$1 L=$1/list.json clock width timing ceil
	# what debugfs said, read by the guest's cat: the truth usbperf must repeat
	clock=$(sed -n 's/^actual clock:[[:space:]]*\([0-9]*\) Hz.*/\1/p' "$o/ios.txt")
	[ -n "$clock" ] || clock=$(sed -n 's/^clock:[[:space:]]*\([0-9]*\) Hz.*/\1/p' "$o/ios.txt")
	width=$(sed -n 's/^bus width:.*(\([0-9]*\) bits).*/\1/p' "$o/ios.txt")
	timing=$(sed -n 's/^timing spec:[[:space:]]*\([0-9]*\) .*/\1/p' "$o/ios.txt")
	if [ -n "$clock" ] && [ -n "$width" ] && [ -n "$timing" ]; then
		ok "$SCEN: debugfs mmc0/ios read in the guest (clock $clock Hz, $width bits, timing $timing)"
	else bad "$SCEN: debugfs mmc0/ios: $(head -c 300 "$o/ios.txt" 2>/dev/null)"; fi
	ceil=$(awk "BEGIN { print $clock * $width / 8 / 1e6 }")
	rc_is list 0 "list"
	jq_check "$L" '(.mmc_hosts | length) == 1 and .mmc_hosts[0].host == "mmc0" and .mmc_hosts[0].driver == "sdhci-pci" and (.mmc_hosts[0].card | test("^mmc0:"))' "list: host mmc0 on sdhci-pci with its card"
	jq_check "$L" ".mmc_hosts[0] | .clock_hz == $clock and .bus_width_bits == $width" "list: clock and width as debugfs says ($clock Hz, $width bits)"
	jq_check "$L" "[\"legacy\",\"mmc-hs\",\"sd-hs\"][$timing] as \$t | .mmc_hosts[0].timing == \$t" "list: timing as debugfs says (spec $timing)"
	jq_check "$L" ".mmc_hosts[0] | (.ceiling_mb_s - $ceil | fabs) < 0.001" "list: ceiling = clock x width / 8 = $ceil MB/s"
	jq_check "$L" '.mmc_cards[0] | (.kind | test("^SD")) and .block == "mmcblk0" and .size_bytes == 67108864' "list: an SD card, mmcblk0, 64 MiB"
	jq_check "$L" '[.mmc_partitions[] | select(.partition == "mmcblk0p1")] | .[0].start_bytes == 32256' "list: the partition at sector 63 (32256 B)"
	jq_check "$L" '.mmc_partitions[0].erase_size_bytes as $e | ([.findings[] | select(.id == "mmc.partition_unaligned")] | length) == (if $e > 512 and (32256 % $e) != 0 then 1 else 0 end)' "list: the partition off the card's erase size is a finding, and only then"
	if grep -q "MMC/SD hosts" "$o/list.txt" && grep -q "^mmc0 *sdhci-pci" "$o/list.txt"; then ok "$SCEN: list text: the MMC host table"
	else bad "$SCEN: list text: $(grep -A3 MMC "$o/list.txt" | head -c 300)"; fi
	# disk on the raw card, reads only
	rc_is disk 0 "disk /dev/mmcblk0 (seq-read)"
	jq_check "$o/disk.json" "(.target.mmc_card | test(\"^mmc0:\")) and (.target.mmc_ceiling_mb_s - $ceil | fabs) < 0.001" "disk: the card and the ceiling of the mode in use ($ceil MB/s)"
	jq_check "$o/disk.json" "all(.results[]; (.ceiling_mb_s - $ceil | fabs) < 0.001 and .mb_s > 0 and (if .mb_s > .ceiling_mb_s then .efficiency_pct == null and .efficiency_pct_anomaly == true else (.efficiency_pct - 100 * .mb_s / .ceiling_mb_s | fabs) < 0.01 and .efficiency_pct_anomaly == false end))" "disk: every row next to that ceiling, efficiency = rate / ceiling (QEMU's card past it: null, the anomaly flagged)"
	jq_check "$o/disk.json" '[.results[] | select(.efficiency_pct_anomaly == true) | .name] as $p | [.warnings[] | select(test("above the .* the [a-z0-9-]+ link can carry")) | split(":")[0]] == $p' "disk: every figure above the ceiling said (QEMU's card is not a bus), no other"
	# run: the card is a device of kind mmc, its speed the timing
	rc_is run 0 "run /dev/mmcblk0"
	jq_check "$o/run.json" '[.devices[] | select(.kind == "mmc")] | length == 1 and (.[0].speed | test("^(legacy|sd-hs)$")) and .[0].ceiling_mb_s > 0' "run: the card recorded as an mmc device, speed = timing, with its ceiling"
	jq_check "$o/run.json" '[.findings[] | select(.id == "mmc.partition_unaligned") | .about] == [.devices[0].device]' "run: the partition at sector 63, a finding about the card"
	# no debugfs: mounted read-only at a private place, said once, unmounted
	rc_is nodebugfs 0 "list with debugfs unmounted"
	says nodebugfs "mounted debugfs read-only at '/tmp/usbperf-debugfs-[A-Za-z0-9]+'.*unmounted after" "no debugfs: the private read-only mount said once"
	jq_check "$o/nodebugfs.json" ".mmc_hosts[0].clock_hz == $clock" "no debugfs: the bus state still read through the private mount"
	if [ "$(cat "$o/mounts-after.txt" 2>/dev/null)" = 0 ]; then ok "$SCEN: no debugfs mount left behind"
	else bad "$SCEN: debugfs mounts after: $(cat "$o/mounts-after.txt" 2>/dev/null)"; fi
	# a snapshot taken that way keeps the bus state at /sys/kernel/debug: it replays the same
	"$LAB_BUILD/static/usbperf" list --sysroot "$o/snap-nodbg.json" -F json >"$o/snap-nodbg-list.json" 2>/dev/null
	if [ -s "$o/nodebugfs.json" ] && cmp -s <(jq .mmc_hosts "$o/nodebugfs.json") <(jq .mmc_hosts "$o/snap-nodbg-list.json"); then
		ok "$SCEN: no debugfs: the snapshot replays the same MMC hosts"
	else bad "$SCEN: no debugfs: snapshot replay: $(diff <(jq -c .mmc_hosts "$o/nodebugfs.json") <(jq -c .mmc_hosts "$o/snap-nodbg-list.json") | head -c 300)"; fi
	# a recorded tree without debugfs: the card's facts, the bus state unknown, one note
	jq '.entries |= map(select(.path | startswith("/sys/kernel/debug") | not))' "$o/snapshot.json" >"$o/nodbg-snap.json"
	"$LAB_BUILD/static/usbperf" list --sysroot "$o/nodbg-snap.json" -F json >"$o/nodbg.json" 2>"$o/nodbg.err"
	echo $? >"$o/nodbg.rc"
	rc_is nodbg 0 "a recorded tree without debugfs"
	says nodbg "no debugfs mmc state" "no debugfs in the tree: one line"
	jq_check "$o/nodbg.json" '.mmc_hosts[0].clock_hz == null and .mmc_hosts[0].ceiling_mb_s == null and .mmc_cards[0].block == "mmcblk0"' "no debugfs in the tree: card facts known, clock and ceiling unknown"
	# run --copy from the guest's RAM to a filesystem on the card
	rc_is copy 0 "run --copy /tmp/copysrc /mnt/sd (ext2 on mmcblk0p1)"
	jq_check "$o/copy.json" '([.plan[].device] | .[0] == "source" and (.[1] | test("^mmc0:")) and .[2] == "copy") and ([.results[] | select(.op == "copy") | .name] == ["copy 64K", "copy 1M", "copy 4M"]) and all(.results[] | select(.op == "copy"); .mb_s > 0)' "run --copy to the card: both sides measured (the destination as the card), the copy at three chunk sizes"
	jq_check "$o/copy.json" '[.devices[] | select(.kind == "mmc")] | length == 1' "run --copy to the card: the destination recorded as the mmc card"
	jq_check "$o/copy.json" '[.findings[] | select(.id == "run.copy_limit") | .message] | length == 1 and (.[0] | test("limited by (reading the source|writing the destination)|the copy loop itself|went faster than (reading the source|writing the destination) measured alone"))' "run --copy to the card: which side limits the copy, said"
	if [ "$(cat "$o/copy-left.txt" 2>/dev/null)" = 0 ]; then ok "$SCEN: run --copy: no file left on either side"
	else bad "$SCEN: run --copy: files left: $(cat "$o/copy-left.txt" 2>/dev/null)"; fi
	# bad input: a write without --destructive
	rc_is write 2 "disk --tests seq-write on the card without --destructive"
	says write "destructive" "write refused: one line"
}
