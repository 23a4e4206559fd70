#!/bin/bash
# usbperf net's command line: bad input refused with one line on stderr and
# exit 2, runtime failures with one line and exit 3, and the three output
# formats of a real test on loopback (usbperf against itself).
. "$(dirname "$0")/lib.sh"

need_cmd jq timeout
PORT=$((20000 + $$ % 20000))
out="$WORK/out.json"
refuse() {
	local what=$1
	shift
	expect_status 2 "$what" "$USBPERF" "$@"
	one_line_error "$what"
	[ ! -e "$out" ] && ok "$what: nothing written" || { bad "$what: wrote $out"; rm -f "$out"; }
}
refuse "no mode" net
refuse "unknown mode" net listen
refuse "client without HOST" net client
refuse "two hosts" net client a b
refuse "fractional --time" net client 127.0.0.1 -t 1.5
refuse "zero --time" net client 127.0.0.1 -t 0
refuse "--time and --bytes" net client 127.0.0.1 -t 5 -n 1M
refuse "--reverse and --bidir" net client 127.0.0.1 -R --bidir
refuse "no streams" net client 127.0.0.1 -P 0
refuse "too many streams" net client 127.0.0.1 -P 129
refuse "block too long" net client 127.0.0.1 -l 2M
refuse "UDP datagram too short" net client 127.0.0.1 -u -l 8
refuse "UDP datagram too long" net client 127.0.0.1 -u -l 65508
refuse "bad rate" net client 127.0.0.1 -b fast
refuse "rate in bytes" net client 127.0.0.1 -b 10MB
refuse "bad port" net client 127.0.0.1 -p 70000
refuse "interval too short" net client 127.0.0.1 -i 0.01
refuse "omit too long" net client 127.0.0.1 -O 601
refuse "no such interface" net client 127.0.0.1 --bind-dev nosuch0
refuse "interface name with a slash" net client 127.0.0.1 --bind-dev ../lo
refuse "congestion name too long" net client 127.0.0.1 -C abcdefghijklmnopqrstuvwxyz
refuse "client option on the server" net server -t 5
refuse "server option on the client" net client 127.0.0.1 -1
refuse "unknown option" net client 127.0.0.1 --turbo
refuse "missing value" net client 127.0.0.1 -t
refuse "--length-sweep: a datagram too short" net client 127.0.0.1 -u --length-sweep 64,8
refuse "--length-sweep: 33 lengths" net client 127.0.0.1 -u --length-sweep "$(seq -s, 100 100 3300)"
refuse "--length-sweep: an MSS too small" net client 127.0.0.1 --length-sweep 64
refuse "--length-sweep with --length" net client 127.0.0.1 -u -l 100 --length-sweep 64
refuse "--length-sweep with --bidir" net client 127.0.0.1 -u --bidir --length-sweep 64
refuse "run --length-sweep without --peer" run --length-sweep 64 --no-save
refuse "output directory missing" net client 127.0.0.1 -o "$WORK/nope/out.json"

expect_status 3 "nothing listens on the port" "$USBPERF" net client 127.0.0.1 -p 1 -t 1
one_line_error "connection refused"
expect_status 3 "a name that does not resolve" "$USBPERF" net client nosuch.invalid -t 1
one_line_error "unresolvable host"
"$USBPERF" net server -p "$PORT" -1 >/dev/null 2>&1 &
srv=$!
sleep 0.3
expect_status 2 "port already taken" "$USBPERF" net server -p "$PORT"
one_line_error "port in use"
kill $srv
wait $srv 2>/dev/null

# one real test per format, usbperf against itself
run() {	# FORMAT FILE client-args...
	local fmt=$1 file=$2
	shift 2
	PORT=$((PORT + 1))
	timeout 30 "$USBPERF" -F json -q net server -1 -p "$PORT" -i 0 >"$WORK/srv.json" &
	sleep 0.3
	timeout 30 "$USBPERF" -F "$fmt" net client 127.0.0.1 -p "$PORT" "$@" >"$file" 2>"$WORK/err"
	RC=$?
	wait
}
run json "$WORK/c.json" -t 1 -i 0.5 -o "$out"
check "-o FILE: exit 0, stdout empty" test "$RC" = 0 -a ! -s "$WORK/c.json"
jq_check "$out" '.command == "net" and .test.role == "client" and .test.protocol == "tcp"' \
	"json: the test"
jq_check "$out" '[.results[] | select(.stream == "sum")] | length == 2' "json: sender and receiver"
jq_check "$out" '[.intervals[] | select(.dir == "tx")] | length == 2' "json: 2 intervals of 0.5 s"
jq_check "$out" '.test.cpu_pct > 0 and .test.peer_cpu_pct > 0' "json: CPU of both ends"
jq_check "$WORK/srv.json" '.test.role == "server" and .test.peer_version == "usbperf '"$("$USBPERF" --version | cut -d' ' -f2)"'"' \
	"server: names the client's version"
S() { jq -r ".results[] | select(.dir == \"$1\" and .role == \"$2\" and .stream == \"sum\") | .bytes" "$3"; }
check "server's received bytes = client's peer receiver bytes" \
	test "$(S rx receiver "$WORK/srv.json")" = "$(S tx receiver "$out")"
run csv "$WORK/c.csv" -u -b 10M -t 1
check "csv: exit 0" test "$RC" = 0
check "csv: header from the field table" grep -q '^dir,stream,role,counted_by,bytes,seconds,mb_s,mbit_s,retransmits,jitter_ms,lost,packets,loss_pct,out_of_order' "$WORK/c.csv"
check "csv: two rows" test "$(wc -l <"$WORK/c.csv")" = 3
run text "$WORK/c.txt" -R -P 2 -t 1 -i 0
check "text: exit 0" test "$RC" = 0
check "text: per-stream and sum rows" test "$(grep -cE '^rx +(1|3|sum) ' "$WORK/c.txt")" = 6
check "text: the totals heading" grep -q '^totals (MB/s = 10^6 B/s, Mbit/s = 10^6 bit/s)' "$WORK/c.txt"
# --length-sweep: a test per datagram length, on loopback (no USB: no ceilings)
PORT=$((PORT + 1))
timeout 30 "$USBPERF" -q net server -p "$PORT" >/dev/null 2>&1 &
srv=$!
sleep 0.3
timeout 30 "$USBPERF" -F json -q net client 127.0.0.1 -p "$PORT" -u -b 20M -t 1 \
	--length-sweep 64,1472 >"$WORK/sweep.json" 2>"$WORK/err"
check "--length-sweep: exit 0" test $? = 0
jq_check "$WORK/sweep.json" '[.lengths[] | .length_bytes] == [64, 1472] and all(.lengths[]; .protocol == "udp" and .mbit_s > 0 and .packets > 0)' \
	"--length-sweep: a row per length, each measured"
jq_check "$WORK/sweep.json" '.link.interface == "lo" and (.link.on_usb | not) and all(.lengths[]; .ceiling_mbit_s == null)' \
	"--length-sweep: loopback is not USB: no ceiling made up"
timeout 30 "$USBPERF" -q net client 127.0.0.1 -p "$PORT" -t 1 --length-sweep 536,1448 >"$WORK/sweep.txt" 2>"$WORK/err"
check "--length-sweep over TCP (MSS): exit 0" test $? = 0
check "--length-sweep text: a tcp row per MSS" test "$(grep -cE '^tcp +(536|1448) ' "$WORK/sweep.txt")" = 2
kill $srv
wait $srv 2>/dev/null
finish
