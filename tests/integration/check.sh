#!/bin/bash
# usbperf check on hand-written runs (tests/fixtures/runs-*.json), from a
# history and as file operands: exit 0 when every check passes, 1 on a
# failed or missing one, 2 for bad input; baselines; JUnit that is
# well-formed XML with counts that match its test cases; LAVA signal
# lines; bad criteria files refused with one line, leaving no JUnit file.
. "$(dirname "$0")/lib.sh"
need_cmd jq xmllint

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
DB="$WORK/h.db"
A=20261130T051200Z-3f2a   # kernel 6.1, the stick at 2-1: the reference
B1=20261201T051500Z-77c1  # same setup
B2=20261205T060200Z-9e04  # kernel 6.6, the stick moved to 2-2 and is slower
u() { "$USBPERF" "$@" --db "$DB"; }
crit() { cat >"$WORK/$1"; }

"$USBPERF" import "$FIXTURES/runs-a.json" --db "$DB" >/dev/null &&
	"$USBPERF" import "$FIXTURES/runs-b.json" --db "$DB" >/dev/null ||
	{ bad "import the fixtures"; finish; }

# the issue's example: the 1M sequential read of the device at port 2-1 at least 30 MB/s
crit ok.json <<'J'
{"usbperf_criteria": 1,
 "criteria": [
  {"device": "2-1", "test": "disk", "name": "seq-read 1M", "metric": "mb_s", "min": 30},
  {"device": "0781:5583", "name": "rand-read 4K*", "metric": "lat_p99_us", "max": 2000, "unit": "us"},
  {"device": "usb-storage", "name": "seq-read 1M", "metric": "mb_s", "min_ceiling_pct": 30,
   "of": "min", "id": "seq-read-ceiling"},
  {"device": "9-9", "metric": "iops", "min": 1, "optional": true}
 ]}
J

# ---- pass: from the history and from a file ----
expect_status 0 "check A: every criterion met" u check "$A" --criteria "$WORK/ok.json" -F json
jq_check "$WORK/out" '.check.result == "pass" and .check.checked == 3 and .check.passed == 3 and .check.failed == 0 and .check.missing == 0 and .check.skipped == 1 and .check.measured == 4' \
	"summary: 3 checked, 3 passed, 1 skipped, 4 measured"
jq_check "$WORK/out" '[.checks[] | select(.metric == "mb_s" and .device == "2-1")][0].criterion == ">= 30 MB/s"' \
	"criterion as text"
jq_check "$WORK/out" '[.checks[] | select(.case_id == "seq-read-ceiling")][0] | .of == "min" and .value == 181.2 and .note == "37.4 % of the ceiling"' \
	"min of the repeats against the ceiling"
expect_status 0 "check the file, no history needed" "$USBPERF" check "$FIXTURES/runs-a.json" \
	--criteria "$WORK/ok.json" --db "$WORK/none.db"
check "text table has the pass row" grep -Eq '^20261130T051200Z-3f2a +2-1 +seq-read 1M +mb_s +182.40 ±1.10 +MB/s +>= 30 MB/s +pass' "$WORK/out"
check "text: only the checks, the measured metrics counted" sh -c "[ \$(grep -c '^20261130T051200Z-3f2a' '$WORK/out') = 4 ] && ! grep -Eq ' measured +-$' '$WORK/out' && grep -Eq '^  measured +4$' '$WORK/out'"
expect_status 0 "check --all" "$USBPERF" check "$FIXTURES/runs-a.json" --criteria "$WORK/ok.json" --all
check "text --all: the measured metrics too" test "$(grep -Ec ' measured +-$' "$WORK/out")" = 4
expect_status 0 "check csv" u check "$A" --criteria "$WORK/ok.json" -F csv
check "csv header from the field table" \
	grep -qx 'run,device,test,name,metric,value,stdev,unit,of,criterion,result,note,case_id' "$WORK/out"

# ---- fail: a threshold, a missing device ----
expect_status 1 "B2: the stick moved to 2-2: '2-1' is missing" u check "$B2" --criteria "$WORK/ok.json" -F json
jq_check "$WORK/out" '.check.result == "fail" and .check.missing == 1' "one missing"
jq_check "$WORK/out" '[.checks[] | select(.result == "missing")][0] | .device == "2-1" and .note == "no metric matches"' \
	"the missing row names the criterion"
