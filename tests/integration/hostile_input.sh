#!/bin/bash
# Hostile input (issue 12): special files in a --sysroot tree, signals,
# --format a command cannot write, option values where none is taken, JSON
# documents that are not what they should be, and garbage sysfs numbers.
# Bad input: one line on stderr, exit 2, nothing written.
. "$(dirname "$0")/lib.sh"
need_cmd jq timeout
FIX=$(dirname "$0")/../fixtures
RUNS_A=$FIX/runs-a.json
RUNS_B=$FIX/runs-b.json

# a history with three runs, and a copy to compare against
"$USBPERF" import "$RUNS_A" --db "$WORK/h.db" >/dev/null 2>&1 &&
	"$USBPERF" import "$RUNS_B" --db "$WORK/h.db" >/dev/null 2>&1 ||
	{ bad "cannot make the test history"; finish; }
RUN=$(jq -r '.runs[0].run.id // .runs[0].id' "$RUNS_A")

# --- 12.6: special files in a sysroot; signals -------------------------------

# a hand-made tree: one root hub whose speed attribute is a FIFO, and a FIFO
# for /proc/cpuinfo; a writer-less FIFO blocks open() and read() for ever
T=$WORK/fifo-root
mkdir -p "$T/sys/bus/usb/devices/usb1" "$T/proc"
for kv in busnum=1 devnum=1 idVendor=1d6b idProduct=0002 maxchild=2 bcdDevice=0601; do
	echo "${kv#*=}" >"$T/sys/bus/usb/devices/usb1/${kv%%=*}"
done
mkfifo "$T/sys/bus/usb/devices/usb1/speed" "$T/proc/cpuinfo"
echo "MemTotal: 1024 kB" >"$T/proc/meminfo"

# 12.6: a FIFO in the tree is refused as unreadable, the command finishes promptly
expect_status 0 "list with a FIFO in the sysroot" timeout -k 1 5 "$USBPERF" list --sysroot "$T"
check "list still shows the root hub" grep -q '^Bus 1' "$WORK/out"
says "warning: --sysroot: '/sys/bus/usb/devices/usb1/speed' is not a regular file" "list names the FIFO"
expect_status 0 "sysinfo with a FIFO in the sysroot" timeout -k 1 5 "$USBPERF" sysinfo --sysroot "$T"
expect_status 0 "snapshot with a FIFO in the sysroot" timeout -k 1 5 "$USBPERF" snapshot "$WORK/fifo.json" --sysroot "$T"
jq_check "$WORK/fifo.json" '[.entries[] | select(.path == "/proc/cpuinfo")] | length == 1' "the snapshot keeps the FIFO as an unreadable file"
expect_status 0 "the snapshot replays" timeout -k 1 5 "$USBPERF" list --sysroot "$WORK/fifo.json"

# 12.6: a FIFO named as the --sysroot itself is neither a tree nor a snapshot
mkfifo "$WORK/fifo-snapshot"
refused 2 "--sysroot FIFO" "$WORK/fifo-snapshot" -- timeout -k 1 5 "$USBPERF" list --sysroot "$WORK/fifo-snapshot"
says "neither a directory nor a snapshot file" "--sysroot FIFO: says what it is not"

# sig_blocked SIG WANT DESCRIPTION PATH... -- COMMAND...: COMMAND reads stdin
# from a pipe nobody writes (blocked in read, deterministically); SIG is sent
# after 0.5 s and the command must exit WANT within 3 s, every PATH unchanged
sig_blocked() {
	local sig=$1 want=$2 what=$3 paths=() before after pid got i
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do paths+=("$1"); shift; done
	shift
	before=$(fingerprint "${paths[@]}")
	sleep 8 | "$@" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	sleep 0.5
	kill -"$sig" "$pid"
	for i in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		bad "$what: still running 3 s after SIG$sig"
		kill -KILL "$pid"
	fi
	wait "$pid"
	got=$?
	if [ "$got" = "$want" ]; then ok "$what: SIG$sig ends it (exit $got)"; else
		bad "$what: SIG$sig: exit $got, wanted $want"; sed 's/^/    stderr: /' "$WORK/err" | head -3
	fi
	after=$(fingerprint "${paths[@]}")
	if [ "$before" = "$after" ]; then ok "$what: nothing written"; else
		bad "$what: something changed"; diff <(echo "$before") <(echo "$after") | head -8 | sed 's/^/    /'
	fi
}

