#!/usr/bin/env bash
# Every test: types, lint and formatting, unit, integration on SQLite, the README's examples against a test twin,
# integration on PostgreSQL, then the built app in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s check
npm run -s test:unit
npm run -s test:int
npm run -s test:examples
npm run -s test:int:pg
npm run -s build
npm run -s test:e2e
