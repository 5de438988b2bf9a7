#!/usr/bin/env bash
# Installs what is missing, builds rigor, runs configs/quickstart.yaml and prints its report.
# The experiment holds 1.5 GiB of arrays while it runs (two interleaved arms, 1 and 2 threads,
# each with three arrays of 256 MiB) and stops after a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
mkdir -p build
if ! { cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo &&
  cmake --build build -j"$(nproc)"; } >build/quickstart-build.log 2>&1; then
  tail -n 40 build/quickstart-build.log >&2
  echo "rigor: the build failed; the whole log is in build/quickstart-build.log" >&2
  exit 1
fi
exec build/bin/rigor run configs/quickstart.yaml -o results/quickstart.jsonl --force
