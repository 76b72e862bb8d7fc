#!/usr/bin/env bash
# Writes every preset's simulator report (`schedlab run --json`), its Perfetto trace and a
# two-policy compare into DIR, so a refactor can be checked byte for byte:
#   scripts/sim-reports.sh /tmp/before; (change); scripts/sim-reports.sh /tmp/after; diff -r /tmp/before /tmp/after
# The simulator is seeded, so the same code gives the same bytes.
set -euo pipefail
out=${1:?usage: scripts/sim-reports.sh DIR}
mkdir -p "$out"
cd "$(dirname "$0")/.."
for preset in $(node bin/schedlab.js presets --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{for(const p of JSON.parse(s))console.log(p.name)})'); do
  node bin/schedlab.js run "$preset" --json --trace "$out/$preset.trace.json" >"$out/$preset.json"
done
node bin/schedlab.js compare batch-service --policy mlfq --policy priority --json >"$out/compare-batch-service.json"
node bin/schedlab.js compare diamond --policy fifo --policy critical-path --json >"$out/compare-diamond.json"
echo "wrote $(ls "$out" | wc -l) files to $out"
