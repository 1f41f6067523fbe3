#!/usr/bin/env bash
# Which test groups this machine will skip, and why, said before pytest runs (scripts/test.sh).
# Under CI (CI set, as .ci/run sets it) a group that would skip is an error: exit 1.
set -euo pipefail
cd "$(dirname "$0")/.."
skips=()
has() { python -c "import $1" 2>/dev/null; }
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
    skips+=("the browser tests (tests/view/test_view_chromium.py, tests/evals/test_eval_report_chromium.py): chromium is not installed — apt-get install chromium")
elif ! has playwright.sync_api; then
    skips+=("the viewer's browser tests (tests/view/test_view_chromium.py): Playwright is not installed — bash scripts/setup.sh --dev")
fi
if [ -z "${CONVERSE_TEST_PG_URL:-}" ]; then
    skips+=("every store test on PostgreSQL (marked postgres): CONVERSE_TEST_PG_URL is not set — as root with the postgresql package: export CONVERSE_TEST_PG_URL=\$(bash scripts/start-postgres.sh)")
fi
if ! has usearch; then
    skips+=("the nearest-neighbour index tests (tests/local/test_ann_search.py, test_local_bench.py): usearch is not installed — pip install -e '.[ann]'")
fi
if ! has xllamacpp; then
    skips+=("the local-llm runtime tests (tests/local_llm/): xllamacpp is not installed — bash scripts/setup.sh --dev")
fi
if ! has vcr; then
    skips+=("the cassette replay tests: vcrpy is not installed — bash scripts/setup.sh --dev")
fi
if [ ${#skips[@]} -eq 0 ]; then
    echo "no test group will skip"
    exit 0
fi
for skip in "${skips[@]}"; do
    echo "will skip ${skip}"
done
if [ -n "${CI:-}" ]; then
    echo "error: in CI every test group must run; install what is named above" >&2
    exit 1
fi
