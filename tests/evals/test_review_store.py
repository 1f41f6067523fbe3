"""reviews.jsonl keeps every verdict whole: an append ends a last line left without its
newline, refuses a torn one, reads back what it wrote, and keeps one copy of a verdict given
twice; notes are bounded; case ids that a form cannot carry are refused when a suite loads."""

# ruff: noqa: F811  (run_id is a fixture)
from __future__ import annotations

import json

import pytest

from evals.dataset import load_suite
from evals.dataset.load import SuiteError
from evals.report import load_reviews
from evals.runner import RunDir
from tests.evals.test_eval_review import review, run_id  # noqa: F401  (fixture)


def _reviews(run_id):
    return RunDir.existing(run_id).path / "reviews.jsonl"


def test_a_last_line_without_its_newline_is_ended_before_the_next_verdict(run_id):
    assert review(run_id, "--fail", "--note", "first", "--reviewer", "rita").exit_code == 0
    path = _reviews(run_id)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))  # written by a tool that did not end it
    assert review(run_id, "--pass", "--note", "second", "--reviewer", "sam").exit_code == 0
    lines = path.read_text().splitlines()
    assert [json.loads(line)["note"] for line in lines] == ["first", "second"]
    (history,) = load_reviews(RunDir.existing(run_id)).values()
    assert [r.note for r in history] == ["first", "second"]


def test_a_torn_last_line_refuses_the_append_and_loses_nothing(run_id):
    assert review(run_id, "--fail", "--note", "first", "--reviewer", "rita").exit_code == 0
    path = _reviews(run_id)
    before = path.read_bytes() + b'{"suite": "tiny_cla'
    path.write_bytes(before)
    refused = review(run_id, "--pass", "--note", "second", "--reviewer", "sam")
    assert refused.exit_code == 2 and "is torn (not a whole review)" in refused.stderr
    assert path.read_bytes() == before


def test_a_reviews_file_that_is_not_a_regular_file_is_refused(run_id):
    _reviews(run_id).mkdir()
    refused = review(run_id, "--pass", "--note", "x", "--reviewer", "sam")
    assert refused.exit_code == 2 and "is not a regular file" in refused.stderr


def test_the_same_verdict_twice_is_kept_once_and_a_new_one_keeps_the_old(run_id):
    for _ in range(3):
        assert review(run_id, "--fail", "--note", "miss", "--reviewer", "rita").exit_code == 0
    assert review(run_id, "--pass", "--note", "fine", "--reviewer", "rita").exit_code == 0
    notes = [json.loads(x)["note"] for x in _reviews(run_id).read_text().splitlines()]
    assert notes == ["miss", "fine"]


def test_a_note_is_at_most_2000_characters(run_id):
    long = review(run_id, "--fail", "--note", "x" * 2001, "--reviewer", "rita")
    assert long.exit_code == 2 and "the note is 2,001 characters" in long.stderr
    assert not _reviews(run_id).exists()
    assert review(run_id, "--fail", "--note", "x" * 2000, "--reviewer", "rita").exit_code == 0


@pytest.mark.parametrize("bad", ["two\nlines", "nul\x00id", "tab\there", "rtl\u202eid"])
def test_a_case_id_a_form_cannot_carry_is_refused_when_the_suite_loads(make_suite, bad):
    path = make_suite(
        {"name": "ids", "target": "classify",
         "cases": [{"id": bad, "message": "hi", "expect": {"intent": "general_conversation"}}]}
    )  # fmt: skip
    with pytest.raises(SuiteError, match="holds the control character U\\+"):
        load_suite(path)
