#!/bin/sh
# Every figure of bench/ab/within in one go, one after the other, into one WORK folder: A/A
# within one file (20), planted 5% and 2% slowdowns (20 each), the time to a 1% answer (10).
#
#   bench/ab/within/all.sh [BUILD_DIR]      env: WORK, QUIET (a load average to wait below)
set -eu
here=$(dirname "$0")
export WORK=${WORK:-$(mktemp -d)}
"$here/aa.sh" "$@"
PLANT=5 "$here/planted.sh" "$@"
PLANT=2 "$here/planted.sh" "$@"
"$here/time.sh" "$@"
