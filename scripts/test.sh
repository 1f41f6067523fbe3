#!/usr/bin/env bash
# The quality bar and the tests: ruff, mypy, then pytest (no network; cassettes replay).
# Store tests also run on PostgreSQL when CONVERSE_TEST_PG_URL is set (see .ci/run). Which test
# groups will skip here (no Chromium, no PostgreSQL, ...) is said first; under CI that fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v ruff >/dev/null || ! command -v mypy >/dev/null \
    || ! python -c "import pytest" 2>/dev/null; then
    echo "the dev tools are not installed: run bash scripts/setup.sh --dev" >&2
    exit 2
fi
echo "== what will skip"
bash scripts/skips.sh
echo "== ruff"
ruff check pipeline evals tests
ruff format --check pipeline evals tests
echo "== mypy"
mypy
echo "== pytest"
# One worker per core (pytest-xdist): every test has its own database, folder and store, so
# they run apart; the slowest are listed at the end, to show where the time goes.
python -m pytest -n auto --durations=15 "$@"
