#!/bin/bash
# Installs on a Debian mirror in mid-sync (issue 28.2), through scripts/apt.sh,
# in a throw-away apt configuration: its own sources, lists and package cache,
# downloads only; this machine's apt lists and installed packages stay as they
# are. Its sources:
#   - this machine's Debian source, for the native architecture only;
#   - an armhf source in mid-sync: a local repository (python3 http.server)
#     whose Release promises a Packages.xz of another size than it serves, as
#     the security archive's armhf index did ("File has unexpected size ...
#     Mirror sync in progress?");
#   - an armhf source nobody listens on (a closed port on 127.0.0.2).
# apt_update: exit 0, one warning line per failed index naming it, one line
# saying the update was partial. apt_install of a native package succeeds (it
# is downloaded); of an armhf one fails with apt's own E: line and one line
# naming the install.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd apt-get apt-cache dpkg xz sha256sum
PY=/usr/bin/python3
[ -x "$PY" ] || skip "needs Debian's python3 (its http.server serves the repository in mid-sync)"
src=$(cd "$(dirname "$0")/../.." && pwd)
native=$(dpkg --print-architecture)

# this machine's Debian source for its architecture, as apt-cache policy names
# it (a release's main suite rather than -security or -updates when there is one)
read -r uri suite < <(apt-cache policy | awk -v a="$native" '
	$2 ~ /^https?:/ && $3 ~ /\/main$/ && $4 == a && $5 == "Packages" {
		s = $3; sub(/\/main$/, "", s)
		if (s !~ /-/) { print $2, s; found = 1; exit }
		if (!first) first = $2 " " s
	}
	END { if (!found && first) print first }')
[ -n "${suite:-}" ] || skip "apt has no source with a main $native index"
echo "     this machine's source: $uri $suite main ($native)"

free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# the repository in mid-sync: its Release names the Packages.xz it serves with
# the size and hash of another, 100 bytes longer (a newer one, not there yet)
repo=$WORK/repo
idx=$repo/dists/sync/main/binary-armhf
mkdir -p "$idx"
printf 'Package: usbperf-sync-test\nVersion: 1\nArchitecture: armhf\nMaintainer: none <none@example.org>\nFilename: pool/none.deb\nSize: 1\nDescription: none\n' \
	>"$WORK/Packages"
xz <"$WORK/Packages" >"$idx/Packages.xz"
size=$(stat -c %s "$idx/Packages.xz")
{
	printf 'Origin: usbperf-test\nSuite: sync\nCodename: sync\nDate: %s\n' "$(date -Ru)"
	printf 'Architectures: armhf\nComponents: main\nSHA256:\n'
	printf ' %s %d main/binary-armhf/Packages\n' "$(sha256sum <"$WORK/Packages" | cut -d' ' -f1)" \
		"$(stat -c %s "$WORK/Packages")"
	printf ' %s %d main/binary-armhf/Packages.xz\n' \
		"$(head -c $((size + 100)) /dev/zero | sha256sum | cut -d' ' -f1)" $((size + 100))
} >"$repo/dists/sync/Release"
port=$(free_port)
"$PY" -m http.server --bind 127.0.0.1 --directory "$repo" "$port" >"$WORK/http.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; cleanup' EXIT
for _ in $(seq 50); do
	"$PY" -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break
	sleep 0.1
done
# bound and closed again: nobody listens there. Another address than the
# repository's: apt gives up on a host for the whole update once it failed
dead=$(free_port)

A=$WORK/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$A/parts"
chmod 755 "$WORK"	# apt fetches as _apt where it can
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
opt="arch=$native"
[ -f "$keyring" ] && opt="$opt signed-by=$keyring"
cat >"$A/sources.list" <<EOF
deb [$opt] $uri $suite main
deb [arch=armhf trusted=yes] http://127.0.0.1:$port/ sync main
deb [arch=armhf trusted=yes] http://127.0.0.2:$dead/debian $suite main
EOF
# this machine's copy of its source's lists, so that the update only checks them
mangled=$(echo "${uri#*://}" | tr '/' '_')
cp -p /var/lib/apt/lists/"${mangled}_dists_${suite}"_{InRelease,main_binary-"${native}"_Packages*} "$A/lists/" 2>/dev/null
export APT_OPTS="-o Dir::Etc::sourcelist=$A/sources.list -o Dir::Etc::sourceparts=$A/parts
	-o Dir::State::Lists=$A/lists -o Dir::Cache=$A/cache -o APT::Architectures=$native,armhf
	-o APT::Get::Download-Only=true -o Acquire::Retries=0"
. "$src/scripts/apt.sh"

# the update: a warning per failed index, then it goes on
apt_update test 2>"$WORK/update.err"
st=$?
sed 's/^/    stderr: /' "$WORK/update.err"
grep -q "warning: apt-get update: ${uri%/}/" "$WORK/update.err" && skip "this machine's mirror ($uri) cannot be reached"
check "apt_update of a partly failing update exits 0 (exit $st)" test "$st" = 0
warned() { grep -c "^test: warning: apt-get update: $1" "$WORK/update.err"; }
check "the index in mid-sync: one warning line naming it and apt's reason" \
	test "$(warned "http://127.0.0.1:$port/dists/sync/main/binary-armhf/Packages.xz .*unexpected size .*Mirror sync in progress?$")" = 1
check "the unreachable source: one warning line naming it" \
	test "$(warned "http://127.0.0.2:$dead/debian/dists/$suite/InRelease .*")" = 1
check "one line saying the update was partial" \
	test "$(grep -c '^test: warning: apt-get update was partial' "$WORK/update.err")" = 1
check "nothing else on stderr (3 lines)" test "$(wc -l <"$WORK/update.err")" = 3
# shellcheck disable=SC2086
knows() { apt-cache $APT_OPTS policy "dpkg:$native" | grep -q 'Candidate: [0-9]'; }
check "the native lists are there: apt knows the native packages" knows

# a native package: not installed here, so it is downloaded (download only)
pkg=
for p in hello sl cowsay fortune-mod; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || { pkg=$p; break; }
done
[ -n "$pkg" ] || pkg=dpkg
apt_install test "$pkg" 2>"$WORK/native.err"
st=$?
check "apt_install $pkg (native) succeeds beside the failed armhf indexes (exit $st)" test "$st" = 0
fetched() { compgen -G "$A/cache/archives/${pkg}_*.deb" >/dev/null; }
[ "$pkg" = dpkg ] || check "$pkg was downloaded into the throw-away cache" fetched
check "apt_install said nothing when it worked" test ! -s "$WORK/native.err"

# an armhf package: its index is the one that failed
apt_install test "$pkg:armhf" 2>"$WORK/armhf.err"
st=$?
sed 's/^/    stderr: /' "$WORK/armhf.err"
check "apt_install $pkg:armhf fails (exit $st)" test "$st" = 1
check "with apt's own words (an E: line naming $pkg:armhf)" grep -q "^E: .*$pkg:armhf" "$WORK/armhf.err"
check "and one last line naming the install" \
	test "$(tail -1 "$WORK/armhf.err")" = "test: apt-get install $pkg:armhf failed"

# (other work on this machine may update its lists or install meanwhile: what
# is checked is that nothing of this configuration reached them)
untouched() { ! find /var/lib/apt/lists /var/cache/apt/archives -name '127.0.0.*' -o -name "${pkg}_*" | grep -q .; }
check "nothing of the throw-away configuration in this machine's lists and cache" untouched
not_installed() { ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; }
[ "$pkg" = dpkg ] || check "$pkg was downloaded, not installed" not_installed
finish
