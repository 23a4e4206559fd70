#!/usr/bin/env bash
# usbperf mtd, without flash: bad input and refusals end in one line, exit 2,
# nothing written. A character node of the MTD major (90) over a recorded
# sysfs tree (--sysroot) reaches the geometry rules: --size off the
# eraseblock or past the end, write sizes off the page, the read-only node;
# the write rules read the live system whatever --sysroot says (issue 28.13),
# so on this host every --destructive is refused there. With a real /dev/mtd0
# (nandsim loaded) a read-only pass runs too; the QEMU lab (scenarios nand and
# hostile) covers the write rules on real kernel objects.
. "$(dirname "$0")/lib.sh"
need_cmd jq

OUT=$WORK/out.json
refused 2 "not an MTD device: /dev/null" "$OUT" -- "$USBPERF" mtd /dev/null -o "$OUT"
says "'/dev/null' is not an MTD device" "/dev/null: says it is not MTD"
echo data >"$WORK/file"
refused 2 "a regular file" "$OUT" "$WORK/file" -- "$USBPERF" mtd "$WORK/file" -o "$OUT"
says "is not an MTD device" "regular file: says it is not MTD"
refused 2 "a directory" "$OUT" -- "$USBPERF" mtd "$WORK" -o "$OUT"
refused 2 "a missing path" "$OUT" -- "$USBPERF" mtd "$WORK/nope" -o "$OUT"
says "cannot open '.*/nope': No such file" "missing: says so"
refused 2 "no device" "$OUT" -- "$USBPERF" mtd -o "$OUT"
refused 2 "two devices" "$OUT" -- "$USBPERF" mtd /dev/null /dev/zero -o "$OUT"
refused 2 "--verify without --destructive" "$OUT" -- "$USBPERF" mtd /dev/null --verify -o "$OUT"
refused 2 "--write-sizes without --destructive" "$OUT" -- "$USBPERF" mtd /dev/null --write-sizes 512 -o "$OUT"
refused 2 "--size not a size" "$OUT" -- "$USBPERF" mtd /dev/null --size lots -o "$OUT"
refused 2 "--write-sizes not sizes" "$OUT" -- "$USBPERF" mtd /dev/null --destructive --write-sizes 512,x -o "$OUT"

# a recorded tree: mtd0 a NAND of 4 MiB in 16 KiB eraseblocks, 512 B pages;
# mtd1 a partition of it named u-boot; mtd2 read-only; mtd3 attached to
# ubi0; mtd4 mounted (mtdblock4 as jffs2)
need_root
T=$WORK/sysroot
mtd() { # mtd N NAME SIZE FLAGS [PARENT]
	local d=$T/sys/devices/virtual/mtd/${5:+$5/}mtd$1
	mkdir -p "$d" "$T/sys/class/mtd"
	printf 'nand\n' >"$d/type"; printf '%s\n' "$2" >"$d/name"; printf '%s\n' "$3" >"$d/size"
	printf '16384\n' >"$d/erasesize"; printf '512\n' >"$d/writesize"; printf '16\n' >"$d/oobsize"
	printf '%s\n' "$4" >"$d/flags"
	ln -s "../../devices/virtual/mtd/${5:+$5/}mtd$1" "$T/sys/class/mtd/mtd$1"
}
mtd 0 "NAND simulator partition 0" 4194304 0x400
mtd 1 u-boot 1048576 0x400 mtd0
mtd 2 rootfs 1048576 0x0
mtd 3 ubi-data 1048576 0x400
mtd 4 data 1048576 0x400
mkdir -p "$T/sys/class/ubi/ubi0" "$T/proc/self"
echo 3 >"$T/sys/class/ubi/ubi0/mtd_num"
printf '22 1 0:21 / / rw - ext4 /dev/sda1 rw\n40 22 31:4 / /data rw - jffs2 /dev/mtdblock4 rw\n' \
	>"$T/proc/self/mountinfo"
