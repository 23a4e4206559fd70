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
# The lab's usbperf is static and Debian has no libmtp.a, so that build has
# no mtp: this scenario builds a dynamic usbperf with libmtp in
# $LAB_BUILD/mtp and hands it to the guest through LAB_BINS (staged in the
# lab cache, not under /tmp, which the guest covers with a tmpfs), which copies
# it with the shared libraries ldd names at the same path; the guest finds it
# there (mtp_usbperf in mtp.guest).
MODULES="configfs dummy_hcd libcomposite usb_f_fs usb_f_ss_lb"

qemu_args() { :; }

lab_mtp_usbperf() {
	local dir=$LAB_BUILD/mtp
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$LAB_SRC" --buildtype=release -Dmtp=enabled -Dtests=disabled \
			>/dev/null || lab_die "meson setup (mtp, dynamic) failed"
	fi
	ninja -C "$dir" usbperf >/dev/null || lab_die "dynamic usbperf (mtp) build failed"
	# libmtp converts its strings with iconv (UTF-8 <-> UTF-16LE), which glibc loads
	# from a gconv module that ldd does not name: the module and its line of
	# gconv-modules, beside the binary (LAB_BINS copies executables), for GCONV_PATH
	local gc=/usr/lib/x86_64-linux-gnu/gconv
	mkdir -p "$dir/gconv"
	grep -E '^(alias|module)[[:space:]].*UTF-?16' "$gc/gconv-modules" >"$dir/gconv/gconv-modules" ||
		lab_die "no UTF-16 in $gc/gconv-modules"
	cp "$gc/UTF-16.so" "$dir/gconv/" || lab_die "no $gc/UTF-16.so"
	chmod 755 "$dir/gconv/gconv-modules" "$dir/gconv/UTF-16.so"
	# LAB_BINS puts files at their host path, and the guest mounts a tmpfs on /tmp:
	# a clone under /tmp (CI's) would hide them. Staged in the lab cache instead.
	MTP_STAGE=$LAB_CACHE/mtp
	rm -rf "$MTP_STAGE"
	mkdir -p "$MTP_STAGE/gconv"
	cp "$dir/usbperf" "$MTP_STAGE/" && cp "$dir/gconv/gconv-modules" "$dir/gconv/UTF-16.so" \
		"$MTP_STAGE/gconv/" || lab_die "cannot stage the mtp usbperf in $MTP_STAGE"
}
lab_mtp_usbperf
LAB_BINS="$MTP_STAGE/usbperf $MTP_STAGE/gconv/gconv-modules $MTP_STAGE/gconv/UTF-16.so
	umtprd mtp-sendfile mtp-getfile mtp-delfile mtp-detect mtp-folders"

# dummy_hcd's allowance, as the bulk scenario derives it from dummy_timer()
eval "$(grep -E '^DUMMY_(HS_BYTES|SS_BYTES|ROUNDS)=' "$LAB_SRC/tests/lab/scenarios/bulk.sh")"

