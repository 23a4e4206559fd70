#!/bin/bash
# The history on a PostgreSQL server (issue 31.1), a server this test starts
# itself (Debian's postgresql-15: initdb in a temporary directory, a unix
# socket, no TCP): every read command prints the same on PostgreSQL as on
# SQLite for the same runs; run saves there; 8 runs save at once into a new
# database; an older schema is migrated by a writer and a newer one refused;
# a server stopped mid-run loses nothing; a read-only role reads; imports
# killed mid-save leave no half run; a password never shows.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
pg_start

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
A=20261130T051200Z-3f2a
B1=20261201T051500Z-77c1
B2=20261205T060200Z-9e04
pguri() { echo "postgresql:///$1?host=$PG_SOCK&user=${2:-usbperf}"; }
psql_su -c 'CREATE DATABASE h' -c 'CREATE DATABASE c' -c 'CREATE DATABASE old' \
	-c 'CREATE DATABASE new' -c 'CREATE DATABASE k' -c 'CREATE DATABASE gone'
PG=$(pguri h)
LITE=$WORK/h.db
export XDG_STATE_HOME=$WORK/state # where a run the history could not take waits

# both WANT DESCRIPTION ARGS...: the command on SQLite and on PostgreSQL exits
# WANT on both, and prints the same (through $FILTER, a jq filter, if set)
both() {
	local want=$1 what=$2 sl sp
	shift 2
	"$USBPERF" "$@" --db "$LITE" >"$WORK/lite.out" 2>"$WORK/lite.err"
	sl=$?
	"$USBPERF" "$@" --db "$PG" >"$WORK/pg.out" 2>"$WORK/pg.err"
	sp=$?
	if [ -n "${FILTER:-}" ]; then
		jq -S "$FILTER" "$WORK/lite.out" >"$WORK/lite.f" && mv "$WORK/lite.f" "$WORK/lite.out"
		jq -S "$FILTER" "$WORK/pg.out" >"$WORK/pg.f" && mv "$WORK/pg.f" "$WORK/pg.out"
	fi
	# a refusal: its line, the history named alike
	if [ "$want" -ge 2 ]; then
		sed "s|$LITE|DB|g" "$WORK/lite.err" >"$WORK/lite.out"
		sed "s|$PG|DB|g" "$WORK/pg.err" >"$WORK/pg.out"
	fi
	if [ "$sl" = "$want" ] && [ "$sp" = "$want" ] && cmp -s "$WORK/lite.out" "$WORK/pg.out" &&
		[ -s "$WORK/pg.out" ]; then
		ok "$what: the same on both back ends (exit $want, $(wc -l <"$WORK/pg.out") lines)"
	else
		bad "$what: SQLite exit $sl, PostgreSQL exit $sp (want $want)"
		diff "$WORK/lite.out" "$WORK/pg.out" | head -6 | sed 's/^/    /'
		head -2 "$WORK/pg.err" | sed 's/^/    pg stderr: /'
	fi
}

# ---- the same runs, the same answers ----
both 0 "import runs-a" import "$FIXTURES/runs-a.json" -F json
both 0 "import runs-b" import "$FIXTURES/runs-b.json"
both 0 "import again: skipped" import "$FIXTURES/runs-a.json" -F json
both 0 "history json" history -F json
jq_check "$WORK/pg.out" "[.runs[].id] == [\"$B2\", \"$B1\", \"$A\"]" "PostgreSQL: three runs, newest first"
both 0 "history text" history
both 0 "history csv" history -F csv
for f in "--device 0781:5583" "--device 2-2" "--device 4c5300" "--device 1234:" \
	"--device 50%" "--since 2026-12-01" "--until 2026-12-01T05:15:00Z" "--limit 1"; do
	# shellcheck disable=SC2086
	both 0 "history $f" history -F json $f
