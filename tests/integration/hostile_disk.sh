#!/bin/bash
# Hostile input against the writers (disk, run, run --copy): every refusal is
# exit 2, one line on stderr, and every file and device involved byte for byte
# as before, with nothing left behind. Numbers are issue 12's problems.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq losetup mkfs.ext4 sfdisk sha1sum setpriv

U=$USBPERF
D=$WORK/d
mkdir -p "$D"
head -c 4M /dev/urandom >"$WORK/victim"

make_loop 64M --direct-io=on
L=$LOOP

# 12.1: --copy validates both sides before the first byte of I/O
refused 2 "12.1 run --copy DIR BLOCKDEV --destructive" "$L" "$D" "$WORK/h.db" -- \
	"$U" run --copy "$D" "$L" --destructive --size 4M --time 0.2 --db "$WORK/h.db"
says "--copy: '$L' is not a directory" "12.1 names the device that is not a directory"
refused 2 "12.1 run --copy BLOCKDEV DIR --destructive" "$L" "$D" "$WORK/h.db" -- \
	"$U" run --copy "$L" "$D" --destructive --size 4M --time 0.2 --db "$WORK/h.db"
refused 2 "12.1 run --copy DIR NONEXISTENT" "$D" "$WORK/h.db" -- \
	"$U" run --copy "$D" "$WORK/nonexistent" --size 4M --time 0.2 --db "$WORK/h.db"
# and a later bad target stops the run before the first target is touched
refused 2 "12.1 run DEV BADTARGET: nothing measured" "$L" "$D" "$WORK/h.db" -- \
	"$U" run "$L" /dev/null --destructive --size 4M --time 0.2 --db "$WORK/h.db"

# 12.2: a partition whose sibling is mounted is refused (docs/classes.md, disk's Safety: any
# partition of the disk mounted refuses every part of it)
make_loop 64M
P=$LOOP
echo -e ',20M,L\n,20M,L\n,,L' | sfdisk -q "$P" >/dev/null 2>&1
for n in 1 2 3; do
	[ -b "${P}p$n" ] || addpart "$P" "$n" $(sfdisk -d "$P" | awk -v n="${P}p$n" '$1 == n { gsub(/[^0-9]/, "", $4); gsub(/[^0-9]/, "", $6); print $4, $6 }') 2>/dev/null
done
if [ -b "${P}p3" ]; then
	mkfs.ext4 -q "${P}p1"
	mkdir "$WORK/m"
	mount "${P}p1" "$WORK/m" && MOUNTS+=("$WORK/m")
	refused 2 "12.2 disk p2 with p1 mounted" "${P}p2" "$D" -- \
		"$U" disk "${P}p2" --destructive --tests seq-write --size 4M --time 0.2
	says "is mounted on '$WORK/m'" "12.2 names the mounted sibling"
	refused 2 "12.2 disk --preset cdm on p3 with p1 mounted" "${P}p3" -- \
		"$U" disk "${P}p3" --destructive --preset cdm --size 4M --time 0.2
	refused 2 "12.2 run p2 --destructive with p1 mounted" "${P}p2" "$WORK/h.db" -- \
		"$U" run "${P}p2" --destructive --size 4M --time 0.2 --db "$WORK/h.db"
	umount "$WORK/m"
else
	bad "12.2 partitions of $P did not appear"
fi

# "in use" includes a plain (non-exclusive) opener: a dd, a shell holding it open
(exec 3<"$L"; sleep 5) &
holder=$!
sleep 0.5
refused 2 "a device open in another process" "$L" -- \
	"$U" disk "$L" --destructive --tests seq-write --size 4M --time 0.2
says "open in process $holder" "names the process that has it open"
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null

# 12.3: a symlink under a usbperf-like name is never followed
ln -s "$WORK/victim" "$D/usbperf-evil.tmp"
refused 2 "12.3 symlink named usbperf-*.tmp" "$WORK/victim" "$D" -- \
	"$U" disk "$D/usbperf-evil.tmp" --tests seq-write --size 1M --time 0.2
says "symbolic link" "12.3 says it is a link"
rm "$D/usbperf-evil.tmp"
# ... nor is a file that merely carries the name
head -c 2M /dev/urandom >"$D/usbperf-foreign.tmp"
refused 2 "12.3 a foreign file named usbperf-*.tmp" "$D" -- \
	"$U" disk "$D/usbperf-foreign.tmp" --tests seq-write --size 1M --time 0.2
says "usbperf did not create it" "12.3 says usbperf did not create it"
# a file usbperf kept is written again; owned by someone else, or hard-linked, it is not
expect_status 0 "a kept test file" "$U" disk "$D" --keep --tests seq-write --bs 1M --size 2M --time 0.2 -q
kept=$(ls "$D"/usbperf-[0-9]*.tmp 2>/dev/null | head -1)
check "the kept file is there" test -f "$kept"
expect_status 0 "12.3 a kept test file is written again" "$U" disk "$kept" --tests seq-write --bs 1M --size 2M --time 0.2 -q
chown nobody "$kept"
refused 2 "12.3 a test file owned by another user" "$D" -- \
	"$U" disk "$kept" --tests seq-write --bs 1M --size 2M --time 0.2
chown root "$kept"
ln "$kept" "$WORK/hardlink"
refused 2 "12.3 a test file with another hard link" "$D" "$WORK/hardlink" -- \
	"$U" disk "$kept" --tests seq-write --bs 1M --size 2M --time 0.2
