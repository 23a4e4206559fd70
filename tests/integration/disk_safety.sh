#!/bin/bash
# Nothing that damages data: block-device writes need --destructive and are
# refused on mounted, held or root disks; test files vanish on exit and on
# SIGINT/SIGTERM.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq losetup mkfs.ext4 sfdisk sha1sum

make_loop 64M --direct-io=on
dev=$LOOP
img=$(losetup -nO BACK-FILE "$dev")
sum0=$(sha1sum <"$img")
expect_status 2 "writes without --destructive" "$USBPERF" disk "$dev" --tests write --size 8M
one_line_error "writes without --destructive"
check "device untouched" test "$(sha1sum <"$img")" = "$sum0"
expect_status 0 "default tests on a device run read-only" "$USBPERF" disk "$dev" --size 8M --time 0.5 --min-time 0 --bs 1M -F json -q
jq_check "$WORK/out" 'all(.results[]; .op == "read")' "only reads ran"
jq_check "$WORK/out" 'any(.warnings[]; test("--destructive"))' "the report says how to enable writes"
check "device still untouched" test "$(sha1sum <"$img")" = "$sum0"

# --preset cdm means CrystalDiskMark's 1 GiB: a 64 MiB device is refused, not measured over less
expect_status 2 "--preset cdm on a 64 MiB device" "$USBPERF" disk "$dev" --destructive --preset cdm
one_line_error "--preset cdm on a 64 MiB device"
check "says the device is too small for 1 GiB" grep -q "'$dev' has 64M, less than the 1 GiB --preset cdm tests" "$WORK/err"
check "cdm: device untouched" test "$(sha1sum <"$img")" = "$sum0"

# a partition of the disk is mounted: the whole disk is refused
make_loop 64M -P
pdev=$LOOP
echo ',,L' | sfdisk -q "$pdev" >/dev/null 2>&1 && partx -u "$pdev" 2>/dev/null
sleep 0.5
if [ -b "${pdev}p1" ]; then
	mkfs.ext4 -q "${pdev}p1"
	mkdir "$WORK/mnt"
	mount "${pdev}p1" "$WORK/mnt" && MOUNTS+=("$WORK/mnt")
	expect_status 2 "whole disk with a mounted partition" "$USBPERF" disk "$pdev" --destructive --tests write --size 8M
	check "names the mount" grep -q "is mounted on '$WORK/mnt'" "$WORK/err"
	expect_status 2 "the mounted partition itself" "$USBPERF" disk "${pdev}p1" --destructive --tests write --size 8M
	umount "$WORK/mnt"
else
	bad "partition device ${pdev}p1 did not appear"
fi

# held by another exclusive opener (a running usbperf)
"$USBPERF" disk "$dev" --destructive --tests seq-write --bs 512 --size 64M --time 20 --repeat 50 -q >/dev/null 2>&1 &
holder=$!
sleep 1
expect_status 2 "device held by another process" "$USBPERF" disk "$dev" --destructive --tests write --size 8M
check "says it is in use" grep -q "in use" "$WORK/err"
kill -TERM "$holder"
wait "$holder"
check "holder exits 143 on SIGTERM" test $? = 143

# the root disk (null engine, write-only: even a broken check could not write)
root_src=$(findmnt -no SOURCE / 2>/dev/null)
if [ -b "$root_src" ]; then
	expect_status 2 "the disk holding /" "$USBPERF" disk "$root_src" --destructive --tests seq-write --engine null --size 1M
	check "names the root disk" grep -q "holds '/'" "$WORK/err"
else
	echo "note: / is not on a block device here; root-disk refusal not exercised"
fi

# ENOSPC mid-pass: a sparse usbperf file bigger than its filesystem ends the
# pass with a clear message; the results so far are kept (exit 3)
make_loop 24M
mkfs.ext4 -q "$LOOP"
mkdir "$WORK/small"
mount "$LOOP" "$WORK/small" && MOUNTS+=("$WORK/small")
# a kept usbperf test file carries usbperf's mark in its last 4 KiB (safety.c)
truncate -s 64M "$WORK/small/usbperf-sparse.tmp"
printf 'usbperf test file, mark v1\n' | dd of="$WORK/small/usbperf-sparse.tmp" bs=4096 seek=16383 conv=notrunc status=none
expect_status 3 "ENOSPC mid-pass" "$USBPERF" disk "$WORK/small/usbperf-sparse.tmp" --tests seq-write --bs 1M,64K --size 64M -F json -q
jq_check "$WORK/out" '(.results | length) == 1 and .results[0].status == "partial" and .results[0].bytes > 0' "partial result kept"
jq_check "$WORK/out" 'any(.warnings[]; test("No space left"))' "the report names ENOSPC"
check "stderr names ENOSPC" grep -q "No space left on device" "$WORK/err"
umount "$WORK/small"

# and a filesystem with room for the usual 128M but not for 1 GiB: refused before the file is made
make_loop 192M
mkfs.ext4 -q "$LOOP"
mkdir "$WORK/mid"
mount "$LOOP" "$WORK/mid" && MOUNTS+=("$WORK/mid")
before=$(ls -A "$WORK/mid")
expect_status 2 "--preset cdm on a 192 MiB filesystem" "$USBPERF" disk "$WORK/mid" --preset cdm
one_line_error "--preset cdm on a 192 MiB filesystem"
check "cdm: says the 1 GiB file does not fit" grep -q "not enough space in '$WORK/mid': the test needs 1048580K" "$WORK/err"
check "cdm: nothing left in the directory" test "$(ls -A "$WORK/mid")" = "$before"
umount "$WORK/mid"

# test files go away on SIGINT and SIGTERM, and results so far are printed
for sig in INT TERM; do
	mkdir -p "$WORK/sig$sig"
	"$USBPERF" disk "$WORK/sig$sig" --tests seq-write --bs 4K --size 256M --time 30 -F json -q >"$WORK/sig.json" 2>"$WORK/sig.err" &
	pid=$!
	for _ in $(seq 50); do ls "$WORK/sig$sig" | grep -q usbperf- && break; sleep 0.1; done
	check "SIG$sig: test file exists while running" test -n "$(ls "$WORK/sig$sig")"
	sleep 0.5
	kill -"$sig" "$pid"
	wait "$pid"
	st=$?
	want=$((128 + $(kill -l "$sig")))
	check "SIG$sig: exit $st = $want" test "$st" = "$want"
	check "SIG$sig: test file removed" test -z "$(ls -A "$WORK/sig$sig")"
	jq_check "$WORK/sig.json" '.target.interrupted == true and (.results | length) == 1' "SIG$sig: partial JSON is valid"
done
finish
