"""The exported config runs in the real promptfoo CLI (only when PROMPTFOO_BIN names one)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from evals.dataset import load_suite
from evals.export import export_promptfoo

PROMPTFOO = os.environ.get("PROMPTFOO_BIN")

pytestmark = pytest.mark.skipif(
    not PROMPTFOO, reason="set PROMPTFOO_BIN to a promptfoo 0.121.20 CLI (see docs/evals.md)"
)


def test_promptfoo_scores_the_export_like_our_runner(classify_suite, script_file, tmp_path):
    out = tmp_path / "pf"
    export_promptfoo(load_suite(classify_suite), out, provider="scripted", script=script_file)
    env = {
        **os.environ,
        "PROMPTFOO_DISABLE_TELEMETRY": "1",
        "PROMPTFOO_DISABLE_UPDATE": "1",
        "PROMPTFOO_CONFIG_DIR": str(tmp_path / "promptfoo-home"),
        "CONVERSE_HARNESS_ROOT": str(Path(__file__).resolve().parents[2]),
    }
    assert PROMPTFOO is not None
    done = subprocess.run(
        [PROMPTFOO, "eval", "-c", "promptfooconfig.yaml", "--no-cache", "-o", "results.json"],
        cwd=out, env=env, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert (out / "results.json").is_file(), done.stdout + done.stderr
    results = json.loads((out / "results.json").read_text())["results"]["results"]
    outcome = {
        r["testCase"]["description"].split("/")[1]: (
            "error" if r.get("error") and not r.get("gradingResult") else r["success"]
        )
        for r in results
    }
    assert outcome == {
        "shellfish": True,
        "refined": True,
        "wife-vegetarian": False,
        "unscripted": "error",
    }
