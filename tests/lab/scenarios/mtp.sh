# Scenario mtp: usbperf mtp (host side, libmtp) against umtprd, Debian's MTP
# responder, serving a FunctionFS function of a configfs gadget on dummy_hcd
# (high speed), both in the same guest kernel. The gadget is made by hand
# here (usbperf gadget up mtp will replace that). The truths: every file's
# bytes back equal the bytes sent (usbperf verifies while streaming), the
# storage dir holds what it held before after every run, SIGINT included;
# the rates are > 0 and under dummy_hcd's allowance; bad inputs say one line,
# exit 2. mtp-sendfile/mtp-getfile (mtp-tools) move the same sizes in the
# same guest, their rates printed for the bench to come.
#
# The same runs and checks go to the lab's own responder, mtp-sim (mtp-sim.sh):
# mtp_core_runs and mtp_core_checks (mtp-core.guest, mtp-core.lib).
MODULES="configfs dummy_hcd libcomposite usb_f_fs usb_f_ss_lb"
# a dynamic usbperf with libmtp built on the host, the gconv module it reads
# UTF-16 with, umtprd and libmtp's own tools copied into the guest
LAB_TOOLS="meson:meson ninja:ninja-build pkg-config:pkgconf /usr/include/libmtp.h:libmtp-dev
/usr/lib/x86_64-linux-gnu/gconv/UTF-16.so:libc6 umtprd:umtp-responder mtp-sendfile:mtp-tools"

qemu_args() { :; }

# lab_mtp_usbperf, mtp_core_checks, same_store, MTP_ALLOW
. "$LAB_SRC/tests/lab/scenarios/mtp-core.lib"
lab_mtp_usbperf
LAB_BINS="$MTP_STAGE/usbperf $MTP_STAGE/gconv/gconv-modules $MTP_STAGE/gconv/UTF-16.so
	umtprd mtp-sendfile mtp-getfile mtp-delfile mtp-detect mtp-folders"

