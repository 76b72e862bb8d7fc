#!/usr/bin/env bash
# Start-up cost of the CLI as `schedlab` runs it (bin/schedlab.js: the compiled CLI in dist/lib,
# built first if stale) against the same sources run through tsx (`node --import tsx`, the
# development path and what bin/schedlab.js did before it ran compiled code). Prints the median
# CPU time (user + sys) of RUNS runs of `schedlab presets` and `schedlab --help` each way, and of
# a bare `node -e 0`: CPU time, not wall time, so a busy machine's queueing does not count.
#   scripts/startup-times.sh [RUNS]
set -euo pipefail
runs=${1:-5}
cd "$(dirname "$0")/.."
node scripts/build-if-stale.mjs
median() {
  local out
  out=$(mktemp)
  for _ in $(seq "$runs"); do
    /usr/bin/time -a -o "$out" -f '%U %S' "$@" >/dev/null 2>&1
  done
  awk '{print $1 + $2}' "$out" | sort -n | awk '{a[NR] = $1} END {printf "%.2f s", a[int((NR + 1) / 2)]}'
  rm -f "$out"
}
echo "presets  tsx $(median node --import tsx engine/cli/main.ts presets)  compiled $(median node bin/schedlab.js presets)"
echo "--help   tsx $(median node --import tsx engine/cli/main.ts --help)  compiled $(median node bin/schedlab.js --help)"
echo "node -e 0    $(median node -e 0)"
