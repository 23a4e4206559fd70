# Scenario gadget: the kernel's software USB loop. dummy_hcd gives two UDCs
# (SuperSpeed-capable); configfs gadgets bound to them enumerate on the host
# side of the same kernel: a composite (mass storage, NCM, HID) at
# SuperSpeed, a SourceSink held to high speed for usbtest.
MODULES="configfs dummy_hcd libcomposite usb_f_mass_storage usb_f_ncm usb_f_hid usb_f_ss_lb usb_storage sd_mod cdc_ncm usbhid hid_generic usbtest"

qemu_args() { :; }

check() {
	local o=$1 L=$1/list.json S=$1/sysinfo.json
	dev() { echo ".devices[] | select(.serial == \"$1\")"; }
	# the gadget side, from sysinfo
	jq_check "$S" '[.gadgets[] | {name, udc}] == [{"name": "g1", "udc": "dummy_udc.0"}, {"name": "g2", "udc": "dummy_udc.1"}]' "gadgets bound to their UDCs"
	jq_check "$S" '[.gadget_functions[] | .function] | sort == ["SourceSink.0", "hid.0", "mass_storage.0", "ncm.usb0"]' "the four functions"
	jq_check "$S" '.gadget_functions[] | select(.function == "hid.0") | .report_length_bytes == 8 and .protocol == 1' "hid function: report length, protocol"
	jq_check "$S" '.gadget_functions[] | select(.function == "SourceSink.0") | .bulk_buflen_bytes == 4096' "SourceSink bulk_buflen"
	jq_check "$S" '[.gadget_luns[] | select(.function == "mass_storage.0") | .file] == ["/tmp/ms.img"]' "mass storage LUN backed by /tmp/ms.img"
	jq_check "$S" '[.udcs[] | {name, current_speed, maximum_speed, state}] == [{"name": "dummy_udc.0", "current_speed": "super-speed", "maximum_speed": "super-speed", "state": "configured"}, {"name": "dummy_udc.1", "current_speed": "high-speed", "maximum_speed": "super-speed", "state": "configured"}]' "UDC states and speeds"
	jq_check "$S" '[.findings[] | select(.id == "udc.speed_below_max") | .subject] == ["dummy_udc.1"]' "finding: the UDC held to high speed"
	# the host side, from list
	jq_check "$L" '[.controllers[] | .kind] | unique == ["dummy_hcd"]' "host controllers: dummy_hcd"
	jq_check "$L" "$(dev LABGADGET1) | .speed == \"super\" and .id == \"1d6b:0104\" and .product == \"lab g1\"" "g1 enumerated at SuperSpeed with its strings"
	jq_check "$L" "($(dev LABGADGET1) | .path) as \$p | [.interfaces[] | select(.device == \$p) | .driver] | sort == [\"cdc_ncm\", \"cdc_ncm\", \"usb-storage\", \"usbhid\"]" "g1 interfaces: usb-storage, cdc_ncm, usbhid"
	jq_check "$L" "$(dev LABGADGET2) | .speed == \"high\"" "g2 enumerated at high speed"
	jq_check "$L" "($(dev LABGADGET2) | .path) as \$p | [.interfaces[] | select(.device == \$p) | .driver] == [\"usbtest\"]" "g2 bound to usbtest"
	jq_check "$L" "($(dev LABGADGET1) | .path) as \$p | [.nodes[] | select(.device == \$p) | .kind] | sort == [\"disk\", \"hidraw\", \"net\"]" "g1 became a disk, a netdev and a hidraw node"
	jq_check "$L" "($(dev LABGADGET2) | .path) as \$p | .findings[] | select(.id == \"usb.speed_below_capability\" and .subject == \$p) | .fix | test(\"did not link\")" "g2 held to high speed on a SuperSpeed-capable port: the cable/link fix"
	jq_check "$o/disk-gadget.json" '.target.usb_driver == "usb-storage" and .target.usb_speed == "super" and (.target.usb_ceiling_mb_s | floor) == 484 and all(.results[]; .mb_s > 0 and .efficiency_pct > 0)' "disk on the gadget's LUN: read, ceiling and efficiency"
}
