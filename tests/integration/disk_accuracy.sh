#!/bin/bash
# Accuracy against a known true rate: a loop device throttled by the blkio
# cgroup (v1 blkio, or v2 io.max) at two rates for reads and two for writes;
# usbperf must report each within 5%.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq losetup
make_loop 512M --direct-io=on
dev=$LOOP
throttle_group

# measure OP BS RATE_MIB: run usbperf inside the throttled cgroup
measure() {
	local op=$1 bs=$2 mib=$3 extra=() got
	if [ "$op" = read ]; then throttle "$dev" "$mib" 0; else throttle "$dev" 0 "$mib"; fi
	[ "$op" = write ] && extra=(--destructive)
	throttled "$USBPERF" disk "$dev" "${extra[@]}" --tests "seq-$op" --bs "$bs" --size 512M --time 4 -F json -q \
		>"$WORK/acc.json" 2>"$WORK/acc.err"
	throttle "$dev" 0 0
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
