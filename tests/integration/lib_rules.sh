#!/bin/bash
# The rules every integration test lives by (lib.sh, issue 30.6): a skip
# after a failed check is a failure, a test that made no check has failed, a
# skip names what is missing, and the CPU hogs, loop devices and throttle
# cgroups a test starts are gone when it ends, however it ends. Each case is
# a small test script run as the real ones are.
. "$(dirname "$0")/lib.sh"
need_cmd timeout setsid

LIB=$(cd "$(dirname "$0")" && pwd)/lib.sh
# case_run NAME BODY: a test script NAME that sources lib.sh and runs BODY;
# its exit status in $RC, its stderr in $WORK/NAME.err
case_run() {
	printf '. "%s"\n%s\n' "$LIB" "$2" >"$WORK/$1.sh"
	USBPERF=$USBPERF bash "$WORK/$1.sh" >"$WORK/$1.out" 2>"$WORK/$1.err"
	RC=$?
}

case_run failed-then-skip 'bad "a check that failed"; skip "needs a thing"'
check "a skip after a failed check fails (exit $RC)" test "$RC" = 1
check "... and says so" grep -q "^FAIL failed-then-skip: 1 of 1 checks failed before it skipped (needs a thing)" "$WORK/failed-then-skip.err"
case_run passed-then-skip 'ok "a check that passed"; skip "needs a thing"'
check "a skip after passed checks is a skip (exit $RC)" test "$RC" = 77
check "... naming what is missing and what ran" grep -qx "SKIP passed-then-skip: needs a thing (after 1 checks passed)" "$WORK/passed-then-skip.err"
case_run skip-first 'skip "needs root"'
check "a skip before any check (exit $RC)" test "$RC" = 77
check "... names what is missing" grep -qx "SKIP skip-first: needs root" "$WORK/skip-first.err"
case_run skip-silent 'skip'
check "a skip that names nothing fails (exit $RC)" test "$RC" = 1
case_run no-check 'finish'
check "a test with no check fails (exit $RC)" test "$RC" = 1
check "... and says so" grep -q "no check was made" "$WORK/no-check.err"
case_run one-check 'ok "one"; finish'
check "one passed check passes (exit $RC)" test "$RC" = 0
case_run one-bad 'ok "one"; bad "two"; finish'
check "a failed check fails (exit $RC)" test "$RC" = 1

# hogs end with the test: on finish, on a skip, on a signal. HOG_PIDS: a
# case's lines that start two hogs and write the spinning processes' pids
# (timeout's children, the ones that burn the CPU) to FILE once they run
hog_pids() {
	echo "start_hogs 2; for _ in \$(seq 50); do [ \$(for h in \"\${HOGS[@]}\"; do pgrep -P \$h; done | wc -l) = 2 ] && break; sleep 0.1; done
	for h in \"\${HOGS[@]}\"; do pgrep -P \$h; done >\"$1\""
}
gone() { # FILE: every pid in it is gone, and there were two
	local p
	[ "$(wc -l <"$1")" = 2 ] || return 1
	for p in $(cat "$1"); do kill -0 "$p" 2>/dev/null && return 1; done
	return 0
}
case_run hogs-finish "$(hog_pids "$WORK/hogs-finish.pids"); ok x; finish"
check "hogs: the test passed (exit $RC)" test "$RC" = 0
check "hogs: gone after finish ($(tr '\n' ' ' <"$WORK/hogs-finish.pids"))" gone "$WORK/hogs-finish.pids"
case_run hogs-skip "$(hog_pids "$WORK/hogs-skip.pids"); skip 'no thing'"
check "hogs: gone after a skip" gone "$WORK/hogs-skip.pids"
# as meson ends a test that ran out of time: SIGTERM to its process group, here
# while it waits for a command of its own
printf '. "%s"\n%s\nsleep 60 &\necho ready >"%s"\nwait $!\n' "$LIB" "$(hog_pids "$WORK/hogs-term.pids")" \
	"$WORK/hogs-term.ready" >"$WORK/hogs-term.sh"
USBPERF=$USBPERF setsid bash "$WORK/hogs-term.sh" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$WORK/hogs-term.ready" ] && break; sleep 0.1; done
kill -TERM -- -"$pid"
wait "$pid"
RC=$?
check "a test ended by SIGTERM exits 143 (exit $RC)" test "$RC" = 143
check "hogs: gone after SIGTERM" gone "$WORK/hogs-term.pids"

# a throttle cgroup and a loop device go with the test (as root, where there is one)
if [ "$(id -u)" = 0 ] && command -v losetup >/dev/null; then
	case_run throttle-gone 'make_loop 16M; throttle_group; throttle "$LOOP" 40 0
		echo "$THROTTLE_GROUP $LOOP" >"$(dirname "$0")/throttle-gone.txt"; ok x; finish'
	if [ "$RC" = 77 ]; then
		echo "note: no block I/O throttling here: $(cat "$WORK/throttle-gone.err")"
		check "throttle: a skip that names what is missing" grep -q "^SKIP throttle-gone: no block I/O throttling" "$WORK/throttle-gone.err"
	else
		check "throttle: the test passed (exit $RC)" test "$RC" = 0
		read -r grp loop <"$WORK/throttle-gone.txt"
		check "throttle: its cgroup removed ($grp)" test ! -d "$grp"
		check "throttle: its loop device detached ($loop)" sh -c "! losetup '$loop' >/dev/null 2>&1"
	fi
	# asked for v2 where the io controller is bound to v1 (this host): a skip naming why
	if [ -f /sys/fs/cgroup/blkio/blkio.throttle.read_bps_device ]; then
		THROTTLE=v2 case_run v2-here 'throttle_group; ok x; finish'
		if [ "$RC" = 0 ]; then
			echo "note: cgroup v2 io.max works beside v1 blkio here"
		else
			check "throttle v2 where it cannot be had: a skip (exit $RC)" test "$RC" = 77
			check "... naming what is missing: $(cat "$WORK/v2-here.err")" grep -q "^SKIP v2-here: no block I/O throttling" "$WORK/v2-here.err"
		fi
	fi
else
	echo "note: the throttle cgroup's removal not checked: needs root and losetup"
fi
finish
