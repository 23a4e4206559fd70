# Scenario i2cusb: a plain-I2C adapter from a real kernel driver. i2c-tiny-usb
# (drivers/i2c/busses/i2c-tiny-usb.c, a USB-to-I2C bridge) binds to a configfs
# gadget on dummy_hcd with its VID:PID (0403:c631) whose FunctionFS function
# is the lab's i2c-tiny-sim (tests/lab/i2c-tiny-sim.c): it answers the
# bridge's vendor control requests with a simulated bus, a 256-byte register
# file at 0x0a, every other address NAKed.
MODULES="configfs dummy_hcd libcomposite usb_f_fs i2c-dev i2c-tiny-usb"
# i2c-tiny-sim is built static on the host (gcc, libc6-dev's libc.a)
LAB_TOOLS="cc:gcc /usr/lib/x86_64-linux-gnu/libc.a:libc6-dev i2cdetect:i2c-tools i2ctransfer:i2c-tools python3:python3"

qemu_args() { :; }

# the simulator, static for the guest's bare root, staged outside /tmp (the guest's tmpfs)
lab_i2c_tiny_sim() {
	SIM_STAGE=$LAB_CACHE/i2cusb
	mkdir -p "$SIM_STAGE" || lab_die "i2cusb: cannot create $SIM_STAGE"
	${CC:-cc} -static -O2 -Wall -Wextra -Werror -o "$SIM_STAGE/i2c-tiny-sim.tmp" \
		"$LAB_SRC/tests/lab/i2c-tiny-sim.c" || lab_die "i2c-tiny-sim: static build failed"
	mv "$SIM_STAGE/i2c-tiny-sim.tmp" "$SIM_STAGE/i2c-tiny-sim" || lab_die "i2cusb: cannot stage i2c-tiny-sim"
}
lab_i2c_tiny_sim
LAB_BINS="$SIM_STAGE/i2c-tiny-sim i2cdetect i2ctransfer"

# the bytes of usbperf's write message SEQ of SIZE (i2c_pattern_fill, pass.c)
eval "$(sed -n '/^i2c_pattern() {/,/^}/p' "$LAB_SRC/tests/lab/scenarios/i2c.sh")"

# the messages a result put on the bus at the address: a write-read is two, and a
# verified write pass read its last message back (two more)
MSGS='[.passes[] | .messages * (if .op == "write-read" then 2 else 1 end) + (if .op == "write" and .verified then 2 else 0 end)] | add'

