#!/usr/bin/env bash
# Start-up cost of the CLI run through tsx (bin/schedlab.js) against the same CLI compiled to
# JavaScript first (tsc into dist/cli, which is git-ignored). Prints the median CPU time (user +
# sys) of RUNS runs of `schedlab presets` and `schedlab --help` each way, and of a bare `node -e 0`:
# CPU time, not wall time, so a busy machine's queueing does not count.
#   scripts/startup-times.sh [RUNS]
set -euo pipefail
runs=${1:-5}
cd "$(dirname "$0")/.."
conf=$(mktemp --suffix=.json)
trap 'rm -f "$conf"' EXIT
cat >"$conf" <<JSON
{
  "extends": "$PWD/tsconfig.build.json",
  "compilerOptions": { "outDir": "$PWD/dist/cli", "rootDir": "$PWD", "declaration": false, "types": [] },
  "files": ["$PWD/engine/cli/main.ts"]
}
JSON
# Type errors are the type check's business (npx tsc -p .); only the emitted JavaScript matters here.
npx tsc -p "$conf" >/dev/null || true
median() {
  local out
  out=$(mktemp)
  for _ in $(seq "$runs"); do
    /usr/bin/time -a -o "$out" -f '%U %S' "$@" >/dev/null 2>&1
  done
  awk '{print $1 + $2}' "$out" | sort -n | awk '{a[NR] = $1} END {printf "%.2f s", a[int((NR + 1) / 2)]}'
  rm -f "$out"
}
echo "presets  tsx $(median node bin/schedlab.js presets)  compiled $(median node dist/cli/engine/cli/main.js presets)"
echo "--help   tsx $(median node bin/schedlab.js --help)  compiled $(median node dist/cli/engine/cli/main.js --help)"
echo "node -e 0    $(median node -e 0)"
