#!/bin/bash
# usbperf net client as iperf3 users rely on it (issue 14.7): the interval rows
# reach a pipe as they are measured, each once, the totals come last, JSON and
# CSV stay one document at the end, and a CPU-bound end is named in a warning.
# Against usbperf net server and Debian's iperf3 -s, on loopback.
. "$(dirname "$0")/lib.sh"

need_cmd jq timeout
PORT=$((20000 + $$ % 20000))
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; cleanup' EXIT

# a one-test server in the background: "usbperf" or "iperf3", then wrapper words
# (taskset, nice) before it
serve() {
	local kind=$1
	shift
	PORT=$((PORT + 1))
	if [ "$kind" = iperf3 ]; then
		timeout 60 "$@" iperf3 -s -1 -p "$PORT" >"$WORK/srv.out" 2>"$WORK/srv.err" &
	else
		timeout 60 "$@" "$USBPERF" -F json -q net server -1 -i 0 -p "$PORT" \
			>"$WORK/srv.out" 2>"$WORK/srv.err" &
	fi
	SRV=$!
	PIDS+=($SRV)
	sleep 0.3
}

# each stdout line with the time it arrived (no fork per line: it would lag),
# after a "START" line, then "EOF" when the client closed it
stamp() {
	local l
	echo "$EPOCHREALTIME START"
	while IFS= read -r l; do echo "$EPOCHREALTIME $l"; done
	echo "$EPOCHREALTIME EOF"
}

# client ARGS...: a piped client (under $WRAP's words) against the server of serve,
# stdout stamped in $WORK/ts, the plain text in $WORK/txt, stderr in $WORK/cli.err
client() {
	{ timeout 60 ${WRAP:-} "$USBPERF" "$@" 2>"$WORK/cli.err"; echo $? >"$WORK/rc"; } |
		stamp >"$WORK/ts"
	wait "$SRV" 2>/dev/null
	cut -d' ' -f2- "$WORK/ts" | sed '1d;$d' >"$WORK/txt"
	RC=$(cat "$WORK/rc")
}

INTERVAL='^ *[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +(tx|rx) +sum '
# the seconds between the first line matching REGEX and the client's end
lead() {
	awk -v re="$1" '{ t = $1; sub(/^[^ ]+ /, "") }
		$0 ~ re && !f { f = t } /^EOF$/ { e = t } END { if (f) printf "%.2f", e - f; else print "-1" }' \
		"$WORK/ts"
}
# the seconds between the client's start and the first line matching REGEX
after() {
	awk -v re="$1" '{ t = $1; sub(/^[^ ]+ /, "") }
		/^START$/ { s = t } $0 ~ re && !f { f = t } END { if (f) printf "%.2f", f - s; else print "-1" }' \
		"$WORK/ts"
}

live_case() {	# NAME SERVER-KIND
	local name=$1 n first last totals
	serve "$2"
	client net client 127.0.0.1 -p "$PORT" -t 3 -i 1
	check "$name: exit 0" test "$RC" = 0
	# 14.7: intervals reach a pipe as they happen, not at the end
	n=$(lead "^ *0\\.00 +1\\.00 ")
	check "$name: the first interval reached the pipe ${n}s before the client ended (>= 1 s)" \
		awk -v n="$n" 'BEGIN { exit !(n >= 1) }'
	# 14.7: each interval once, the totals after them, the headline last
	n=$(grep -cE "$INTERVAL" "$WORK/txt")
	check "$name: three interval rows, each once ($n)" test "$n" = 3
	last=$(grep -nE "$INTERVAL" "$WORK/txt" | tail -1 | cut -d: -f1)
	totals=$(grep -n '^totals ' "$WORK/txt" | cut -d: -f1)
	check "$name: the totals (line ${totals:-none}) after the intervals (line ${last:-none})" \
		test "${totals:-0}" -gt "${last:-0}"
	last=$(grep -v '^warning: ' "$WORK/txt" | grep -v '^$' | tail -1)
	check "$name: the last row is a sum of the totals ('$last')" \
		grep -qE '^tx +sum +(sender|receiver) +(local|peer) ' <<<"$last"
	check "$name: nothing on stderr" test ! -s "$WORK/cli.err"
}

# --- 14.7: piped text, usbperf's own server and iperf3's
live_case "usbperf server" usbperf
if command -v iperf3 >/dev/null; then
	live_case "iperf3 -s" iperf3
else
	echo "note: no iperf3: the case against iperf3 -s was not run"
fi

# --- 14.7: on a terminal (stdout and stderr both): every interval once
if command -v script >/dev/null; then
	serve usbperf
	timeout 60 script -qec "'$USBPERF' net client 127.0.0.1 -p $PORT -t 3 -i 1" /dev/null \
		>"$WORK/tty" 2>&1
	wait "$SRV" 2>/dev/null
	n=$(grep -cE '1\.00[ -]+2\.00 ' "$WORK/tty")
	check "terminal: the interval 1-2 s shown once ($n)" test "$n" = 1
fi

# --- 14.7: JSON and CSV stay one document, written at the end, unchanged in shape
serve usbperf
client -F json net client 127.0.0.1 -p "$PORT" -t 2 -i 1
cp "$WORK/txt" "$WORK/c.json"
check "json: exit 0" test "$RC" = 0
check "json: one document" test "$(jq -s length "$WORK/c.json")" = 1
jq_check "$WORK/c.json" 'keys == ["command","intervals","results","test","usbperf","warnings"]' \
	"json: the same top-level keys"
