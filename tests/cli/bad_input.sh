#!/usr/bin/env bash
# Runs trace on every tests/bad-input/*.cfg: each must exit 2, print a message
# naming the file and holding the text of its first line "# expect: TEXT", and
# write nothing. Also a missing file and a directory given as the file.
# usage: bad_input.sh TRACE SOURCE_DIR WORK_DIR
set -u
trace=$1; src=$2; work=$3
rm -rf "$work"; mkdir -p "$work"
fail=0; n=0
check() {  # name cfg expect
  local name=$1 cfg=$2 expect=$3 out="$work/out-$1"
  n=$((n + 1))
  "$trace" "$cfg" --out "$out" > "$work/$name.stdout" 2> "$work/$name.stderr"
  local rc=$?
  local err; err=$(cat "$work/$name.stderr")
  if [ "$rc" -ne 2 ]; then echo "FAIL $name: exit $rc, expected 2; stderr: $err"; fail=1; return; fi
  if [[ "$err" != *"$expect"* ]]; then echo "FAIL $name: message lacks '$expect'; got: $err"; fail=1; return; fi
  if [[ "$err" != *"$cfg"* && "$err" != *"<command line>"* ]]; then echo "FAIL $name: message does not name the file: $err"; fail=1; return; fi
  if [ -e "$out" ]; then echo "FAIL $name: wrote $out"; fail=1; return; fi
  echo "ok   $name: $err"
}
for cfg in "$src"/tests/bad-input/*.cfg; do
  name=$(basename "$cfg" .cfg)
  if [ ! -s "$cfg" ]; then expect="the file is empty"
  else expect=$(head -n 1 "$cfg" | sed -n 's/^# expect: //p'); fi
  if [ -z "$expect" ]; then echo "FAIL $name: no '# expect:' first line"; fail=1; continue; fi
  check "$name" "$cfg" "$expect"
done
check missing-file "$src/tests/bad-input/does-not-exist.cfg" "no such file"
check directory "$src/tests/bad-input" "is a directory, not a configuration file"
echo "$n cases"
exit $fail
