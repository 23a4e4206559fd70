#!/bin/bash
# Every mode and engine runs on a real loop device and on a filesystem, and
# the JSON/CSV say what was run.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq losetup mkfs.ext4

make_loop 256M --direct-io=on
dev=$LOOP
run() { # run NAME ARGS...: usbperf JSON into $WORK/NAME.json
	local name=$1
	shift
	expect_status 0 "$name" "$USBPERF" disk "$@" -F json -q
	cp "$WORK/out" "$WORK/$name.json"
}

run psync "$dev" --destructive --size 64M --time 1 --min-time 0 --bs 64K,1M
jq_check "$WORK/psync.json" '[.results[].name] == ["seq-read 64K","seq-read 1M","seq-write 64K","seq-write 1M","rand-read 4K","rand-write 4K"]' "default tests: sweep then random"
jq_check "$WORK/psync.json" 'all(.results[]; .engine == "psync" and .mode == "direct" and .qd == 1 and .bytes > 0 and .mb_s > 0 and .iops > 0 and .status == "ok")' "psync rows are complete"
jq_check "$WORK/psync.json" 'all(.results[]; .lat_p50_us <= .lat_p90_us and .lat_p90_us <= .lat_p99_us and .lat_p99_us <= .lat_p999_us and .lat_p999_us <= .lat_max_us)' "latency percentiles are ordered (p50, p90, p99, p99.9, max)"
jq_check "$WORK/psync.json" 'all(.results[]; if .seconds >= 0.1 then .util_pct > 0 and .util_pct <= 100 else .util_pct == null end) and any(.results[]; .util_pct > 0)' "device utilisation of the loop device, from its own stat (none for a pass under 0.1 s)"
jq_check "$WORK/psync.json" '([.results[] | select(.seconds < 0.1)] | length) as $n | if $n > 0 then any(.warnings[]; test("utilisation not given for \($n) pass")) else all(.warnings[]; test("utilisation") | not) end' "a pass too short for util is counted in a warning"
jq_check "$WORK/psync.json" 'all(.results[]; ((.mib_s * 1048576 / 1000000 - .mb_s) | fabs) < 0.01 * .mb_s)' "MiB/s and MB/s agree"
jq_check "$WORK/psync.json" 'all(.results[]; ((.bytes / .seconds / 1e6 - .mb_s) | fabs) < 0.001 * .mb_s)' "rate = bytes / seconds"
jq_check "$WORK/psync.json" '.target.kind == "block device" and .target.size_bytes == 67108864' "target section"

run uring "$dev" --destructive --size 64M --time 1 --min-time 0 --tests rand --engine io_uring --qd 16
jq_check "$WORK/uring.json" 'all(.results[]; .engine == "io_uring" and .qd == 16 and .iops > 0)' "io_uring at QD16"
run pinned "$dev" --destructive --size 16M --time 0.5 --min-time 0 --tests rand-read --cpu 0
jq_check "$WORK/pinned.json" 'any(.warnings[]; test("pinned to CPU 0"))' "--cpu is reported"

run buffered "$dev" --destructive --size 64M --time 1 --min-time 0 --bs 1M --tests seq --mode buffered
jq_check "$WORK/buffered.json" 'all(.results[]; .mode == "buffered") and .target.cache_drop != null' "buffered passes name their cache drop"
jq_check "$WORK/buffered.json" '.results[0].cached_pct < 5' "page cache was empty before the buffered read"

run null "$dev" --destructive --size 64M --time 1 --min-time 0 --bs 1M --engine null
jq_check "$WORK/null.json" 'all(.results[]; .engine == "null" and .bytes == 67108864)' "null engine covers the region"

# CrystalDiskMark's defaults but for the size: each test five times, the best reported
run cdm "$dev" --destructive --size 8M --time 0.1 --min-time 0 --preset cdm
jq_check "$WORK/cdm.json" '.target.figures == "best of 5 passes, 8 MiB" and all(.results[]; .repeats == 5 and .mb_s == .mb_s_max)' "cdm: best of 5 passes, and says so"
jq_check "$WORK/cdm.json" '[.results[] | "\(.name) \(.op) \(.qd) \(.engine)"] == ["SEQ1M Q8T1 read 8 io_uring","SEQ1M Q8T1 write 8 io_uring","SEQ1M Q1T1 read 1 psync","SEQ1M Q1T1 write 1 psync","RND4K Q32T1 read 32 io_uring","RND4K Q32T1 write 32 io_uring","RND4K Q1T1 read 1 psync","RND4K Q1T1 write 1 psync"]' "cdm preset rows"
jq_check "$WORK/cdm.json" '[.summary[].name] == ["SEQ1M Q8T1","SEQ1M Q1T1","RND4K Q32T1","RND4K Q1T1"] and all(.summary[]; .read_mb_s > 0 and .write_mb_s > 0)' "cdm summary: four rows, read and write"
jq_check "$WORK/cdm.json" '.summary[2].read_mb_s == ([.results[] | select(.name == "RND4K Q32T1" and .op == "read")][0].mb_s)' "summary figures are the passes' figures"
jq_check "$WORK/psync.json" 'has("summary") | not' "no summary without the preset"

