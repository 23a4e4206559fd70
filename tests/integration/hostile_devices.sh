#!/usr/bin/env bash
# Hostile input, round 2 (issue 28.2, 28.3, 28.6, 28.12, 28.14), on this
# host's real kernel objects: loop devices (one with ext2 mounted), the disk
# that holds /, /dev/zero, /etc/passwd; device nodes of the MTD, I2C, HID,
# video and usbfs majors made here (this host has none of those drivers: the
# refusals come before any open). configfs is a directory tree (--sysroot),
# as in gadget_cli: the real one, mtdram, i2c-stub and the rest are the lab's
# scenario hostile. Each case: exit status, one line on stderr, every file,
# device and tree involved byte for byte as before.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd mkfs.ext2 findmnt

U=$USBPERF
# --- 28.2: an output is never a device node (but /dev/null, a terminal, stdout's own)
mknod "$WORK/mtd4" c 90 8 || skip "cannot mknod"
mknod "$WORK/i2c-0" c 89 0
mknod "$WORK/hidraw0" c 240 0
mknod "$WORK/video0" c 81 0
mkdir -p "$WORK/bus/001"
mknod "$WORK/bus/001/002" c 189 1
ln -s mtd4 "$WORK/mtd-link"
mknod "$WORK/zero" c 1 5
for c in "mtd $WORK/mtd4" "mtd $WORK/mtd4 --destructive" "i2c $WORK/i2c-0 --addr 0x50" \
	"hid $WORK/hidraw0" "video $WORK/video0" "bulk $WORK/bus/001/002" "mtp $WORK/bus/001/002"; do
	set -- $c
	node=$2
	refused 2 "28.2 $1 onto the device it measures" "$node" -- "$U" $c -o "$node"
	[ "$1" = mtp ] && continue # without libmtp, mtp stops before (still exit 2)
	says "^usbperf: refusing to write --output '$node': it is a device node \\([0-9]+:[0-9]+\\)" "28.2 $1: says it is a device node"
done
refused 2 "28.2 mtd -o a symbolic link to the node it measures" "$WORK/mtd4" "$WORK/mtd-link" -- \
	"$U" mtd "$WORK/mtd4" -o "$WORK/mtd-link"
says "it is a device node \\(90:8\\)" "28.2 the link followed to the node"
refused 2 "28.2 video --save onto the device it measures" "$WORK/video0" -- \
	"$U" video "$WORK/video0" --save "$WORK/video0"
refused 2 "28.2 -o /dev/zero (a device a write vanishes into)" "$WORK/zero" -- "$U" sysinfo -o "$WORK/zero"
make_loop 8M
refused 2 "28.2 -o a block device" "$LOOP" -- "$U" sysinfo -o "$LOOP"
says "it is a block device" "28.2 block device: says so"
# what stays allowed: /dev/null (a private one), a FIFO, stdout itself, a file through a link
mknod -m 666 "$WORK/null" c 1 3
expect_status 0 "-o a private /dev/null (1:3)" "$U" sysinfo -o "$WORK/null"
check "it is still /dev/null" test -c "$WORK/null"
mkfifo "$WORK/fifo"
cat "$WORK/fifo" >"$WORK/fifo.out" &
expect_status 0 "-o a FIFO" "$U" sysinfo -o "$WORK/fifo"
wait
check "the FIFO's reader got the report" grep -q "^system" "$WORK/fifo.out"
# /dev/stdout's own shape, made here: a binary that regressed would replace this one, not /dev's
ln -s /proc/self/fd/1 "$WORK/stdout"
expect_status 0 "-o a link to /proc/self/fd/1 (as /dev/stdout is)" "$U" sysinfo -o "$WORK/stdout"
check "stdout's link written through: the report on stdout" grep -q "^system" "$WORK/out"
check "stdout's link is still a symbolic link" test -L "$WORK/stdout"
echo old >"$WORK/real.txt"
ln -s real.txt "$WORK/report-link"
expect_status 0 "-o a link to a file" "$U" sysinfo -o "$WORK/report-link"
check "the link stays a link" test -L "$WORK/report-link"
check "the file it names got the report" grep -q "^system" "$WORK/real.txt"

# --- gadget: a configfs-shaped tree (as gadget_cli's), real files and disks
R=$WORK/root
mkdir -p "$R/sys/kernel/config/usb_gadget" "$R/sys/class/udc/dummy_udc.0" "$R/run/usbperf"
G=(--sysroot "$R")
cp /etc/passwd "$WORK/passwd.before"
# 28.3: nothing the host could write without --destructive; no disk that disk refuses
refused 2 "28.3 msc:file=/etc/passwd" /etc/passwd "$R" -- "$U" gadget up msc:file=/etc/passwd "${G[@]}"
says "msc: refusing to export '/etc/passwd' read-write: the USB host could write it \\(ro=1 exports it read-only; --destructive lets the host write it\\)" \
	"28.3 /etc/passwd: one line, the two ways"
