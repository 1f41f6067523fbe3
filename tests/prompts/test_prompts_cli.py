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
    assert sha in rows["classifier"] and "v3" in rows["classifier"]
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


def _row(output: str, model: str) -> list[str]:
    for line in output.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if len(cells) > 2 and cells[1] == model:
            return cells[1:-1]
    raise AssertionError(f"no row for {model} in:\n{output}")


def test_show_tokens_estimates_the_classifier_prefix_beside_each_minimum(
    prompts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    for var in ("CONVERSE_CLAUDE_CLASSIFIER_MODEL", "CONVERSE_CLAUDE_RESPONDER_MODEL"):
        monkeypatch.delenv(var, raising=False)
    result = runner.invoke(app, ["prompts", "show", "classifier", "--tokens"])
    assert result.exit_code == 0, result.output
    assert "(estimate: four characters a token;" in result.output
    # The default classifier takes structured output: its cached prefix is the system block
    # alone; a forced-tool model's carries the tool as well.
    count = int(result.output.split("claude-haiku-5-5): ")[1].split(" tokens")[0].replace(",", ""))
    assert 1500 < count < 4096
    haiku = _row(result.output, "claude-haiku-4-5")
    with_tool = int(haiku[1].replace(",", ""))
    assert with_tool > count + 300
    assert haiku[2:] == ["4,096", f"no: {4096 - with_tool:,} tokens short", ""]
    assert _row(result.output, "claude-sonnet-4-6")[2:5] == ["1,024", "yes", ""]
    # The default models, current ones the caching page does not list: the largest minimum.
    current = _row(result.output, "claude-haiku-5-5")
    assert current[1:5] == [
        f"{count:,}",
        "4,096 (not listed)",
        f"no: {4096 - count:,} tokens short",
        "classifier",
    ]
    assert _row(result.output, "claude-sonnet-5-5")[4] == "responder"


def test_show_tokens_counts_with_the_api_when_there_is_a_key(
    prompts: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evals.loopback import LoopbackServer

    with LoopbackServer([]) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "loopback-key")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        result = runner.invoke(app, ["prompts", "show", "persona", "--tokens"])
    assert result.exit_code == 0, result.output
    assert "counted by the API for claude-sonnet-5-5 (messages.count_tokens" in result.output
    assert "loopback-key" not in result.output
    assert _row(result.output, "claude-sonnet-5-5")[3].startswith("no: ")
