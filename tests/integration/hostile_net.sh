#!/bin/bash
# usbperf net against a hostile user (issue 12): a server held up by idle
# connections, contradictory or empty client options, an output that cannot
# be written, and clients and servers that stop half-way through the protocol.
. "$(dirname "$0")/lib.sh"

need_cmd iperf3 timeout
PORT=5399
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done; cleanup' EXIT

# seconds since $1 (a date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
# client PORT LIMIT OUT: a real iperf3 -c for 1 s; sets status and took (seconds)
client() {
	local t0
	t0=$(date +%s.%N)
	timeout "$2" iperf3 -c 127.0.0.1 -p "$1" -t 1 >"$3" 2>&1
	status=$?
	took=$(since "$t0")
}

# --- 12.7: idle control connections do not starve a real client ----------------
"$USBPERF" net server -p "$PORT" -i 0 >"$WORK/srv.out" 2>"$WORK/srv.err" &
SERVER=$!
PIDS+=($SERVER)
sleep 0.3
kill -0 $SERVER 2>/dev/null || skip "the server did not start: $(head -1 "$WORK/srv.err")"

# 12.7: 100 connections that never send their cookie
IDLE=()
for i in $(seq 100); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT" || break
	IDLE+=($fd)
done
check "12.7: 100 idle connections opened (${#IDLE[@]})" test "${#IDLE[@]}" = 100
client "$PORT" 60 "$WORK/c1.txt"
check "12.7: iperf3 -c behind 100 idle connections completes (exit $status)" test "$status" = 0
check "12.7: ... in under 5 s (${took} s)" lt "$took" 5
# 12.7: and a second client afterwards, the idle ones still open
client "$PORT" 60 "$WORK/c2.txt"
check "12.7: a second client is served too (exit $status, ${took} s)" \
	eval 'test "$status" = 0 && lt "$took" 5'
for fd in "${IDLE[@]}"; do exec {fd}<&-; done

# 12.7: a connection during a test is still told busy (ACCESS_DENIED, 0xff) at once
timeout 30 iperf3 -c 127.0.0.1 -p "$PORT" -t 3 >"$WORK/long.txt" 2>&1 &
LONG=$!
sleep 1
exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
reply=$(timeout 2 head -c 1 <&$fd | od -An -tx1 | tr -d ' \n')
exec {fd}<&-
check "12.7: a connection during a test gets ACCESS_DENIED at once ($reply)" test "$reply" = ff
wait $LONG
check "12.7: the running test was not disturbed" test $? = 0

