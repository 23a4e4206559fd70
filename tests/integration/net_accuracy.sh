#!/bin/bash
# usbperf net against a link of known rate: client and server in two network
# namespaces joined through a third that routes between them, its egress
# shaped with tbf at a USB 2.0 Ethernet class rate (95 Mbit/s) and a USB 3.0
# class rate (750 Mbit/s). The shaping sits on the router, not on the
# sender's own interface, so a UDP sender is not slowed by its socket buffer
# filling up behind the qdisc: what exceeds the rate is dropped, as on a
# real link.
#
# What the rate allows: tbf counts each packet's length at the qdisc, the
# 14-byte Ethernet header included (no preamble, FCS or gap on a veth).
#   TCP: a full segment is MTU 1500 + 14 = 1514 B for 1500 - 20 (IP) - 20
#        (TCP) - 12 (timestamps) = 1448 B of payload: goodput = rate x
#        1448/1514, 90.86 Mbit/s at 95 Mbit/s, 717.3 at 750.
#   UDP: a 1400 B datagram is 1400 + 8 + 20 + 14 = 1442 B at the qdisc:
#        goodput = rate x 1400/1442 = 92.23 Mbit/s; offered at 120 Mbit/s
#        (10714 datagrams/s) against 8235/s delivered, 23.1 % are lost; at
#        750 Mbit/s, 728.2 Mbit/s of goodput, 900 offered: 19.1 % lost.
# Pass: the reported rate within 3 % of that, the loss within 3 points.
. "$(dirname "$0")/lib.sh"

need_root
need_cmd ip tc jq awk timeout
A=upA$$
R=upR$$
B=upB$$
ip netns add "$A" 2>/dev/null || skip "cannot create network namespaces (ip netns add)"
NETNS=("$A")
trap 'for n in "${NETNS[@]}"; do ip netns del "$n" 2>/dev/null; done; cleanup' EXIT
ip netns add "$R" && NETNS+=("$R") && ip netns add "$B" && NETNS+=("$B") ||
	skip "cannot create network namespaces"
for n in "$A" "$R" "$B"; do ip -n "$n" link set lo up; done
ip link add aR netns "$A" type veth peer name rA netns "$R" &&
	ip link add rB netns "$R" type veth peer name bR netns "$B" ||
	skip "cannot create veth pairs"
ip -n "$A" addr add 10.77.0.1/24 dev aR
ip -n "$R" addr add 10.77.0.254/24 dev rA
ip -n "$R" addr add 10.77.1.254/24 dev rB
ip -n "$B" addr add 10.77.1.2/24 dev bR
for x in "$A aR" "$R rA" "$R rB" "$B bR"; do set -- $x; ip -n "$1" link set "$2" up; done
ip -n "$A" route add default via 10.77.0.254
ip -n "$B" route add default via 10.77.1.254
ip netns exec "$R" sysctl -qw net.ipv4.ip_forward=1
MTU=$(ip -n "$A" -o link show aR | sed -n 's/.* mtu \([0-9]*\).*/\1/p')

shape() {	# RATE BURST: both directions through the router
	local d
	for d in rA rB; do
		tc -n "$R" qdisc replace dev "$d" root tbf rate "$1" burst "$2" latency 20ms ||
			skip "tc tbf is not available"
	done
}

PORT=5201
# run a test: the server in B (one test), the client in A; the client's JSON in $WORK/c.json
measure() {
	PORT=$((PORT + 1))
	timeout 60 ip netns exec "$B" "$USBPERF" -F json -q net server -1 -i 0 -p "$PORT" \
		>"$WORK/s.json" 2>"$WORK/s.err" &
	local srv=$!
	sleep 0.3
	if ! timeout 60 ip netns exec "$A" "$USBPERF" -F json net client 10.77.1.2 -p "$PORT" -i 0 \
		"$@" >"$WORK/c.json" 2>"$WORK/c.err"; then
		bad "client $*: $(head -1 "$WORK/c.err")"
		wait $srv
		return 1
	fi
	wait $srv
}
V() { jq -r ".results[] | select(.dir == \"$1\" and .role == \"$2\" and .stream == \"sum\") | .$3" "$WORK/c.json"; }
near() {	# WHAT MEASURED EXPECTED PCT
	if within "$4" "$2" "$3"; then ok "$1: $2 (expected $3, within $4 %)"; else
		bad "$1: $2, expected $3 within $4 %"; fi
}
points() {	# WHAT MEASURED EXPECTED POINTS
	if awk -v m="$2" -v e="$3" -v p="$4" 'BEGIN { d = m - e; if (d < 0) d = -d; exit !(d <= p) }'
	then ok "$1: $2 % (expected $3 %)"; else bad "$1: $2 %, expected $3 % +- $4"; fi
}
tcp_goodput() { awk -v r="$1" -v m="$MTU" 'BEGIN { printf "%.3f", r * (m - 52) / (m + 14) }'; }

