# Scenario hostile: issue 28's second hostile-input probe on real kernel
# objects. mtdram (4 MiB, 128 KiB eraseblocks) with partitions added live by
# mtd-utils' mtdpart (u-boot at 0, small at 3 MiB): the master stays visible
# beside them, as nandsim cannot show. i2c-stub at 0x50. configfs gadgets on
# dummy_hcd, and a virtio disk with ext2 mounted. The truths: each refusal
# is exit 2 with one line on stderr, and the flash (md5 of all 4 MiB), the
# stub chip's registers (i2cdump), the disk, /etc/passwd and configfs are
# byte for byte as before; what is allowed (--force-boot with the exact
# name, ro=1, FunctionFS gadgets going down in either order, adbd's mount
# left alone) does what it says.
MODULES="mtdram jffs2 i2c-dev i2c-stub configfs dummy_hcd libcomposite usb_f_mass_storage usb_f_fs virtio_pci virtio_blk ext4"
LAB_BINS="mtdpart flash_erase i2cset i2cdump"

qemu_args() { # qemu_args DIR: a 16 MiB virtio disk with an ext2 filesystem
	command -v mke2fs >/dev/null || lab_die "hostile: mke2fs is needed (package e2fsprogs)"
	truncate -s 16M "$1/vda.img"
	mke2fs -q -F -t ext2 "$1/vda.img" >/dev/null || lab_die "hostile: mke2fs on $1/vda.img failed"
	echo -drive if=virtio,file="$1/vda.img",format=raw
}

# same A B DESCRIPTION: two files the guest wrote hold the same (non-empty) text
same() {
	if [ -s "$o/$1" ] && cmp -s "$o/$1" "$o/$2"; then ok "$SCEN: $3"
	else bad "$SCEN: $3 ($1: $(head -c 80 "$o/$1" 2>&1); $2: $(head -c 80 "$o/$2" 2>&1))"; fi
}

