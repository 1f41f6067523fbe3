"""A run's provenance: an untracked template makes the commit dirty, and the release report
names each template by its hash."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from evals.report.release import templates_used
from evals.runner import gitinfo


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "config", "user.email", "t@example.com")
    _git(tmp_path, "config", "user.name", "t")
    (tmp_path / "prompts" / "classifier").mkdir(parents=True)
    (tmp_path / "prompts" / "classifier" / "v1.j2").write_text("v1", encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "first")
    monkeypatch.setattr(gitinfo, "PROJECT_ROOT", tmp_path)
    gitinfo.git_state.cache_clear()
    yield tmp_path
    gitinfo.git_state.cache_clear()


def _dirty() -> bool | None:
    gitinfo.git_state.cache_clear()
    return gitinfo.git_state()["dirty"]


def test_an_untracked_template_makes_the_run_dirty(repo):
    assert _dirty() is False
    (repo / "notes.txt").write_text("scratch", encoding="utf-8")
    assert _dirty() is False  # an untracked file outside the sources changes nothing measured
    (repo / "prompts" / "classifier" / "v3.j2").write_text("new", encoding="utf-8")
    assert _dirty() is True


def test_a_changed_tracked_template_makes_the_run_dirty(repo):
    (repo / "prompts" / "classifier" / "v1.j2").write_text("changed", encoding="utf-8")
    assert _dirty() is True


def test_the_release_names_each_template_by_its_hash():
    ref = {"family": "classifier", "version": "v3", "sha256": "ab" * 32}
    other = {"family": "persona", "version": "v1", "sha256": "cd" * 32}
    rows = [{"prompts": [ref, other]}, {"prompts": [ref]}, {"prompts": []}]
    found = templates_used(rows).to_dict("records")
    assert found == [
        {"family": "classifier", "version": "v3", "sha256": "ab" * 32, "rows": 2},
        {"family": "persona", "version": "v1", "sha256": "cd" * 32, "rows": 1},
    ]
