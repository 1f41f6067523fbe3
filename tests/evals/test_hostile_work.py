"""Work a command could be asked to do without end: capped, refused in one line, nothing run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite
from evals.dataset.load import SuiteError
from pipeline.errors import ConverseError
from pipeline.files import read_bounded

runner = CliRunner()


def one_line(args: list[str]) -> str:
    result = runner.invoke(app, args)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "suite.yaml"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--epochs", "1000000000"], "error: --epochs is 1,000,000,000; it must be 1 to 100"),
        (["-j", "1000000"], "error: --concurrency is 1,000,000; it must be 1 to 64"),
        (["--concurrency", "0"], "error: --concurrency is 0; it must be 1 to 64"),
    ],
)
def test_counts_that_size_a_run_are_capped(tmp_path, monkeypatch, args, said):
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    assert one_line(["eval", "--provider", "local", *args]) == said
    assert not (tmp_path / "reports").exists()  # refused before any run folder


def test_a_suite_that_is_not_a_regular_file_is_refused_unread(fifo):
    # Opening a FIFO for reading waits for a writer: this test would hang before the check.
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(SuiteError, match="is not a regular file"):
            load_suite(path)
    said = one_line(["eval", "--suite", "/dev/zero", "--provider", "local", "--no-report"])
    assert said == (
        "error: /dev/zero is not a regular file (a device, pipe or socket), so not a suite file"
        " — name a file on disk"
    )


def test_a_file_that_reports_no_size_is_still_read_only_up_to_the_limit(tmp_path):
    # /proc files say 0 bytes and a file can grow while it is read: the read itself is bounded.
    grows = Path("/proc/self/maps")
    if not grows.exists():
        pytest.skip("needs /proc")
    with pytest.raises(ConverseError, match="is over 10 bytes; a map may have at most 10"):
        read_bounded(grows, 10, "map")


def test_a_missing_cassette_or_script_is_one_line_before_any_case_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))
    missing = tmp_path / "nowhere.yaml"
    assert one_line(["eval", "--provider", "claude", "--cassette", str(missing)]) == (
        f"error: cassette {missing} not found — name a cassette `converse record` wrote"
    )
    assert one_line(["eval", "--provider", "scripted", "--script", "/dev/zero"]) == (
        "error: script /dev/zero is not a regular file — pass an existing fixture file"
    )
    assert not (tmp_path / "reports").exists()


def test_a_chat_script_that_is_a_pipe_is_refused(tmp_path, fifo, monkeypatch):
    monkeypatch.setenv("CONVERSE_DB_URL", f"sqlite:///{tmp_path / 'c.db'}")
    assert runner.invoke(app, ["person", "add", "Ana"]).exit_code == 0
    chat = ["chat", "-p", "Ana", "--provider", "scripted", "--script", str(fifo), "-m", "hi"]
    assert "is not a regular file" in one_line(chat)


@pytest.fixture
def run_id(classify_suite, script_file) -> str:
    import json

    args = ["eval", "--no-progress", "--suite", str(classify_suite), "--provider", "scripted"]
    result = runner.invoke(app, [*args, "--script", str(script_file), "--json", "--no-report"])
    assert result.exit_code == 1, result.output  # tiny_classify fails its gate
    found: str = json.loads(result.stdout)["run_id"]
    return found


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda m: m["config"].update(epochs="three"), "config.epochs"),
        (lambda m: m["config"].update(epochs=10**9), "config.epochs"),
        (lambda m: m["config"].update(suites="one.yaml"), "config.suites"),
        (lambda m: m.update(suite_info=[{"name": 7}]), "suite_info.0.name"),
        (lambda m: m.update(git={"commit": 42}), "git.commit"),
        (lambda m: m.pop("config"), "config"),
    ],
)
def test_run_json_with_a_value_of_the_wrong_type_is_one_line(run_id, change, field):
    import json

    from evals.runner import RunDir

    path = RunDir.existing(run_id).path / "run.json"
    meta = json.loads(path.read_text(encoding="utf-8"))
    change(meta)
    path.write_text(json.dumps(meta), encoding="utf-8")
    for args in (["report", run_id], ["eval", "--no-progress", "--resume", run_id]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert f"error: {path}: field {field}: " in result.stderr, result.output
        assert result.stderr.rstrip().endswith(
            "— restore run.json from a backup, or start a new run"
        )
        assert "Traceback" not in result.output


def test_export_promptfoo_into_an_existing_file_is_one_line(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("mine", encoding="utf-8")
    suite = Path(__file__).resolve().parents[2] / "evals" / "suites" / "intent_boundaries.yaml"
    said = one_line(["export", "promptfoo", "--suite", str(suite), "--out", str(taken)])
    assert said == (
        f"error: --out {taken} is a file; promptfoo's config and provider go into a folder — "
        "name a folder (it is created when missing)"
    )
    assert taken.read_text(encoding="utf-8") == "mine"


def test_a_yaml_error_in_a_suite_is_one_line_with_the_file_and_line_first(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("name: s\ntarget: classify\ncases:\n  - {id: a, message: [1, 2\n", "utf-8")
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    said = caught.value.one_line()
    assert said.startswith(f"{path} is not valid YAML at line 5, column 1: ")
    assert "\n" not in said and said.endswith(" — fix the file")


def test_export_promptfoo_takes_every_provider_and_its_options(tmp_path):
    import yaml

    suite = Path(__file__).resolve().parents[2] / "evals" / "suites" / "intent_boundaries.yaml"
    out = tmp_path / "pf"
    args = ["export", "promptfoo", "--suite", str(suite), "--out", str(out)]
    assert one_line([*args, "--provider", "bogus"]).startswith("error: unknown provider 'bogus'")
    assert not out.exists()
    result = runner.invoke(
        app,
        [*args, "--provider", "local-llm", "--prompt", "classifier=v1",
         "--provider-option", "local-llm.model=SmolLM2-135M-Instruct"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    config = yaml.safe_load((out / "promptfooconfig.yaml").read_text(encoding="utf-8"))
    (entry,) = config["providers"]
    assert entry["config"]["provider"] == "local-llm"
    assert entry["config"]["options"] == {"model": "SmolLM2-135M-Instruct"}
    assert entry["config"]["prompt_versions"] == {"classifier": "v1"}
