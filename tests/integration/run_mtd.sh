#!/usr/bin/env bash
# usbperf run with MTD targets, without flash (this host has no nandsim or
# mtdram; the QEMU lab's scenario nand measures real ones). Bad input and
# refusals end in one line, exit 2, nothing written and no history made: a
# path named like mtdN that is not an MTD device (a file, a FIFO, a symlink
# to /dev/null), a missing node, and, over a recorded sysfs tree (--sysroot)
# with character nodes of the MTD major, --destructive refused by the write
# rules, which read the live system and not the tree (issue 28.13; this host
# has no MTD device). Without --destructive the write rules are not asked:
# the open is what fails on a node with no driver. run --copy SRC /dev/mtdN asks for --destructive
# and the same rules; run --copy /dev/mtdN DST only reads the flash: neither
# --destructive nor the write rules, and not the same node twice. With no target, run names the MTD devices it saw
# as not measured, with how to measure them.
. "$(dirname "$0")/lib.sh"
need_cmd jq

OUT=$WORK/out.json
DB=$WORK/history.db
R=(--db "$DB" -o "$OUT")
echo data >"$WORK/mtd0"
refused 2 "a regular file named mtd0" "$OUT" "$DB" "$WORK/mtd0" -- "$USBPERF" run "$WORK/mtd0" "${R[@]}"
says "'.*/mtd0' is not an MTD device \(a /dev/mtdN character device, major 90\)" "file mtd0: not MTD"
mkfifo "$WORK/mtd7"
refused 2 "a FIFO named mtd7" "$OUT" "$DB" -- "$USBPERF" run "$WORK/mtd7" --destructive "${R[@]}"
says "is not an MTD device" "FIFO: not MTD (and not opened: the test would hang)"
ln -s /dev/null "$WORK/mtd8"
refused 2 "a symlink named mtd8 to /dev/null" "$OUT" "$DB" -- "$USBPERF" run "$WORK/mtd8" --destructive "${R[@]}"
says "'.*/mtd8' is not an MTD device" "symlink to /dev/null: not MTD"
refused 2 "/dev/null --destructive" "$OUT" "$DB" -- "$USBPERF" run /dev/null --destructive "${R[@]}"
refused 2 "a missing mtd node" "$OUT" "$DB" -- "$USBPERF" run "$WORK/nodir/mtd5" "${R[@]}"
says "cannot open '.*/nodir/mtd5': No such file" "missing mtd5: says so"

need_root
T=$WORK/sysroot
mtd() { # mtd N TYPE NAME SIZE FLAGS [PARENT]
	local d=$T/sys/devices/virtual/mtd/${6:+$6/}mtd$1
	mkdir -p "$d" "$T/sys/class/mtd"
	printf '%s\n' "$2" >"$d/type"; printf '%s\n' "$3" >"$d/name"; printf '%s\n' "$4" >"$d/size"
	printf '16384\n' >"$d/erasesize"; printf '512\n' >"$d/writesize"; printf '16\n' >"$d/oobsize"
	printf '%s\n' "$5" >"$d/flags"
	ln -s "../../devices/virtual/mtd/${6:+$6/}mtd$1" "$T/sys/class/mtd/mtd$1"
	ln -s "../../devices/virtual/mtd/${6:+$6/}mtd$1" "$T/sys/class/mtd/mtd${1}ro" # as sysfs has it
}
mtd 0 nand "NAND simulator partition 0" 4194304 0x400
mtd 1 nand u-boot 1048576 0x400 mtd0
mtd 2 nor rootfs 1048576 0x0
mtd 3 nand ubi-data 1048576 0x400
mtd 4 nand data 1048576 0x400
mkdir -p "$T/sys/class/ubi/ubi0" "$T/proc/self"
echo 3 >"$T/sys/class/ubi/ubi0/mtd_num"
printf '22 1 0:21 / / rw - ext4 /dev/sda1 rw\n40 22 31:4 / /data rw - jffs2 /dev/mtdblock4 rw\n' \
	>"$T/proc/self/mountinfo"
N=$WORK/dev
mkdir "$N"
for i in 0 1 2 3 4 9; do mknod "$N/mtd$i" c 90 $((i * 2)) || skip "cannot mknod"; done
mknod "$N/mtd0ro" c 90 1
mknod "$N/flash" c 90 0 # a node of the MTD major under another name
S=(--sysroot "$T")
# 28.13: the write rules read the live system (this host has no MTD device),
# never the tree: the tree's u-boot, read-only, UBI and mounted partitions are
# the lab's to refuse on real kernel objects (scenarios nand and hostile)
if [ -d /sys/class/mtd ]; then
	echo "note: this host has MTD devices: the --sysroot write checks are the lab's"
else
	for i in 1 2 3 4; do
		refused 2 "--destructive on mtd$i under --sysroot" "$OUT" "$DB" "$N/mtd$i" -- "$USBPERF" run "$N/mtd$i" --destructive "${S[@]}" "${R[@]}"
		says "refusing to write mtd$i: this system has no /sys/class/mtd/mtd$i \(the write rules read the live system" \
			"mtd$i: refused on the live system's facts"
	done
