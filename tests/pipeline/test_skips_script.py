"""scripts/skips.sh, which scripts/test.sh runs first: it names each test group this machine
will skip and why, and under CI a group that would skip fails the run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _skips(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The script on a PATH with Python and no Chromium, without a PostgreSQL URL."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name, target in {"python": sys.executable, "dirname": shutil.which("dirname")}.items():
        assert target is not None
        link = bin_dir / name
        if not link.exists():
            link.symlink_to(target)
    base = {k: v for k, v in os.environ.items() if k not in ("CI", "CONVERSE_TEST_PG_URL")}
    return subprocess.run(
        [shutil.which("bash") or "/bin/bash", str(ROOT / "scripts/skips.sh")],
        env={**base, "PATH": str(bin_dir), "PYTHONPATH": str(ROOT), **env},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_the_groups_that_will_skip_are_named_with_why(tmp_path: Path) -> None:
    done = _skips(tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(
        line.startswith("will skip the browser tests") and "chromium is not installed" in line
        for line in lines
    ), lines
    assert any(
        line.startswith("will skip every store test on PostgreSQL")
        and "CONVERSE_TEST_PG_URL is not set" in line
        for line in lines
    ), lines


def test_in_ci_a_group_that_would_skip_fails(tmp_path: Path) -> None:
    done = _skips(tmp_path, CI="true")
    assert done.returncode == 1
    assert "in CI every test group must run" in done.stderr
    with_pg = _skips(tmp_path, CONVERSE_TEST_PG_URL="postgresql+psycopg://x@127.0.0.1/x")
    assert not any("PostgreSQL" in line for line in with_pg.stdout.splitlines())


def test_the_test_script_and_ci_run_it_first() -> None:
    script = (ROOT / "scripts/test.sh").read_text(encoding="utf-8")
    assert script.index("bash scripts/skips.sh") < script.index("python -m pytest")
    assert 'export CI="${CI:-true}"' in (ROOT / ".ci/run").read_text(encoding="utf-8")