check() {
	local o=$1 R=$1/ro.json W=$1/rw.json F=$1/fig.json want got sent
	# the kernel's driver on the simulated bridge
	if grep -q ':1\.0$' "$o/bound.txt" && grep -q 'i2c-tiny-usb .*:1\.0: version 1\.04 found' "$o/dmesg.txt" &&
		grep -Eq '^i2c-tiny-usb at bus [0-9]{3} device [0-9]{3}$' "$o/adapter-name.txt"; then
		ok "$SCEN: i2c-tiny-usb bound to 0403:c631 interface 0 (bcdDevice 1.04): $(cat "$o/bus.txt"), '$(cat "$o/adapter-name.txt")'"
	else bad "$SCEN: i2c-tiny-usb did not bind: bound [$(tr '\n' ' ' <"$o/bound.txt" 2>/dev/null)]; $(grep -i 'i2c\|ffs\|usb 1-1' "$o/dmesg.txt" 2>/dev/null | tail -5 | tr '\n' ' ')"; fi
	if [ "$(cat "$o/adapters.txt" 2>/dev/null)" = 1 ]; then ok "$SCEN: one adapter left (of $(cat "$o/adapters-bound.txt") bound: 6.1 binds every interface)"
	else bad "$SCEN: adapters after unbinding interfaces 1..: $(cat "$o/adapters.txt" 2>/dev/null)"; fi
	if grep -Eq '^I2C +yes$' "$o/i2cdetect-F.txt" && grep -Eq '^SMBus Block Read +no$' "$o/i2cdetect-F.txt"; then
		ok "$SCEN: i2cdetect -F: I2C yes (SMBus emulated, block read no)"
	else bad "$SCEN: i2cdetect -F: $(head -c 400 "$o/i2cdetect-F.txt" 2>/dev/null)"; fi
	rc_is ro 0 "i2c --addr 0x0a, read only"
	jq_check "$R" '.device | .method == "i2c-rdwr" and .functionality == "0x0eff0009" and (.functionality_names | split(",") | index("i2c") == 0) and .mode == "read-only"' "read only: I2C_FUNCS 0x0eff0009 (the bridge's CMD_GET_FUNC), plain I2C, so I2C_RDWR"
	jq_check "$R" '[.passes[].op] == ([range(9)] | map("read", "write-read")) and [.passes[].size_bytes] == ([1,2,4,8,16,32,64,128,256] | map(., .)) and all(.passes[]; .method == "i2c-rdwr")' "read only: read and write-read, 1..256 B, every pass through i2c-rdwr"
	for f in ro rw fig; do
		jq_check "$o/$f.json" 'all(.passes[]; .messages > 0 and .naks == 0 and .errors == 0 and .msg_s > 0 and (.payload_b_s - .msg_s * .size_bytes | fabs) < 0.001 * .payload_b_s + 0.01 and (.msg_s - .messages / .seconds | fabs) < 0.01 * .msg_s + 0.1)' "$f: every pass: messages > 0, no NAK; payload B/s = msg/s x size, msg/s = messages / s"
		jq_check "$o/$f.json" 'all(.passes[]; .lat_p50_us > 0 and .lat_p50_us <= .lat_p99_us and .lat_p99_us <= .lat_max_us * 1.01)' "$f: latency 0 < p50 <= p99 <= max"
	done
	rc_is rw 0 "--destructive"
	jq_check "$W" '[.passes[].op] == ([range(9)] | map("read", "write-read", "write")) and all(.passes[] | select(.op == "write"); .verified and .mismatched_bytes == 0)' "destructive: read, write-read and write per size 1..256 B; every write read back as written"
	if grep -Eq '^ +transfers through +i2c-rdwr$' "$o/rw.txt" && grep -Eq '^write +4 +5 ' "$o/rw.txt"; then ok "$SCEN: text: the device says 'transfers through i2c-rdwr'; --count 5: 5 messages"
	else bad "$SCEN: text output: $(head -c 800 "$o/rw.txt")"; fi
	rc_is one 0 "one 8 B write at register 0x80"
	want=$(i2c_pattern 0 8)
	got=$(tr -s ' \n' ' ' <"$o/i2ctransfer-one.txt" | sed 's/ $//')
	if [ "$got" = "$want" ]; then ok "$SCEN: i2ctransfer reads back the 8 bytes usbperf wrote at 0x80 ($got)"
	else bad "$SCEN: i2ctransfer at 0x80: '$got', usbperf wrote '$want'"; fi
	if [ "$(tr -s ' \n' ' ' <"$o/i2ctransfer-r.txt" | sed 's/ $//')" = "0x11 0x22 0x33 0x44" ]; then ok "$SCEN: the simulated register file: i2ctransfer's 4 bytes at 0x20 read back"
	else bad "$SCEN: i2ctransfer w/r at 0x20: $(cat "$o/i2ctransfer-w.txt" "$o/i2ctransfer-r.txt" 2>&1 | head -c 200)"; fi
	rc_is nak 3 "the absent address 0x0b"
	says nak "0x0b on '/dev/i2c-[0-9]+' never answered: NAK" "0x0b: one line, the NAK named"
	jq_check "$o/nak.json" '(.passes | length) == 1 and .passes[0].messages == 0 and .passes[0].naks == 3 and .passes[0].errors == 0 and any(.warnings[]; test("did not acknowledge 3 times \\(NAK: No such device or address\\)"))' "0x0b: CMD_GET_STATUS's address NAK is ENXIO: 3 NAKs, one pass, then given up"
	if [ "$(cat "$o/i2ctransfer-nak.rc" 2>/dev/null)" != 0 ] && grep -q 'No such device or address' "$o/i2ctransfer-nak.txt"; then ok "$SCEN: i2ctransfer at 0x0b fails too ($(head -c 120 "$o/i2ctransfer-nak.txt"))"
	else bad "$SCEN: i2ctransfer at 0x0b: rc $(cat "$o/i2ctransfer-nak.rc" 2>/dev/null): $(head -c 200 "$o/i2ctransfer-nak.txt")"; fi
	# 0x50: no interface of that number, so the gadget layer stalls the request; the
	# driver says EIO, which is the bridge failing, not a NAK
	rc_is far 3 "0x50, stalled by the gadget layer"
	says far "no transfer to 0x50 on '/dev/i2c-[0-9]+' went through: bus errors \\(I/O error: Input/output error\\), not a NAK" "0x50: one line, EIO named (not called a NAK)"
	jq_check "$o/far.json" '(.passes | length) == 1 and .passes[0].messages == 0 and .passes[0].naks == 0 and .passes[0].errors == 3' "0x50: 3 errors, one pass, then given up"
	rc_is run 0 "run /dev/i2c-N:0x0a"
	jq_check "$o/run.json" '(.devices | length) == 1 and .devices[0].kind == "i2c" and (.devices[0].product | test("^i2c-tiny-usb at bus")) and ([.i2c[].op] | unique) == ["read", "write-read"] and (.i2c | length) == 18 and all(.i2c[]; .messages > 0 and .naks == 0) and ([.metrics[] | select(.test == "i2c" and .metric == "msg_s")] | length == 18 and all(.[]; .value > 0))' "run: the bridge's address, read and write-read 1..256 B, msg/s rows in the record"
	# the simulator's own count: every message usbperf and i2ctransfer counted, and no more
	sent=$(jq -s "map($MSGS) | add" "$R" "$W" "$o/one.json" "$F" 2>/dev/null)
	sent=$((sent + $(jq '[.i2c[] | .messages * (if .op == "write-read" then 2 else 1 end)] | add' "$o/run.json" 2>/dev/null || echo 0)))
	sent=$((sent + 5 + 10 + 5 + 2 + 2 + 1 + 2))	# text run (read 5, write-read 5 x 2, write 5 + 2), i2ctransfer 2 + 1 + 2
	if grep -Eq "acked $sent naked 4 stalled 0 " "$o/sim.txt"; then ok "$SCEN: the bridge saw $sent messages at 0x0a (usbperf's count + i2ctransfer's) and 4 NAKed (usbperf's 3, i2ctransfer's 1)"
	else bad "$SCEN: the bridge's count: $(cat "$o/sim.txt" 2>/dev/null), expected acked $sent naked 4"; fi
	jq -r '.passes[] | "    figure  \(.op) \(.size_bytes) B: \(.messages) msgs in \(.seconds) s, \(.msg_s) msg/s, \(.payload_b_s) B/s, p50 \(.lat_p50_us) us, p99 \(.lat_p99_us) us, max \(.lat_max_us) us, CPU \(.cpu_pct) %"' "$F" 2>/dev/null
}