crit high.json <<'J'
{"usbperf_criteria": 1, "criteria": [{"device": "2-1", "name": "seq-read 1M", "metric": "mb_s", "min": 200}]}
J
expect_status 1 "min 200 MB/s fails" u check "$A" --criteria "$WORK/high.json"
check "says why, with units (29.2.12)" grep -q '182.4 MB/s below the minimum 200 MB/s' "$WORK/out"
crit mib.json <<'J'
{"usbperf_criteria": 1, "criteria": [{"device": "2-1", "name": "seq-read 1M", "metric": "mb_s", "min": 30, "unit": "MiB/s"}]}
J
expect_status 1 "a unit mix-up fails" u check "$A" --criteria "$WORK/mib.json"
check "names both units" grep -q "unit is 'MB/s', the criterion wants 'MiB/s'" "$WORK/out"
expect_status 1 "several runs: each checked, one fails" u check "$A" "$B1" "$B2" --criteria "$WORK/ok.json" -F json
jq_check "$WORK/out" '([.checks[].run] | unique | length) == 3 and .check.runs == 3' "rows of all three runs"

# ---- baseline ----
u baseline nightly "$A" >/dev/null
expect_status 0 "B1 against the baseline" u check "$B1" --baseline nightly -F json
jq_check "$WORK/out" '.check.result == "pass" and .check.checked == 6 and .check.baseline_run == "'"$A"'"' "6 metrics, none worse"
expect_status 1 "B2 against the baseline: regression" u check "$B2" --baseline nightly -F json
jq_check "$WORK/out" '.check.failed == 4' "4 metrics worse"
jq_check "$WORK/out" '[.checks[] | select(.metric == "lat_p99_us")][0].criterion | startswith("baseline nightly: +")' \
	"criterion names the baseline and the change"
expect_status 0 "a threshold of 200% forgives it" u check "$B2" --baseline nightly --threshold 200
expect_status 1 "both sources" u check "$B1" --baseline nightly --criteria "$WORK/high.json" -F json
jq_check "$WORK/out" '.check.failed == 1 and .check.passed == 6' "criterion fails, baseline passes"
expect_status 2 "unknown baseline" u check "$B1" --baseline nope
one_line_error "unknown baseline"

# 14.2: a baseline and a run of one pass each, not sampled; the run's writes 20% slower
one_pass() { # ID WRITE_FACTOR [SAMPLE_STDEV_PCT]
	jq --arg id "$1" --argjson w "$2" --argjson sd "${3:-null}" '.runs[0] | .id = $id |
		.metrics |= map(.repeats = 1 | .stdev = null |
			.value *= (if .name == "seq-write 1M" then $w else 1 end) |
			if $sd != null and .metric == "mb_s" then .sample_mean = .value |
				.sample_stdev = .value * $sd / 100 | .samples = 20 else . end)' "$FIXTURES/runs-a.json"
}
one_pass one-base 1 >"$WORK/one-base.json"
one_pass one-run 0.8 >"$WORK/one-run.json"
"$USBPERF" import "$WORK/one-base.json" --db "$DB" >/dev/null && u baseline one "one-base" >/dev/null ||
	bad "a one-pass baseline"
expect_status 0 "one pass, spread unknown: not failed" u check "$WORK/one-run.json" --baseline one -F json
jq_check "$WORK/out" '.check.result == "pass" and .check.failed == 0 and .check.skipped == 1 and .check.passed == 5' \
	"the -20% is skipped, the five unchanged pass"
jq_check "$WORK/out" '[.checks[] | select(.name == "seq-write 1M")][0] | .result == "skipped" and (.note | startswith("spread unknown: baseline 61.30, beyond 5% but not judged (A the baseline, B this run: A: one pass, too short or not sampled for a spread within it; B: one pass")) and (.note | endswith("rerun both with --repeat 3, or longer passes (--min-time)"))' \
	"its note says why"
