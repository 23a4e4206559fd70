#!/bin/bash
# usbperf list and snapshot against the hand-made PC tree (tests/fixtures/gen/pc-usb.sh):
# the directory and its recorded snapshot read the same, the decoded facts and
# findings are right, bad input is refused, and the live machine reads cleanly.
. "$(dirname "$0")/lib.sh"
need_cmd jq

SRC=$(cd "$(dirname "$0")/../.." && pwd)
FIX=$SRC/tests/fixtures/pc-usb.json
TREE=$WORK/tree
bash "$SRC/tests/fixtures/gen/pc-usb.sh" "$TREE" || { bad "fixture tree generated"; finish; }

# the committed snapshot is what the generator makes, read by usbperf
expect_status 0 "list --sysroot DIR" "$USBPERF" -F json list --sysroot "$TREE"
mv "$WORK/out" "$WORK/dir.json"
expect_status 0 "list --sysroot SNAPSHOT" "$USBPERF" list --sysroot "$FIX" --format json
mv "$WORK/out" "$WORK/fix.json"
check "directory and committed snapshot give the same JSON" cmp -s "$WORK/dir.json" "$WORK/fix.json"

# recording a tree and replaying it gives the same result, in every format
expect_status 0 "snapshot --sysroot DIR" "$USBPERF" snapshot --sysroot "$TREE" "$WORK/snap.json"
for f in text json csv; do
	"$USBPERF" list --sysroot "$TREE" -F $f >"$WORK/a.$f" 2>&1
	"$USBPERF" list --sysroot "$WORK/snap.json" -F $f >"$WORK/b.$f" 2>&1
	check "replay matches the tree ($f)" cmp -s "$WORK/a.$f" "$WORK/b.$f"
done
jq_check "$WORK/snap.json" '.usbperf_snapshot == 1 and (.entries | length) > 300' "snapshot is a versioned JSON document"

J=$WORK/fix.json
jq_check "$J" '[.devices[].path] == ["usb1","1-2","1-3","1-3.1","1-3.2","1-4","1-5","usb2","2-1","2-2"]' "devices in bus-port order"
jq_check "$J" '(.controllers | length) == 2 and all(.controllers[]; .kind == "xhci" and .device == "0000:00:14.0" and .bus_type == "pci" and .driver == "xhci_hcd" and .irq == "125" and .irq_count == 188888)' "controllers: xhci on PCI, MSI IRQ and its count"
jq_check "$J" '.devices[] | select(.path == "2-1") | .vid_pid == "0781:5583" and .speed == "super" and .speed_mbit_s == 5000 and .usb_version == "3.20" and .port == "usb2-port1" and .port_peer == "usb1-port1"' "2-1: id, speed, bcdUSB, port and peer"
jq_check "$J" '.devices[] | select(.path == "1-3.1") | .speed == "low" and .parent == "1-3" and .depth == 2' "1-3.1: low-speed behind the hub"
jq_check "$J" '.interfaces[] | select(.name == "2-1:1.0") | .driver == "uas" and .class_code == 8 and .protocol == 98' "2-1:1.0 bound to uas"
jq_check "$J" '.nodes[] | select(.name == "sda1") | .kind == "partition" and .parent == "sda" and .fs_type == "vfat" and .mount_point == "/media/usb" and .fuse == false' "sda1: vfat on /media/usb"
jq_check "$J" '.nodes[] | select(.name == "sda") | .max_sectors_kb == 1024 and .max_hw_sectors_kb == 65535 and .scheduler == "mq-deadline" and .size_bytes == 30752636928' "sda: queue limits, scheduler, size"
jq_check "$J" '.nodes[] | select(.name == "enx00249b123456") | .kind == "net" and .mac == "00:24:9b:12:34:56" and .link_mbit_s == 1000' "AX88179 netdev, MAC, link speed"
jq_check "$J" '.nodes[] | select(.name == "eth1") | .operstate == "down" and .link_mbit_s == null' "link down: speed unknown, not -1"
jq_check "$J" '[.nodes[] | select(.kind == "video") | .dev_node] == ["/dev/video0","/dev/video1"]' "UVC video nodes"
jq_check "$J" '[.nodes[] | select(.kind == "hidraw") | .interface] == ["1-3.1:1.0"]' "keyboard hidraw"
jq_check "$J" '[.findings[].id] | index("usb.fuse_filesystem") != null and index("usb.autosuspend") != null and index("block.small_max_sectors") != null' "findings: FUSE, autosuspend, small max_sectors"
jq_check "$J" '.devices[] | select(.path == "1-2") | .speed == "high" and .capable_speed == "super" and .capable_source == "bos" and .offers_uas' "1-2: BOS says SuperSpeed, descriptors offer UAS"
jq_check "$J" '.interfaces[] | select(.name == "1-2:1.0") | .offers_uas and .driver == "usb-storage" and .class == "mass-storage"' "1-2:1.0: UAS alternate setting, usb-storage bound"
jq_check "$J" '[.findings[] | select(.subject == "1-2") | .id] == ["usb.speed_below_capability", "usb.storage_without_uas"]' "1-2: speed and UAS findings"
jq_check "$J" '.findings[] | select(.id == "usb.speed_below_capability") | (.message | test("53.2 MB/s instead of 484.8")) and (.evidence | test("peer usb2-port2")) and (.fix | test("USB 3 cable"))' "speed finding: ceilings, peer port, fix"
jq_check "$J" '[.devices[] | select(.capable_speed != null and .capable_speed != .speed) | .path] == ["1-2"]' "no other device flagged"
jq_check "$J" '.findings[] | select(.id == "usb.fuse_filesystem") | .subject == "sdc1" and (.evidence | test("fuseblk")) and (.fix | test("ntfs3"))' "FUSE finding names evidence and fix"