done
both 0 "show by prefix" show 20261205
both 0 "show json" show 2026113 -F json
both 0 "show csv" show "$A" -F csv
both 0 "show last~1" show last~1 -F json
both 2 "show an ambiguous prefix" show 2026
both 0 "compare A B1" compare 2026113 20261201 -F json
both 1 "compare A B2: regression" compare 2026113 20261205 -F json
both 1 "compare text" compare 2026113 20261205
FILTER='.baselines |= map(del(.set_at))' both 0 "baseline ref A" baseline ref "$A" -F json
FILTER='.baselines |= map(del(.set_at))' both 0 "baseline list" baseline -F json
both 1 "compare last against baseline ref" compare last --baseline ref -F json
both 1 "check last --baseline ref" check last --baseline ref -F json
both 0 "report text" report -F text
jq '.runs |= map(.id = "am62-" + .id | .started_at = "2026-12-06T06:00:00Z" |
	.env.hostname = "am62-lab-1" | .env.board = "TI AM62x SK" | .env.machine = "0123456789abcdef")' \
	"$FIXTURES/runs-a.json" >"$WORK/am62.json"
both 0 "import another board's run" import "$WORK/am62.json"
for f in "--board rock5b" "--board 'am62X SK'" "--board 0123456789ABCDEF"; do
	eval "both 0 \"history $f\" history -F json $f"
done
both 1 "compare --board: that board's two newest" compare --board rock5b -F json
both 0 "report --fleet" report --fleet -F json
both 0 "report --fleet --board --since" report --fleet -F json --board rock --since 2026-12-01
FILTER='del(.exported_at)' both 0 "export" export -F json

# USBPERF_DB names the server for every command, as --db does
USBPERF_DB=$PG "$USBPERF" history -F json >"$WORK/env.out" 2>"$WORK/env.err"
"$USBPERF" history -F json --db "$PG" >"$WORK/db.out"
check "USBPERF_DB=URI reads what --db URI reads" cmp -s "$WORK/env.out" "$WORK/db.out"

# an export of PostgreSQL's, imported into a new SQLite history, exports the same runs
"$USBPERF" export --db "$PG" -o "$WORK/pg-export.json"
"$USBPERF" import "$WORK/pg-export.json" --db "$WORK/round.db" >/dev/null
check "export -> import round trip through PostgreSQL" test \
	"$(jq -S .runs "$WORK/pg-export.json")" = "$("$USBPERF" export --db "$WORK/round.db" | jq -S .runs)"

# ---- run saves there ----
mkdir -p "$WORK/t0"
expect_status 0 "run into PostgreSQL" "$USBPERF" run "$WORK/t0" --size 8M --time 0.2 --min-time 0 --db "$PG" -q
expect_status 0 "history after it" "$USBPERF" history --db "$PG" -F json
jq_check "$WORK/out" '(.runs | length) == 5' "five runs now"
expect_status 0 "history --check" "$USBPERF" history --check --db "$PG" -F json
jq_check "$WORK/out" '.database.schema == "ok" and .database.ok == true and .database.runs == 5' \
	"the schema whole, five runs"

# ---- 8 boards at once, into a new database: its schema made once, no run lost ----
C=$(pguri c)
pids=()
for i in 1 2 3 4 5 6 7 8; do
	mkdir -p "$WORK/t$i"
	"$USBPERF" run "$WORK/t$i" --size 4M --time 0.2 --min-time 0 --db "$C" -q \
		>"$WORK/c$i.out" 2>"$WORK/c$i.err" &
	pids+=($!)
done
saved=0
for i in "${!pids[@]}"; do wait "${pids[$i]}" && saved=$((saved + 1)); done
check "8 runs at once: 8 exited 0 ($saved)" test "$saved" = 8
"$USBPERF" history --db "$C" -F json >"$WORK/c.json"
jq_check "$WORK/c.json" '(.runs | length) == 8 and ([.runs[].id] | unique | length) == 8' \
	"8 runs saved of 8 started, 8 ids"
check "the schema's migrations ran once each" test \
	"$(PGDATABASE=c psql_su -tAc 'SELECT count(*) = count(DISTINCT version) FROM migrations')" = t

# ---- an older schema: refused to read, migrated by a writer ----
SCHEMA=$("$USBPERF" history --check --db "$PG" -F json | jq .database.schema_version)
OLD=$(pguri old)
"$USBPERF" import "$FIXTURES/runs-a.json" --db "$OLD" >/dev/null
PGDATABASE=old psql_su -c 'ALTER TABLE metrics DROP COLUMN pass_spread, DROP COLUMN cpu_wait_pct,
	DROP COLUMN cpu_io_pct' -c 'ALTER TABLE runs DROP COLUMN machine' -c 'DELETE FROM migrations WHERE version >= 6'
