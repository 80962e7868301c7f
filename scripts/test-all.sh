#!/usr/bin/env bash
# Every test: types, lint and formatting, unit, integration on SQLite, the README's examples against a test twin,
# integration on PostgreSQL, then the built app in Chromium. Prints each stage's wall time at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

timings=()
report() {
  local status=$?
  [ ${#timings[@]} -eq 0 ] && exit $status
  printf '\nstage                 seconds\n'
  printf '%s\n' "${timings[@]}"
  printf '%-21s %7d\n' total "$SECONDS"
  exit $status
}
trap report EXIT
stage() {
  local name=$1 start=$SECONDS
  shift
  "$@"
  timings+=("$(printf '%-21s %7d' "$name" $((SECONDS - start)))")
}

stage check npm run -s check
stage unit npm run -s test:unit
stage integration npm run -s test:int
stage examples npm run -s test:examples
stage integration-pg npm run -s test:int:pg
stage build npm run -s build
stage e2e npm run -s test:e2e
