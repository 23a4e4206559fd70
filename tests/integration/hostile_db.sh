#!/bin/bash
# Hostile history databases (issue 12): one open with explicit modes for every
# command. Read-only commands never create, migrate or write a byte (and leave
# no -wal/-shm beside the file), read a database on a read-only mount or
# without write permission, refuse what is not a regular file; one status and
# one message for a database that cannot be read; 'last' everywhere a run is
# named; no output written over one of the inputs.
. "$(dirname "$0")/lib.sh"
need_cmd jq sqlite3

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
A=20261130T051200Z-3f2a
B1=20261201T051500Z-77c1
B2=20261205T060200Z-9e04
D="$WORK/d"
DB="$D/h.db"
mkdir "$D"
"$USBPERF" import "$FIXTURES/runs-a.json" --db "$DB" >/dev/null &&
	"$USBPERF" import "$FIXTURES/runs-b.json" --db "$DB" >/dev/null &&
	"$USBPERF" baseline ref "$A" --db "$DB" >/dev/null ||
	{ bad "import the fixtures"; finish; }
cat >"$WORK/crit.json" <<'J'
{"usbperf_criteria": 1,
 "criteria": [{"device": "0781:5583", "test": "disk", "name": "seq-read 1M", "metric": "mb_s", "min": 1}]}
J
"$USBPERF" export "$A" --db "$DB" -o "$WORK/run.json" || bad "export run.json"

# reads DESCRIPTION DIR -- COMMAND...: exits 0 and DIR is byte for byte as before
reads() {
	local what=$1 dir=$2 before after
	shift 3
	before=$(fingerprint "$dir")
	expect_status 0 "$what" "$@"
	after=$(fingerprint "$dir")
	if [ "$before" = "$after" ]; then ok "$what: nothing written, no -wal/-shm left"; else
		bad "$what: the directory changed"
		diff <(echo "$before") <(echo "$after") | head -8 | sed 's/^/    /'
	fi
}

# every command that only reads the history, given a database in $1
read_commands() {
	local db=$1
	echo "history --db $db"
	echo "history --check --db $db"
	echo "show $A --db $db"
	echo "compare $A $B1 --db $db"
	echo "export --db $db"
	echo "baseline --db $db"
	echo "check last --criteria $WORK/crit.json --db $db"
	echo "report last --db $db"
}

