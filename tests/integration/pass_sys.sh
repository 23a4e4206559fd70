#!/bin/bash
# The machine around a pass (issue 20.2, 20.3), through the one helper every
# class's engine calls, end to end: a net test on loopback against a fake
# sysroot whose cpufreq policy and /proc files (tests/fixtures/irq, a 4-CPU
# board before and after a pass) change while the test runs. The clock's
# min/max/governor and the interrupt shares come out in the command's JSON;
# the I/O thread's CPU is this machine's own (/proc/self is never faked).
. "$(dirname "$0")/lib.sh"

need_cmd jq timeout
FIX=$(dirname "$0")/../fixtures/irq
ROOT=$WORK/root
POL=$ROOT/sys/devices/system/cpu/cpufreq/policy0
PORT=$((20000 + ($$ + 7) % 20000))
mkdir -p "$ROOT/proc" "$POL"
echo 600000 >"$POL/scaling_cur_freq"
echo schedutil >"$POL/scaling_governor"
echo 1800000 >"$POL/cpuinfo_max_freq"
for f in interrupts stat softirqs; do cp "$FIX/$f.before" "$ROOT/proc/$f"; done

timeout 30 "$USBPERF" -q net server -1 -p "$PORT" >/dev/null 2>&1 &
sleep 0.3
# half way through the 2 s test: the clock goes up, the counters move on
(
	sleep 1
	for f in interrupts stat softirqs; do cp "$FIX/$f.after" "$ROOT/proc/$f"; done
	echo 1800000 >"$POL/scaling_cur_freq"
) &
expect_status 0 "net on loopback against the fake sysroot" \
	timeout 30 "$USBPERF" -F json -q net client 127.0.0.1 -p "$PORT" -t 2 --sysroot "$ROOT"
wait
J=$WORK/out
jq_check "$J" '.test.cpu_mhz_min == 600 and .test.cpu_mhz_max == 1800 and .test.cpu_mhz > 600 and .test.cpu_mhz < 1800 and .test.cpu_governor == "schedutil"' \
	"the clock through the pass: 600 MHz to 1800 MHz under schedutil, its mean between"
jq_check "$J" '(.test.cpu_clock_pct | floor) == (100 * .test.cpu_mhz / 1800 | floor)' \
	"the mean's share of the top (cpuinfo_max_freq)"
jq_check "$J" '.test.irq_share_cpu == 0 and .test.irq_share_pct == 70 and .test.others_busy_pct == 10' \
	"CPU 0 of the board 70% in irq+softirq, the others 10% busy (the fixtures' deltas)"
jq_check "$J" '.test.io_cpu >= 0' "the I/O thread's CPU, sampled from this machine"
jq_check "$J" '.test.irq_count == null and .test.irq_cpu == null' \
	"loopback has no controller: its lines unknown, not zero"
finish
