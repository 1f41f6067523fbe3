"""`converse prompts list|show|diff`, for people iterating on prompts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from pipeline.config import prompts_dir
from pipeline.prompting import PromptLibrary

runner = CliRunner()


@pytest.fixture
def prompts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the prompts with a persona v2 beside v1."""
    root = tmp_path / "prompts"
    shutil.copytree(prompts_dir(), root)
    v1 = (root / "persona" / "v1.j2").read_text()
    (root / "persona" / "v2.j2").write_text(v1.replace("Speak plainly and warmly", "Speak briefly"))
    monkeypatch.setenv("CONVERSE_PROMPTS_DIR", str(root))
    monkeypatch.setenv("COLUMNS", "200")
    return root


def test_list_shows_every_family_its_versions_and_active_hash(prompts: Path) -> None:
    result = runner.invoke(app, ["prompts", "list"])
    assert result.exit_code == 0, result.output
    sha = PromptLibrary(prompts).source("classifier")[1].sha256[:12]
    rows = {line.split("│")[1].strip(): line for line in result.output.splitlines() if "│" in line}
    assert sha in rows["classifier"] and "v1" in rows["classifier"]
    assert "v1, v2" in rows["persona"]
    assert len(rows) == len(PromptLibrary(prompts).families())


def test_show_prints_the_source_under_its_reference(prompts: Path) -> None:
    result = runner.invoke(app, ["prompts", "show", "persona", "v2"])
    assert result.exit_code == 0, result.output
    sha = PromptLibrary(prompts).source("persona", "v2")[1].sha256
    lines = result.output.splitlines()
    assert lines[0] == f"# persona/v2  sha256 {sha}  (not active)"
    assert "\n".join(lines[1:]) == (prompts / "persona" / "v2.j2").read_text().rstrip("\n")


def test_show_render_prints_what_the_classifier_gets(prompts: Path) -> None:
    result = runner.invoke(
        app, ["prompts", "show", "classifier", "--render", "--project", "Garden"]
    )
    assert result.exit_code == 0, result.output
    assert "- remember_about_me: a fact about the person" in result.output
    assert result.output.rstrip().endswith(
        'inside the project <untrusted kind="project_name">\nGarden\n</untrusted>.'
    )


def test_diff_prints_a_unified_diff(prompts: Path) -> None:
    result = runner.invoke(app, ["prompts", "diff", "persona", "v1", "v2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:2] == ["--- persona/v1", "+++ persona/v2"]
    assert any(line.startswith("-Speak plainly and warmly") for line in lines)
    assert any(line.startswith("+Speak briefly") for line in lines)
    same = runner.invoke(app, ["prompts", "diff", "persona", "v1", "v1"])
    assert same.output == "persona/v1 and persona/v1 are identical.\n"


def test_an_unknown_version_is_one_line_naming_what_exists(prompts: Path) -> None:
    result = runner.invoke(app, ["prompts", "show", "persona", "v9"])
    assert result.exit_code == 2
    assert result.output == (
        f"error: no prompt persona/v9 under {prompts} — versions of persona: v1, v2\n"
    )


def test_render_of_a_family_that_needs_a_turn_says_so(prompts: Path) -> None:
    result = runner.invoke(app, ["prompts", "show", "instructions/error", "--render"])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "error: instructions/error needs a turn's data to render — see its snapshot in "
        "tests/prompts, or drop --render to read the source"
    )
