#!/usr/bin/env bash
# Every case of tests/golden/cases.txt gives the files stored under
# tests/golden/NAME/: the same bytes, apart from the timing fields of the .json
# files. The stored files were written by the code before the architecture change
# of issue 13 (layers moved, numerics untouched), so a difference here is a change
# of results, not of layout. States (states/*.json) are compared too: they are
# what a later --from run reads.
# usage: golden.sh TRACE SOURCE_DIR WORK_DIR [--update]
#   --update rewrites tests/golden/ from this build (only when results are meant
#   to change; say why in the commit).
set -u
trace=$1; src=$2; work=$3; update=${4:-}
rm -rf "$work"; mkdir -p "$work"
cd "$src" || exit 1
# Timing is not a result: "wall_time_s" and the "timing" object (summary.json),
# "wall_time_s" anywhere else.
strip() { sed -e '/"wall_time_s"/d' -e '/"timing": {/,/}/d' "$1"; }
fail=0; cases=0
while read -r name args; do
  case "$name" in ''|'#'*) continue ;; esac
  cases=$((cases + 1))
  # shellcheck disable=SC2086
  "$trace" $args --out "$work/$name" --quiet > "$work/$name.log" 2>&1
  rc=$?
  echo "$rc" > "$work/$name/exit_code" 2>/dev/null || { echo "FAIL $name: no results (exit $rc): $(cat "$work/$name.log")"; fail=1; continue; }
  # gnuplot's figures, scripts and logs are not results (they depend on its version);
  # everything else is, the SVG drawings of the structure included.
  files=$(cd "$work/$name" && find . -type f ! -name '*.png' ! -regex '\./[^/]*\.svg' ! -name '*.log' ! -name '*.gp' | sort)
  if [ "$update" = "--update" ]; then
    rm -rf "tests/golden/$name"; mkdir -p "tests/golden/$name"
    for f in $files; do
      mkdir -p "tests/golden/$name/$(dirname "$f")"
      case "$f" in *.json) strip "$work/$name/$f" > "tests/golden/$name/$f" ;; *) cp "$work/$name/$f" "tests/golden/$name/$f" ;; esac
    done
    continue
  fi
  expected=$(cd "tests/golden/$name" 2>/dev/null && find . -type f | sort)
  [ "$files" = "$expected" ] || { echo "FAIL $name: files differ:"; diff <(echo "$expected") <(echo "$files"); fail=1; }
  for f in $expected; do
    [ -f "$work/$name/$f" ] || continue
    case "$f" in
      *.json) diff <(cat "tests/golden/$name/$f") <(strip "$work/$name/$f") > "$work/$name.diff" ;;
      *) diff "tests/golden/$name/$f" "$work/$name/$f" > "$work/$name.diff" ;;
    esac || { echo "FAIL $name: $f differs:"; head -20 "$work/$name.diff"; fail=1; }
  done
done < tests/golden/cases.txt
[ "$cases" -ge 10 ] || { echo "FAIL: only $cases cases read"; exit 1; }
[ $fail -eq 0 ] || exit 1
echo "ok: $cases runs give the stored results"
