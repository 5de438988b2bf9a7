#!/usr/bin/env bash
# Builds the x280 plugin's RVV map loop (x280_vmap_rvv.c) for riscv64 with clang (from the
# ziglang package on PyPI) and runs plugins/x280/tests/rvv_check.c under qemu-user: exact at VLEN
# 128 and 512, and "no V" on a core without the vector extension. Needs qemu-user-static (apt) and
# pip.
#
#   scripts/check-rvv.sh [WORK_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d "${TMPDIR:-/tmp}/rigor-rvv.XXXXXX")}
mkdir -p "$work"
command -v qemu-riscv64-static >/dev/null || { echo "check-rvv: qemu-riscv64-static missing (apt-get install qemu-user-static)" >&2; exit 1; }
if [ ! -d "$work/zig/ziglang" ]; then
  pip_install=(python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore
    --target "$work/zig" ziglang==0.13.0)
  # A distribution's own python refuses installs unless told; --target touches nothing of it.
  "${pip_install[@]}" 2>/dev/null || "${pip_install[@]}" --break-system-packages
fi
cc() { PYTHONPATH="$work/zig" python3 -m ziglang cc -target riscv64-linux-musl -O2 -std=c11 \
  -Wall -Wextra -Werror -I"$root/plugins/x280" "$@"; }
src=$root/plugins/x280
cc -mcpu=baseline_rv64+v -c "$src/x280_vmap_rvv.c" -o "$work/vmap_rvv.o"
cc -mcpu=baseline_rv64 -c "$src/tests/rvv_check.c" -o "$work/rvv_check.o"
# The linker's start files warn about their own code; only a failure matters.
cc -static "$work/rvv_check.o" "$work/vmap_rvv.o" -o "$work/rvv_check" -Wno-error 2>"$work/link.log" ||
  { cat "$work/link.log" >&2; exit 1; }
for vlen in 128 512; do
  echo -n "VLEN $vlen: "
  qemu-riscv64-static -cpu "rv64,v=true,vlen=$vlen,elen=64,vext_spec=v1.0" "$work/rvv_check"
done
echo -n "no V: "
set +e
qemu-riscv64-static -cpu rv64 "$work/rvv_check"
rc=$?
set -e
[ "$rc" -eq 2 ] || { echo "check-rvv: expected exit 2 without V, got $rc" >&2; exit 1; }
