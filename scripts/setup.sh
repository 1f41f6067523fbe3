#!/usr/bin/env bash
# Install everything the project needs into the current Python (3.11+).
# torch comes first and pinned: pip takes the CPU build of 2.13.0 from this machine's disk;
# letting a dependency pull torch instead would download a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install -q --disable-pip-version-check "torch==2.13.0"
python -m pip install -q --disable-pip-version-check -e ".[dev]"
