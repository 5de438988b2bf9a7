#!/bin/sh
# Regenerates the schema block of every shipped plugin's README from the plugin itself:
# the lines between <!-- rigor:schema:begin --> and <!-- rigor:schema:end --> become the output
# of `rigor plugins NAME --format md`. A README without the markers gets the block appended.
# Plugins the given rigor cannot load (not built here, e.g. nccl without CUDA) are left alone.
#
# usage: scripts/update-plugin-readmes.sh [RIGOR]   (RIGOR defaults to build/bin/rigor)
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
rigor=${1:-$root/build/bin/rigor}
if [ ! -x "$rigor" ]; then
  echo "update-plugin-readmes: $rigor is not an executable rigor; build first or pass its path" >&2
  exit 2
fi

begin='<!-- rigor:schema:begin -->'
end='<!-- rigor:schema:end -->'
changed=0
for dir in "$root"/plugins/*/; do
  name=$(basename "$dir")
  readme=$dir/README.md
  schema=$(mktemp)
  if ! "$rigor" plugins "$name" --format md >"$schema" 2>/dev/null; then
    echo "update-plugin-readmes: $name: not loadable by $rigor, skipped"
    rm -f "$schema"
    continue
  fi
  next=$(mktemp)
  if [ -f "$readme" ] && grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme"; then
    awk -v begin="$begin" -v end="$end" -v schema="$schema" '
      $0 == begin { print; while ((getline line < schema) > 0) print line; skip = 1; next }
      $0 == end   { skip = 0 }
      !skip       { print }' "$readme" >"$next"
  else
    { [ -f "$readme" ] && cat "$readme" && echo; echo "$begin"; cat "$schema"; echo "$end"; } >"$next"
  fi
  if [ -f "$readme" ] && cmp -s "$next" "$readme"; then
    rm -f "$next"
  else
    cat "$next" >"$readme"
    rm -f "$next"
    echo "update-plugin-readmes: plugins/$name/README.md updated"
    changed=$((changed + 1))
  fi
  rm -f "$schema"
done
echo "update-plugin-readmes: $changed README(s) changed"