# 12.7: a client that sends its cookie byte by byte, slowly, while idle ones sit there
exec {idle}<>"/dev/tcp/127.0.0.1/$PORT"
exec {slow}<>"/dev/tcp/127.0.0.1/$PORT"
COOKIE='abcdefghijklmnopqrstuvwxyz2345672345'
for ((i = 0; i < ${#COOKIE}; i += 6)); do printf '%s' "${COOKIE:i:6}" >&$slow; sleep 0.1; done
printf '\0' >&$slow
reply=$(timeout 3 head -c 1 <&$slow | od -An -tx1 | tr -d ' \n')
check "12.7: a cookie sent in pieces is answered with PARAM_EXCHANGE ($reply)" test "$reply" = 09
exec {slow}<&- {idle}<&-
timeout 30 iperf3 -c 127.0.0.1 -p "$PORT" -t 1 >/dev/null 2>&1
check "12.7: served after the abandoned handshake" test $? = 0

# 12.7: connections that send their cookie and then nothing, or half their parameters,
# are waited on together too
HELD=()
for i in $(seq 30); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
	printf '%s\0' "$COOKIE" >&$fd
	HELD+=($fd)
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT"
	printf '%s\0\0\0\0\x40{"tcp":tr' "$COOKIE" >&$fd
	HELD+=($fd)
done
client "$PORT" 60 /dev/null
check "12.7: served behind 30 cookie-then-silent and 30 half-parameter connections (exit $status, ${took} s)" \
	eval 'test "$status" = 0 && lt "$took" 5'
for fd in "${HELD[@]}"; do exec {fd}<&-; done

# hostile: more idle connections than the server has file descriptors (ulimit -n 40): the
# oldest waiting one makes room for the newest, no busy loop on a listener it cannot accept
PORT4=5396
(ulimit -n 40 && exec "$USBPERF" net server -p "$PORT4" -i 0 >/dev/null 2>&1) &
SERVER4=$!
PIDS+=($SERVER4)
sleep 0.3
HELD=()
for i in $(seq 60); do
	exec {fd}<>"/dev/tcp/127.0.0.1/$PORT4"
	HELD+=($fd)
done
sleep 1
client "$PORT4" 30 /dev/null
check "out of descriptors: a real client is still served at once (exit $status, ${took} s)" \
	eval 'test "$status" = 0 && lt "$took" 3'
for fd in "${HELD[@]}"; do exec {fd}<&-; done
kill -TERM $SERVER4
wait $SERVER4

# hostile: a reverse-mode client that never reads its stream ends only its own test
# (--timeout 2 on a second server), and SIGINT mid-test ends the server with 130
PORT3=5397
"$USBPERF" net server -p "$PORT3" -i 0 --timeout 2 >"$WORK/srv3.out" 2>"$WORK/srv3.err" &
SERVER3=$!
PIDS+=($SERVER3)
sleep 0.3
exec {ctl}<>"/dev/tcp/127.0.0.1/$PORT3"
printf '%s\0' "$COOKIE" >&$ctl
J='{"tcp":true,"reverse":true,"time":30,"parallel":1,"len":131072,"client_version":"mute"}'
timeout 2 head -c 1 <&$ctl >/dev/null
printf "\\0\\0\\0\\x$(printf %02x ${#J})%s" "$J" >&$ctl
reply=$(timeout 2 head -c 1 <&$ctl | od -An -tx1 | tr -d ' \n')
exec {data}<>"/dev/tcp/127.0.0.1/$PORT3"
printf '%s\0' "$COOKIE" >&$data
sleep 4
client "$PORT3" 30 /dev/null
check "a client that never reads its reverse stream is dropped (${reply}), the next one served (exit $status, ${took} s)" \
	test "$status" = 0
exec {data}<&- {ctl}<&-
timeout 30 iperf3 -c 127.0.0.1 -p "$PORT3" -t 5 >"$WORK/int.txt" 2>&1 &
victim=$!
sleep 2
kill -INT $SERVER3
wait $SERVER3
status=$?
wait $victim
check "SIGINT mid-test: the server exits 130 (got $status)" test "$status" = 130
check "... the iperf3 client is told the server terminated, not reset" grep -q "server has terminated" "$WORK/int.txt"
check "... and the server printed the partial results" grep -q "receiver  local" "$WORK/srv3.out"

# --- 12.15: contradictory or empty client options are refused before any socket ---
# The port has a usbperf server on it: a refused command must not have reached it.
PORT2=5398
"$USBPERF" net server -p "$PORT2" -i 0 >/dev/null 2>"$WORK/srv2.err" &
SERVER2=$!
PIDS+=($SERVER2)
sleep 0.3
C="$USBPERF net client 127.0.0.1 -p $PORT2 -t 1"
# 12.15: -4 -6 was "cannot resolve '127.0.0.1'", exit 3
refused 2 "12.15: -4 and -6 together" -- $C -4 -6
says "-4 and -6 exclude each other" "12.15: -4 -6 named"
refused 2 "12.15: net server -4 -6" -- "$USBPERF" net server -p "$PORT2" -4 -6
# 12.15: "" was "cannot resolve ''", exit 3
refused 2 "12.15: an empty HOST" -- "$USBPERF" net client "" -p "$PORT2" -t 1
says "empty HOST" "12.15: empty HOST named"
# 12.15: -C nosuchcc was "cannot open data stream 1: No such file or directory", exit 3
refused 2 "12.15: a congestion control the kernel lacks" -- $C -C nosuchcc
says "congestion control 'nosuchcc' is not available \(available: [a-z0-9 ]+\)" \
	"12.15: the algorithm and the available ones named"
refused 2 "12.15: a TCP option with --udp" -- $C -u -C cubic
refused 2 "12.15: --udp-64bit without --udp" -- $C --udp-64bit
refused 2 "12.15: -B an address not on this machine" -- $C -B 192.0.2.7
says "--bind '192.0.2.7': not an address of this machine" "12.15: the foreign -B named"
refused 2 "12.15: net server -B an address not on this machine" -- \
	"$USBPERF" net server -p "$PORT2" -B 192.0.2.7
refused 2 "12.15: -B IPv6 to an IPv4 HOST" -- $C -B ::1
refused 2 "12.15: -4 with an IPv6 HOST" -- "$USBPERF" net client ::1 -4 -p "$PORT2" -t 1
refused 2 "12.15: -n 0" -- $C -n 0
refused 2 "12.15: -l 0" -- $C -l 0
refused 2 "12.15: -P 0" -- $C -P 0
refused 2 "12.15: -b garbage" -- $C -b garbage
refused 2 "12.15: -t negative" -- "$USBPERF" net client 127.0.0.1 -p "$PORT2" -t -3
refused 2 "12.15: --bind-dev ''" -- $C --bind-dev ''
refused 2 "12.15: --bind-dev a missing interface" -- $C --bind-dev nosuch0
refused 2 "12.15: -p 0" -- "$USBPERF" net client 127.0.0.1 -p 0 -t 1
refused 2 "12.15: -p 70000" -- "$USBPERF" net client 127.0.0.1 -p 70000 -t 1
refused 2 "12.15: net server -1 --timeout 0" -- "$USBPERF" net server -1 -p "$PORT2" --timeout 0

check "12.15: no refused command reached the server" \
	test "$(grep -vc 'listening on' "$WORK/srv2.err")" = 0

# 12.8: -o a directory is refused before the measurement (was: a whole test, then exit 3
# "Is a directory"). Needs check_output to refuse directories, the common.c change of the
# same issue; net.c calls it before any socket.
mkdir "$WORK/outdir"
start=$(date +%s.%N)
refused 2 "12.8: net client -o a directory" "$WORK/outdir" -- \
	"$USBPERF" net client 127.0.0.1 -p "$PORT2" -t 3 -o "$WORK/outdir"
took=$(since "$start")
check "12.8: ... refused at once, no 3 s measurement (${took} s)" lt "$took" 2
check "12.8: it did not reach the server" test "$(grep -vc 'listening on' "$WORK/srv2.err")" = 0
refused 2 "12.8: net server -o a directory" "$WORK/outdir" -- \
	timeout 5 "$USBPERF" net server -p 5393 -1 -o "$WORK/outdir"
kill -TERM $SERVER2
wait $SERVER2

# 12.7: SIGTERM ends the server cleanly, 128 + 15
kill -TERM $SERVER
timeout 10 tail --pid=$SERVER -f /dev/null
wait $SERVER
status=$?
check "12.7: SIGTERM: the server exits 143 (got $status)" test "$status" = 143

finish
