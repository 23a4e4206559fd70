#!/bin/bash
# The lab's host side says what is missing before anything is built or booted
# (issue 28.2): in a private mount namespace, /dev/null is mounted over sfdisk
# (no longer a program there) or /bin/false over it (a program that fails).
#   - tests/lab/run mmc without sfdisk: exit 1, one line on stderr naming the
#     program and Debian's package (fdisk), the scenario counted as failed,
#     nothing built (LAB_BUILD stays absent);
#   - mmc's preparation with an sfdisk that fails: the step that failed says
#     so in one line, and the preparation returns non-zero (no QEMU arguments).
# LAB_NO_INSTALL keeps the lab from installing what it misses.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd unshare mount truncate mke2fs
src=$(cd "$(dirname "$0")/../.." && pwd)
sfdisk=$(command -v sfdisk) || skip "needs sfdisk (fdisk) to hide it"
sfdisk=$(readlink -f "$sfdisk")

# the scenario, sfdisk hidden
lab=$WORK/lab-build
start=$(date +%s)
timeout 300 unshare -m bash -c 'mount --bind /dev/null "$1" &&
	exec env LAB_NO_INSTALL=1 LAB_BUILD="$2" LAB_CACHE="$2" "$3/tests/lab/run" mmc' \
	_ "$sfdisk" "$lab" "$src" >"$WORK/out" 2>"$WORK/err"
st=$?
took=$(($(date +%s) - start))
sed 's/^/    stdout: /' "$WORK/out"
sed 's/^/    stderr: /' "$WORK/err"
check "tests/lab/run mmc without sfdisk exits 1 (exit $st)" test "$st" = 1
check "one line on stderr" test "$(wc -l <"$WORK/err")" = 1
check "it names sfdisk and Debian's package fdisk" grep -q "^lab: mmc: needs sfdisk, from Debian's package fdisk" "$WORK/err"
check "the scenario is counted as failed" grep -q "^lab: 0 passed, 1 failed$" "$WORK/out"
check "nothing was built or booted (no $lab, $took s)" test ! -e "$lab"
check "sfdisk is back outside the namespace" test -x "$sfdisk"

# the preparation, sfdisk failing
mkdir "$WORK/disks"
unshare -m bash -c 'mount --bind /bin/false "$1" && . "$2/tests/lab/lib.sh" && . "$2/tests/lab/scenarios/mmc.sh" &&
	qemu_args "$3"' _ "$sfdisk" "$src" "$WORK/disks" >"$WORK/out" 2>"$WORK/err"
st=$?
sed 's/^/    stderr: /' "$WORK/err"
check "mmc's preparation with a failing sfdisk returns non-zero (exit $st)" test "$st" != 0
check "no QEMU arguments" test ! -s "$WORK/out"
check "one line on stderr, naming sfdisk's step" \
	bash -c "[ \"\$(wc -l <'$WORK/err')\" = 1 ] && grep -q '^lab: error: mmc: its partition table (sfdisk) failed (exit 1)$' '$WORK/err'"
finish