fi
refused 2 "--destructive on the read-only node" "$OUT" "$DB" -- "$USBPERF" run "$N/mtd0ro" --destructive "${S[@]}" "${R[@]}"
says "read-only \(mtd0ro\)" "mtd0ro: says so"
refused 2 "a node of major 90 with no mtd9 in sysfs" "$OUT" "$DB" -- "$USBPERF" run "$N/mtd9" "${S[@]}" "${R[@]}"
says "no MTD device mtd9 in sysfs" "mtd9: says so"
# a refusal of one target refuses the run: the disk named next to it is not measured either
refused 2 "an MTD refusal next to a directory" "$OUT" "$DB" -- "$USBPERF" run "$WORK" "$N/mtd1" --destructive "${S[@]}" "${R[@]}"
# reads need no --destructive: the write rules are not asked, the open is what fails
refused 2 "reads of u-boot: no refusal, the open fails" "$OUT" "$DB" -- "$USBPERF" run "$N/mtd1" "${S[@]}" "${R[@]}"
says "cannot open '.*/mtd1'" "reads of u-boot: reach the open"
refused 2 "a node of major 90 named otherwise: MTD's, the open fails" "$OUT" "$DB" -- "$USBPERF" run "$N/flash" "${S[@]}" "${R[@]}"
says "cannot open '.*/flash'" "flash (90:0): MTD's rules, reaches the open"

# --copy SRC /dev/mtdN: the flash erased and written, so --destructive and mtd's rules
mkdir "$WORK/src"
refused 2 "--copy to an MTD device without --destructive" "$OUT" "$DB" "$WORK/src" -- "$USBPERF" run --copy "$WORK/src" "$N/mtd0" "${S[@]}" "${R[@]}"
says "--copy to '.*/mtd0' erases and writes raw flash: give --destructive" "--copy to mtd0: asks for --destructive"
if [ ! -d /sys/class/mtd ]; then
	refused 2 "--copy to mtd1 under --sysroot: the live rules" "$OUT" "$DB" "$WORK/src" -- "$USBPERF" run --copy "$WORK/src" "$N/mtd1" --destructive "${S[@]}" "${R[@]}"
	says "^usbperf: run: --copy: refusing to write mtd1: this system has no /sys/class/mtd/mtd1" "--copy to mtd1: refused by mtd's rules, on the live system"
fi
refused 2 "--copy to a FIFO named mtd7" "$OUT" "$DB" "$WORK/src" -- "$USBPERF" run --copy "$WORK/src" "$WORK/mtd7" --destructive "${R[@]}"
says "--copy: '.*/mtd7' is not an MTD device" "--copy to the FIFO: not MTD"
check "--copy refusals: no file left on SRC" test -z "$(ls -A "$WORK/src")"
# --copy /dev/mtdN DST: the flash only read, so no --destructive and none of the write rules
mkdir -p "$WORK/dst"
refused 2 "--copy from mtd0 without --destructive: past the rules, the open fails" "$OUT" "$DB" "$WORK/dst" -- \
	"$USBPERF" run --copy "$N/mtd0" "$WORK/dst" "${S[@]}" "${R[@]}"
says "cannot open '.*/mtd0'" "--copy from mtd0: no --destructive asked, reaches the open"
refused 2 "--copy from the bootloader's mtd1 --destructive: read, not refused" "$OUT" "$DB" "$WORK/dst" -- \
	"$USBPERF" run --copy "$N/mtd1" "$WORK/dst" --destructive "${S[@]}" "${R[@]}"
says "cannot open '.*/mtd1'" "--copy from u-boot: the write rules not asked of a source"
refused 2 "--copy from the mounted mtd4: read, not refused" "$OUT" "$DB" "$WORK/dst" -- \
	"$USBPERF" run --copy "$N/mtd4" "$WORK/dst" "${S[@]}" "${R[@]}"
says "cannot open '.*/mtd4'" "--copy from a mounted partition: reads are allowed"
refused 2 "--copy from mtd0 onto itself" "$OUT" "$DB" -- \
	"$USBPERF" run --copy "$N/mtd0" "$N/mtd0" --destructive "${S[@]}" "${R[@]}"
says "^usbperf: run: --copy: '.*/mtd0' is both the source and the destination" "--copy mtd0 mtd0: one line"
refused 2 "--copy from mtd0 to a missing directory" "$OUT" "$DB" -- \
	"$USBPERF" run --copy "$N/mtd0" "$WORK/nodir" "${S[@]}" "${R[@]}"
refused 2 "--copy from a FIFO named mtd7" "$OUT" "$DB" "$WORK/dst" -- \
	"$USBPERF" run --copy "$WORK/mtd7" "$WORK/dst" "${R[@]}"
says "--copy: '.*/mtd7' is not an MTD device" "--copy from the FIFO: not MTD"
check "--copy from flash, refused: nothing left on DST" test -z "$(ls -A "$WORK/dst")"

# no target: the host is measured (briefly), the MTD devices named, not touched
expect_status 0 "no target: the host, and the MTD devices named" "$USBPERF" run --scratch "$WORK" \
	--size 1M --time 0.1 --min-time 0 --no-save "${S[@]}" -F json -o "$OUT"
jq_check "$OUT" '[.unmeasured[] | select(.kind == "mtd") | .device] == ["mtd0","mtd1","mtd2","mtd3","mtd4"]' \
	"five MTD devices named (mtdNro not twice)"
jq_check "$OUT" '[.unmeasured[] | select(.device == "mtd1")][0].why | test("raw flash \\(nand .u-boot., 1M\\): measured only when named: .usbperf run /dev/mtd1.")' \
	"mtd1: its type, name, size and how to measure it"
jq_check "$OUT" '[.metrics[] | select(.test == "mtd")] | length == 0' "no MTD figure"
finish