jq_check "$WORK/c.json" '(.intervals[0] | keys) == ["bytes","dir","end_s","jitter_ms","loss_pct","lost","mb_s","mbit_s","omitted","out_of_order","packets","retransmits","seconds","start_s","stream"]' \
	"json: the same interval keys"
jq_check "$WORK/c.json" '[.intervals[] | select(.stream == "sum")] | length == 2' \
	"json: two intervals"
jq_check "$WORK/c.json" '[.results[] | select(.stream == "sum")] | length == 2' \
	"json: sender and receiver totals"
n=$(after '^[{]')
check "json: written at the end of the 2 s test (${n}s after the start)" \
	awk -v n="$n" 'BEGIN { exit !(n >= 2) }'
serve usbperf
client -F csv net client 127.0.0.1 -p "$PORT" -t 2 -i 1
check "csv: the totals' header first, two rows, nothing else" \
	test "$(head -c 11 "$WORK/txt")" = "dir,stream," -a "$(wc -l <"$WORK/txt")" = 3

# --- 14.7: -o FILE: nothing streams to stdout; the file has intervals, then totals
serve usbperf
client net client 127.0.0.1 -p "$PORT" -t 2 -i 1 -o "$WORK/o.txt"
check "-o: exit 0, nothing on stdout" test "$RC" = 0 -a ! -s "$WORK/txt"
n=$(grep -cE "$INTERVAL" "$WORK/o.txt")
check "-o: two interval rows, once ($n)" test "$n" = 2
check "-o: the totals after the intervals" \
	test "$(grep -n '^totals ' "$WORK/o.txt" | cut -d: -f1)" -gt \
	"$(grep -nE "$INTERVAL" "$WORK/o.txt" | tail -1 | cut -d: -f1)"

# --- 14.7: a CPU-bound sender is named. Writes of 128 bytes keep a sender busy
# with system calls; pinned to a CPU of its own at nice -19 it uses ~97 % of it
# (a busy machine can lower that: up to three tries).
# cpu_case NAME SERVER-KIND KEY WHO SERVER-WRAP CLIENT-WRAP CLIENT-ARGS...: KEY
# (cpu_pct, peer_cpu_pct) is the sender's figure, WHO how the warning names it
cpu_case() {
	local name=$1 kind=$2 key=$3 who=$4 swrap=$5 cwrap=$6 try pct other
	shift 6
	for try in 1 2 3; do
		serve "$kind" $swrap
		WRAP=$cwrap client -F json net client 127.0.0.1 -p "$PORT" -t 2 -i 0 -l 128 "$@"
		[ "$RC" = 0 ] || { bad "$name: exit $RC: $(head -1 "$WORK/cli.err")"; return; }
		pct=$(jq -r ".test.$key" "$WORK/txt")
		awk -v p="$pct" 'BEGIN { exit !(p > 90) }' && break
	done
	if ! awk -v p="$pct" 'BEGIN { exit !(p > 90) }'; then
		bad "$name: the sender could not be made CPU-bound (${pct} % after 3 tries)"
		return
	fi
	jq_check "$WORK/txt" "[.warnings[] | select(test(\"^the sender \\\\($who\\\\) used [0-9]+ % of a CPU: the figure may be the CPU's limit, not the link's\$\"))] | length == 1" \
		"$name: the sender at ${pct} % of a CPU: warned"
	# the receiver's figure decides its own warning: none under 90 %
	other=$(jq -r 'if .test.cpu_pct > 90 and .test.peer_cpu_pct > 90 then 2
		elif .test.cpu_pct > 90 or .test.peer_cpu_pct > 90 then 1 else 0 end' "$WORK/txt")
	jq_check "$WORK/txt" "[.warnings[] | select(test(\"% of a CPU\"))] | length == $other" \
		"$name: one CPU warning per end above 90 % ($other; here $(jq -r .test.cpu_pct "$WORK/txt"), peer $(jq -r .test.peer_cpu_pct "$WORK/txt"))"
}
if [ "$(id -u)" = 0 ] && command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
	BUSY="taskset -c 1 nice -n -19" OTHER="taskset -c 0"
	cpu_case "client sends" usbperf cpu_pct "this end" "$OTHER" "$BUSY"
	cpu_case "server sends (-R)" usbperf peer_cpu_pct "the peer" "$BUSY" "$OTHER" -R
	command -v iperf3 >/dev/null &&
		cpu_case "client sends to iperf3" iperf3 cpu_pct "this end" "$OTHER" "$BUSY"
	# the text report: the warning after the totals
	serve usbperf $OTHER
	WRAP=$BUSY client net client 127.0.0.1 -p "$PORT" -t 2 -i 1 -l 128
	if grep -q '^warning: the sender (this end) used' "$WORK/txt"; then
		check "text: the CPU warning after the totals" test \
			"$(grep -n '^warning: the sender' "$WORK/txt" | cut -d: -f1)" -gt \
			"$(grep -n '^totals ' "$WORK/txt" | cut -d: -f1)"
	else
		echo "note: text: the sender was not CPU-bound this time: $(grep 'CPU here' "$WORK/txt")"
	fi
else
	echo "note: CPU-bound cases need root (nice -19), taskset and 2 CPUs: not run"
fi
finish
