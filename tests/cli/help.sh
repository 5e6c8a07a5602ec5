#!/usr/bin/env bash
# trace --help exits 0 and lists every key of the option table (read from its
# source, lib/src/input/config.cpp) and the exit codes. Every file of the source
# tree that the --help of trace, simulate or cosim cites as an example
# (problems/..., tests/..., docs/..., examples/..., scripts/...) exists: simulate's
# and cosim's named problems/von-mises-dynamic.cfg and problems/cosim/jacobi-fd.cfg,
# which never did.
# usage: help.sh TRACE SOURCE_DIR [SIMULATE COSIM]
set -u
trace=$1; src=$2; shift 2
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
cited=0
for program in "$trace" "$@"; do
  text=$("$program" --help) || { echo "FAIL: $(basename "$program") --help exit $?"; fail=1; continue; }
  for path in $(grep -oE '(problems|tests|docs|examples|scripts)/[A-Za-z0-9_./-]*[A-Za-z0-9_]' <<< "$text" | sort -u); do
    cited=$((cited + 1))
    [ -e "$src/$path" ] || { echo "FAIL: $(basename "$program") --help cites $path, which does not exist"; fail=1; }
  done
done
[ $cited -ge $(( $# + 1 )) ] || { echo "FAIL: only $cited paths cited: the extraction is broken"; fail=1; }
[ $fail -eq 0 ] && echo "ok: the $cited paths cited by --help exist"
exit $fail
