"""`converse record --suite NAME`: real recordings need a key; synthetic ones use the loopback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner, Result

from evals.cassettes import check_file, synthetic_answers
from evals.cli import app
from pipeline.prompting import default_library

runner = CliRunner()

SUITE = """\
name: mini_boundaries
target: classify
description: two cases for recording
cases:
  - id: shellfish
    project: Weeknight cooking
    message: "I'm allergic to shellfish"
    expect: {intent: remember_about_me}
  - id: yes-after-offer
    history:
      - operator: "I'm allergic to shellfish"
      - companion: "I'll remember that you're allergic to shellfish — is that right?"
        intent: remember_about_me
    message: "yes"
    expect: {intent: remember_about_me}
"""


def replayed(cassette: Path, suite: Path) -> list[tuple[str, str, int]]:
    """`converse eval --provider claude --cassette` on the suite: (suite, model, passed) rows."""
    result = runner.invoke(
        app,
        ["eval", "--no-progress", "--no-report", "--json", "--provider", "claude",
         "--cassette", str(cassette), "--suite", str(suite)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return [
        (r["suite"], r["model"], r["passed"], r["errors"])
        for r in json.loads(result.stdout)["results"]
    ]


@pytest.fixture(autouse=True)
def _reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs that replay a recording go to the test's folder, not the project's reports."""
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(tmp_path / "reports"))


@pytest.fixture
def suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    path = tmp_path / "mini_boundaries.yaml"
    path.write_text(SUITE, encoding="utf-8")
    return path


