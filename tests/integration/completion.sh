#!/bin/bash
# Bash completion (contrib/bash-completion/usbperf) in a real bash, through the
# function bash calls on TAB, with COMP_WORDS/COMP_CWORD set as bash sets them
# (issue 13.4): commands, every command's options, option values, paths, and
# its table of option values held against 'usbperf CMD -h'.
. "$(dirname "$0")/lib.sh"

SCRIPT=${COMPLETION:-$(cd "$(dirname "$0")/../.." && pwd)/contrib/bash-completion/usbperf}
BIN=$(dirname "$USBPERF")
mkdir -p "$WORK/tree/dir-a" "$WORK/tree/dir-b"
: >"$WORK/tree/file-a.json"
: >"$WORK/tree/file-b.txt"
mkdir "$WORK/empty" # the current directory while completing

# complete WORD...: what TAB offers for the command line WORD... (the last word
# is the one being completed), sorted, space-separated; in an interactive bash
# that sourced the script and found it registered for 'usbperf'
complete_line() {
	cd "$WORK/empty" && env -i PATH="$BIN:/usr/bin:/bin" HOME="$WORK" bash --norc --noprofile -i -c '
		. "$1" || exit 1
		shift
		spec=$(complete -p usbperf) || exit 1
		fn=${spec#*-F }; fn=${fn%% *}
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		"$fn" usbperf "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' complete "$SCRIPT" "$@" 2>/dev/null | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//'
}
# offers DESCRIPTION "EXPECTED" WORD...
offers() {
	local what=$1 want=$2 got
	shift 2
	want=$(tr ' ' '\n' <<<"$want" | sed '/^$/d' | sort | tr '\n' ' ' | sed 's/ $//')
	got=$(complete_line "$@")
	if [ "$got" = "$want" ]; then ok "$what: '$*' -> $got"
	else bad "$what: '$*' -> '$got', wanted '$want'"; fi
}

# 13.4: registered for usbperf in an interactive bash
check "complete -p usbperf names a function" \
	bash --norc --noprofile -i -c ". '$SCRIPT' && complete -p usbperf | grep -q -- '-F _usbperf'" 2>/dev/null

# 13.4: commands, as 'usbperf help' lists them, before and after global options
cmds=$("$USBPERF" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
offers "commands" "$cmds" usbperf ""
offers "commands after global options" "check clean compare" usbperf -F json -q c
offers "global options" "--format" usbperf --fo
offers "help COMMAND" "snapshot show sysinfo" usbperf help s

# 13.4: every command's long options, as its -h lists them (an independent reading)
for c in $cmds; do
	want=$("$USBPERF" "$c" -h | grep -E '^ +-' | grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u)
	[ -n "$want" ] || continue
	offers "$c: its options" "$want" usbperf "$c" --
done
offers "net: short options too" "-O" usbperf net client host -R -O
offers "net server/client" "server client" usbperf net ""
offers "limits kinds" "uvc hid ncm" usbperf limits ""
offers "a value is not an operand" "uvc hid ncm" usbperf limits --speed high ""
offers "a flag takes no value" "uvc hid ncm" usbperf -q limits -q ""

# 13.4: option values
offers "--format" "text json csv" usbperf disk /tmp --format ""
offers "-F after the command" "json" usbperf list -F j
offers "--speed" "low full high super gen1x2 gen2x1 gen2x2" usbperf limits uvc --speed ""
offers "--speed prefix" "gen1x2 gen2x1 gen2x2" usbperf limits --speed gen
offers "--tests" "seq-read seq-write rand-read rand-write read write seq rand all" usbperf disk /tmp --tests ""
offers "--tests, a list" "seq-read,rand-read seq-read,rand-write seq-read,read seq-read,rand" \
	usbperf disk /tmp --tests seq-read,r
offers "--mode" "direct buffered" usbperf disk /tmp --mode ""
offers "--engine" "psync io_uring null" usbperf disk /tmp --engine ""
offers "--preset" "cdm" usbperf disk /tmp --preset ""
offers "--table" "controllers devices interfaces nodes findings mmc_hosts mmc_cards mmc_partitions mtd" usbperf list -F csv --table ""
offers "--pixel-format" "yuyv nv12 mjpeg" usbperf limits uvc --speed high --pixel-format ""
offers "a number: nothing" "" usbperf disk /tmp --qd ""
# "--engine=io" reaches the function as "--engine" "=" "io"
offers "--engine=" "psync io_uring null" usbperf disk /tmp --engine =
offers "--engine=io" "io_uring" usbperf disk /tmp --engine = io
offers "after --speed=high" "uvc hid ncm" usbperf limits --speed = high ""

# 13.4: paths where options and operands take them
T=$WORK/tree
offers "disk TARGET: files and directories" "$T/dir-a $T/dir-b $T/file-a.json $T/file-b.txt" usbperf disk "$T/"
offers "--scratch: directories only" "$T/dir-a $T/dir-b" usbperf run --scratch "$T/d"
offers "--output: files" "$T/file-b.txt" usbperf list -o "$T/file-b"
offers "--criteria: files" "$T/file-a.json" usbperf check last --criteria "$T/file-a"
offers "--copy SRC DST: the second path" "$T/dir-a $T/dir-b" usbperf run --copy "$T/file-a.json" "$T/dir-"
offers "check RUN: last, JSON files, directories" "last" usbperf check la
offers "check RUN: JSON files and directories" "$T/dir-a $T/dir-b $T/file-a.json" usbperf check "$T/"

# 13.4: run ids and baseline names from the history (--db as typed)
DB=$WORK/history.db
"$USBPERF" -q run "$WORK/tree/dir-a" --size 8M --time 0.1 --min-time 0 --db "$DB" >/dev/null 2>&1
id=$("$USBPERF" history --db "$DB" -F csv | awk -F, 'NR == 2 {print $1}')
"$USBPERF" baseline nightly "$id" --db "$DB" >/dev/null
check "a run in a scratch history ($id)" test -n "$id"
# 14.4: show, compare and export take runs as check and report do (last, ids, files)
offers "show RUN: last and the history's ids" "last $id" usbperf show --db "$DB" ""
offers "compare RUN: last and ids" "last $id" usbperf compare --db "$DB" "$id" ""
offers "check RUN: last and ids" "last $id" usbperf check --db "$DB" --criteria x.json ""
offers "compare --baseline NAME" "nightly" usbperf compare --db "$DB" "$id" --baseline n
offers "baseline NAME RUN" "$id" usbperf baseline --db "$DB" nightly ""
offers "no history: no ids, only last" "last" usbperf show --db "$WORK/none.db" ""
offers "no history: no baselines" "" usbperf compare --db "$WORK/none.db" x --baseline ""
check "completion created no history" test ! -e "$WORK/none.db"

# 13.4: the values the option tables give the completion ('CMD
# --completion-values OPTION') against each command's -h: every value is a word
# of the option's description there, and for the lists -h spells out in one
# line, exactly those
# values CMD OPTION: the words the binary offers, without "@list"
values() { "$USBPERF" "$1" --completion-values "$2" | grep -v '^@list$'; }
# desc CMD OPTION: the -h lines of OPTION, up to the next option
desc() { "$USBPERF" "$1" -h | awk -v o="$2" '
	/^ +-/ { on = 0; if (index($0, o " ") || index($0, o ",")) on = 1 }
	on { print }'; }
while read -r c o; do
	vals=$(values "$c" "$o")
	d=$(desc "$c" "$o")
	miss=""
	for v in $vals; do grep -qw -- "$v" <<<"$d" || miss="$miss $v"; done
	if [ -n "$vals" ] && [ -z "$miss" ]; then ok "values of $c $o are in '$c -h'"
	else bad "values of $c $o not in '$c -h':$miss"; fi
done <<'EOF2'
disk --format
limits --speed
disk --tests
disk --mode
disk --engine
disk --preset
list --table
limits --pixel-format
EOF2
# exact: the words of the first description line, up to a '(', ':' or ';'
exact() { # CMD OPTION
	desc "$1" "$2" | head -1 | sed -E "s/.*$2 [A-Za-z]+ +//; s/[(:;].*//; s/,|\\bor\\b/ /g" | tr -s ' ' '\n' | sed '/^$/d' | sort
}
for co in "limits --speed" "disk --engine" "disk --format"; do
	set -- $co
	want=$(exact "$1" "$2")
	got=$(values "$1" "$2" | sort)
	if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "$co: exactly the values of '$1 -h' ($(echo $got))"
	else bad "$co: '$1 -h' says '$(echo $want)', the table '$(echo $got)'"; fi
done
# a path by its value's name in the table; nothing for a number; a list marked as one
check "run --scratch DIR: a directory" test "$("$USBPERF" run --completion-values --scratch)" = @dir
check "report --html FILE: a file" test "$("$USBPERF" report --completion-values --html)" = @file
check "disk --qd N: nothing" test -z "$("$USBPERF" disk --completion-values --qd)"
check "disk --tests: a list" test "$("$USBPERF" disk --completion-values --tests | head -1)" = @list
check "import -F: its two formats" test "$("$USBPERF" import --completion-values -F | tr "\n" " ")" = "text json "

finish
