#!/usr/bin/env bash
# Installs what is missing, builds rigor and its tests, and runs the whole suite.
# RIGOR_BUILD_DIR and RIGOR_CMAKE_ARGS select another build (for example the sanitizer one).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test
build="${RIGOR_BUILD_DIR:-build}"
# shellcheck disable=SC2086
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${RIGOR_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
