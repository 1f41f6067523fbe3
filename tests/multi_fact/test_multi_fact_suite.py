"""Suites that carry pipeline settings: the multi_fact suite runs with extraction on, every
other conversation suite with its default (off); a bad setting is refused at load."""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.dataset.conversation import ConversationCase
from evals.dataset.load import SuiteError, load_suite, load_suites


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(text, encoding="utf-8")
    return path


CASE = """
cases:
  - id: one
    turns:
      - message: "I'm allergic to cats"
"""


def test_the_multi_fact_suite_runs_every_case_with_extraction_on() -> None:
    (suite,) = load_suites(["multi_fact"])
    assert 20 <= len(suite.cases) <= 30
    for case in suite.cases:
        assert isinstance(case, ConversationCase)
        assert case.settings == {"multi_fact_extraction": True}


def test_the_other_conversation_suites_run_with_the_setting_off() -> None:
    for suite in load_suites():
        if suite.target == "conversation" and suite.name != "multi_fact":
            assert all(not c.settings for c in suite.cases), suite.name  # type: ignore[union-attr]


def test_a_case_setting_wins_over_the_suites(tmp_path: Path) -> None:
    text = (
        "name: s\ntarget: conversation\nsettings: {multi_fact_extraction: true, "
        "multi_fact_min_chars: 200}\n" + CASE + "    settings: {multi_fact_min_chars: 60}\n"
    )
    (case,) = load_suite(_write(tmp_path, text)).cases
    assert case.settings == {"multi_fact_extraction": True, "multi_fact_min_chars": 60}


def test_an_unknown_setting_is_refused_with_its_name(tmp_path: Path) -> None:
    text = "name: s\ntarget: conversation\nsettings: {multi_fact: true}\n" + CASE
    with pytest.raises(SuiteError, match="unknown setting 'multi_fact'"):
        load_suite(_write(tmp_path, text))


def test_a_setting_out_of_range_is_refused(tmp_path: Path) -> None:
    text = "name: s\ntarget: conversation\nsettings: {multi_fact_min_chars: 5}\n" + CASE
    with pytest.raises(SuiteError, match="setting multi_fact_min_chars"):
        load_suite(_write(tmp_path, text))


def test_settings_on_a_suite_that_runs_no_conversation_are_refused(tmp_path: Path) -> None:
    text = (
        "name: s\ntarget: classify\nsettings: {multi_fact_extraction: true}\ncases:\n"
        "  - {id: a, message: hi, expect: {intent: general_conversation}}\n"
    )
    with pytest.raises(SuiteError, match="only `conversation` suites"):
        load_suite(_write(tmp_path, text))
