#!/usr/bin/env bash
# Start Debian's PostgreSQL on loopback and print the URL the store tests use.
# Needs root and the `postgresql` package (installed by .ci/run).
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$version main"; then
  pg_createcluster "$version" main >/dev/null
fi
pg_ctlcluster "$version" main start >/dev/null 2>&1 || true  # "already running" is fine
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 1
done
pg_isready -q -h 127.0.0.1 -p 5432 || { echo "PostgreSQL did not start" >&2; exit 1; }
su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'converse'\"" >/dev/null
echo "postgresql+psycopg://postgres:converse@127.0.0.1:5432/postgres"
