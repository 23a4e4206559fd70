# Scenario i2c: the kernel's i2c-stub (an SMBus-only adapter, "SMBus stub
# driver") answering at 0x50 and 0x52, through i2c-dev; at24 bound to 0x52 by
# new_device. The truths: the adapter's functionality as the kernel reports it
# (I2C_FUNCS 0x0c7f0000: SMBus up to I2C block, no plain I2C; i2cdetect -F
# says the same), so the passes go through SMBus I2C-block, sizes capped at
# 32 B; the bytes usbperf writes are what i2cget (i2c-tools) reads back, and
# the write passes' own read-back agrees; the absent address 0x51 NAKs (the
# stub's -ENODEV), reported once, exit 3, not retried past the NAK limit, and
# i2cget fails there too; the at24-held 0x52 is refused in one line naming
# the driver, exit 2, and measured with --force; writes without --destructive
# and sizes past 32 B refused, exit 2. The payload figures against the
# ceiling of --clock 100k are that arithmetic (9 bit times a byte, start,
# address, stop); the stub is memory, not a bus, so efficiency is far past
# 100 % and checked only as rate over ceiling.
MODULES="i2c-dev i2c-stub at24"
LAB_TOOLS="i2cdetect:i2c-tools i2cget:i2c-tools i2cset:i2c-tools python3:python3"
LAB_BINS="i2cdetect i2cget i2cset"

qemu_args() { :; }

# the bytes of usbperf's write message SEQ of SIZE (i2c_pattern_fill, pass.c)
i2c_pattern() { # i2c_pattern SEQ SIZE: "0x.. 0x.. ..."
	python3 -c '
import sys
seq, size = int(sys.argv[1]), int(sys.argv[2])
m = (1 << 64) - 1
x = ((seq * 0x9e3779b97f4a7c15) & m) ^ size
out = []
for _ in range(size):
    x ^= (x << 13) & m
    x ^= x >> 7
    x ^= (x << 17) & m
    out.append("0x%02x" % ((x >> 24) & 0xff))
print(" ".join(out))' "$1" "$2"
}

