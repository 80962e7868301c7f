#!/usr/bin/env bash
# Every test: types, lint and formatting, unit, integration on SQLite and on PostgreSQL, then the built app in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s check
npm run -s test:unit
npm run -s test:int
npm run -s test:int:pg
npm run -s build
npm run -s test:e2e
