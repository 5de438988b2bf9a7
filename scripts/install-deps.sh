#!/usr/bin/env bash
# Installs what rigor needs to build and test on Debian 12, skipping what is already there.
# Usage: scripts/install-deps.sh [--test] [--bench]   (--test adds the tools the test suite uses,
# Slurm's daemons among them for the cluster tests; --bench those bench/ compares against:
# hyperfine for bench/exec)
set -euo pipefail
packages=(build-essential cmake pkg-config libyaml-dev libjansson-dev libsimdjson-dev libhwloc-dev libssl-dev
          libcmocka-dev openmpi-bin libopenmpi-dev libsqlite3-dev libpq-dev libxxhash-dev)
for arg in "$@"; do
  case $arg in
  --test) packages+=(clang valgrind chromium jq postgresql slurmctld slurmd slurm-client munge) ;;
  --bench) packages+=(hyperfine jq) ;;
  esac
done
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