"$USBPERF" list --sysroot "$FIX" >"$WORK/tree.txt"
check "text: tree with controller line" grep -q '^Bus 2: SuperSpeed Gen 1 (5G), 6 ports  \[xhci 0000:00:14.0 on pci, driver xhci_hcd, IRQ 125' "$WORK/tree.txt"
check "text: findings block" grep -q '^findings$' "$WORK/tree.txt"
"$USBPERF" list --sysroot "$FIX" -F csv --table nodes >"$WORK/nodes.csv"
check "csv --table nodes: header then one row per node" test "$(head -1 "$WORK/nodes.csv" | cut -d, -f1-4)" = "device,interface,kind,name" -a "$(wc -l <"$WORK/nodes.csv")" = 11

"$USBPERF" list --schema >"$WORK/schema.md"
check "docs/schema/list.md is what 'list --schema' prints (scripts/gen-schemas)" cmp -s "$WORK/schema.md" "$SRC/docs/schema/list.md"
jq_check "$J" "[paths(scalars) | .[-1] | strings] - [$(grep -o '^| `[a-z_0-9]*`' "$SRC/docs/schema/list.md" | tr -d '|` ' | sed 's/.*/"&"/' | paste -sd,)] - [\"usbperf\",\"command\"] | length == 0" "every JSON key is documented"

# bad input: one line, exit 2, nothing written
expect_status 2 "--sysroot missing" "$USBPERF" list --sysroot "$WORK/nope"
one_line_error "--sysroot missing"
echo '{"usbperf_snapshot": 1, "entries": [{"path": "x"}]}' >"$WORK/bad.json"
expect_status 2 "--sysroot bad snapshot" "$USBPERF" list --sysroot "$WORK/bad.json"
one_line_error "--sysroot bad snapshot"
expect_status 2 "--table bogus" "$USBPERF" list --table bogus
one_line_error "--table bogus"
expect_status 2 "list extra argument" "$USBPERF" list extra
echo keep >"$WORK/exists.json"
expect_status 2 "snapshot onto an existing file" "$USBPERF" snapshot --sysroot "$TREE" "$WORK/exists.json"
one_line_error "snapshot onto an existing file"
check "existing file untouched" test "$(cat "$WORK/exists.json")" = keep
expect_status 2 "snapshot without FILE" "$USBPERF" snapshot
expect_status 2 "snapshot of a snapshot" "$USBPERF" snapshot --sysroot "$FIX" "$WORK/again.json"
check "nothing written" test ! -e "$WORK/again.json"
check "no temporary files left" test -z "$(ls "$WORK" | grep tmp-)"

