#!/bin/bash
# What a new user reads (issue 29.2.3, 29.2.8, 29.2.11), on real loop devices:
# a filesystem on a loop device and the raw loop device are said to be no
# medium (no "medium's write path", no faster card), in every view; run's text
# keeps to 100 columns, --wide has every column; evidence about many passes
# says each clause once; an uncertain verdict says what to run next; a pass's
# rate in one unit in run, show, compare and the verdict (29.2.7).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq mkfs.ext4

make_loop 256M
mkfs.ext4 -q "$LOOP" || skip "mkfs.ext4 failed on $LOOP"
mkdir -p "$WORK/mnt"
mount "$LOOP" "$WORK/mnt" || skip "cannot mount $LOOP"
MOUNTS+=("$WORK/mnt")
DB=$WORK/h.db

# 29.2.3: a filesystem on a loop device
expect_status 0 "run on a filesystem on a loop device" "$USBPERF" run "$WORK/mnt" --size 32M --time 0.3 \
	--min-time 0 --db "$DB" -F json -q -o "$WORK/fs.json"
jq_check "$WORK/fs.json" "[.findings[] | select(.id == \"run.not_a_medium\")] | length == 1 and
	(.[0].message | test(\"a loop device \\\\($LOOP over the file .*\\\\), not a storage medium\"))" \
	"the loop device named, over its file: no storage medium"
jq_check "$WORK/fs.json" '[.findings[] | select(.id == "run.medium_bound" or (.message | test("medium.s write path")))] == []' \
	"no medium's write path, no medium bound"
jq_check "$WORK/fs.json" '[.findings[] | select((.message + (.fix // "")) | test("program unit|faster medium|higher-class card|SD card"))] == []' \
	"no flash program unit, no faster card suggested"
expect_status 0 "run text of the same" "$USBPERF" show --db "$DB" last
check "text: said first under the device" sh -c "grep -A1 '(verdict: ' '$WORK/out' | grep -q 'warn .*: the target is a loop device'"
check "text: the verdict says what to run next" grep -q "^ *next: name the device itself" "$WORK/out"

# 29.2.3: the raw loop device
expect_status 0 "run on the raw loop device (read only)" "$USBPERF" run "$LOOP" --size 32M --time 0.3 \
	--min-time 0 --no-save -F json -q -o "$WORK/raw.json"
jq_check "$WORK/raw.json" '[.findings[] | select(.id == "run.not_a_medium")] | length == 1' \
	"the raw loop device: no medium either"

# 29.2.3: a tmpfs
mkdir -p "$WORK/tmp"
mount -t tmpfs -o size=64M none "$WORK/tmp" || skip "cannot mount a tmpfs"
MOUNTS+=("$WORK/tmp")
expect_status 0 "run on a tmpfs" "$USBPERF" run "$WORK/tmp" --size 16M --time 0.2 --min-time 0 \
	--no-save -F json -q -o "$WORK/tmpfs.json"
jq_check "$WORK/tmpfs.json" '[.findings[] | select(.id == "run.not_a_medium") | .message] | length == 1 and (.[0] | test("a tmpfs: files in RAM"))' \
	"a tmpfs: files in RAM, no medium"

# 29.2.8: 100 columns by default; --wide has every column; each clause once
expect_status 0 "run text" "$USBPERF" run "$WORK/mnt" --size 32M --time 0.3 --min-time 0 --no-save -q
cp "$WORK/out" "$WORK/run.txt"
check "run text: no line over 100 columns ($(wc -L <"$WORK/run.txt"))" test "$(wc -L <"$WORK/run.txt")" -le 100
check "run text: a rate in MB/s with MiB/s in its cell" grep -Eq '^ +MB/s \(MiB/s\) ' "$WORK/run.txt"
expect_status 0 "run text --wide" "$USBPERF" run "$WORK/mnt" --size 32M --time 0.3 --min-time 0 --no-save -q --wide
check "--wide: the p50 column too" grep -Eq '^device +pass .* p50 ' "$WORK/out"
check "--wide: a finding's evidence on one line" sh -c "! grep -q '^                  [a-z]' '$WORK/out'"
expect_status 0 "disk text" "$USBPERF" disk "$WORK/mnt" --size 32M --time 0.3 --min-time 0 -q
check "disk text: no line over 100 columns ($(wc -L <"$WORK/out"))" test "$(wc -L <"$WORK/out")" -le 100
# no evidence repeats a clause: each part after "pass: " differs from the others
jq -r '.findings[].evidence // empty' "$WORK/fs.json" "$WORK/raw.json" "$WORK/tmpfs.json" |
	awk -F'; ' '{ delete seen; for (i = 1; i <= NF; i++) { c = $i; sub(/^[^:]*: /, "", c); if (c in seen) { print; next } seen[c] = 1 } }' >"$WORK/repeats"
check "no evidence says the same clause twice" test ! -s "$WORK/repeats"

# 29.2.11: an uncertain verdict says what to run next, a certain one does not need to
jq_check "$WORK/fs.json" '.verdicts[0].limiter == "not determined"' "the loop device's verdict is not determined"
check "run text: 'next:' under the uncertain verdict" sh -c "sed -n '2,4p' '$WORK/run.txt' | grep -q '^ *next: '"
"$USBPERF" run "$WORK/mnt" --size 32M --time 0.3 --min-time 0 --db "$DB" -q >/dev/null 2>&1
expect_status 0 "report of two runs" "$USBPERF" report --db "$DB" last~1 last
check "report: the newest run's verdict says what to run next" grep -q "^    next: name the device itself" "$WORK/out"

# 29.2.7: a pass's rate in one unit in every view: run (MB/s, MiB/s beside it in the
# cell), show, compare and the verdict
expect_status 0 "show text of the newest run" "$USBPERF" show --db "$DB" last
check "show: seq-read 1M's rate in MB/s" \
	grep -Eq '^[^ ]+ +disk +seq-read 1M +rate +[0-9.]+ +[0-9.-]+ +[0-9.-]+ +MB/s ' "$WORK/out"
check "show: the verdict's figure in MB/s" grep -Eq 'not determined: seq-read [0-9]+[KM] [0-9.]+ MB/s' "$WORK/out"
"$USBPERF" compare --db "$DB" last~1 last >"$WORK/cmp.txt" 2>"$WORK/err"
rc=$?
check "compare: judged (exit 0 or 1, was $rc)" test "$rc" -le 1
check "compare: seq-read 1M's rate in MB/s" grep -Eq '^[^ ]+ +disk +seq-read 1M +rate +MB/s ' "$WORK/cmp.txt"
check "run: seq-read 1M's rate under 'MB/s (MiB/s)'" grep -Eq '^seq-read 1M +[0-9.]+ \([0-9.]+\) ' "$WORK/run.txt"

finish
