#!/usr/bin/env bash
# Runs the integration suite on PostgreSQL: the Prisma client is generated per provider,
# so it is generated for PostgreSQL first and back for the SQLite default afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
PG_URL="${TEST_POSTGRES_URL:-postgresql://root@127.0.0.1:5432/postgres}"
restore() { DATABASE_URL="file:./data/guildhall.db" npm run -s db:generate >/dev/null; }
trap restore EXIT
DATABASE_URL="$PG_URL" npm run -s db:generate
TEST_DATABASE_URL="$PG_URL" TEST_POSTGRES_URL="$PG_URL" npx vitest run --project integration
