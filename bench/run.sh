#!/usr/bin/env bash
# One command for the Switchyard benchmarks (see bench/README.md). Knobs are environment variables:
#   bench/run.sh                                    # full run: scenarios, 1,000 slow streams, 10-minute soak
#   SOAK_SECONDS=60 REPS=1 DURATION=5 bench/run.sh  # quick pass
# Builds the gateway first unless SKIP_BUILD=1, installs wrk from apt when it is missing.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$HERE/.."
if ! command -v wrk >/dev/null || ! command -v taskset >/dev/null; then
  [ "$(id -u)" = 0 ] || { echo "bench: wrk and taskset are needed (apt-get install wrk util-linux)" >&2; exit 1; }
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wrk util-linux >/dev/null
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  # tsc emits even when another folder has a type error in progress; the benchmark runs what was emitted.
  npm run build --silent >/dev/null 2>&1 || echo "bench: the build reported type errors; running the emitted dist/" >&2
fi
[ -f dist/cli/main.js ] || { echo "bench: dist/ is missing (npm run build)" >&2; exit 1; }
# This script and its load generators run on the load-generator core; servers are pinned by run.mjs.
exec taskset -c "${LOADGEN_CPU:-0}" node "$HERE/run.mjs"
