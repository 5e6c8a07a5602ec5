#!/usr/bin/env bash
# The architecture rules of docs/api.md, read off the source:
#   core <- linalg <- {model, continuation} <- critical <- analysis <- {input, output} <- apps
#   core <- linalg <- model <- cosim <- input (co-simulation)
#   core <- linalg <- model <- dynamics <- {input, output}
# - a module's headers and sources include senda/<X>/ only for X in its allowed set
#   (input and output never include each other);
# - nothing under analysis/ knows a Config; no exit code in lib/ (the JSON key
#   "exit_code" of sweep.json is a name in a file format, not a code);
# - no status is stored as a std::string member (statuses are enums);
# - apps/trace/main.cpp is under 80 lines;
# - python/ (the Python module) may include every module; nothing in lib/ or apps/
#   includes it or knows Python (no pybind11, no Python.h).
# usage: layers.sh SOURCE_DIR
set -u
src=$1
cd "$src" || exit 1
fail=0
allowed() {
  case $1 in
    core) echo "core" ;;
    linalg) echo "core linalg" ;;
    model) echo "core linalg model" ;;
    dynamics) echo "core linalg model dynamics" ;;
    continuation) echo "core linalg continuation" ;;
    critical) echo "core linalg model continuation critical" ;;
    analysis) echo "core linalg model continuation critical analysis" ;;
    cosim) echo "core linalg model cosim" ;;
    input) echo "core linalg model continuation critical analysis cosim dynamics input" ;;
    output) echo "core linalg model continuation critical analysis dynamics output" ;;
    *) echo "" ;;
  esac
}
modules=$(ls lib/include/senda)
for m in $modules; do
  ok=$(allowed "$m")
  [ -n "$ok" ] || { echo "FAIL: module $m is not in the layering (tests/cli/layers.sh)"; fail=1; continue; }
  for f in $(find "lib/include/senda/$m" "lib/src/$m" -type f 2>/dev/null); do
    for x in $(grep -o '#include "senda/[a-z_]*/' "$f" | sed 's|#include "senda/||; s|/||' | sort -u); do
      case " $ok " in *" $x "*) ;; *) echo "FAIL: $f includes senda/$x/ (module $m may include: $ok)"; fail=1 ;; esac
    done
  done
done
[ "$(echo "$modules" | wc -l)" -ge 8 ] || { echo "FAIL: only $(echo "$modules" | wc -w) modules found"; fail=1; }
if grep -rnw "Config" lib/include/senda/analysis lib/src/analysis; then echo "FAIL: Config under analysis/"; fail=1; fi
if grep -rn "exit_code" lib | grep -v '"exit_code"'; then echo "FAIL: an exit code in lib/"; fail=1; fi
if grep -rnE "std::string (termination|status)[ ;=]" lib/include; then echo "FAIL: a status stored as std::string"; fail=1; fi
if grep -rnE '#include *[<"](pybind11/|Python\.h|senda/_core|python/)' lib apps; then
  echo "FAIL: lib/ or apps/ includes Python or the python/ module"; fail=1
fi
lines=$(wc -l < apps/trace/main.cpp)
[ "$lines" -lt 80 ] || { echo "FAIL: apps/trace/main.cpp has $lines lines (< 80)"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "ok: $(echo "$modules" | wc -w) modules follow the layering; main.cpp $lines lines"
