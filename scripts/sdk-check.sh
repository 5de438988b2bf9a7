#!/bin/sh
# The plugin SDK, end to end, as a plugin author meets it: install rigor into an empty prefix,
# build the memcpy_bw example out of tree against that prefix alone (CMake package and pkg-config),
# run its config through the installed `rigor run` and check the results, its identity records
# (rigor/plugin_identity.h) included; then the same for the skeleton `rigor new-plugin` writes.
# Needs cmake, a C compiler, pkg-config and jq; a C++ compiler, if present, checks the headers.
#
# usage: scripts/sdk-check.sh [BUILD_DIR]   (a built tree; defaults to build)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/rigor-sdk-check.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
prefix=$work/prefix
jobs=${JOBS:-2}

step() { printf '\n== %s\n' "$*"; }
fail() {
  echo "sdk-check: FAILED: $*" >&2
  exit 1
}
for tool in cmake pkg-config jq nm; do
  command -v "$tool" >/dev/null || fail "$tool is required"
done

step "install rigor into $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in bin/rigor include/rigor/plugin.h include/rigor/plugin_identity.h include/rigor/test_host.h \
  lib/cmake/rigor/rigorConfig.cmake \
  lib/cmake/rigor/rigorConfigVersion.cmake lib/cmake/rigor/RigorPlugin.cmake \
  lib/pkgconfig/rigor-plugin.pc share/man/man1/rigor.1 share/bash-completion/completions/rigor \
  share/doc/rigor/writing-plugins.md share/doc/rigor/user-guide.md share/rigor/configs; do
  [ -e "$prefix/$f" ] || fail "cmake --install did not install $f"
done
rigor=$prefix/bin/rigor
"$rigor" --version

step "the installed rigor loads the installed plugins, relative to itself"
unset RIGOR_PLUGIN_PATH
shipped=$("$rigor" plugins --names)
[ -n "$shipped" ] || fail "the installed rigor finds no plugin"
for name in $shipped; do
  [ -f "$prefix/lib/rigor/plugins/$name.so" ] || continue
  described=$("$rigor" plugins "$name") || fail "the installed rigor cannot load its plugin $name"
  where=$(echo "$described" | awk '$1 == "file:" { print $2 }')
  [ "$where" = "$prefix/lib/rigor/plugins/$name.so" ] ||
    fail "the installed rigor loads $name from $where"
  echo "$name: $where"
done

# The example is copied out of the source tree so nothing but the installed prefix is reachable.
step "build examples/memcpy_bw out of tree with find_package(rigor)"
cp -r "$root/examples/memcpy_bw" "$work/template"
rm -rf "$work/template/build"
cmake -S "$work/template" -B "$work/template-build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_COMPILE_WARNING_AS_ERROR=ON >"$work/template-configure.log" ||
  { cat "$work/template-configure.log"; fail "the template does not configure"; }
cmake --build "$work/template-build" -j "$jobs"
so=$work/template-build/memcpy_bw.so
[ -f "$so" ] || fail "rigor_add_plugin did not produce memcpy_bw.so"
exported=$(nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }')
[ "$exported" = rigor_plugin_get ] || fail "memcpy_bw.so exports [$exported], not only rigor_plugin_get"

step "the installed headers compile as C++ too"
if command -v "${CXX:-c++}" >/dev/null; then
  printf '#include <rigor/plugin.h>\n#include <rigor/plugin_identity.h>\n#include <rigor/test_host.h>\n' |
    "${CXX:-c++}" -x c++ -std=c++11 -Wall -Wextra -Werror -fsyntax-only -I"$prefix/include" - ||
    fail "rigor/plugin.h, rigor/plugin_identity.h or rigor/test_host.h does not compile as C++"
  echo "C++: ok"
else
  echo "no C++ compiler; skipped"
fi

step "build the template with pkg-config instead"
mkdir "$work/pc"
cflags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags rigor-plugin)
includedir=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --variable=includedir rigor-plugin)
[ "$(cd "$includedir" && pwd)" = "$prefix/include" ] ||
  fail "rigor-plugin.pc points at $includedir, not $prefix/include"
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -shared -fPIC $cflags \
  -o "$work/pc/memcpy_bw.so" "$work/template/src/memcpy_bw.c"
