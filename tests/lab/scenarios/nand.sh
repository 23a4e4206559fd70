# Scenario nand: raw flash through MTD. nandsim (a small-page NAND: ID 0x20
# 0x33, 512 B pages, 16 B OOB, 16 KiB eraseblocks; overridesize=9: 512
# eraseblocks, 8 MiB) split by parts= into mtd0 (256 eraseblocks), mtd1 (128,
# attached to UBI by ubi mtd=1) and mtd2 (128, JFFS2 mounted); mtdram (a RAM
# "flash", 4 MiB in 128 KiB eraseblocks, 1 B pages). The truths: the geometry
# nandsim and mtdram were given (and that /proc/mtd and nandsim's own log
# repeat); the eraseblocks badblocks= marks bad, skipped and counted exactly;
# --verify passing on both; the ECC counters moving when nandsim is reloaded
# with bitflips=1 (and staying put without it); writes refused, one line, exit
# 2, on the UBI-attached, the JFFS2-mounted and the read-only node; a SIGINT
# ending a destructive run with partial results, exit 130. Rates from nandsim
# are the emulator's, not a medium's: checked for nothing but being there.
MODULES="nandsim mtdram ubi jffs2"
LAB_TOOLS="flash_erase:mtd-utils nandwrite:mtd-utils nanddump:mtd-utils"
LAB_BINS="flash_erase nandwrite nanddump"

qemu_args() { :; }