expect_status 0 "as text" u check "$WORK/one-run.json" --baseline one
check "text: says spread unknown" grep -q 'skipped.*spread unknown: baseline 61.30' "$WORK/out"
crit write.json <<'J'
{"usbperf_criteria": 1, "criteria": [{"device": "2-1", "name": "seq-write 1M", "metric": "mb_s", "min": 55}]}
J
expect_status 1 "a fixed limit is judged as before" u check "$WORK/one-run.json" --baseline one --criteria "$WORK/write.json" -F json
jq_check "$WORK/out" '.check.failed == 1 and .check.skipped == 1' "the criterion fails, the baseline row is skipped"
expect_status 0 "junit: skipped, not failed" u check "$WORK/one-run.json" --baseline one --junit "$WORK/one.xml"
check "junit: one skipped, no failure" test "$(xmllint --xpath 'concat(string(/testsuites/@failures), "/", string(/testsuites/@skipped))' "$WORK/one.xml")" = 0/1
one_pass one-sbase 1 1.5 >"$WORK/one-sbase.json"
one_pass one-srun 0.8 1.5 >"$WORK/one-srun.json"
"$USBPERF" import "$WORK/one-sbase.json" --db "$DB" >/dev/null && u baseline sampled "one-sbase" >/dev/null ||
	bad "a sampled one-pass baseline"
expect_status 1 "sampled (1.5% spread): the -20% fails" u check "$WORK/one-srun.json" --baseline sampled -F json
jq_check "$WORK/out" '[.checks[] | select(.name == "seq-write 1M")][0].result == "fail"' "seq-write 1M: fail"