run repeat "$dev" --destructive --size 16M --time 1 --min-time 0 --bs 1M --tests seq-read --repeat 3
jq_check "$WORK/repeat.json" '.results[0].repeats == 3 and .results[0].mb_s_min <= .results[0].mb_s and .results[0].mb_s <= .results[0].mb_s_max and .results[0].mb_s_stdev >= 0' "repeats give mean, stdev, min, max"

# a pass lasts its minimum time over a small region: gone over again, sampled every 100 ms
run mintime "$dev" --destructive --size 8M --time 3 --min-time 0.5 --bs 1M --tests seq-read
jq_check "$WORK/mintime.json" '.results[0] | .seconds >= 0.5 and .seconds < 3 and .bytes > 8388608' "--min-time 0.5: the 8M region read more than once"
jq_check "$WORK/mintime.json" '.results[0] | .bw_samples >= 5 and .bw_interval_ms == 100 and .bw_min_mb_s <= .bw_mean_mb_s and .bw_mean_mb_s <= .bw_max_mb_s and .bw_stdev_mb_s >= 0' "bandwidth samples: min <= mean <= max, stdev"
jq_check "$WORK/mintime.json" '(.samples | length) == .results[0].bw_samples and all(.samples[]; .name == "seq-read 1M" and .op == "read" and .mb_s >= 0 and .t_s > 0)' "-F json lists every sample, for plotting"
jq_check "$WORK/mintime.json" 'all(.warnings[]; test("lasted under") | not)' "no short-pass warning"

# CSV: header is the JSON keys, one line per pass
expect_status 0 "csv" "$USBPERF" disk "$dev" --destructive --size 16M --time 0.5 --min-time 0 --bs 1M --tests seq -F csv -q
check "csv has header + 2 rows" test "$(wc -l <"$WORK/out")" = 3
check "csv header names the keys" grep -q '^name,op,access,mode,engine,bs_bytes,qd' "$WORK/out"

# a filesystem: test file created, then gone; text output readable
mkfs.ext4 -q "$dev"
mkdir "$WORK/mnt"
mount "$dev" "$WORK/mnt" && MOUNTS+=("$WORK/mnt")
expect_status 0 "directory target" "$USBPERF" disk "$WORK/mnt" --size 32M --time 0.5 --min-time 0 --bs 1M -q
check "text names the filesystem" grep -Eq '^  filesystem +ext4$' "$WORK/out"
check "text has the pass table" grep -Eq '^seq-write 1M +1 +[0-9.]+ \([0-9.]+\)' "$WORK/out"
# 29.2.8: the terminal's table keeps to 100 columns; --wide has every column
check "text: the table fits 100 columns" test "$(wc -L <"$WORK/out")" -le 100
expect_status 0 "directory target, --wide" "$USBPERF" disk "$WORK/mnt" --size 32M --time 0.5 --min-time 0 --bs 1M -q --wide
check "--wide: op, mode, engine and the whole latency spread" grep -Eq '^seq-write 1M +write +direct +psync' "$WORK/out"
check "--wide: p99.9 and max columns" grep -Eq '^pass .* p99\.9 +max ' "$WORK/out"
check "test file removed" test -z "$(ls "$WORK/mnt" | grep usbperf-)"
expect_status 0 "--output FILE" "$USBPERF" disk "$WORK/mnt" --size 8M --time 0.5 --min-time 0 --bs 1M --tests seq-read -F json -q -o "$WORK/res.json"
check "--output leaves stdout empty" test ! -s "$WORK/out"
jq_check "$WORK/res.json" '.command == "disk" and (.results | length) == 1' "--output file is valid JSON"
expect_status 0 "--keep" "$USBPERF" disk "$WORK/mnt" --size 8M --time 0.5 --min-time 0 --bs 1M --tests seq-write --keep -F json -q
kept=$(jq -r .target.io_path "$WORK/out")
check "--keep keeps the file" test -f "$kept"
expect_status 0 "kept file can be re-tested with writes" "$USBPERF" disk "$kept" --tests seq-write --bs 1M --time 0.5 --min-time 0 -q
rm -f "$kept"

# progress: on stderr only when it is a terminal, never with --quiet or when redirected
expect_status 0 "redirected stderr" "$USBPERF" disk "$WORK/mnt" --size 8M --time 0.5 --min-time 0.2 --bs 1M --tests seq-read
check "no progress when stderr is not a terminal: only how long it takes, said first" \
	test "$(cat "$WORK/err")" = "usbperf: at least 0.2 s, at most 0.5 s: 1 disk pass of 0.2 to 0.5 s, after writing 8 MiB of test data once"
if command -v script >/dev/null; then
	script -qec "$USBPERF disk $WORK/mnt --size 64M --time 2 --bs 4K --tests seq-read -F json -o $WORK/tty.json" /dev/null >"$WORK/tty.log" 2>&1
	check "progress on a terminal names the pass and rate" grep -q 'seq-read 4K direct.*MB/s' "$WORK/tty.log"
	jq_check "$WORK/tty.json" '.results | length == 1' "JSON not mixed with progress"
	script -qec "$USBPERF disk $WORK/mnt --size 64M --time 2 --bs 4K --tests seq-read -q -o $WORK/tty.txt" /dev/null >"$WORK/tty.log" 2>&1
	check "--quiet silences progress on a terminal" test ! -s "$WORK/tty.log"
fi
finish
