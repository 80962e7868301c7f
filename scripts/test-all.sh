#!/usr/bin/env bash
# Every test: types, lint, formatting, unused code and the module structure (at once); then
# one vitest run of unit, integration on SQLite and on PostgreSQL, and the README's examples
# against a test twin; then the built app, served by the production server, in Chromium.
# Prints each stage's wall time at the end.
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
stage tests npx vitest run
GUILDHALL_TYPES_CHECKED=1 stage build npm run -s build
stage e2e npm run -s test:e2e
