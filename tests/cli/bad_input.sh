#!/usr/bin/env bash
# Runs trace on every tests/bad-input/*.cfg: each must exit 2, print a message
# naming the file and holding the text of its first line "# expect: TEXT", and
# write nothing. Also a missing file, a directory given as the file, and symlink
# loops as the file and as its mode file. A file whose second line is
# "# command: NAME" is run by the program given as NAME=PROGRAM after WORK_DIR
# (cosim=build/apps/cosim for the co-simulation cases, e.g. 250-269, dome=build/apps/dome for
# the options files of the dome generator, 440-459, simulate=build/apps/simulate for the
# [dynamics] cases that only simulate reaches, e.g. 502-511). A line "# expect-not: TEXT"
# among the first five says TEXT must not be in the message (a hint that does not apply).
# Run in SOURCE_DIR.
# usage: bad_input.sh TRACE SOURCE_DIR WORK_DIR [NAME=PROGRAM ...]
set -u
trace=$1; src=$2; work=$3; shift 3
declare -A program=()
for a in "$@"; do program[${a%%=*}]=${a#*=}; done
rm -rf "$work"; mkdir -p "$work"
# Side files that results name (saved states, mode files) are relative to the working
# directory: the cases name them from the source tree (e.g. tests/golden/...).
cd "$src" || exit 1
fail=0; n=0
check() {  # name cfg expect [program]
  local name=$1 cfg=$2 expect=$3 out="$work/out-$1" run=${4:-$trace}
  local unexpected=""
  [ -f "$cfg" ] && unexpected=$(head -n 5 "$cfg" | sed -n 's/^# expect-not: //p' | head -n 1)
  n=$((n + 1))
  "$run" "$cfg" --out "$out" > "$work/$name.stdout" 2> "$work/$name.stderr"
  local rc=$?
  local err; err=$(cat "$work/$name.stderr")
  if [ "$rc" -ne 2 ]; then echo "FAIL $name: exit $rc, expected 2; stderr: $err"; fail=1; return; fi
  if [[ "$err" != *"$expect"* ]]; then echo "FAIL $name: message lacks '$expect'; got: $err"; fail=1; return; fi
  if [[ -n "$unexpected" && "$err" == *"$unexpected"* ]]; then echo "FAIL $name: message has '$unexpected'; got: $err"; fail=1; return; fi
  if [[ "$err" != *"$cfg"* && "$err" != *"<command line>"* ]]; then echo "FAIL $name: message does not name the file: $err"; fail=1; return; fi
  if [ -e "$out" ]; then echo "FAIL $name: wrote $out"; fail=1; return; fi
  echo "ok   $name: $err"
}
for cfg in "$src"/tests/bad-input/*.cfg; do
  name=$(basename "$cfg" .cfg)
  if [ ! -s "$cfg" ]; then expect="the file is empty"
  else expect=$(head -n 1 "$cfg" | sed -n 's/^# expect: //p'); fi
  if [ -z "$expect" ]; then echo "FAIL $name: no '# expect:' first line"; fail=1; continue; fi
  command=$(sed -n '2s/^# command: //p' "$cfg")
  if [ -n "$command" ]; then
    if [ -z "${program[$command]:-}" ]; then echo "FAIL $name: no program given for '# command: $command'"; fail=1; continue; fi
    check "$name" "$cfg" "$expect" "${program[$command]}"
  else
    check "$name" "$cfg" "$expect"
  fi
done
check missing-file "$src/tests/bad-input/does-not-exist.cfg" "no such file"
check directory "$src/tests/bad-input" "is a directory, not a configuration file"
# A symlink loop is not "no such file" (issue 20): the system's words.
ln -sfn loop.cfg "$work/loop.cfg"
check symlink-loop "$work/loop.cfg" "Too many levels of symbolic links"
# The same for a mode file (model.imperfection) that is a symlink loop.
ln -sfn loop.csv "$work/loop.csv"
printf '%s\n' '[model]' 'node = 1 -1 0' 'node = 2 0 2' 'node = 3 1 0' 'truss = 1 1 2 1' 'truss = 2 2 3 1' \
  'fix = 1 all' 'fix = 3 all' 'load = 2 uy -1' "imperfection = $work/loop.csv 0.001" > "$work/mode-loop.cfg"
check mode-symlink-loop "$work/mode-loop.cfg" "cannot read the mode file '$work/loop.csv': Too many levels of symbolic links"
echo "$n cases"
exit $fail