expect_status 3 "history on an older schema" "$USBPERF" history --db "$OLD"
one_line_error "older schema"
says "older schema" "it says the schema is older, and what brings it up to date"
expect_status 0 "import migrates it" "$USBPERF" import "$FIXTURES/runs-b.json" --db "$OLD"
expect_status 0 "then history reads it" "$USBPERF" history --check --db "$OLD" -F json
jq_check "$WORK/out" ".database.schema == \"ok\" and .database.schema_version == $SCHEMA and .database.runs == 3" \
	"migrated from version 5 to $SCHEMA, three runs"

# ---- a newer schema: refused, untouched ----
NEW=$(pguri new)
"$USBPERF" import "$FIXTURES/runs-a.json" --db "$NEW" >/dev/null
PGDATABASE=new psql_su -c "INSERT INTO migrations VALUES (99, 'later', '9.9.9')"
expect_status 3 "history on a newer schema" "$USBPERF" history --db "$NEW"
one_line_error "newer schema"
says "newer usbperf" "it says a newer usbperf wrote it"
expect_status 3 "import into a newer schema" "$USBPERF" import "$FIXTURES/runs-b.json" --db "$NEW"
check "... and nothing was added" test "$(PGDATABASE=new psql_su -tAc 'SELECT count(*) FROM runs')" = 1

# ---- imports killed mid-save: each run whole or absent ----
K=$(pguri k)
jq -s '.[0] + {runs: [range(40) as $i | (.[0].runs + .[1].runs)[$i % 3] | .id = "kill-\($i)"]}' \
	"$FIXTURES/runs-a.json" "$FIXTURES/runs-b.json" >"$WORK/many.json"
for d in 0.05 0.1 0.2 0.3 0.5; do
	"$USBPERF" import "$WORK/many.json" --db "$K" >/dev/null 2>&1 &
	sleep "$d"
	kill -9 $! 2>/dev/null
	wait $! 2>/dev/null
done
half=$(PGDATABASE=k psql_su -tAc 'SELECT count(*) FROM runs r WHERE (SELECT count(*) FROM metrics m WHERE m.run = r.pk) <> 6')
check "imports killed 5 times: no run half-saved ($(PGDATABASE=k psql_su -tAc 'SELECT count(*) FROM runs') whole)" test "$half" = 0

