#!/bin/bash
# usbperf net against the real iperf3 (Debian's 3.12) on loopback, both roles:
# usbperf client -> iperf3 -s and iperf3 -c -> usbperf net server, TCP and UDP,
# forward, reverse, bidir, several streams. Both ends' JSON must agree on the
# byte counts each end reported, and on UDP packets, loss and jitter.
. "$(dirname "$0")/lib.sh"

need_cmd iperf3 jq timeout
PORT=$((20000 + $$ % 20000))
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; cleanup' EXIT

# the server of one case, in the background, its JSON in $WORK/srv.json
start_iperf3() {
	PORT=$((PORT + 1))
	timeout 60 iperf3 -s -1 -J -p "$PORT" >"$WORK/srv.json" 2>"$WORK/srv.err" &
	PIDS+=($!)
	SRV=$!
	sleep 0.3
}
start_usbperf() {
	PORT=$((PORT + 1))
	timeout 60 "$USBPERF" -F json net server -1 -i 0 -p "$PORT" >"$WORK/srv.json" 2>"$WORK/srv.err" &
	PIDS+=($!)
	SRV=$!
	sleep 0.3
}
wait_server() {
	if wait "$SRV"; then return 0; fi
	bad "$1: the server failed"
	sed 's/^/    /' "$WORK/srv.err" | head -5
	return 1
}

# usbperf's JSON value: results row by dir, role and who counted it
U() { jq -r ".results[] | select(.dir == \"$1\" and .role == \"$2\" and .stream == \"sum\") | .$3" "$4"; }
# equal numbers: exact for integers; doubles within what JSON rounding leaves (usbperf
# writes 6 decimals of a millisecond jitter)
same() {
	awk -v a="$2" -v b="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b;
		exit !(a != "" && b != "" && a != "null" && b != "null" && d <= 1e-6 + 1e-4 * m) }' &&
		ok "$1: $2 = $3" || bad "$1: usbperf $2, iperf3 $3"
}

client_case() {	# NAME CHECKS usbperf-client-args...
	local name=$1 checks=$2
	shift 2
	start_iperf3
	if ! timeout 60 "$USBPERF" -F json net client 127.0.0.1 -p "$PORT" -i 0 "$@" \
		>"$WORK/cli.json" 2>"$WORK/cli.err"; then
		bad "$name: usbperf client failed: $(head -1 "$WORK/cli.err")"
		wait "$SRV"
		return
	fi
	wait_server "$name" || return
	"$checks" "$name" "$WORK/cli.json" "$WORK/srv.json"
}

server_case() {	# NAME CHECKS iperf3-client-args...
	local name=$1 checks=$2
	shift 2
	start_usbperf
	if ! timeout 60 iperf3 -c 127.0.0.1 -p "$PORT" -J "$@" >"$WORK/cli.json" 2>"$WORK/cli.err" ||
		[ "$(jq -r '.error // empty' "$WORK/cli.json")" ]; then
		bad "$name: iperf3 client failed: $(jq -r '.error // empty' "$WORK/cli.json" 2>/dev/null)"
		wait "$SRV"
		return
	fi
	wait_server "$name" || return
	"$checks" "$name" "$WORK/srv.json" "$WORK/cli.json"
}

# --- usbperf client, iperf3 server (its JSON is written before the exchange: only
# what it counted itself is in it)
c_tcp_fwd() {
	same "$1: bytes the iperf3 server received" "$(U tx receiver bytes "$2")" \
		"$(jq .end.sum_received.bytes "$3")"
	local sent=$(U tx sender bytes "$2") got=$(U tx receiver bytes "$2")
	check "$1: sent ($sent) >= received ($got)" test "$sent" -ge "$got"
}
# with omitted seconds each end starts counting on its own clock: no order between them
c_tcp_omit() {
	same "$1: bytes the iperf3 server received" "$(U tx receiver bytes "$2")" \
		"$(jq .end.sum_received.bytes "$3")"
	jq_check "$2" '.test.omit_s == 1 and .test.seconds > 1.9 and .test.seconds < 2.2' \
		"$1: the measured time leaves the omitted second out"
}
c_tcp_rev() {
	same "$1: bytes the iperf3 server sent" "$(U rx sender bytes "$2")" "$(jq .end.sum_sent.bytes "$3")"
}
c_tcp_bidir() {
	c_tcp_fwd "$1" "$2" "$3"
	same "$1: bytes the iperf3 server sent back" "$(U rx sender bytes "$2")" \
		"$(jq .end.sum_sent_bidir_reverse.bytes "$3")"
}
c_tcp_bytes() {
	same "$1: -n 50M sent exactly" "$(U tx sender bytes "$2")" 52428800
	same "$1: and received" "$(jq .end.sum_received.bytes "$3")" 52428800
}
c_udp_fwd() {
	same "$1: packets" "$(U tx receiver packets "$2")" "$(jq .end.sum.packets "$3")"
	same "$1: lost" "$(U tx receiver lost "$2")" "$(jq .end.sum.lost_packets "$3")"
	same "$1: jitter ms" "$(U tx receiver jitter_ms "$2")" "$(jq .end.sum.jitter_ms "$3")"
}
c_udp_rev() {
	same "$1: bytes the iperf3 server sent" "$(U rx sender bytes "$2")" "$(jq .end.sum.bytes "$3")"
	same "$1: packets it sent" "$(U rx sender packets "$2")" "$(jq .end.sum.packets "$3")"
	jq_check "$2" '[.results[] | select(.role == "receiver")][0].loss_pct < 1' \
		"$1: loopback loses (almost) nothing"
}

