#!/bin/bash
# The JSON of every command (issue 29.2.6, 29.2.5): 'CMD --schema' is what
# docs/schema/ holds; each JSON Schema is one; the output of every command this
# machine can run validates against its schema (python3-jsonschema); one key
# vocabulary (device, name, vid_pid) in all of them; integers above 2^53 are
# strings; history's devices a list; every CPU share says of what; runs and
# exports written before the renames are still read, and a stored '%' unit of
# CPU use is read as '% of one CPU' (the history's data left as it is).
. "$(dirname "$0")/lib.sh"
need_cmd jq sqlite3
PY=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || skip "needs python3-jsonschema (scripts/install-deps --test)"

SRC=$(cd "$(dirname "$0")/../.." && pwd)
FIXTURES=$SRC/tests/fixtures
DB=$WORK/h.db
cat >"$WORK/validate.py" <<'PY'
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
if len(sys.argv) == 2:
    jsonschema.Draft202012Validator.check_schema(schema)
    sys.exit(0)
errors = list(jsonschema.Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
for e in errors[:3]:
    print("    /".join(str(p) for p in e.absolute_path), ":", e.message[:200])
sys.exit(1 if errors else 0)
PY
valid() { "$PY" "$WORK/validate.py" "$@"; }

# 29.2.6: every command that writes JSON documents it, in docs/schema/ as the binary prints it
cmds=$("$USBPERF" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
n=0
for c in $cmds; do
	case $c in report | help) continue ;; esac
	n=$((n + 1))
	"$USBPERF" "$c" --schema >"$WORK/$c.md" 2>"$WORK/err" || bad "$c --schema: $(cat "$WORK/err")"
	"$USBPERF" "$c" --schema -F json >"$WORK/$c.schema.json" 2>"$WORK/err" || bad "$c --schema -F json: $(cat "$WORK/err")"
	cmp -s "$WORK/$c.md" "$SRC/docs/schema/$c.md" && cmp -s "$WORK/$c.schema.json" "$SRC/docs/schema/$c.schema.json" ||
		bad "$c: docs/schema/$c.* differ from '$c --schema' (scripts/gen-schemas)"
	valid "$WORK/$c.schema.json" || bad "$c: not a valid JSON Schema"
done
check "every command's schema ($n) in docs/schema/, each a valid JSON Schema" test "$n" -ge 20 -a "$FAILS" = 0
expect_status 2 "report writes no JSON: no schema" "$USBPERF" report --schema
one_line_error "report --schema"
expect_status 2 "--schema -F csv refused" "$USBPERF" list --schema -F csv
expect_status 2 "--schema takes no other option" "$USBPERF" disk --schema --size 1M
one_line_error "disk --schema --size"

# 29.2.6: one vocabulary: no property is called device_key, key or pass anywhere
props() { jq -r '[.. | objects | .properties? // empty | keys[]] | unique[]' "$@"; }
props "$WORK"/*.schema.json | sort -u >"$WORK/keys"
check "no 'device_key', 'key' or 'pass' key in any command's JSON" sh -c "! grep -Exq 'device_key|key|pass' '$WORK/keys'"
check "VID:PID is vid_pid wherever it is" sh -c "! jq -r '.. | objects | .properties? // empty | to_entries[] | select(.value.description? // \"\" | test(\"VID:PID\")) | .key' '$WORK'/*.schema.json | grep -vx vid_pid"
# 29.2.5: a CPU share says what it is a share of, in every table (run's, disk's, the record's)
jq -r '.. | objects | .properties? // empty | to_entries[] | select(.key | test("cpu.*_pct$|_cpu_pct$")) | "\(.key) \(.value.description)"' \
	"$WORK"/*.schema.json | sort -u >"$WORK/cpu"
check "CPU shares found in the schemas ($(wc -l <"$WORK/cpu"))" test "$(wc -l <"$WORK/cpu")" -ge 10
check "every CPU share's unit says of what (no bare %)" sh -c "! grep -E '\\(%\\)$' '$WORK/cpu'"
check "cpu_busy_pct is in % of one CPU" grep -q '^cpu_busy_pct .*(% of one CPU)$' "$WORK/cpu"

# 29.2.6: real output of every command that runs here validates against its schema
validate() { # CMD FILE: the command's output against its schema
	if valid "$WORK/$1.schema.json" "$2" >"$WORK/why"; then ok "$1: its JSON validates ($(basename "$2"))"
	else bad "$1: $(basename "$2") does not validate"; sed 's/^/    /' "$WORK/why"; fi
}
mkdir -p "$WORK/dir"
out() { "$@" >"$WORK/o.json" 2>"$WORK/err" || { bad "$*: $(head -2 "$WORK/err")"; return 1; }; }
out "$USBPERF" list -F json --sysroot "$FIXTURES/pc-usb.json" && validate list "$WORK/o.json"
out "$USBPERF" sysinfo -F json && validate sysinfo "$WORK/o.json"
for m in "" "uvc --speed hs" "hid --speed fs" "ncm"; do
	# shellcheck disable=SC2086 # the mode is words
	out "$USBPERF" limits $m -F json && validate limits "$WORK/o.json"
done
out "$USBPERF" limits uvc --device 1-6 --sysroot "$FIXTURES/pc-uvc.json" -F json && validate limits "$WORK/o.json"
out "$USBPERF" version -F json && validate version "$WORK/o.json"
out "$USBPERF" snapshot "$WORK/snap.json" -F json && validate snapshot "$WORK/o.json"
# a seed above 2^53 is a string of its digits (jq and JavaScript would round the number)
out "$USBPERF" disk "$WORK/dir" --size 4M --time 0.1 --min-time 0 --tests seq-read --seed 18446744073709551557 -F json -q &&
	validate disk "$WORK/o.json"
jq_check "$WORK/o.json" '.target.seed == "18446744073709551557"' "disk: a 64-bit seed written as its digits, exactly"
out "$USBPERF" disk "$WORK/dir" --size 4M --time 0.1 --min-time 0 --tests seq-read --seed 42 -F json -q &&
	jq_check "$WORK/o.json" '.target.seed == 42' "disk: a small seed stays a number"
out "$USBPERF" run "$WORK/dir" --size 4M --time 0.2 --min-time 0 --db "$DB" -F json -q && validate run "$WORK/o.json"
cp "$WORK/o.json" "$WORK/run.json"
jq_check "$WORK/run.json" '(.devices[0] | has("device")) and (.metrics[0] | has("device") and has("name")) and (.results[0] | has("device") and has("name"))' \
	"run: a device is 'device', a pass 'name', in every table"
out "$USBPERF" import "$FIXTURES/runs-a.json" --db "$DB" -F json && validate import "$WORK/o.json"
"$USBPERF" import "$FIXTURES/runs-b.json" --db "$DB" -q >/dev/null
out "$USBPERF" history --db "$DB" -F json && validate history "$WORK/o.json"
jq_check "$WORK/o.json" 'all(.runs[]; (.devices | type) == "array" and all(.devices[]; type == "string"))' "history: devices is a list"
jq_check "$WORK/o.json" '[.runs[] | select(.devices | length > 1)] | length >= 1' "history: a run with two devices lists two"
out "$USBPERF" history --db "$DB" --check -F json && validate history "$WORK/o.json"
out "$USBPERF" show --db "$DB" last -F json && validate show "$WORK/o.json"
out "$USBPERF" show --db "$DB" 20261130T051200Z-3f2a -F json && validate show "$WORK/o.json"
out "$USBPERF" export --db "$DB" && validate export "$WORK/o.json"
cp "$WORK/o.json" "$WORK/export.json"
out "$USBPERF" compare --db "$DB" 20261130T051200Z-3f2a 20261201T051500Z-77c1 -F json && validate compare "$WORK/o.json"
printf '{"usbperf_criteria": 1, "criteria": [{"name": "seq-read 1M", "metric": "mb_s", "min": 1}]}\n' >"$WORK/c.json"
out "$USBPERF" check --db "$DB" last --criteria "$WORK/c.json" -F json && validate check "$WORK/o.json"
"$USBPERF" baseline --db "$DB" nightly 20261130T051200Z-3f2a >/dev/null
out "$USBPERF" baseline --db "$DB" -F json && validate baseline "$WORK/o.json"
out "$USBPERF" gadget status -F json && validate gadget "$WORK/o.json"
# net: a client against usbperf's own server on loopback, both in JSON
PORT=$((20000 + $$ % 20000))
"$USBPERF" -F json net server -p "$PORT" -1 >"$WORK/server.json" 2>"$WORK/server.err" &
SERVER=$!
sleep 0.3
out "$USBPERF" net client 127.0.0.1 -p "$PORT" -t 1 -i 0.5 -F json && validate net "$WORK/o.json"
wait "$SERVER" && validate net "$WORK/server.json"

# 29.2.6: runs and exports written before the renames are still read; what is written
# now reads back the same
jq_check "$FIXTURES/runs-a.json" '.runs[0].metrics[0] | has("device_key")' "the fixture is a run file of before (device_key)"
check "an export of now imports into a new history" "$USBPERF" import "$WORK/export.json" --db "$WORK/h2.db" -q
"$USBPERF" export --db "$WORK/h2.db" >"$WORK/export2.json"
check "and exports the same again" cmp -s <(jq -S 'del(.usbperf)' "$WORK/export.json") <(jq -S 'del(.usbperf)' "$WORK/export2.json")

# 29.2.5: the history keeps its stored '%' for a CPU share; it reads as '% of one CPU',
# and an old run compares with a new one (units agree), a criterion's '%' still matches
id=$(jq -r '.run.id' "$WORK/run.json")
check "the run was saved" test -n "$id"
sqlite3 "$DB" "UPDATE metrics SET unit = '%' WHERE metric = 'self_cpu_pct'"
check "stored as before: '%'" test "$(sqlite3 "$DB" "SELECT DISTINCT unit FROM metrics WHERE metric = 'self_cpu_pct'")" = "%"
out "$USBPERF" show --db "$DB" "$id" -F json &&
	jq_check "$WORK/o.json" '[.metrics[] | select(.metric == "self_cpu_pct") | .unit] | length > 0 and all(. == "% of one CPU")' \
		"show: the stored '%' reads as '% of one CPU'"
"$USBPERF" run "$WORK/dir" --size 4M --time 0.2 --min-time 0 --db "$DB" -q >/dev/null 2>&1
# compare's exit is its verdict (1: a metric is worse, as a loaded CI runner can make two
# 0.2 s runs); this checks the units, so 0 and 1 both give a report to read
"$USBPERF" compare --db "$DB" "$id" last -F json >"$WORK/o.json" 2>"$WORK/err"
rc=$?
check "compare: a verdict, not an error (exit $rc)" test "$rc" -le 1
jq_check "$WORK/o.json" '[.metrics[] | select(.metric == "self_cpu_pct")] | length > 0 and all(.verdict != "unknown" and .unit == "% of one CPU")' \
	"compare: an old CPU share and a new one have the same unit"
printf '{"usbperf_criteria": 1, "criteria": [{"name": "seq-read 4K", "metric": "self_cpu_pct", "max": 100000, "unit": "%%"}]}\n' >"$WORK/cpu.json"
expect_status 0 "a criterion's '%' for a CPU share still matches" "$USBPERF" check --db "$DB" last --criteria "$WORK/cpu.json"
check "stored data left as it was" test "$(sqlite3 "$DB" "SELECT COUNT(*) FROM metrics WHERE metric = 'self_cpu_pct' AND unit = '%'")" -gt 0

finish