check() {
	local o=$1 allow
	allow=$(awk "BEGIN { print $DUMMY_HS_BYTES * $DUMMY_ROUNDS / 1e6 }")
	same_store() { # same_store NAME: the storage dir as before
		if [ -f "$o/store-before.txt" ] && cmp -s "$o/store-before.txt" "$o/$1.store"; then
			ok "$SCEN: $1: the device's storage holds what it held before ($(wc -l <"$o/store-before.txt") entries)"
		else bad "$SCEN: $1: the storage differs: $(diff "$o/store-before.txt" "$o/$1.store" 2>&1 | head -5 | tr '\n' ' ')"; fi
	}
	if grep -q . "$o/detect.txt" 2>/dev/null; then ok "$SCEN: the MTP gadget enumerated ($(cat "$o/detect.txt"))"
	else bad "$SCEN: the MTP gadget did not enumerate; umtprd: $(tail -3 "$o/umtprd.log" 2>/dev/null | tr '\n' ' ')"; fi
	rc_is main 0 "send/get 1M and 16M twice each, 50 objects"
	jq_check "$o/main.json" '.device.vid_pid == "1d6b:0100" and .device.speed == "high" and .device.driver == "none" and .device.manufacturer == "usbperf-lab" and (.device.bulk_ceiling_mb_s | floor) == 53' "main: the device's facts from sysfs and libmtp, next to the high-speed bulk ceiling"
	jq_check "$o/main.json" '[.sizes[] | .size_bytes] == [1048576, 16777216] and all(.sizes[]; .repeats == 2 and .verified == true)' "main: each size sent and got back twice, the bytes back equal to the bytes sent"
	jq_check "$o/main.json" "all(.sizes[]; .send_mb_s > 0 and .get_mb_s > 0 and .send_mb_s_max <= $allow and .get_mb_s_max <= $allow and .send_mb_s_min <= .send_mb_s and .send_mb_s <= .send_mb_s_max)" "main: rates > 0, under dummy_hcd's $allow MB/s, min <= mean <= max"
	# the bytes over the mean time: the repeats' harmonic mean, between the slowest repeat and the mean
	jq_check "$o/main.json" 'all(.sizes[]; (.size_bytes / .send_seconds / 1e6) as $h | $h >= .send_mb_s_min * 0.999 and $h <= .send_mb_s * 1.001 and (.size_bytes / .get_seconds / 1e6) as $g | $g >= .get_mb_s_min * 0.999 and $g <= .get_mb_s * 1.001)' "main: a rate is the bytes over the time"
	jq_check "$o/main.json" '.objects[0].objects == 50 and .objects[0].send_objects_s > 0 and .objects[0].list_objects_s > 0 and .objects[0].delete_objects_s > 0' "main: 50 objects sent, listed, deleted: objects/s each"
	jq_check "$o/main.json" '.device.left_on_device == 0 and .device.folder_created == true' "main: the folder made and removed, nothing left"
	same_store main
	rc_is again 0 "a second session right after, --folder other, 5 objects"
	jq_check "$o/again.json" '.device.folder == "other" and .device.folder_created == true and .device.left_on_device == 0 and .sizes[0].verified == true and .objects[0].objects == 5' "again: the folder made and removed, the bytes back equal"
	same_store again
	rc_is text 0 "text output"
	if grep -q "^files sent and got back (MB/s = 10^6 B/s)" "$o/text.txt" && grep -q "driver *none" "$o/text.txt"; then ok "$SCEN: text: the device and the sizes table"
	else bad "$SCEN: text output: $(head -c 400 "$o/text.txt")"; fi
	rc_is sigint 130 "SIGINT mid-transfer"
	jq_check "$o/sigint.json" '.device.left_on_device == 0' "SIGINT: the file in flight finished, then deleted: nothing left"
	same_store sigint
	# run --mtp: the MTP class of the main job
	rc_is run 0 "run --mtp"
	jq_check "$o/run.json" '[.plan[] | select(.kind == "usb-mtp") | .target] | length == 1' "run --mtp: the MTP device planned"
	jq_check "$o/run.json" "[.metrics[] | select(.test == \"mtp\" and .metric == \"mb_s\")] | (map(.name) | sort) == [\"get 1M\", \"get 4M\", \"send 1M\", \"send 4M\"] and all(.[]; .unit == \"MB/s\" and .value > 0 and .value <= $allow and .repeats == 2 and (.ceiling | floor) == 53)" "run --mtp --full --size 4M: send and get of 1M and 4M files, twice each, next to the high-speed bulk ceiling, under dummy_hcd's allowance"
	if [ "$(cat "$o/run-report.rc")" = 0 ] && grep -q 'MB/s against file size, 1M to 4M' "$o/run-report.txt" && grep -Eq '^ +send +.* best .* MB/s at [14]M$' "$o/run-report.txt"; then ok "$SCEN: report of run --mtp --full: MB/s against the file size, send and get"
	else bad "$SCEN: report of run --mtp --full: $(head -c 600 "$o/run-report.txt")"; fi
	jq_check "$o/run.json" '[.devices[] | select(.kind == "usb-mtp") | .vid_pid] == ["1d6b:0100"] and ((.devices[] | select(.kind == "usb-mtp") | .device) as $k | [.verdicts[] | select(.device == $k)] | length == 1)' "run --mtp: the device recorded, with a verdict"
	jq_check "$o/run.json" '(.devices[] | select(.kind == "usb-mtp") | .device) as $k | .verdicts[] | select(.device == $k) | (.limiter == (if .share_pct >= 90 then "bus" else "device" end)) and (.evidence | test("the slower way"))' "run --mtp: the verdict holds the slower way against the bulk ceiling"
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
	rc_is nospace 2 "a file larger than the storage's free space"
	says nospace "has [0-9]+ MiB free, the test needs [0-9]+ MiB" "no space: one line, before starting"
	same_store nospace
	rc_is ro 2 "a read-only storage"
	says ro "storage 'readonly' of device '[^']+' is read-only" "read-only: one line"
	rc_is locked 2 "a responder that shows no storage (a locked phone)"
	says locked "shows no storage.*locked" "a responder that shows no storage: one line, asks whether it is locked"
	rc_is nostorage 2 "a storage the device does not have"
	says nostorage "has no storage 'nosuch'" "no such storage: one line"
	rc_is notmtp 2 "a USB device that is not MTP (a SourceSink gadget)"
	says notmtp "is not an MTP device" "not MTP: one line"
	rc_is unplug 3 "the device disconnects mid-transfer"
	says unplug "mtp: device '[^']+': send: the device disconnected" "disconnect: one line, said"
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
	jq -r '.sizes[] | "    figure  usbperf \(.name) send \(.send_mb_s) get \(.get_mb_s) MB/s"' "$o/main.json" 2>/dev/null
}
