#!/usr/bin/env bash
# Set up, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
cd build
ctest --output-on-failure -j"$jobs" --timeout 600
