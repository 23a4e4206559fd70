# Sourced (POSIX sh) by scripts/install-deps and tests/lab/lib.sh: apt-get as
# a Debian mirror in mid-sync needs it. `apt-get update` exits non-zero when
# any one index fails to download ("File has unexpected size ... Mirror sync in
# progress?"), also an index of an architecture the install does not need; apt
# then keeps the lists it had. So a failed update is a warning naming what
# failed, and only the install decides: it fails with apt's own words.
#
#   apt_update PROG          warn (on stderr) for each index that failed
#   apt_install PROG PKG...  install; on failure print apt's E: lines, return 1

apt_update() { # apt_update PROG
	_apt_log=$(mktemp) || return 1
	if apt-get update -q >"$_apt_log" 2>&1; then
		rm -f "$_apt_log"
		return 0
	fi
	# "E: Failed to fetch URL  REASON": one warning line per index
	_apt_n=0
	while IFS= read -r _apt_line; do
		case "$_apt_line" in
		"E: Failed to fetch "*)
			_apt_n=$((_apt_n + 1))
			_apt_line=${_apt_line#E: Failed to fetch }
			echo "$1: warning: apt-get update: ${_apt_line%% \[IP:*}" >&2
			;;
		esac
	done <"$_apt_log"
	if [ "$_apt_n" = 0 ]; then
		grep -E '^(E|W|Err):' "$_apt_log" | head -5 | sed "s/^/$1: warning: apt-get update: /" >&2
	fi
	echo "$1: warning: apt-get update was partial; going on with the package lists apt has" >&2
	rm -f "$_apt_log"
	return 0
}

apt_install() { # apt_install PROG PKG...
	_apt_prog=$1
	shift
	_apt_log=$(mktemp) || return 1
	if DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
		>"$_apt_log" 2>&1; then
		rm -f "$_apt_log"
		return 0
	fi
	# apt's own words: the E: lines and the unmet dependencies above them
	if grep -qE '^(E:| [^ ].* : Depends:)' "$_apt_log"; then
		grep -E '^(E:| +[^ ].*: Depends:| +Depends:)' "$_apt_log" | head -20 >&2
	else
		tail -20 "$_apt_log" >&2
	fi
	echo "$_apt_prog: apt-get install failed:$(printf ' %s' "$@")" >&2
	rm -f "$_apt_log"
	return 1
}

# apt_ma_skew PROG ARCH...: one line for each Multi-Arch "same" library whose
# candidate for a foreign architecture differs from the native one (a mirror
# whose arm64/armhf lists lag the amd64 ones): such a pair cannot be installed.
apt_ma_skew() { # apt_ma_skew PROG ARCH...
	_apt_prog=$1
	shift
	_apt_native=$(dpkg --print-architecture)
	_apt_found=1
	for _apt_p in libc6 libc6-dev linux-libc-dev zlib1g zlib1g-dev libssl3 libgcc-s1 libstdc++6 \
		libudev1 libusb-1.0-0 libjson-c5 libsqlite3-0 liburing2 libcmocka0; do
		_apt_nv=$(apt-cache policy "$_apt_p:$_apt_native" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')
		[ -n "$_apt_nv" ] && [ "$_apt_nv" != "(none)" ] || continue
		for _apt_a in "$@"; do
			_apt_fv=$(apt-cache policy "$_apt_p:$_apt_a" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')
			[ -n "$_apt_fv" ] && [ "$_apt_fv" != "(none)" ] || continue
			if [ "$_apt_fv" != "$_apt_nv" ]; then
				echo "$_apt_prog: $_apt_p is $_apt_nv for $_apt_native but $_apt_fv for $_apt_a (the mirror's $_apt_a lists lag): Multi-Arch \"same\" packages must match" >&2
				_apt_found=0
			fi
		done
	done
	return $_apt_found
}
