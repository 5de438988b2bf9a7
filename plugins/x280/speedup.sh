#!/bin/sh
# Speedup of N cores against one (the X280 measurements' four_cores_x), per experiment, point and the other
# matrix axes, from a results file whose matrix has a `cores` axis:
#   plugins/x280/speedup.sh results/x280-cores.jsonl [rigor]
# Prints: experiment, point, other axes, cores, best speedup (min time of 1 core / min time of N),
# median speedup (median / median). Only rows the report keeps (ok samples of ok runs) count.
set -eu
if [ $# -lt 1 ]; then
  echo "usage: $0 RESULTS.jsonl [RIGOR]" >&2
  exit 2
fi
rigor=${2:-rigor}
"$rigor" report --format json "$1" | jq -r '
  .experiments[] | . as $e
  | ($e.variants | map({key: (.index | tostring), value: .axes}) | from_entries) as $axes
  | [$e.rows[]
     | ($axes[.variant | tostring]) as $a
     | select($a.cores != null)
     | {point: .point_label, rest: ($a | del(.cores) | tojson), cores: $a.cores,
        best: .time_s.min, median: .time_s.median}]
  | group_by([.point, .rest])[]
  | (map(select(.cores == 1)) | first) as $one
  | select($one != null)
  | .[] | select(.cores != 1)
  | [$e.name, .point, .rest, (.cores | tostring),
     ($one.best / .best * 100 | round / 100 | tostring),
     ($one.median / .median * 100 | round / 100 | tostring)]
  | @tsv'
