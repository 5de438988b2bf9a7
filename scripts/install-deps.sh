#!/usr/bin/env bash
# Installs what rigor needs to build and test on Debian 12, skipping what is already there.
# Usage: scripts/install-deps.sh [--test]   (--test adds the tools the test suite uses)
set -euo pipefail
packages=(build-essential cmake pkg-config libyaml-dev libjansson-dev libhwloc-dev libssl-dev
          libcmocka-dev openmpi-bin libopenmpi-dev libxxhash-dev)
if [ "${1:-}" = "--test" ]; then
  packages+=(clang valgrind chromium jq)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "rigor: missing packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