for i in 0 1 2 3 4 9; do mknod "$WORK/mtd$i" c 90 $((i * 2)) || skip "cannot mknod"; done
mknod "$WORK/mtd0ro" c 90 1
S=(--sysroot "$T")
refused 2 "a node of major 90 with no mtd9 in sysfs" "$OUT" -- "$USBPERF" mtd "$WORK/mtd9" "${S[@]}" -o "$OUT"
says "no MTD device mtd9 in sysfs" "no mtd9: says so"
refused 2 "--size not a multiple of the eraseblock" "$OUT" -- "$USBPERF" mtd "$WORK/mtd0" "${S[@]}" --size 1000K -o "$OUT"
says "not a multiple of the eraseblock of mtd0 \(16384 B\)" "--size 1000K: names the eraseblock"
refused 2 "--size past the end" "$OUT" -- "$USBPERF" mtd "$WORK/mtd0" "${S[@]}" --size 8M -o "$OUT"
says "past the end of mtd0" "--size 8M: past the end"
refused 2 "--write-sizes off the page" "$OUT" -- "$USBPERF" mtd "$WORK/mtd0" "${S[@]}" --destructive --write-sizes 1000 -o "$OUT"
says "1000 is not a multiple of the page \(512 B\)" "--write-sizes 1000: names the page"
refused 2 "--write-sizes past the eraseblock" "$OUT" -- "$USBPERF" mtd "$WORK/mtd0" "${S[@]}" --destructive --write-sizes 32K -o "$OUT"
# 28.13: the write rules read the live system, never the recorded tree: the
# tree says mtd1 is u-boot, mtd2 read-only, mtd3 on UBI, mtd4 mounted, mtd0
# free; this host has no MTD device at all, so every write is refused for
# that, before the node is opened (the rules themselves: unit test mtd, and
# the lab's scenarios nand and hostile on real kernel objects)
if [ -d /sys/class/mtd ]; then
	echo "note: this host has MTD devices: the --sysroot write checks are the lab's"
else
	for i in 0 1 2 3 4; do
		refused 2 "--sysroot, --destructive on mtd$i: the live system has no mtd$i" "$OUT" "$WORK/mtd$i" -- \
			"$USBPERF" mtd "$WORK/mtd$i" "${S[@]}" --destructive -o "$OUT"
		says "refusing to write mtd$i: this system has no /sys/class/mtd/mtd$i \(the write rules read the live system, also under --sysroot\)" \
			"mtd$i: refused on the live system's facts, not the tree's"
	done
	refused 2 "--force-boot u-boot: still the live system's facts" "$OUT" -- "$USBPERF" mtd "$WORK/mtd1" "${S[@]}" --destructive --force-boot u-boot -o "$OUT"
	says "this system has no /sys/class/mtd/mtd1" "--force-boot: no way past the live rules"
fi
refused 2 "the read-only node" "$OUT" -- "$USBPERF" mtd "$WORK/mtd0ro" "${S[@]}" --destructive -o "$OUT"
says "read-only \(mtd0ro\)" "mtd0ro: says so"
# reads need no --destructive: the rules are not asked, the open is what fails
refused 2 "read only on u-boot: no refusal, the open fails" "$OUT" -- "$USBPERF" mtd "$WORK/mtd1" "${S[@]}" -o "$OUT"
says "cannot open" "read only on u-boot: reaches the open"

if [ -c /dev/mtd0 ]; then
	expect_status 0 "read-only pass on the real /dev/mtd0" "$USBPERF" mtd /dev/mtd0 --size 1M -F json -o "$OUT"
	jq_check "$OUT" '[.passes[].op] == ["read"] and .passes[0].mb_s > 0' "real /dev/mtd0: one read pass"
else
	echo "note: no /dev/mtd0 here (nandsim not loaded): the real passes are the lab's (scenario nand)"
fi
finish