# ---- the server stopped mid-run: the run is kept, imported later ----
G=$(pguri gone)
mkdir -p "$WORK/tg"
"$USBPERF" run "$WORK/tg" --size 64M --time 3 --min-time 2 --db "$G" -q >"$WORK/gone.out" 2>"$WORK/gone.err" &
runpid=$!
sleep 2
pg_ctl_stop fast
wait $runpid
st=$?
check "server stopped mid-run: exit 3 ($st)" test "$st" = 3
check "... one line on stderr" test "$(wc -l <"$WORK/gone.err")" = 1
check "... it says the run was kept, and where" grep -q "not saved.*kept in '$XDG_STATE_HOME/usbperf/pending/" "$WORK/gone.err"
check "... the figures were printed" test -s "$WORK/gone.out"
pending=$(ls "$XDG_STATE_HOME"/usbperf/pending/*.json 2>/dev/null | head -1)
pg_ctl_start
expect_status 0 "import the kept run once the server is back" "$USBPERF" import "$pending" --db "$G"
expect_status 0 "it is in the history" "$USBPERF" history --db "$G" -F json
jq_check "$WORK/out" "(.runs | length) == 1 and .runs[0].id == \"$(basename "$pending" .json)\"" "the kept run, by its id"

# ---- a read-only role reads; its writes are refused in one line ----
psql_su -c 'CREATE ROLE reader LOGIN'
PGDATABASE=h psql_su -c 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader'
RO=$(pguri h reader)
for cmd in "history" "show last" "compare $A $B1" "check last --baseline ref" "report -F text" "export" "baseline"; do
	# shellcheck disable=SC2086
	st=0; "$USBPERF" $cmd --db "$RO" >"$WORK/out" 2>"$WORK/err" || st=$?
	check "read-only role: $cmd (exit $st)" test "$st" -le 1 -a -s "$WORK/out"
done
expect_status 3 "read-only role: baseline set" "$USBPERF" baseline other "$A" --db "$RO"
one_line_error "a write refused"
check "... nothing written" test "$(PGDATABASE=h psql_su -tAc "SELECT count(*) FROM baselines WHERE name = 'other'")" = 0
mkdir -p "$WORK/tr"
nruns=$(PGDATABASE=h psql_su -tAc 'SELECT count(*) FROM runs')
npend=$(ls "$XDG_STATE_HOME"/usbperf/pending 2>/dev/null | wc -l)
expect_status 2 "read-only role: run is refused before it measures" \
	"$USBPERF" run "$WORK/tr" --size 4M --time 0.2 --min-time 0 --db "$RO"
one_line_error "run into a history it may not write"
says "cannot write the history .*may not add runs" "it says the role may not add runs"
check "... nothing measured, saved or kept aside" test -z "$(cat "$WORK/out")" -a \
	"$(PGDATABASE=h psql_su -tAc 'SELECT count(*) FROM runs')" = "$nruns" -a \
	"$(ls "$XDG_STATE_HOME"/usbperf/pending 2>/dev/null | wc -l)" = "$npend"

# ---- a password: never shown; bad servers in one line, exit 3 ----
psql_su -c "CREATE ROLE pw LOGIN SUPERUSER PASSWORD 'S3cret-pw'"
sed -i '1i local all pw scram-sha-256' "$PG_DIR/data/pg_hba.conf"
runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" reload >/dev/null
PW="postgresql://pw:S3cret-pw@/h?host=$PG_SOCK"
mkdir -p "$WORK/tp"
expect_status 0 "run with a password in the URI" "$USBPERF" run "$WORK/tp" --size 4M --time 0.2 --min-time 0 --db "$PW"
expect_status 0 "show it (json)" "$USBPERF" show last --db "$PW" -F json
jq_check "$WORK/out" '.command_line | contains("pw:***@") and (contains("S3cret") | not)' "the record's command line has the password masked"
expect_status 0 "history --check" "$USBPERF" history --check --db "$PW" -F json
jq_check "$WORK/out" '.database.path | contains("***") and (contains("S3cret") | not)' "the database named without its password"
expect_status 3 "a wrong password" "$USBPERF" history --db "postgresql://pw:Wr0ng-pw@/h?host=$PG_SOCK"
one_line_error "wrong password"
says "refused usbperf" "it says the server refused"
check "... and shows no password" bash -c "! grep -q 'Wr0ng' '$WORK/err'"
expect_status 3 "no server there" "$USBPERF" history --db "postgresql:///h?host=$WORK/nowhere"
one_line_error "unreachable"
says "cannot reach the history's server" "it says it cannot reach the server"
expect_status 3 "no such database" "$USBPERF" history --db "$(pguri nope)"
one_line_error "missing database"
says "no history database" "it names the missing database"
# libpq is opened when a server history is named, not at start-up (every
# other command would pay for its 22 libraries); without it a server history
# is refused in one line, as by a build without libpq
check "libpq is not among the binary's start-up libraries (ldd)" bash -c "! ldd '$USBPERF' | grep -q libpq"
# (libpq.so.5 beside the C library the binary loads: the same multiarch directory)
pqlib=$(dirname "$(ldd "$USBPERF" | awk '$1 == "libc.so.6" { print $3 }')")/libpq.so.5
if [ -e "$pqlib" ] && command -v unshare >/dev/null; then
	# libpq hidden in a mount namespace of this command's own (the file stays)
	expect_status 3 "libpq missing: a server history" unshare -m sh -c \
		"mount --bind /dev/null '$pqlib' && exec '$USBPERF' history --db '$(pguri h)'"
	one_line_error "libpq missing"
	says "install libpq5" "it says which package to install"
else
	bad "libpq missing: no '$pqlib' beside the C library, or no unshare"
fi
check "no password in any output of this test" bash -c "! grep -rq 'S3cret' '$WORK'/*.out '$WORK'/*.err '$WORK/out' '$WORK/err'"

finish
