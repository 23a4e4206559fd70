#!/bin/bash
# The LAVA test definition (contrib/lava/usbperf.yaml) and its example job
# (issue 13.5): the YAML has the Linaro test-definitions layout; its run steps,
# run as LAVA runs them (from the repository's top, params as shell variables),
# with stand-ins for lava-test-case and lava-test-set that record what they are
# told, against a real 'usbperf run' of a small directory, report one test case
# per measurement of the run (value and unit) and one per check of a criteria file.
. "$(dirname "$0")/lib.sh"
need_cmd jq python3
python3 -c 'import yaml' 2>/dev/null || skip "needs python3-yaml (scripts/install-deps --test)"

SRC=$(cd "$(dirname "$0")/../.." && pwd)/contrib/lava
DEF=$SRC/usbperf.yaml
JOB=$SRC/job-example.yaml

# 13.5: the definition's layout
yq() { python3 -c 'import sys, yaml, json; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)' "$1"; }
yq "$DEF" >"$WORK/def.json" || bad "usbperf.yaml does not parse"
jq_check "$WORK/def.json" '.metadata.format == "Lava-Test Test Definition 1.0"' "metadata.format"
jq_check "$WORK/def.json" '.metadata.name == "usbperf"' "metadata.name"
jq_check "$WORK/def.json" '(.metadata.description | type) == "string" and (.metadata.description | length) > 20' \
	"metadata.description"
jq_check "$WORK/def.json" '[.metadata.os, .metadata.devices, .metadata.scope] | all(type == "array" and length > 0)' \
	"metadata.os, devices, scope are lists"
jq_check "$WORK/def.json" '(.params | type) == "object" and (.params | to_entries | all(.value | type == "string"))' \
	"params: names with string defaults"
jq_check "$WORK/def.json" '(.run.steps | type) == "array" and (.run.steps | all(type == "string"))' \
	"run.steps: a list of shell lines"
jq_check "$WORK/def.json" '[.run.steps[] | scan("\\$\\{([A-Z_]+)\\}") | .[0]] - (.params | keys) == []' \
	"every \${PARAM} in the steps is a param"

# 13.5: the example job: a LAVA job with a test action that names this definition
yq "$JOB" >"$WORK/job.json" || bad "job-example.yaml does not parse"
jq_check "$WORK/job.json" '(.device_type | type) == "string" and (.job_name | type) == "string"
	and (.timeouts.job | type) == "object"' "job: device_type, job_name, timeouts"
jq_check "$WORK/job.json" '[.actions[] | keys[0]] == ["deploy", "boot", "test"]' "job: deploy, boot, test"
jq_check "$WORK/job.json" '[.actions[] | .test? // empty | .definitions[]] | length == 1 and
	(.[0].path == "contrib/lava/usbperf.yaml") and .[0].from == "git"' "job: runs contrib/lava/usbperf.yaml from git"
jq -r '.actions[] | .test? // empty | .definitions[0].parameters | keys[]' "$WORK/job.json" >"$WORK/jobparams"
jq -r '.params | keys[]' "$WORK/def.json" >"$WORK/defparams"
check "job: its parameters are the definition's params" test -z "$(grep -vxFf "$WORK/defparams" "$WORK/jobparams")"
crit=$(jq -r '.actions[] | .test? // empty | .definitions[0].parameters.CRITERIA' "$WORK/job.json")
check "job: its criteria file ($crit) is in contrib/lava" test -f "$SRC/$crit"

# run_steps NAME=VALUE...: the steps as LAVA runs them, in a copy of the
# repository (they write output/ next to the definition), params as shell
# variables (their defaults, then the overrides), lava helpers on PATH
mkdir -p "$WORK/bin" "$WORK/target"
cat >"$WORK/bin/lava-test-case" <<'STANDIN'
#!/bin/bash
# records "case ID RESULT [MEASUREMENT [UNITS]]"; refuses what LAVA refuses
id=$1 result="" m="" u=""
shift
while [ $# -gt 0 ]; do
	case "$1" in
	--result) result=$2; shift 2 ;;
	--measurement) m=$2; shift 2 ;;
	--units) u=$2; shift 2 ;;
	*) echo "lava-test-case: unexpected '$1'" >>"$LAVA_LOG.err"; exit 1 ;;
	esac
