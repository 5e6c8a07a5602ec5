#!/usr/bin/env bash
# Set up, build, and trace the three-bar structure (results in results/three-bar).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./build/apps/trace problems/three-bar.cfg --overwrite "$@"
