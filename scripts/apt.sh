# shellcheck shell=sh
# Sourced (POSIX sh, also under set -e) by scripts/install-deps, scripts/cross-sysroot and
# tests/lab/lib.sh: apt-get as a Debian mirror in mid-sync needs it.
# `apt-get update` fails when any one index fails to download ("File has
# unexpected size ... Mirror sync in progress?"), also an index of an
# architecture the install does not need, and apt then keeps the lists it had;
# an unreachable source only warns (exit 0). Either way each failed index is a
# warning line naming it, and only what comes next decides: an install or a
# download fails with apt's own words.
#
#   apt_update PROG          one warning (stderr) per index that failed; returns 0
#   apt_install PROG PKG...  install; on failure print apt's words, return 1
#   apt_in PROG DIR ARG...   apt-get ARG... in DIR (download, source
#                            --download-only); on failure apt's words, return 1
#
# APT_OPTS, when set, is given to every apt-get (word-split): a configuration of
# its own (-o Dir::State::Lists=... -o Dir::Etc::sourcelist=...), which leaves
# this machine's lists and package cache as they were.

apt_update() { # apt_update PROG
	_apt_log=$(mktemp) || return 1
	_apt_st=0
	# shellcheck disable=SC2086
	apt-get ${APT_OPTS:-} update -q >"$_apt_log" 2>&1 || _apt_st=$?
	# "E: Failed to fetch URL  REASON" (a bad index), "W: Failed to fetch ..."
	# (a source that cannot be reached): one warning line per index
	_apt_n=0
	while IFS= read -r _apt_line; do
		case "$_apt_line" in
		[EW]": Failed to fetch "*)
			_apt_n=$((_apt_n + 1))
			_apt_line=${_apt_line#?: Failed to fetch }
			echo "$1: warning: apt-get update: ${_apt_line%% \[IP:*}" >&2
			;;
		esac
	done <"$_apt_log"
	if [ "$_apt_n" = 0 ] && [ "$_apt_st" != 0 ]; then
		grep -E '^(E|W|Err):' "$_apt_log" | head -5 | sed "s/^/$1: warning: apt-get update: /" >&2
	fi
	if [ "$_apt_n" != 0 ] || [ "$_apt_st" != 0 ]; then
		echo "$1: warning: apt-get update was partial; going on with the package lists apt has" >&2
	fi
	rm -f "$_apt_log"
	return 0
}

# apt_words PROG LOG WHAT: apt's own words from LOG (its E: lines and the unmet
# dependencies above them, else its last lines), then one line saying WHAT failed
apt_words() {
	if grep -qE '^(E:| [^ ].* : Depends:)' "$2"; then
		grep -E '^(E:| +[^ ].*: Depends:| +Depends:)' "$2" | head -20 >&2
	else
		tail -20 "$2" >&2
	fi
	echo "$1: $3 failed" >&2
}

apt_install() { # apt_install PROG PKG...
	_apt_prog=$1
	shift
	_apt_log=$(mktemp) || return 1
	# shellcheck disable=SC2086
	if DEBIAN_FRONTEND=noninteractive apt-get ${APT_OPTS:-} install -y -q --no-install-recommends "$@" \
		>"$_apt_log" 2>&1; then
		rm -f "$_apt_log"
		return 0
	fi
	apt_words "$_apt_prog" "$_apt_log" "apt-get install$(printf ' %s' "$@")"
	rm -f "$_apt_log"
	return 1
}

apt_in() { # apt_in PROG DIR ARG...
	_apt_prog=$1 _apt_dir=$2
	shift 2
	_apt_log=$(mktemp) || return 1
	# apt fetches as the user _apt where it can: let it write into DIR
	if id _apt >/dev/null 2>&1; then chown _apt "$_apt_dir" 2>/dev/null || :; fi
	# shellcheck disable=SC2086
	if (cd "$_apt_dir" && apt-get ${APT_OPTS:-} -q "$@") >"$_apt_log" 2>&1; then
		rm -f "$_apt_log"
		return 0
	fi
	apt_words "$_apt_prog" "$_apt_log" "apt-get$(printf ' %s' "$@")"
	rm -f "$_apt_log"
	return 1
}
