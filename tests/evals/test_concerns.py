"""Input that used to be accepted silently: each is now one line, and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite
from evals.dataset.load import SuiteError

runner = CliRunner()


def one_line(args: list[str]) -> str:
    result = runner.invoke(app, args)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1, result.output
    return lines[0]


def test_a_key_named_twice_in_a_suite_is_refused(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text(
        "name: s\ntarget: classify\ncases:\n  - id: a\n    message: hi\n"
        "    expect: {intent: general_conversation}\n    expect: {intent: add_knowledge}\n",
        encoding="utf-8",
    )
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert caught.value.one_line() == (
        f"{path} is not valid YAML at line 7, column 5: the key 'expect' appears twice"
        " — fix the file"
    )


def test_junit_into_a_missing_folder_is_refused_and_makes_none(tmp_path, reports_root):
    target = tmp_path / "nowhere" / "x.xml"
    said = one_line(["eval", "--provider", "local", "--junit", str(target)])
    assert said == (
        f"error: the folder of {target} does not exist — create it first, or name another file"
    )
    assert not target.parent.exists()


def test_cassettes_check_of_a_missing_folder_is_an_error(tmp_path):
    missing = tmp_path / "cassettes"
    assert one_line(["cassettes", "check", "--dir", str(missing)]).startswith(
        f"error: no cassettes folder at {missing} — "
    )


def test_review_with_both_verdicts_is_refused(tmp_path, reports_root):
    said = one_line(["review", "20260101-120000-ab12", "case", "--pass", "--fail", "--note", "x"])
    assert said == "error: --pass and --fail were both given — pass the one verdict you mean"


@pytest.fixture
def ana(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 's.db'}")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["x" * 100_000], "error: the query is 100,000 characters; the limit is 2,000"),
        (["tea", "--min-similarity", "nan"], "error: --min-similarity is nan; it must be"),
        (["tea", "--min-similarity", "7"], "error: --min-similarity is 7.0; it must be"),
    ],
)
def test_search_refuses_a_huge_query_and_a_similarity_that_is_no_number(ana, args, said):
    line = one_line(["search", *args, "--person", "Ana"])
    assert line.startswith(said) and len(line) < 200