# MMC/SD (tests/fixtures/gen/mmc.py): the facts debugfs gives, the ceilings, the findings
M=$SRC/tests/fixtures
expect_status 0 "list: eMMC in HS200" "$USBPERF" list -F json --sysroot "$M/mmc-emmc-hs200.json"
jq_check "$WORK/out" '.mmc_hosts[0] | .timing == "hs200" and .clock_hz == 200000000 and .bus_width_bits == 8 and .ceiling_mb_s == 200 and .best_timing == "hs200"' "eMMC: hs200, 200 MHz, 8 bits, 200 MB/s"
jq_check "$WORK/out" '.mmc_cards[0] | .kind == "eMMC" and .card_best_timing == "hs400es" and .life_time_a == 9' "eMMC: card claims hs400es, life time A 0x09"
jq_check "$WORK/out" '[.findings[].id | select(startswith("mmc."))] | sort == ["mmc.slower_mode","mmc.worn"]' "eMMC: slower mode (host caps) and worn"
expect_status 0 "list: SD in SDR104" "$USBPERF" list --sysroot "$M/mmc-sd-sdr104.json"
check "SD card row in the text" grep -q "mmc1:aaaa  SDXC  SD64G" "$WORK/out"
check "SDR104 host row: 200 MHz actual, 4 bits, 100 MB/s, nominal 104" grep -q "sdr104  200000000      4    1800    100.0    104.0" "$WORK/out"
expect_status 0 "list: SD stuck in high speed (csv)" "$USBPERF" list -F csv --table mmc_partitions --sysroot "$M/mmc-sd-hs-stuck.json"
check "the partition at sector 63 is not aligned" grep -q "^mmcblk1p1,mmcblk1,32256,.*,no$" "$WORK/out"
"$USBPERF" list -F json --sysroot "$M/mmc-sd-hs-stuck.json" >"$WORK/stuck.json"
jq_check "$WORK/stuck.json" '[.findings[] | select(.subject == "mmc1:aaaa") | .evidence] | .[0] | test("3.3 V") and test("no-1-8-v")' "stuck SD: 3.3 V and no-1-8-v named"
jq_check "$WORK/stuck.json" '[.findings[].id | select(startswith("mmc."))] | sort == ["mmc.narrow_bus","mmc.partition_unaligned","mmc.slower_mode","mmc.slower_mode"]' "stuck SD: both slower, one narrow, one unaligned"
expect_status 2 "list --table bogus" "$USBPERF" list -F csv --table mmc_bogus