check() {
	local o=$1 allow=$MTP_ALLOW
	if grep -q . "$o/detect.txt" 2>/dev/null; then ok "$SCEN: the MTP gadget enumerated ($(cat "$o/detect.txt"))"
	else bad "$SCEN: the MTP gadget did not enumerate; umtprd: $(tail -3 "$o/umtprd.log" 2>/dev/null | tr '\n' ' ')"; fi
	mtp_core_checks "" umtprd
	jq_check "$o/main.json" '.device.vid_pid == "1d6b:0100" and .device.speed == "high" and .device.driver == "none" and .device.manufacturer == "usbperf-lab" and (.device.bulk_ceiling_mb_s | floor) == 53' "main: the device's facts from sysfs and libmtp, next to the high-speed bulk ceiling"
	rc_is text 0 "text output"
	if grep -q "^files sent and got back (MB/s = 10^6 B/s)" "$o/text.txt" && grep -q "driver *none" "$o/text.txt"; then ok "$SCEN: text: the device and the sizes table"
	else bad "$SCEN: text output: $(head -c 400 "$o/text.txt")"; fi
	# run --mtp: the MTP class of the main job
	rc_is run 0 "run --mtp"
	jq_check "$o/run.json" '[.plan[] | select(.kind == "usb-mtp") | .target] | length == 1' "run --mtp: the MTP device planned"
	jq_check "$o/run.json" "[.metrics[] | select(.test == \"mtp\" and .metric == \"mb_s\")] | (map(.name) | sort) == [\"get 1M\", \"get 4M\", \"send 1M\", \"send 4M\"] and all(.[]; .unit == \"MB/s\" and .value > 0 and .value <= $allow and .repeats == 2 and (.ceiling | floor) == 53)" "run --mtp --full --size 4M: send and get of 1M and 4M files, twice each, next to the high-speed bulk ceiling, under dummy_hcd's allowance"
	if [ "$(cat "$o/run-report.rc")" = 0 ] && grep -q 'MB/s against file size, 1M to 4M' "$o/run-report.txt" && grep -Eq '^ +send +.* best .* MB/s at [14]M$' "$o/run-report.txt"; then ok "$SCEN: report of run --mtp --full: MB/s against the file size, send and get"
	else bad "$SCEN: report of run --mtp --full: $(head -c 600 "$o/run-report.txt")"; fi
	jq_check "$o/run.json" '[.devices[] | select(.kind == "usb-mtp") | .vid_pid] == ["1d6b:0100"] and ((.devices[] | select(.kind == "usb-mtp") | .device) as $k | [.verdicts[] | select(.device == $k)] | length == 1)' "run --mtp: the device recorded, with a verdict"
	jq_check "$o/run.json" '(.devices[] | select(.kind == "usb-mtp") | .device) as $k | .verdicts[] | select(.device == $k) | (.limiter == (if .share_pct >= 90 then "bus" else "device" end)) and (.evidence | test("the slower way"))' "run --mtp: the verdict holds the slower way against the bulk ceiling"
	jq_check "$o/run.json" '[.findings[] | select(.id == "mtp.send_path" or .id == "mtp.storage_figures")] == []' "run --mtp: umtprd took the files in the folder, its storage figures can be true: no path or storage finding"
	same_store run
	rc_is run-nomtp 0 "run without --mtp"
	jq_check "$o/run-nomtp.json" '[.plan[] | select(.kind == "usb-mtp")] == [] and [.metrics[] | select(.test == "mtp")] == []' "run without --mtp leaves the MTP device alone"
	# --buffer-sweep: a figure per buffer size through usbperf's own gadget, nothing left after
	rc_is sweep 0 "--buffer-sweep 16K,256K through gadget up mtp"
	jq_check "$o/sweep.json" "[.buffer_sweep[] | .buffer_bytes] == [16384, 262144] and all(.buffer_sweep[]; .name == \"4M\" and .repeats == 2 and .verified == true and .send_mb_s > 0 and .get_mb_s > 0 and .send_mb_s <= $allow and .get_mb_s <= $allow and .cache_bytes > .buffer_bytes)" "--buffer-sweep: one verified figure per buffer size, each way, under dummy_hcd's allowance"
	jq_check "$o/sweep.json" '.device.vid_pid == "1d6b:0104" and .device.left_on_device == 0' "--buffer-sweep: measured the sweep's own gadget (1d6b:0104), nothing left on it"
	jq_check "$o/sweep.json" '(.buffer_sweep | [(.[1].send_mb_s / .[0].send_mb_s), (.[1].get_mb_s / .[0].get_mb_s)] | max >= 1.2) == ([.findings[] | select(.id == "mtp.small_buffers")] | length == 1)' "--buffer-sweep: the small-buffers finding when, and only when, 256K buffers are 20 % faster"
	rc_is sweep-text 0 "--buffer-sweep, text"
	if [ "$(cat "$o/sweep-gadgets.txt")" = "mtp
other" ] && [ "$(cat "$o/sweep-daemons.txt")" = 0 ] && [ ! -s "$o/sweep-run.txt" ]; then ok "$SCEN: --buffer-sweep: its gadgets, umtprd and /run/usbperf files gone, the others left"
	else bad "$SCEN: --buffer-sweep left: gadgets [$(tr '\n' ' ' <"$o/sweep-gadgets.txt")] daemons $(cat "$o/sweep-daemons.txt") run [$(tr '\n' ' ' <"$o/sweep-run.txt")]"; fi
	rc_is run-sweep 0 "run --mtp-buffers 16K,64K"
	jq_check "$o/run-sweep.json" "[.metrics[] | select(.test == \"mtp\" and .metric == \"mb_s\") | .name] | sort == [\"get 1M buf 16K\", \"get 1M buf 64K\", \"send 1M buf 16K\", \"send 1M buf 64K\"]" "run --mtp-buffers: a send and a get figure per buffer size in the record"
	jq_check "$o/run-sweep.json" '[.devices[] | select(.device == "mtp-sweep") | .vid_pid] == ["1d6b:0104"] and ([.verdicts[] | select(.device == "mtp-sweep")] | length == 1) and ([.metrics[] | select(.test == "mtp" and .metric == "mb_s")] | all(.[]; .value > 0 and (.ceiling | floor) == 53))' "run --mtp-buffers: the sweep gadget recorded with a verdict, each figure next to the bulk ceiling"
	if grep -q 'MB/s against device buffer size, 16K to 64K' "$o/sweep-report.txt" && [ "$(cat "$o/sweep-report.rc")" = 0 ] && grep -q 'Throughput against device buffer size' "$o/sweep-report.html"; then ok "$SCEN: report of run --mtp-buffers: MB/s against the device's buffer size, text and HTML"
	else bad "$SCEN: report of run --mtp-buffers: $(head -c 600 "$o/sweep-report.txt")"; fi
	rc_is sweep-dev 2 "--buffer-sweep with a DEVICE"
	says sweep-dev "builds on this machine" "--buffer-sweep with a DEVICE: one line"
	rc_is sweep-bad 2 "--buffer-sweep 1000 (not a multiple of 512)"
	says sweep-bad "multiple of 512" "--buffer-sweep 1000: one line"
	jq -r '.buffer_sweep[] | "    figure  sweep buffers \(.buffer_bytes) \(.name) send \(.send_mb_s) get \(.get_mb_s) MB/s"' "$o/sweep.json" 2>/dev/null
	rc_is ro 2 "a read-only storage"
	says ro "storage 'readonly' of device '[^']+' is read-only" "read-only: one line"
	rc_is locked 2 "a responder that shows no storage (a locked phone)"
	says locked "shows no storage.*locked" "a responder that shows no storage: one line, asks whether it is locked"
	rc_is nostorage 2 "a storage the device does not have"
	says nostorage "has no storage 'nosuch'" "no such storage: one line"
	rc_is notmtp 2 "a USB device that is not MTP (a SourceSink gadget)"
	says notmtp "is not an MTP device" "not MTP: one line"
	rc_is unplug 3 "the device disconnects mid-transfer"
	says unplug "mtp: device '[^']+': (send|get): the device disconnected" "disconnect: one line, said"
	rc_is nodev 2 "no MTP device at all"
	says nodev "no MTP device found \(on USB: " "no device: one line naming what is on USB"
	rc_is nolib 2 "the static usbperf, built without libmtp"
	says nolib "built without libmtp" "without libmtp: one line"
	# mtp-tools on the same sizes, in the same guest, for the bench
	same_store mtptools
	if [ -s "$o/mtptools.txt" ]; then
		while read -r line; do echo "    figure  $line"; done <"$o/mtptools.txt"
		ok "$SCEN: mtp-sendfile/mtp-getfile rates logged"
	else bad "$SCEN: no mtp-tools figures"; fi
}
