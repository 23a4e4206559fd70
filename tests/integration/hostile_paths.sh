#!/bin/bash
# Input paths that cannot be inputs (issue 28.3.14): a directory, a symlink
# loop, a name of 5,000 bytes, a socket, a FIFO no one writes to, a file of the
# kernel's (/proc/self/mem), a device where a file is read. Every command that
# reads a file or opens a device the user names goes through one check: exit 2,
# one line on stderr, nothing written. And files registered for removal on a
# signal are only those the process created (28.3.8).
. "$(dirname "$0")/lib.sh"
need_cmd jq python3 timeout

FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
"$USBPERF" import "$FIXTURES/runs-a.json" --db "$WORK/h.db" >/dev/null || { bad "make a history"; finish; }
RUN=$("$USBPERF" export --db "$WORK/h.db" | jq -r '.runs[0].id')
printf '{"usbperf_criteria": 1, "criteria": [{"metric": "mb_s", "min": 1}]}\n' >"$WORK/crit.json"
"$USBPERF" export "$RUN" --db "$WORK/h.db" -o "$WORK/run.json" || bad "export a run file"

P=$WORK/p
mkdir "$P" "$P/dir"
ln -s loop "$P/loop"
mkfifo "$P/fifo"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$P/sock" ||
	skip "cannot make a unix socket"
long=$P/$(printf 'a%.0s' $(seq 240))
for _ in $(seq 20); do long=$long/$(printf 'b%.0s' $(seq 240)); done # ~5 KB, over PATH_MAX

