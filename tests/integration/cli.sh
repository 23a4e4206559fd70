#!/bin/bash
# The command line as a user meets it: help for every command, bad input
# refused with one line on stderr and exit 2, nothing left behind.
. "$(dirname "$0")/lib.sh"

expect_status 0 "usbperf --version" "$USBPERF" --version
check "version prints 'usbperf X.Y.Z'" grep -Eq '^usbperf [0-9]+\.[0-9]+\.[0-9]+$' "$WORK/out"
expect_status 0 "usbperf help" "$USBPERF" help
# walk the command table as 'help' prints it: every command answers -h
cmds=$(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' "$WORK/out")
check "help lists commands" test -n "$cmds"
for c in $cmds; do
	expect_status 0 "usbperf $c -h" "$USBPERF" "$c" -h
	check "usbperf $c -h prints usage" grep -q "^usage: usbperf $c" "$WORK/out"
	expect_status 0 "usbperf help $c" "$USBPERF" help "$c"
done
expect_status 2 "no command" "$USBPERF"
expect_status 2 "unknown command" "$USBPERF" frobnicate
one_line_error "unknown command"
expect_status 2 "long option without its value" "$USBPERF" list --sysroot
check "names the long option as typed" grep -q "option '--sysroot' needs a value" "$WORK/err"
expect_status 2 "unknown long option with a value" "$USBPERF" list --frob=3
check "names it without the value" grep -q "unknown option '--frob'" "$WORK/err"

dir="$WORK/target"
mkdir "$dir"
refuse() {
	local what=$1
	shift
	expect_status 2 "$what" "$USBPERF" "$@"
	one_line_error "$what"
	if [ -z "$(ls -A "$dir")" ]; then ok "$what: nothing written"; else
		bad "$what: left $(ls "$dir")"; rm -f "$dir"/*; fi
}
refuse "bad --bs" disk "$dir" --bs 4K,banana
refuse "bs not multiple of 512" disk "$dir" --bs 1000
refuse "bs too large" disk "$dir" --bs 1G
refuse "negative size" disk "$dir" --size -5M
refuse "size with junk" disk "$dir" --size 5Mx
refuse "size overflow" disk "$dir" --size 99999999999999999999
refuse "bad --time" disk "$dir" --time fast
refuse "bad --qd" disk "$dir" --qd 0
refuse "psync cannot queue" disk "$dir" --engine psync --qd 8
refuse "bad --engine" disk "$dir" --engine aio
refuse "bad --tests" disk "$dir" --tests seq-read,teleport
refuse "bad --mode" disk "$dir" --mode fast
refuse "bad --format" disk "$dir" --format xml
refuse "bad --repeat" disk "$dir" --repeat 0
refuse "unknown option" disk "$dir" --turbo
refuse "missing value" disk "$dir" --bs
refuse "missing target" disk
refuse "two targets" disk "$dir" "$dir"
refuse "nonexistent target" disk "$WORK/nope/deeper"
refuse "not a usable file type" disk /dev/null
refuse "output dir missing" disk "$dir" --output "$WORK/nope/out.json"
refuse "cdm with --bs" disk "$dir" --preset cdm --bs 1M
refuse "verify with the null engine" disk "$dir" --verify --engine null
refuse "bad --cpu" disk "$dir" --cpu 99999
refuse "bigger than the filesystem" disk "$dir" --size 1T
# a file usbperf did not create is never written
echo "precious" >"$WORK/precious.txt"
expect_status 2 "write to a foreign file" "$USBPERF" disk "$WORK/precious.txt" --tests write
check "foreign file unchanged" grep -qx precious "$WORK/precious.txt"
finish