# 12.6: commands that do not measure end at the first signal, with no output file
sig_blocked TERM 143 "check --criteria - -o" "$WORK/h.db" "$WORK/sig.out" -- \
	"$USBPERF" check "$RUN" --criteria - --db "$WORK/h.db" -o "$WORK/sig.out"
sig_blocked INT 130 "report - --html" "$WORK/h.db" "$WORK/sig.html" -- \
	"$USBPERF" report - --html "$WORK/sig.html" --db "$WORK/h.db"
# 12.6: import polls the flag; a read it is blocked in ends too
sig_blocked INT 130 "import - -o" "$WORK/h.db" "$WORK/sig.out" -- \
	"$USBPERF" import - --db "$WORK/h.db" -o "$WORK/sig.out"
check "no file left aside" test -z "$(find "$WORK" -name '*.tmp-*')"

# --- 12.9: a --format the command cannot write is refused before any work -----

# 12.9: refused, and nothing written: the history, the snapshot, the output files
cp "$WORK/h.db" "$WORK/h0.db"
refused 2 "import -F csv" "$WORK/h.db" -- "$USBPERF" import "$RUNS_A" --db "$WORK/h.db" -F csv
says "^usbperf: import: --format csv is not available \(text or json\)$" "import names the formats it has"
refused 2 "import into a new history -F csv" "$WORK/new.db" -- "$USBPERF" import "$RUNS_A" --db "$WORK/new.db" -F csv
refused 2 "-F csv before import" "$WORK/new.db" -- "$USBPERF" -F csv import "$RUNS_A" --db "$WORK/new.db"
refused 2 "snapshot -F csv" "$WORK/snap.json" -- "$USBPERF" snapshot "$WORK/snap.json" --sysroot "$FIX/pc-usb.json" -F csv
refused 2 "history --check -F csv" "$WORK/h.db" "$WORK/o.csv" -- "$USBPERF" history --check --db "$WORK/h.db" -F csv -o "$WORK/o.csv"
says "history --check: --format csv is not available" "history --check names the mode"
refused 2 "list --table without csv" "$WORK/o.txt" -- "$USBPERF" list --table nodes --sysroot "$FIX/pc-usb.json" -o "$WORK/o.txt"
refused 2 "list --schema -F csv" "$WORK/o.csv" -- "$USBPERF" list --schema -F csv -o "$WORK/o.csv"
refused 2 "sysinfo --schema -F csv" "$WORK/o.csv" -- "$USBPERF" sysinfo --schema -F csv -o "$WORK/o.csv"
says "sysinfo --schema: --format csv is not available \(text or json\)" "sysinfo --schema names the mode"
refused 2 "report -F json" "$WORK/r.html" -- "$USBPERF" report "$RUN" --db "$WORK/h.db" -F json --html "$WORK/r.html"
refused 2 "export -F csv" "$WORK/e.csv" -- "$USBPERF" export --db "$WORK/h.db" -F csv -o "$WORK/e.csv"
refused 2 "version -F csv" "$WORK/v.csv" -- "$USBPERF" version -F csv -o "$WORK/v.csv"
refused 2 "help -F json" -- "$USBPERF" help -F json
check "the history is unchanged" cmp -s "$WORK/h.db" "$WORK/h0.db"

