# Scenario mtp-sim: usbperf mtp against a second MTP responder, the lab's own
# mtp-sim (tests/lab/mtp-sim.c: another implementation of the device side than
# umtprd, which the mtp scenario measures; Debian packages no other), serving
# FunctionFS functions of six configfs gadgets on dummy_hcd (high speed).
# sim0 gets what umtprd gets (mtp_core_checks: sizes measured and verified,
# objects/s, a second session, SIGINT, no room, the storage as before after
# each). sim1..5 reproduce responders seen in the field, and the truths are:
# the files go elsewhere when usbperf's folder fails where another place does
# not, the output names where and why, every byte back is checked, nothing
# usbperf made is left (after a failed send and SIGINT too), and storage
# figures that cannot be true are flagged, never printed as facts.
MODULES="configfs dummy_hcd libcomposite usb_f_fs"

qemu_args() { :; }

# lab_mtp_usbperf, lab_mtp_sim, mtp_core_checks, same_store, MTP_ALLOW
. "$LAB_SRC/tests/lab/scenarios/mtp-core.lib"
lab_mtp_usbperf
lab_mtp_sim
LAB_BINS="$MTP_STAGE/usbperf $MTP_STAGE/gconv/gconv-modules $MTP_STAGE/gconv/UTF-16.so
	$SIM_STAGE/mtp-sim mtp-detect"

# verified JSON of a run that went somewhere: every size sent, got back equal, nothing left
sim_sizes() { # sim_sizes NAME SIZES(JSON) DESCRIPTION
	jq_check "$o/$1.json" "[.sizes[] | .size_bytes] == $2 and all(.sizes[]; .repeats == 1 and .verified == true and .send_mb_s > 0 and .get_mb_s > 0 and .send_mb_s <= $MTP_ALLOW and .get_mb_s <= $MTP_ALLOW) and .device.left_on_device == 0" "$3"
}

