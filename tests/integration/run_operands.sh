#!/bin/bash
# Issue 14.4: every command that takes a run takes an id, a unique prefix,
# 'last', 'last~N' (the Nth before the newest) or a JSON file; compare with no
# run compares the two newest, show and report with none take the newest.
# Refusals are one line, exit 2, and leave the history as it was.
. "$(dirname "$0")/lib.sh"
need_cmd jq

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
D="$WORK/db"
DB="$D/h.db"
mkdir -p "$D"
A=20261130T051200Z-3f2a  # oldest
B1=20261201T051500Z-77c1
B2=20261205T060200Z-9e04 # newest
u() { "$USBPERF" "$@" --db "$DB"; }
shown() { jq -r .id "$WORK/out"; }
pair() { jq -r '.comparison.a + " " + .comparison.b' "$WORK/out"; }

# 14.4: a history with one run, then three
expect_status 0 "import runs-a" u import "$FIXTURES/runs-a.json"

# 14.4: compare with no run needs two in the history
refused 2 "compare, no run, one in the history" "$D" -- u compare
says "^usbperf: compare needs two runs; the history holds 1$" "says how many it holds"

expect_status 0 "import runs-b" u import "$FIXTURES/runs-b.json"
expect_status 0 "show A as a file" u show "$A" -F json -o "$WORK/a.json"

# 14.4: show takes every form of run operand
for form in "$B1:$B1" "${B1:0:12}:$B1" "last:$B2" "last~0:$B2" "last~1:$B1" "last~2:$A" \
	"$WORK/a.json:$A"; do
	arg=${form%:*} want=${form##*:}
	expect_status 0 "show $arg" u show "$arg" -F json
	check "show $arg is $want" test "$(shown)" = "$want"
done
# 14.4: show with no run: the newest
expect_status 0 "show, no run" u show -F json
check "show, no run: the newest" test "$(shown)" = "$B2"
# 14.4: a file needs no history at all, and none is created
expect_status 0 "show a file without a history" "$USBPERF" show "$WORK/a.json" -F json \
	--db "$WORK/none.db"
check "show a file: its run" test "$(shown)" = "$A"
check "no history created" test ! -e "$WORK/none.db"

# 14.4: compare takes every form, files mixed with the history
expect_status 1 "compare, no run (B2 regressed)" u compare -F json
check "compare, no run: last~1 against last" test "$(pair)" = "$B1 $B2"
expect_status 0 "compare last~2 last~1" u compare last~2 last~1 -F json
check "compare last~2 last~1: A B1" test "$(pair)" = "$A $B1"
expect_status 0 "compare file last~1" u compare "$WORK/a.json" last~1 -F json
check "compare file last~1: A B1" test "$(pair)" = "$A $B1"
expect_status 0 "compare id prefix" u compare "$A" "${B1:0:12}" -F json
check "compare id prefix: A B1" test "$(pair)" = "$A $B1"
expect_status 1 "compare prefix last (a regression)" u compare 2026113 last -F json
check "compare prefix last: A B2" test "$(pair)" = "$A $B2"
expect_status 0 "show B1 as a file" u show "$B1" -F json -o "$WORK/b1.json"
expect_status 0 "compare two files, no history" "$USBPERF" compare "$WORK/a.json" \
	"$WORK/b1.json" -F json --db "$WORK/none.db"
check "compare two files: A B1" test "$(pair)" = "$A $B1"
check "no history created" test ! -e "$WORK/none.db"
# a file and the run it was written from are one run: nothing to compare (issue 29)
refused 2 "compare a file with its own run" "$D" -- u compare "$WORK/a.json" "$A"
says "are the same run \\($A\\): nothing to compare" "the same run, said"

# 14.4: export takes every form; a run named twice goes once
expect_status 0 "export last~2 last~1 last A" u export last~2 "${B1:0:12}" last "$A"
jq_check "$WORK/out" "[.runs[].id] == [\"$A\", \"$B1\", \"$B2\"]" "each run once, as named"
expect_status 0 "export a file and last~1" u export "$WORK/a.json" last~1
jq_check "$WORK/out" "[.runs[].id] == [\"$A\", \"$B1\"]" "the file's run and the history's"

# 14.4: report with no run: the newest; check and baseline take last~N
expect_status 0 "report, no run" u report
check "report, no run: the newest" grep -q "$B2" "$WORK/out"
expect_status 0 "baseline NAME last~2" u baseline old last~2
expect_status 0 "baseline old" u baseline -F json
check "baseline old is A" grep -q "$A" "$WORK/out"

# 14.4: refusals: one line, exit 2, the history unchanged
refused 2 "show last~3 (past the oldest)" "$D" -- u show last~3
says "^usbperf: no run 'last~3' in the history \(it holds 3 runs\)$" "says how many it holds"
refused 2 "compare last~5 last" "$D" -- u compare last~5 last
says "no run 'last~5' in the history \(it holds 3 runs\)" "compare: says how many"
refused 2 "export last~9" "$D" -- u export last~9
refused 2 "baseline x last~3" "$D" -- u baseline x last~3
refused 2 "report last~3" "$D" -- u report last~3
for bad in "last~" "last~-1" "last~+1" "last~1x" "last~ 1" "last~0x1" "last~99999999999999999999"; do
	refused 2 "show '$bad': not a run" "$D" -- u show "$bad"
	says "^usbperf: no run '.*' in the history" "'$bad': no such run"
done
refused 2 "show a file of two runs" "$D" -- u show "$FIXTURES/runs-b.json"
refused 2 "compare a file of two runs and last" "$D" -- u compare "$FIXTURES/runs-b.json" last
says "^usbperf: compare: takes 2 runs, the operands hold 3" "says one run per file"
refused 2 "compare a missing file" "$D" -- u compare "$WORK/nope.json" last
# 14.4: -o never over a run file being read (as check and report refuse it)
refused 2 "show FILE -o FILE" "$WORK/a.json" -- u show "$WORK/a.json" -o "$WORK/a.json"
says "it is the run file being read" "names the run file"
refused 2 "compare FILE last -o FILE" "$WORK/a.json" -- u compare "$WORK/a.json" last -o "$WORK/a.json"
refused 2 "export FILE -o FILE" "$WORK/a.json" -- u export "$WORK/a.json" -o "$WORK/a.json"
refused 2 "compare, no run, -o the history" "$D" -- u compare -o "$DB"
# 14.4: no history and no run: the usual message, nothing created
refused 2 "show, no history" "$WORK/none.db" -- "$USBPERF" show --db "$WORK/none.db"
refused 2 "compare, no history" "$WORK/none.db" -- "$USBPERF" compare --db "$WORK/none.db"
refused 2 "report, no history" "$WORK/none.db" -- "$USBPERF" report --db "$WORK/none.db"

finish
