"""The exported promptfoo folder runs on another machine: no absolute paths in it, and its
provider answers in-process or through the `converse` on PATH, the same either way."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from evals.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]

# What promptfoo's Python wrapper does: load the file, call call_api(prompt, options, context).
DRIVER = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("converse_provider", sys.argv[1])
provider = importlib.util.module_from_spec(spec)
spec.loader.exec_module(provider)
requests = json.loads(sys.stdin.read())
print(json.dumps([provider.call_api(r["prompt"], r["options"], r["context"]) for r in requests]))
"""


def export(tmp_path: Path, classify_suite: Path, script_file: Path, *extra: str) -> Path:
    out = tmp_path / "pf"
    args = ["export", "promptfoo", "--suite", str(classify_suite), "--out", str(out),
            "--provider", "scripted", "--script", str(script_file), *extra]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def requests(out: Path) -> list[dict[str, object]]:
    config = yaml.safe_load((out / "promptfooconfig.yaml").read_text(encoding="utf-8"))
    (provider,) = config["providers"]
    return [
        {"prompt": t["vars"]["message"], "options": {"config": provider["config"]},
         "context": {"vars": t["vars"]}}
        for t in config["tests"]
    ]  # fmt: skip


def answers(responses: list[dict[str, object]]) -> list[tuple[object, object]]:
    return [(r.get("output"), r.get("error")) for r in responses]


def test_the_config_names_no_interpreter_and_no_absolute_path(
    tmp_path, classify_suite, script_file
):
    out = export(tmp_path, classify_suite, script_file)
    text = (out / "promptfooconfig.yaml").read_text(encoding="utf-8")
    assert "pythonExecutable" not in text
    assert sys.executable not in text and str(tmp_path) not in text and str(ROOT) not in text
    config = yaml.safe_load(text)
    assert config["providers"][0]["config"]["script"] == "converse_script.yaml"
    assert (out / "converse_script.yaml").read_bytes() == script_file.read_bytes()

    pinned = export(tmp_path, classify_suite, script_file, "--python", "python3.11")
    config = yaml.safe_load((pinned / "promptfooconfig.yaml").read_text(encoding="utf-8"))
    assert config["providers"][0]["config"]["pythonExecutable"] == "python3.11"


def test_a_missing_script_is_one_line(tmp_path, classify_suite):
    args = ["export", "promptfoo", "--suite", str(classify_suite), "--out", str(tmp_path / "pf"),
            "--provider", "scripted", "--script", str(tmp_path / "nope.yaml")]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: no script file at {tmp_path / 'nope.yaml'} — check the --script path"
    ]
    assert not (tmp_path / "pf").exists()


def _in_process(out: Path) -> list[tuple[object, object]]:
    spec = importlib.util.spec_from_file_location(
        "converse_provider_test", out / "converse_provider.py"
    )
    assert spec is not None and spec.loader is not None
    provider = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(provider)
    return answers(
        [provider.call_api(r["prompt"], r["options"], r["context"]) for r in requests(out)]
    )


def _isolated(out: Path, path: str) -> subprocess.CompletedProcess[str]:
    # -I -S: a Python that cannot import converse-harness (no site-packages, no PYTHONPATH).
    env = {k: v for k, v in os.environ.items() if k != "CONVERSE_HARNESS_ROOT"}
    env["PATH"] = path
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", DRIVER, str(out / "converse_provider.py")],
        input=json.dumps(requests(out)), capture_output=True, text=True, env=env,
        cwd=out, timeout=300, check=False,
    )  # fmt: skip


def test_without_the_package_the_converse_on_path_answers_the_same(
    tmp_path, classify_suite, script_file
):
    out = export(tmp_path, classify_suite, script_file)
    expected = _in_process(out)
    assert [(a["intent"], a["params"]) for a in (json.loads(o) for o, _ in expected[:3])] == [
        ("remember_about_me", {"personal_fact": "You're allergic to all shellfish"}),
        ("remember_about_me", {"personal_fact": "You're allergic to shrimp"}),
        ("general_conversation", {}),
    ]
    assert "no scripted entry" in str(expected[3][1])

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    converse = bin_dir / "converse"
    converse.write_text(
        f"#!/bin/sh\nPYTHONPATH={ROOT} exec {sys.executable} -c "
        '\'import sys; from evals.cli import main; sys.argv[0] = "converse"; main()\' "$@"\n',
        encoding="utf-8",
    )
    converse.chmod(0o755)
    done = _isolated(out, f"{bin_dir}{os.pathsep}/usr/bin:/bin")
    assert done.returncode == 0, done.stderr
    assert answers(json.loads(done.stdout)) == expected


def test_without_the_package_or_converse_on_path_each_test_says_what_to_do(
    tmp_path, classify_suite, script_file
):
    out = export(tmp_path, classify_suite, script_file)
    empty = tmp_path / "empty"
    empty.mkdir()
    done = _isolated(out, str(empty))
    assert done.returncode == 0, done.stderr
    errors = {r["error"] for r in json.loads(done.stdout)}
    assert errors == {
        f"{sys.executable} cannot import converse-harness and `converse` is not on PATH — "
        "put converse on PATH, or export again with --python PATH"
    }


@pytest.mark.parametrize("line", ["not json", '{"config": {}}'])
def test_the_worker_answers_a_bad_request_with_an_error_and_goes_on(line):
    from io import StringIO

    from evals.export.bridge import serve

    out = StringIO()
    block_case = {"id": "b", "memories": [], "expect": {"empty": True}}
    good = json.dumps({"config": {"target": "memory_block", "provider": "local"},
                       "vars": {"case": json.dumps(block_case)}})  # fmt: skip
    serve(StringIO(f"{line}\n\n{good}\n"), out)
    first, second = (json.loads(x) for x in out.getvalue().splitlines())
    assert set(first) == {"error"}
    assert second["output"] == ""