check() {
	local o=$1 f
	if [ "$(wc -w <"$o/detect.txt" 2>/dev/null)" = 6 ]; then ok "$SCEN: six mtp-sim gadgets enumerated ($(cat "$o/detect.txt"))"
	else bad "$SCEN: the mtp-sim gadgets did not all enumerate: '$(cat "$o/detect.txt" 2>/dev/null)'; $(tail -3 "$o/sim0.log" 2>/dev/null | tr '\n' ' ')"; fi
	if grep -q 'Model: mtp-sim' "$o/mtp-detect.txt" && grep -q 'Serial number: SIM0' "$o/mtp-detect.txt" && grep -q 'Detected object size: 64 bits' "$o/mtp-detect.txt"; then ok "$SCEN: libmtp's mtp-detect opens mtp-sim as an MTP device (64-bit object sizes from its property descriptions)"
	else bad "$SCEN: mtp-detect: $(grep -i 'error\|fail' "$o/mtp-detect.txt" 2>/dev/null | head -3 | tr '\n' ' ')"; fi

	# the same as umtprd
	mtp_core_checks sim- mtp-sim
	jq_check "$o/sim-main.json" '.device.vid_pid == "1d6b:0110" and .device.model == "mtp-sim" and .device.speed == "high" and .device.storage == "sim storage"' "mtp-sim: the device's facts from sysfs and libmtp"
	rc_is sim-ro 2 "mtp-sim: a read-only storage"
	says sim-ro "storage 'readonly' of device '[^']+' is read-only" "mtp-sim: read-only: one line"
	rc_is sim-text 0 "mtp-sim: text output"
	if grep -Eq '^  files sent to +folder$' "$o/sim-text.txt" && grep -Eq '^  handles re-read +no$' "$o/sim-text.txt" && ! grep -q ANOMALY "$o/sim-text.txt"; then ok "$SCEN: mtp-sim: text: the files went into the folder, handles as given"
	else bad "$SCEN: mtp-sim: text: $(head -c 600 "$o/sim-text.txt")"; fi

	# sim1, the field report's device: the new folder's objects cannot be read back
	rc_is q1 0 "stale-new-folder: the field report's command (--size 1M,5M --objects 10) measures"
	sim_sizes q1 '[1048576, 5242880]' "stale-new-folder: 1M and 5M sent and got back, the bytes equal, nothing left"
	jq_check "$o/q1.json" '.device.send_path == "root" and .device.send_folder == null and .device.handles_reread == false and (.device.send_path_why | test("Could not retrieve updated metadata")) and .device.folder_created == true and .objects[0].objects == 10' "stale-new-folder: the files went to the storage's root, the output says so and why (libmtp's words)"
	jq_check "$o/q1.json" '[.findings[] | select(.id == "mtp.send_path") | .message | test("the storage.s root")] == [true] and ([.warnings[] | select(test("went to the storage.s root instead"))] | length == 1)' "stale-new-folder: a finding and a warning name the path taken"
	jq_check "$o/q1.json" '.device.capacity_bytes == null and .device.free_bytes == null and .device.reported_free_bytes == 1346903730519271 and .device.reported_capacity_bytes == 270553174016 and (.device.storage_anomaly | test("1346903730519271 B free of a capacity of 270553174016 B")) and ([.findings[] | select(.id == "mtp.storage_figures" and .severity == "warn")] | length == 1)' "free space above capacity: an anomaly with the reported figures, neither printed as a fact"
	same_store q1 q1-before
	rc_is q1-text 0 "stale-new-folder: text output"
	if grep -Eq '^  files sent to +root$' "$o/q1-text.txt" && grep -Eq '^  ANOMALY +1346903730519271 B free of a capacity' "$o/q1-text.txt" && grep -Eq '^  capacity +-$' "$o/q1-text.txt" && grep -Eq '^  free +-$' "$o/q1-text.txt"; then ok "$SCEN: text: the root named, the storage figures an ANOMALY line, capacity and free '-'"
	else bad "$SCEN: text of the quirky device: $(head -c 900 "$o/q1-text.txt")"; fi
	same_store q1-text q1-before
	rc_is q1-sigint 130 "stale-new-folder: SIGINT mid-transfer, files in the root"
	jq_check "$o/q1-sigint.json" '.device.left_on_device == 0 and .device.send_path == "root" and .sizes[0].verified == true' "stale-new-folder: SIGINT after the files moved to the root: nothing left"
	same_store q1-sigint q1-before

	# sim2: handles that change when the data arrives; a capacity of 0
	rc_is q2 0 "new-handle: measures"
	sim_sizes q2 '[1048576, 5242880]' "new-handle: 1M and 5M sent and got back, the bytes equal, nothing left"
	jq_check "$o/q2.json" '.device.send_path == "folder" and .device.send_folder == "usbperf" and .device.handles_reread == true and (.device.send_path_why | test("Could not retrieve updated metadata")) and .objects[0].objects == 10 and .objects[0].list_objects_s > 0 and ([.findings[] | select(.id == "mtp.send_path") | .message | test("found every object by its name")] == [true])' "new-handle: the files stayed in the folder, each found by its name: said so"
	jq_check "$o/q2.json" '.device.capacity_bytes == null and .device.free_bytes == null and .device.reported_capacity_bytes == 0 and (.device.storage_anomaly | test("a capacity of 0 B reported")) and ([.warnings[] | select(test("whether the test fits was not checked"))] | length == 1)' "capacity 0: an anomaly; the room could not be checked, said so"
	same_store q2 q2-before

	# sim3: no new folder's objects readable, no files in the root: a folder already there
	rc_is q3 0 "stale-new-folder and no-root-files: measures"
	sim_sizes q3 '[1048576]' "existing folder: 1M sent and got back, the bytes equal, nothing left"
	jq_check "$o/q3.json" '.device.send_path == "existing-folder" and .device.send_folder == "DCIM" and .objects[0].objects == 10 and ([.warnings[] | select(test("already on the device"))] | length == 1)' "existing folder: the files went into DCIM, said so"
	same_store q3 q3-before
	if [ "$(cat "$o/q3.store" 2>/dev/null | grep -c keep.jpg)" = 1 ]; then ok "$SCEN: existing folder: the photo already there left alone"
	else bad "$SCEN: existing folder: DCIM/keep.jpg missing after the run"; fi

	# sim4: a failed send, and then every send failing
	rc_is q4 3 "fail-send: the 4th send fails after three went"
	says q4 "mtp: device '[^']+', objects: send: .*" "fail-send: one line naming the send"
	jq_check "$o/q4.json" '.device.left_on_device == 0 and .device.send_path == "folder" and (.sizes | length) == 1 and .sizes[0].verified == true' "fail-send: no other place tried (the folder had taken files), the 1M figure kept, nothing left"
	same_store q4 q4-before
	rc_is q4all 3 "fail-send: every send fails"
	says q4all "mtp: device '[^']+': send: Error 200c: PTP Store Full \\(tried in the storage's root and the folder 'DCIM' as well: the same\\)$" "fail-send: one line, the failure and every place tried"
	jq_check "$o/q4all.json" '.device.left_on_device == 0 and .sizes == [] and ([.warnings[] | select(test("no place took a file"))] | length == 1)' "fail-send everywhere: no figure, said so, nothing left on the device (partial objects deleted wherever they went)"
	same_store q4all q4-before

	# sim5: no new folder; the root takes the files
	rc_is q5 0 "no-new-folders: measures"
	sim_sizes q5 '[1048576]' "no-new-folders: 1M sent and got back, the bytes equal, nothing left"
	jq_check "$o/q5.json" '.device.send_path == "root" and .device.folder_created == false and (.device.send_path_why | test("cannot create the folder: .*Access")) and .objects[0].objects == 5' "no-new-folders: the files went to the root, the refused folder said"
	same_store q5 q5-before

	# run --mtp into a history: where each sim's files went, kept with the run
	jq_check "$o/run.json" '[.devices[] | select(.kind == "usb-mtp") | .vid_pid] | sort == ["1d6b:0110", "1d6b:0111", "1d6b:0112", "1d6b:0113", "1d6b:0115"]' "run --mtp: sim0..3 and sim5 measured and recorded (sim4 fails every send)"
	rc_is show 0 "show last --db: the run from the history"
	for f in run show; do
		jq_check "$o/$f.json" '(.devices | map({(.device): .vid_pid}) | add) as $d | [.findings[] | select(.id == "mtp.send_path") | [$d[.subject], (.message | test("storage.s root") ), (.message | test("DCIM")), (.message | test("by its name"))]] | sort == [["1d6b:0111", true, false, false], ["1d6b:0112", false, false, true], ["1d6b:0113", false, true, false], ["1d6b:0115", true, false, false]]' "$f: where each quirky sim's files went, a finding per device (root, by name, DCIM, root)"
		jq_check "$o/$f.json" '(.devices | map({(.device): .vid_pid}) | add) as $d | [.findings[] | select(.id == "mtp.storage_figures") | $d[.subject]] | sort == ["1d6b:0111", "1d6b:0112"]' "$f: the impossible storage figures recorded as findings"
	done
	for n in 0 1 2 3 4 5; do
		if [ "$n" = 0 ]; then f=sim-store-before; else f=q$n-before; fi
		same_store run-sim$n "$f"
	done
	for n in 0 1 2 3 4 5; do
		echo "    $(cat "$o/sim$n.log" 2>/dev/null | grep '^mtp-sim: operations' | head -1) (sim$n)"
	done
	for f in q1 q2 q3; do
		jq -r '.sizes[] | "    figure  mtp-sim '"$f"' \(.name) send \(.send_mb_s) get \(.get_mb_s) MB/s"' "$o/$f.json" 2>/dev/null
	done
}
