#!/bin/bash
# run --nice: the measuring thread's nice value (platform/sys/priority.h). Root
# gets -10 by default; a thread already higher is left as it is; a value out
# of range is refused before anything is measured; a user who may not raise
# it is measured as it is and told so in a note. What the priority does to a
# pass beside CPU hogs is bench/compare-noise's figure, not this test's.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq ps setpriv

D="$WORK/scratch"
mkdir -p "$D"
chmod 1777 "$D" "$WORK"
fast=(--size 4M --time 0.5 --min-time 0 --no-save --no-monitor -q -F json)

# the nice value of the run's process while it measures (ps's NI of its main thread)
nice_during() { # nice_during OUT COMMAND...
	local out=$1 pid n=
	shift
	"$@" >"$out" 2>"$WORK/nice.err" &
	pid=$!
	for _ in $(seq 60); do
		sleep 0.1
		# the passes are under way once a test file is in the scratch directory
		ls "$D" 2>/dev/null | grep -q . || continue
		n=$(ps -o ni= -p "$pid" 2>/dev/null | tr -d ' ')
		[ -n "$n" ] && break
	done
	wait "$pid"
	echo "${n:-none}"
}

n=$(nice_during "$WORK/default.json" "$USBPERF" run "$D" "${fast[@]}")
if [ "$n" = -10 ]; then ok "root, no --nice: measured at nice -10"; else bad "root, no --nice: nice '$n'"; fi
jq_check "$WORK/default.json" '[.notes[]?.text | select(test("measured at nice"))] | length == 0' \
	"root, no --nice: no note about the priority"

n=$(nice_during "$WORK/n5.json" "$USBPERF" run "$D" "${fast[@]}" --nice 5)
if [ "$n" = 5 ]; then ok "--nice 5: measured at nice 5"; else bad "--nice 5: nice '$n'"; fi

# already above the default: left as it is (nice -n is relative to this shell's value)
n=$(nice_during "$WORK/n15.json" nice -n $((-15 - $(nice))) "$USBPERF" run "$D" "${fast[@]}")
if [ "$n" = -15 ]; then ok "started at nice -15, no --nice: left at -15"; else bad "started at -15: nice '$n'"; fi

# a user who may not raise it: measured, and a note says so
setpriv --reuid=nobody --regid=nogroup --clear-groups "$USBPERF" run "$D" "${fast[@]}" \
	>"$WORK/nobody.json" 2>"$WORK/nobody.err"
st=$?
if [ "$st" = 0 ]; then ok "as nobody: the run measures (exit 0)"; else
	bad "as nobody: exit $st: $(head -2 "$WORK/nobody.err")"; fi
jq_check "$WORK/nobody.json" '[.notes[].text | select(test("^measured at nice -?[0-9]+, not -10 \\(Permission denied\\): other work"))] | length == 1' \
	"as nobody: one note, at the nice it had, not -10, and why"

for bad_value in 20 -21 1.5 x ""; do
	refused 2 "--nice '$bad_value'" "$D" -- "$USBPERF" run "$D" "${fast[@]}" --nice "$bad_value"
	says "invalid --nice '$bad_value': expected a whole number from -20 to 19" "--nice '$bad_value': says the range"
done
finish
