#!/usr/bin/env bash
# Every committed mesh that a .geo script says it was written by gmsh is written again
# by the gmsh program on this machine and compared byte for byte with the committed
# file: the meshes the reader is tested on (tests/input/mesh, tests/problems/mesh,
# tests/bad-input/mesh, problems/deep-arch.msh) are gmsh's own output, not files
# typed to suit the reader. The commands are the `//   gmsh -N ... -o FILE.msh` lines
# of each .geo header, run in the .geo's directory.
# usage: gmsh_regenerate.sh SOURCE_DIR WORK_DIR   (exit 77, skipped, without gmsh)
set -u
src=$1; work=$2
command -v gmsh > /dev/null || { echo "SKIP: the gmsh program is not installed (apt-get install gmsh)"; exit 77; }
rm -rf "$work"; mkdir -p "$work"
fail=0; count=0
while IFS= read -r geo; do
  dir=$(dirname "$geo")
  # Header lines: '//', spaces, 'gmsh -1|-2|-3 ...', then '-o OUT', then anything.
  while IFS= read -r line; do
    cmd=$(sed -E 's|^//[[:space:]]*||; s|(-o[[:space:]]+[^[:space:]]+).*|\1|' <<< "$line")
    out=$(sed -E 's|.*-o[[:space:]]+([^[:space:]]+)$|\1|' <<< "$cmd")
    args=$(sed -E 's|^gmsh[[:space:]]+||; s|[[:space:]]*-o[[:space:]]+[^[:space:]]+$||' <<< "$cmd")
    ref="$dir/$out"
    [ -f "$ref" ] || { echo "FAIL: $geo names $out, which is not committed"; fail=1; continue; }
    count=$((count + 1))
    tmp="$work/$count-$(basename "$out")"
    # shellcheck disable=SC2086  # the header's arguments, split as the shell would
    if ! (cd "$dir" && gmsh $args -o "$tmp" > "$tmp.log" 2>&1); then
      echo "FAIL: gmsh $args (in $dir) exited non-zero:"; tail -5 "$tmp.log"; fail=1; continue
    fi
    if cmp -s "$tmp" "$ref"; then
      echo "ok: $ref"
    else
      echo "FAIL: $ref differs from what 'gmsh $args' writes now ($tmp)"; fail=1
    fi
  done < <(grep -E '^//[[:space:]]+gmsh[[:space:]]+-[123][[:space:]].*-o[[:space:]]+[^[:space:]]+\.msh' "$geo")
done < <(find "$src/problems" "$src/tests" -name '*.geo' | sort)
[ $count -ge 10 ] || { echo "FAIL: only $count meshes found to regenerate (expected at least 10)"; fail=1; }
echo "$count meshes regenerated"
exit $fail