# 12.9: the table is true: every format a command accepts, it writes
A=$RUN
B=$(jq -r '.runs[0].id' "$RUNS_B")
printf '{"usbperf_criteria": 1, "criteria": [{"metric": "mb_s", "min": 1}]}\n' >"$WORK/crit.json"
walk() { # walk FORMATS COMMAND...
	local f fmts=$1
	shift
	for f in $fmts; do
		expect_status_in "0 1" "$* -F $f" "$@" -F "$f"
	done
}
expect_status_in() { # expect_status_in "WANT..." DESCRIPTION COMMAND...
	local want=$1 what=$2 got
	shift 2
	"$@" >"$WORK/out" 2>"$WORK/err"
	got=$?
	if [[ " $want " == *" $got "* ]] && [ -s "$WORK/out" ]; then ok "$what (exit $got)"; else
		bad "$what: exit $got, wanted one of $want, with output"; sed 's/^/    stderr: /' "$WORK/err" | head -3
	fi
}
walk "text json csv" "$USBPERF" list --sysroot "$FIX/pc-usb.json"
walk "csv" "$USBPERF" list --table nodes --sysroot "$FIX/pc-usb.json"
walk "text json" "$USBPERF" list --schema
walk "text json" "$USBPERF" sysinfo --schema
walk "text json csv" "$USBPERF" limits
walk "text json csv" "$USBPERF" sysinfo --sysroot "$FIX/pc.json"
walk "text json csv" "$USBPERF" history --db "$WORK/h.db"
walk "text json" "$USBPERF" history --check --db "$WORK/h.db"
walk "text json csv" "$USBPERF" show "$A" --db "$WORK/h.db"
walk "text json csv" "$USBPERF" compare "$A" "$B" --db "$WORK/h.db"
walk "text json csv" "$USBPERF" check "$A" --criteria "$WORK/crit.json" --db "$WORK/h.db"
walk "text json csv" "$USBPERF" baseline --db "$WORK/h.db"
walk "text" "$USBPERF" report "$A" --db "$WORK/h.db"
walk "text json" "$USBPERF" export --db "$WORK/h.db"
walk "text json" "$USBPERF" import "$RUNS_A" --db "$WORK/h.db"
rm -f "$WORK/s1.json" "$WORK/s2.json"
expect_status_in 0 "snapshot -F text" "$USBPERF" snapshot "$WORK/s1.json" --sysroot "$T" -F text
expect_status_in 0 "snapshot -F json" "$USBPERF" snapshot "$WORK/s2.json" --sysroot "$T" -F json
walk "text json" "$USBPERF" version
walk "text" "$USBPERF" help
walk "text" "$USBPERF" help list

# --- 12.16: an option that takes no value, given one -------------------------

# 12.16: every command's no-value long options, and the global ones
refused 2 "disk --destructive=yes" "$WORK/d.img" -- "$USBPERF" disk "$WORK/d.img" --destructive=yes
says "^usbperf: disk: option '--destructive' takes no value$" "disk: says the option takes no value"
refused 2 "history --check=1" -- "$USBPERF" history --check=1 --db "$WORK/h.db"
says "history: option '--check' takes no value" "history: says the option takes no value"
refused 2 "snapshot --force=1" "$WORK/snap.json" -- "$USBPERF" snapshot "$WORK/snap.json" --force=1
says "snapshot: option '--force' takes no value" "snapshot: says the option takes no value"
refused 2 "list --quiet=1" -- "$USBPERF" list --quiet=1
says "list: option '--quiet' takes no value" "list: says the option takes no value"
refused 2 "--quiet=1 before the command" -- "$USBPERF" --quiet=1 list
says "option '--quiet' takes no value" "global: says the option takes no value"
refused 2 "an unknown option is still unknown" -- "$USBPERF" list --bogus=1
says "unknown option '--bogus'" "names the unknown option"

# --- 12.17: JSON documents that are not what they should be ------------------

# json_case NAME CONTENT(printf format) REGEX: the document refused by every
# JSON input (snapshot, import, criteria, a run file), each saying REGEX
json_case() {
	local f=$WORK/doc-$1.json
	printf "$2" >"$f"
	refused 2 "--sysroot $1" -- "$USBPERF" list --sysroot "$f"
	says "$3" "--sysroot $1: says what is wrong"
	refused 2 "import $1" "$WORK/h.db" -- "$USBPERF" import "$f" --db "$WORK/h.db"
	says "$3" "import $1: says what is wrong"
	refused 2 "criteria $1" -- "$USBPERF" check "$RUN" --criteria "$f" --db "$WORK/h.db"
	says "$3" "criteria $1: says what is wrong"
	refused 2 "run file $1" -- "$USBPERF" check "$f" --criteria "$WORK/crit.json" --db "$WORK/h.db"
	says "$3" "run file $1: says what is wrong"
}
# 12.17: an empty file, valid JSON that is not an object, a BOM, a syntax error's place
json_case empty '' "'.*doc-empty.json': empty file$"
json_case number '42' "a JSON number where an object \{\.\.\.\} is expected$"
json_case null 'null' "a JSON null where an object \{\.\.\.\} is expected$"
json_case array '[1, 2]\n' "a JSON array \[\.\.\.\] where an object \{\.\.\.\} is expected$"
json_case bom '\357\273\277{"usbperf_criteria": 1, "criteria": []}\n' "starts with a UTF-8 byte order mark: save it without one$"
json_case syntax '{"a":\n [1,,2]}\n' "not JSON: unexpected character at line 2, column 5 \(byte 10\)$"
json_case cut '{"a": [1, 2' "not JSON: it ends before the document does"