# MTD (raw flash): a NAND master and a partition of it, a read-only NOR, as
# 6.1's sysfs nests them; mtdNro links are the same devices again
T=$WORK/mtdroot
mtd() { # mtd N TYPE NAME SIZE ERASE PAGE OOB FLAGS [PARENT]
	local d=$T/sys/devices/virtual/mtd/${9:+$9/}mtd$1 a
	mkdir -p "$d" "$T/sys/class/mtd"
	for a in type:$2 size:$4 erasesize:$5 writesize:$6 oobsize:$7 flags:$8; do
		printf '%s\n' "${a#*:}" >"$d/${a%%:*}"
	done
	printf '%s\n' "$3" >"$d/name"
	ln -s "../../devices/virtual/mtd/${9:+$9/}mtd$1" "$T/sys/class/mtd/mtd$1"
	ln -s "../../devices/virtual/mtd/${9:+$9/}mtd$1" "$T/sys/class/mtd/mtd${1}ro"
}
mtd 0 nand "NAND 32MiB 1,8V 8-bit" 33554432 131072 2048 64 0x400
echo 3 >"$T/sys/devices/virtual/mtd/mtd0/bad_blocks"
mtd 1 nand spl 1048576 131072 2048 64 0x400 mtd0
mtd 10 nor flash 8388608 65536 1 0 0x0
expect_status 0 "list: MTD devices" "$USBPERF" list --sysroot "$T"
check "MTD text: NAND master row" grep -qE "^/dev/mtd0 +NAND 32MiB 1,8V 8-bit +nand +- +32 MiB +128 KiB +2048 +64 +256 +3 +yes" "$WORK/out"
check "MTD text: the partition names its master" grep -qE "^/dev/mtd1 +spl +nand +mtd0 +1 MiB +128 KiB" "$WORK/out"
expect_status 0 "list: MTD devices (json)" "$USBPERF" list -F json --sysroot "$T"
jq_check "$WORK/out" '[.mtd[].node] == ["/dev/mtd0","/dev/mtd1","/dev/mtd10"]' "MTD: by index, mtdNro not twice"
jq_check "$WORK/out" '.mtd[2] | .type == "nor" and .eraseblock_bytes == 65536 and .page_bytes == 1 and .oob_bytes == 0 and .writeable == false and .eraseblocks == 128' "MTD: the NOR's geometry"
expect_status 0 "list: MTD devices (csv)" "$USBPERF" list -F csv --table mtd --sysroot "$T"
check "MTD csv: header first" grep -q "^node,name,type,parent,offset_bytes,size_bytes,eraseblock_bytes,page_bytes,oob_bytes" "$WORK/out"
expect_status 0 "snapshot of the MTD tree" "$USBPERF" snapshot "$WORK/mtd.json" --sysroot "$T"
"$USBPERF" list --sysroot "$T" -F json >"$WORK/mtd-a.json"
"$USBPERF" list --sysroot "$WORK/mtd.json" -F json >"$WORK/mtd-b.json"
check "the MTD snapshot replays to the same list" cmp -s <(jq .mtd "$WORK/mtd-a.json") <(jq .mtd "$WORK/mtd-b.json")

# 29.2.12: a machine without USB: no finding unrelated to USB (the page cache's is
# sysinfo's, and the disk passes'), though sysinfo on the same tree does say it
NOUSB=$WORK/nousb
mkdir -p "$NOUSB/proc/sys/vm" "$NOUSB/sys/devices/system/cpu"
printf 'MemTotal:       16384000 kB\nMemAvailable:   8192000 kB\n' >"$NOUSB/proc/meminfo"
echo 20 >"$NOUSB/proc/sys/vm/dirty_ratio"
echo 0 >"$NOUSB/proc/sys/vm/dirty_bytes"
expect_status 0 "sysinfo of a machine without USB" "$USBPERF" sysinfo --sysroot "$NOUSB" -F json
jq_check "$WORK/out" '[.findings[].id] | index("vm.dirty_cache") != null' "sysinfo says the page cache's finding"
expect_status 0 "list of a machine without USB" "$USBPERF" list --sysroot "$NOUSB" -F json
jq_check "$WORK/out" '.findings == []' "list: no finding unrelated to USB"
expect_status 0 "list of a machine without USB (text)" "$USBPERF" list --sysroot "$NOUSB"
check "list text: no USB, findings none" sh -c "grep -q '^no USB' '$WORK/out' && grep -qx 'findings: none' '$WORK/out'"
expect_status 0 "list of the PC tree" "$USBPERF" list --sysroot "$TREE" -F json
jq_check "$WORK/out" '[.findings[].id | select(startswith("vm."))] == []' "list: the page cache's finding is not the USB tree's"

# the live machine: whatever it has (no USB at all is a fact, not an error)
expect_status 0 "list on this machine" "$USBPERF" list -F json
jq_check "$WORK/out" '.command == "list" and (.devices | type) == "array"' "live list is valid JSON"
expect_status 0 "snapshot of this machine" "$USBPERF" snapshot "$WORK/live.json"
"$USBPERF" list -F json >"$WORK/live-a.json"
"$USBPERF" list --sysroot "$WORK/live.json" -F json >"$WORK/live-b.json"
# interrupt counts and free memory move between two runs; everything else must replay
volatile='del(.controllers[].irq_count) | del(.findings[] | select(.id == "vm.dirty_cache"))'
check "live snapshot replays" cmp -s <(jq "$volatile" "$WORK/live-a.json") <(jq "$volatile" "$WORK/live-b.json")

finish
