#!/bin/bash
# The field tables and the options bound to a command's struct are data
# (issue 30): every 'struct field' table of src/ is a NAME.fields file, and the
# bound options of a command src/cmd/CMD.opts, that src/model/fieldgen.py
# makes C at build time. What it writes for a row, a record_desc and a binding;
# that a row model/field.h does not know stops the build with the file and
# line (a type, a flag, a unit macro, a key twice, a key not snake_case, a row
# before its table, a row of the wrong length); and that the binary refuses a
# bad value of every bound option as its row says.
. "$(dirname "$0")/lib.sh"
need_cmd python3
need_cmd ninja

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
# the build's depfile: a table is made again when the vocabulary or the script changes
check "a depfile is written beside the output" \
	python3 "$GEN" "$FIELD_H" "$WORK/t.fields" t.fields "$WORK/t.h" "$WORK/t.d"
check "the depfile names the output, model/field.h and fieldgen.py" \
	grep -qxF "$WORK/t.h: $FIELD_H $GEN" "$WORK/t.d"
# ninja reads each depfile into its log: a table of the build depends on both
ninja -C "$BUILD" -t deps libusbperf-core.a.p/classes/mtp/fields.fields.h >"$WORK/deps" 2>&1
check "the build's mtp table depends on model/field.h and fieldgen.py" \
	bash -c "grep -qxF '    $FIELD_H' '$WORK/deps' && grep -qxF '    $GEN' '$WORK/deps'"

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
check "a row before any table is refused" grep -q "^t.fields:1: a row before the first" "$WORK/err"

# options: what a command's option sets in its struct (cmd/bind.h), the compiler checking
# the member's type against how the value is read
cat >"$WORK/t.fields" <<'T'
options t_binds struct t_opts
T_O_FORCE  force     flag
T_O_ROOT   sysroot   text
T_O_SIZE   opts.size size      4K    1T    "expected a size from 4K to 1T"
T_O_TIME   time_s    duration  0.05  3600  "expected seconds"
T_O_N      count     number    1     CPU_SETSIZE  "expected a count"
T
check "an options table is made" gen
check "it includes cmd/bind.h" grep -qxF '#include "cmd/bind.h"' "$WORK/t.h"
check "a flag: the member, its type asked of the compiler" \
	grep -qxF '	{T_O_FORCE, OV_FLAG, OPT_STORE(struct t_opts, force), offsetof(struct t_opts, force), 0, 0, 0, 0, NULL},' "$WORK/t.h"
check "a size: K and T as whole numbers, what a bad value is told" \
	grep -qxF '	{T_O_SIZE, OV_SIZE, OPT_STORE(struct t_opts, opts.size), offsetof(struct t_opts, opts.size), 0, 0, 4096ull, 1099511627776ull, "expected a size from 4K to 1T"},' "$WORK/t.h"
check "a duration: seconds as they are" grep -qF '{T_O_TIME, OV_DURATION, OPT_STORE(struct t_opts, time_s), offsetof(struct t_opts, time_s), 0.05, 3600, 0, 0,' "$WORK/t.h"
check "a macro for a bound" grep -qF ', 1ull, CPU_SETSIZE, "expected a count"},' "$WORK/t.h"
check "the table ends with a zero key" grep -qxF '	{0},' "$WORK/t.h"
check "the compiler checks a number's member: a uint64_t, or one its maximum fits" \
	grep -qF '_Static_assert(OPT_STORE(struct t_opts, count) == OS_U64 || (OPT_STORE(struct t_opts, count) == OS_UINT && CPU_SETSIZE <= UINT_MAX)' "$WORK/t.h"
check "... and a flag's: a bool, the row named" \
	grep -qF '_Static_assert(OPT_STORE(struct t_opts, force) == OS_BOOL, "t.fields:2: force is read as flag: a bool");' "$WORK/t.h"
refuse_opt() {
	printf 'options t_binds struct t_opts\n%s\n' "$2" >"$WORK/t.fields"
	rm -f "$WORK/t.h"
	gen
	check "$1: refused with the line and why" grep -q "^t.fields:2: .*$3" "$WORK/err"
	check "$1: nothing written" test ! -e "$WORK/t.h"
}
refuse_opt "an unknown kind" 'T_O_X  x  percent  0  1  "x"' "kind 'percent'"
refuse_opt "a flag with a range" 'T_O_X  x  flag  0  1  "x"' "flag takes no range"
refuse_opt "a number without one" 'T_O_X  x  number' "number takes MIN MAX EXPECTED"
refuse_opt "a bound that is neither" 'T_O_X  x  size  4Q  1T  "x"' "'4Q'"
refuse_opt "a key not an option key" 'time  x  flag' "an option key"

# every bound option of the binary (src/cmd/*.opts) that takes a value refuses a bad one as
# its table says: exit 2, one line "invalid --NAME 'VALUE': EXPECTED", before anything runs
n=0
for f in "$SRC"/src/cmd/*.opts; do
	base=$(basename "$f" .opts)
	case $base in
	video_gadget) inv="video --gadget /nonexistent --send" ;;
	video_sweep) inv="video --uvc-sweep 640x480" ;;
	*) inv=$base ;;
	esac
	while read -r key member kind rest; do
		case $kind in number | size | duration | real) ;; *) continue ;; esac
		expected=$(printf '%s\n' "$rest" | sed -E 's/^[^ ]+ +[^ ]+ +"(.*)"$/\1/')
		name=$(grep -ohE "\\{\"[a-z0-9-]+\", *$key\\b" "$SRC"/src/cmd/opt/*.c "$SRC"/src/cmd/opt/shared.h |
			head -1 | cut -d'"' -f2)
		# shellcheck disable=SC2086 # inv is the command and its words
		"$USBPERF" $inv "--$name" not-a-value >"$WORK/bind.out" 2>"$WORK/bind.err"
		rc=$?
		if [ "$rc" != 2 ] || [ "$(wc -l <"$WORK/bind.err")" != 1 ] ||
			! grep -qF "invalid --$name 'not-a-value': $expected" "$WORK/bind.err" ||
			[ -s "$WORK/bind.out" ]; then
			bad "$inv --$name not-a-value: exit $rc, $(head -c 200 "$WORK/bind.err")"
		fi
		n=$((n + 1))
	done < <(grep -E '^[A-Z]' "$f")
done
check "each of the $n bound options with a value refused a bad one in one line, exit 2" test "$n" -ge 20

finish