# ---- JUnit ----
expect_status 1 "junit" u check "$A" "$B2" --criteria "$WORK/ok.json" --junit "$WORK/j.xml"
check "junit is well-formed XML" xmllint --noout "$WORK/j.xml"
junit_counts() {
	local f=$1 tests failures cases fails
	tests=$(xmllint --xpath 'string(/testsuites/@tests)' "$f")
	failures=$(xmllint --xpath 'string(/testsuites/@failures)' "$f")
	cases=$(xmllint --xpath 'count(//testcase)' "$f")
	fails=$(xmllint --xpath 'count(//testcase[failure])' "$f")
	[ "$tests" = "$cases" ] && [ "$failures" = "$fails" ] || return 1
	# and per suite
	for i in $(seq 1 "$(xmllint --xpath 'count(//testsuite)' "$f")"); do
		[ "$(xmllint --xpath "string(//testsuite[$i]/@tests)" "$f")" = \
			"$(xmllint --xpath "count(//testsuite[$i]/testcase)" "$f")" ] || return 1
		[ "$(xmllint --xpath "string(//testsuite[$i]/@failures)" "$f")" = \
			"$(xmllint --xpath "count(//testsuite[$i]/testcase[failure])" "$f")" ] || return 1
		[ "$(xmllint --xpath "string(//testsuite[$i]/@skipped)" "$f")" = \
			"$(xmllint --xpath "count(//testsuite[$i]/testcase[skipped])" "$f")" ] || return 1
	done
}
check "junit counts match its test cases" junit_counts "$WORK/j.xml"
check "two suites named by run id" test "$(xmllint --xpath 'string(//testsuite[2]/@name)' "$WORK/j.xml")" = "$B2"
check "kernel as a property" test "$(xmllint --xpath 'string(//testsuite[2]/properties/property[@name="kernel"]/@value)' "$WORK/j.xml")" = 6.6.30-rk3588
check "a missing criterion is a failure" test "$(xmllint --xpath 'count(//testcase/failure[@type="missing"])' "$WORK/j.xml")" = 1
# 29.2.2: the checks are the test cases (3 met, 1 optional skipped); the 4 metrics
# nothing was asked of are counted in a property, not passing test cases
check "junit: only the checks are test cases" test "$(xmllint --xpath 'count(//testsuite[1]/testcase)' "$WORK/j.xml")" = 4
check "junit: the metrics nothing was asked of are counted" \
	test "$(xmllint --xpath 'string(//testsuite[1]/properties/property[@name="measured_not_checked"]/@value)' "$WORK/j.xml")" = 4
check "junit: no test case without a criterion" test "$(xmllint --xpath 'count(//testcase[not(contains(@name, "["))])' "$WORK/j.xml")" = 0
# untrusted strings: a product and a device key that would break the XML
jq '.runs[0].devices[0].key = "2-1\"<&>" | .runs[0].devices[0].product = "</testcase><x a=\"" |
    .runs[0].metrics |= map(if .device_key == "2-1" then .device_key = "2-1\"<&>" else . end) |
    .runs[0].env.hostname = "h&<>\u0027"' "$FIXTURES/runs-a.json" >"$WORK/evil.json"
expect_status 0 "hostile strings" "$USBPERF" check "$WORK/evil.json" --criteria "$WORK/ok.json" --junit "$WORK/evil.xml" --db "$WORK/none.db"
check "still well-formed" xmllint --noout "$WORK/evil.xml"
check "device key escaped in classname" test "$(xmllint --xpath 'string(//testcase[1]/@classname)' "$WORK/evil.xml")" = 'usbperf.2-1"<&>.disk'

# ---- LAVA ----
expect_status 1 "lava" u check "$A" "$B2" --criteria "$WORK/ok.json" --lava
# 29.2.2: the table for the job's log, then the signals
check "lava: the table is printed as well" grep -Eq '^  result +fail$' "$WORK/out"
check "lava: the signals after the table" \
	test "$(grep -n '^<LAVA_SIGNAL_' "$WORK/out" | head -1 | cut -d: -f1)" -gt "$(grep -n '^  result' "$WORK/out" | cut -d: -f1)"
cp "$WORK/out" "$WORK/lava-table.txt"
expect_status 1 "lava -q" u check "$A" "$B2" --criteria "$WORK/ok.json" --lava -q
check "lava -q: only signal lines on stdout" test "$(grep -cv '^<LAVA_SIGNAL_' "$WORK/out")" = 0
check "lava: the same signals with and without the table" \
	test "$(grep '^<LAVA_SIGNAL_' "$WORK/lava-table.txt")" = "$(cat "$WORK/out")"
# the checks pass, fail or skip; what nothing was asked of is a measurement, not a pass
check "lava: a pass/fail/skip case per check" \
	test "$(grep -Ec '^<LAVA_SIGNAL_TESTCASE .* RESULT=(pass|fail|skip)' "$WORK/out")" = "$(u check "$A" "$B2" --criteria "$WORK/ok.json" -F json | jq '[.checks[] | select(.result != "measured")] | length')"
check "lava: the metrics nothing was asked of are 'unknown', with their value and unit" \
	test "$(grep -Ec '^<LAVA_SIGNAL_TESTCASE .* RESULT=unknown MEASUREMENT=[-0-9.]+ UNITS=' "$WORK/out")" = "$(u check "$A" "$B2" --criteria "$WORK/ok.json" -F json | jq '[.checks[] | select(.result == "measured")] | length')"
check "lava: no CPU number or other unit that is no measurement's" sh -c "! grep -Eq 'UNITS=CPU|irq_share_cpu|io_cpu' '$WORK/out'"
check "lava: a test set per run" test "$(grep -c '^<LAVA_SIGNAL_TESTSET START ' "$WORK/out")" = 2
check "lava: the pass with its measurement" \
	grep -qx '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=2-1.disk.seq-read_1M.mb_s RESULT=pass MEASUREMENT=182.4 UNITS=MB/s>' "$WORK/out"
check "lava: the missing one fails, without a measurement" \
	grep -qx '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=2-1.disk.seq-read_1M.mb_s RESULT=fail>' "$WORK/out"
check "lava: optional is skip" grep -qx '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=9-9.iops RESULT=skip>' "$WORK/out"
lava_syntax() {
	# what the dispatcher parses: <LAVA_SIGNAL_(\S+) ([^>]+)>, KEY=VALUE words
	grep '^<LAVA_SIGNAL_TESTCASE' "$1" | grep -Evx '<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=[A-Za-z0-9._-]+ RESULT=(pass|fail|skip|unknown)( MEASUREMENT=-?[0-9.]+( UNITS=[A-Za-z0-9._/%-]+)?)?>' | grep -q . && return 1
	return 0
}
check "lava: every line in the dispatcher's syntax" lava_syntax "$WORK/out"
check "lava: ids unique within each set" \
	test -z "$(awk '/TESTSET START/ { set++ } /TESTCASE/ { print set, $2 }' "$WORK/out" | sort | uniq -d)"
expect_status 1 "lava with -o keeps the report" u check "$A" --criteria "$WORK/high.json" --lava -o "$WORK/rep.json" -F json
jq_check "$WORK/rep.json" '.check.failed == 1' "report in the file"
expect_status 0 "lava on the hostile run" "$USBPERF" check "$WORK/evil.json" --criteria "$WORK/ok.json" --lava --db "$WORK/none.db"
check "lava: hostile key sanitized" lava_syntax "$WORK/out"

# ---- bad input: one line, exit 2, no junit file ----
refuse() {
	local what=$1 doc=$2 want=$3
	printf '%s' "$doc" >"$WORK/bad.json"
	rm -f "$WORK/bad.xml"
	expect_status 2 "$what" u check "$A" --criteria "$WORK/bad.json" --junit "$WORK/bad.xml"
	one_line_error "$what"
	check "$what: says '$want'" grep -qF "usbperf: invalid criteria '$WORK/bad.json': $want" "$WORK/err"
	check "$what: no junit file" test ! -e "$WORK/bad.xml"
	check "$what: nothing on stdout" test ! -s "$WORK/out"
}
H='{"usbperf_criteria": 1, "criteria": '
refuse "typo in a key" "$H"'[{"metric": "mb_s", "min": 1}, {"metric": "mb_s", "min": 1}, {"metric": "mb_s", "mni": 3}]}' \
	"criteria[2]: unknown key 'mni'"
refuse "min as a string" "$H"'[{"metric": "mb_s", "min": "30"}]}' "criteria[0]: 'min' is not a number"
refuse "no bound" "$H"'[{"metric": "mb_s", "min": 1}, {"metric": "mb_s"}]}' \
	"criteria[1]: needs one of 'min', 'max', 'min_ceiling_pct'"
refuse "min above max" "$H"'[{"metric": "mb_s", "min": 50, "max": 20}]}' "criteria[0]: 'min' 50 is greater than 'max' 20"
refuse "bad of" "$H"'[{"metric": "mb_s", "min": 1, "of": "median"}]}' "criteria[0]: 'of' is not"
refuse "empty criteria" "$H"'[]}' "'criteria' is empty"
refuse "format 2" '{"usbperf_criteria": 2, "criteria": []}' "criteria format 2, this usbperf reads 1"
refuse "not JSON" '{"usbperf_criteria": 1,' "not JSON"
head -c 1100000 /dev/zero | tr '\0' ' ' >"$WORK/big.json"
expect_status 2 "criteria file too large" u check "$A" --criteria "$WORK/big.json" --junit "$WORK/bad.xml"
one_line_error "too large"
check "too large: no junit file" test ! -e "$WORK/bad.xml"
expect_status 2 "criteria file missing" u check "$A" --criteria "$WORK/nope.json" --junit "$WORK/bad.xml"
one_line_error "criteria file missing"
expect_status 2 "no criteria nor baseline" u check "$A"
one_line_error "no source"
expect_status 2 "no run" u check --criteria "$WORK/ok.json"
one_line_error "no run"
expect_status 2 "unknown run" u check 1999 --criteria "$WORK/ok.json" --junit "$WORK/bad.xml"
one_line_error "unknown run"
check "unknown run: no junit file" test ! -e "$WORK/bad.xml"
expect_status 2 "bad run file" u check "$WORK/bad.json" --criteria "$WORK/ok.json"
one_line_error "bad run file"
expect_status 2 "bad threshold" u check "$A" --baseline nightly --threshold lots
one_line_error "bad threshold"
expect_status 2 "junit in a missing directory" u check "$A" --criteria "$WORK/ok.json" --junit "$WORK/no/dir/j.xml"
one_line_error "junit dir"
check "no temporary files left" test -z "$(ls "$WORK" | grep '\.tmp-')"

finish
