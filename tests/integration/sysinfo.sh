#!/bin/bash
# usbperf sysinfo on this machine (checked against uname, /proc and /sys read
# by other means), on the hand-made fixtures, and refusing a bad --sysroot.
. "$(dirname "$0")/lib.sh"
need_cmd jq

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
J="$WORK/out.json"

# ---- this machine ----
expect_status 0 "sysinfo --format json" "$USBPERF" sysinfo --format json
cp "$WORK/out" "$J"
check "no stderr" test ! -s "$WORK/err"
jq_check "$J" '.command == "sysinfo"' "JSON is a sysinfo report"
kernel=$(uname -r)
jq_check "$J" ".system.kernel == \"$kernel\"" "kernel equals uname -r ($kernel)"
online=$(getconf _NPROCESSORS_ONLN)
jq_check "$J" ".system.cpus_online_count == $online" "cpus_online_count equals _NPROCESSORS_ONLN ($online)"
jq_check "$J" ".system.cpus_online_count >= $(nproc)" "cpus_online_count >= nproc ($(nproc))"
jq_check "$J" ".system.cpus_online == \"$(cat /sys/devices/system/cpu/online)\"" \
	"cpus_online is the kernel's cpulist"
memtotal=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
jq_check "$J" ".memory.mem_total_kib == $memtotal" "mem_total_kib matches /proc/meminfo ($memtotal)"
jq_check "$J" ".memory.dirty_ratio_pct == $(cat /proc/sys/vm/dirty_ratio)" \
	"dirty_ratio_pct matches /proc/sys/vm/dirty_ratio"
if [ -d /sys/devices/system/cpu/cpufreq ]; then
	n=$(ls -d /sys/devices/system/cpu/cpufreq/policy* 2>/dev/null | wc -l)
else
	n=0
fi
jq_check "$J" ".system.cpufreq_policies == $n and (.cpufreq | length) == $n" \
	"cpufreq policies: $n (none is a fact, not an error)"
if [ -d /sys/module/usbcore/parameters ]; then
	jq_check "$J" ".usb.usbfs_memory_mb == $(cat /sys/module/usbcore/parameters/usbfs_memory_mb)" \
		"usbfs_memory_mb matches sysfs"
else
	jq_check "$J" '.usb.usbcore_loaded == false and .usb.usbfs_memory_mb == null' \
		"no usbcore: unknown, not an error"
fi
jq_check "$J" '(.findings | type) == "array" and (.warnings | length) == 0' "findings array"

expect_status 0 "sysinfo text" "$USBPERF" sysinfo
check "text names the kernel" grep -Eq "^  kernel +$kernel\$" "$WORK/out"
expect_status 0 "sysinfo csv" "$USBPERF" sysinfo --format csv
check "csv is the cpufreq table" grep -q '^policy,cpus,driver,governor,epp,cur_khz,' "$WORK/out"
expect_status 0 "--sysroot / reads the same machine" "$USBPERF" sysinfo --sysroot / -F json
jq_check "$WORK/out" ".system.kernel == \"$kernel\"" "--sysroot /: same kernel"
expect_status 0 "--output FILE" "$USBPERF" -F json sysinfo --output "$WORK/file.json"
check "--output: nothing on stdout" test ! -s "$WORK/out"
jq_check "$WORK/file.json" ".system.kernel == \"$kernel\"" "--output: the report is in the file"

# ---- a directory as the root ----
mkdir -p "$WORK/root/proc/sys/kernel" "$WORK/root/sys/devices/system/cpu"
echo "9.9.9-test" >"$WORK/root/proc/sys/kernel/osrelease"
echo "0-3" >"$WORK/root/sys/devices/system/cpu/online"
expect_status 0 "--sysroot DIR" "$USBPERF" sysinfo --sysroot "$WORK/root" -F json
jq_check "$WORK/out" '.system.kernel == "9.9.9-test" and .system.cpus_online_count == 4' \
	"--sysroot DIR: read below DIR"
jq_check "$WORK/out" '.memory.mem_total_kib == null and .system.board == null' \
	"--sysroot DIR: what is not there is null"

# ---- the RK3588 board fixture ----
B="$WORK/board.json"
expect_status 0 "board fixture" "$USBPERF" sysinfo --sysroot "$FIXTURES/board.json" -F json
cp "$WORK/out" "$B"
jq_check "$B" '.system.board == "Radxa ROCK 5B" and .system.board_source == "device-tree"' \
	"board from the device tree"