def test_recording_against_the_api_without_a_key_is_refused(suite: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["record", "--suite", str(suite), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output == (
        "error: converse record calls the real Anthropic API and ANTHROPIC_API_KEY is not set — "
        "export ANTHROPIC_API_KEY=... (it never reaches a cassette), or pass --synthetic ANSWERS "
        "to record from the loopback server\n"
    )
    assert not (tmp_path / "out").exists()


def test_a_synthetic_recording_replays_and_checks_fresh(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "record",
            "--suite",
            str(suite),
            "--synthetic",
            str(synthetic_answers()),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    cassette = out / "synthetic" / "suites" / "mini_boundaries.yaml"
    assert result.output.splitlines()[:2] == [
        "  shellfish: remember_about_me",
        "  yes-after-offer: remember_about_me",
    ]
    meta = yaml.safe_load(cassette.read_text())["metadata"]["converse"]
    assert meta["synthetic"] is True
    assert meta["rerecord"].startswith(f"converse record --suite {suite} --synthetic ")
    assert check_file(cassette, default_library()).ok
    assert replayed(cassette, suite) == [("mini_boundaries", "synthetic-fixture", 2, 0)]


BLOCKS = """\
name: blocks
target: memory_block
description: no model calls
cases:
  - id: empty
    memories: []
    expect: {max_chars: 2000}
"""


@pytest.mark.parametrize("synthetic", [True, False])
def test_suites_that_make_no_model_calls_are_not_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, synthetic: bool
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)  # no key: the suite is still named
    path = tmp_path / "blocks.yaml"
    path.write_text(BLOCKS)
    answers = ["--synthetic", str(synthetic_answers())] if synthetic else []
    result = runner.invoke(app, ["record", "--suite", str(path), *answers])
    assert result.exit_code == 2
    assert result.output == (
        "error: suite blocks (memory_block) makes no model calls, so there is nothing to record"
        f" — run it as it is with `converse eval --suite {path}`\n"
    )


FAILING = """\
answers:
  - kind: classify
    error: {status: 529, type: overloaded_error, message: Overloaded, retry_after: 0}
"""


def _record(suite: Path, answers: Path, out: Path) -> Result:
    return runner.invoke(
        app, ["record", "--suite", str(suite), "--synthetic", str(answers), "--out", str(out)]
    )


def test_a_recording_whose_calls_fail_exits_3_and_keeps_the_good_cassette(
    suite: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert _record(suite, synthetic_answers(), out).exit_code == 0
    cassette = out / "synthetic" / "suites" / "mini_boundaries.yaml"
    good = cassette.read_bytes()
    failing = tmp_path / "failing.yaml"
    failing.write_text(FAILING, encoding="utf-8")

    result = _record(suite, failing, out)

    assert result.exit_code == 3
    lines = result.output.splitlines()
    retried = [f"    HTTP 529; retry {n} after 0 s (as retry-after asked)" for n in (1, 2, 3)]
    gave_up = "    HTTP 529; gave up after 3 retries"
    assert lines[:10] == [
        "  shellfish: error: the Messages API answered HTTP 529 overloaded_error: Overloaded",
        *retried,
        gave_up,
        "  yes-after-offer: error: the Messages API answered HTTP 529 overloaded_error: Overloaded",
        *retried,
        gave_up,
    ]
    assert lines[10].startswith(
        "error: 2 of 2 calls failed (shellfish, yes-after-offer); "
        f"{cassette} was left as it was — fix the cause and re-run `converse record --suite "
    )
    assert cassette.read_bytes() == good
    assert sorted(p.name for p in cassette.parent.iterdir()) == ["mini_boundaries.yaml"]


def test_a_first_recording_that_fails_writes_no_cassette(suite: Path, tmp_path: Path) -> None:
    failing = tmp_path / "failing.yaml"
    failing.write_text(FAILING, encoding="utf-8")

    result = _record(suite, failing, tmp_path / "out")

    assert result.exit_code == 3
    folder = tmp_path / "out" / "synthetic" / "suites"
    assert not folder.exists() or list(folder.iterdir()) == []


RATE_LIMITED_ONCE = """\
answers:
  - kind: classify
    message: "I'm allergic to shellfish"
    error: {status: 429, type: rate_limit_error, message: Slow down, retry_after: 0, times: 1}
  - kind: classify
    tool_input: {intent: remember_about_me, personal_fact: "You're allergic to shellfish"}
"""


def test_a_429_then_a_200_is_recorded_as_the_200_alone_and_replays(
    suite: Path, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.yaml"
    answers.write_text(RATE_LIMITED_ONCE, encoding="utf-8")
    out = tmp_path / "out"

    result = _record(suite, answers, out)

    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:3] == [
        "  shellfish: remember_about_me",
        "    HTTP 429; retry 1 after 0 s (as retry-after asked)",
        "  yes-after-offer: remember_about_me",
    ]
    cassette = out / "synthetic" / "suites" / "mini_boundaries.yaml"
    recorded = yaml.safe_load(cassette.read_text())
    assert [i["response"]["status"]["code"] for i in recorded["interactions"]] == [200, 200]
    assert replayed(cassette, suite) == [("mini_boundaries", "synthetic-fixture", 2, 0)]


NOT_TO_BE_RETRIED = """\
answers:
  - kind: classify
    error: {status: 529, type: overloaded_error, message: Overloaded, should_retry: false}
"""


def test_a_failure_the_server_says_not_to_retry_is_not_retried(suite: Path, tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    answers.write_text(NOT_TO_BE_RETRIED, encoding="utf-8")

    result = _record(suite, answers, tmp_path / "out")

    assert result.exit_code == 3
    assert result.output.splitlines()[:2] == [
        "  shellfish: error: the Messages API answered HTTP 529 overloaded_error: Overloaded",
        "    HTTP 529; not retried: the server sent x-should-retry: false",
    ]


TOO_LONG_A_WAIT = """\
answers:
  - kind: classify
    error: {status: 429, type: rate_limit_error, message: Slow down, retry_after: 120}
"""


def test_a_wait_longer_than_the_bound_is_not_waited_for(suite: Path, tmp_path: Path) -> None:
    answers = tmp_path / "answers.yaml"
    answers.write_text(TOO_LONG_A_WAIT, encoding="utf-8")

    result = _record(suite, answers, tmp_path / "out")

    assert result.exit_code == 3
    assert result.output.splitlines()[1] == (
        "    HTTP 429; not retried: the server asked for a wait of 120 s, more than the 60 s allowed"
    )


CONVERSATION = """\
name: mini_talk
target: conversation
description: one conversation for recording
gate: {accuracy: 1.0}
cases:
  - id: confirm-allergy
    turns:
      - message: "I'm allergic to shellfish"
        expect: {action: held, memory: [{state: held, text: {contains: [shellfish]}}]}
      - message: "yes"
        expect:
          action: committed
          reply: {contains: [remember]}
          memory: [{state: committed, text: {contains: [shellfish]}}]
"""


def _fixtures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A fixtures folder of our own (its cassettes are where --replay looks), and the answers."""
    answers = synthetic_answers()  # read before the fixtures folder moves
    fixtures = tmp_path / "fixtures"
    monkeypatch.setenv("CONVERSE_FIXTURES_DIR", str(fixtures))
    return fixtures / "cassettes", answers


def test_a_conversation_suite_records_classifier_and_responder_calls_and_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "300")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    out, answers = _fixtures(tmp_path, monkeypatch)
    suite = tmp_path / "mini_talk.yaml"
    suite.write_text(CONVERSATION, encoding="utf-8")

    result = _record(suite, answers, out)

    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "  confirm-allergy: 2 turns (remember_about_me, remember_about_me)"
    )
    cassette = out / "synthetic" / "suites" / "mini_talk.yaml"
    bodies = [i["request"]["body"]["json"] for i in yaml.safe_load(cassette.read_text())[
        "interactions"]]  # fmt: skip
    classify = [b for b in bodies if "output_config" in b and "format" in b["output_config"]]
    respond = [b for b in bodies if b not in classify]
    assert (len(classify), len(respond)) == (2, 2)  # each turn: classifier, then responder
    assert {b["model"] for b in respond} == {"claude-sonnet-5-5"}
    assert check_file(cassette, default_library()).ok

    replay = runner.invoke(
        app,
        ["eval", "--no-progress", "--no-report", "--json", "--provider", "claude", "--replay",
         "--suite", str(suite)],
    )  # fmt: skip
    assert replay.exit_code == 0, replay.output
    (entry,) = json.loads(replay.stdout)["results"]
    assert (entry["suite"], entry["n"], entry["passed"], entry["errors"]) == ("mini_talk", 1, 1, 0)
    assert entry["model"] == "synthetic-fixture"


def test_record_all_records_every_suite_that_calls_a_model_and_eval_replays_them(
    suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, answers = _fixtures(tmp_path, monkeypatch)
    (tmp_path / "mini_talk.yaml").write_text(CONVERSATION, encoding="utf-8")
    (tmp_path / "blocks.yaml").write_text(BLOCKS, encoding="utf-8")
    monkeypatch.setenv("CONVERSE_SUITES_DIR", str(tmp_path))

    result = runner.invoke(app, ["record", "--all", "--synthetic", str(answers)])

    assert result.exit_code == 0, result.output
    assert "blocks: skipped (memory_block makes no model calls)" in result.output
    suites = out / "synthetic" / "suites"
    assert sorted(p.name for p in suites.iterdir()) == ["mini_boundaries.yaml", "mini_talk.yaml"]
    meta = yaml.safe_load((suites / "mini_talk.yaml").read_text())["metadata"]["converse"]
    assert meta["rerecord"] == f"converse record --suite mini_talk --synthetic {answers}"

    replay = runner.invoke(
        app, ["eval", "--no-progress", "--no-report", "--json", "--provider", "claude", "--replay"]
    )
    assert replay.exit_code == 0, replay.output
    got = {r["suite"]: (r["passed"], r["errors"]) for r in json.loads(replay.stdout)["results"]}
    assert got == {"mini_boundaries": (2, 0), "mini_talk": (1, 0), "blocks": (1, 0)}


def test_record_needs_a_suite_or_all(tmp_path: Path) -> None:
    result = runner.invoke(app, ["record", "--synthetic", str(synthetic_answers())])
    assert result.exit_code == 2
    assert result.output.startswith(
        "error: name the suite to record with --suite NAME, or record every suite with --all"
    )
