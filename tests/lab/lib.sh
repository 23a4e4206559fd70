#!/bin/bash
# The virtual USB lab's host side: kernel, static usbperf, initramfs, QEMU.
# Sourced by tests/lab/run; every function logs to stderr and returns non-zero
# with a one-line reason when something it needs cannot be had.

LAB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=../../scripts/apt.sh
. "$LAB_SRC/scripts/apt.sh"
LAB_CACHE=${LAB_CACHE:-/var/cache/usbperf-lab}	# kernel packages, extracted trees
LAB_BUILD=${LAB_BUILD:-$LAB_SRC/build-lab}	# static usbperf, initramfs, results

lab_log() { echo "lab: $*" >&2; }
lab_die() { echo "lab: error: $*" >&2; exit 1; }

# lab_have CMD|/PATH: a program on PATH, or a file that exists (bash's
# command -v also names a file on PATH that is not executable)
lab_have() {
	local p
	case $1 in
	/*) [ -e "$1" ] ;;
	*) p=$(command -v "$1") && [ -f "$p" ] && [ -x "$p" ] ;;
	esac
}

# lab_need WHO CMD:PACKAGE...: each program (or file) the host side uses, with
# the Debian package that has it. Missing ones are installed (as root, unless
# LAB_NO_INSTALL is set); whatever is still missing gets one line naming its
# package, and lab_need returns 1.
lab_need() {
	local who=$1 t pkgs= r=0
	shift
	for t in "$@"; do
		lab_have "${t%%:*}" || pkgs="$pkgs ${t#*:}"
	done
	[ -z "$pkgs" ] && return 0
	if [ "$(id -u)" = 0 ] && [ -z "${LAB_NO_INSTALL:-}" ]; then
		lab_log "$who: installing$pkgs"
		if [ -z "${LAB_APT_UPDATED:-}" ]; then
			# a partial update (one foreign index of a mirror in mid-sync) only
			# warns: the lab needs the native architecture's packages
			apt_update lab
			LAB_APT_UPDATED=1
		fi
		# shellcheck disable=SC2086
		apt_install lab $pkgs || true	# apt's words; the line below names what is missing
	fi
	for t in "$@"; do
		lab_have "${t%%:*}" && continue
		echo "lab: $who: needs ${t%%:*}, from Debian's package ${t#*:} (not installed; scripts/install-deps --test installs it)" >&2
		r=1
	done
	return $r
}

# lab_step LOG WHAT CMD...: a host-side preparation step (its output in LOG);
# when it fails, one line: WHAT, the exit status and the step's last line
lab_step() {
	local log=$1 what=$2 st
	shift 2
	"$@" >"$log" 2>&1 && return 0
	st=$?
	lab_die "$what failed (exit $st)$(tail -1 "$log" | sed 's/^./: &/')"
}

# what every scenario needs on the host: QEMU, a static busybox for the
# guest, the initramfs and module tools, jq for the checks
LAB_HOST_TOOLS="qemu-system-x86_64:qemu-system-x86 busybox:busybox-static cpio:cpio depmod:kmod
	modprobe:kmod xz:xz-utils gzip:gzip jq:jq"

# the host's tools, and apt's lists: the kernel package is found through them
lab_install() {
	# shellcheck disable=SC2086
	lab_need lab $LAB_HOST_TOOLS || lab_die "the lab's host tools are missing (above)"
	apt-cache show linux-image-amd64 >/dev/null 2>&1 && return 0
	[ "$(id -u)" = 0 ] || lab_die "apt has no package list with linux-image-amd64 (run as root: apt-get update)"
	[ -n "${LAB_APT_UPDATED:-}" ] || apt_update lab
	apt-cache show linux-image-amd64 >/dev/null 2>&1 ||
		lab_die "apt has no package list with linux-image-amd64 (apt-get update above)"
}

# lab_scenario_tools SCENARIO: the scenario's LAB_TOOLS (a literal assignment
# of "PROGRAM:PACKAGE ...", read without running the scenario's file) through
# lab_need
lab_scenario_tools() {
	local LAB_TOOLS=
	eval "$(awk '/^LAB_TOOLS="/ { on = 1 } on { print } on && /"$/ { exit }' \
		"$LAB_SRC/tests/lab/scenarios/$1.sh")"
	# shellcheck disable=SC2086
	lab_need "$1" $LAB_TOOLS
}

# Debian's current kernel image package (what linux-image-amd64 points at),
# unpacked once into the cache; sets KVER and KROOT, writes the ELF vmlinux.
lab_kernel() {
	local pkg deb off
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
	[ -n "$pkg" ] || lab_die "cannot resolve linux-image-amd64 (apt-get update?)"
	KVER=${pkg#linux-image-}
	KROOT=$LAB_CACHE/$KVER/root
	if [ ! -f "$LAB_CACHE/$KVER/vmlinux" ]; then
		mkdir -p "$LAB_CACHE/$KVER"
		lab_log "fetching $pkg"
		(cd "$LAB_CACHE/$KVER" && apt-get download -q "$pkg" >/dev/null 2>&1) ||
			lab_die "apt-get download $pkg failed"
		deb=$(ls "$LAB_CACHE/$KVER"/"${pkg}"_*.deb | head -1)
		rm -rf "$KROOT"
		dpkg -x "$deb" "$KROOT" || lab_die "dpkg -x $deb failed"
		depmod -b "$KROOT" "$KVER" || lab_die "depmod for $KVER failed"
		# the ELF inside the bzImage boots through PVH, far faster under TCG
		off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$KROOT/boot/vmlinuz-$KVER" | head -1 | cut -d: -f1)
		[ -n "$off" ] || lab_die "no xz payload in vmlinuz-$KVER (not an xz kernel?)"
		tail -c +$((off + 1)) "$KROOT/boot/vmlinuz-$KVER" | xz -dc 2>/dev/null \
			>"$LAB_CACHE/$KVER/vmlinux.tmp"
		file "$LAB_CACHE/$KVER/vmlinux.tmp" 2>/dev/null | grep -q ELF ||
			head -c 4 "$LAB_CACHE/$KVER/vmlinux.tmp" | grep -q ELF ||
			lab_die "vmlinux extraction from vmlinuz-$KVER failed"
		mv "$LAB_CACHE/$KVER/vmlinux.tmp" "$LAB_CACHE/$KVER/vmlinux"
		rm -f "$deb"
	fi
	VMLINUX=$LAB_CACHE/$KVER/vmlinux
}

# usbperf linked statically: it runs on the guest's bare busybox root
lab_usbperf() {
	local dir=$LAB_BUILD/static
	if [ ! -f "$dir/build.ninja" ]; then
		meson setup "$dir" "$LAB_SRC" --buildtype=release -Dprefer_static=true \
			-Dc_link_args=-static >/dev/null || lab_die "meson setup (static) failed"
	fi
	ninja -C "$dir" usbperf >/dev/null || lab_die "static usbperf build failed"
	USBPERF_STATIC=$dir/usbperf
}

# lab_initramfs OUT MODULE...: busybox, usbperf, the modules with their
# dependencies (in load order, in /lab/modules.order), the guest scripts;
# reproducible: sorted names, zero mtimes, root-owned.
lab_initramfs() {
	local out=$1 root m line
	shift
	root=$(mktemp -d "$LAB_BUILD/initramfs.XXXXXX") || lab_die "cannot create a directory in $LAB_BUILD"
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,out,lab,usr/bin,lib/modules/$KVER} &&
		cp "$(command -v busybox)" "$root/bin/busybox" &&
		cp "$USBPERF_STATIC" "$root/usr/bin/usbperf" &&
		cp "$LAB_SRC/tests/lab/init" "$root/init" &&
		cp "$LAB_SRC"/tests/lab/scenarios/*.guest "$root/lab/" &&
		cp "$LAB_SRC/tests/integration/throttle.sh" "$root/lab/" ||
		{ rm -rf "$root"; lab_die "cannot stage the initramfs in $root (above)"; }
	# the guest has no C library: busybox must be the static one
	if ldd "$root/bin/busybox" >/dev/null 2>&1; then
		rm -rf "$root"
		lab_die "$(command -v busybox) is not static: install Debian's package busybox-static"
	fi
	# LAB_BINS (set by a scenario): host programs the guest runs (v4l2-ctl), with
	# the shared libraries and loader ldd names, at the same paths
	for m in ${LAB_BINS:-}; do
		m=$(command -v "$m") || { rm -rf "$root"; lab_die "LAB_BINS: '$m' not installed"; }
		for line in "$m" $(ldd "$m" 2>/dev/null | grep -o '/[^ ]*'); do	# static: none
			mkdir -p "$root$(dirname "$line")" && cp -L "$line" "$root$line" ||
				{ rm -rf "$root"; lab_die "LAB_BINS: cannot copy '$line' into the initramfs"; }
		done
	done
	chmod 755 "$root/init"
	: >"$root/lab/modules.order"
	for m in "$@"; do
		modprobe -S "$KVER" -d "$KROOT" --show-depends "$m" >"$root/lab/dep.tmp" 2>&1 ||
			{ rm -rf "$root"; lab_die "module $m: $(head -1 "$root/lab/dep.tmp")"; }
		while read -r line; do
			set -- $line
			[ "$1" = insmod ] || continue
			local rel=${2#$KROOT}
			grep -qx "$rel" "$root/lab/modules.order" && continue
			mkdir -p "$root$(dirname "$rel")"
			cp "$2" "$root$rel"
			echo "$rel" >>"$root/lab/modules.order"
		done <"$root/lab/dep.tmp"
	done
	rm -f "$root/lab/dep.tmp"
	find "$root" -exec touch -h -d @0 {} +
	(cd "$root" && find . | LC_ALL=C sort | cpio --reproducible -o -H newc -R 0:0 2>/dev/null |
		gzip -1 -n >"$out") || lab_die "cpio failed"
	rm -rf "$root"
}

# lab_boot LOG SCENARIO QEMU-ARGS...: boot, run the scenario, power off.
# The guest writes its results to the serial console between markers.
lab_boot() {
	local log=$1 scen=$2
	shift 2
	timeout "${LAB_TIMEOUT:-180}" qemu-system-x86_64 -accel "${LAB_ACCEL:-tcg,thread=multi}" -cpu max -m 768 \
		-smp 1 -nographic -no-reboot -monitor none -serial stdio -nodefaults \
		-kernel "$VMLINUX" -initrd "$LAB_BUILD/initramfs-$scen.cpio.gz" \
		-append "console=ttyS0 quiet loglevel=3 panic=-1 lab=$scen ${LAB_APPEND:-}" \
		"$@" </dev/null >"$log" 2>&1
}

# lab_drive_meter ID: the -drive options that meter drive ID's reads, from LAB_METER
# ("ID=BYTES_PER_S ..."; QEMU's throttling.bps-read): a disk as slow as a real one
# instead of reading at memory speed. Nothing when LAB_METER does not name ID (the
# default: no scenario meters a drive unless a bench asks).
lab_drive_meter() {
	local w
	for w in ${LAB_METER:-}; do
		[ "${w%%=*}" = "$1" ] && echo ",throttling.bps-read=${w#*=}"
	done
}

# lab_extract LOG DIR: the files the guest printed (base64 between markers)
lab_extract() {
	local log=$1 dir=$2
	mkdir -p "$dir"
	tr -d '\r' <"$log" | awk -v dir="$dir" '
		/^@@FILE / { f = dir "/" $2; cmd = "base64 -d > \"" f "\""; on = 1; next }
		/^@@END/ { if (on) close(cmd); on = 0; next }
		on && /^[A-Za-z0-9+\/=]+$/ { print | cmd }'
}
