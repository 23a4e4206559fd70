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
finish
