#!/bin/bash
# usbperf net server under abuse: one test at a time (a second client is told
# it is busy), garbage, truncated, empty and oversized control messages,
# refused parameters, clients that stay silent before or during a test and
# clients that vanish mid-test. After each, the next client is served, and
# the server's memory stays small.
. "$(dirname "$0")/lib.sh"

need_cmd iperf3 jq timeout od
PORT=$((20000 + $$ % 20000))
TIMEOUT=2
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done; cleanup' EXIT

"$USBPERF" -F json net server -p "$PORT" -i 0 --timeout "$TIMEOUT" >"$WORK/reports.json" \
	2>"$WORK/events" &
SERVER=$!
PIDS+=($SERVER)
sleep 0.3
kill -0 $SERVER 2>/dev/null || skip "the server did not start: $(head -1 "$WORK/events")"

COOKIE='abcdefghijklmnopqrstuvwxyz2345672345'
# raw control connection on fd 3
open_ctrl() { exec 3<>"/dev/tcp/127.0.0.1/$PORT"; }
close_ctrl() { exec 3<&- 3>&-; }
# the next N bytes from the server as hex, waiting at most SEC seconds
read_hex() { timeout "$2" head -c "$1" <&3 2>/dev/null | od -An -tx1 | tr -d ' \n'; }
# fd 4 is closed by the server (EOF, nothing said) within SEC seconds
closed4() { local out; out=$(timeout "$1" cat <&4 2>/dev/null) && [ -z "$out" ]; }

served() { # the next client gets a whole test
	if timeout 30 iperf3 -c 127.0.0.1 -p "$PORT" -t 1 -J >"$WORK/ok.json" 2>&1 &&
		[ -z "$(jq -r '.error // empty' "$WORK/ok.json")" ]; then
		ok "$1: the next client is served"
	else
		bad "$1: the next client failed: $(jq -r '.error // empty' "$WORK/ok.json")"
	fi
	kill -0 $SERVER 2>/dev/null && ok "$1: server still up" || bad "$1: server died"
}

# --- busy: a test runs, a second client is refused without a byte read
timeout 30 iperf3 -c 127.0.0.1 -p "$PORT" -t 3 -J >"$WORK/long.json" 2>&1 &
LONG=$!
sleep 1
timeout 10 iperf3 -c 127.0.0.1 -p "$PORT" -t 1 >"$WORK/second.txt" 2>&1
check "second iperf3 client is told the server is busy" grep -q "busy" "$WORK/second.txt"
expect_status 3 "a usbperf client meanwhile" "$USBPERF" net client 127.0.0.1 -p "$PORT" -t 1
check "it says busy" grep -q "busy running a test" "$WORK/err"
one_line_error "usbperf client refused"
open_ctrl
check "a raw connection during the test gets ACCESS_DENIED (ff)" test "$(read_hex 1 3)" = ff
close_ctrl
wait $LONG
check "the running test was not disturbed" test -z "$(jq -r '.error // empty' "$WORK/long.json")"

# --- garbage instead of a cookie
open_ctrl
head -c 200 /dev/urandom >&3
check "garbage: the connection is dropped" test -z "$(read_hex 1 $((TIMEOUT + 2)))"
close_ctrl
served "garbage"

# --- truncated: the cookie, then half a length, then gone
open_ctrl
printf '%s\0' "$COOKIE" >&3
check "cookie answered by PARAM_EXCHANGE (09)" test "$(read_hex 1 3)" = 09
printf '\0\0' >&3
close_ctrl
served "truncated parameters"

# --- oversized: a 2 GiB parameter message is refused with SERVER_ERROR (fe), never allocated
open_ctrl
printf '%s\0' "$COOKIE" >&3
read_hex 1 3 >/dev/null
printf '\x7f\xff\xff\xff' >&3
reply=$(read_hex 9 3)
check "oversized: SERVER_ERROR, iperf3 error 114 ($reply)" test "${reply:0:10}" = fe00000072
close_ctrl
served "oversized parameters"

# --- empty message
open_ctrl
printf '%s\0' "$COOKIE" >&3
read_hex 1 3 >/dev/null
printf '\0\0\0\0' >&3
check "empty: SERVER_ERROR" test "$(read_hex 1 3)" = fe
close_ctrl

# --- parameters the server refuses: 500 streams, not JSON
params() { printf "\\0\\0\\0\\x$(printf %02x ${#1})%s" "$1" >&3; }
open_ctrl
printf '%s\0' "$COOKIE" >&3
read_hex 1 3 >/dev/null
params '{"tcp":true,"parallel":500,"time":1}'
reply=$(read_hex 9 3)
check "500 streams: SERVER_ERROR, iperf3 error 6 ($reply)" test "${reply:0:10}" = fe00000006
close_ctrl
open_ctrl
printf '%s\0' "$COOKIE" >&3
read_hex 1 3 >/dev/null
params '{"tcp":true,"time":1,"len":'
check "broken JSON: SERVER_ERROR" test "$(read_hex 1 3)" = fe
close_ctrl
served "refused parameters"

# --- silent: connects and says nothing; the client behind it does not wait for it (12.7)
exec 4<>"/dev/tcp/127.0.0.1/$PORT"
start=$(date +%s.%N)
served "silent client"
took=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
check "the client behind a silent one is served at once (next test done in ${took}s)" \
	awk -v t="$took" -v lim="$TIMEOUT" 'BEGIN { exit !(t < lim + 2) }'
exec 4<&- 4>&-
# and a silent one left alone is dropped after --timeout
exec 4<>"/dev/tcp/127.0.0.1/$PORT"
check "a silent connection is closed after --timeout ${TIMEOUT}s" \
	closed4 $((TIMEOUT + 2))
exec 4<&- 4>&-

# --- silent after the parameters: no streams ever come
open_ctrl
printf '%s\0' "$COOKIE" >&3
read_hex 1 3 >/dev/null
params '{"tcp":true,"parallel":2,"time":1,"client_version":"mute"}'
check "CREATE_STREAMS (0a) comes" test "$(read_hex 1 3)" = 0a
sleep $((TIMEOUT + 1))
close_ctrl
served "streams never opened"

# --- vanishing mid-test, TCP and UDP: the client is killed, the server moves on
for proto in "" "-u -b 10M"; do
	iperf3 -c 127.0.0.1 -p "$PORT" -t 10 $proto >/dev/null 2>&1 &
	victim=$!
	PIDS+=($victim)
	sleep 1.5
	kill -9 $victim
	wait $victim 2>/dev/null
	served "client killed mid-test ${proto:-tcp}"
done

# --- frozen mid-test: the control connection stays open, nothing moves
iperf3 -c 127.0.0.1 -p "$PORT" -t 30 >/dev/null 2>&1 &
victim=$!
PIDS+=($victim)
sleep 1.5
kill -STOP $victim
sleep $((TIMEOUT + 2))
served "client frozen mid-test"
kill -9 $victim 2>/dev/null
wait $victim 2>/dev/null

grep -q "went silent" "$WORK/events" && ok "events name the silent clients" ||
	bad "no 'went silent' event"
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$SERVER/status")
check "server memory stays small after all that (${rss} KiB)" test "$rss" -lt 65536
kill -INT $SERVER
wait $SERVER
status=$?
check "SIGINT on an idle server: exit 130, 128 + SIGINT (got $status)" test "$status" = 130
n=$(jq -s 'length' "$WORK/reports.json")
check "a JSON report per finished test ($n)" test "$n" -ge 8
sed 's/^/    event: /' "$WORK/events" | head -40
finish
