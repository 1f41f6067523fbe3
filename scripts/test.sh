#!/usr/bin/env bash
# The quality bar and the tests: ruff, mypy, then pytest (no network; cassettes replay).
# Store tests also run on PostgreSQL when CONVERSE_TEST_PG_URL is set (see .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== ruff"
ruff check pipeline evals tests
ruff format --check pipeline evals tests
echo "== mypy"
mypy
echo "== pytest"
python -m pytest "$@"