# --- 12.20: garbage numbers in sysfs; version -F json -------------------------

# a root hub without busnum, a device whose numbers are not numbers, an
# interface with a class but no subclass or protocol
G=$WORK/garbage-root
D=$G/sys/bus/usb/devices
mkdir -p "$D/usb1" "$D/1-1/1-1:1.0"
echo 2 >"$D/usb1/maxchild"
printf 'x\n' >"$D/1-1/busnum"
printf -- '-1\n' >"$D/1-1/devnum"
printf -- '-5\n' >"$D/1-1/maxchild"
printf '99999999999999999999mA\n' >"$D/1-1/bMaxPower"
printf 'fast\n' >"$D/1-1/speed"
echo 08 >"$D/1-1/1-1:1.0/bInterfaceClass"
# 12.20: an unknown number is shown as unknown, never as a wrapped -1
for f in text json csv; do
	expect_status 0 "garbage sysroot: list -F $f" "$USBPERF" list --sysroot "$G" -F "$f"
	check "garbage sysroot: list -F $f prints no wrapped -1" \
		bash -c "! grep -qE '18446744073709551615|4294967295' '$WORK/out'"
	cp "$WORK/out" "$WORK/garbage.$f"
done
check "an unknown bus number is '?'" grep -q '^Bus ?: ' "$WORK/garbage.text"
check "an unknown subclass or protocol is '?'" grep -q '(08/?/?)' "$WORK/garbage.text"
jq_check "$WORK/garbage.json" '[.controllers[].busnum, (.devices[] | select(.path == "1-1") | .busnum, .devnum, .hub_ports, .max_power_ma)] | all(. == null)' "JSON says null for each unknown number"

# 12.20: the global options after version (and help), and a JSON version
expect_status 0 "version -F json" "$USBPERF" version -F json
jq_check "$WORK/out" '.version | test("^[0-9]+\\.[0-9]+\\.[0-9]+")' "version -F json is {\"version\": ...}"
expect_status 0 "-F json before version" "$USBPERF" -F json version
jq_check "$WORK/out" 'keys == ["command", "usbperf", "version", "warnings"] and .usbperf == .version' \
	"-F json version: the same document, the envelope every command's JSON has"
expect_status 0 "version -o FILE" "$USBPERF" version -o "$WORK/version.txt"
check "version -o wrote the file" grep -q '^usbperf ' "$WORK/version.txt"
expect_status 0 "help list -q" "$USBPERF" help list -q
check "help list -q shows list's options" grep -q 'usage: usbperf list' "$WORK/out"

# a value that holds a newline or a terminal escape still gives ONE line on stderr: the
# control characters are written as \xNN (an option's value, a path in a message)
refused 2 "--fps with a newline and an escape in its value" -- \
	"$USBPERF" video /dev/null --fps "$(printf '\033[31m1\n2')"
check "... shown as \\x1b and \\x0a, no raw escape" grep -qF "invalid --fps '\x1b[31m1\x0a2'" "$WORK/err"
check "... and no raw ESC byte" test "$(tr -cd '\033' <"$WORK/err" | wc -c)" = 0
refused 2 "a --db path with a newline" -- "$USBPERF" history --db "$WORK/no
such/h.db"
check "... named on one line" grep -qF 'no\x0asuch' "$WORK/err"

finish