# --- iperf3 client, usbperf server: iperf3's client JSON holds both ends' counts
s_tcp_fwd() {
	same "$1: sent" "$(U rx sender bytes "$2")" "$(jq .end.sum_sent.bytes "$3")"
	same "$1: received" "$(U rx receiver bytes "$2")" "$(jq .end.sum_received.bytes "$3")"
	same "$1: retransmits" "$(U rx sender retransmits "$2")" \
		"$(jq .end.sum_sent.retransmits "$3")"
}
s_tcp_rev() {
	same "$1: sent" "$(U tx sender bytes "$2")" "$(jq .end.sum_sent.bytes "$3")"
	same "$1: received" "$(U tx receiver bytes "$2")" "$(jq .end.sum_received.bytes "$3")"
}
s_tcp_bidir() {
	s_tcp_fwd "$1" "$2" "$3"
	same "$1: sent back" "$(U tx sender bytes "$2")" "$(jq .end.sum_sent_bidir_reverse.bytes "$3")"
	same "$1: received back" "$(U tx receiver bytes "$2")" \
		"$(jq .end.sum_received_bidir_reverse.bytes "$3")"
}
s_udp_fwd() {
	same "$1: bytes sent" "$(U rx sender bytes "$2")" "$(jq .end.sum.bytes "$3")"
	same "$1: packets" "$(U rx receiver packets "$2")" "$(jq .end.sum.packets "$3")"
	same "$1: lost" "$(U rx receiver lost "$2")" "$(jq .end.sum.lost_packets "$3")"
	same "$1: jitter ms" "$(U rx receiver jitter_ms "$2")" "$(jq .end.sum.jitter_ms "$3")"
}
s_udp_rev() {
	same "$1: packets" "$(U tx receiver packets "$2")" "$(jq .end.sum.packets "$3")"
	same "$1: lost" "$(U tx receiver lost "$2")" "$(jq .end.sum.lost_packets "$3")"
	same "$1: jitter ms" "$(U tx receiver jitter_ms "$2")" "$(jq .end.sum.jitter_ms "$3")"
}

client_case "client tcp" c_tcp_fwd -t 2
client_case "client tcp -R -P 2" c_tcp_rev -R -P 2 -t 2
client_case "client tcp --bidir -P 2" c_tcp_bidir --bidir -P 2 -t 2
client_case "client tcp -n 50M" c_tcp_bytes -n 50M
client_case "client tcp -O 1 -w 256K" c_tcp_omit -O 1 -t 2 -w 256K
client_case "client udp 50M" c_udp_fwd -u -b 50M -t 2
client_case "client udp -R 50M" c_udp_rev -u -R -b 50M -t 2
client_case "client udp -P 3 8000 B" c_udp_fwd -u -P 3 -b 20M -l 8000 -t 2

server_case "server tcp" s_tcp_fwd -t 2
server_case "server tcp -R -P 3" s_tcp_rev -R -P 3 -t 2
server_case "server tcp --bidir" s_tcp_bidir --bidir -t 2
server_case "server tcp -n 50M" s_tcp_fwd -n 50M
server_case "server udp 50M" s_udp_fwd -u -b 50M -t 2
server_case "server udp -R 50M" s_udp_rev -u -R -b 50M -t 2
server_case "server udp -P 2 64-bit counters" s_udp_fwd -u -P 2 -b 10M -t 2 --udp-counters-64bit
finish
