#!/bin/bash
# usbperf(1) against the binary, so the page cannot drift from it (issue 13.4):
# every command in 'usbperf help' has a section (.SS) and nothing else does;
# under each, an item for exactly the long options 'usbperf CMD -h' lists, every
# short one, the same exit statuses; every long option anywhere in a section
# (or an example) is one the command accepts; the global options; units; and man/groff render it without a warning.
. "$(dirname "$0")/lib.sh"
need_cmd man groff

# the page as built: mkman fills in the version and the options of every
# command with a table (src/cmd/opt/), so the source alone is not the page
PAGE=${MANPAGE:-$(dirname "$USBPERF")/man/usbperf.1}
if [ ! -f "$PAGE" ]; then
	bad "no built man page at $PAGE (ninja builds it beside usbperf)"
	finish
fi
echo "page: $PAGE"
check "every option table made it into the page (no marker left)" \
	bash -c '! grep -q "@OPTIONS" "$1"' _ "$PAGE"

# 13.4: man -l and groff render it without a warning
man --warnings -l "$PAGE" >"$WORK/man.txt" 2>"$WORK/man.err"
if [ ! -s "$WORK/man.err" ] && [ -s "$WORK/man.txt" ]; then ok "man --warnings -l renders it quietly"
else bad "man --warnings -l: $(head -3 "$WORK/man.err")"; fi
if groff -ww -man -z "$PAGE" 2>"$WORK/groff.err" && [ ! -s "$WORK/groff.err" ]; then
	ok "groff -ww -man -z: no warning"
else bad "groff -ww: $(head -3 "$WORK/groff.err")"; fi
check "the version is filled in" grep -Eq '^\.TH USBPERF 1 .*"usbperf [0-9]+\.[0-9]+\.[0-9]+"' "$PAGE"