# --bind-dev: bound to the interface the route uses, quiet; bound to another, a warning first
PORT=$((PORT + 1))
timeout 30 ip netns exec "$B" "$USBPERF" -q net server -1 -i 0 -p "$PORT" >/dev/null 2>&1 &
sleep 0.3
timeout 30 ip netns exec "$A" "$USBPERF" -F json net client 10.77.1.2 -p "$PORT" -t 1 --bind-dev aR \
	>"$WORK/c.json" 2>"$WORK/c.err"
jq_check "$WORK/c.json" '.test.bind_dev == "aR" and .test.iface == "aR"' "--bind-dev aR: the test runs"
check "--bind-dev aR: no warning" test ! -s "$WORK/c.err"
wait
expect_status 3 "--bind-dev lo towards 10.77.1.2" timeout 30 ip netns exec "$A" "$USBPERF" net client \
	10.77.1.2 -p "$PORT" -t 1 --bind-dev lo --timeout 2
check "warns that the route goes through aR, not lo" \
	grep -q "warning: the route to 10.77.1.2 goes through aR, not lo" "$WORK/err"

for rate in 95 750; do
	burst=$([ $rate = 95 ] && echo 32kb || echo 128kb)
	shape "${rate}mbit" "$burst"
	want=$(tcp_goodput $rate)
	if measure -t 8 -O 2; then
		near "TCP at ${rate} Mbit/s: received" "$(V tx receiver mbit_s)" "$want" 3
		near "TCP at ${rate} Mbit/s: sent" "$(V tx sender mbit_s)" "$want" 3
	fi
	if measure -t 8 -O 2 -R; then
		near "TCP -R at ${rate} Mbit/s: received" "$(V rx receiver mbit_s)" "$want" 3
	fi
done

shape 95mbit 32kb
if measure -u -b 120M -l 1400 -t 6 -O 1; then
	want=$(awk 'BEGIN { printf "%.3f", 95 * 1400 / 1442 }')
	lost=$(awk 'BEGIN { printf "%.2f", 100 * (1 - (95e6 / (1442 * 8)) / (120e6 / (1400 * 8))) }')
	near "UDP 120 Mbit/s into 95: received" "$(V tx receiver mbit_s)" "$want" 3
	points "UDP 120 Mbit/s into 95: loss" "$(V tx receiver loss_pct)" "$lost" 3
	near "UDP 120 Mbit/s into 95: sent as asked" "$(V tx sender mbit_s)" 120 3
fi
if measure -u -b 80M -l 1400 -t 6 -O 1; then
	near "UDP 80 Mbit/s into 95: received" "$(V tx receiver mbit_s)" 80 3
	points "UDP 80 Mbit/s into 95: loss" "$(V tx receiver loss_pct)" 0 0.5
fi
if measure -u -b 120M -l 1400 -t 6 -O 1 -R; then
	points "UDP -R 120 Mbit/s into 95: loss" "$(V rx receiver loss_pct)" "$lost" 3
fi

# 900 Mbit/s offered into 750: 80357 datagrams/s against 65013/s, 19.1 % lost
shape 750mbit 128kb
if measure -u -b 900M -l 1400 -t 5 -O 1; then
	want=$(awk 'BEGIN { printf "%.3f", 750 * 1400 / 1442 }')
	lost=$(awk 'BEGIN { printf "%.2f", 100 * (1 - (750e6 / (1442 * 8)) / (900e6 / (1400 * 8))) }')
	near "UDP 900 Mbit/s into 750: sent as asked" "$(V tx sender mbit_s)" 900 3
	near "UDP 900 Mbit/s into 750: received" "$(V tx receiver mbit_s)" "$want" 3
	points "UDP 900 Mbit/s into 750: loss" "$(V tx receiver loss_pct)" "$lost" 3
fi
finish