make_loop 16M
mkfs.ext2 -q "$LOOP" || skip "mkfs.ext2 failed"
mkdir "$WORK/mnt"
mount "$LOOP" "$WORK/mnt" || skip "cannot mount ext2 on $LOOP"
echo data >"$WORK/mnt/file"
umount "$WORK/mnt"
# read-only: the kernel's own writeback cannot change what is fingerprinted
mount -o ro "$LOOP" "$WORK/mnt" || skip "cannot mount ext2 on $LOOP"
MOUNTS+=("$WORK/mnt")
refused 2 "28.3 msc:file=a mounted loop device" "$LOOP" "$R" -- "$U" gadget up "msc:file=$LOOP" "${G[@]}"
refused 2 "28.3 msc:file=a mounted loop device --destructive" "$LOOP" "$R" -- \
	"$U" gadget up "msc:file=$LOOP" --destructive "${G[@]}"
says "msc: refusing to write to '$LOOP': [0-9]+:[0-9]+ on its disk is mounted on '$WORK/mnt'" "28.3 --destructive: disk's rule names the mount"
root=$(findmnt -no SOURCE / 2>/dev/null)
if [ -b "$root" ]; then
	refused 2 "28.3 msc:file=the disk of / --destructive" "$R" -- "$U" gadget up "msc:file=$root" --destructive "${G[@]}"
	says "msc: refusing to write to '$root': it is on the disk that holds '/'|is mounted on" "28.3 the root disk: refused by disk's rule"
else
	echo "note: / is on '$root', not a block device: the root disk case is the lab's (/dev/vda)"
fi
refused 2 "28.2 gadget -o the backing of its LUN" "$WORK/passwd.before" "$R" -- \
	"$U" gadget up "msc:file=$WORK/passwd.before,ro=1" -o "$WORK/passwd.before" "${G[@]}"
says "refusing to write --output '$WORK/passwd.before': it is the backing of a mass-storage LUN" "28.2 gadget: says so"
check "28.3 /etc/passwd as before" cmp -s /etc/passwd "$WORK/passwd.before"
refused 2 "--destructive is for up" "$R" -- "$U" gadget down --destructive "${G[@]}"

# 28.6: functionfs never over a directory that is there (or reached through '..' or a link)
mkdir -p "$R/data"
echo "the user's" >"$R/data/file"
ln -s data "$R/lnk"
refused 2 "28.6 ffs:dir=/data/new/.." "$R" -- "$U" gadget up 'ffs:dir=/data/new/..' "${G[@]}"
says "ffs: dir='/data/new/..' is not a canonical absolute path" "28.6 '..': one line"
refused 2 "28.6 ffs:dir=/data/" "$R" -- "$U" gadget up 'ffs:dir=/data/' "${G[@]}"
refused 2 "28.6 ffs:dir=/data (exists)" "$R" -- "$U" gadget up 'ffs:dir=/data' "${G[@]}"
says "ffs: '/data' exists: functionfs is mounted only on a new directory usbperf makes" "28.6 an existing directory: one line"
refused 2 "28.6 ffs:dir=/lnk/new (through a link)" "$R" -- "$U" gadget up 'ffs:dir=/lnk/new' "${G[@]}"
says "ffs: '/lnk' is not a directory \\(a link is not followed\\)" "28.6 a link: one line"
mkdir -p "$R/dev/usb-ffs/adb"
refused 2 "28.6 ffs:name=adb (adbd's mount point)" "$R" -- "$U" gadget up 'ffs:name=adb' "${G[@]}"
says "'/dev/usb-ffs/adb' exists" "28.6 the default mount point taken: one line"

# 28.12, 28.14: only usbperf's names; another tool's gadget is never removed
C=$R/sys/kernel/config/usb_gadget
mkdir -p "$C/g1/configs/c.1/strings/0x409" "$C/g1/functions/ncm.x"
echo adb >"$C/g1/configs/c.1/strings/0x409/configuration"
mkdir -p "$C/usbperf-x/configs/c.1/strings/0x409"
echo adb >"$C/usbperf-x/configs/c.1/strings/0x409/configuration"
refused 2 "28.12 gadget down ''" "$R" -- "$U" gadget down "" "${G[@]}"
refused 2 "28.12 gadget down '' --force" "$R" -- "$U" gadget down "" --force "${G[@]}"
says "invalid gadget name '': usbperf's gadgets are 'usbperf' or 'usbperf-NAME'" "28.12 '': one line"
refused 2 "28.12 gadget down g1 --force" "$R" -- "$U" gadget down g1 --force "${G[@]}"
refused 2 "28.12 gadget down . --force" "$R" -- "$U" gadget down . --force "${G[@]}"
refused 2 "28.12 gadget down usbperf-x --force (labelled by another tool)" "$R" -- \
	"$U" gadget down usbperf-x --force "${G[@]}"
says "its configuration 'c.1' says 'adb'; left as it is" "28.12 another tool's label: one line"
refused 2 "28.12 gadget bind ''" "$R" -- "$U" gadget bind "" "${G[@]}"
long=usbperf-$(printf 'x%.0s' $(seq 292))
refused 2 "28.14 gadget down NAME of 300 characters" "$R" -- "$U" gadget down "$long" "${G[@]}"
says "^usbperf: gadget: invalid gadget name 'usbperf-x{56}\\.\\.\\.'" "28.14 one line, the name cut at 64"
refused 2 "28.14 gadget up --name of 300 characters" "$R" -- "$U" gadget up ncm --name "$long" "${G[@]}"
finish
