#!/usr/bin/env bash
# trace --help exits 0 and lists every key of the option table (read from its
# source, lib/src/input/config.cpp) and the exit codes.
# usage: help.sh TRACE SOURCE_DIR
set -u
trace=$1; src=$2
help=$("$trace" --help) || { echo "FAIL: --help exit $?"; exit 1; }
keys=$(grep -o '^ *{"[a-z_]*\.[a-z_]*"' "$src/lib/src/input/config.cpp" | sed 's/[ {"]//g')
[ "$(echo "$keys" | wc -l)" -gt 30 ] || { echo "FAIL: could not read the table"; exit 1; }
fail=0
for k in $keys; do
  grep -qF -- "$k" <<< "$help" || { echo "FAIL: --help lacks $k"; fail=1; }
done
for code in "  0 " "  1 " "  2 " "  130 "; do
  grep -qF -- "$code" <<< "$help" || { echo "FAIL: --help lacks exit code '$code'"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: $(echo "$keys" | wc -l) keys"
exit $fail
