# A block device throttled to a known rate: cgroup v1 blkio, or cgroup v2
# io.max (Debian 12 has only v2). Sourced by lib.sh, bench/compare-noise and
# the lab guest's scenario (busybox sh: plain POSIX sh here, no arrays).
#
#   throttle_setup NAME   a cgroup NAME whose tasks' block I/O can be throttled:
#                         THROTTLE_GROUP, THROTTLE_KIND (v1 or v2); 1 with
#                         THROTTLE_WHY (what is missing) when there is none.
#                         v1 where blkio is mounted, v2 where its io controller
#                         can be enabled; THROTTLE=v1|v2 asks for one.
#   throttle DEV R W      DEV's read and write rates in the group, MiB/s
#                         (decimals allowed; 0: not throttled)
#   throttled CMD...      run CMD inside the group
#   throttle_teardown     remove the group (its tasks gone), and the io
#                         controller if throttle_setup enabled it

throttle_setup() {
	local v1=/sys/fs/cgroup/blkio v2
	THROTTLE_GROUP= THROTTLE_KIND= THROTTLE_WHY= THROTTLE_IO_ENABLED=
	if [ "${THROTTLE:-}" != v2 ] && [ -f "$v1/blkio.throttle.read_bps_device" ]; then
		THROTTLE_KIND=v1
		THROTTLE_GROUP=$v1/$1
	else
		local no_v1="no cgroup v1 blkio throttle at $v1"
		[ "${THROTTLE:-}" = v2 ] && no_v1="cgroup v2 asked for (THROTTLE=v2)"
		v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
		if [ "${THROTTLE:-}" = v1 ] || [ -z "$v2" ]; then
			THROTTLE_WHY="no block I/O throttling: $no_v1${v2:+ (THROTTLE=v1)}${v2:- and no cgroup v2 mounted}"
			return 1
		fi
		if ! grep -qw io "$v2/cgroup.controllers" 2>/dev/null; then
			THROTTLE_WHY="no block I/O throttling: $no_v1, and cgroup v2 at $v2 offers no 'io' controller (it has: $(cat "$v2/cgroup.controllers" 2>/dev/null); io is bound to a v1 hierarchy, or not built)"
			return 1
		fi
		if ! grep -qw io "$v2/cgroup.subtree_control"; then
			if ! echo +io >"$v2/cgroup.subtree_control" 2>/dev/null; then
				THROTTLE_WHY="no block I/O throttling: the io controller cannot be enabled in $v2/cgroup.subtree_control"
				return 1
			fi
			THROTTLE_IO_ENABLED=$v2/cgroup.subtree_control
		fi
		THROTTLE_KIND=v2
		THROTTLE_GROUP=$v2/$1
	fi
	if ! mkdir "$THROTTLE_GROUP"; then
		THROTTLE_WHY="cannot create the cgroup $THROTTLE_GROUP"
		THROTTLE_GROUP=
		throttle_teardown
		return 1
	fi
	if [ $THROTTLE_KIND = v2 ] && [ ! -f "$THROTTLE_GROUP/io.max" ]; then
		THROTTLE_WHY="no io.max in $THROTTLE_GROUP (the io controller is not enabled for it)"
		throttle_teardown
		return 1
	fi
	return 0
}

throttle() {
	local t_dev t_majmin t_r t_w
	t_dev=$(basename "$(readlink -f "$1")")
	t_majmin=$(cat "/sys/class/block/$t_dev/dev") || return 1
	t_r=$(awk -v m="$2" 'BEGIN { printf "%.0f", m * 1048576 }')
	t_w=$(awk -v m="$3" 'BEGIN { printf "%.0f", m * 1048576 }')
	if [ "$THROTTLE_KIND" = v1 ]; then
		echo "$t_majmin $t_r" >"$THROTTLE_GROUP/blkio.throttle.read_bps_device" &&
			echo "$t_majmin $t_w" >"$THROTTLE_GROUP/blkio.throttle.write_bps_device"
	else
		[ "$t_r" = 0 ] && t_r=max
		[ "$t_w" = 0 ] && t_w=max
		echo "$t_majmin rbps=$t_r wbps=$t_w" >"$THROTTLE_GROUP/io.max"
	fi
}

throttled() {
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$THROTTLE_GROUP" "$@"
}

throttle_teardown() {
	[ -z "$THROTTLE_GROUP" ] || rmdir "$THROTTLE_GROUP" 2>/dev/null
	[ -z "$THROTTLE_IO_ENABLED" ] || echo -io >"$THROTTLE_IO_ENABLED" 2>/dev/null
	THROTTLE_GROUP= THROTTLE_IO_ENABLED=
}

# tight_drops RUN_A.json RUN_B.json COMPARE.json (run or show -F json; compare
# -F json): the read rates that fell 20 % or more between two runs whose passes
# barely waited for a CPU (5 % or less), held steady (within the pass and over
# its repeats: spread 3 % or less) and
# took at most half a CPU (cpu_io_pct: compare.h's COMPARE_MAX_CPU_BUSY_PCT):
# what compare must call worse, as JSON rows {name, change_pct, verdict} (jq,
# on the host)
tight_drops() {
	jq -n --slurpfile a "$1" --slurpfile b "$2" --slurpfile c "$3" '
		def ev($r; $n): $r[0].metrics[] | select(.metric == "mb_s" and .name == $n);
		def tight: .cpu_wait_pct != null and .cpu_wait_pct <= 5 and .pass_spread != null and
			.pass_spread <= 0.03 * .value and (.stdev == null or .stdev <= 0.03 * .value) and
			.cpu_io_pct != null and .cpu_io_pct <= 50;
		[$c[0].metrics[] | select(.metric == "mb_s" and .change_pct <= -20) | . as $m |
			select((ev($a; $m.name) | tight) and (ev($b; $m.name) | tight)) |
			{name, change_pct, verdict}]'
}
