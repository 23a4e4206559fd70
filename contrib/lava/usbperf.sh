#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs 'usbperf run' on the device under test and reports every measurement
# (and, with -c, every check of the criteria) as a LAVA test case, through
# lava-test-case and lava-test-set. usbperf's own '--lava' output decides the
# test case ids, results, measurements and units; this script hands each
# signal to the helpers, so it also works outside LAVA (test-definitions'
# test-runner): the cases are then in output/result.txt.
#
#   usbperf.sh [-t TARGETS] [-s SIZE] [-T SEC] [-w quick|full] [-r N]
#              [-c CRITERIA] [-b USBPERF] [-u URL] [-e "RUN OPTIONS"]
#
# Writes output/run.json (the run), output/signals.txt (usbperf's signals),
# output/result.txt ("ID RESULT [MEASUREMENT UNITS]" a line) and, with -c,
# output/junit.xml. POSIX sh: boards may have only busybox.
set -u

TARGET="" SIZE="256M" TIME="3" SWEEP="quick" REPEAT="1" CRITERIA="" USBPERF="usbperf" URL="" EXTRA=""
while getopts "t:s:T:w:r:c:b:u:e:h" o; do
	case "$o" in
	t) TARGET=$OPTARG ;;
	s) SIZE=$OPTARG ;;
	T) TIME=$OPTARG ;;
	w) SWEEP=$OPTARG ;;
	r) REPEAT=$OPTARG ;;
	c) CRITERIA=$OPTARG ;;
	b) USBPERF=$OPTARG ;;
	u) URL=$OPTARG ;;
	e) EXTRA=$OPTARG ;;
	*) sed -n '2,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
case "$SWEEP" in quick | full) ;; *) echo "usbperf.sh: SWEEP is quick or full, not '$SWEEP'" >&2; exit 2 ;; esac

OUT=$(pwd)/output
mkdir -p "$OUT"
: >"$OUT/result.txt"

# case ID RESULT [MEASUREMENT UNITS]: to LAVA if it is there, always to result.txt
case_() {
	echo "$*" >>"$OUT/result.txt"
	command -v lava-test-case >/dev/null 2>&1 || return 0
	if [ $# -ge 4 ]; then
		lava-test-case "$1" --result "$2" --measurement "$3" --units "$4"
	elif [ $# -ge 3 ]; then
		lava-test-case "$1" --result "$2" --measurement "$3"
	else
		lava-test-case "$1" --result "$2"
	fi
}
set_() { command -v lava-test-set >/dev/null 2>&1 && lava-test-set "$@"; return 0; }

# the binary: as given, else fetched from URL
if ! command -v "$USBPERF" >/dev/null 2>&1; then
	if [ -n "$URL" ]; then
		USBPERF=$OUT/usbperf
		if command -v curl >/dev/null 2>&1; then curl -fsSL -o "$USBPERF" "$URL"
		else wget -q -O "$USBPERF" "$URL"; fi && chmod +x "$USBPERF"
	fi
fi
if ! "$USBPERF" version; then
	echo "usbperf.sh: no usbperf at '$USBPERF' (set USBPERF or USBPERF_URL)" >&2
	case_ usbperf-install fail
	exit 0
fi
case_ usbperf-install pass

# the run; its exit status is a test case of its own (3: nothing measured)
# shellcheck disable=SC2086 # TARGET and EXTRA are lists of words
"$USBPERF" -q run $TARGET --"$SWEEP" --size "$SIZE" --time "$TIME" --repeat "$REPEAT" \
	--no-save $EXTRA -F json -o "$OUT/run.json"
rc=$?
if [ $rc = 0 ]; then case_ usbperf-run pass; else case_ usbperf-run fail; fi
[ -s "$OUT/run.json" ] || exit 0
# the figures for whoever reads the job log
"$USBPERF" report "$OUT/run.json" || true

# every measurement (report), or every check and the measurements nothing was
# asked of (check): usbperf prints them as LAVA signals
if [ -n "$CRITERIA" ]; then
	"$USBPERF" check "$OUT/run.json" --criteria "$CRITERIA" --junit "$OUT/junit.xml" --lava >"$OUT/signals.txt"
	rc=$? gate=usbperf-check
else
	"$USBPERF" report "$OUT/run.json" --lava >"$OUT/signals.txt"
	rc=$? gate=usbperf-report
fi

# <LAVA_SIGNAL_TESTSET START ID>, <LAVA_SIGNAL_TESTSET STOP> and
# <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=ID RESULT=R [MEASUREMENT=M [UNITS=U]]>:
# ids and units are already sanitized by usbperf (no spaces, no quotes)
while IFS= read -r line; do
	case "$line" in
	"<LAVA_SIGNAL_TESTSET START "*)
		name=${line#<LAVA_SIGNAL_TESTSET START }
		set_ start "${name%>}" ;;
	"<LAVA_SIGNAL_TESTSET STOP>")
		set_ stop ;;
	"<LAVA_SIGNAL_TESTCASE "*)
		id="" result="" measurement="" units=""
		set -f
		for kv in $(echo "${line#<LAVA_SIGNAL_TESTCASE }" | sed 's/>$//'); do
			case "$kv" in
			TEST_CASE_ID=*) id=${kv#*=} ;;
			RESULT=*) result=${kv#*=} ;;
			MEASUREMENT=*) measurement=${kv#*=} ;;
			UNITS=*) units=${kv#*=} ;;
			esac
		done
		set +f
		# shellcheck disable=SC2086 # absent measurement/units drop out
		case_ "$id" "$result" $measurement $units ;;
	esac
done <"$OUT/signals.txt"

# 0 every check passed, 1 one failed (its case says which), else usbperf's error
if [ $rc = 0 ]; then case_ "$gate" pass; else case_ "$gate" fail; fi
exit 0