# ---- 12.5: read-only commands never create, migrate or write ----
for c in $(read_commands "$DB" | tr ' ' '@'); do
	c=${c//@/ }
	# shellcheck disable=SC2086
	reads "12.5: $c leaves the history as it was" "$D" -- "$USBPERF" $c
done
reads "12.5: history --check -F json" "$D" -- "$USBPERF" history --check --db "$DB" -F json
jq_check "$WORK/out" '.database.journal_mode == "wal" and .database.ok' \
	"12.5: read without writing, still says the journal is WAL"
mkdir "$WORK/z"
: >"$WORK/z/z.db"
for c in $(read_commands "$WORK/z/z.db" | tr ' ' '@'); do
	c=${c//@/ }
	# shellcheck disable=SC2086
	refused 2 "12.5: $c on an empty file" "$WORK/z" -- "$USBPERF" $c
	says "'$WORK/z/z.db' is not a usbperf history database" "12.5: $c: says so"
done
for c in "history" "show last" "baseline"; do
	# shellcheck disable=SC2086
	refused 2 "12.5: $c on a missing file" "$WORK/z" -- "$USBPERF" $c --db "$WORK/z/none.db"
done
# 12.5: an older schema is read as it is (migrated in memory, never on disk)
mkdir "$WORK/old"
cp "$DB" "$WORK/old/v1.db"
sqlite3 "$WORK/old/v1.db" "ALTER TABLE devices DROP COLUMN capable_speed;
	ALTER TABLE devices DROP COLUMN controller; ALTER TABLE devices DROP COLUMN via;
	DROP TABLE verdicts; DROP TABLE notes; DROP TABLE unmeasured;
	ALTER TABLE findings DROP COLUMN about;
	ALTER TABLE metrics DROP COLUMN sample_mean; ALTER TABLE metrics DROP COLUMN sample_stdev;
	ALTER TABLE metrics DROP COLUMN sample_min; ALTER TABLE metrics DROP COLUMN samples;
		ALTER TABLE metrics DROP COLUMN cpu_pressure_pct; ALTER TABLE metrics DROP COLUMN cpu_busy_pct;
		ALTER TABLE metrics DROP COLUMN ceiling; ALTER TABLE metrics DROP COLUMN pass_spread;
		ALTER TABLE metrics DROP COLUMN cpu_wait_pct; ALTER TABLE metrics DROP COLUMN cpu_io_pct;
		ALTER TABLE runs DROP COLUMN machine;
	DELETE FROM migrations WHERE version >= 2; PRAGMA user_version = 1;" ||
	bad "make a version 1 history"
reads "12.5: history on a version 1 history" "$WORK/old" -- "$USBPERF" history --db "$WORK/old/v1.db" -F json
jq_check "$WORK/out" '(.runs | length) == 3' "12.5: version 1: its three runs"
reads "12.5: show on a version 1 history" "$WORK/old" -- "$USBPERF" show "$A" --db "$WORK/old/v1.db"

# ---- 12.12: one status and one message for a database that cannot be read ----
mkdir "$WORK/bad"
cp "$FIXTURES/runs-a.json" "$WORK/bad/text.db"
sqlite3 "$WORK/bad/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (1);"
for f in text other; do
	for c in $(read_commands "$WORK/bad/$f.db" | tr ' ' '@'); do
		c=${c//@/ }
		# shellcheck disable=SC2086
		refused 2 "12.12: $c ($f)" "$WORK/bad" -- "$USBPERF" $c
		says "^usbperf: '$WORK/bad/$f.db' is not a usbperf history database$" "12.12: $c ($f): says so"
	done
done
refused 2 "12.12: import into a file that is not a history" "$WORK/bad" -- \
	"$USBPERF" import "$FIXTURES/runs-a.json" --db "$WORK/bad/text.db"
# damaged: every page but the first zeroed
mkdir "$WORK/dmg"
cp "$DB" "$WORK/dmg/h.db"
pages=$(($(stat -c %s "$DB") / 4096))
dd if=/dev/zero of="$WORK/dmg/h.db" bs=4096 seek=2 count=$((pages - 2)) conv=notrunc 2>/dev/null
for c in $(read_commands "$WORK/dmg/h.db" | tr ' ' '@'); do
	c=${c//@/ }
	case $c in history\ --check*) continue ;; esac # it reports the damage: exit 1
	# shellcheck disable=SC2086
	refused 3 "12.12: $c (damaged)" "$WORK/dmg" -- "$USBPERF" $c
	says "^usbperf: cannot read the history '$WORK/dmg/h.db': database disk image is malformed$" \
		"12.12: $c (damaged): says so"
done

# ---- 12.13: read-only mounts, directories and files ----
if [ "$(id -u)" = 0 ]; then
	mkdir "$WORK/rosrc" "$WORK/ro"
	cp "$DB" "$WORK/rosrc/h.db"
	if mount -o bind,ro "$WORK/rosrc" "$WORK/ro" 2>/dev/null; then
		MOUNTS+=("$WORK/ro")
		for c in $(read_commands "$WORK/ro/h.db" | tr ' ' '@'); do
			c=${c//@/ }
			# shellcheck disable=SC2086
			reads "12.13: $c on a read-only mount" "$WORK/ro" -- "$USBPERF" $c
		done
		refused 2 "12.13: baseline set on a read-only mount" "$WORK/ro" -- \
			"$USBPERF" baseline x "$A" --db "$WORK/ro/h.db"
		says "Read-only file system" "12.13: names the read-only mount"
		refused 2 "12.13: import on a read-only mount" "$WORK/ro" -- \
			"$USBPERF" import "$FIXTURES/runs-a.json" --db "$WORK/ro/h.db"
		says "Read-only file system" "12.13: names the read-only mount"
	else
		bad "12.13: mount -o bind,ro"
	fi
	if command -v setpriv >/dev/null; then
		nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
		chmod 0755 "$WORK"
		mkdir "$WORK/ro555" "$WORK/rw777" "$WORK/shut"
		cp "$DB" "$WORK/ro555/h.db"
		cp "$DB" "$WORK/rw777/h.db"
		cp "$DB" "$WORK/shut/h.db"
		chmod 0444 "$WORK/ro555/h.db" "$WORK/rw777/h.db"
		chmod 0555 "$WORK/ro555"
		chmod 0777 "$WORK/rw777"
		chmod 0700 "$WORK/shut"
		for dir in ro555 rw777; do
			for c in $(read_commands "$WORK/$dir/h.db" | tr ' ' '@'); do
				c=${c//@/ }
				# shellcheck disable=SC2086
				reads "12.13: nobody: $c (0444 in $dir)" "$WORK/$dir" -- nobody "$USBPERF" $c
			done
			refused 2 "12.13: nobody: import into a 0444 history in $dir" "$WORK/$dir" -- \
				nobody "$USBPERF" import "$FIXTURES/runs-a.json" --db "$WORK/$dir/h.db"
			says "Permission denied" "12.13: names the permission"
			refused 2 "12.13: nobody: baseline set in a 0444 history in $dir" "$WORK/$dir" -- \
				nobody "$USBPERF" baseline x "$A" --db "$WORK/$dir/h.db"
			says "Permission denied" "12.13: names the permission"
		done
		refused 2 "12.13: nobody: history in a directory it cannot enter" "$WORK/shut" -- \
			nobody "$USBPERF" history --db "$WORK/shut/h.db"
		says "Permission denied" "12.13: Permission denied, not No such file"
		refused 2 "12.13: nobody: import into a new history in a 0555 directory" "$WORK/ro555" -- \
			nobody "$USBPERF" import "$FIXTURES/runs-a.json" --db "$WORK/ro555/new.db"
		says "Permission denied" "12.13: names the permission"
	else
		echo "note: 12.13 as nobody not tested: no setpriv" >&2
	fi
else
	echo "note: 12.13 (read-only mount, as nobody) not tested: needs root" >&2
fi

# ---- 12.19: --db that is not a regular file, or a name too long ----
mkdir "$WORK/odd"
mkfifo "$WORK/odd/fifo"
for c in "history" "show last" "export" "history --check"; do
	for p in "$WORK/odd/fifo" /dev/null "$WORK/odd"; do
		# shellcheck disable=SC2086
		refused 2 "12.19: $c --db $p" "$WORK/odd" -- timeout 10 "$USBPERF" $c --db "$p"
		says "^usbperf: '$p' is not a regular file$" "12.19: $c --db $p: says so"
	done
done
for p in "$WORK/odd/fifo" /dev/null "$WORK/odd"; do
	refused 2 "12.19: import --db $p" "$WORK/odd" -- \
		timeout 10 "$USBPERF" import "$FIXTURES/runs-a.json" --db "$p"
	says "is not a regular file" "12.19: import --db $p: says so"
done
long=$(printf 'n%.0s' $(seq 300))
deep=$(printf '/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa%.0s' $(seq 150))
for p in "$WORK/odd/$long.db" "$WORK/odd$deep/h.db"; do
	refused 2 "12.19: history --db (${#p} bytes)" "$WORK/odd" -- "$USBPERF" history --db "$p"
	says "file name too long" "12.19: says the name is too long"
	refused 2 "12.19: import --db (${#p} bytes)" "$WORK/odd" -- \
		"$USBPERF" import "$FIXTURES/runs-a.json" --db "$p"
	says "file name too long" "12.19: says the name is too long"
done

# 12.19: a bare relative name with URI characters: created where it is said, read back
# (a file read as immutable is opened through a file: URI)
mkdir "$WORK/names"
odd='a?b#c%d é.db'
expect_status 0 "12.19: import --db '$odd' (relative)" \
	sh -c 'cd "$1" && "$2" import "$3" --db "$4"' - "$WORK/names" "$USBPERF" "$FIXTURES/runs-a.json" "$odd"
check "12.19: created there" test -f "$WORK/names/$odd"
reads "12.19: history --db '$odd' (relative)" "$WORK/names" -- \
	sh -c 'cd "$1" && "$2" history --db "$3"' - "$WORK/names" "$USBPERF" "$odd"
reads "12.19: show last --db '.../$odd'" "$WORK/names" -- "$USBPERF" show last --db "$WORK/names/$odd"

# ---- 12.20: 'last' wherever a run is named ----
expect_status 1 "12.20: compare A last" "$USBPERF" compare "$A" last --db "$DB" -F json
jq_check "$WORK/out" ".comparison.a == \"$A\" and .comparison.b == \"$B2\"" "12.20: last is the newest run"
expect_status 0 "12.20: show last" "$USBPERF" show last --db "$DB" -F json
jq_check "$WORK/out" ".id == \"$B2\"" "12.20: show last is the newest"
expect_status 0 "12.20: export last" "$USBPERF" export last --db "$DB"
jq_check "$WORK/out" "[.runs[].id] == [\"$B2\"]" "12.20: export last is the newest"
expect_status 0 "12.20: baseline new last" "$USBPERF" baseline new last --db "$DB" -F json
jq_check "$WORK/out" ".baselines[0].run == \"$B2\"" "12.20: baseline set to the newest"
"$USBPERF" baseline --delete new --db "$DB" >/dev/null || bad "12.20: baseline --delete"

# ---- 12.4: no output over an input ----
for c in "history" "history --check" "show last" "compare $A last" "export" "baseline" \
	"check last --criteria $WORK/crit.json" "report last"; do
	# shellcheck disable=SC2086
	refused 2 "12.4: $c -o the database" "$D" -- "$USBPERF" $c --db "$DB" -o "$DB"
	says "^usbperf: refusing to write --output '$DB': it is the history database being read$" \
		"12.4: $c: says so"
done
ln -s "$DB" "$WORK/link.db"
refused 2 "12.4: export -o a link to the database" "$D" -- "$USBPERF" export --db "$DB" -o "$WORK/link.db"
refused 2 "12.4: check --junit the criteria file" "$WORK/crit.json" -- \
	"$USBPERF" check last --criteria "$WORK/crit.json" --junit "$WORK/crit.json" --db "$DB"
says "it is the criteria file being read" "12.4: check --junit: says so"
refused 2 "12.4: check -o the criteria file" "$WORK/crit.json" -- \
	"$USBPERF" check last --criteria "$WORK/crit.json" -o "$WORK/crit.json" --db "$DB"
refused 2 "12.4: check -o a run file" "$WORK/run.json" -- \
	"$USBPERF" check "$WORK/run.json" --criteria "$WORK/crit.json" -o "$WORK/run.json"
says "it is the run file being read" "12.4: check -o a run file: says so"
refused 2 "12.4: report --html the database" "$D" -- "$USBPERF" report last --html "$DB" --db "$DB"
refused 2 "12.4: report --html a run file" "$WORK/run.json" -- \
	"$USBPERF" report "$WORK/run.json" --html "$WORK/run.json"
refused 2 "12.4: report --junit the criteria file" "$WORK/crit.json" -- \
	"$USBPERF" report "$WORK/run.json" --criteria "$WORK/crit.json" --junit "$WORK/crit.json"
refused 2 "12.4: report -o a run file" "$WORK/run.json" -- \
	"$USBPERF" report "$WORK/run.json" -o "$WORK/run.json"
# a sibling of 12.4: two outputs of one command on one file, the second would replace the first
refused 2 "12.4: check --junit and -o one file" "$WORK/out.txt" -- \
	"$USBPERF" check last --criteria "$WORK/crit.json" -o "$WORK/out.txt" --junit "$WORK/out.txt" --db "$DB"
says "^usbperf: refusing to write --junit '$WORK/out.txt': --output names the same file$" \
	"12.4: check --junit and -o: says so"
echo keep >"$WORK/out.html"
ln -s "$WORK/out.html" "$WORK/out-link.html"
refused 2 "12.4: report --html and -o one file through a link" "$WORK/out.html" -- \
	"$USBPERF" report "$WORK/run.json" -o "$WORK/out-link.html" --html "$WORK/out.html"
expect_status 0 "12.4: --junit and -o both /dev/null are fine" \
	"$USBPERF" check last --criteria "$WORK/crit.json" -o /dev/null --junit /dev/null --db "$DB"
refused 2 "12.4: import -o the file imported" "$WORK/run.json" "$D" -- \
	"$USBPERF" import "$WORK/run.json" --db "$DB" -o "$WORK/run.json"
refused 2 "12.4: import -o the database" "$D" -- \
	"$USBPERF" import "$WORK/run.json" --db "$DB" -o "$DB"
refused 2 "12.4: import a file into itself" "$WORK/run.json" -- \
	"$USBPERF" import "$WORK/run.json" --db "$WORK/run.json"
refused 2 "12.4: import the database into itself" "$D" -- "$USBPERF" import "$DB" --db "$DB"
# 12.5: a run that is refused, or fails before measuring, leaves no new history behind
mkdir -p "$WORK/z"
refused 2 "12.5: run /dev/null --db NEW.db" "$WORK/z" -- "$USBPERF" run /dev/null --db "$WORK/z/new.db"
refused 2 "12.5: run --copy /nonexistent DIR --db NEW.db" "$WORK/z" -- \
	"$USBPERF" run --copy "$WORK/z/nonexistent" "$WORK/z" --db "$WORK/z/new.db"
finish
