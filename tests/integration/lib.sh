# Shared helpers for the integration tests: sourced, not run.
# Each test runs the real binary against real kernel objects and exits
# 0 (pass), 1 (fail) or 77 (skip, with the reason on stderr).
set -u

USBPERF=${USBPERF:?set USBPERF to the usbperf binary}
TEST_NAME=$(basename "$0" .sh)
WORK=$(mktemp -d "/tmp/usbperf-it-$TEST_NAME.XXXXXX")
LOOPS=()
MOUNTS=()
CGROUPS=()
FAILS=0
CHECKS=0

cleanup() {
	local m l g
	for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	for g in "${CGROUPS[@]}"; do rmdir "$g" 2>/dev/null; done
	rm -rf "$WORK" "/dev/shm/usbperf-it-$TEST_NAME-$$".*
}
trap cleanup EXIT

skip() { echo "SKIP $TEST_NAME: $*" >&2; exit 77; }

need_root() { [ "$(id -u)" = 0 ] || skip "needs root (loop devices, cgroups)"; }

need_cmd() {
	local c
	for c in "$@"; do command -v "$c" >/dev/null || skip "needs '$c'"; done
}

# make_loop SIZE [losetup options...]: a loop device over a RAM-backed file,
# left in $LOOP (not echoed: a $(...) subshell would lose it from LOOPS)
make_loop() {
	local size=$1 img
	shift
	img=$(mktemp "/dev/shm/usbperf-it-$TEST_NAME-$$.XXXXXX")
	truncate -s "$size" "$img"
	LOOP=$(losetup -f --show "$@" "$img" 2>/dev/null) || skip "cannot create a loop device"
	LOOPS+=("$LOOP")
}

ok() { CHECKS=$((CHECKS + 1)); echo "ok   $*"; }
bad() { CHECKS=$((CHECKS + 1)); FAILS=$((FAILS + 1)); echo "FAIL $*"; }

# check DESCRIPTION COMMAND...: passes when the command succeeds
check() {
	local what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what"; fi
}

# expect_status WANT DESCRIPTION COMMAND...: run, compare the exit status
expect_status() {
	local want=$1 what=$2 got
	shift 2
	"$@" >"$WORK/out" 2>"$WORK/err"
	got=$?
	if [ "$got" = "$want" ]; then ok "$what (exit $got)"; else
		bad "$what: exit $got, wanted $want"
		sed 's/^/    stderr: /' "$WORK/err" | head -5
	fi
}

# stderr of the last expect_status is exactly one line
one_line_error() {
	local n
	n=$(wc -l <"$WORK/err")
	if [ "$n" = 1 ] && grep -q '^usbperf: ' "$WORK/err"; then ok "$1: one-line error: $(cat "$WORK/err")"
	else bad "$1: stderr has $n lines"; sed 's/^/    /' "$WORK/err" | head -5; fi
}

# jq_check FILE FILTER DESCRIPTION: the filter must yield true
jq_check() {
	if [ "$(jq -r "$2" "$1" 2>/dev/null)" = true ]; then ok "$3"; else
		bad "$3 (jq '$2' gave '$(jq -r "$2" "$1" 2>&1 | head -3 | tr '\n' ' ')')"
	fi
}

# within PCT MEASURED EXPECTED: |measured/expected - 1| <= pct/100
within() {
	awk -v p="$1" -v m="$2" -v e="$3" 'BEGIN { d = m / e - 1; if (d < 0) d = -d; exit !(d <= p / 100) }'
}

finish() {
	echo "$TEST_NAME: $((CHECKS - FAILS)) passed, $FAILS failed"
	[ "$FAILS" = 0 ]
	exit $?
}

# --- hostile input: nothing changes when usbperf refuses ---------------------

# fingerprint PATH...: one line per path, what it is and what it holds (a
# content hash for files and block devices; for a directory, every entry
# below it with its hash or link target). Never opens a FIFO or socket.
fingerprint() {
	local p
	for p in "$@"; do
		if [ -L "$p" ]; then
			echo "$p link -> $(readlink "$p")"
		elif [ -d "$p" ]; then
			echo "$p dir"
			(cd "$p" && find . -xdev -mindepth 1 | LC_ALL=C sort | while IFS= read -r f; do
				if [ -L "$f" ]; then echo "  $f link -> $(readlink "$f")"
				elif [ -f "$f" ]; then echo "  $f $(stat -c %s "$f") $(sha1sum <"$f")"
				else echo "  $f $(stat -c %F "$f")"; fi
			done)
		elif [ -f "$p" ] || [ -b "$p" ]; then
			echo "$p $(stat -Lc %F "$p") $(sha1sum <"$p")"
		elif [ -e "$p" ]; then
			echo "$p $(stat -c %F "$p")"
		else
			echo "$p absent"
		fi
	done
}

# refused STATUS DESCRIPTION PATH... -- COMMAND...: the command exits STATUS
# with exactly one line on stderr, and every PATH (file, device, directory
# tree, or a path that must stay absent) is byte for byte as before.
refused() {
	local want=$1 what=$2 paths=() before after
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do paths+=("$1"); shift; done
	shift
	before=$(fingerprint "${paths[@]}")
	expect_status "$want" "$what" "$@"
	one_line_error "$what"
	after=$(fingerprint "${paths[@]}")
	if [ "$before" = "$after" ]; then ok "$what: nothing changed"; else
		bad "$what: something changed"
		diff <(echo "$before") <(echo "$after") | head -8 | sed 's/^/    /'
	fi
}

# says PATTERN DESCRIPTION: the last command's stderr matches (grep -E)
says() {
	if grep -qE -- "$1" "$WORK/err"; then ok "$2"; else
		bad "$2: stderr does not match '$1'"; sed 's/^/    stderr: /' "$WORK/err" | head -3
	fi
}