done
[[ $id =~ ^[-_.A-Za-z0-9]+$ ]] || echo "lava-test-case: bad id '$id'" >>"$LAVA_LOG.err"
[[ $result =~ ^(pass|fail|skip|unknown)$ ]] || echo "lava-test-case: bad result '$result' for $id" >>"$LAVA_LOG.err"
[ -z "$u" ] || [ -n "$m" ] || echo "lava-test-case: units without a measurement for $id" >>"$LAVA_LOG.err"
echo "case $id $result${m:+ $m}${u:+ $u}" >>"$LAVA_LOG"
STANDIN
cat >"$WORK/bin/lava-test-set" <<'STANDIN'
#!/bin/bash
echo "set $*" >>"$LAVA_LOG"
STANDIN
chmod +x "$WORK/bin/lava-test-case" "$WORK/bin/lava-test-set"
run_steps() {
	local repo=$WORK/repo
	rm -rf "$repo" && mkdir -p "$repo/contrib" && cp -r "$SRC" "$repo/contrib/lava"
	: >"$WORK/lava.log"
	rm -f "$WORK/lava.log.err"
	{
		jq -r '.params | to_entries[] | "\(.key)=\(.value | @sh)"' "$WORK/def.json"
		for kv in "$@"; do printf '%s=%q\n' "${kv%%=*}" "${kv#*=}"; done
		jq -r '.run.steps[]' "$WORK/def.json"
	} >"$WORK/steps.sh"
	(cd "$repo" && env -i PATH="$WORK/bin:$(dirname "$USBPERF"):/usr/sbin:/usr/bin:/sbin:/bin" \
		HOME="$WORK" LAVA_LOG="$WORK/lava.log" bash -e "$WORK/steps.sh") >"$WORK/steps.out" 2>&1
	echo $?
}
OUTDIR=$WORK/repo/contrib/lava/output
# expected: one case per measurement of run.json, id as usbperf's --lava spells it
# (device.test.pass.metric, anything but [-_.A-Za-z0-9] -> one '_'); what only
# explains the figures (a CPU number, interrupt counts and shares, a histogram
# bin: the classes' distributions) is no measurement (issue 29.2.2)
NOT_MEASUREMENTS='^(cpu_clock_pct|irq_share_pct|irq_share_cpu|irq_others_busy_pct|irq_count|irq_cpu|irq_cpu_pct|io_cpu|irq_count_cpu[0-9]+|urb_size_bin_[0-9]+)$'
expected_measurements() {
	jq -r --arg not "$NOT_MEASUREMENTS" '.metrics[] | select(.metric | test($not) | not) | "\([.device, .test, .name, .metric] | join(".") | gsub("[^-_.A-Za-z0-9]+"; "_")) \(.value) \(.unit | gsub("[^-_.A-Za-z0-9/%]+"; "_"))"' "$1" |
		awk '{ print "case", $1, "unknown", $2, $3 }' | sort
}
# the recorded cases, measurements as numbers (usbperf prints %.15g, jq its own)
normalized() { awk '$1 == "case" && NF == 5 { printf "case %s %s %.9g %s\n", $2, $3, $4, $5; next } { print }' | sort; }

# 13.5: no criteria: every measurement a passing test case with its value and unit
rc=$(run_steps TARGET="$WORK/target" SIZE=8M TIME=0.2 EXTRA="--min-time 0" USBPERF="$USBPERF")
check "steps run (exit $rc)" test "$rc" = 0
check "stand-ins were told nothing LAVA refuses" test ! -s "$WORK/lava.log.err"
[ -s "$WORK/lava.log.err" ] && sed 's/^/    /' "$WORK/lava.log.err" | head -5
check "the run was written" test -s "$OUTDIR/run.json"
n=$(jq '.metrics | length' "$OUTDIR/run.json" 2>/dev/null)
check "the run has measurements ($n)" test "${n:-0}" -gt 10
want=$(expected_measurements "$OUTDIR/run.json" | normalized)
got=$(grep '^case ' "$WORK/lava.log" | grep -v ' usbperf-' | normalized)
if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "one case per measurement, value and unit as in run.json ($n)"
else bad "cases differ from run.json's metrics"; diff <(echo "$want") <(echo "$got") | head -8 | sed 's/^/    /'; fi
check "install, run and report cases pass" test "$(grep ' usbperf-' "$WORK/lava.log" | sort | tr '\n' ' ')" = \
	"case usbperf-install pass case usbperf-report pass case usbperf-run pass "
