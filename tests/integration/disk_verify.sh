#!/bin/bash
# --verify: a clean run passes; a corrupted block is found with its offset and
# makes the exit status non-zero.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq losetup dd

make_loop 64M --direct-io=on
dev=$LOOP
expect_status 0 "verify run on a device" "$USBPERF" disk "$dev" --destructive --verify --seed 42 --size 32M --bs 64K,1M --time 2 --min-time 0 -F json -q
jq_check "$WORK/out" '.target.verify == true and .target.verify_errors == 0 and (.verify_errors | length) == 0' "clean verify"
jq_check "$WORK/out" '.target.seed == 42' "seed reported"

# lay the pattern down, corrupt one 512-byte unit at 5 MiB + 1536, read back
expect_status 0 "write the pattern" "$USBPERF" disk "$dev" --destructive --verify --seed 7 --size 32M --bs 1M --tests seq-write -q --time 30 --min-time 0
expect_status 0 "read back intact" "$USBPERF" disk "$dev" --verify --seed 7 --size 32M --bs 1M --tests seq-read -q --time 30 --min-time 0
off=$((5 * 1048576 + 1536))
printf 'XXXX' | dd of="$dev" bs=1 seek=$((off + 100)) conv=notrunc oflag=direct,sync 2>/dev/null ||
	printf 'XXXX' | dd of="$dev" bs=1 seek=$((off + 100)) conv=notrunc,fsync 2>/dev/null
# with a minimum time the region is read several times: the bad unit is still counted once
expect_status 1 "corruption makes exit 1" "$USBPERF" disk "$dev" --verify --seed 7 --size 32M --bs 1M --tests seq-read -F json -q --time 30 --min-time 0.3
jq_check "$WORK/out" ".verify_errors[0].offset == $off and .verify_errors[0].fault == \"checksum mismatch\"" "mismatch offset is $off"
jq_check "$WORK/out" '.target.verify_errors == 1 and .results[0].bytes > 33554432' "exactly one bad unit, over more than one lap"
check "stderr names the offset" grep -q "offset $off" "$WORK/err"
expect_status 1 "wrong seed is caught" "$USBPERF" disk "$dev" --verify --seed 8 --size 1M --bs 1M --tests seq-read -F json -q --min-time 0
jq_check "$WORK/out" '.verify_errors[0].fault == "data from another run"' "seed mismatch named"

# through a test file, with random writes and buffered mode too
expect_status 0 "verify in a directory, all tests, both modes" "$USBPERF" disk "$WORK" --verify --size 16M --bs 4K,1M --time 1 --min-time 0 --mode direct,buffered -F json -q
jq_check "$WORK/out" '.target.verify_errors == 0 and (.results | length) == 12' "file verify clean"
finish
