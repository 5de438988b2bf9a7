#!/usr/bin/env bash
# Installs what is missing, builds rigor, runs configs/quickstart.yaml and prints its report.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec build/bin/rigor run configs/quickstart.yaml -o results/quickstart.jsonl --force