# section TITLE: the roff of '.SS TITLE' (or '.SH TITLE') up to the next
# heading, with \- and font escapes undone, so options read as typed
section() {
	awk -v t="$1" '
		/^\.S[SH] / { h = $0; sub(/^\.S[SH] +/, "", h); gsub(/"/, "", h); on = (h == t); next }
		on && !/^\.\\"/ { print }' "$PAGE" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g'
}
long_opts() { grep -oE -- '--[a-z0-9][a-z0-9-]*' | sort -u; }
# where options are defined: -h lines that begin with one, the page's .TP heads
option_lines() { grep -E '^ +-'; }
tp_heads() { awk '/^\.TP/ { getline; print }'; }
# short options where options are listed: "  -F, --format", "  -4, -6", "-q, --quiet"
short_opts() { grep -E '^ *-|^\.(B|BR|BI|TP)' | grep -oE -- '(^|[ ,;])-[A-Za-z0-9]([ ,;]|$)' |
	grep -oE -- '-[A-Za-z0-9]' | sort -u; }
# exit statuses: "Exit: 0 ok, 1 ..., 128+N ..." -> 0 1 128+N
exits() { tr '\n' ' ' | sed -n 's/.*Exit: //p' | grep -oE '(^|, )[0-9]+(\+N)?' | tr -d ', ' | sort -u; }
same_set() { # DESCRIPTION WANT GOT
	if [ "$2" = "$3" ]; then ok "$1"; else
		bad "$1"
		diff <(echo "$2") <(echo "$3") | grep '^[<>]' | sed 's/^</    only in -h:/; s/^>/    only in the page:/'
	fi
}

"$USBPERF" help >"$WORK/help" || bad "usbperf help failed"
cmds=$(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' "$WORK/help")
check "help lists commands" test -n "$cmds"

# 13.4: the page's command sections are exactly the commands of 'usbperf help'
page_cmds=$(awk '/^\.SH / { on = ($0 ~ /^\.SH "?COMMANDS"?$/) } on && /^\.SS / { print $2 }' "$PAGE" | sort)
same_set "one section per command, no other" "$(echo "$cmds" | sort)" "$page_cmds"

# 13.4: global options as 'usbperf help' lists them (and --help)
sed -n '/^global options/,/^$/p' "$WORK/help" >"$WORK/global"
same_set "GLOBAL OPTIONS: the long options of 'usbperf help'" \
	"$( (long_opts <"$WORK/global"; echo --help) | sort -u)" "$(section "GLOBAL OPTIONS" | long_opts)"
same_set "GLOBAL OPTIONS: the short options of 'usbperf help'" \
	"$( (short_opts <"$WORK/global"; echo -h) | sort -u)" "$(section "GLOBAL OPTIONS" | short_opts)"

# accepted CMD OPTION: the command knows the option. Two unknown options after it
# make the parse fail before anything runs (an option that takes a value eats the
# first); the error must be about them, not about OPTION.
accepted() {
	local cmd=$1 opt=$2 pre
	local -a tries=("$cmd")
	[ "$cmd" = net ] && tries=("net client" "net server")
	for pre in "${tries[@]}"; do
		# shellcheck disable=SC2086
		"$USBPERF" $pre "$opt" --zz-bogus1 --zz-bogus2 >/dev/null 2>"$WORK/acc.err" </dev/null
		[ $? = 2 ] && ! grep -q -- "unknown option '$opt'" "$WORK/acc.err" && return 0
	done
	echo "    $cmd $opt: $(head -1 "$WORK/acc.err")"
	return 1
}

for c in $cmds; do
	"$USBPERF" "$c" -h >"$WORK/h.$c" 2>&1 || bad "usbperf $c -h failed"
	section "$c" >"$WORK/p.$c"
	check "section '$c' is there" test -s "$WORK/p.$c"
	same_set "$c: the page describes the long options of '$c -h', no other" \
		"$(option_lines <"$WORK/h.$c" | long_opts)" "$(tp_heads <"$WORK/p.$c" | long_opts)"
	missing=""
	for o in $(short_opts <"$WORK/h.$c"); do
		grep -qE -- "(^|[ ,])$o([ ,]|$)" "$WORK/p.$c" || missing="$missing $o"
	done
	if [ -z "$missing" ]; then ok "$c: every short option of '$c -h' is in the page"
	else bad "$c: short options not in the page:$missing"; fi
	if grep -q 'Exit:' "$WORK/h.$c"; then
		same_set "$c: the exit statuses of '$c -h'" "$(exits <"$WORK/h.$c")" "$(exits <"$WORK/p.$c")"
	fi
	bad_opts=""
	for o in $(long_opts <"$WORK/p.$c"); do accepted "$c" "$o" || bad_opts="$bad_opts $o"; done
	if [ -z "$bad_opts" ]; then ok "$c: every long option in its section is accepted by 'usbperf $c'"
	else bad "$c: the page names options usbperf $c does not accept:$bad_opts"; fi
done

# 30.5: a page per command, usbperf-CMD(1), cut from its section by mkman: it
# renders quietly, NAME is the summary 'usbperf help' gives, OPTIONS lists the
# long options of 'CMD -h', and it points back at usbperf(1)
while read -r c summary; do
	cpage=$(dirname "$PAGE")/usbperf-$c.1
	if [ ! -s "$cpage" ]; then bad "usbperf-$c(1): no page $cpage"; continue; fi
	werr=$(man --warnings -l "$cpage" 2>&1 >"$WORK/c.txt"; groff -ww -man -z "$cpage" 2>&1)
	if [ -z "$werr" ] && [ -s "$WORK/c.txt" ]; then ok "usbperf-$c(1) renders without a warning"
	else bad "usbperf-$c(1): $(head -2 <<<"$werr")"; fi
	name=$(awk '/^\.SH NAME/ { getline; print; exit }' "$cpage" | sed 's/\\-/-/g')
	check "usbperf-$c(1): NAME is 'usbperf help''s summary" test "$name" = "usbperf-$c - $summary"
	same_set "usbperf-$c(1): OPTIONS are the long options of '$c -h'" \
		"$(option_lines <"$WORK/h.$c" | long_opts)" \
		"$(sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$cpage" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' |
			tp_heads | long_opts)"
	check "usbperf-$c(1) points at usbperf(1)" grep -q '^\.BR usbperf (1)' "$cpage"
done < <(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { c = $1; $1 = ""; sub(/^ +/, ""); print c, $0 } on && /^$/ { exit }' "$WORK/help")

# 13.4: units, exit statuses, examples
tr -s ' \n' ' ' <"$WORK/man.txt" >"$WORK/man.flat"
check "units: MB/s = 10^6 B/s" grep -q 'MB/s 10^6 bytes per second' "$WORK/man.flat"
check "units: MiB/s = 2^20 B/s" grep -q 'MiB/s is 2^20 bytes per second' "$WORK/man.flat"
check "units: sizes, 1024 and 1000" grep -q 'powers of 1024.*powers of 1000' "$WORK/man.flat"
same_set "EXIT STATUS: 0 1 2 3 128+N" "$(printf '%s\n' 0 1 2 3 128+N | sort)" \
	"$(section "EXIT STATUS" | awk '/^\.TP/ { getline; sub(/^\.B /, ""); print }' | sort)"
# every example line runs the real parser: the command exists and its options are accepted
n=0
while read -r line; do
	set -- $line
	[ "$1" = usbperf ] || continue
	n=$((n + 1))
	for o in $(echo "$line" | long_opts); do accepted "$2" "$o" || bad "example '$line': $o"; done
	grep -qx "$2" <<<"$cmds" || bad "example '$line': no command '$2'"
done < <(section EXAMPLES | sed -n '/^\.EX/,/^\.EE/p' | grep -v '^\.E[XE]')
check "EXAMPLES has examples ($n)" test "$n" -ge 5

finish