check() {
	local o=$1 t
	# 28.1: the master is refused for its partition's sake; the partition for its name
	if grep -q '"u-boot"' "$o/proc-mtd.txt" && grep -q '"small"' "$o/proc-mtd.txt"; then
		ok "$SCEN: mtdpart added u-boot and small beside the mtdram master"
	else bad "$SCEN: /proc/mtd: $(tr '\n' ' ' <"$o/proc-mtd.txt") $(cat "$o/mtdpart.err")"; fi
	rc_is uboot 2 "28.1 mtd u-boot --destructive"
	says uboot "refusing to write mtd1 'u-boot': the name is a bootloader's" "28.1 u-boot: one line, the name"
	rc_is master 2 "28.1 mtd /dev/mtd0 (the master) --destructive --size 1M"
	says master "refusing to write mtd0 'mtdram test device': its partition mtd1 'u-boot' is named like a bootloader's \\(give --force-boot 'u-boot'" \
		"28.1 master: one line naming its u-boot partition"
	rc_is master-run 2 "28.1 run /dev/mtd0 --destructive"
	says master-run "its partition mtd1 'u-boot' is named like a bootloader's \\(run never writes one" "28.1 run: the same rule"
	# 28.2: the report never onto the flash
	rc_is out-self 2 "28.2 mtd /dev/mtd0 -o /dev/mtd0"
	says out-self "refusing to write --output '/dev/mtd0': it is a device node \\(90:0\\)" "28.2 -o the flash: one line"
	rc_is out-link 2 "28.2 mtd /dev/mtd0 -o a link to /dev/mtd0"
	rc_is out-other 2 "28.2 mtd u-boot -o /dev/mtd0 (another MTD node)"
	# 28.9: refused before measuring
	rc_is copy-small 2 "28.9 run --copy SRC small (512 KiB) --destructive"
	says copy-small "^usbperf: run: --copy to '/dev/mtd2': the copy needs 1 MiB of flash at least; its region holds 524288 B$" \
		"28.9 one line with what the flash holds"
	t=$(awk '{ print $2 - $1 }' "$o/copy-small.time" 2>/dev/null)
	if [ -n "$t" ] && awk "BEGIN { exit !($t < 3) }"; then ok "$SCEN: 28.9 refused in $t s, no pass measured first"
	else bad "$SCEN: 28.9 the refusal took ${t:-?} s"; fi
	if [ ! -s "$o/copy-small.out" ] && [ ! -s "$o/copysrc-left.txt" ]; then ok "$SCEN: 28.9 nothing on stdout, nothing left on SRC"
	else bad "$SCEN: 28.9 stdout $(head -c 100 "$o/copy-small.out"), SRC $(cat "$o/copysrc-left.txt")"; fi
	# 28.13: the recorded tree's word is not taken
	rc_is sysroot 2 "28.13 mtd u-boot --sysroot (a tree calling it 'data', nothing mounted) --destructive"
	says sysroot "refusing to write mtd1 'u-boot': the name is a bootloader's" "28.13 the live name refuses it"
	same mtd-before.md5 mtd-after.md5 "28.1/2/9/13: the 4 MiB of flash byte for byte as before every refusal"
	rc_is master-mounted 2 "28.1 the master with a JFFS2 partition mounted, --force-boot u-boot"
	says master-mounted "its partition mtd3 'data' is mounted on '/mnt/data'" "28.1 master: the mounted partition named"
	rc_is force 0 "mtd /dev/mtd0 --destructive --size 1M --force-boot u-boot (the exact name)"
	if [ -s "$o/mtd-force-before.md5" ] && ! cmp -s "$o/mtd-force-before.md5" "$o/mtd-force-after.md5"; then
		ok "$SCEN: --force-boot u-boot: written, as asked"
	else bad "$SCEN: --force-boot u-boot: the flash did not change"; fi
	# 28.2: i2c
	rc_is i2c-out 2 "28.2 i2c ADAPTER -o ADAPTER"
	says i2c-out "refusing to write --output '/dev/i2c-[0-9]+': it is a device node \\(89:[0-9]+\\)" "28.2 i2c: one line"
	rc_is i2c-out-nak 2 "28.2 i2c at an absent address -o ADAPTER: refused before the run"
	if grep -q "^10: a5" "$o/i2c-before.txt" && cmp -s "$o/i2c-before.txt" "$o/i2c-after.txt"; then
		ok "$SCEN: 28.2 the stub chip's 256 registers as before (i2cdump)"
	else bad "$SCEN: 28.2 i2cdump differs: $(diff "$o/i2c-before.txt" "$o/i2c-after.txt" | head -3 | tr '\n' ' ')"; fi
	# 28.3: what the host may write
	if grep -q " /mnt/vda ext2 rw" "$o/vda-mounts.txt"; then ok "$SCEN: /dev/vda holds a mounted ext2"
	else bad "$SCEN: /dev/vda not mounted: $(cat "$o/vda-mount.err")"; fi
	rc_is msc-vda 2 "28.3 gadget up msc:file=/dev/vda"
	says msc-vda "msc: refusing to export '/dev/vda' read-write: the USB host could write it \\(ro=1" "28.3 /dev/vda: one line, how to export it"
	rc_is msc-vda-d 2 "28.3 gadget up msc:file=/dev/vda --destructive (mounted)"
	says msc-vda-d "msc: refusing to write to '/dev/vda': .* is mounted on '/mnt/vda'" "28.3 --destructive: disk's rule, the mount named"
	rc_is msc-passwd 2 "28.3 gadget up msc:file=/etc/passwd"
	rc_is msc-out 2 "28.2 gadget up msc:file=F,ro=1 -o F"
	says msc-out "refusing to write --output '/tmp/lun.img': it is the backing of a mass-storage LUN" "28.2 gadget: -o the LUN's backing"
	same cfs-before.md5 cfs-after-msc.md5 "28.3 configfs as before the refusals"
	rc_is msc-ro 0 "gadget up msc:file=/dev/vda,ro=1 (read-only)"
	if [ "$(cat "$o/msc-ro-lun-ro.txt")" = 1 ] && [ "$(cat "$o/msc-ro-lun-file.txt")" = /dev/vda ]; then
		ok "$SCEN: ro=1: lun.0/ro 1 with /dev/vda in it (ro written before the medium)"
	else bad "$SCEN: ro=1: lun.0/ro '$(cat "$o/msc-ro-lun-ro.txt")', file '$(cat "$o/msc-ro-lun-file.txt")'"; fi
	rc_is msc-ro-down 0 "gadget down after ro=1"
	same vda-before.md5 vda-after.md5 "28.3 /dev/vda byte for byte as before"
	same passwd-before.md5 passwd-after.md5 "28.3 /etc/passwd as before"
	# 28.6
	rc_is ffs-dotdot 2 "28.6 gadget up ffs:dir=/data/new/.."
	says ffs-dotdot "dir='/data/new/..' is not a canonical absolute path" "28.6 '..': one line"
	rc_is ffs-exists 2 "28.6 gadget up ffs:dir=/data (exists)"
	says ffs-exists "'/data' exists: functionfs is mounted only on a new directory usbperf makes" "28.6 an existing directory: one line"
	if [ "$(cat "$o/ffs-data-mounts.txt")" = 0 ] && [ "$(cat "$o/ffs-data-ls.txt")" = file ]; then ok "$SCEN: 28.6 nothing mounted over /data, its file there"
	else bad "$SCEN: 28.6 /data: mounts $(cat "$o/ffs-data-mounts.txt"), ls $(cat "$o/ffs-data-ls.txt")"; fi
	same cfs-before.md5 cfs-after-ffs.md5 "28.6 configfs as before"
	# 28.7
	for t in ffs-a ffs-b ffs-a-down ffs-b-down ffs-a2 ffs-b2 ffs-b2-down ffs-a2-down; do rc_is $t 0 "28.7 $t"; done
	says ffs-a-down "kept '/dev/usb-ffs': it is not empty \\(gadget 'usbperf-b' takes it over" "28.7 the first down keeps /dev/usb-ffs for the second"
	if [ "$(cat "$o/ffs-a-down-ls.txt")" = b ]; then ok "$SCEN: 28.7 after the first down only b's mount point is left"
	else bad "$SCEN: 28.7 /dev/usb-ffs after the first down: $(cat "$o/ffs-a-down-ls.txt")"; fi
	same cfs-before.md5 cfs-after-ffs2.md5 "28.7 either order: configfs and /dev/usb-ffs as before"
	rc_is ffs-a3-down 0 "28.7 down with adbd's FunctionFS mounted beside"
	says ffs-a3-down "kept '/dev/usb-ffs': it is not empty \\(another program's mount point is in it\\)" "28.7 adbd's mount kept, said"
	if [ "$(cat "$o/adb-cfs-ls.txt")" = adb ]; then ok "$SCEN: 28.7 usbperf's gadget gone, adb's there"
	else bad "$SCEN: 28.7 configfs after down: $(tr '\n' ' ' <"$o/adb-cfs-ls.txt")"; fi
	# 28.12, 28.14
	rc_is down-empty 2 "28.12 gadget down ''"
	rc_is down-empty-force 2 "28.12 gadget down '' --force"
	says down-empty-force "invalid gadget name '': usbperf's gadgets are 'usbperf' or 'usbperf-NAME'" "28.12 one line"
	rc_is down-adb-force 2 "28.12 gadget down adb --force (another tool's)"
	rc_is down-long 2 "28.14 gadget down with a 300-character name"
	says down-long "invalid gadget name 'usbperf-x+\\.\\.\\.'" "28.14 one line, the name cut short"
	same adb-cfs-before.txt adb-cfs-after.txt "28.12 adb's gadget untouched by the refused downs"
	same cfs-before.md5 cfs-end.md5 "configfs and /dev/usb-ffs as at the start"
}
