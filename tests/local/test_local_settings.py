"""CONVERSE_LOCAL_* settings: a bad value is one line naming the variable."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from pipeline.errors import ConverseError
from pipeline.local_settings import local_threads, yaml_mapping

runner = CliRunner()
HINT = "point CONVERSE_LOCAL_EXAMPLES at an examples file like fixtures/local_model/examples.yaml"


@pytest.mark.parametrize("value", ["abc", "-1", "0", "100000"])
def test_a_bad_thread_count_is_one_line_naming_the_variable(monkeypatch, value):
    monkeypatch.setenv("CONVERSE_LOCAL_THREADS", value)
    with pytest.raises(ConverseError, match="CONVERSE_LOCAL_THREADS=") as caught:
        local_threads(2)
    assert "docs/settings.md" in caught.value.one_line()


def test_threads_default_when_unset_and_as_given_when_set(monkeypatch):
    monkeypatch.delenv("CONVERSE_LOCAL_THREADS", raising=False)
    assert local_threads(2) == 2
    monkeypatch.setenv("CONVERSE_LOCAL_THREADS", "3")
    assert local_threads(2) == 3


@pytest.mark.parametrize(
    ("path", "said"),
    [
        (Path("/etc/passwd"), "is not a YAML mapping"),
        (Path("/dev/zero"), "is not a regular file"),
        (Path("/nonexistent/examples.yaml"), "not found"),
    ],
)
def test_a_file_that_is_not_an_examples_mapping_is_one_line(path, said):
    if not path.parent.exists() and "not found" not in said:
        pytest.skip(f"needs {path}")
    with pytest.raises(ConverseError, match=said) as caught:
        yaml_mapping(path, "examples file", HINT)
    assert "\n" not in caught.value.one_line() and str(path) in caught.value.one_line()


def test_a_yaml_error_names_the_line_in_one_line(tmp_path):
    bad = tmp_path / "examples.yaml"
    bad.write_text("intents:\n  a: [1, 2\n", encoding="utf-8")
    with pytest.raises(ConverseError) as caught:
        yaml_mapping(bad, "examples file", HINT)
    assert "\n" not in caught.value.one_line() and "line 3" in caught.value.one_line()


@pytest.mark.parametrize(
    ("name", "value"),
    [("CONVERSE_LOCAL_THREADS", "abc"), ("CONVERSE_LOCAL_EXAMPLES", "/etc/passwd")],
)
def test_chat_with_a_bad_local_setting_is_one_line(tmp_path, monkeypatch, name, value):
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'l.db'}")
    monkeypatch.setenv("CONVERSE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv(name, value)
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    result = runner.invoke(app, ["chat", "-p", "Ana", "--provider", "local", "-m", "hello"])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and name in lines[0], result.output
