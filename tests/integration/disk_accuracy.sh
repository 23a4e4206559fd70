#!/bin/bash
# Accuracy against a known true rate: a loop device throttled by the blkio
# cgroup (v1) at two rates for reads and two for writes; usbperf must report
# each within 5%.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq losetup
BLKIO=/sys/fs/cgroup/blkio
[ -f "$BLKIO/blkio.throttle.read_bps_device" ] || skip "no cgroup v1 blkio throttling here"

make_loop 512M --direct-io=on
dev=$LOOP
majmin=$(cat "/sys/block/$(basename "$dev")/dev")
grp="$BLKIO/usbperf-it-$$"
mkdir "$grp" || skip "cannot create a blkio cgroup"
CGROUPS+=("$grp")

# measure OP BS RATE_MIB: run usbperf inside the throttled cgroup
measure() {
	local op=$1 bs=$2 mib=$3 bps=$(($3 * 1048576)) extra=() got
	echo "$majmin $bps" >"$grp/blkio.throttle.${op}_bps_device"
	[ "$op" = write ] && extra=(--destructive)
	bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$grp" \
		"$USBPERF" disk "$dev" "${extra[@]}" --tests "seq-$op" --bs "$bs" --size 512M --time 4 -F json -q \
		>"$WORK/acc.json" 2>"$WORK/acc.err"
	echo "$majmin 0" >"$grp/blkio.throttle.${op}_bps_device"
	got=$(jq -r '.results[0].mib_s' "$WORK/acc.json")
	if [ -n "$got" ] && [ "$got" != null ] && within 5 "$got" "$mib"; then
		ok "seq-$op $bs throttled at $mib MiB/s: measured $got MiB/s"
	else
		bad "seq-$op $bs throttled at $mib MiB/s: measured '$got' MiB/s"
		sed 's/^/    /' "$WORK/acc.err" | head -3
	fi
}
measure read 1M 40
measure read 128K 15
measure write 1M 25
measure write 128K 10
finish
