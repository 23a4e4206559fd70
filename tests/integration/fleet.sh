#!/bin/bash
# usbperf report --fleet (issue 31.2): two boards' runs in one history. The
# fixtures' stick (rock5b-03) lost UAS and moved port in its third run: its
# rows follow it across the move (VID:PID and serial) and say "worse"; a
# second board (am62-lab-1, one run) has rows of one run; --board, --since
# and --until narrow it; text, JSON (every point), CSV and an HTML page with
# a trend per row; bad input refused in one line, nothing written.
. "$(dirname "$0")/lib.sh"
need_cmd jq

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
DB=$WORK/h.db
for f in runs-a runs-b; do "$USBPERF" import "$FIXTURES/$f.json" --db "$DB" >/dev/null; done
jq '.runs |= map(.id = "am62-" + .id | .started_at = "2026-12-06T06:00:00Z" |
	.env.hostname = "am62-lab-1" | .env.board = "TI AM62x SK" | .env.machine = "0123456789abcdef")' \
	"$FIXTURES/runs-a.json" >"$WORK/am62.json"
"$USBPERF" import "$WORK/am62.json" --db "$DB" >/dev/null
u() { "$USBPERF" report --fleet --db "$DB" "$@"; }

expect_status 0 "fleet json" u -F json
jq_check "$WORK/out" '(.fleet | map(.board) | unique) == ["am62-lab-1 (TI AM62x SK)", "rock5b-03 (Radxa ROCK 5B)"]' \
	"two boards, named by host and model"
W='.fleet[] | select(.board | startswith("rock5b")) | select(.name == "seq-write 1M")'
jq_check "$WORK/out" "[$W] | length == 1" "the stick's write: one row across its move from 2-1 to 2-2"
jq_check "$WORK/out" "[$W][0] | .runs == 3 and .verdict == \"worse\" and .first == 61.3 and .latest == 52.1 and (.change_pct | . > -15.1 and . < -14.9)" \
	"its latest (52.1) against its first (61.3): -15 %, worse"
jq_check "$WORK/out" "[$W][0] | .device == \"2-2 0781:5583\" and .ceiling == 484.8 and (.share_pct | floor) == 10" \
	"named by its latest port and VID:PID, next to its link's 484.8 MB/s ceiling"
jq_check "$WORK/out" '[.fleet[] | select(.board | startswith("am62"))] | length == 3 and all(.verdict == "one run" and .runs == 1)' \
	"the second board's rows: one run each, not judged"
jq_check "$WORK/out" '[.points[] | select(.board | startswith("rock5b")) | select(.name == "seq-write 1M")] | map(.value) == [61.3, 58, 52.1]' \
	"its points, oldest first: the trend's figures"
jq_check "$WORK/out" '[.points[] | select(.board | startswith("rock5b")) | select(.name == "seq-write 1M")] | map(.kernel) | unique | length == 2' \
	"each point with its run's kernel (two kernels in the range)"

expect_status 0 "--board by model" u -F json --board 'am62x sk'
jq_check "$WORK/out" '(.fleet | length) == 3' "--board: that board's rows alone"
expect_status 0 "--since" u -F json --since 2026-12-02
jq_check "$WORK/out" '[.fleet[] | select(.board | startswith("rock5b"))] | length > 0 and all(.runs == 1)' \
	"--since: the runs before it left out"
expect_status 0 "--until" u -F json --until 2026-11-30
jq_check "$WORK/out" '[.fleet[] | .runs] | length > 0 and all(. == 1)' "--until a day: that day's run"
expect_status 0 "nothing in range" u -F json --since 2030-01-01
jq_check "$WORK/out" '(.fleet | length) == 0 and (.warnings | length) == 1' "nothing in range: no rows, a warning"

expect_status 0 "fleet text" u
check "text: a title with the counts" grep -q '^fleet: 2 boards, 4 devices' "$WORK/out"
check "text: the stick's write row" grep -Eq '2-2 0781:5583 +seq-write 1M +rate +52\.10 ±0\.50 +MB/s +484\.8 +11 +61\.30 +-15\.0 +worse +3 ' "$WORK/out"
expect_status 0 "fleet csv" u -F csv
check "csv header from the field table" grep -q '^board,machine,device,test,name,metric,latest,latest_stdev,unit,ceiling,share_pct' "$WORK/out"

expect_status 0 "fleet html" u --html "$WORK/fleet.html"
check "html: a section per board" test "$(grep -o '<h2>' "$WORK/fleet.html" | wc -l)" = 2
check "html: a trend per row" test "$(grep -o '<svg ' "$WORK/fleet.html" | wc -l)" = "$(jq '.fleet | length' <(u -F json))"
check "html: the kernel change marked" grep -q 'stroke-dasharray="2,2"/><text[^>]*>6.6.30-rk3588' "$WORK/fleet.html"
check "html: no script" bash -c "! grep -qi '<script' '$WORK/fleet.html'"

# bad input: one line, exit 2, nothing written
refused 2 "--fleet with a RUN" "$DB" "$WORK/x.html" -- u last --html "$WORK/x.html"
refused 2 "--since without --fleet" "$DB" -- "$USBPERF" report --db "$DB" --since 2026-12-01
refused 2 "--fleet with --criteria" "$DB" -- u --criteria "$FIXTURES/runs-a.json"
refused 2 "--fleet --since not a date" "$DB" -- u --since yesterday
refused 2 "--fleet -o onto the history" "$DB" -- u -o "$DB"
refused 2 "report without --fleet: text only" "$DB" -- "$USBPERF" report last --db "$DB" -F json
finish