# bad KIND PATH DESCRIPTION COMMAND...: exit 2 within 10 s, one line, nothing changed
bad_path() {
	local what=$1
	shift
	refused 2 "28.3.14: $what" "$WORK/h.db" "$P" "$WORK/crit.json" "$WORK/run.json" -- timeout 10 "$@"
}
# the path's kind, for the descriptions
kind() {
	case $1 in
	"$long") echo "a name of ${#long} bytes" ;;
	"$P"/*) echo "a ${1#"$P"/}" ;;
	*) echo "$1" ;;
	esac
}
for p in "$P/dir" "$P/loop" "$long" "$P/sock" "$P/fifo" /proc/self/mem /dev/zero; do
	n=$(kind "$p")
	bad_path "monitor --read $n" "$USBPERF" monitor --read "$p"
	bad_path "check --criteria $n" "$USBPERF" check "$RUN" --criteria "$p" --db "$WORK/h.db"
	bad_path "check RUNFILE $n" "$USBPERF" check "$p" --criteria "$WORK/crit.json"
	bad_path "import $n" "$USBPERF" import "$p" --db "$WORK/h.db"
	bad_path "show $n" "$USBPERF" show "$p"
	bad_path "report $n" "$USBPERF" report "$p"
done
for p in "$P/dir" "$P/loop" "$long" "$P/sock" "$P/fifo" "$WORK/crit.json"; do
	bad_path "video $(kind "$p")" "$USBPERF" video "$p"
done
# what each says: what the path is, or why it cannot be opened; a long name by its start
bad_path "the long name" "$USBPERF" check "$RUN" --criteria "$long" --db "$WORK/h.db"
says "^usbperf: cannot open criteria '$P/a+\.\.\.' \([0-9]+ bytes\): File name too long$" \
	"28.3.14: a long name quoted by its start, with its length"
bad_path "a socket" "$USBPERF" monitor --read "$P/sock"
says "^usbperf: cannot read capture '$P/sock': it is a socket, not a file$" "28.3.14: says it is a socket"
bad_path "a directory" "$USBPERF" video "$P/dir"
says "^usbperf: cannot read video device '$P/dir': it is a directory, not a device node$" \
	"28.3.14: says it is a directory"
bad_path "a loop" "$USBPERF" video "$P/loop"
says "Too many levels of symbolic links$" "28.3.14: says it is a loop"
bad_path "/proc/self/mem" "$USBPERF" check "$RUN" --criteria /proc/self/mem --db "$WORK/h.db"
says "it is a file of the kernel's" "28.3.14: says it is the kernel's"
bad_path "a FIFO no one writes" "$USBPERF" check "$RUN" --criteria "$P/fifo" --db "$WORK/h.db"
says "empty file$" "28.3.14: a FIFO without a writer reads as empty, at once"
# the history and --sysroot: the same kinds of paths
for p in "$P/dir" "$P/loop" "$long" "$P/sock" "$P/fifo" /proc/self/mem; do
	bad_path "history --db $(kind "$p")" "$USBPERF" history --db "$p"
	bad_path "import --db $(kind "$p")" "$USBPERF" import "$WORK/run.json" --db "$p"
	# a directory is a sysroot: a recorded tree
	[ "$p" = "$P/dir" ] || bad_path "list --sysroot $(kind "$p")" "$USBPERF" list --sysroot "$p"
done
bad_path "the long name" "$USBPERF" list --sysroot "$long"
says "^usbperf: invalid --sysroot '$P/a+\.\.\.' \([0-9]+ bytes\): File name too long$" \
	"28.3.14: --sysroot: a long name quoted by its start, with its length"
# a pipe with a writer is still read: process substitution, stdin
expect_status 0 "28.3.14: --criteria <(...) is read" \
	"$USBPERF" check "$RUN" --criteria <(cat "$WORK/crit.json") --db "$WORK/h.db"
expect_status 0 "28.3.14: a run file through a pipe" \
	"$USBPERF" check <(cat "$WORK/run.json") --criteria "$WORK/crit.json"
expect_status 0 "28.3.14: a run file on stdin" \
	sh -c '"$1" check - --criteria "$2" <"$3"' - "$USBPERF" "$WORK/crit.json" "$WORK/run.json"

# ---- 28.3.8: a file is registered for removal on a signal only once created ----
# An output is written aside under NAME.tmp-PID, created with O_EXCL. A shim
# (LD_PRELOAD) puts a file of the user's under that name just before the
# O_EXCL open and sends the signals then: usbperf must leave it alone. Before
# the fix the name was registered first, and the signal handler removed it.
if command -v cc >/dev/null; then
	cat >"$WORK/shim.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
static int real(const char *name, const char *p, int flags, mode_t mode)
{
	int (*f)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
	return f(p, flags, mode);
}
static int shim(const char *name, const char *p, int flags, mode_t mode)
{
	if ((flags & O_EXCL) && strstr(p, ".tmp-")) {
		int fd = real(name, p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			(void)!write(fd, "the user's\n", 11);
			close(fd);
		}
		raise(SIGINT);
		raise(SIGTERM); /* a second signal: a measuring command removes its files then */
	}
	return real(name, p, flags, mode);
}
int open(const char *p, int flags, ...)
{
	va_list ap; mode_t m; va_start(ap, flags); m = va_arg(ap, mode_t); va_end(ap);
	return shim("open", p, flags, m);
}
int open64(const char *p, int flags, ...)
{
	va_list ap; mode_t m; va_start(ap, flags); m = va_arg(ap, mode_t); va_end(ap);
	return shim("open64", p, flags, m);
}
C
	if cc -shared -fPIC -o "$WORK/shim.so" "$WORK/shim.c" -ldl 2>"$WORK/cc.err"; then
		for c in "history --db $WORK/h.db" "import $WORK/run.json --db $WORK/h.db"; do
			rm -f "$WORK"/o.txt*
			# shellcheck disable=SC2086
			# an ASan build wants its runtime first: the shim goes before it, on purpose
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
				LD_PRELOAD=$WORK/shim.so "$USBPERF" $c -o "$WORK/o.txt" >"$WORK/out" 2>"$WORK/err"
			got=$?
			if [ "$got" -ge 128 ]; then ok "28.3.8: $c -o: ended by the signal (exit $got)"
			else bad "28.3.8: $c -o: exit $got, not by the signal: $(head -1 "$WORK/err")"; fi
			aside=$(find "$WORK" -maxdepth 1 -name 'o.txt.tmp-*')
			if [ -n "$aside" ] && [ "$(cat "$aside")" = "the user's" ]; then
				ok "28.3.8: $c -o: the file under the name aside is left as it was"
			else bad "28.3.8: $c -o: the file under the name aside was removed"; fi
			check "28.3.8: $c -o: no output" test ! -e "$WORK/o.txt"
		done
	else
		bad "28.3.8: cannot build the shim: $(head -2 "$WORK/cc.err")"
	fi
else
	echo "note: 28.3.8 not tested: no C compiler for the shim" >&2
fi
finish