runid=$(jq -r '.run.id' "$OUTDIR/run.json" | sed 's/[^-_.A-Za-z0-9]\{1,\}/_/g')
check "the cases are in a test set named for the run ($runid)" \
	test "$(grep '^set' "$WORK/lava.log" | tr '\n' ' ')" = "set start $runid set stop "
check "result.txt has what LAVA was told" \
	test "$(sed 's/^/case /' "$OUTDIR/result.txt" | sort)" = "$(grep '^case ' "$WORK/lava.log" | sort)"
check "the text report is in the job log" grep -q 'seq-read' "$WORK/steps.out"

# 13.5: with criteria: each check a case (pass, fail, missing -> fail, optional
# -> skip), the other measurements still there, the gate a case of its own
cat >"$WORK/criteria.json" <<'CRIT'
{"usbperf_criteria": 1, "criteria": [
  {"test": "disk", "name": "seq-read 1M", "metric": "mb_s", "min": 0.001, "unit": "MB/s", "id": "floor"},
  {"test": "disk", "name": "seq-write 1M", "metric": "mb_s", "max": 0.000001, "id": "impossible"},
  {"name": "no such pass", "metric": "mb_s", "min": 1, "id": "absent"},
  {"name": "no such pass", "metric": "mb_s", "min": 1, "optional": true, "id": "maybe"}]}
CRIT
rc=$(run_steps TARGET="$WORK/target" SIZE=8M TIME=0.2 EXTRA="--min-time 0" USBPERF="$USBPERF" CRITERIA="$WORK/criteria.json")
check "steps run with criteria (exit $rc)" test "$rc" = 0
check "stand-ins were told nothing LAVA refuses" test ! -s "$WORK/lava.log.err"
val() { jq -r --arg n "$1" '.metrics[] | select(.name == $n and .metric == "mb_s") | .value' "$OUTDIR/run.json"; }
has() { grep -q "^$1\$" <(normalized <"$WORK/lava.log"); }
check "floor: pass, with its value" has "case floor pass $(printf '%.9g' "$(val 'seq-read 1M')") MB/s"
check "impossible: fail, with its value" has "case impossible fail $(printf '%.9g' "$(val 'seq-write 1M')") MB/s"
check "absent: fail (missing)" has "case absent fail"
check "maybe: skip (optional)" has "case maybe skip"
check "the gate: usbperf-check fail" has "case usbperf-check fail"
# 29.2.2: only the checks pass or fail; the metrics nothing was asked of are measurements
# ('unknown': measured, not judged), CPU numbers and histogram bins none
want=$(expected_measurements "$OUTDIR/run.json" | wc -l)
got=$(grep -c '^case [^ ]* unknown [0-9.e+-]* [^ ]*$' "$WORK/lava.log")
check "the other metrics ($got of $want, less the 2 checked) are measurements, none a pass or fail" \
	test "$got" = "$((want - 2))"
check "no pass or fail but the checks and the definition's own" \
	test -z "$(grep -E '^case [^ ]* (pass|fail)' "$WORK/lava.log" | grep -Ev '^case (floor|impossible|absent|usbperf-[a-z]+) ')"
check "no CPU number as a measurement" sh -c "! grep -Eq '^case [^ ]*\.(irq_share_cpu|io_cpu|irq_cpu) ' '$WORK/lava.log'"
check "JUnit written too" grep -q '<testsuite' "$OUTDIR/junit.xml"
# the example job's criteria file is one usbperf accepts
expect_status 1 "criteria-example.json is valid (checks fail on a directory, no USB stick)" \
	"$USBPERF" check "$OUTDIR/run.json" --criteria "$SRC/criteria-example.json"

# 13.5: usbperf missing: one failing case, no run
rc=$(run_steps USBPERF="$WORK/no-usbperf")
check "no usbperf: steps still end (exit $rc)" test "$rc" = 0
check "no usbperf: usbperf-install fail, nothing else" test "$(cat "$WORK/lava.log")" = "case usbperf-install fail"

finish