"$rigor" plugins memcpy_bw --plugin-path "$work/pc" >/dev/null ||
  fail "the pkg-config build does not load"

step "rigor plugins / validate / run against the out-of-tree plugin"
"$rigor" plugins memcpy_bw --plugin-path "$work/template-build"
RIGOR_PLUGIN_PATH="$work/template-build" "$rigor" validate "$work/template/configs/memcpy_bw.yaml"
results=$work/memcpy_bw.jsonl
"$rigor" run "$work/template/configs/memcpy_bw.yaml" -o "$results" \
  --plugin-path "$work/template-build" || fail "rigor run exited $?"

step "check the results"
# The config: matrix offset [0, 1] x mirrored x 2 replicates = 4 runs; each run 5 cycles over the
# sweep bytes [256KiB, 16MiB] = 10 samples.
runs=$(jq -s '[.[] | select(.type == "run")] | length' "$results")
ok_runs=$(jq -s '[.[] | select(.type == "run" and .status == "ok")] | length' "$results")
samples=$(jq -s '[.[] | select(.type == "sample")] | length' "$results")
[ "$runs" -eq 4 ] || fail "expected 4 run records, found $runs"
[ "$ok_runs" -eq 4 ] || fail "only $ok_runs of 4 runs are ok"
[ "$samples" -eq 40 ] || fail "expected 40 samples, found $samples"
bad=$(jq -c 'select(.type == "sample") | select(
    (.check.wrong // 1) != 0
    or .check.checked != (.point_params.bytes + 64)
    or .bytes != 2 * .point_params.bytes
    or ((.rates.bytes_per_s // 0) <= 0)
    or (.metrics.prime_s | type) != "number"
    or .iters != 10)' "$results" | head -n 3)
[ -z "$bad" ] || fail "samples disagree with the plugin's contract: $bad"
# The identity hook (rigor_kv_put from rigor/plugin_identity.h): each buffer holds the largest
# point, 16MiB + offset + 64 guard bytes, rounded up to 4096.
bad=$(jq -c 'select(.type == "run") | .plugin_identity | select(
    .["memcpy_bw.buffer_bytes"] != "16781312"
    or .["memcpy_bw.alignment"] != "4096"
    or ((.["memcpy_bw.page_size"] // "0") | tonumber) <= 0
    or length != 3)' "$results" | head -n 3)
[ -z "$bad" ] || fail "run records' plugin_identity disagrees with the template: $bad"
"$rigor" report "$results"

step "ctest of the template build (its unit test on rigor::test_host, and rigor run)"
ctest --test-dir "$work/template-build" --output-on-failure

step "install the plugin into rigor's prefix: found relative to the binary"
cmake --install "$work/template-build" --prefix "$prefix" >/dev/null
[ -f "$prefix/lib/rigor/plugins/memcpy_bw.so" ] || fail "rigor_install_plugin did not install"
"$rigor" plugins memcpy_bw >/dev/null ||
  fail "the installed rigor does not find lib/rigor/plugins/memcpy_bw.so"
rm -f "$prefix/lib/rigor/plugins/memcpy_bw.so"

step "rigor new-plugin writes a plugin that builds and runs"
(cd "$work" && "$rigor" new-plugin fastcopy)
cmake -S "$work/fastcopy" -B "$work/fastcopy/build" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_COMPILE_WARNING_AS_ERROR=ON >/dev/null
cmake --build "$work/fastcopy/build" -j "$jobs"
"$rigor" run "$work/fastcopy/configs/fastcopy.yaml" -o "$work/fastcopy.jsonl" \
  --plugin-path "$work/fastcopy/build" >/dev/null || fail "rigor run of the new plugin exited $?"
fast_ok=$(jq -s '[.[] | select(.type == "run" and .status == "ok")] | length' "$work/fastcopy.jsonl")
[ "$fast_ok" -eq 3 ] || fail "new plugin: $fast_ok of 3 runs ok"
ctest --test-dir "$work/fastcopy/build" --output-on-failure

echo
echo "sdk-check: OK"
