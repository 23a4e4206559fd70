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
	stop_hogs
	pg_stop
	for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null; done
	for l in "${LOOPS[@]}"; do losetup -d "$l" 2>/dev/null; done
	for g in "${CGROUPS[@]}"; do rmdir "$g" 2>/dev/null; done
	[ -z "${IO_ENABLED:-}" ] || echo -io >"$IO_ENABLED" 2>/dev/null
	rm -rf "$WORK" "/dev/shm/usbperf-it-$TEST_NAME-$$".*
}
trap cleanup EXIT
# a signal ends the test through its EXIT trap: the hogs, loops and cgroups go too
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# skip WHAT-IS-MISSING: exit 77, unless a check already failed (then the test
# failed: a skip must not hide it) or no reason is given
skip() {
	if [ $# = 0 ] || [ -z "$*" ]; then
		echo "FAIL $TEST_NAME: skipped without saying what is missing" >&2
		exit 1
	fi
	if [ "$FAILS" != 0 ]; then
		echo "FAIL $TEST_NAME: $FAILS of $CHECKS checks failed before it skipped ($*)" >&2
		exit 1
	fi
	if [ "$CHECKS" = 0 ]; then echo "SKIP $TEST_NAME: $*" >&2
	else echo "SKIP $TEST_NAME: $* (after $CHECKS checks passed)" >&2; fi
	exit 77
}

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

# the end of a test: it passed only when it checked something and nothing failed
finish() {
	echo "$TEST_NAME: $((CHECKS - FAILS)) passed, $FAILS failed"
	if [ "$CHECKS" = 0 ]; then
		echo "FAIL $TEST_NAME: no check was made" >&2
		exit 1
	fi
	[ "$FAILS" = 0 ]
	exit $?
}

# --- CPU hogs: the machine a CI worker or a farm host is -----------------------

HOGS=()
# start_hogs N: N processes that each keep a CPU busy in user space until
# stop_hogs or the test's end (and, should the test be killed, 15 minutes)
start_hogs() {
	local i
	for ((i = 0; i < $1; i++)); do
		timeout -s KILL 900 sh -c 'while :; do :; done' &
		HOGS+=($!)
	done
}
stop_hogs() {
	[ ${#HOGS[@]} = 0 ] && return 0
	kill "${HOGS[@]}" 2>/dev/null
	wait "${HOGS[@]}" 2>/dev/null
	HOGS=()
}

# --- a throttled block device: cgroup v1 blkio, or cgroup v2 io.max -----------
# (throttle.sh: throttle DEV READ_MIB WRITE_MIB, throttled COMMAND...)
. "$(dirname "${BASH_SOURCE[0]}")/throttle.sh"
THROTTLE=${THROTTLE:-${USBPERF_THROTTLE:-}}

# throttle_group: the test's throttle cgroup, removed at its end; skips,
# naming what is missing, on a machine that has neither v1 blkio nor v2 io
throttle_group() {
	throttle_setup "usbperf-it-$TEST_NAME-$$" || skip "$THROTTLE_WHY"
	CGROUPS+=("$THROTTLE_GROUP")
	IO_ENABLED=$THROTTLE_IO_ENABLED
	echo "throttling with cgroup $THROTTLE_KIND: $THROTTLE_GROUP"
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

# --- a PostgreSQL server of the test's own (Debian's postgresql-15) -----------
# pg_start: initdb into a temporary directory (owned by the postgres user:
# the server refuses to run as root), the server on a unix socket there and
# no TCP; PG_SOCK its directory, PG_SU a superuser's URI for psql. Skips,
# naming the package, where it is not installed.
PG_DIR= PG_SOCK= PG_SU=
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
pg_start() {
	[ -x "$PG_BIN/initdb" ] || skip "no PostgreSQL server (Debian's postgresql-15)"
	id postgres >/dev/null 2>&1 || skip "no 'postgres' user (Debian's postgresql-15 makes it)"
	need_cmd psql
	PG_DIR=$(mktemp -d /tmp/usbperf-pg-$TEST_NAME.XXXXXX)
	chown postgres: "$PG_DIR"
	PG_SOCK=$PG_DIR/sock
	runuser -u postgres -- mkdir "$PG_SOCK"
	runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DIR/data" -U usbperf -A trust -E UTF8 \
		--locale=C.UTF-8 --no-sync >"$PG_DIR/initdb.log" 2>&1 ||
		{ bad "initdb failed: $(tail -1 "$PG_DIR/initdb.log")"; return 1; }
	pg_ctl_start
	PG_SU="postgresql:///postgres?host=$PG_SOCK&user=usbperf"
}
pg_ctl_start() {
	runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
		-o "-k $PG_SOCK -c listen_addresses='' -c fsync=off -c max_connections=40" start >/dev/null ||
		{ bad "the PostgreSQL server did not start: $(tail -2 "$PG_DIR/server.log")"; return 1; }
}
pg_ctl_stop() { # pg_ctl_stop [MODE]: fast by default, immediate for a crash
	runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -w -t 30 -m "${1:-fast}" stop >/dev/null 2>&1
}
pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	pg_ctl_stop immediate
	rm -rf "$PG_DIR"
	PG_DIR=
}
# psql_su SQL...: as the superuser, on database postgres unless PGDATABASE says another
psql_su() { psql -X -q -v ON_ERROR_STOP=1 "postgresql:///${PGDATABASE:-postgres}?host=$PG_SOCK&user=usbperf" "$@"; }
