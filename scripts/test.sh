#!/usr/bin/env bash
# Set up, build, and run the whole test suite; then the distributed build
# (build-mpi: -DSENDA_MPI=ON, MPI MUMPS) and its tests under mpirun -np 2.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
cd build
ctest --output-on-failure -j"$jobs" --timeout 600

# Distributed runs (issue 14 item 3): the lib, trace and dome against the MPI MUMPS,
# and the tests that run them under mpirun (tests/mpi.cmake, label mpi).
cd ..
t0=$SECONDS
cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=Release -DSENDA_MPI=ON -DSENDA_BUILD_BENCHMARKS=OFF \
      -DSENDA_BUILD_PYTHON=OFF
cmake --build build-mpi -j"$jobs" --target trace dome
(cd build-mpi && ctest --output-on-failure -L mpi --timeout 600)
echo "test: the MPI stage took $((SECONDS - t0)) s"
