#!/bin/bash
# The field tables are data (issue 30): every 'struct field' table of src/ is a
# NAME.fields file that src/model/fieldgen.py makes C at build time. What it
# writes for a row and a record_desc, and that a row model/field.h does not know stops the build
# with the file and line (a type, a flag, a unit macro, a key twice, a key not
# snake_case, a row before its table, a row of the wrong length).
. "$(dirname "$0")/lib.sh"
need_cmd python3

SRC=$(cd "$(dirname "$0")/../.." && pwd)
GEN=$SRC/src/model/fieldgen.py
FIELD_H=$SRC/src/model/field.h

left=$(grep -rlE '^(static )?const struct field [A-Za-z_0-9]+\[\] = \{' "$SRC/src" --include='*.c' --include='*.h')
check "no field table is written in C under src/ (${left:-none})" test -z "$left"
nfiles=$(find "$SRC/src" -name '*.fields' | wc -l)
check "the tables are .fields files ($nfiles)" test "$nfiles" -ge 30
# each is included by its .c and made by the build the binary came from
BUILD=$(dirname "$USBPERF")
missing=
for f in $(find "$SRC/src" -name '*.fields'); do
	inc=${f#"$SRC/src/"}.h
	grep -qF "#include \"$inc\"" "${f%.fields}.c" || missing="$missing ${f%.fields}.c:$inc"
	[ -n "$(find "$BUILD" -path "*/$inc" -print -quit)" ] || missing="$missing build:$inc"
done
check "every .fields file is included by its .c and made by the build (${missing:-all})" test -z "$missing"

gen() { python3 "$GEN" "$FIELD_H" "$WORK/t.fields" t.fields "$WORK/t.h" 2>"$WORK/err"; }
cat >"$WORK/t.fields" <<'T'
# a comment
table t_fields struct thing
static desc t_desc thing
desc thing_desc thing
speed     usb_speed             "USB speed"  -                 str  0  text
cpu       cpu_pct<cpu           CPU          UNIT_PCT_ONE_CPU  dbl  1  text,optional
rate      mb_s                  rate         MB/s              dbl  2  -
+pass_sys sys
T
check "a good table is made" gen
check "a row: FIELD with the struct, NULL for no unit, FF_ flags" \
	grep -qxF '	FIELD(struct thing, speed, "usb_speed", "USB speed", NULL, FT_STR, 0, FF_TEXT),' "$WORK/t.h"
check "key<old: FIELD_RENAMED, a UNIT_ macro as it is, two flags" \
	grep -qxF '	FIELD_RENAMED(struct thing, cpu, "cpu_pct", "cpu", "CPU", UNIT_PCT_ONE_CPU, FT_DBL, 1, FF_TEXT | FF_OPTIONAL),' "$WORK/t.h"
check "a unit in words is a string, '-' flags are 0" \
	grep -qxF '	FIELD(struct thing, rate, "mb_s", "rate", "MB/s", FT_DBL, 2, 0),' "$WORK/t.h"
check "+pass_sys: the pass's figures" grep -qxF '	PASS_SYS_FIELDS(struct thing, sys),' "$WORK/t.h"
check "#line: a compiler's message names the row" grep -qxF '#line 6 "t.fields"' "$WORK/t.h"
check "the table is a C array" grep -qxF 'static const struct field t_fields[] = {' "$WORK/t.h"
check "static desc: its record_desc, after the table" \
	grep -qxF 'static const struct record_desc t_desc = RECORD_DESC("thing", t_fields);' "$WORK/t.h"
check "desc: one other files name (not static)" \
	grep -qxF 'const struct record_desc thing_desc = RECORD_DESC("thing", t_fields);' "$WORK/t.h"

# refuse: NAME ROW WANT (a piece of the message); the row after a good table line
refuse() {
	printf 'table t_fields struct thing\n%s\n' "$2" >"$WORK/t.fields"
	rm -f "$WORK/t.h"
	gen
	local rc=$?
	check "$1: exit 1 (exit $rc)" test "$rc" = 1
	check "$1: names the file and line, and why" grep -q "^t.fields:2: .*$3" "$WORK/err"
	check "$1: nothing written" test ! -e "$WORK/t.h"
}
refuse "an unknown type" 'a  a  A  -  float  0  text' "type 'float'"
refuse "an unknown flag" 'a  a  A  -  str  0  text,loud' "flag 'loud'"
refuse "a unit macro field.h lacks" 'a  a  A  UNIT_FURLONGS  dbl  1  text' "UNIT_FURLONGS"
refuse "a key not snake_case" 'a  Speed  A  -  str  0  text' "snake_case"
refuse "a row of six words" 'a  a  A  -  str  0' "7 words"
refuse "a desc without its name" 'desc t_desc' "desc VAR NAME"
refuse "decimals not a number" 'a  a  A  -  dbl  x  text' "decimals"
printf 'table t_fields struct thing\na  a  A  -  str  0  text\nb  a  B  -  str  0  text\n' >"$WORK/t.fields"
gen
check "a key twice in one table is refused" grep -q "^t.fields:3: key 'a' twice" "$WORK/err"
printf 'a  a  A  -  str  0  text\n' >"$WORK/t.fields"
gen
check "a row before any table is refused" grep -q "^t.fields:1: .*before the first" "$WORK/err"

finish