check() {
	local o=$1 R=$1/ro.json D=$1/rw.json
	# nandsim's own account of the chip it built (its log, read in the guest)
	if grep -q "erase size: 16 KiB, page size: 512, OOB size: 16" "$o/dmesg.txt"; then
		ok "$SCEN: the NAND core's log: 512 B pages, 16 B OOB, 16 KiB eraseblocks"
	else bad "$SCEN: the NAND core's log: $(grep -i nand "$o/dmesg.txt" | head -c 400)"; fi
	rc_is ro 0 "mtd /dev/mtd0, read only"
	jq_check "$R" '.device | .type == "nand" and .page_bytes == 512 and .oob_bytes == 16 and .eraseblock_bytes == 16384 and .size_bytes == 256 * 16384 and .eraseblocks == 256 and .writeable' "geometry = nandsim's parameters (512 B page, 16 B OOB, 16 KiB eraseblock, parts=256)"
	jq_check "$R" '.device.region_bytes == 4194304 and .device.mode == "read-only" and ([.passes[].op] == ["read"])' "read only: one read pass over the whole 4 MiB partition"
	jq_check "$R" '.device.bad_blocks_region == 2 and .passes[0].bad_skipped == 2 and .passes[0].eraseblocks == 254 and .passes[0].bytes == 254 * 16384' "badblocks=5,40: 2 eraseblocks skipped, 254 read"
	jq_check "$R" '.device.bad_blocks_device == 2 and ([.ecc[] | select(.counter == "badblocks") | .before] == [2])' "the same 2 bad eraseblocks in sysfs (bad_blocks) and ECCGETSTATS"
	jq_check "$R" '.passes[0] | .mb_s > 0 and (.mb_s - .bytes / .seconds / 1e6 | fabs) < 0.01 * .mb_s and (.eraseblocks_per_s - .eraseblocks / .seconds | fabs) < 0.01 * .eraseblocks_per_s' "read: MB/s = bytes / s / 10^6, eraseblocks/s = eraseblocks / s"
	if [ "$(awk '$1 == "mtd0:" { print $2, $3 }' "$o/proc-mtd.txt")" = "00400000 00004000" ]; then ok "$SCEN: /proc/mtd agrees (mtd0 4 MiB, 16 KiB eraseblocks)"
	else bad "$SCEN: /proc/mtd: $(head -c 300 "$o/proc-mtd.txt")"; fi
	rc_is rw 0 "mtd /dev/mtd0 --destructive --verify --size 1M"
	jq_check "$D" '[.passes[].op] == ["erase", "write", "write", "write", "write", "read"] and [.passes[] | select(.op == "write") | .io_size_bytes] == [512, 2048, 8192, 16384]' "destructive: erase, the write sweep 512 B .. 16 KiB (page x4 .. eraseblock), read"
	jq_check "$D" '.passes[0] | .op == "erase" and .eraseblocks == 4 * 62 and .bad_skipped == 2 and .failed == 0' "erase: 62 good eraseblocks of 64, four rounds; the 2 bad skipped"
	jq_check "$D" 'all(.passes[]; .failed == 0 and .bad_skipped == 2) and (.passes[-1] | .verified and .mismatched_pages == 0 and .eraseblocks == 62)' "--verify: every page read back as written, bad blocks never touched"
	jq_check "$D" '[.ecc[] | select(.counter == "failed") | .delta] == [0]' "ECC: no uncorrectable error without bitflips"
	# nandsim flips a bit in about 1 page read in 1024 (64 / 65536), only in pages written
	# since it was loaded: 16384 reads make about 16 flips, none once in about 10^7 runs
	rc_is flip 0 "nandsim reloaded with bitflips=1: --destructive --verify (4 MiB)"
	rc_is flip2 0 "nandsim reloaded with bitflips=1: read only (4 MiB)"
	n=$(jq -s '[.[].ecc[] | select(.counter == "corrected") | .delta] | add' "$o/flip.json" "$o/flip2.json")
	if [ "${n:-0}" -gt 0 ] 2>/dev/null; then ok "$SCEN: bitflips=1: ECCGETSTATS corrected moved ($n over two 4 MiB reads)"
	else bad "$SCEN: bitflips=1: ECCGETSTATS corrected did not move ($n)"; fi
	jq_check "$o/flip.json" '[.ecc[] | select(.counter == "failed") | .delta] == [0] and .passes[-1].mismatched_pages == 0' "bitflips=1: single flips corrected (no ECC failure), --verify clean"
	jq_check "$D" '[.ecc[] | select(.counter == "corrected") | .delta] == [0]' "without bitflips: no corrected bit either"
	rc_is ram 0 "mtd on mtdram --destructive --verify"
	jq_check "$o/ram.json" '.device | .type == "ram" and .eraseblock_bytes == 131072 and .page_bytes == 1 and .size_bytes == 4194304' "mtdram: 4 MiB, 128 KiB eraseblocks, 1 B pages (its Kconfig defaults)"
	jq_check "$o/ram.json" '([.passes[] | select(.op == "write") | .io_size_bytes] == [512, 2048, 8192, 32768, 131072]) and (.passes[-1] | .verified and .mismatched_pages == 0)' "mtdram: writes from 512 B by x4 to the eraseblock, --verify clean"
	rc_is ubi 2 "writing the UBI-attached mtd1"
	says ubi "attached to UBI \\(ubi0\\)" "UBI-attached: one line naming ubi0"
	rc_is jffs2 2 "writing the JFFS2-mounted mtd2"
	says jffs2 "mounted on '/mnt'" "mounted: one line naming the mount point"
	rc_is part 0 "reading the mounted mtd2 (reads need no --destructive)"
	jq_check "$o/part.json" '.device | .offset_bytes == 384 * 16384 and .size_bytes == 128 * 16384' "mtd2: the third partition, at 384 eraseblocks into the chip (sysfs offset)"
	rc_is ronode 2 "writing through /dev/mtd0ro"
	says ronode "read-only" "read-only node: one line"
	rc_is fake 2 "a recorded tree saying 8 KiB eraseblocks for the real mtd0"
	says fake "MEMGETINFO says size 4194304, eraseblock 16384, page 512, OOB 16; sysfs says 4194304, 8192" "MEMGETINFO against sysfs: one line with both"
	# usbperf run: the MTD class
	local RR=$o/runro.json RW=$o/runrw.json
	rc_is runro 0 "run /dev/mtd0 (reads)"
	jq_check "$RR" '[.devices[] | select(.device == "mtd0")] | length == 1 and (.[0].kind == "mtd (read-only)") and (.[0].product | test("^nand .* 4M, eraseblock 16K, page 512 B, OOB 16 B"))' "run: mtd0 a device of its own, its geometry named"
	jq_check "$RR" '[.metrics[] | select(.test == "mtd" and .metric == "mb_s") | .name] == ["read"] and ([.metrics[] | select(.name == "region" and .metric == "bad_blocks") | .value] == [2])' "run reads: one read pass; the 2 bad eraseblocks of the region counted"
	jq_check "$RR" '[.metrics[] | select(.test == "mtd" and .name == "read" and .metric == "eraseblocks_per_s")] | .[0].value > 0' "run reads: eraseblocks/s"
	jq_check "$RR" '[.findings[] | select(.id == "mtd.bad_blocks") | .about] == ["mtd0"]' "run reads: the bad eraseblocks a finding about mtd0"
	jq_check "$RR" '[.verdicts[] | select(.device == "mtd0") | .evidence] | .[0] | test("^read [0-9.]+ MB/s: raw flash has no link ceiling")' "run reads: the verdict names the read rate, no ceiling"
	rc_is runrw 0 "run /dev/mtd0 --destructive --size 1M"
	jq_check "$RW" '[.metrics[] | select(.test == "mtd" and .metric == "mb_s") | .name] == ["erase", "write 512", "write 2K", "write 8K", "write 16K", "read"]' "run --destructive: erase, the write sweep 512 B .. 16 KiB, read"
	jq_check "$RW" '([.metrics[] | select(.metric == "mismatched_pages") | .value] == [0]) and ([.metrics[] | select(.metric == "failed_blocks") | .value] | add == 0) and ([.metrics[] | select(.name == "ecc" and .metric == "ecc_failed") | .value] == [0])' "run --destructive: read back as written, no failed eraseblock, no ECC failure"
	jq_check "$RW" '.devices[0].kind == "mtd" and (.mtd | length == 6)' "run --destructive: the mtd table, a row a pass"
	local RC=$o/runcopy.json
	rc_is runcopy 0 "run --copy /tmp/copysrc /dev/mtd0 --destructive --size 2M"
	jq_check "$RC" '[.plan[].device] == ["source", "mtd0", "copy"] and ([.results[] | select(.op == "copy") | .name] == ["copy 64K", "copy 1M", "copy 4M"]) and all(.results[] | select(.op == "copy"); .mb_s > 0)' "--copy to raw flash: the source measured, the flash's own passes, then the copy at three chunk sizes"
	jq_check "$RC" '[.metrics[] | select(.device == "mtd0" and .metric == "mb_s") | .name] == ["erase", "write 512", "write 2K", "write 8K", "write 16K", "read"] and ([.metrics[] | select(.metric == "mismatched_pages") | .value] == [0])' "--copy to raw flash: the flash's sweep, read back as written"
	jq_check "$RC" '[.findings[] | select(.id == "run.copy_limit")] | length == 1 and (.[0].evidence | test("destination /dev/mtd0 erase \\+ write [0-9]+K [0-9.]+ MB/s"))' "--copy to raw flash: which side limits, the flash's erase and write together"
	rc_is runcopybad 2 "28.9 run --copy onto 1 MiB of mtd0 holding 2 bad eraseblocks"
	says runcopybad "^usbperf: run: --copy to '/dev/mtd0': the copy needs 1 MiB of flash at least; the good eraseblocks of its region hold 1015808 B \\(--size 1048576 B\\)$" \
		"28.9 refused once the bad eraseblocks are known, before any pass: one line"
	if [ ! -s "$o/runcopybad.json" ] && [ -s "$o/mtd0-bad-before.md5" ] && cmp -s "$o/mtd0-bad-before.md5" "$o/mtd0-bad-after.md5"; then
		ok "$SCEN: 28.9 nothing on stdout, the region's 1 MiB as before"
	else bad "$SCEN: 28.9 stdout $(head -c 80 "$o/runcopybad.json"), md5 $(cat "$o/mtd0-bad-before.md5" "$o/mtd0-bad-after.md5" | tr '\n' ' ')"; fi
	rc_is runcopynd 2 "run --copy to /dev/mtd0 without --destructive"
	says runcopynd "give --destructive" "--copy to raw flash without --destructive: one line"
	local RF=$o/runcopyfrom.json RD=$o/runcopyfromd.json
	rc_is runcopyfrom 0 "run --copy /dev/mtd0 /tmp/copydst --size 2M (no --destructive)"
	jq_check "$RF" '[.plan[].device] | length == 3 and .[0] == "mtd0" and .[2] == "copy"' "--copy from raw flash: the flash, the destination, then the copy"
	jq_check "$RF" '[.devices[] | select(.device == "mtd0") | .kind] == ["mtd (read-only)"] and ([.metrics[] | select(.device == "mtd0" and .metric == "mb_s") | .name] == ["read"])' "--copy from raw flash: the flash only read (one read pass)"
	jq_check "$RF" '([.results[] | select(.op == "copy") | .name] == ["copy 64K", "copy 1M", "copy 4M"]) and all(.results[] | select(.op == "copy"); .mb_s > 0)' "--copy from raw flash: the copy at three chunk sizes"
	# the truth: 2 MiB = 128 eraseblocks of 16 KiB, nandsim's bad 5 and 40 skipped: 126 read
	jq_check "$RF" '[.notes[] | select(.text | test("^--copy from /dev/mtd0: 2064384 B of its good eraseblocks read each time \\(the region.s 2 bad eraseblocks skipped\\), nothing erased or written"))] | length == 1' "--copy from raw flash: 126 good eraseblocks (2064384 B) read, the 2 bad ones skipped"
	jq_check "$RF" '[.metrics[] | select(.device == "mtd0" and .name == "region" and .metric == "bad_blocks") | .value] == [2]' "--copy from raw flash: the region's 2 bad eraseblocks counted"
	jq_check "$RF" '[.findings[] | select(.id == "run.copy_limit")] | length == 1 and (.[0].evidence | test("source /dev/mtd0 read [0-9.]+ MB/s; destination /tmp/copydst"))' "--copy from raw flash: which side limits, the flash's read pass as the source's figure"
	rc_is runcopyfromd 0 "run --copy /dev/mtd0 /tmp/copydst --destructive"
	jq_check "$RD" '([.metrics[] | select(.device == "mtd0" and .metric == "mb_s") | .name] == ["read"]) and ([.devices[] | select(.device == "mtd0") | .kind] == ["mtd (read-only)"])' "--copy from raw flash with --destructive: still only read"
	if [ -s "$o/mtd0-before.md5" ] && cmp -s "$o/mtd0-before.md5" "$o/mtd0-after.md5"; then ok "$SCEN: --copy from raw flash: its first eraseblocks read the same after"
	else bad "$SCEN: --copy from raw flash: mtd0 changed ($(cat "$o/mtd0-before.md5" "$o/mtd0-after.md5" 2>&1 | tr '\n' ' '))"; fi
	if [ "$(cat "$o/copydst-left.txt" 2>/dev/null)" = "left on /tmp/copydst:" ]; then ok "$SCEN: --copy from raw flash: no file left on DST"
	else bad "$SCEN: --copy from raw flash: left on DST: $(cat "$o/copydst-left.txt" 2>&1)"; fi
	rc_is runcopyself 2 "run --copy /dev/mtd0 /dev/mtd0ro"
	says runcopyself "is both the source and the destination" "--copy from mtd0 onto itself: one line"
	rc_is runubi 2 "run --destructive on the UBI-attached mtd1"
	says runubi "attached to UBI \\(ubi0\\)" "run: UBI-attached refused in one line"
	rc_is runjffs2 2 "run --destructive on the JFFS2-mounted mtd2"
	says runjffs2 "mounted on '/mnt'" "run: mounted refused in one line"
	rc_is runhist 0 "history"
	jq_check "$o/runhist.json" '(.runs | length) == 3' "history: the three runs of mtd0 kept, the refused ones not"
	rc_is runcmp 0 "compare the two read runs"
	jq_check "$o/runcmp.json" '[.metrics[] | select(.test == "mtd" and .name == "read" and .metric == "mb_s")] | length == 1 and .[0].a > 0 and .[0].b > 0' "compare: mtd0's read rate in both runs"
	rc_is runcheck 0 "check the last run against criteria on mtd0"
	jq_check "$o/runcheck.json" '[.checks[] | select(.device == "mtd0" and .result != "measured") | .result] == ["pass", "pass", "pass"]' "check: read rate, ECC failures, mismatches: pass"
	rc_is runreport 0 "report (text) of the --destructive run"
	if grep -q "write size" "$o/runreport.txt"; then ok "$SCEN: report: the write rate against the write size"
	else bad "$SCEN: report: no write-size sweep: $(head -c 300 "$o/runreport.txt")"; fi
	rc_is runreport-html 0 "report --html of the --destructive run"
	if grep -q "Throughput against write size" "$o/runreport.html"; then ok "$SCEN: report --html: the sweep chart against the write size"
	else bad "$SCEN: report --html: no write-size chart"; fi
	rc_is sigint 130 "SIGINT during a destructive run"
	jq_check "$o/sigint.json" '.passes | length >= 1 and any(.[]; .interrupted)' "SIGINT: partial results, the pass it stopped marked interrupted"
}