jq_check "$B" '.system.cpu_model == "Cortex-A55 x4 + Cortex-A76 x4"' "big.LITTLE cores named"
jq_check "$B" '.system.preempt_model == "PREEMPT" and .system.cpus_online_count == 8' \
	"preemption model and CPU count"
jq_check "$B" '[.cpufreq[].governor] == ["schedutil", "ondemand", "schedutil"]' "governors"
jq_check "$B" '.cpufreq[1] | .cpus == "4-5" and .max_khz == 1800000 and .cpuinfo_max_khz == 2400000' \
	"policy4 decoded"
jq_check "$B" '.usb | .usbfs_memory_mb == 16 and .autosuspend_s == 2 and .authorized_default == -1' \
	"usbcore parameters decoded"
jq_check "$B" '.gadgets[0] | .name == "g1" and .udc == "fc000000.usb" and .id_vendor == "0x1d6b"' \
	"gadget g1 bound to fc000000.usb"
jq_check "$B" '[.gadget_functions[].function] == ["SourceSink.0", "hid.0", "mass_storage.0", "ncm.usb0", "uvc.0"]' \
	"five functions"
jq_check "$B" '.gadget_functions[3] | .ifname == "usb0" and .qmult == 5 and .streaming_maxpacket_bytes == null' \
	"ncm settings typed, others null"
jq_check "$B" '.gadget_functions[4].streaming_maxpacket_bytes == 3072' "uvc streaming_maxpacket"
jq_check "$B" '.gadget_luns[0].file == "/srv/usb/disk.img" and .gadget_luns[1].file == null' \
	"LUN files (an ejected LUN is null)"
jq_check "$B" '.udcs[0] | .current_speed == "high-speed" and .maximum_speed == "super-speed"' \
	"UDC speeds"
jq_check "$B" '[.findings[].id] == ["cpu.governor", "cpu.governor", "cpu.max_freq_capped", "cpu.governor", "usbcore.usbfs_memory_mb", "usbcore.autosuspend", "vm.dirty_cache", "udc.speed_below_max"]' \
	"findings, in order"
jq_check "$B" '[.findings[] | select(.evidence == null or .fix == null)] | length == 0' \
	"every finding has evidence and a fix"
expect_status 0 "board fixture, text" "$USBPERF" sysinfo --sysroot "$FIXTURES/board.json"
check "text: findings come last" sh -c "tail -n +\$(grep -n '^findings\$' '$WORK/out' | cut -d: -f1) '$WORK/out' | grep -q 'fc000000.usb: connected at high-speed'"
check "text: unknown shown as -" grep -Eq '^g1 +mass_storage.0 +lun.1 +- ' "$WORK/out"

# ---- the PC and the odd tree ----
expect_status 0 "pc fixture" "$USBPERF" sysinfo --sysroot "$FIXTURES/pc.json" -F json
jq_check "$WORK/out" '[.findings[].id] == ["vm.dirty_cache"] and .gadgets == [] and .udcs == []' \
	"PC: performance governor, no gadget side, one note"
expect_status 0 "odd fixture" "$USBPERF" sysinfo --sysroot "$FIXTURES/odd.json" -F json
jq_check "$WORK/out" '.system.cpus_online_count == null and .memory.mem_total_kib == null and .usb.autosuspend_s == null' \
	"odd tree: garbage is null"
check "odd tree: nothing on stderr" test ! -s "$WORK/err"

# ---- refusals: one line on stderr, nothing on stdout, exit 2 ----
refuse() {
	local what=$1
	shift
	expect_status 2 "$what" "$USBPERF" sysinfo "$@"
	one_line_error "$what"
	if [ ! -s "$WORK/out" ]; then ok "$what: nothing on stdout"; else bad "$what: stdout written"; fi
}
refuse "missing --sysroot" --sysroot "$WORK/nope"
echo "not json" >"$WORK/bad.json"
refuse "--sysroot not a snapshot" --sysroot "$WORK/bad.json"
refuse "--sysroot a device" --sysroot /dev/null
refuse "--sysroot without a value" --sysroot
check "the option is named as typed" grep -q "option '--sysroot' needs a value" "$WORK/err"
refuse "unknown option" --turbo
refuse "stray argument" extra
refuse "bad --format" --format xml
SRC=$(cd "$(dirname "$0")/../.." && pwd)
"$USBPERF" sysinfo --schema >"$WORK/schema.md"
check "docs/schema/sysinfo.md is what 'sysinfo --schema' prints (scripts/gen-schemas)" cmp -s "$WORK/schema.md" "$SRC/docs/schema/sysinfo.md"

finish
