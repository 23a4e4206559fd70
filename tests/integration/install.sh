#!/bin/bash
# 'meson install' puts the binary, the man pages and the bash completion where
# a packaged tool has them (issue 13.4): DESTDIR=... meson install into a
# scratch root, then the installed files are checked and used.
. "$(dirname "$0")/lib.sh"
need_cmd meson jq

# the build directory the binary under test came from
BUILD=${MESON_BUILD_ROOT:-$(dirname "$USBPERF")}
[ -f "$BUILD/build.ninja" ] || skip "'$BUILD' is not a Meson build directory"
opt() { meson introspect "$BUILD" --buildoptions | jq -r --arg n "$1" '.[] | select(.name == $n) | .value'; }
prefix=$(opt prefix) bindir=$(opt bindir) mandir=$(opt mandir) datadir=$(opt datadir)
echo "prefix $prefix, bindir $bindir, mandir $mandir, datadir $datadir"

# 13.4: DESTDIR install, nothing rebuilt
DEST=$WORK/root
expect_status 0 "DESTDIR=... meson install" env DESTDIR="$DEST" meson install -C "$BUILD" --no-rebuild --quiet
root=$DEST$prefix
bin=$root/$bindir/usbperf man=$root/$mandir/man1/usbperf.1
comp=$root/$datadir/bash-completion/completions/usbperf

# 13.4: the standard places, and nothing else installed (no test programs)
check "defaults: bin, share/man, share" test "$bindir $mandir $datadir" = "bin share/man share"
# a page per command beside usbperf(1): usbperf-CMD.1 for each command of 'usbperf help'
cmdpages=$("$USBPERF" help | awk -v d="$root/$mandir/man1" '/^commands:/ { on = 1; next }
	on && /^  [a-z]/ { print d "/usbperf-" $1 ".1" } on && /^$/ { exit }')
want=$(printf '%s\n' "$bin" "$man" "$comp" $cmdpages | sort)
got=$(find "$DEST" -type f -o -type l | sort)
if [ "$want" = "$got" ]; then ok "installed exactly: $(echo ${got//$DEST/})"
else bad "installed files differ"; diff <(echo "$want") <(echo "$got") | sed 's/^/    /'; fi

# 13.4: each one works from where it was installed
check "the binary is executable" test -x "$bin"
expect_status 0 "installed binary runs" "$bin" version
check "installed binary is this build's" cmp -s "$WORK/out" <("$USBPERF" version)
ver=$(awk '{print $2}' "$WORK/out")
check "man page carries the version ($ver)" grep -q "^\.TH USBPERF 1 .*\"usbperf $ver\"" "$man"
if command -v man >/dev/null; then
	man --warnings -l "$man" >"$WORK/man.txt" 2>"$WORK/man.err"
	check "man -l renders the installed page without a warning" test ! -s "$WORK/man.err" -a -s "$WORK/man.txt"
	check "what man shows is usbperf(1)" grep -q '^USBPERF(1)' "$WORK/man.txt"
	# man finds it by name below the installed prefix, as it would in /usr/local
	MANPATH=$root/$mandir man -w usbperf >"$WORK/manw" 2>&1
	check "man -w usbperf finds it in MANPATH ($(cat "$WORK/manw"))" test "$(cat "$WORK/manw")" = "$man"
	MANPATH=$root/$mandir man -w usbperf-disk >"$WORK/manw" 2>&1
	check "man -w usbperf-disk finds the command's own page" \
		test "$(cat "$WORK/manw")" = "$root/$mandir/man1/usbperf-disk.1"
fi
check "completion is the source file" cmp -s "$comp" "$(dirname "$0")/../../contrib/bash-completion/usbperf"
got=$(env -i PATH="$root/$bindir:/usr/bin:/bin" bash --norc --noprofile -c '
	. "$1"; COMP_WORDS=(usbperf lim); COMP_CWORD=1; _usbperf; echo "${COMPREPLY[@]}"' c "$comp")
check "installed completion completes with the installed binary ($got)" test "$got" = limits

finish