rm -f "$WORK/hardlink"
# a FIFO under the name: refused at once, not waited on
mkfifo "$D/usbperf-fifo.tmp"
refused 2 "12.3 a FIFO as target" "$D" -- timeout 5 "$U" disk "$D/usbperf-fifo.tmp" --tests seq-read --size 1M --time 0.2
rm -f "$D/usbperf-fifo.tmp"
# a mistyped device does not become a new file
refused 2 "a missing target is not created" /dev/usbperf-nosuch "$D" -- \
	"$U" disk /dev/usbperf-nosuch --tests seq-write --size 1M --time 0.2

# 12.4: an output never replaces an input
refused 2 "12.4 disk FILE -o FILE" "$D" -- \
	"$U" disk "$kept" --tests seq-read --bs 1M --size 2M --time 0.2 -o "$kept"
refused 2 "12.4 run -o onto its --db" "$D" "$WORK/h.db" -- \
	"$U" run "$D" --db "$D/usbperf-kept.db" --size 4M --time 0.2 -o "$D/usbperf-kept.db"
refused 2 "12.4 disk -o onto the block device" "$L" -- \
	"$U" disk "$L" --tests seq-read --bs 1M --size 2M --time 0.2 -o "$L"
# a character device is written through, never replaced (a private /dev/null:
# a regression must not break the machine's)
mknod -m 666 "$WORK/null" c 1 3
expect_status 0 "-o a character device writes through" "$U" disk "$D" --tests seq-read --bs 1M --size 2M --time 0.2 -q -o "$WORK/null"
check "it is still a character device" test -c "$WORK/null"

# 12.8: -o is checked before anything is measured
mkdir "$WORK/outdir"
refused 2 "12.8 disk -o EXISTING_DIR" "$D" "$WORK/outdir" -- \
	"$U" disk "$D" --size 2M --time 0.2 -o "$WORK/outdir"
says "is a directory" "12.8 says it is a directory"
refused 2 "12.8 disk -o a name too long" "$D" -- \
	"$U" disk "$D" --size 2M --time 0.2 -o "$WORK/$(printf 'x%.0s' $(seq 300))"
refused 2 "12.8 run -o EXISTING_DIR" "$D" "$WORK/h.db" -- \
	"$U" run "$D" --size 2M --time 0.2 --db "$WORK/h.db" -o "$WORK/outdir"

# 12.10: a read-only device with --destructive is refused up front
make_loop 16M -r
refused 2 "12.10 read-only loop device --destructive" "$LOOP" -- \
	"$U" disk "$LOOP" --destructive --tests seq-write --size 4M --time 0.2
says "read-only" "12.10 names the read-only device"

# 12.11: --scratch must be a writable directory
refused 2 "12.11 run --scratch NONEXISTENT" "$WORK/h.db" "$WORK/nonexistent" -- \
	"$U" run --scratch "$WORK/nonexistent" --size 2M --time 0.2 --db "$WORK/h.db"
refused 2 "12.11 run --scratch a regular file" "$WORK/victim" "$WORK/h.db" -- \
	"$U" run --scratch "$WORK/victim" --size 2M --time 0.2 --db "$WORK/h.db"
refused 2 "12.11 run --scratch ''" "$WORK/h.db" -- \
	"$U" run --scratch "" --size 2M --time 0.2 --db "$WORK/h.db"

# 12.14: past the file size limit: refused up front, no file left, no SIGXFSZ death
refused 2 "12.14 disk DIR under ulimit -f 1024" "$D" -- \
	bash -c 'ulimit -f 1024; exec "$@"' _ "$U" disk "$D" --size 8M --time 0.2
says "ulimit -f" "12.14 names the file size limit"
refused 2 "12.14 run DIR under ulimit -f 1024" "$D" "$WORK/h.db" -- \
	bash -c 'ulimit -f 1024; exec "$@"' _ "$U" run "$D" --size 8M --time 0.2 --db "$WORK/h.db"

# 12.18: --verify reads of data usbperf did not write
head -c 4M /dev/urandom >"$WORK/foreign"
refused 2 "12.18 --verify reads of a foreign file" "$WORK/foreign" -- \
	"$U" disk "$WORK/foreign" --tests read --verify --size 1M --time 0.2
says "no usbperf --verify pattern" "12.18 says there is no pattern"
# 12.20: a damaged history is found before the measurement it was to keep
mkdir "$WORK/hist"
"$U" import "$(dirname "$0")/../fixtures/runs-a.json" --db "$WORK/hist/h.db" -q >/dev/null 2>&1
dd if=/dev/urandom of="$WORK/hist/h.db" bs=1024 seek=4 count=16 conv=notrunc status=none
t0=$(date +%s%N)
refused 3 "12.20 run DIR --db damaged.db" "$D" "$WORK/hist" -- \
	"$U" run "$D" --db "$WORK/hist/h.db" --size 64M --time 2
says "cannot read the history .*malformed" "12.20 says the history is damaged"
check "12.20 nothing was measured first (under 1.5 s)" test $((($(date +%s%N) - t0) / 1000000)) -lt 1500
head -c 64K /dev/urandom >"$WORK/hist/text.db"
refused 2 "12.20 run DIR --db not-a-history" "$D" "$WORK/hist" -- \
	"$U" run "$D" --db "$WORK/hist/text.db" --size 4M --time 0.2
finish
