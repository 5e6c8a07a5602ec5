#!/usr/bin/env bash
# A results directory on a full disk (issue 20 item 12): a 64 kB tmpfs (needs
# root; skipped, exit 77, otherwise). The run ends with exit 1 and a message that
# names the file and gives the system's reason; path.csv holds whole rows only;
# no *.tmp file is left behind.
# usage: full_disk.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work/disk"
die() { echo "FAIL: $*"; umount "$work/disk" 2> /dev/null; exit 1; }
mount -t tmpfs -o size=64k tmpfs "$work/disk" 2> /dev/null || { echo "skip: cannot mount a tmpfs (not root?)"; exit 77; }
trap 'umount "$work/disk" 2> /dev/null' EXIT
# Long enough to fill 64 kB: small fixed steps on the star dome, modes and states.
"$trace" "$src/problems/star-dome.cfg" --out "$work/disk/run" continuation.initial_step=1e-3 \
  continuation.max_step_ratio=1 stop.max_steps=3000 --quiet > "$work/log" 2>&1
rc=$?
[ "$rc" -eq 1 ] || die "exit $rc, expected 1: $(cat "$work/log")"
grep -q "No space left on device" "$work/log" || die "no system error text: $(cat "$work/log")"
grep -q "$work/disk/run/" "$work/log" || die "the message does not name the file: $(cat "$work/log")"
csv="$work/disk/run/path.csv"
[ -s "$csv" ] || die "no path.csv"
cols=$(head -n 1 "$csv" | awk -F, '{print NF}')
bad=$(awk -F, -v n="$cols" 'NF != n' "$csv" | wc -l)
last=$(tail -c 1 "$csv" | od -An -c | tr -d ' ')
[ "$bad" -eq 0 ] && [ "$last" = '\n' ] || die "path.csv ends in a partial row: $(tail -c 200 "$csv")"
tmp=$(find "$work/disk" -name '*.tmp' | wc -l)
[ "$tmp" -eq 0 ] || die "temporary files left: $(find "$work/disk" -name '*.tmp')"
echo "ok full disk: exit 1, $(($(wc -l < "$csv") - 1)) whole rows; $(head -c 300 "$work/log")"
