#!/usr/bin/env bash
# usbperf i2c, without I2C hardware: bad input and refusals end in one line,
# exit 2, nothing sent. Nodes that are not i2c-dev (/dev/null, a regular
# file, a directory, a FIFO, a missing path), addresses off the 7-bit range
# or reserved, writes without --destructive, sizes and clocks out of range.
# A character node of the i2c-dev major (89) over the recorded board tree
# (tests/fixtures/i2c-board.json, --sysroot) reaches the sysfs rules: an
# address the at24 driver holds is refused and the driver named, --force gets
# past that rule (the open of the node, with no adapter behind it, is what
# fails then), an adapter not in sysfs. With i2c-stub loadable a short read
# pass runs for real; the QEMU lab (scenario i2c) covers the rest.
. "$(dirname "$0")/lib.sh"
need_cmd jq

OUT=$WORK/out.json
FIX=$(cd "$(dirname "$0")/../fixtures" && pwd)
A=(--addr 0x50)
refused 2 "not an I2C device: /dev/null" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" -o "$OUT"
says "'/dev/null' is not an I2C device" "/dev/null: says it is not I2C"
echo data >"$WORK/file"
refused 2 "a regular file" "$OUT" "$WORK/file" -- "$USBPERF" i2c "$WORK/file" "${A[@]}" -o "$OUT"
says "is not an I2C device" "regular file: says it is not I2C"
refused 2 "a directory" "$OUT" -- "$USBPERF" i2c "$WORK" "${A[@]}" -o "$OUT"
mkfifo "$WORK/fifo"
# a FIFO is never opened (an open would block until a writer came)
refused 2 "a FIFO" "$OUT" "$WORK/fifo" -- timeout 10 "$USBPERF" i2c "$WORK/fifo" "${A[@]}" -o "$OUT"
says "'.*/fifo' is not an I2C device" "FIFO: says it is not I2C"
refused 2 "a missing path" "$OUT" -- "$USBPERF" i2c "$WORK/nope" "${A[@]}" -o "$OUT"
says "cannot open '.*/nope': No such file" "missing: says so"
refused 2 "no device" "$OUT" -- "$USBPERF" i2c "${A[@]}" -o "$OUT"
refused 2 "two devices" "$OUT" -- "$USBPERF" i2c /dev/null /dev/zero "${A[@]}" -o "$OUT"
refused 2 "no --addr" "$OUT" -- "$USBPERF" i2c /dev/null -o "$OUT"
says "give the address" "no --addr: says how"
for a in 0x78 0x7f 0x03 0x00 0x80 0x3ff 1024 0x50x fifty; do
	refused 2 "--addr $a" "$OUT" -- "$USBPERF" i2c /dev/null --addr "$a" -o "$OUT"
done
"$USBPERF" i2c /dev/null --addr 0x78 2>"$WORK/err"
says "0x78 is reserved \(devices use 0x08-0x77\)" "--addr 0x78: reserved, the range named"
"$USBPERF" i2c /dev/null --addr 0x80 2>"$WORK/err"
says "past 0x7f" "--addr 0x80: past the 7-bit range"
refused 2 "--ops write without --destructive" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --ops write -o "$OUT"
says "needs --destructive" "writes: --destructive named"
refused 2 "--ops read,write without --destructive" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --ops read,write -o "$OUT"
refused 2 "--ops not an op" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --ops erase -o "$OUT"
refused 2 "--sizes 0" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --sizes 0 -o "$OUT"
refused 2 "--sizes past 4096" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --sizes 1,8K -o "$OUT"
refused 2 "--clock not a clock" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --clock fast -o "$OUT"
refused 2 "--clock 20M" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --clock 20M -o "$OUT"
refused 2 "--time 0" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --time 0 -o "$OUT"
refused 2 "--register 0x100" "$OUT" -- "$USBPERF" i2c /dev/null "${A[@]}" --register 0x100 -o "$OUT"

# the board tree: i2c-1 with at24 bound at 0x50 and a driverless client at 0x68
need_root
S=(--sysroot "$FIX/i2c-board.json")
mknod "$WORK/i2c-1" c 89 1 || skip "cannot mknod"
mknod "$WORK/i2c-7" c 89 7
mknod "$WORK/mtd0" c 90 0
refused 2 "a character device of another major" "$OUT" -- "$USBPERF" i2c "$WORK/mtd0" "${A[@]}" "${S[@]}" -o "$OUT"
says "is not an I2C device \(a /dev/i2c-N character device, major 89\)" "major 90: not i2c-dev"
refused 2 "no i2c-7 in sysfs" "$OUT" -- "$USBPERF" i2c "$WORK/i2c-7" "${A[@]}" "${S[@]}" -o "$OUT"
says "no I2C adapter i2c-7 in sysfs" "i2c-7: says so"
refused 2 "0x50 claimed by at24" "$OUT" -- "$USBPERF" i2c "$WORK/i2c-1" "${A[@]}" "${S[@]}" -o "$OUT"
says "refusing 0x50 on i2c-1: kernel driver 'at24' has it \(client '24c02'\); give --force" \
	"claimed: the driver and client named, --force offered"
refused 2 "0x50 claimed, even read-only with --destructive off and --ops write-read" "$OUT" -- \
	"$USBPERF" i2c "$WORK/i2c-1" "${A[@]}" --ops write-read "${S[@]}" -o "$OUT"
says "kernel driver 'at24'" "claimed: refused whatever the passes"
# past the rule with --force: no adapter behind the node here, so the open fails
refused 2 "--force: past the claim, the open is what fails" "$OUT" -- "$USBPERF" i2c "$WORK/i2c-1" "${A[@]}" --force "${S[@]}" -o "$OUT"
says "cannot open '.*/i2c-1'" "--force: reaches the open"
refused 2 "0x68 (a client, no driver): the open is what fails" "$OUT" -- "$USBPERF" i2c "$WORK/i2c-1" --addr 0x68 "${S[@]}" -o "$OUT"
says "cannot open '.*/i2c-1'" "0x68: not refused as claimed, reaches the open"

# a real adapter: i2c-stub, if this kernel has it (Debian's builds it; some CI hosts do not)
if modprobe i2c-dev 2>/dev/null && modprobe i2c-stub chip_addr=0x50 2>/dev/null; then
	trap 'rmmod i2c-stub 2>/dev/null; cleanup' EXIT
	BUS=$(grep -l "SMBus stub driver" /sys/class/i2c-dev/*/name | head -1 | xargs dirname | xargs basename)
	expect_status 0 "i2c-stub: a short read pass" "$USBPERF" i2c "/dev/$BUS" --addr 0x50 --sizes 1,32 --time 0.05 -F json -o "$OUT"
	jq_check "$OUT" '.device.method == "smbus-i2c-block" and (.passes | length) == 2 and (.passes[0].messages > 0)' "i2c-stub: SMBus I2C-block passes ran"
	expect_status 3 "i2c-stub: an absent address never answers" "$USBPERF" i2c "/dev/$BUS" --addr 0x51 --sizes 1 --time 0.05 -o "$OUT"
	says "0x51 on .* never answered" "absent address: NAK reported"
else
	echo "note: no i2c-stub on this kernel: the live passes are left to the lab (scenario i2c)"
fi
finish
