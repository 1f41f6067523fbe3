"""Hostile suite files, run ids and run folders: one clear line, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evals.cli import app
from evals.dataset import load_suite
from evals.dataset.load import SuiteError
from evals.runner import RunDir

runner = CliRunner()

# Six levels of nine aliases: 500 bytes that expand to 531,441 copies of "lol".
BOMB = """\
name: bomb
target: classify
cases:
  - id: boom
    message: hi
    history:
      - companion: hello
        intent: remember_about_me
        operation_data:
          a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
          b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
          c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
          d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
          e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
          f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
    expect: {intent: general_conversation}
"""


def one_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1, result.output
    return lines[0]


def suite_text(case_lines: str) -> str:
    return f"name: s\ntarget: classify\ncases:\n{case_lines}"


def test_an_alias_bomb_is_refused_before_it_expands(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB, encoding="utf-8")
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert caught.value.one_line() == (
        f"{path} expands to more than 200,000 YAML nodes or 10,000,000 characters (aliases "
        "repeat what they name) — write the cases out without nested aliases, or split the suite"
    )
    result = runner.invoke(app, ["eval", "--no-progress", "--suite", str(path)])
    assert one_line(result) == f"error: {caught.value.one_line()}"


def test_a_self_referring_alias_and_deep_nesting_are_refused(tmp_path):
    cyclic = tmp_path / "cyclic.yaml"
    cyclic.write_text(suite_text("  - &c [1, *c]\n"), encoding="utf-8")
    with pytest.raises(SuiteError, match="an alias refers to itself — remove the cycle"):
        load_suite(cyclic)
    deep = tmp_path / "deep.yaml"
    deep.write_text(suite_text("  - " + "[" * 5000 + "]" * 5000 + "\n"), encoding="utf-8")
    with pytest.raises(SuiteError) as caught:
        load_suite(deep)
    assert caught.value.one_line() == f"{deep} is nested too deeply — flatten the YAML"


def test_a_suite_file_over_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(suite_text("# " + "x" * 2_000_000 + "\n"), encoding="utf-8")
    size = path.stat().st_size
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert caught.value.one_line() == (
        f"{path} is {size:,} bytes; a suite file may have at most 2,000,000 — "
        "split it into several suites"
    )


def test_suite_messages_are_held_to_the_chat_limit_and_to_clean_text(tmp_path):
    long = "x" * 8001
    path = tmp_path / "long.yaml"
    path.write_text(
        suite_text(
            f"  - {{id: long, message: {long}, expect: {{intent: general_conversation}}}}\n"
            f"  - id: old\n    history: [{{operator: {long}}}]\n    message: hi\n"
            "    expect: {intent: general_conversation}\n"
            '  - {id: nul, message: "a\\0b", expect: {intent: general_conversation}}\n'
            '  - {id: fine, message: "8,000 is fine", expect: {intent: general_conversation}}\n'
        ),
        encoding="utf-8",
    )
    with pytest.raises(SuiteError) as caught:
        load_suite(path)
    assert caught.value.message.splitlines() == [
        f"{path}: case 'long': field message: the message is 8,001 characters; the limit is 8,000",
        f"{path}: case 'old': field history.0.operator: the message is 8,001 characters; "
        "the limit is 8,000",
        f"{path}: case 'nul': field message: the message contains a NUL character",
    ]
    (tmp_path / "ok.yaml").write_text(
        suite_text(f"  - {{id: max, message: {'x' * 8000}, expect: {{intent: add_knowledge}}}}\n"),
        encoding="utf-8",
    )
    assert len(load_suite(tmp_path / "ok.yaml").cases) == 1


@pytest.fixture
def run_id(classify_suite, script_file) -> str:
    result = runner.invoke(
        app,
        ["eval", "--no-progress", "--suite", str(classify_suite), "--provider", "scripted",
         "--script", str(script_file), "--json", "--no-report"],
    )  # fmt: skip
    assert result.exit_code == 1, result.output  # tiny_classify fails its gate
    found: str = json.loads(result.stdout)["run_id"]
    return found


NOT_A_RUN = "is not a run id — run ids look like 20260101-120000-ab12 (see reports/runs)"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["report", "../../../etc"], f"error: '../../../etc' {NOT_A_RUN}"),
        (["report", "RUN", "--compare", "../RUN"], f"error: '../RUN' {NOT_A_RUN}"),
        (
            ["report", "RUN", "--release", "../../pwned"],
            "error: '../../pwned' is not a release version — use a version such as 0.2.0",
        ),
        (
            ["review", "../../outside", "shellfish", "--pass", "--note", "x"],
            f"error: '../../outside' {NOT_A_RUN}",
        ),
        (["eval", "--resume", "../RUN"], f"error: '../RUN' {NOT_A_RUN}"),
        (["eval", "--retry-errors", "/tmp"], f"error: '/tmp' {NOT_A_RUN}"),
        (
            ["review", "RUN", "shellfish", "--pass", "--note", "bad \x00 note"],
            "error: the note contains a NUL character — send it again as plain UTF-8 text",
        ),
    ],
)
def test_run_ids_and_versions_are_never_paths(run_id, reports_root, tmp_path, args, expected):
    before = sorted(p for p in tmp_path.rglob("*"))
    args = [a.replace("RUN", run_id) for a in args]
    assert one_line(runner.invoke(app, args)) == expected.replace("RUN", run_id)
    assert sorted(p for p in tmp_path.rglob("*")) == before


def test_bad_rows_are_skipped_counted_and_named(run_id):
    run = RunDir.existing(run_id)
    good = run.rows()
    with run.results_path.open("ab") as handle:
        handle.write(b"\xff\xfe binary \x00 junk\n")
        handle.write(b'{"hello": "world"}\n')
        handle.write(b"not json\n")
        handle.write(b'{"suite": "s", "case_id": "c", "provider": "p", "target": "classify", '
                     b'"status": "pass", "variant": "active", "epoch": "0"}\n')  # fmt: skip
    n = len(good)
    result = runner.invoke(app, ["report", run_id])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"warning: {run.results_path}: skipped 4 unreadable row(s): line {n + 1} (not UTF-8), "
        f"{n + 2} (field suite is missing or not of type str), {n + 3} (not JSON), "
        f"{n + 4} (field epoch is missing or not of type int)"
    ]
    assert "report.html" in result.stdout
    assert RunDir.existing(run_id).rows() == good


@pytest.mark.parametrize(
    ("content", "reason"),
    [(b"{not json", "JSONDecodeError"), (b"\xff\xfe", "UnicodeDecodeError")],
)
def test_an_unreadable_run_json_is_one_line(run_id, content, reason):
    meta = RunDir.existing(run_id).path / "run.json"
    meta.write_bytes(content)
    expected = (
        f"error: {meta} cannot be read ({reason}) — restore it from a backup, or start a new run"
    )
    assert one_line(runner.invoke(app, ["report", run_id])) == expected
    resumed = runner.invoke(app, ["eval", "--no-progress", "--resume", run_id])
    assert resumed.exit_code == 2
    # refused before the run is named: whether it is a batch run is read from run.json first
    assert resumed.stderr.splitlines() == [expected]


def test_run_json_that_is_not_an_object_is_one_line(run_id):
    meta = RunDir.existing(run_id).path / "run.json"
    meta.write_text("[1, 2]", encoding="utf-8")
    assert one_line(runner.invoke(app, ["report", run_id])) == (
        f"error: {meta} is not a run description (a JSON object) — restore it from a backup, "
        "or start a new run"
    )


def test_case_ids_and_notes_print_as_typed(make_suite, tmp_path):
    hostile = "[bold red]x[/] [/y] :pizza:"
    suite = make_suite(
        {"name": "marked", "target": "classify",
         "cases": [{"id": hostile, "message": "I'm allergic to shellfish",
                    "expect": {"intent": "remember_about_me"}}]},
    )  # fmt: skip
    script = Path(__file__).resolve().parents[2] / "fixtures" / "scripted" / "demo.yaml"
    ran = runner.invoke(
        app,
        ["eval", "--no-progress", "--suite", str(suite), "--provider", "scripted",
         "--script", str(script), "--json", "--no-report"],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    run_id = json.loads(ran.stdout)["run_id"]
    reviewed = runner.invoke(
        app,
        ["review", run_id, hostile, "--suite", "marked", "--pass", "--note", hostile,
         "--reviewer", hostile],
    )  # fmt: skip
    assert reviewed.exit_code == 0, reviewed.output
    assert f"recorded: marked/{hostile} on scripted -> pass by {hostile} at " in reviewed.stdout
    missing = runner.invoke(
        app, ["review", run_id, f"{hostile}2", "--suite", "marked", "--pass", "--note", "n"]
    )
    assert one_line(missing) == (
        f"error: run {run_id} has no case '{hostile}2' — check the case id (or SUITE/CASE)"
    )


def test_paths_with_brackets_print_as_they_are(classify_suite, script_file, tmp_path, monkeypatch):
    root = tmp_path / "[bold]reports[/] [/x]"
    monkeypatch.setenv("CONVERSE_REPORTS_DIR", str(root))
    ran = runner.invoke(
        app,
        ["eval", "--no-progress", "--suite", str(classify_suite), "--provider", "scripted",
         "--script", str(script_file)],
    )  # fmt: skip
    assert ran.exit_code == 1, ran.output  # the gate fails; the run itself worked
    run_id = ran.stderr.splitlines()[0].removeprefix("run ")
    assert f"rows: {root / 'runs' / run_id / 'results.jsonl'}" in ran.stdout
    assert f"report: {root / 'runs' / run_id / 'report.html'}" in ran.stdout
    reported = runner.invoke(app, ["report", run_id])
    assert reported.stdout.splitlines() == [
        f"report: {root / 'runs' / run_id / 'report.md'}",
        f"report: {root / 'runs' / run_id / 'report.html'}",
    ]


def test_a_well_typed_row_with_damaged_details_still_reports(run_id):
    run = RunDir.existing(run_id)
    row = dict(run.rows()[0])
    row.update(
        case_id="damaged",
        status="fail",
        expected={"intent": "remember_about_me", "params": {"fact": "not a check"}},
        got={"intent": "general_conversation", "params": ["not", "a", "mapping"]},
    )
    with run.results_path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(row) + "\n")
    result = runner.invoke(app, ["report", run_id])
    assert result.exit_code == 0, result.output
    markdown = (run.path / "report.md").read_text(encoding="utf-8")
    assert "remember_about_me; fact not a check" in markdown
