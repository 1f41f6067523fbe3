"""`converse cassettes check`: stale cassettes found from the files alone, with the fix."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cassettes import SYNTHETIC, cassettes_dir
from evals.cli import app
from pipeline.config import prompts_dir
from pipeline.prompting import PromptLibrary

runner = CliRunner()
SOURCE = cassettes_dir() / SYNTHETIC / "test_classifier_synthetic"
ONE = "test_synthetic_birthday_is_remember_about_me.yaml"
RERECORD = (
    "pytest 'tests/claude/test_classifier_synthetic.py::"
    "test_synthetic_birthday_is_remember_about_me' --record-mode=rewrite"
)


@pytest.fixture
def cassettes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cassettes" / SYNTHETIC
    root.mkdir(parents=True)
    shutil.copy(SOURCE / ONE, root / ONE)
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "cassettes"


def edit_classifier(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    root = tmp_path / "prompts"
    shutil.copytree(prompts_dir(), root)
    before = PromptLibrary(root).source("classifier")[1].sha256
    template = root / "classifier" / "v6.j2"
    template.write_text(template.read_text() + "\nOne more rule.\n")
    monkeypatch.setenv("CONVERSE_PROMPTS_DIR", str(root))
    return before, PromptLibrary(root).source("classifier")[1].sha256


def test_fresh_cassettes_pass(cassettes: Path) -> None:
    result = runner.invoke(app, ["cassettes", "check", "--dir", str(cassettes), "-v"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"ok     cassettes/synthetic/{ONE} (synthetic; classifier/v6)",
        "1 cassettes under cassettes: 1 fresh, 0 stale or unsafe",
    ]


def test_a_changed_template_makes_its_cassettes_stale(
    cassettes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, after = edit_classifier(tmp_path, monkeypatch)
    result = runner.invoke(app, ["cassettes", "check", "--dir", str(cassettes)])
    assert result.exit_code == 1
    assert result.output.splitlines() == [
        f"STALE  cassettes/synthetic/{ONE} (synthetic)",
        f"       classifier/v6 changed (sha256 {before[:12]}… when recorded, now {after[:12]}…)",
        f"       re-record: {RERECORD}",
        "1 cassettes under cassettes: 0 fresh, 1 stale or unsafe",
    ]


def test_json_output_lists_the_stale_ones(
    cassettes: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit_classifier(tmp_path, monkeypatch)
    result = runner.invoke(app, ["cassettes", "check", "--dir", str(cassettes), "--json"])
    assert result.exit_code == 1
    payload = json.loads(result.output)
    assert payload["checked"] == 1
    [stale] = payload["stale"]
    assert stale["path"] == f"cassettes/synthetic/{ONE}"
    assert stale["synthetic"] is True and stale["rerecord"] == RERECORD
    assert stale["reasons"][0].startswith("classifier/v6 changed")


def test_a_cassette_holding_a_key_is_flagged(cassettes: Path) -> None:
    path = cassettes / SYNTHETIC / ONE
    text = path.read_text().replace(
        "content-type:", "x-api-key:\n      - sk-ant-api03-abcdefghijk\n      content-type:", 1
    )
    path.write_text(text)
    result = runner.invoke(app, ["cassettes", "check", "--dir", str(cassettes)])
    assert result.exit_code == 1
    assert (
        "       holds an Anthropic API key — scrub it and re-record" in result.output.splitlines()
    )
    assert "       holds an x-api-key header — scrub it and re-record" in result.output.splitlines()
