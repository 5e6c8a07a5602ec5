#!/usr/bin/env bash
# Installs the Debian packages Senda needs (when run as root), then configures
# and builds Senda in Release into ./build. Used by scripts/run-example.sh and
# scripts/test.sh; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake libeigen3-dev libsuitesparse-dev libboost-program-options-dev
          libfmt-dev catch2 nlohmann-json3-dev gnuplot-nox libmumps-seq-dev libopenblas0-pthread
          pybind11-dev python3-dev python3-numpy python3-scipy python3-pytest
          libmumps-dev libopenmpi-dev openmpi-bin gmsh ccache)
# libmumps-dev, libopenmpi-dev, openmpi-bin for the distributed build (build-mpi,
# -DSENDA_MPI=ON, scripts/test.sh): MPI MUMPS (with ScaLAPACK, BLACS, SCOTCH,
# PT-SCOTCH and METIS) and OpenMPI. gmsh, the program, for the test that writes the
# committed meshes again from their .geo scripts (cli.gmsh-regenerate); Senda reads
# MSH 4.1 with its own reader and does not link Gmsh. ccache: the builds of one
# checkout share their objects (build-mpi compiles only lib/src/linalg after build).
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "setup: these Debian packages are missing: ${missing[*]}" >&2
    echo "setup: install them with: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j"$jobs"