check() {
	local o=$1 R=$1/ro.json C=$1/clock.json W=$1/rw.json
	rc_is ro 0 "i2c --addr 0x50, read only"
	jq_check "$R" '.device | .adapter == "SMBus stub driver" and .address == "0x50" and .method == "smbus-i2c-block" and .mode == "read-only"' "the stub's adapter, SMBus I2C-block transfers"
	jq_check "$R" '.device | .functionality == "0x0c7f0000" and (.functionality_names | split(",") | index("i2c") == null and index("smbus-read-i2c-block") != null and index("smbus-write-i2c-block") != null and index("smbus-read-block-data") == null)' "I2C_FUNCS 0x0c7f0000: i2c-stub's default (no plain I2C, I2C block both ways)"
	if grep -Eiq '^I2C +no$' "$o/i2cdetect-F.txt" && grep -Eiq '^I2C block read +yes$' "$o/i2cdetect-F.txt" &&
		grep -Eiq '^I2C block write +yes$' "$o/i2cdetect-F.txt" && grep -Eiq '^SMBus block read +no$' "$o/i2cdetect-F.txt"; then
		ok "$SCEN: i2cdetect -F agrees: I2C no, I2C block read/write yes, SMBus block read no"
	else bad "$SCEN: i2cdetect -F: $(head -c 600 "$o/i2cdetect-F.txt")"; fi
	jq_check "$R" '[.passes[].op] == ["write-read","write-read","write-read","write-read","write-read","write-read"] and [.passes[].size_bytes] == [1,2,4,8,16,32]' "read only: write-read passes 1..32 B (SMBus has no plain read; 64..256 B left out)"
	jq_check "$R" 'any(.warnings[]; test("3 default sizes left out")) and any(.warnings[]; test("SMBus-only"))' "notes: the sizes left out, SMBus-only"
	jq_check "$R" 'all(.passes[]; .messages > 0 and .naks == 0 and .errors == 0 and (.payload_b_s - .messages * .size_bytes / .seconds | fabs) < 0.01 * .payload_b_s + 1 and (.msg_s - .messages / .seconds | fabs) < 0.01 * .msg_s + 0.1)' "every pass: messages, payload B/s = messages x size / s, msg/s = messages / s"
	jq_check "$R" 'all(.passes[]; .lat_p50_us > 0 and .lat_p50_us <= .lat_p99_us and .lat_p99_us <= .lat_max_us * 1.01 and .cpu_pct >= 0)' "latency p50 <= p99 <= max, CPU measured"
	jq_check "$R" '.device.clock_hz == null and ([.findings[] | select(.id == "i2c.clock_unknown") | .fix | test("--clock")] == [true])' "no device tree: the clock unknown, said, --clock offered"
	jq_check "$R" '[.ceilings[] | select(.size_bytes == 32) | .wire_bits] == [318] and ([.ceilings[] | select(.size_bytes == 32) | .b_s_400khz - 32 * 400000 / 318 | fabs < 0.01] == [true])' "ceilings: write-read 32 B is 318 bit times, 400 kHz: 40251.6 B/s"
	rc_is clock 0 "--clock 100k"
	jq_check "$C" '.device.clock_hz == 100000 and .device.clock_from == "--clock" and (.passes[0] | .size_bytes == 1 and (.ceiling_b_s - 100000 / 39 | fabs) < 0.01 and (if .payload_b_s > .ceiling_b_s then .efficiency_pct == null and .efficiency_pct_anomaly == true else (.efficiency_pct - 100 * .payload_b_s / .ceiling_b_s | fabs) < 0.01 * .efficiency_pct and .efficiency_pct_anomaly == false end))' "--clock 100k: write-read 1 B ceiling 2564.1 B/s (39 bit times), efficiency = rate / ceiling (the stub past it: null, the anomaly flagged)"
	rc_is rw 0 "--destructive"
	jq_check "$W" '[.passes[].op] == ([range(6)] | map("write-read", "write")) and all(.passes[] | select(.op == "write"); .verified and .mismatched_bytes == 0 and .messages > 0)' "destructive: write-read and write per size; every write read back as written"
	rc_is one 0 "one 8 B write at register 0x80"
	want=$(i2c_pattern 0 8)
	got=$(tr -s ' \n' ' ' <"$o/i2cget-one.txt" | sed 's/ $//')
	if [ "$got" = "$want" ]; then ok "$SCEN: i2cget reads back the 8 bytes usbperf wrote at 0x80 ($got)"
	else bad "$SCEN: i2cget at 0x80: '$got', usbperf wrote '$want'"; fi
	rc_is nak 3 "the absent address 0x51"
	says nak "0x51 on '/dev/i2c-[0-9]+' never answered: NAK" "0x51: one line, the NAK named"
	jq_check "$o/nak.json" '(.passes | length) == 1 and .passes[0].messages == 0 and .passes[0].naks == 3 and any(.warnings[]; test("did not acknowledge 3 times"))' "0x51: 3 NAKs, one pass, then given up (not retried forever)"
	if [ "$(cat "$o/i2cget-nak.rc" 2>/dev/null)" != 0 ]; then ok "$SCEN: i2cget at 0x51 fails too ($(head -c 120 "$o/i2cget-nak.txt"))"
	else bad "$SCEN: i2cget at 0x51 succeeded: $(head -c 200 "$o/i2cget-nak.txt")"; fi
	rc_is big 2 "--sizes 64 on an SMBus-only adapter"
	says big "64 B is more than an SMBus I2C-block transfer carries \\(32 B\\)" "64 B: one line, the limit named"
	rc_is write-ro 2 "--ops write without --destructive"
	says write-ro "needs --destructive" "writes: one line naming --destructive"
	if grep -q 'driver -> .*/at24' "$o/client-0052.txt"; then ok "$SCEN: at24 bound to 0x52 (new_device)"
	else bad "$SCEN: at24 not bound to 0x52: $(head -c 300 "$o/client-0052.txt")"; fi
	rc_is claimed 2 "0x52, held by at24"
	says claimed "refusing 0x52 on i2c-[0-9]+: kernel driver 'at24' has it \\(client '24c02'\\); give --force" "0x52: one line naming at24 and --force"
	rc_is forced 0 "0x52 --force (I2C_SLAVE_FORCE)"
	jq_check "$o/forced.json" '.device | .claimed_by == "at24" and .forced' "--force: measured, the driver still named"
	jq_check "$o/forced.json" 'all(.passes[]; .messages > 0 and .naks == 0)' "--force: every pass went through"
	# run: an address only when named; read only; the metric rows history, compare, check read
	rc_is run-claimed 2 "run /dev/i2c-N:0x52 (at24's)"
	says run-claimed "refusing 0x52 on i2c-[0-9]+: kernel driver 'at24' has it" "run: the claimed address refused, at24 named"
	rc_is run-bare 2 "run /dev/i2c-N without an address"
	says run-bare "name the address too" "run: no address probed on its own"
	rc_is run1 0 "run /dev/i2c-N:0x50 into a history"
	rc_is run2 0 "run /dev/i2c-N:0x50 again"
	jq_check "$o/run1.json" '(.devices | length) == 1 and .devices[0].kind == "i2c" and .devices[0].product == "SMBus stub driver, 0x50" and ([.i2c[].op] | unique) == ["write-read"] and ([.i2c[].size_bytes] == [1,2,4,8,16,32]) and all(.i2c[]; .messages > 0 and .naks == 0)' "run: one I2C device, read only (write-read 1..32 B)"
	jq_check "$o/run1.json" '([.metrics[] | select(.test == "i2c") | .metric] | unique) == ["cpu_pct","lat_p99_us","msg_s","payload_b_s"] and ([.metrics[] | select(.test == "i2c")] | length) == 24 and ([.findings[].id] | index("i2c.clock_unknown")) != null' "run: 4 metrics x 6 sizes in the record; the unknown clock a finding"
	rc_is run-clock 0 "run /dev/i2c-N:0x50@100k"
	jq_check "$o/run-clock.json" '([.metrics[] | select(.name == "write-read 32 B" and .metric == "payload_b_s") | .ceiling - 32 * 100000 / 318 | fabs < 0.01] == [true]) and .verdicts[0].limiter == "emulation" and ([.findings[].id] | index("i2c.above_ceiling")) != null' "run @100k: ceiling 10062.9 B/s for 32 B, the stub past it: emulation, said"
	rc_is compare 0 "compare the two runs"
	jq_check "$o/compare.json" '([.metrics[] | select(.test == "i2c")] | length) == 24 and all(.metrics[]; .a > 0 and .b > 0)' "compare: the 24 I2C metrics of both runs side by side"
	rc_is check 0 "check: write-read 32 B at least 1 msg/s"
	jq_check "$o/check.json" '[.checks[] | select(.criterion != null) | .result] == ["pass"]' "check: the criterion passes"
	rc_is check-fail 1 "check: write-read 32 B at least 1e12 msg/s"
	jq_check "$o/check-fail.json" '[.checks[] | select(.criterion != null) | .result] == ["fail"]' "check: that criterion fails"
	if [ "$(cat "$o/report.rc" 2>/dev/null)" = 0 ] && grep -q 'i2c-[0-9]*:0x50  SMBus stub driver, 0x50' "$o/report.txt"; then ok "$SCEN: report: the I2C device and its verdict"
	else bad "$SCEN: report: exit $(cat "$o/report.rc" 2>/dev/null): $(head -c 300 "$o/report.txt")"; fi
}
