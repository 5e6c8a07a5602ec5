#!/usr/bin/env bash
# Distributed runs (issue 14 item 3; only in a SENDA_MPI build): mpirun -np 2 trace
# against trace on one process (linalg.solver = auto: CHOLMOD for these small
# models, so the two runs share no factorization code) on three-bar, star-dome and
# a generated dome of 2 163 unknowns (linalg.solver = mumps: MUMPS on both sides):
#   - the same located critical points (λ, displacements, the whole state) to
#     1e-10 relative, the same negative pivot count and det sign at every point
#     (tests/cli/mpi_compare.py);
#   - one set of outputs: the same files as the one-process run, nothing in the
#     working directory, the progress and report printed once;
#   - bad input under mpirun (tests/bad-input/mpi/4*.cfg, a bad command line):
#     exit 2, the message naming the file, nothing written, every rank gone at once;
#   - SIGINT to mpirun during a run: every rank ends within seconds, path.csv kept,
#     and summary.json, when rank 0 wrote it before mpirun's SIGKILL, says interrupted.
# usage: mpi.sh same-points|refusals|interrupt TRACE DOME SOURCE_DIR WORK_DIR MPIRUN PYTHON
set -u
mode=$1; shift
trace=$(realpath "$1"); dome=$(realpath "$2"); src=$(realpath "$3"); work=$4; mpirun=$5; python=$6
mpi=("$mpirun" -np 2 --allow-run-as-root --oversubscribe)
# Two ranks on two shared cores: a rank that waits for a message yields its core
# instead of spinning (OpenMPI polls at full speed by default).
export OMPI_MCA_mpi_yield_when_idle=1
rm -rf "$work"; mkdir -p "$work"
cd "$src" || exit 1
fail=0
die() { echo "FAIL $*"; fail=1; }

compare() {  # name cfg [trace arguments...]
  local name=$1 cfg=$2; shift 2
  local cwd="$work/cwd-$name" abs=$cfg
  [[ $cfg == /* ]] || abs="$src/$cfg"
  mkdir -p "$cwd"
  "$trace" "$cfg" --out "$work/one/$name" "$@" > "$work/$name.one.out" 2>&1 || { die "$name: one process failed: $(cat "$work/$name.one.out")"; return; }
  local t0=$SECONDS
  (cd "$cwd" && timeout 300 "${mpi[@]}" "$trace" "$abs" --out "$work/two/$name" "$@") > "$work/$name.two.out" 2> "$work/$name.two.err"
  local rc=$?
  [ $rc -eq 0 ] || { die "$name: mpirun -np 2 exit $rc: $(cat "$work/$name.two.err")"; return; }
  diff <(cd "$work/one/$name" && find . | sort) <(cd "$work/two/$name" && find . | sort) > /dev/null ||
    die "$name: not the files of the one-process run"
  [ -z "$(ls -A "$cwd")" ] || die "$name: a rank wrote into the working directory: $(ls -A "$cwd")"
  # (OpenMPI gives rank 0 a pseudo-terminal: its progress is the one line updated
  # in place, so only the report's lines are counted.)
  for line in 'critical points:' 'results in '; do
    [ "$(grep -c "$line" "$work/$name.two.out")" -eq 1 ] || die "$name: '$line' is not printed once"
  done
  [ -s "$work/$name.two.err" ] && die "$name: stderr: $(cat "$work/$name.two.err")"
  local cmp; cmp=$("$python" "$src/tests/cli/mpi_compare.py" "$work/one/$name" "$work/two/$name") || die "$name: $cmp"
  echo "ok   $name: $cmp ($((SECONDS - t0)) s under mpirun)"
}

same_points() {
compare three-bar problems/three-bar.cfg --primary-only
compare star-dome problems/star-dome.cfg --primary-only stop.max_steps=40
"$dome" --rings 16 -o "$work/dome16.cfg" > /dev/null || die "dome failed"
compare dome16 "$work/dome16.cfg" linalg.solver=mumps stop.max_steps=22
}

refused() {  # name expect [trace arguments...]: exit 2 at once, message, nothing written
  local name=$1 expect=$2; shift 2
  local t0=$SECONDS
  timeout 60 "${mpi[@]}" "$trace" "$@" --out "$work/refused-$name" > "$work/$name.out" 2> "$work/$name.err"
  local rc=$? err; err=$(cat "$work/$name.err")
  [ $rc -eq 2 ] || { die "$name: exit $rc under mpirun, expected 2: $err"; return; }
  [[ "$err" == *"$expect"* ]] || { die "$name: message lacks '$expect': $err"; return; }
  [ -e "$work/refused-$name" ] && { die "$name: wrote $work/refused-$name"; return; }
  echo "ok   $name: exit 2 in $((SECONDS - t0)) s: $(head -n 1 "$work/$name.err")"
}
refusals() {
for cfg in tests/bad-input/mpi/4*.cfg; do
  name=$(basename "$cfg" .cfg)
  expect=$(head -n 1 "$cfg" | sed -n 's/^# expect: //p')
  [ -n "$expect" ] || { die "$name: no '# expect:' line"; continue; }
  refused "$name" "$expect" "$cfg"
  grep -q "$cfg" "$work/$name.err" || die "$name: the message does not name the file"
done
refused bad-command-line "--jobs takes a number" problems/three-bar.cfg --jobs 0
}

# SIGINT to mpirun in the middle of a run (star-dome's whole tree: minutes under mpirun).
interrupt() {
local int="$work/interrupt" pid rows t0 rc left after
"${mpi[@]}" "$trace" problems/star-dome.cfg --out "$int" > "$work/interrupt.out" 2> "$work/interrupt.err" &
pid=$!
for _ in $(seq 600); do  # the header, the start and two points
  [ -f "$int/path.csv" ] && [ "$(wc -l < "$int/path.csv")" -ge 4 ] && break
  sleep 0.1
done
rows=$(wc -l < "$int/path.csv" 2>/dev/null || echo 0)
[ "$rows" -ge 4 ] || die "interrupt: the run did not start in 60 s ($rows rows)"
local before=$fail
t0=$SECONDS
kill -INT $pid
for _ in $(seq 200); do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
if kill -0 $pid 2> /dev/null; then
  die "interrupt: mpirun still running 20 s after SIGINT"
  kill -KILL $pid
fi
wait $pid; rc=$?
sleep 0.5
left=$(pgrep -f -- "--out $int" | wc -l)
[ "$left" -eq 0 ] || die "interrupt: $left processes of the run left after mpirun ended"
[ $rc -ne 0 ] || die "interrupt: exit 0 after SIGINT"
after=$(wc -l < "$int/path.csv")
[ "$after" -ge "$rows" ] || die "interrupt: path.csv lost rows ($rows -> $after)"
# mpirun sends SIGTERM to the ranks and, if they have not ended a moment later,
# SIGKILL: rank 0 then writes summary.json only when it was not deep in a long
# factorization. When it is there, it says interrupted.
local summary="no summary.json (rank 0 killed by mpirun)"
if [ -f "$int/summary.json" ]; then
  grep -q '"termination": "interrupted"' "$int/summary.json" || die "interrupt: summary.json does not say interrupted"
  summary="summary.json says interrupted"
fi
[ $fail -eq "$before" ] &&
  echo "ok   interrupt: mpirun exit $rc, every rank gone $((SECONDS - t0)) s after SIGINT, path.csv kept ($after rows), $summary"
}

case $mode in
  same-points) same_points ;;
  refusals) refusals ;;
  interrupt) interrupt ;;
  *) die "unknown mode $mode" ;;
esac
exit $fail
